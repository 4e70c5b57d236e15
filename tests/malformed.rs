//! Malformed and hostile input never panics: a typed error or a bounded result.

mod common;
use common::*;
use pcc::{budget, Code, Collector};

fn run(json: &str) -> Result<Snap, pcc::Error> {
    Collector::new("m").snapshot(json, &opts(None, None)).map(Snap::from)
}

#[test]
fn not_json_and_wrong_types_are_invalid_request() {
    for bad in ["", "not json", "[]", r#"{"frames": 5}"#, r#"{"frames":[{"ax":{"nodes":"x"}}]}"#, r#"{"snapshots":[{"snapshot":{"strings":[1]}}],"frames":[]}"#] {
        let e = run(bad).unwrap_err();
        assert_eq!(e.code, Code::InvalidRequest, "{bad}: {e}");
        assert!(!e.hint.is_empty());
    }
}

#[test]
fn an_observation_with_nothing_to_read_is_an_error() {
    let e = run(r#"{"url":"x","frames":[]}"#).unwrap_err();
    assert_eq!(e.code, Code::InvalidRequest);
}

#[test]
fn cycles_dangling_and_duplicate_ids_are_repaired() {
    let json = r#"{"viewport":{"width":800,"height":600},"frames":[{"frameId":"F","ax":{"nodes":[
        {"nodeId":"1","role":{"value":"RootWebArea"},"childIds":["2","3","404"]},
        {"nodeId":"2","parentId":"1","role":{"value":"button"},"name":{"value":"A"},"childIds":["1","2"]},
        {"nodeId":"2","parentId":"1","role":{"value":"button"},"name":{"value":"dup"}},
        {"nodeId":"3","parentId":"2","role":{"value":"link"},"name":{"value":"B"},"childIds":["3"]}
    ]}}]}"#;
    let r = run(json).expect("repaired");
    assert!(r.state.contains("button \"A\""), "{}", r.state);
    assert!(r.node_count <= 3);
}

#[test]
fn ax_ids_are_integers_as_chromium_sends_them() {
    let page = |root: &str, child: &str| {
        format!(r#"{{"frames":[{{"frameId":"F","ax":{{"nodes":[
            {{"nodeId":"{root}","role":{{"value":"RootWebArea"}},"childIds":["{child}"]}},
            {{"nodeId":"{child}","parentId":"{root}","role":{{"value":"button"}},"name":{{"value":"Go"}}}}]}}}}]}}"#)
    };
    // Negative ids are Chromium's too (nodes it makes up for ignored content).
    assert!(run(&page("-1000000002", "7")).expect("negative id").state.contains("button \"Go\""));
    for bad in ["n7", "7.5", "", "2147483648"] {
        let e = run(&page("1", bad)).unwrap_err();
        assert_eq!(e.code, Code::InvalidRequest, "{bad}: {e}");
    }
}

#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let depth = 100_000;
    let mut nodes = Vec::with_capacity(depth);
    for i in 0..depth {
        let role = if i == depth - 1 { "button" } else { "generic" };
        nodes.push(format!(
            r#"{{"nodeId":"{i}","role":{{"value":"{role}"}},"name":{{"value":"n{i}"}},"childIds":[{}]{}}}"#,
            if i + 1 < depth { format!("\"{}\"", i + 1) } else { String::new() },
            if i > 0 { format!(r#","parentId":"{}""#, i - 1) } else { String::new() }
        ));
    }
    let json = format!(r#"{{"frames":[{{"frameId":"F","ax":{{"nodes":[{}]}}}}]}}"#, nodes.join(","));
    let r = run(&json).expect("bounded result");
    assert!(r.char_count <= budget::TOTAL_CHARS);
    assert!(r.node_count <= budget::TOTAL_NODES);
}

#[test]
fn enormous_names_are_capped() {
    let big = "x".repeat(10_000_000);
    let json = format!(r#"{{"frames":[{{"frameId":"F","ax":{{"nodes":[{{"nodeId":"1","role":{{"value":"button"}},"name":{{"value":"{big}"}}}}]}}}}]}}"#);
    let r = run(&json).expect("bounded");
    assert!(r.char_count < 300, "{}", r.char_count);
}

#[test]
fn bounds_with_wrong_shapes_are_ignored() {
    let json = r#"{"viewport":{"width":800,"height":600},"frames":[{"frameId":"F","ax":{"nodes":[
        {"nodeId":"1","role":{"value":"button"},"name":{"value":"A"},"backendDOMNodeId":5}]}}],
      "snapshots":[{"session":"","snapshot":{"strings":["BUTTON"],"documents":[{"nodes":{"parentIndex":[-1],"nodeType":[1],"nodeName":[0],"backendNodeId":[5],"attributes":[[7,9]]},
        "layout":{"nodeIndex":[0, 99, -3],"styles":[[]],"bounds":[[1,2]],"paintOrders":[]}}]}}]}"#;
    let r = run(json).expect("lenient");
    assert!(r.state.contains("button \"A\""));
}

#[test]
fn dom_walk_with_bad_parent_links_is_repaired() {
    let json = r##"{"viewport":{"width":800,"height":600},"domWalk":{"url":"u","nodes":[
        {"parent":-1,"tag":"body"},{"parent":5,"tag":"button"},{"parent":0,"tag":"button","attrs":{"id":"b"}},{"parent":2,"tag":"#text","text":"Go"}]}}"##;
    let r = run(json).expect("repaired");
    assert_eq!(r.source.as_str(), "dom");
    assert!(r.state.contains("button \"Go\""), "{}", r.state);
}
