//! Property tests: real captures, mutated the ways broken or hostile input breaks them
//! (cycles, dangling and duplicate ids, wrong types, huge strings, absurd bounds, missing
//! parts). The collector must never panic: it returns a typed error or a bounded result,
//! and no planted secret ever reaches the output.
//!
//! `PROPTEST_CASES` sets the number of cases (`./build.sh test` runs the default below;
//! `./build.sh fuzz` runs many more).

mod common;
use pcc::session::mode::Mode;
use common::*;
use pcc::{budget, AxOptions, Code, Collector};
use proptest::prelude::*;
use serde_json::{json, Value};

#[derive(Debug, Clone)]
enum Mutation {
    Cycle(usize, usize),
    Dangling(usize),
    DuplicateId(usize, usize),
    WrongType(usize, u8),
    HugeName(usize, usize),
    AbsurdBounds(usize, u8),
    DropSnapshots,
    DropField(usize, u8),
    DeepChain(usize),
    ShuffleChildren(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::Cycle(a, b)),
        any::<usize>().prop_map(Mutation::Dangling),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::DuplicateId(a, b)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, k)| Mutation::WrongType(a, k)),
        (any::<usize>(), 1_000usize..400_000).prop_map(|(a, n)| Mutation::HugeName(a, n)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, k)| Mutation::AbsurdBounds(a, k)),
        Just(Mutation::DropSnapshots),
        (any::<usize>(), any::<u8>()).prop_map(|(a, k)| Mutation::DropField(a, k)),
        (1usize..3_000).prop_map(Mutation::DeepChain),
        any::<usize>().prop_map(Mutation::ShuffleChildren),
    ]
}

fn apply(v: &mut Value, m: &Mutation) {
    if let Mutation::AbsurdBounds(a, k) = *m {
        let bad = [json!([1e308, -1e308, 1e308, 1e308]), json!([-5, -5, -1, -1]), json!([0]), json!("bounds")][k as usize % 4].clone();
        if let Some(b) = v.pointer_mut("/snapshots/0/snapshot/documents/0/layout/bounds").and_then(Value::as_array_mut) {
            let len = b.len().max(1);
            if !b.is_empty() {
                b[a % len] = bad;
            }
        }
        return;
    }
    if let Mutation::DropSnapshots = m {
        v["snapshots"] = json!([]);
        return;
    }
    let Some(nodes) = v.pointer_mut("/frames/0/ax/nodes").and_then(Value::as_array_mut) else { return };
    let n = nodes.len().max(1);
    match *m {
        Mutation::Cycle(a, b) => {
            let id = nodes[a % n]["nodeId"].clone();
            if let Some(c) = nodes[b % n]["childIds"].as_array_mut() {
                c.push(id);
            }
        }
        Mutation::Dangling(a) => {
            if let Some(c) = nodes[a % n]["childIds"].as_array_mut() {
                c.push(json!("no-such-node"));
            }
        }
        Mutation::DuplicateId(a, b) => nodes[b % n]["nodeId"] = nodes[a % n]["nodeId"].clone(),
        Mutation::WrongType(a, k) => {
            let field = ["role", "name", "value", "properties", "backendDOMNodeId", "ignored"][k as usize % 6];
            let junk = [json!(null), json!(7), json!("x"), json!([1, 2]), json!({"value": {"nested": true}}), json!(true)][(k / 6) as usize % 6].clone();
            // As with HugeName below: a form field's name is its label, which is what makes a
            // label-named field secret; taking it away changes what is sensitive by design.
            if !(field == "name" && nodes[a % n]["role"]["value"] == "textbox") {
                nodes[a % n][field] = junk;
            }
        }
        // Renames anything but a form field: a field's label is what makes a label-named
        // field secret, so renaming it changes what is sensitive by design.
        Mutation::HugeName(a, len) if nodes[a % n]["role"]["value"] != "textbox" => nodes[a % n]["name"] = json!({"value": "y".repeat(len)}),
        Mutation::HugeName(..) => {}
        Mutation::AbsurdBounds(..) | Mutation::DropSnapshots => {}
        Mutation::DropField(a, k) => {
            let field = ["childIds", "parentId", "nodeId", "role"][k as usize % 4];
            if let Some(o) = nodes[a % n].as_object_mut() {
                o.remove(field);
            }
        }
        Mutation::DeepChain(depth) => {
            let root = nodes[0]["nodeId"].clone();
            let mut prev = root;
            for i in 0..depth {
                let id = format!("deep{i}");
                nodes.push(json!({"nodeId": id, "parentId": prev, "role": {"value": "generic"}, "childIds": [format!("deep{}", i + 1)]}));
                prev = json!(id);
            }
            let first = json!("deep0");
            if let Some(c) = nodes[0]["childIds"].as_array_mut() {
                c.push(first);
            }
        }
        Mutation::ShuffleChildren(a) => {
            if let Some(c) = nodes[a % n]["childIds"].as_array_mut() {
                c.reverse();
            }
        }
    }
}

fn check(name: &str, muts: &[Mutation], secrets: &[&str]) -> Result<(), TestCaseError> {
    let mut v: Value = serde_json::from_str(&capture(name)).unwrap();
    for m in muts {
        apply(&mut v, m);
    }
    let text = v.to_string();
    let mut c = Collector::new("f");
    for result in [c.snapshot(&text, &opts(None, None)), c.accessibility(&text, &AxOptions { tab: tab(), ..AxOptions::default() }), c.accessibility(&text, &AxOptions { tab: tab(), ..AxOptions::default() })] {
        match result {
            Ok(r) => {
                prop_assert!(r.char_count <= budget::TOTAL_CHARS, "{} chars", r.char_count);
                prop_assert!(r.node_count <= budget::TOTAL_NODES.max(r.total_nodes), "{} nodes", r.node_count);
                if r.mode == Mode::Full {
                    prop_assert!(r.node_count <= budget::TOTAL_NODES);
                }
                let wire = serde_json::to_string(&r).unwrap();
                for s in secrets {
                    prop_assert!(!wire.contains(s), "{s} leaked");
                }
            }
            Err(e) => prop_assert_eq!(e.code, Code::InvalidRequest, "{}", e),
        }
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_basic_page_never_panics(muts in prop::collection::vec(mutation(), 1..6)) {
        check("basic", &muts, &[])?;
    }

    #[test]
    fn mutated_sensitive_page_never_leaks(muts in prop::collection::vec(mutation(), 1..6)) {
        let secrets: Vec<String> = (1..=9).map(|i| format!("pw-SECRET-{i}")).collect();
        let refs: Vec<&str> = secrets.iter().map(String::as_str).collect();
        check("sensitive", &muts, &refs)?;
    }

    #[test]
    fn mutated_frames_page_never_panics(muts in prop::collection::vec(mutation(), 1..6)) {
        check("frames", &muts, &["frame-SECRET-1"])?;
    }

    #[test]
    fn arbitrary_json_is_an_error_or_a_bounded_result(s in "\\PC{0,200}") {
        let mut c = Collector::new("f");
        if let Err(e) = c.snapshot(&s, &opts(None, None)) {
            prop_assert_eq!(e.code, Code::InvalidRequest);
        }
    }
}
