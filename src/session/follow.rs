//! Follow: the page state an action's result carries when the action reached another page.
//!
//! After a click that submitted a form, a key that followed a link, `browser_navigate` or
//! `browser_tab_open`, the model's next move is to read the page it reached. The result
//! carries that read instead (one call and one model turn fewer per navigation), made the way
//! the agent session last read a whole page (`browser_snapshot` or
//! `browser_accessibility_snapshot`, its source and budget), so that its next read diffs against
//! it; a session that has read nothing yet gets `browser_snapshot`'s.
//!
//! Owns: whether a result is followed by a read, and which. Must never: follow an error, a
//! navigation still under way (`navigating`: the page has not been reached), a result that
//! already shows the page (`snapshotId`), a dialog, or a blank page; read the browser.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Tools whose success always reaches a page (no `navigated` flag of their own).
pub const REACHING: [&str; 2] = ["browser_navigate", "browser_tab_open"];

/// The last whole-page read of an agent session: how it reads a page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LastRead {
    pub session_id: String,
    /// `snapshot` or `ax` (read_plan's `Request::tool`).
    pub tool: String,
    pub source: Option<String>,
    pub max_chars: Option<u64>,
    pub max_nodes: Option<u64>,
}

/// The read that follows a result: a tracked read's request (read_plan `Request`'s fields).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FollowRead {
    pub tab_id: i64,
    pub tool: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_chars: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_nodes: Option<u64>,
}

/// The read `method`'s `result` is followed by, for agent session `session` (`""`: none), whose
/// last whole-page read was `last`; `None` when the result needs none.
pub fn follow(method: &str, result: &Value, session: &str, last: Option<&LastRead>) -> Option<FollowRead> {
    let obj = result.as_object()?;
    let flag = |k: &str| obj.get(k) == Some(&Value::Bool(true));
    if obj.contains_key("error") || obj.contains_key("dialog") || obj.contains_key("snapshotId") || obj.contains_key("snapshot") || flag("navigating") {
        return None;
    }
    // A client-side route change (`routed`: the URL changed, the document stayed) reaches
    // another page for the person as much as a navigation does.
    if !(flag("navigated") || flag("routed") || (REACHING.contains(&method) && flag("ok"))) {
        return None;
    }
    let tab = obj.get("tab")?.as_object()?;
    let tab_id = tab.get("id")?.as_i64()?;
    let url = tab.get("url").and_then(Value::as_str).unwrap_or("");
    if url.is_empty() || url.starts_with("about:") {
        return None;
    }
    let session_id = (!session.is_empty()).then(|| session.to_string());
    Some(match last.filter(|l| l.session_id == session) {
        Some(l) => FollowRead { tab_id, tool: l.tool.clone(), session_id, source: l.source.clone(), max_chars: l.max_chars, max_nodes: l.max_nodes },
        None => FollowRead { tab_id, tool: "snapshot".into(), session_id, source: None, max_chars: None, max_nodes: None },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn ax_reader() -> LastRead {
        LastRead { session_id: "s".into(), tool: "ax".into(), source: None, max_chars: Some(8000), max_nodes: None }
    }

    fn check(method: &str, result: Value, last: Option<&LastRead>, expect: Option<Value>) {
        let got = follow(method, &result, "s", last).map(|f| serde_json::to_value(f).unwrap());
        assert_eq!(got, expect, "{method} {result}");
    }

    #[test]
    fn a_click_that_navigated_is_followed_by_the_sessions_read() {
        check("browser_click", json!({"ok": true, "navigated": true, "tab": {"id": 7, "url": "http://a/done"}}), Some(&ax_reader()), Some(json!({"tabId": 7, "tool": "ax", "sessionId": "s", "maxChars": 8000})));
    }

    #[test]
    fn a_client_side_route_change_is_followed_like_a_navigation() {
        check("browser_click", json!({"ok": true, "routed": true, "tab": {"id": 7, "url": "http://a/#/accounts/2"}}), Some(&ax_reader()), Some(json!({"tabId": 7, "tool": "ax", "sessionId": "s", "maxChars": 8000})));
    }

    #[test]
    fn a_session_that_read_nothing_gets_a_snapshot() {
        check("browser_press", json!({"ok": true, "navigated": true, "tab": {"id": 7, "url": "http://a/done"}}), None, Some(json!({"tabId": 7, "tool": "snapshot", "sessionId": "s"})));
    }

    #[test]
    fn another_sessions_read_is_not_this_ones() {
        let other = LastRead { session_id: "t".into(), ..ax_reader() };
        check("browser_click", json!({"ok": true, "navigated": true, "tab": {"id": 7, "url": "http://a/"}}), Some(&other), Some(json!({"tabId": 7, "tool": "snapshot", "sessionId": "s"})));
    }

    #[test]
    fn navigate_and_tab_open_reach_a_page_without_a_flag() {
        for m in REACHING {
            check(m, json!({"ok": true, "tab": {"id": 3, "url": "http://a/"}}), None, Some(json!({"tabId": 3, "tool": "snapshot", "sessionId": "s"})));
        }
    }

    #[test]
    fn an_action_on_the_same_document_is_not_followed() {
        check("browser_click", json!({"ok": true, "settledMs": 40}), None, None);
        check("browser_click", json!({"ok": true, "tab": {"id": 7, "url": "http://a/"}}), None, None);
    }

    #[test]
    fn a_navigation_still_under_way_is_not_followed() {
        check("browser_click", json!({"ok": true, "navigated": true, "navigating": true, "tab": {"id": 7, "url": "http://a/"}}), None, None);
    }

    #[test]
    fn errors_dialogs_and_results_that_show_the_page_are_not_followed() {
        check("browser_navigate", json!({"error": {"code": "BROWSER_WAIT_TIMEOUT"}, "tab": {"id": 3, "url": "http://a/"}}), None, None);
        check("browser_click", json!({"ok": true, "navigated": true, "dialog": {"type": "alert"}, "tab": {"id": 7, "url": "http://a/"}}), None, None);
        check("browser_scroll", json!({"ok": true, "navigated": true, "snapshotId": "e-1", "tab": {"id": 7, "url": "http://a/"}}), None, None);
    }

    #[test]
    fn a_blank_tab_is_not_read() {
        check("browser_tab_open", json!({"ok": true, "tab": {"id": 3, "url": "about:blank"}}), None, None);
        check("browser_tab_open", json!({"ok": true, "tab": {"id": 3}}), None, None);
    }

    #[test]
    fn without_a_session_the_read_has_none() {
        let got = follow("browser_navigate", &json!({"ok": true, "tab": {"id": 3, "url": "http://a/"}}), "", None).unwrap();
        assert_eq!(got.session_id, None);
    }
}
