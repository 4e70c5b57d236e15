//! The collector's saved state (`Collector::save` → `Collector::restore`): what a host
//! hands a renewed wasm instance. A restored collector must go on exactly where the old one
//! stopped: the same refs, the same AX revision bases, fresh ids, the same journals.

mod common;
use pcc::session::mode::Mode;
use common::*;
use pcc::tools::journal::ReadOptions;
use pcc::{AxOptions, Code, Collector};
use serde_json::{json, Value};

fn restore(state: &str) -> pcc::error::Result<Collector> {
    Collector::restore(state)
}

fn ax(c: &mut Collector, json: &str) -> pcc::SnapshotResult {
    c.accessibility(json, &AxOptions { tab: tab(), session_id: "agent-1".into(), ..AxOptions::default() }).expect("ax read")
}

/// A collector that holds one of everything: a DOM-source snapshot's refs, an AX revision,
/// console entries and a request still waiting for its response.
fn busy() -> (Collector, String, String, String) {
    let mut c = Collector::new("rt");
    let snap = c.snapshot(&capture("basic"), &opts(None, None)).expect("snapshot");
    let json = capture("basic");
    let first = ax(&mut c, &json);
    c.journal.console(7, "log", "hello", "https://a.test/app.js:3");
    c.journal.request(7, "r1", "GET", "https://a.test/data?token=abc", "Fetch");
    c.journal.request(7, "r2", "POST", "https://a.test/save", "XHR");
    c.journal.response(7, "r1", 200, "application/json");
    (c, snap.snapshot_id, first.snapshot_id, json)
}

#[test]
fn a_restored_collector_saves_the_same_state() {
    let mut c = Collector::new("rt");
    c.snapshot(&capture("basic"), &opts(None, None)).expect("snapshot");
    c.journal.request(7, "r2", "POST", "https://a.test/save", "XHR");
    let saved = c.save();
    assert!(saved.contains(r#"["r2",{"method":"POST""#), "a request's id is kept for its response: {saved}");
    assert_eq!(restore(&saved).expect("restore").save(), saved);
    // With revisions (maps, saved in key order): the same text.
    let (c, ..) = busy();
    let saved = c.save();
    assert_eq!(restore(&saved).expect("restore").save(), saved);
}

#[test]
fn refs_of_the_old_instance_resolve_in_the_new_one() {
    let (c, snapshot_id, ..) = busy();
    let before = c.resolve(&snapshot_id, "e1", &tab()).expect("e1").clone();
    let r = restore(&c.save()).expect("restore");
    assert_eq!(r.resolve(&snapshot_id, "e1", &tab()).expect("e1 after"), before);
    let mut other = tab();
    other.incarnation = "doc-2".into();
    assert_eq!(r.resolve(&snapshot_id, "e1", &other).unwrap_err().code, Code::StaleRef, "still fails closed");
}

#[test]
fn an_unchanged_page_stays_unchanged_across_a_restore() {
    let (c, _, first, json) = busy();
    let mut r = restore(&c.save()).expect("restore");
    let again = ax(&mut r, &json);
    assert_eq!(again.mode, Mode::Unchanged);
    assert_eq!(again.base_snapshot_id.as_deref(), Some(first.as_str()));
    assert_ne!(again.snapshot_id, first, "ids keep counting");
}

#[test]
fn a_change_after_a_restore_is_the_same_diff() {
    let (mut c, _, _, json) = busy();
    let mut v: Value = serde_json::from_str(&json).unwrap();
    let nodes = v["frames"][0]["ax"]["nodes"].as_array_mut().unwrap();
    let b = nodes.iter_mut().find(|n| n["role"]["value"] == "button" && n["name"]["value"] == "Query").unwrap();
    b["name"] = json!({"type": "computedString", "value": "Query now"});
    let changed = v.to_string();
    let mut new = restore(&c.save()).expect("restore");
    let (a, b) = (ax(&mut c, &changed), ax(&mut new, &changed));
    assert_eq!(b.mode, Mode::Diff);
    assert_eq!(a.state, b.state);
}

#[test]
fn snapshot_ids_are_never_reused_after_a_restore() {
    let (c, snapshot_id, ..) = busy();
    let mut r = restore(&c.save()).expect("restore");
    let next = r.snapshot(&capture("basic"), &opts(None, None)).expect("snapshot").snapshot_id;
    assert_ne!(next, snapshot_id);
}

#[test]
fn journals_carry_over_and_a_late_response_finds_its_request() {
    let (mut c, ..) = busy();
    let mut r = restore(&c.save()).expect("restore");
    let read = ReadOptions::default();
    assert_eq!(serde_json::to_value(r.journal.read_console(7, &read)).unwrap(), serde_json::to_value(c.journal.read_console(7, &read)).unwrap());
    c.journal.response(7, "r2", 201, "text/plain");
    r.journal.response(7, "r2", 201, "text/plain");
    let log = serde_json::to_value(r.journal.read_network(7, &read)).unwrap();
    assert_eq!(log, serde_json::to_value(c.journal.read_network(7, &read)).unwrap());
    assert_eq!(log["entries"][1]["status"], 201, "{log}");
}

#[test]
fn text_that_is_not_a_whole_state_is_an_error() {
    let saved = busy().0.save();
    for bad in ["", "[]", "2:rt;", &saved[..saved.len() / 2], &saved[..saved.len() - 1], &format!("{saved}0;")] {
        let e = restore(bad).err().unwrap_or_else(|| panic!("accepted {bad:?}"));
        assert_eq!(e.code, Code::InvalidRequest, "{bad:?}");
    }
}

#[test]
fn every_prefix_of_a_state_is_an_error_or_a_state_never_a_panic() {
    let saved = busy().0.save();
    for end in (0..saved.len()).filter(|&i| saved.is_char_boundary(i)) {
        let _ = restore(&saved[..end]);
    }
}
