//! Model projection: a raw tool result → the bounded, compact result a
//! model sees. One code path for the Bridge (`responseMode: "compact"`) and every JS host
//! (the wasm `project` export), so both give the same model-visible fields.
//!
//! Owns: which fields of each page-reading result reach a model, and the second bound on
//! page text (the collector's budget is the first). Projection is a whitelist per method:
//! a field it does not name (`frameTree`, `timing`, `text`, `elements`, `accessibility`,
//! favicons, raw arrays) never passes, and empty optional fields (`null`, `""`) are dropped.
//! Must never: drop what acting safely needs (browser and connection ids, the tab handle,
//! snapshot ids, refs inside the state, counts, `truncated`), invent a value, or change a
//! value it keeps on a second pass: `project(project(x)) == project(x)`.

use crate::budget::{EXTRACT_MAX_CHARS, MAX_TABS, NODE_TEXT_CHARS, TOTAL_CHARS};
use crate::error::{Code, Error, Result};
use crate::tools::tabs::{is_data_url, model_url};
use crate::text::{byte_prefix, capped, char_len};
use serde_json::{Map, Value};

/// Methods with a compact projection; `compact` on any other method is `INVALID_REQUEST`.
pub const COMPACT_METHODS: [&str; 7] = [
    "browser_snapshot",
    "browser_find",
    "browser_accessibility_snapshot",
    "browser_extract",
    "browser_tabs",
    "browser_selected_tab",
    "browser_dom_cua",
];


/// How one whitelisted field is projected.
#[derive(Clone, Copy)]
enum Field {
    /// A string, number or boolean (strings capped at `crate::budget::PROJECTION_SCALAR_CHARS`); anything else drops.
    Scalar,
    /// Page text on one line (titles): folded and capped.
    Text(usize),
    /// A URL as the model sees it (no `data:` payload, capped).
    Url,
    /// Multi-line page text (`state`, `content`): cut on a line boundary at this many
    /// characters; a cut marks the object `truncated` and recounts `charCount`.
    Body(usize),
    /// A nested object with its own whitelist.
    Object(Shape),
    /// A list of objects with one whitelist, at most this many items.
    List(Shape, usize),
}
use Field::*;

/// A group of whitelisted fields.
type Fields = &'static [(&'static str, Field)];
/// An object's whitelist: the union of its groups.
type Shape = &'static [Fields];

/// What the Bridge adds to every result, and the error shape.
const CONNECTION: Fields = &[
    ("browserId", Scalar),
    ("connectionId", Scalar),
    ("connectionGeneration", Scalar),
    ("error", Object(&[&[("code", Scalar), ("message", Text(crate::budget::PROJECTION_ERROR_CHARS)), ("hint", Text(crate::budget::PROJECTION_ERROR_CHARS))]])),
];
const HANDLE: Fields = &[("tabId", Scalar), ("browserId", Scalar), ("windowId", Scalar), ("tabFence", Scalar), ("incarnation", Scalar)];
/// The compact tab identity of a page result.
const TAB: Fields = &[("tab", Object(&[&[("id", Scalar), ("title", Text(NODE_TEXT_CHARS)), ("url", Url), ("granted", Scalar), ("handle", Object(&[HANDLE]))]]))];
/// One row of `browser_tabs`.
const TAB_ROW: Fields = &[
    ("id", Scalar),
    ("title", Text(NODE_TEXT_CHARS)),
    ("url", Url),
    ("active", Scalar),
    ("windowId", Scalar),
    ("index", Scalar),
    ("owner", Scalar),
    ("lifecycle", Scalar),
    ("groupId", Scalar),
    ("opener", Scalar),
    ("session", Text(crate::budget::SESSION_ID_CHARS)),
    ("mine", Scalar),
    ("granted", Scalar),
    ("handle", Object(&[HANDLE])),
];
/// A revision: the `snapshot` of browser_snapshot, the top level of the AX result.
const REVISION: Fields = &[
    ("snapshotId", Scalar),
    ("baseSnapshotId", Scalar),
    ("mode", Scalar),
    ("source", Scalar),
    ("state", Body(TOTAL_CHARS)),
    ("nodeCount", Scalar),
    ("charCount", Scalar),
    ("refCount", Scalar),
    ("totalNodes", Scalar),
    ("omittedNodes", Scalar),
    ("truncated", Scalar),
    ("fullReason", Scalar),
];
const EXTRACT: Fields = &[
    ("title", Text(NODE_TEXT_CHARS)),
    ("byline", Text(NODE_TEXT_CHARS)),
    ("site", Text(NODE_TEXT_CHARS)),
    ("published", Text(NODE_TEXT_CHARS)),
    ("lang", Text(NODE_TEXT_CHARS)),
    ("url", Url),
    ("format", Scalar),
    ("scope", Scalar),
    ("content", Body(EXTRACT_MAX_CHARS)),
    ("charCount", Scalar),
    ("totalChars", Scalar),
    ("offset", Scalar),
    ("nextOffset", Scalar),
    ("hint", Scalar),
    ("truncated", Scalar),
];
const TAB_LIST: Fields = &[("tabs", List(&[TAB_ROW], MAX_TABS)), ("count", Scalar), ("truncated", Scalar)];
const VISIBLE_DOM: Fields = &[
    ("state", Body(TOTAL_CHARS)),
    ("nodeCount", Scalar),
    ("charCount", Scalar),
    ("totalNodes", Scalar),
    ("frameCount", Scalar),
    ("truncated", Scalar),
];

// `charCount` is only ever the recount of a cut `state`: kept, so projecting twice is the same.
const FOUND: Fields = &[("snapshotId", Scalar), ("matches", Scalar), ("shown", Scalar), ("truncated", Scalar), ("charCount", Scalar), ("state", Body(TOTAL_CHARS))];

fn whitelist(method: &str) -> Option<Shape> {
    Some(match method {
        "browser_find" => &[CONNECTION, TAB, FOUND],
        "browser_snapshot" => &[CONNECTION, TAB, &[("snapshot", Object(&[REVISION]))]],
        "browser_accessibility_snapshot" => &[CONNECTION, TAB, REVISION],
        "browser_extract" => &[CONNECTION, TAB, EXTRACT],
        "browser_tabs" => &[CONNECTION, TAB_LIST],
        "browser_selected_tab" => &[CONNECTION, TAB],
        "browser_dom_cua" => &[CONNECTION, TAB, VISIBLE_DOM],
        _ => return None,
    })
}

/// Does `method` have a compact projection?
pub fn has_compact(method: &str) -> bool {
    whitelist(method).is_some()
}

/// Projects the raw result of `method` (a JSON object) to its compact, model-facing form.
pub fn project(method: &str, raw: &Value) -> Result<Value> {
    let shape = whitelist(method).ok_or_else(|| {
        Error::new(
            Code::InvalidRequest,
            format!("{} has no compact projection", capped(method, crate::budget::METHOD_NAME_CHARS)),
            format!("use responseMode \"raw\" or omit it; compact is for {}", COMPACT_METHODS.join(", ")),
        )
    })?;
    let obj = raw.as_object().ok_or_else(|| Error::malformed("tool result", "expected an object"))?;
    Ok(Value::Object(object(obj, shape)))
}

fn object(raw: &Map<String, Value>, shape: Shape) -> Map<String, Value> {
    let mut out = Map::new();
    let mut cut = false;
    let fields = || shape.iter().flat_map(|group| group.iter());
    for &(name, field) in fields() {
        let Some(v) = raw.get(name) else { continue };
        let projected = match field {
            Scalar => scalar(v),
            Text(max) => v.as_str().map(|s| Value::String(if is_data_url(s) { model_url(s) } else { capped(s, max) })),
            Url => v.as_str().map(|s| Value::String(model_url(s))),
            Body(max) => v.as_str().map(|s| {
                let (body, was_cut) = body(s, max);
                cut |= was_cut;
                Value::String(body)
            }),
            Object(inner) => v.as_object().map(|o| Value::Object(object(o, inner))).filter(|o| o.as_object().is_some_and(|o| !o.is_empty())),
            List(inner, max) => v.as_array().map(|items| {
                Value::Array(items.iter().filter_map(Value::as_object).take(max).map(|o| Value::Object(object(o, inner))).collect())
            }),
        };
        match projected {
            Some(Value::String(s)) if s.is_empty() => {}
            Some(Value::Null) | None => {}
            Some(v) => {
                out.insert(name.to_string(), v);
            }
        }
    }
    if cut {
        // The second bound cut page text: say so, and count what is left.
        out.insert("truncated".into(), Value::Bool(true));
        if let Some(len) = fields().find_map(|&(n, f)| matches!(f, Body(_)).then(|| out.get(n)).flatten().and_then(Value::as_str).map(char_len)) {
            out.insert("charCount".into(), Value::from(len));
        }
    }
    out
}

fn scalar(v: &Value) -> Option<Value> {
    match v {
        // No payload rides in on an id: a `data:` URL anywhere is shown as its kind only.
        Value::String(s) if is_data_url(s) => Some(Value::String(model_url(s))),
        Value::String(s) => Some(Value::String(if s.len() > crate::budget::PROJECTION_SCALAR_CHARS { capped(s, crate::budget::PROJECTION_SCALAR_CHARS) } else { s.clone() })),
        Value::Number(_) | Value::Bool(_) => Some(v.clone()),
        _ => None,
    }
}

/// `s` cut to at most `max` characters at the last line break that fits (or mid-line when
/// the first line alone is longer); whether it was cut.
fn body(s: &str, max: usize) -> (String, bool) {
    // A char is at most 4 bytes: a prefix of `max` bytes always fits, of `4 * max` may not.
    if s.len() <= max || char_len(s) <= max {
        return (s.to_string(), false);
    }
    let end = s.char_indices().nth(max).map_or(s.len(), |(i, _)| i);
    let head = byte_prefix(s, end);
    let at_line = head.rfind('\n').filter(|&i| i > 0).map_or(head, |i| &head[..i]);
    (at_line.to_string(), true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn body_cuts_on_a_line_boundary() {
        assert_eq!(body("a\nbb\nccc", 6), ("a\nbb".to_string(), true));
        assert_eq!(body("abcdef", 3), ("abc".to_string(), true));
        assert_eq!(body("é\né", 3), ("é\né".to_string(), false));
    }

    #[test]
    fn unknown_methods_have_no_projection() {
        let e = project("browser_click", &json!({})).unwrap_err();
        assert_eq!(e.code, Code::InvalidRequest);
        assert!(!has_compact("browser_evaluate"));
    }

    #[test]
    fn a_tab_row_keeps_its_session_and_whether_it_is_the_callers() {
        let raw = json!({"tabs": [{"id": 1, "owner": "agent", "session": "mcp-ab12cd", "mine": true}, {"id": 2, "owner": "agent", "session": "pi-1"}], "count": 2});
        assert_eq!(project("browser_tabs", &raw).unwrap(), raw);
    }

    #[test]
    fn lists_keep_only_objects_and_whitelisted_fields() {
        let raw = json!({"tabs": [{"id": 1, "favIconUrl": "data:image/png;base64,AAAA", "title": "  A  "}, 7, null], "count": 3});
        assert_eq!(project("browser_tabs", &raw).unwrap(), json!({"tabs": [{"id": 1, "title": "A"}], "count": 3}));
    }
}
