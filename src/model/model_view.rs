//! Model view: the facts of a (raw or compact) tool result a model can use, each once.
//!
//! The wire keeps what the wire contract requires (browser and connection ids, the whole tab handle,
//! counts); a model pays for every character on every call and needs far less. The view:
//! - drops the Bridge's connection ids and the top-level `browserId`: a model never sends
//!   them back, and one Bridge serves one browser;
//! - keeps of a tab handle what a side effect checks (`tabFence`, `incarnation`; the tab
//!   id is the tab's own `id`);
//! - on an action that stayed on its document, drops the tab (title and URL were read
//!   before the action and did not change) and the echo of its own request (`action`,
//!   `ref`); a navigation shows the new tab;
//! - on a diff or `unchanged` read, drops the tab: the revision key proves it is the tab,
//!   fence, incarnation and URL the model was shown with the base;
//! - drops a tab title that only repeats its URL, and `active` outside tab lists;
//! - on a page read, drops counts the model can see for itself (`nodeCount`, `charCount`,
//!   `refCount`, `totalNodes`), flags that are `false`, the default source, and lifts the
//!   `snapshot` object of `browser_snapshot` to the top (whose `mode` is always `full`);
//! - on the state of the page an action reached (`session/follow`), drops how it was read
//!   (`mode` full, `fullReason`, `source`): a new document is always read whole.
//!
//! Owns: which fields of a result reach model text. Must never: drop an id or handle a
//! model must echo (`snapshotId`, `tab.id`, `tabFence`, `incarnation`), `truncated: true`,
//! an omitted count, an error, or change a value it keeps; `view(view(x)) == view(x)`.

use crate::session::follow::REACHING;
use serde_json::{Map, Value};

/// Tools that act on an element or key and report on the same tab.
const ACTIONS: [&str; 8] = ["browser_click", "browser_fill", "browser_type", "browser_press", "browser_hover", "browser_select_option", "browser_evaluate", "browser_scroll"];
/// Added by the Bridge to every result; a model never needs them.
const CONNECTION: [&str; 3] = ["browserId", "connectionId", "connectionGeneration"];
/// What a side effect on a claimed tab checks (`ownership.js`, `browserAction`).
const HANDLE: [&str; 2] = ["tabFence", "incarnation"];
/// Counts a model can read off the state itself.
const COUNTS: [&str; 4] = ["nodeCount", "charCount", "refCount", "totalNodes"];
/// The source a read uses unless asked (`browser_snapshot` walks the DOM; the others read
/// Chromium's AX tree); only another one is worth saying.
fn default_source(method: &str) -> &'static str {
    if method == "browser_snapshot" { "dom" } else { "chromium_ax" }
}
/// Flags that say something only when true.
const FLAGS: [&str; 7] = ["truncated", "loading", "navigated", "routed", "navigating", "rebound", "retargeted"];

/// The model view of `method`'s result. Non-objects pass unchanged.
pub fn view(method: &str, result: &Value) -> Value {
    let Some(obj) = result.as_object() else { return result.clone() };
    let mut out = obj.clone();
    for k in CONNECTION {
        out.remove(k);
    }
    if out.contains_key("error") {
        return Value::Object(out);
    }
    // An action that navigated shows the page it reached; one still navigating, the page it
    // has not left yet (its result says so).
    // (A client-side route change, `routed`, reached another URL in the same document.)
    let navigated = ["navigated", "routed", "navigating"].iter().any(|k| out.get(*k) == Some(&Value::Bool(true)));
    if ACTIONS.contains(&method) {
        out.remove("action");
        out.remove("ref");
        if !navigated {
            out.remove("tab");
        }
    }
    if let Some(Value::Object(snapshot)) = out.remove("snapshot") {
        for (k, v) in snapshot {
            out.entry(k).or_insert(v);
        }
    }
    if method == "browser_snapshot" && out.get("mode").and_then(Value::as_str) == Some("full") {
        out.remove("mode"); // it has no other
    }
    // The page an action reached (`session/follow`) is read whole, of a new document: how it
    // was read (full, why, from which source) says nothing its refs do not.
    if (ACTIONS.contains(&method) || REACHING.contains(&method)) && out.get("mode").and_then(Value::as_str) == Some("full") {
        for k in ["mode", "fullReason", "source"] {
            out.remove(k);
        }
    }
    // A diff or `unchanged` is of the base's document (same fence, incarnation and URL: the
    // revision key), so its tab is what the model was shown with the base.
    if matches!(out.get("mode").and_then(Value::as_str), Some("diff" | "unchanged")) {
        out.remove("tab");
    }
    if let Some(Value::Object(tab)) = out.get_mut("tab") {
        trim_tab(tab);
        tab.remove("active");
    }
    if let Some(Value::Array(tabs)) = out.get_mut("tabs") {
        for t in tabs.iter_mut().filter_map(Value::as_object_mut) {
            trim_tab(t);
        }
    }
    if method != "browser_tabs" {
        for k in COUNTS {
            out.remove(k);
        }
    }
    out.retain(|k, v| match (k.as_str(), &*v) {
        (k, Value::Bool(false)) => !FLAGS.contains(&k),
        ("source", Value::String(s)) => s != default_source(method),
        ("omittedNodes", Value::Number(n)) => n.as_u64() != Some(0),
        _ => true,
    });
    Value::Object(out)
}

/// A tab descriptor with only the handle fields a model echoes, and no title that only
/// repeats the URL (Chromium's stand-in for a page without one).
fn trim_tab(tab: &mut Map<String, Value>) {
    tab.remove("windowId");
    let bare = |u: &str| u.split_once("://").map_or(u, |(_, rest)| rest).to_string();
    if let (Some(Value::String(title)), Some(Value::String(url))) = (tab.get("title"), tab.get("url")) {
        if !title.is_empty() && bare(url).starts_with(title.as_str()) {
            tab.remove("title");
        }
    }
    if let Some(Value::Object(handle)) = tab.get_mut("handle") {
        handle.retain(|k, _| HANDLE.contains(&k.as_str()));
        if handle.is_empty() {
            tab.remove("handle");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(method: &str, input: Value, expect: Value) {
        let once = view(method, &input);
        assert_eq!(once, expect);
        assert_eq!(view(method, &once), once, "idempotent");
    }

    fn handle() -> Value {
        json!({"tabId": 5, "browserId": "chrome:b", "windowId": 1, "tabFence": "tab:5:r.1", "incarnation": "L1"})
    }

    #[test]
    fn connection_ids_never_reach_the_model() {
        check("browser_tabs", json!({"browserId": "chrome:b", "connectionId": "c", "connectionGeneration": 3, "tabs": [], "count": 0}), json!({"tabs": [], "count": 0}));
    }

    #[test]
    fn errors_keep_their_code_message_and_hint() {
        let e = json!({"code": "BROWSER_STALE_REF", "message": "m", "hint": "h"});
        check("browser_click", json!({"error": e, "connectionId": "c", "browserId": "b"}), json!({"error": e}));
    }

    #[test]
    fn a_handle_keeps_what_a_side_effect_checks() {
        check(
            "browser_claim_tab",
            json!({"ok": true, "tab": {"id": 5, "title": "T", "url": "https://a.test/", "handle": handle()}}),
            json!({"ok": true, "tab": {"id": 5, "title": "T", "url": "https://a.test/", "handle": {"tabFence": "tab:5:r.1", "incarnation": "L1"}}}),
        );
    }

    #[test]
    fn an_action_on_the_same_document_is_its_outcome_only() {
        check(
            "browser_click",
            json!({"ok": true, "action": "click", "ref": "e3", "settledMs": 120, "tab": {"id": 5, "title": "T", "url": "u", "handle": handle()}}),
            json!({"ok": true, "settledMs": 120}),
        );
    }

    #[test]
    fn an_action_that_navigated_shows_the_new_tab() {
        check(
            "browser_click",
            json!({"ok": true, "action": "click", "ref": "e3", "navigated": true, "tab": {"id": 5, "title": "New", "url": "u2", "handle": handle()}}),
            json!({"ok": true, "navigated": true, "tab": {"id": 5, "title": "New", "url": "u2", "handle": {"tabFence": "tab:5:r.1", "incarnation": "L1"}}}),
        );
    }

    #[test]
    fn the_page_an_action_reached_is_its_state_without_how_it_was_read() {
        let reached = |snapshot: Value| json!({"ok": true, "navigated": true, "settledMs": 90, "tab": {"id": 5, "title": "Done", "url": "u2", "handle": handle()}, "snapshot": snapshot});
        let shown = |snapshot_id: &str, state: &str| json!({"ok": true, "navigated": true, "settledMs": 90, "tab": {"id": 5, "title": "Done", "url": "u2", "handle": {"tabFence": "tab:5:r.1", "incarnation": "L1"}}, "snapshotId": snapshot_id, "state": state});
        check("browser_click", reached(json!({"snapshotId": "ax-3", "mode": "full", "fullReason": "navigation", "source": "chromium_ax", "state": "- link \"A\" [ref=a1]", "nodeCount": 3})), shown("ax-3", "- link \"A\" [ref=a1]"));
        check("browser_press", reached(json!({"snapshotId": "s-4", "mode": "full", "source": "dom", "state": "- link \"A\" [ref=e1]"})), shown("s-4", "- link \"A\" [ref=e1]"));
        let opened = json!({"ok": true, "tab": {"id": 5, "url": "http://a/", "handle": handle()}, "snapshot": {"snapshotId": "s-1", "mode": "full", "source": "dom", "state": "- heading \"A\""}});
        check("browser_tab_open", opened, json!({"ok": true, "tab": {"id": 5, "url": "http://a/", "handle": {"tabFence": "tab:5:r.1", "incarnation": "L1"}}, "snapshotId": "s-1", "state": "- heading \"A\""}));
    }

    #[test]
    fn an_action_still_navigating_says_so_with_the_tab_it_has_not_left() {
        check(
            "browser_click",
            json!({"ok": true, "action": "click", "ref": "e3", "navigating": true, "settledMs": 10000, "tab": {"id": 5, "title": "Login", "url": "u", "handle": handle()}}),
            json!({"ok": true, "navigating": true, "settledMs": 10000, "tab": {"id": 5, "title": "Login", "url": "u", "handle": {"tabFence": "tab:5:r.1", "incarnation": "L1"}}}),
        );
    }

    #[test]
    fn a_snapshot_is_lifted_and_loses_the_counts_the_state_shows() {
        check(
            "browser_snapshot",
            json!({"tab": {"id": 5, "handle": handle()}, "snapshot": {"snapshotId": "s-1", "mode": "full", "source": "dom", "state": "- button \"A\" [ref=e1]", "nodeCount": 1, "charCount": 22, "refCount": 1, "totalNodes": 1, "omittedNodes": 0, "truncated": false}}),
            json!({"tab": {"id": 5, "handle": {"tabFence": "tab:5:r.1", "incarnation": "L1"}}, "snapshotId": "s-1", "state": "- button \"A\" [ref=e1]"}),
        );
    }

    #[test]
    fn truncation_omissions_and_a_fallback_source_stay() {
        check(
            "browser_accessibility_snapshot",
            json!({"snapshotId": "ax-2", "mode": "full", "fullReason": "mass-change", "source": "dom", "omittedNodes": 40, "truncated": true, "state": "x"}),
            json!({"snapshotId": "ax-2", "mode": "full", "fullReason": "mass-change", "source": "dom", "omittedNodes": 40, "truncated": true, "state": "x"}),
        );
    }

    #[test]
    fn a_snapshot_says_its_source_only_when_it_is_not_the_walk() {
        check("browser_snapshot", json!({"snapshot": {"snapshotId": "s-2", "source": "chromium_ax", "state": "x"}}), json!({"snapshotId": "s-2", "source": "chromium_ax", "state": "x"}));
    }

    #[test]
    fn a_false_value_that_is_not_a_flag_stays() {
        check("browser_evaluate", json!({"value": false, "truncated": false, "tab": {"id": 5}}), json!({"value": false}));
    }

    #[test]
    fn a_diff_or_unchanged_read_does_not_repeat_the_tab() {
        for mode in ["diff", "unchanged"] {
            check(
                "browser_accessibility_snapshot",
                json!({"snapshotId": "ax-2", "baseSnapshotId": "ax-1", "mode": mode, "tab": {"id": 5, "title": "T", "handle": handle()}}),
                json!({"snapshotId": "ax-2", "baseSnapshotId": "ax-1", "mode": mode}),
            );
        }
    }

    #[test]
    fn a_title_that_repeats_the_url_is_left_out() {
        check(
            "browser_tab_open",
            json!({"ok": true, "tab": {"id": 5, "active": true, "title": "127.0.0.1:8080/a/", "url": "http://127.0.0.1:8080/a/"}}),
            json!({"ok": true, "tab": {"id": 5, "url": "http://127.0.0.1:8080/a/"}}),
        );
        check("browser_selected_tab", json!({"tab": {"id": 5, "title": "Orders", "url": "https://a.test/orders"}}), json!({"tab": {"id": 5, "title": "Orders", "url": "https://a.test/orders"}}));
    }

    #[test]
    fn tab_rows_lose_their_window() {
        check("browser_tabs", json!({"tabs": [{"id": 1, "title": "A", "url": "u", "active": true, "windowId": 1}], "count": 1}), json!({"tabs": [{"id": 1, "title": "A", "url": "u", "active": true}], "count": 1}));
    }
}
