//! Tab descriptors and the screenshot text: the light, model-facing projection of
//! `chrome.tabs` objects.
//!
//! Owns: which tab fields reach the model and their caps. Must never: emit a favicon (the
//! field is deleted, data URL or not), a Base64 payload, or an unbounded list.

use crate::budget::{MAX_TABS, NODE_TEXT_CHARS, SESSION_ID_CHARS, TAB_URL_CHARS};
use crate::error::{Error, Result};
use crate::text::capped;
use serde::Serialize;
use serde_json::Value;


#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TabDescriptor {
    pub id: i64,
    pub title: String,
    pub url: String,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub active: bool,
    pub window_id: i64,
    /// `browser_tabs` rows only (a result's own `tab` stays lean): the position in its
    /// window, whose tab it is, its lifecycle when not loaded and running, its tab group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lifecycle: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_id: Option<i64>,
    /// `browser_tabs` rows: the agent tab whose page opened this one (`pccOpener`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub opener: Option<i64>,
    /// `browser_tabs` rows: the agent session whose tab it is (`pccSession`: each client of the
    /// Bridge is one), and `mine` when that is the caller's own (`pccMine`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub mine: bool,
    /// `false` on a person's tab the agent may not read (`pccGranted: false`, which the
    /// extension's consent.js adds): its site alone is shown, never its title or path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub granted: Option<bool>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TabList {
    pub tabs: Vec<TabDescriptor>,
    pub count: usize,
    pub truncated: bool,
}

/// Does `s` start with `data:` (any case)?
pub fn is_data_url(s: &str) -> bool {
    s.get(..5).is_some_and(|h| h.eq_ignore_ascii_case("data:"))
}

/// A URL as the model sees it: `data:` payloads are never shown, secret parameters
/// (`?cvc=`, `#id_token=`, `?access_token=`) are redacted, long URLs are capped.
pub fn model_url(url: &str) -> String {
    if is_data_url(url) {
        // Idempotent: an already shown `data:kind…` stays as it is.
        let kind = url.split([';', ',']).next().unwrap_or("data:").trim_end_matches('…');
        return format!("{}…", capped(kind, crate::budget::DATA_URL_KIND_CHARS).trim_end_matches('…'));
    }
    capped(&crate::tree::redact::url(url), TAB_URL_CHARS)
}

/// A page title as the model sees it: capped; a title that is a `data:` URL (Chrome titles
/// an untitled page with its URL) is shown as its kind only, never its payload.
pub fn model_title(title: &str) -> String {
    if is_data_url(title) {
        return model_url(title);
    }
    // An untitled page is titled with its URL: its secret parameters are redacted too.
    capped(&crate::tree::redact::url(title), NODE_TEXT_CHARS)
}

/// The site of a URL: scheme, host and port, without path, query or fragment.
fn site_of(url: &str) -> &str {
    let start = url.find("://").map_or(0, |i| i + 3);
    let end = url[start..].find(['/', '?', '#']).map_or(url.len(), |i| start + i);
    &url[..end]
}

/// A `chrome.tabs.Tab` (read field by field: unknown and mistyped fields are ignored). A tab
/// marked `pccGranted: false` shows its site alone, whatever else the object holds.
fn describe(t: &Value) -> Option<TabDescriptor> {
    let text = |k: &str| t.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    let ungranted = t.get("pccGranted") == Some(&Value::Bool(false));
    let url = text("url").or(text("pendingUrl")).unwrap_or("");
    Some(TabDescriptor {
        id: t.get("id")?.as_i64()?,
        title: if ungranted { String::new() } else { model_title(text("title").unwrap_or("")) },
        url: model_url(if ungranted { site_of(url) } else { url }),
        active: t.get("active").and_then(Value::as_bool).unwrap_or(false),
        window_id: t.get("windowId").and_then(Value::as_i64).unwrap_or(-1),
        index: None,
        owner: None,
        lifecycle: None,
        group_id: None,
        opener: None,
        session: None,
        mine: false,
        granted: ungranted.then_some(false),
    })
}

/// A `browser_tabs` row: the descriptor plus index, owner (`pccOwner`, which the extension
/// adds: `agent` or `claimed`; anything else is the user's), lifecycle and group.
fn describe_row(t: &Value) -> Option<TabDescriptor> {
    let flag = |k: &str| t.get(k).and_then(Value::as_bool).unwrap_or(false);
    let mut d = describe(t)?;
    d.index = t.get("index").and_then(Value::as_i64);
    d.owner = Some(match t.get("pccOwner").and_then(Value::as_str) {
        Some("agent") => "agent",
        Some("claimed") => "claimed",
        _ => "user",
    });
    d.lifecycle = if flag("discarded") {
        Some("discarded")
    } else if flag("frozen") {
        Some("frozen")
    } else {
        match t.get("status").and_then(Value::as_str) {
            Some("loading") => Some("loading"),
            Some("unloaded") => Some("unloaded"),
            _ => None,
        }
    };
    d.group_id = t.get("groupId").and_then(Value::as_i64).filter(|g| *g >= 0);
    d.opener = t.get("pccOpener").and_then(Value::as_i64);
    d.session = t.get("pccSession").and_then(Value::as_str).filter(|s| !s.is_empty()).map(|s| capped(s, SESSION_ID_CHARS));
    d.mine = d.session.is_some() && flag("pccMine");
    Some(d)
}

/// Projects the JSON of a `chrome.tabs.query` result.
pub fn project_tabs(json: &str) -> Result<TabList> {
    let raw: Value = crate::input::wire::decode(json, "tab list")?;
    let raw = raw.as_array().ok_or_else(|| Error::malformed("tab list", "expected an array"))?;
    let count = raw.len();
    let tabs: Vec<TabDescriptor> = raw.iter().filter_map(describe_row).take(MAX_TABS).collect();
    Ok(TabList { truncated: count > tabs.len(), count, tabs })
}

/// Projects one `chrome.tabs.Tab` object.
pub fn project_tab(json: &str) -> Result<TabDescriptor> {
    let raw: Value = crate::input::wire::decode(json, "tab")?;
    describe(&raw).ok_or_else(|| Error::malformed("tab", "it has no id"))
}

/// The only text a model gets for a screenshot; the image travels as an attachment.
pub fn screenshot_text(tab_id: i64, marked: Option<&str>, unmarked: usize) -> String {
    match (marked, unmarked) {
        (None, _) => format!("Screenshot captured for tab {tab_id}."),
        // With marks: the state whose refs they are, to act on.
        (Some(id), 0) => format!("Screenshot captured for tab {tab_id}, its refs marked (snapshotId {id})."),
        // A held state's refs whose elements were not found: the image does not show them all.
        (Some(id), n) => format!("Screenshot captured for tab {tab_id}, its refs marked (snapshotId {id}) but {n} not found (gone, or inside a frame)."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn favicons_and_data_urls_never_reach_the_model() {
        let json = r#"[{"id":1,"title":"A","url":"https://a.test/","favIconUrl":"data:image/png;base64,iVBORw0KGgo=","active":true,"windowId":3},
                       {"id":2,"title":"data:text/html;base64,PGgxPkhpPC9oMT4=","url":"data:text/html;base64,PGgxPkhpPC9oMT4=","windowId":3},{"title":"no id"}]"#;
        let list = project_tabs(json).unwrap();
        let wire = serde_json::to_string(&list).unwrap();
        assert!(!wire.contains("base64") && !wire.contains("favIcon") && !wire.contains("iVBOR"), "{wire}");
        assert_eq!(list.tabs.len(), 2);
        assert_eq!(list.count, 3);
        assert_eq!(list.tabs[1].url, "data:text/html…");
        assert_eq!(list.tabs[1].title, "data:text/html…", "Chrome titles an untitled page with its URL");
        assert!(!wire.contains("\"active\":false"), "empty optional fields are not sent");
    }

    #[test]
    fn secret_url_parameters_never_reach_the_model() {
        let json = r#"[{"id":1,"title":"https://shop.test/pay?cvc=737&step=2","url":"https://shop.test/pay?cvc=737&step=2","windowId":3},
                       {"id":2,"title":"Signed in","url":"https://app.test/cb#id_token=eyJhbGci&state=x","windowId":3},
                       {"id":3,"title":"Reset","url":"https://app.test/reset?access_token=T0K3N","windowId":3}]"#;
        let wire = serde_json::to_string(&project_tabs(json).unwrap()).unwrap();
        for secret in ["737", "eyJhbGci", "T0K3N"] {
            assert!(!wire.contains(secret), "{secret} in {wire}");
        }
        assert!(wire.contains("cvc=[redacted]&step=2"), "{wire}");
    }

    #[test]
    fn long_lists_and_fields_are_capped() {
        let tabs: Vec<String> = (0..500).map(|i| format!(r#"{{"id":{i},"title":"{}","url":"https://x.test/{}","windowId":1}}"#, "t".repeat(1000), "p".repeat(5000))).collect();
        let list = project_tabs(&format!("[{}]", tabs.join(","))).unwrap();
        assert_eq!(list.tabs.len(), MAX_TABS);
        assert!(list.truncated);
        assert!(list.tabs[0].title.chars().count() <= NODE_TEXT_CHARS);
        assert!(list.tabs[0].url.chars().count() <= TAB_URL_CHARS);
    }

    fn check_row(tab: &str, expect: serde_json::Value) {
        let row = serde_json::to_value(&project_tabs(&format!("[{tab}]")).unwrap().tabs[0]).unwrap();
        assert_eq!(row, expect, "{tab}");
    }

    #[test]
    fn a_row_says_whose_tab_it_is() {
        check_row(r#"{"id":1,"url":"https://a.test/","windowId":3,"index":0,"pccOwner":"agent"}"#,
            serde_json::json!({"id": 1, "title": "", "url": "https://a.test/", "windowId": 3, "index": 0, "owner": "agent"}));
        check_row(r#"{"id":1,"url":"https://a.test/","windowId":3,"index":2,"pccOwner":"claimed"}"#,
            serde_json::json!({"id": 1, "title": "", "url": "https://a.test/", "windowId": 3, "index": 2, "owner": "claimed"}));
        check_row(r#"{"id":1,"url":"https://a.test/","windowId":3,"index":1,"pccOwner":"root"}"#,
            serde_json::json!({"id": 1, "title": "", "url": "https://a.test/", "windowId": 3, "index": 1, "owner": "user"}));
    }

    #[test]
    fn a_row_names_a_lifecycle_other_than_running_and_its_group() {
        check_row(r#"{"id":1,"url":"u","windowId":3,"index":0,"status":"complete","discarded":true,"groupId":-1}"#,
            serde_json::json!({"id": 1, "title": "", "url": "u", "windowId": 3, "index": 0, "owner": "user", "lifecycle": "discarded"}));
        check_row(r#"{"id":1,"url":"u","windowId":3,"index":0,"status":"loading","groupId":42}"#,
            serde_json::json!({"id": 1, "title": "", "url": "u", "windowId": 3, "index": 0, "owner": "user", "lifecycle": "loading", "groupId": 42}));
        check_row(r#"{"id":1,"url":"u","windowId":3,"index":0,"status":"complete","frozen":false}"#,
            serde_json::json!({"id": 1, "title": "", "url": "u", "windowId": 3, "index": 0, "owner": "user"}));
    }

    #[test]
    fn a_tab_the_agent_may_not_read_shows_its_site_alone() {
        check_row(r#"{"id":1,"title":"Inbox (3) - me@mail.test","url":"https://mail.test:8443/u/0/#inbox?q=salary","windowId":3,"index":0,"pccGranted":false}"#,
            serde_json::json!({"id": 1, "title": "", "url": "https://mail.test:8443", "windowId": 3, "index": 0, "owner": "user", "granted": false}));
        let t = project_tab(r#"{"id":2,"title":"Bank","pendingUrl":"https://bank.test?acct=1","windowId":3,"pccGranted":false}"#).unwrap();
        assert_eq!(serde_json::to_value(&t).unwrap(), serde_json::json!({"id": 2, "title": "", "url": "https://bank.test", "windowId": 3, "granted": false}));
    }

    #[test]
    fn a_row_names_the_agent_tab_that_opened_it() {
        check_row(r#"{"id":7,"url":"https://a.test/pay","windowId":3,"index":1,"pccOwner":"agent","pccOpener":5}"#,
            serde_json::json!({"id": 7, "title": "", "url": "https://a.test/pay", "windowId": 3, "index": 1, "owner": "agent", "opener": 5}));
    }

    #[test]
    fn a_row_names_its_session_and_whether_it_is_the_callers() {
        check_row(r#"{"id":7,"url":"u","windowId":3,"index":1,"pccOwner":"agent","pccSession":"mcp-ab12","pccMine":true}"#,
            serde_json::json!({"id": 7, "title": "", "url": "u", "windowId": 3, "index": 1, "owner": "agent", "session": "mcp-ab12", "mine": true}));
        check_row(r#"{"id":8,"url":"u","windowId":3,"index":2,"pccOwner":"agent","pccSession":"pi-9f"}"#,
            serde_json::json!({"id": 8, "title": "", "url": "u", "windowId": 3, "index": 2, "owner": "agent", "session": "pi-9f"}));
        // No session, no `mine`, whatever the row says.
        check_row(r#"{"id":9,"url":"u","windowId":3,"index":3,"pccOwner":"agent","pccSession":"","pccMine":true}"#,
            serde_json::json!({"id": 9, "title": "", "url": "u", "windowId": 3, "index": 3, "owner": "agent"}));
    }

    #[test]
    fn a_results_own_tab_stays_lean() {
        let t = project_tab(r#"{"id":1,"url":"u","windowId":3,"index":4,"pccOwner":"agent","status":"loading","groupId":2}"#).unwrap();
        assert_eq!(serde_json::to_value(&t).unwrap(), serde_json::json!({"id": 1, "title": "", "url": "u", "windowId": 3}));
    }

    #[test]
    fn screenshot_text_is_exact() {
        assert_eq!(screenshot_text(12, None, 0), "Screenshot captured for tab 12.");
        assert_eq!(screenshot_text(12, Some("snapshot-r-3"), 0), "Screenshot captured for tab 12, its refs marked (snapshotId snapshot-r-3).");
        assert_eq!(screenshot_text(12, Some("ax-r-7"), 2), "Screenshot captured for tab 12, its refs marked (snapshotId ax-r-7) but 2 not found (gone, or inside a frame).");
    }
}
