//! The model projection on real results: raw results built from checked-in captures (with
//! the fields a raw Bridge response carries besides the contract) project to the compact
//! contract, keep every model-visible field, bound page text, and are idempotent.

mod common;
use common::*;
use pcc::model::model_text::{model_text, TextOptions, FENCE_CLOSE, FENCE_OPEN};
use pcc::model::projection::{project, COMPACT_METHODS};
use serde_json::{json, Value};

/// A raw `browser_snapshot` Bridge response around a real snapshot of `capture`.
fn raw_snapshot(capture: &str) -> Value {
    let r = snap(capture);
    json!({
        "browserId": "chrome:test", "connectionId": "conn-1", "connectionGeneration": 3,
        "tab": {"id": 7, "title": "Orders", "url": "https://example.test/orders", "active": true, "windowId": 1,
                "favIconUrl": "data:image/png;base64,iVBORw0KGgo", "handle": {"tabId": 7, "browserId": "chrome:test", "windowId": 1, "tabFence": "tab:7:1", "incarnation": "doc-1"}},
        "snapshot": serde_json::to_value(&r.result).unwrap(),
        "timing": {"captureMs": 12.5, "wasmMs": 3.1, "rawBytes": 123456},
        "frameTree": {"frame": {"id": "F", "url": "https://example.test/orders"}, "childFrames": []},
        "text": "the whole page text again", "elements": [{"ref": "e1"}], "accessibility": {"nodes": []},
    })
}

#[test]
fn compact_keeps_the_contract_and_drops_the_rest() {
    for capture in ["basic", "frames", "sensitive", "long-session"] {
        let raw = raw_snapshot(capture);
        let c = project("browser_snapshot", &raw).unwrap();
        for gone in ["timing", "frameTree", "text", "elements", "accessibility"] {
            assert!(c.get(gone).is_none(), "{capture}: {gone}");
        }
        assert!(c["tab"].get("favIconUrl").is_none());
        assert_eq!(c["tab"]["handle"], raw["tab"]["handle"], "the handle is kept whole");
        for k in ["browserId", "connectionId", "connectionGeneration"] {
            assert_eq!(c[k], raw[k], "{k}");
        }
        let (rs, cs) = (&raw["snapshot"], &c["snapshot"]);
        for k in ["snapshotId", "mode", "state", "nodeCount", "charCount", "truncated", "totalNodes"] {
            assert_eq!(cs[k], rs[k], "{capture}: {k}");
        }
        assert_eq!(project("browser_snapshot", &c).unwrap(), c, "{capture}: idempotent");
    }
}

#[test]
fn page_text_over_the_budget_is_cut_on_a_line_and_marked() {
    let mut raw = raw_snapshot("long-session");
    let state: String = (0..3000).map(|i| format!("- button \"Item {i}\" [ref=e{i}]\n")).collect();
    raw["snapshot"]["state"] = state.clone().into();
    raw["snapshot"]["truncated"] = false.into();
    let c = project("browser_snapshot", &raw).unwrap();
    let cut = c["snapshot"]["state"].as_str().unwrap();
    assert!(cut.chars().count() <= pcc::budget::TOTAL_CHARS);
    assert!(state.starts_with(cut) && cut.ends_with(']'), "cut on a line boundary");
    assert_eq!(c["snapshot"]["truncated"], true);
    assert_eq!(c["snapshot"]["charCount"], cut.chars().count());
    assert_eq!(project("browser_snapshot", &c).unwrap(), c);
}

#[test]
fn every_compact_method_is_idempotent_on_odd_input() {
    let odd = json!({"tab": {"id": 1, "title": null, "url": "", "handle": {"tabId": 1, "incarnation": null}},
        "tabs": [{"id": 1, "title": "x".repeat(5000), "url": "data:text/html,<script>alert(1)</script>"}, "junk", 3],
        "state": "", "content": "# Title\n\ntext", "error": {"code": "X", "message": "m", "hint": "h", "stack": "at …"},
        "count": 2, "truncated": false, "nested": {"deep": [1, 2, 3]}});
    for m in COMPACT_METHODS {
        let once = project(m, &odd).unwrap();
        assert_eq!(project(m, &once).unwrap(), once, "{m}");
        let text = serde_json::to_string(&once).unwrap();
        assert!(!text.contains(":null") && !text.contains(":\"\"") && !text.contains("nested") && !text.contains("stack"), "{m}: {text}");
        assert!(!text.contains("<script>"), "{m}: {text}");
    }
}

#[test]
fn a_body_cut_by_the_second_bound_projects_the_same_twice() {
    // Found by the projection fuzz: a cut recounts charCount, which every shape must keep.
    let long = json!({"state": "a\n".repeat(15_000), "content": "b\n".repeat(60_000)});
    for m in COMPACT_METHODS {
        let once = project(m, &long).unwrap();
        assert_eq!(project(m, &once).unwrap(), once, "{m}");
    }
}

#[test]
fn model_text_fences_the_state_and_keeps_refs_readable() {
    let c = project("browser_snapshot", &raw_snapshot("basic")).unwrap();
    let text = model_text("browser_snapshot", &c, TextOptions { pretty: false, fence: true });
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], FENCE_OPEN);
    assert_eq!(*lines.last().unwrap(), FENCE_CLOSE);
    let head: Value = serde_json::from_str(lines[1]).unwrap();
    assert!(head.get("state").is_none() && head.get("snapshot").is_none());
    assert_eq!(head["snapshotId"], c["snapshot"]["snapshotId"]);
    assert_eq!(lines[2..lines.len() - 1].join("\n"), c["snapshot"]["state"].as_str().unwrap());
    let pretty = model_text("browser_snapshot", &c, TextOptions { pretty: true, fence: false });
    assert!(pretty.starts_with("{\n  \""), "{pretty}");
}
