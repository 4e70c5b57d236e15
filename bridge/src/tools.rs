//! The tool catalogue the MCP server publishes: each browser tool's name, description,
//! parameters (as JSON Schema) and whether it only reads.
//!
//! Owns: the descriptions and schemas hosts see. Must never: describe a parameter the
//! extension does not accept (the README's tool table is the reference).

use serde_json::{json, Map, Value};

pub struct Tool {
    pub name: &'static str,
    pub description: &'static str,
    /// (name, JSON type, description)
    pub params: &'static [(&'static str, &'static str, &'static str)],
    pub required: &'static [&'static str],
    pub read_only: bool,
}

const TAB: (&str, &str, &str) = ("tabId", "integer", "tab id (default: the active tab)");
const HANDLE: (&str, &str, &str) = ("handle", "object", "the tab handle from browser_claim_tab or a snapshot (needed on claimed user tabs)");
const REF: (&str, &str, &str) = ("ref", "string", "a ref (eN or aN) from the latest snapshot");
const SNAPSHOT_ID: (&str, &str, &str) = ("snapshotId", "string", "the snapshotId that produced the ref");
const SELECTOR: (&str, &str, &str) = ("selector", "string", "CSS selector narrowing the read");
const MAX_CHARS: (&str, &str, &str) = ("maxChars", "integer", "character budget (capped)");
const MAX_NODES: (&str, &str, &str) = ("maxNodes", "integer", "node budget (capped)");
const TARGET: (&str, &str, &str) = ("target", "object", "instead of a ref: {role?, name?, label?, placeholder?, text?, testId?, exact?, index?} resolved against the page now (visible elements; index 0 is the first match)");
const SCOPE_REF: (&str, &str, &str) = ("ref", "string", "read only this element's subtree (with its snapshotId); a `[more=…]` note's handle is such a ref: it opens what the note left out");
const TIMEOUT: (&str, &str, &str) = ("timeout", "integer", "milliseconds, default 5000, max 30000");

pub const TOOLS: &[Tool] = &[
    Tool { name: "browser_snapshot", description: "The page as a compact semantic state (one line per visible node, refs on what can be acted on). Use refs with snapshotId in actions.", params: &[TAB, SELECTOR, SCOPE_REF, SNAPSHOT_ID, MAX_CHARS, MAX_NODES, ("page", "integer", "read the state page by page in document order (1, 2, …) instead of the budgeted selection; the last line says if more follows")], required: &[], read_only: true },
    Tool { name: "browser_accessibility_snapshot", description: "Chromium's accessibility tree as full / diff / unchanged against your last read of the same document (refs aN).", params: &[TAB, SELECTOR, SCOPE_REF, SNAPSHOT_ID, MAX_CHARS, MAX_NODES, ("sessionId", "string", "your agent session (revisions are kept per session)"), ("disableDiffing", "boolean", "force a full state")], required: &[], read_only: true },
    Tool { name: "browser_dom_cua", description: "Visible DOM elements in the viewport with coordinates, for computer-use style clicking.", params: &[TAB, SELECTOR, MAX_CHARS, MAX_NODES], required: &[], read_only: true },
    Tool { name: "browser_extract", description: "The page's article (Mozilla Readability) or main text as Markdown or plain text, with its byline, site and date; a long one is read in pages: pass nextOffset back as offset. Works read-only on any tab.", params: &[TAB, SELECTOR, ("format", "string", "markdown (default) or text"), MAX_CHARS, ("offset", "integer", "character offset to start at (nextOffset of the previous page)")], required: &[], read_only: true },
    Tool { name: "browser_tabs", description: "Open tabs: id, title, URL.", params: &[], required: &[], read_only: true },
    Tool { name: "browser_selected_tab", description: "The active tab and its handle.", params: &[TAB], required: &[], read_only: true },
    Tool { name: "browser_tab_open", description: "Open a new agent-owned tab (agent tabs can be acted on without a claim).", params: &[("url", "string", "http(s) or file URL"), ("active", "boolean", "focus the tab (default true)"), TIMEOUT], required: &[], read_only: false },
    Tool { name: "browser_tab_close", description: "Close an agent-owned tab.", params: &[TAB], required: &["tabId"], read_only: false },
    Tool { name: "browser_claim_tab", description: "Claim a user tab so that actions on it are allowed; returns its handle.", params: &[TAB], required: &["tabId"], read_only: false },
    Tool { name: "browser_release_tab", description: "Give a claimed user tab back (actions on it are refused again).", params: &[TAB], required: &["tabId"], read_only: false },
    Tool { name: "browser_dispose_session", description: "Forget the accessibility revisions of your agent session (the next read is full).", params: &[("sessionId", "string", "your agent session")], required: &["sessionId"], read_only: false },
    Tool { name: "browser_navigate", description: "Load a URL in a tab and wait for it.", params: &[("url", "string", "http(s) or file URL"), TAB, HANDLE, TIMEOUT], required: &["url"], read_only: false },
    Tool { name: "browser_wait_for", description: "Wait until text appears or a selector matches a rendered element.", params: &[("text", "string", "text to wait for"), SELECTOR, TAB, TIMEOUT, TARGET], required: &[], read_only: true },
    Tool { name: "browser_find", description: "Search the whole page, including what a snapshot left out: text, a RegExp and/or role + name. Returns matching lines with refs (use them with the returned snapshotId) and where each sits.", params: &[("text", "string", "text to find (case-insensitive)"), ("regex", "string", "JavaScript RegExp source, case-insensitive"), ("role", "string", "ARIA role: button, link, heading, textbox…"), ("name", "string", "accessible name (substring)"), ("exact", "boolean", "name must match whole"), ("maxResults", "integer", "results shown (default 20, max 100)"), TAB, SELECTOR, MAX_CHARS], required: &[], read_only: true },
    Tool { name: "browser_locator", description: "Read one fact of a target or ref without a snapshot: count, text, value, attribute, visible or enabled. Sensitive values come back [redacted].", params: &[TARGET, REF, SNAPSHOT_ID, ("read", "string", "count, text, value, attribute, visible or enabled"), ("attribute", "string", "the attribute name, for read: attribute"), TAB], required: &["read"], read_only: true },
    Tool { name: "browser_scroll", description: "Scroll with the mouse wheel: the page, or the container of ref; or bring toRef into view. Returns how far it moved, atEnd, and what the viewport shows now (a small state with refs under its snapshotId).", params: &[("direction", "string", "up, down, left or right"), ("pages", "number", "viewports to scroll (default 1)"), ("deltaX", "number", "CSS pixels instead of pages"), ("deltaY", "number", "CSS pixels instead of pages"), REF, ("toRef", "string", "a ref to bring into view"), SNAPSHOT_ID, TAB, HANDLE], required: &[], read_only: false },
    Tool { name: "browser_click", description: "Click the element of a ref, or a point (x, y in viewport CSS pixels, as browser_dom_cua reports them).", params: &[REF, SNAPSHOT_ID, TARGET, ("x", "number", "viewport x, instead of a ref"), ("y", "number", "viewport y, instead of a ref"), TAB, HANDLE, ("button", "string", "left, right or middle"), ("doubleClick", "boolean", "double click")], required: &[], read_only: false },
    Tool { name: "browser_fill", description: "Replace the value of a field.", params: &[REF, SNAPSHOT_ID, TARGET, ("text", "string", "the new value"), TAB, HANDLE], required: &["text"], read_only: false },
    Tool { name: "browser_type", description: "Type text into a field key by key.", params: &[REF, SNAPSHOT_ID, TARGET, ("text", "string", "text to type"), ("submit", "boolean", "press Enter after"), TAB, HANDLE], required: &["text"], read_only: false },
    Tool { name: "browser_press", description: "Press a key (e.g. Enter, Escape, ArrowDown), on a ref or the focused element.", params: &[("key", "string", "key name"), REF, SNAPSHOT_ID, TARGET, TAB, HANDLE], required: &["key"], read_only: false },
    Tool { name: "browser_hover", description: "Move the mouse over the element of a ref.", params: &[REF, SNAPSHOT_ID, TARGET, TAB, HANDLE], required: &[], read_only: false },
    Tool { name: "browser_select_option", description: "Select option(s) of a select element by value or label.", params: &[REF, SNAPSHOT_ID, TARGET, ("value", "string", "option value or label"), TAB, HANDLE], required: &[], read_only: false },
    Tool { name: "browser_screenshot", description: "A PNG screenshot of the tab's viewport, as an image.", params: &[TAB], required: &[], read_only: true },
    Tool { name: "browser_evaluate", description: "Run a JavaScript expression in the page (agent or claimed tabs); the value comes back bounded.", params: &[("expression", "string", "JavaScript expression"), TAB, HANDLE, ("awaitPromise", "boolean", "await a returned promise (default true)"), TIMEOUT], required: &["expression"], read_only: false },
    Tool { name: "browser_console", description: "Recent console messages of a tab (bounded).", params: &[TAB, ("maxEntries", "integer", "entries (default 100, max 1000)"), MAX_CHARS, ("filter", "string", "a level: log, error, warning…")], required: &[], read_only: true },
    Tool { name: "browser_network", description: "Recent requests of a tab (bounded; no headers or bodies).", params: &[TAB, ("maxEntries", "integer", "entries (default 100, max 1000)"), MAX_CHARS, ("filter", "string", "URL substring")], required: &[], read_only: true },
    Tool { name: "browser_status", description: "Connection and target summary.", params: &[TAB, ("includeEvents", "boolean", "include the last tool calls")], required: &[], read_only: true },
    Tool { name: "browser_doctor", description: "Problems with the connection or tab, with recovery hints.", params: &[TAB, ("details", "boolean", "include details")], required: &[], read_only: true },
];

pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| t.name == name)
}

/// The JSON Schema of a tool's parameters.
pub fn input_schema(t: &Tool) -> Map<String, Value> {
    let props: Map<String, Value> = t.params.iter().map(|(n, ty, d)| (n.to_string(), json!({"type": ty, "description": d}))).collect();
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(props));
    if !t.required.is_empty() {
        schema.insert("required".into(), json!(t.required));
    }
    schema.insert("additionalProperties".into(), false.into());
    schema
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_required_params_exist() {
        for (i, t) in TOOLS.iter().enumerate() {
            assert!(TOOLS[..i].iter().all(|o| o.name != t.name), "{}", t.name);
            for r in t.required {
                assert!(t.params.iter().any(|(n, ..)| n == r), "{}: {r}", t.name);
            }
        }
    }
}
