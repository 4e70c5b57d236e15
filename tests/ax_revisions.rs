//! AX revisions: full / diff / unchanged, keyed by document, with refs a client
//! can track. Changes are made to real captures the way the page would change: the same
//! backend node ids, new nodes with new ids.

mod common;
use pcc::session::mode::{FullReason, Mode};
use common::*;
use pcc::{AxOptions, Code, Collector, SnapshotResult, TabKey};
use serde_json::{json, Value};

fn ax_opts(tab: TabKey) -> AxOptions {
    AxOptions { tab, session_id: "agent-1".into(), ..AxOptions::default() }
}

fn read(c: &mut Collector, json: &str) -> SnapshotResult {
    c.accessibility(json, &ax_opts(tab())).expect("ax read")
}

fn edit(json: &str, f: impl FnOnce(&mut Vec<Value>)) -> String {
    let mut v: Value = serde_json::from_str(json).unwrap();
    f(v["frames"][0]["ax"]["nodes"].as_array_mut().unwrap());
    v.to_string()
}

fn node_named<'a>(nodes: &'a mut [Value], role: &str, name: &str) -> &'a mut Value {
    nodes.iter_mut().find(|n| n["role"]["value"] == role && n["name"]["value"] == name).unwrap_or_else(|| panic!("no {role} {name}"))
}

/// Appends `button "label"` (a new DOM node) as the last child of the first `role` node.
fn add_button(nodes: &mut Vec<Value>, parent_role: &str, label: &str, id: i64) {
    let parent = nodes.iter_mut().find(|n| n["role"]["value"] == parent_role).unwrap();
    let pid = parent["nodeId"].clone();
    parent["childIds"].as_array_mut().unwrap().push(json!(format!("{}", 2_000_000_000 + id)));
    nodes.push(json!({"nodeId": format!("{}", 2_000_000_000 + id), "parentId": pid, "role": {"type":"role","value":"button"},
        "name": {"type":"computedString","value": label}, "backendDOMNodeId": id,
        "properties": [{"name":"focusable","value":{"type":"booleanOrUndefined","value":true}}], "childIds": []}));
}

#[test]
fn first_read_is_full_and_an_unchanged_page_is_unchanged() {
    let mut c = Collector::new("x");
    let json = capture("basic");
    let r1 = read(&mut c, &json);
    assert_eq!(r1.mode, Mode::Full);
    assert!(r1.base_snapshot_id.is_none());
    assert!(r1.state.as_deref().unwrap().contains("button \"Query\" [ref=a"));
    let r2 = read(&mut c, &json);
    assert_eq!(r2.mode, Mode::Unchanged);
    assert_eq!(r2.char_count, 0);
    assert!(r2.state.is_none());
    assert_eq!(r2.base_snapshot_id.as_deref(), Some(r1.snapshot_id.as_str()));
    assert_ne!(r2.snapshot_id, r1.snapshot_id);
    assert_eq!(r2.node_count, r1.node_count, "the count of the state the client holds");
    let wire = serde_json::to_value(&r2).unwrap();
    assert!(wire.get("state").is_none(), "unchanged carries only ids and counts: {wire}");
}

#[test]
fn one_label_change_is_one_changed_line() {
    let mut c = Collector::new("x");
    let json = capture("basic");
    let r1 = read(&mut c, &json);
    let ref_before = ref_on(r1.state.as_deref().unwrap(), "button \"Click me\"");
    let changed = edit(&json, |n| {
        node_named(n, "button", "Click me")["name"]["value"] = json!("Clicked 1 times");
        node_named(n, "StaticText", "Click me")["name"]["value"] = json!("Clicked 1 times");
    });
    let r2 = read(&mut c, &changed);
    assert_eq!(r2.mode, Mode::Diff);
    assert_eq!(r2.state.as_deref(), Some(format!("~ button \"Clicked 1 times\" [ref={ref_before}]").as_str()));
    assert_eq!(r2.node_count, 1);
    // The changed node keeps its ref, in the new snapshot too.
    let t = c.resolve(&r2.snapshot_id, &ref_before, &tab()).unwrap();
    assert_eq!(t.name, "Clicked 1 times");
}

#[test]
fn a_typed_value_is_one_changed_line_with_the_value() {
    let mut c = Collector::new("x");
    let json = capture("basic");
    read(&mut c, &json);
    let typed = edit(&json, |n| { node_named(n, "textbox", "Search")["value"] = json!({"type":"string","value":"orders"}); });
    let r = read(&mut c, &typed);
    assert_eq!(r.mode, Mode::Diff);
    let state = r.state.unwrap();
    assert_eq!(state.lines().count(), 1, "{state}");
    assert!(state.starts_with("~ textbox \"Search\" value=\"orders\" [ref=a"), "{state}");
}

#[test]
fn a_password_change_is_not_reported() {
    let mut c = Collector::new("x");
    let json = capture("sensitive");
    read(&mut c, &json);
    let typed = edit(&json, |n| { node_named(n, "textbox", "Password")["value"] = json!({"type":"string","value":"diff-SECRET"}); });
    let r = read(&mut c, &typed);
    assert_eq!(r.mode, Mode::Unchanged, "a secret's change is not a visible change");
    let typed = edit(&json, |n| {
        node_named(n, "textbox", "Password")["value"] = json!({"type":"string","value":"diff-SECRET"});
        node_named(n, "textbox", "Nickname")["value"] = json!({"type":"string","value":"nick2"});
    });
    let r = read(&mut c, &typed);
    let s = serde_json::to_string(&r).unwrap();
    assert!(!s.contains("diff-SECRET") && s.contains("nick2"), "{s}");
}

#[test]
fn an_added_element_is_one_added_line_with_a_fresh_ref() {
    let mut c = Collector::new("x");
    let json = capture("basic");
    let r1 = read(&mut c, &json);
    let added = edit(&json, |n| add_button(n, "RootWebArea", "Save", 900_001));
    let r2 = read(&mut c, &added);
    assert_eq!(r2.mode, Mode::Diff);
    let state = r2.state.unwrap();
    assert!(state.starts_with("+ button \"Save\" [ref=a"), "{state}");
    assert_eq!(state.lines().count(), 1);
    let label = ref_on(&state, "button \"Save\"");
    let label = label.as_str();
    // Fresh: not a label the base used.
    assert!(!r1.state.unwrap().contains(&format!("[ref={label}]")));
    assert_eq!(c.resolve(&r2.snapshot_id, label, &tab()).unwrap().backend_node_id, Some(900_001));
    // Refs of unchanged nodes from the base stay valid under the new id.
    assert_eq!(c.resolve(&r2.snapshot_id, "a2", &tab()).unwrap().name, "Query");
}

#[test]
fn a_removed_element_is_a_removed_line_and_its_ref_fails_closed() {
    let mut c = Collector::new("x");
    let json = capture("basic");
    let r1 = read(&mut c, &json);
    let query_ref = ref_on(r1.state.as_deref().unwrap(), "button \"Query\"");
    let removed = edit(&json, |n| {
        let id = node_named(n, "button", "Query")["nodeId"].clone();
        for x in n.iter_mut() {
            if let Some(ch) = x["childIds"].as_array_mut() {
                ch.retain(|c| *c != id);
            }
        }
    });
    let r2 = read(&mut c, &removed);
    assert_eq!(r2.state.as_deref(), Some("- button \"Query\""));
    assert_eq!(c.resolve(&r2.snapshot_id, &query_ref, &tab()).unwrap_err().code, Code::StaleRef);
}

#[test]
fn mass_change_navigation_replacement_and_disable_diffing_give_full() {
    let mut c = Collector::new("x");
    let json = capture("basic");
    read(&mut c, &json);
    let mass = edit(&json, |n| {
        for x in n.iter_mut() {
            if let Some(name) = x["name"]["value"].as_str().map(|s| format!("{s} v2")) {
                x["name"]["value"] = json!(name);
            }
        }
    });
    assert_eq!(read(&mut c, &mass).mode, Mode::Full);
    // Navigation/reload: a new incarnation never diffs across documents.
    let mut navigated = tab();
    navigated.incarnation = "doc-2".into();
    assert_eq!(c.accessibility(&json, &ax_opts(navigated.clone())).unwrap().mode, Mode::Full);
    assert_eq!(c.accessibility(&json, &ax_opts(navigated.clone())).unwrap().mode, Mode::Unchanged);
    let mut replaced = navigated.clone();
    replaced.tab_fence = "tab:7:2".into();
    assert_eq!(c.accessibility(&json, &ax_opts(replaced.clone())).unwrap().mode, Mode::Full);
    let mut forced = ax_opts(replaced.clone());
    forced.disable_diffing = true;
    assert_eq!(c.accessibility(&json, &forced).unwrap().mode, Mode::Full);
    // A client that lost the latest revision says so and gets full.
    let mut stale = ax_opts(replaced);
    stale.base_snapshot_id = Some("ax-x-1".into());
    assert_eq!(c.accessibility(&json, &stale).unwrap().mode, Mode::Full);
    // Another agent session has its own revisions.
    let mut other = ax_opts(tab());
    other.session_id = "agent-2".into();
    assert_eq!(c.accessibility(&json, &other).unwrap().mode, Mode::Full);
    c.dispose_session("agent-2");
    assert_eq!(c.accessibility(&json, &other).unwrap().mode, Mode::Full);
}

#[test]
fn a_ref_from_another_document_names_both_snapshots() {
    let mut c = Collector::new("x");
    let json = capture("basic");
    let r1 = read(&mut c, &json);
    let mut navigated = tab();
    navigated.incarnation = "doc-2".into();
    let r2 = c.accessibility(&json, &ax_opts(navigated.clone())).unwrap();
    let e = c.resolve(&r1.snapshot_id, "a1", &navigated).unwrap_err();
    assert_eq!(e.code, Code::StaleRef);
    assert!(e.message.contains(&r1.snapshot_id) && e.message.contains(&r2.snapshot_id), "{}", e.message);
}

#[test]
fn labels_are_never_reused_after_a_full_fallback() {
    let mut c = Collector::new("x");
    let json = capture("basic");
    let r1 = read(&mut c, &json);
    let mut forced = ax_opts(tab());
    forced.disable_diffing = true;
    let r2 = c.accessibility(&json, &forced).unwrap();
    let labels = |s: &str| s.split("[ref=").skip(1).map(|x| x.split(']').next().unwrap().to_string()).collect::<Vec<_>>();
    let (l1, l2) = (labels(r1.state.as_deref().unwrap()), labels(r2.state.as_deref().unwrap()));
    assert!(l1.iter().all(|l| !l2.contains(l)), "{l1:?} {l2:?}");
}

#[test]
fn long_session_append_is_a_small_diff() {
    let mut c = Collector::new("x");
    let json = capture("long-session");
    let full = read(&mut c, &json);
    assert!(full.char_count <= 20_000);
    let appended = edit(&json, |n| {
        let main = n.iter().find(|x| x["role"]["value"] == "main").unwrap()["nodeId"].clone();
        let mut p = json!({"nodeId":"990000001","parentId": main, "role":{"value":"paragraph"},"backendDOMNodeId": 990_001, "childIds":["990000002"]});
        let t = json!({"nodeId":"990000002","parentId":"990000001","role":{"value":"StaticText"},"name":{"value":"A new assistant reply about the budget and the diff."},"backendDOMNodeId": 990_002});
        let main_node = n.iter_mut().find(|x| x["nodeId"] == main).unwrap();
        main_node["childIds"].as_array_mut().unwrap().push(json!("990000001"));
        p["childIds"] = json!(["990000002"]);
        n.push(p);
        n.push(t);
        add_button(n, "main", "Copy message", 990_003);
    });
    let d = read(&mut c, &appended);
    assert_eq!(d.mode, Mode::Diff);
    assert!(d.char_count <= 600, "{} chars:\n{}", d.char_count, d.state.unwrap());
    assert!(d.state.as_deref().unwrap().contains("+ button \"Copy message\" [ref=a"));
}

#[test]
fn revisions_are_bounded() {
    let mut c = Collector::new("x");
    let json = capture("basic");
    for tab_id in 0..40 {
        let mut t = tab();
        t.tab_id = tab_id;
        c.accessibility(&json, &ax_opts(t)).unwrap();
    }
    // The oldest tabs' revisions were evicted: they read full again.
    let mut t = tab();
    t.tab_id = 0;
    assert_eq!(c.accessibility(&json, &ax_opts(t)).unwrap().mode, Mode::Full);
    let mut t = tab();
    t.tab_id = 39;
    assert_eq!(c.accessibility(&json, &ax_opts(t)).unwrap().mode, Mode::Unchanged);
}

#[test]
fn an_unverified_iframe_is_one_warning_line_and_the_rest_still_diffs() {
    let mut c = Collector::new("x");
    let mut v: Value = serde_json::from_str(&capture("frames")).unwrap();
    for f in v["frames"].as_array_mut().unwrap() {
        if f["parentFrameId"].is_string() {
            f.as_object_mut().unwrap().remove("ownerBackendNodeId");
        }
    }
    let json = v.to_string();
    let r1 = read(&mut c, &json);
    let state = r1.state.unwrap();
    assert!(!state.contains("Inner button"), "an unverified frame is not expanded:\n{state}");
    assert!(state.contains("- iframe \"Same origin\"\n  - note: iframe not expanded: frame not verified"), "{state}");
    assert!(!state.contains('{'));
    // The frame is left out of the diff instead of forcing `full` for the whole page.
    assert_eq!(read(&mut c, &json).mode, Mode::Unchanged);
    let added = edit(&json, |n| add_button(n, "RootWebArea", "Later", 900_010));
    let r = read(&mut c, &added);
    assert_eq!(r.mode, Mode::Diff, "{r:?}");
    assert!(r.state.unwrap().starts_with("+ button \"Later\" [ref=a"));
}

/// Drops the backend DOM id of the first AX node matching `pick` (text from `::before`,
/// a list marker: Chromium gives such nodes no DOM node).
fn without_identity(json: &str, pick: impl Fn(&Value) -> bool) -> String {
    edit(json, |nodes| {
        let n = nodes.iter_mut().find(|n| pick(n)).expect("a node to strip");
        n.as_object_mut().unwrap().remove("backendDOMNodeId");
    })
}

#[test]
fn text_without_a_dom_node_is_keyed_under_its_ancestor_and_still_diffs() {
    let mut c = Collector::new("x");
    let json = without_identity(&capture("nested"), |n| n["role"]["value"] == "StaticText" && n["name"]["value"] == "Deeply nested unique text alpha");
    let r1 = read(&mut c, &json);
    assert!(r1.state.unwrap().contains("Deeply nested unique text alpha"));
    let r2 = read(&mut c, &json);
    assert_eq!(r2.mode, Mode::Unchanged, "{r2:?}");
    let added = edit(&json, |n| add_button(n, "RootWebArea", "Added", 900_020));
    let r3 = read(&mut c, &added);
    assert_eq!(r3.mode, Mode::Diff, "{r3:?}");
    assert!(r3.state.unwrap().starts_with("+ button \"Added\" [ref="));
}

#[test]
fn a_control_without_identity_is_never_given_a_ref_from_an_ancestor() {
    let mut c = Collector::new("x");
    let json = without_identity(&capture("basic"), |n| n["role"]["value"] == "button" && n["name"]["value"] == "Query");
    let r1 = read(&mut c, &json);
    assert_eq!(r1.mode, Mode::Full);
    // Its ref (from this full read) resolves to no DOM node: acting on it fails closed.
    let state = r1.state.unwrap();
    let label = ref_on(&state, "button \"Query\"");
    assert_eq!(c.resolve(&r1.snapshot_id, &label, &tab()).unwrap().backend_node_id, None);
    // No diff may carry a ref over an identity it cannot prove: the next read is full, and says why.
    let r2 = read(&mut c, &json);
    assert_eq!((r2.mode, r2.full_reason), (Mode::Full, Some(FullReason::UnprovableIdentity)));
}

#[test]
fn a_full_read_that_could_have_been_a_diff_says_why() {
    let mut c = Collector::new("x");
    let json = capture("basic");
    assert_eq!(read(&mut c, &json).full_reason, None, "a first read needs no reason");
    let forced = c.accessibility(&json, &AxOptions { disable_diffing: true, ..ax_opts(tab()) }).unwrap();
    assert_eq!(forced.full_reason, Some(FullReason::DisableDiffing));
    let stale = c.accessibility(&json, &AxOptions { base_snapshot_id: Some("ax-x-0".into()), ..ax_opts(tab()) }).unwrap();
    assert_eq!(stale.full_reason, Some(FullReason::BaseMismatch));
    let mut moved = tab();
    moved.incarnation = "doc-2".into();
    assert_eq!(c.accessibility(&json, &ax_opts(moved)).unwrap().full_reason, Some(FullReason::Navigation));
}

/// A repeat the extension's change tracker proved unchanged: no observation, `unchanged_since`.
fn repeat(c: &mut Collector, since: &str, tab: TabKey) -> pcc::error::Result<SnapshotResult> {
    c.accessibility("", &AxOptions { unchanged_since: Some(since.into()), ..ax_opts(tab) })
}

#[test]
fn a_proven_unchanged_repeat_is_the_unchanged_an_observation_gives() {
    let json = capture("basic");
    let (mut slow, mut fast) = (Collector::new("x"), Collector::new("x"));
    let (s1, f1) = (read(&mut slow, &json), read(&mut fast, &json));
    let s2 = read(&mut slow, &json);
    let f2 = repeat(&mut fast, &f1.snapshot_id, tab()).expect("repeat");
    assert_eq!(serde_json::to_value(&f2).unwrap(), serde_json::to_value(&s2).unwrap(), "same result, same ids");
    // Its refs resolve under the new id, and the next observed read diffs against it.
    let r = ref_on(s1.state.as_deref().unwrap(), "button \"Click me\"");
    assert_eq!(fast.resolve(&f2.snapshot_id, &r, &tab()).unwrap().name, "Click me");
    let changed = edit(&json, |n| node_named(n, "button", "Click me")["name"]["value"] = json!("Clicked 1 times"));
    let (s3, f3) = (read(&mut slow, &changed), read(&mut fast, &changed));
    assert_eq!(f3.base_snapshot_id.as_deref(), Some(f2.snapshot_id.as_str()));
    assert_eq!((f3.mode, f3.state.clone()), (s3.mode, s3.state.clone()));
}

#[test]
fn a_repeat_is_refused_unless_it_names_the_latest_revision_of_this_document() {
    let mut c = Collector::new("x");
    let json = capture("basic");
    let r1 = read(&mut c, &json);
    let r2 = read(&mut c, &json);
    assert!(repeat(&mut c, &r1.snapshot_id, tab()).is_err(), "not the latest");
    let mut other = tab();
    other.incarnation = "doc-2".into();
    assert!(repeat(&mut c, &r2.snapshot_id, other).is_err(), "another document");
    let forced = c.accessibility("", &AxOptions { unchanged_since: Some(r2.snapshot_id.clone()), disable_diffing: true, ..ax_opts(tab()) });
    assert!(forced.is_err(), "disableDiffing asks for full");
    let mismatch = c.accessibility("", &AxOptions { unchanged_since: Some(r2.snapshot_id.clone()), base_snapshot_id: Some(r1.snapshot_id.clone()), ..ax_opts(tab()) });
    assert!(mismatch.is_err(), "the client holds another revision");
    // A refused repeat changes nothing: the latest revision still repeats.
    assert_eq!(repeat(&mut c, &r2.snapshot_id, tab()).unwrap().base_snapshot_id.as_deref(), Some(r2.snapshot_id.as_str()));
}
