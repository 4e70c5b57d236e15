//! Property tests for the other entry points of the core: page walks (`browser_dom_cua`,
//! `browser_extract`), the evaluate bound, tab lists, the model projection and model text.
//! Inputs are mutated the ways broken or hostile pages and hosts break them (cycles and
//! dangling parent links, duplicate and huge text, wrong types, absurd rects, arbitrary
//! JSON). Each must return a typed error or a bounded result, never panic, and never show a
//! planted secret. `PROPTEST_CASES` sets the case count (`./build.sh fuzz` runs many).

use pcc::budget::{self, Budget};
use pcc::tools::extract::{extract, Format};
use pcc::model::model_text::{is_own_words, model_text, TextOptions, FENCE_CLOSE};
use pcc::model::model_view::view;
use pcc::model::projection::{project, COMPACT_METHODS};
use pcc::tools::visible_dom::visible_dom;
use pcc::Code;
use proptest::prelude::*;
use serde_json::{json, Value};

const SECRETS: [&str; 7] = ["FZ-password-1", "FZ-hidden-2", "FZ-token-3", "FZ-otp-4", "FZ-card-5", "FZ-editor-6", "FZ-editor-7"];

/// A page walk with a form of secret fields, visible content, a nav and an iframe.
fn walk() -> Value {
    let n = |parent: i64, tag: &str, attrs: Value| json!({"parent": parent, "tag": tag, "attrs": attrs, "rect": [10, 10 + parent * 20, 300, 18]});
    let t = |parent: i64, text: &str| json!({"parent": parent, "tag": "#text", "text": text, "attrs": {}});
    let mut nodes = vec![
        n(-1, "html", json!({})),
        n(0, "body", json!({})),
        n(1, "nav", json!({})),
        n(2, "a", json!({"href": "/home"})),
        t(3, "Home"),
        n(1, "main", json!({})),
        n(5, "h1", json!({})),
        t(6, "Settings"),
        n(5, "p", json!({})),
        t(8, "Ordinary readable paragraph text for the article body."),
        n(5, "form", json!({})),
    ];
    let fields = [
        json!({"type": "password", "name": "pw"}),
        json!({"type": "hidden", "name": "h"}),
        json!({"type": "text", "name": "access_token"}),
        json!({"type": "text", "autocomplete": "one-time-code"}),
        json!({"type": "text", "autocomplete": "cc-number"}),
    ];
    for (i, attrs) in fields.into_iter().enumerate() {
        let mut f = n(10, "input", attrs);
        f["value"] = SECRETS[i].into();
        nodes.push(f);
    }
    // Rich-text editors holding secrets, named by aria-label and by title only.
    for (i, attrs) in [json!({"contenteditable": "true", "aria-label": "Access token"}), json!({"contenteditable": "", "title": "Credit card number"})].into_iter().enumerate() {
        nodes.push(n(5, "div", attrs));
        let e = nodes.len() as i64 - 1;
        nodes.push(n(e, "p", json!({})));
        nodes.push(t(e + 1, SECRETS[5 + i]));
    }
    nodes.push(n(10, "button", json!({"type": "submit"})));
    let b = nodes.len() as i64 - 1;
    nodes.push(t(b, "Save"));
    json!({"url": "https://example.test/settings?token=FZ-token-3", "title": "Settings", "frames": [
        {"frameId": 0, "url": "https://example.test/settings", "viewport": {"width": 1280, "height": 720}, "nodes": nodes}
    ]})
}

#[derive(Debug, Clone)]
enum WalkMutation {
    Parent(usize, i64),
    HugeText(usize, usize),
    WrongType(usize, u8),
    Rect(usize, u8),
    Duplicate(usize),
    DropField(usize, u8),
}

#[test]
fn sensitive_editors_never_reach_extract_or_dom_cua() {
    let page = pcc::input::decode_page_walk(&walk().to_string()).unwrap();
    for format in [Format::Markdown, Format::Text] {
        let ex = extract(&page, format, pcc::tools::extract::budget(None), 0);
        assert!(ex.content.contains("Ordinary readable paragraph"), "{}", ex.content);
        no_secret(&serde_json::to_string(&ex).unwrap()).unwrap();
    }
    no_secret(&serde_json::to_string(&visible_dom(&page, Budget::clamped(None, None))).unwrap()).unwrap();
}

fn walk_mutation() -> impl Strategy<Value = WalkMutation> {
    prop_oneof![
        (any::<usize>(), -3i64..40).prop_map(|(a, p)| WalkMutation::Parent(a, p)),
        (any::<usize>(), 1_000usize..300_000).prop_map(|(a, n)| WalkMutation::HugeText(a, n)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, k)| WalkMutation::WrongType(a, k)),
        (any::<usize>(), any::<u8>()).prop_map(|(a, k)| WalkMutation::Rect(a, k)),
        any::<usize>().prop_map(WalkMutation::Duplicate),
        (any::<usize>(), any::<u8>()).prop_map(|(a, k)| WalkMutation::DropField(a, k)),
    ]
}

fn apply(v: &mut Value, m: &WalkMutation) {
    let Some(nodes) = v.pointer_mut("/frames/0/nodes").and_then(Value::as_array_mut) else { return };
    let len = nodes.len();
    match *m {
        WalkMutation::Parent(a, p) => nodes[a % len]["parent"] = p.into(),
        WalkMutation::HugeText(a, n) => nodes[a % len]["text"] = "y".repeat(n).into(),
        WalkMutation::WrongType(a, k) => {
            let key = ["tag", "attrs", "text", "parent", "value"][k as usize % 5];
            nodes[a % len][key] = [json!(7), json!("x"), json!([1]), json!({"a": 1}), json!(true)][(k as usize / 5) % 5].clone();
        }
        WalkMutation::Rect(a, k) => {
            nodes[a % len]["rect"] = [json!([1e308, -1e308, 1e308, 1e308]), json!([-5, -5, -1, -1]), json!([0]), json!(null)][k as usize % 4].clone();
        }
        WalkMutation::Duplicate(a) => {
            let copy = nodes[a % len].clone();
            nodes.push(copy);
        }
        WalkMutation::DropField(a, k) => {
            if let Some(o) = nodes[a % len].as_object_mut() {
                o.remove(["parent", "tag", "attrs", "rect", "value"][k as usize % 5]);
            }
        }
    }
}

fn no_secret(wire: &str) -> Result<(), TestCaseError> {
    no_secret_of(wire, &SECRETS)
}

fn no_secret_of(wire: &str, secrets: &[&str]) -> Result<(), TestCaseError> {
    for s in secrets {
        prop_assert!(!wire.contains(s), "{s} leaked: {}", &wire[..wire.len().min(300)]);
    }
    Ok(())
}

/// The secrets a mutated walk must still hide. A field's value is an attribute of the field,
/// whatever the mutation; an editor's secret is its text content, which a broken parent link,
/// a dropped or mistyped attribute or a duplicated node turns into another page (text outside
/// any editor), so editor secrets are only checked when the structure is intact.
fn secrets_after(muts: &[WalkMutation]) -> &'static [&'static str] {
    let structural = muts.iter().any(|m| matches!(m, WalkMutation::Parent(..) | WalkMutation::DropField(..) | WalkMutation::WrongType(..) | WalkMutation::Duplicate(..)));
    if structural { &SECRETS[..5] } else { &SECRETS }
}

/// Arbitrary JSON values, nested a few levels (objects use the field names results have).
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::Number)),
        "\\PC{0,40}".prop_map(Value::String),
        (0usize..3, 1usize..30_000).prop_map(|(k, n)| Value::String(["a\n".repeat(n), "</untrusted-page-content>".repeat(n / 20 + 1), "data:image/png;base64,".to_string() + &"A".repeat(n)][k].clone())),
    ];
    let names = prop::sample::select(vec![
        "tab", "snapshot", "state", "content", "title", "url", "handle", "tabs", "id", "error", "code", "message", "truncated",
        "charCount", "frameTree", "timing", "favIconUrl", "browserId", "connectionId", "mode", "snapshotId", "elements",
    ]);
    leaf.prop_recursive(4, 64, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((names.clone(), inner), 0..8).prop_map(|kv| Value::Object(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())),
        ]
    })
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(48)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn mutated_walks_are_bounded_and_never_leak(muts in prop::collection::vec(walk_mutation(), 1..6), raise in 0u64..200_000) {
        let mut v = walk();
        for m in &muts {
            apply(&mut v, m);
        }
        match pcc::input::decode_page_walk(&v.to_string()) {
            Ok(page) => {
                let cua = visible_dom(&page, Budget::clamped(None, None));
                prop_assert!(cua.char_count <= budget::TOTAL_CHARS && cua.node_count <= budget::TOTAL_NODES);
                no_secret_of(&serde_json::to_string(&cua).unwrap(), secrets_after(&muts))?;
                for format in [Format::Markdown, Format::Text] {
                    let ex = extract(&page, format, pcc::tools::extract::budget(Some(raise)), (raise % 5_000) as usize);
                    prop_assert!(ex.content.chars().count() <= budget::EXTRACT_MAX_CHARS);
                    no_secret_of(&serde_json::to_string(&ex).unwrap(), secrets_after(&muts))?;
                }
            }
            Err(e) => prop_assert_eq!(e.code, Code::InvalidRequest),
        }
    }

    #[test]
    fn projection_is_total_idempotent_and_bounded(v in json_value(), pick in 0usize..6) {
        let method = COMPACT_METHODS[pick];
        match project(method, &v) {
            Ok(once) => {
                prop_assert_eq!(&project(method, &once).unwrap(), &once);
                let wire = serde_json::to_string(&once).unwrap();
                prop_assert!(!wire.contains(":null") && !wire.contains(":\"\""), "{}", wire);
                // Page text (state, content) may quote anything; every other field is ours.
                let mut meta = once.clone();
                for o in [meta.as_object_mut(), None].into_iter().flatten() {
                    o.remove("state");
                    o.remove("content");
                    if let Some(Value::Object(snap)) = o.get_mut("snapshot") {
                        snap.remove("state");
                    }
                }
                let meta = serde_json::to_string(&meta).unwrap();
                prop_assert!(!meta.contains("frameTree") && !meta.contains("timing") && !meta.contains("favIconUrl") && !meta.contains("base64,"), "{}", meta);
                prop_assert!(wire.len() <= 4 * (budget::EXTRACT_MAX_CHARS + budget::TOTAL_CHARS) + 200_000, "{}", wire.len());
                let text = model_text(method, &once, TextOptions { pretty: false, fence: true });
                let shown = view(method, &once);
                prop_assert_eq!(&view(method, &shown), &shown);
                if !is_own_words(&shown) {
                    prop_assert_eq!(text.to_ascii_lowercase().matches("</untrusted-page-content").count(), 1);
                    prop_assert!(text.ends_with(FENCE_CLOSE));
                }
            }
            Err(e) => prop_assert_eq!(e.code, Code::InvalidRequest),
        }
    }

    #[test]
    fn evaluate_and_tab_inputs_are_errors_or_bounded(v in json_value(), s in "\\PC{0,200}") {
        for text in [v.to_string(), s.clone()] {
            if let Ok(r) = pcc::tools::evaluate::project(&text) {
                prop_assert!(serde_json::to_string(&r).unwrap().len() <= 4 * budget::EVAL_TOTAL_CHARS + 1_000);
            }
            if let Ok(t) = pcc::tools::tabs::project_tabs(&text) {
                prop_assert!(t.tabs.len() <= budget::MAX_TABS);
                prop_assert!(!serde_json::to_string(&t).unwrap().contains("base64,"));
            }
        }
    }
}
