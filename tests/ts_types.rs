//! The TypeScript types of the wasm package (`pcc::wasm::TS_TYPES`, written into its
//! `.d.ts`) say what the core's results really are: every key a result serializes is
//! declared in its interface, and every key the interface requires is there.

mod common;
use common::page::{el, page};
use common::*;
use pcc::{AxOptions, Collector};
use serde_json::Value;
use std::collections::BTreeMap;

/// Interface name → (key → required), from the `export interface X { k: T; o?: T; }` lines.
fn interfaces() -> BTreeMap<String, BTreeMap<String, bool>> {
    let mut out = BTreeMap::new();
    for line in pcc::wasm::TS_TYPES.lines().filter(|l| l.starts_with("export interface ")) {
        let head = &line["export interface ".len()..line.find('{').expect("a body")];
        let name = head.split(['<', ' ']).next().unwrap_or("").to_string();
        let mut fields: BTreeMap<String, bool> = head.split(" extends ").nth(1).map(|base| out.get(base.trim()).cloned().unwrap_or_default()).unwrap_or_default();
        let body = &line[line.find('{').unwrap() + 1..line.rfind('}').expect("a closed body")];
        for field in body.split(';').map(str::trim).filter(|f| !f.is_empty()) {
            let key = field.split(':').next().unwrap_or("").trim();
            fields.insert(key.trim_end_matches('?').to_string(), !key.ends_with('?'));
        }
        out.insert(name, fields);
    }
    out
}

fn holds(interface: &str, v: &Value) {
    let all = interfaces();
    let fields = all.get(interface).unwrap_or_else(|| panic!("no interface {interface}"));
    let obj = v.as_object().unwrap_or_else(|| panic!("{interface}: an object, got {v}"));
    for k in obj.keys() {
        assert!(fields.contains_key(k), "{interface} does not declare {k} (the core sends it): {v}");
    }
    for (k, required) in fields {
        assert!(!required || obj.contains_key(k), "{interface} requires {k}, which the core did not send: {v}");
    }
}

fn json<T: serde::Serialize>(v: &T) -> Value {
    serde_json::to_value(v).expect("serializes")
}

#[test]
fn snapshot_find_and_ref_results_match_their_types() {
    let obs = page([el("save", "button").says("Save"), el("city", "input").attr("aria-label", "City").value("Lyon")]);
    let mut c = Collector::new("t");
    let r = c.snapshot(&obs, &opts(Some(2_000), None)).expect("snapshot");
    holds("SnapshotResult", &json(&r));
    holds("RefTarget", &json(&c.resolve(&r.snapshot_id, "e1", &tab()).expect("ref")));
    let q = pcc::tools::find::Query { text: Some("Save".into()), role: None, name: None, exact: false, placeholder: None, test_id: None, elements: false, max_results: None, max_chars: None };
    holds("FindResult", &json(&c.find(&obs, &q, &tab(), &|_| true).expect("find")));
    let ax = AxOptions { max_chars: None, max_nodes: None, tab: tab(), session_id: "s".into(), scope: String::new(), disable_diffing: false, base_snapshot_id: None, unchanged_since: None };
    let first = c.accessibility(&capture("long-session"), &ax).expect("first read");
    holds("SnapshotResult", &json(&first));
    holds("SnapshotResult", &json(&c.accessibility(&capture("long-session"), &ax).expect("unchanged read")));
}

#[test]
fn tab_and_evaluate_results_match_their_types() {
    let tabs = pcc::tools::tabs::project_tabs(r#"[{"id":1,"windowId":2,"title":"T","url":"https://a.test/","active":true,"index":0,"groupId":-1}]"#).expect("tabs");
    holds("TabList", &json(&tabs));
    holds("TabDescriptor", &json(&tabs.tabs[0]));
    let more = pcc::tools::tabs::project_tabs(r#"[{"id":1,"windowId":2,"url":"https://a.test/x","pccOwner":"agent","pccOpener":4},{"id":2,"windowId":2,"url":"https://b.test/y","pccGranted":false}]"#).expect("tabs");
    holds("TabDescriptor", &json(&more.tabs[0]));
    holds("TabDescriptor", &json(&more.tabs[1]));
    let ev = pcc::tools::evaluate::project_redacted(r#"{"type":"string","value":"x","truncated":false}"#, "[]").expect("evaluate");
    holds("Evaluated", &json(&ev));
}

#[test]
fn the_type_reader_reads_optional_and_inherited_keys() {
    let all = interfaces();
    assert_eq!(all["SnapshotOptions"].get("maxChars"), Some(&false));
    assert_eq!(all["AccessibilityOptions"].get("tab"), Some(&false), "extends SnapshotOptions");
    assert_eq!(all["FindResult"].get("state"), Some(&true));
}
