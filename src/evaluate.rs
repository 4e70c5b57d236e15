//! `browser_evaluate`: the second bound on a page-serialized result. The page-side
//! serializer (extension/evaluate.js) already applies these limits at the source; this
//! module re-applies them to whatever arrived, adds the total character cap and reports
//! `truncated`, so a lying or broken page cannot make the result unbounded.
//!
//! An expression can read any value of the page (`input.value`), so the result is also
//! scrubbed: the extension reports the page's form fields (read in its isolated world,
//! before and after the expression ran) and every value of a field `redact` calls sensitive
//! is replaced by `[redacted]` wherever it appears in the result.
//!
//! Owns: the evaluate limits' enforcement, the scrub and the result shape. Must never:
//! recurse on input depth beyond `EVAL_DEPTH` (deeper input is cut, not walked), or return a
//! sensitive field's value.

use crate::budget::{EVAL_ARRAY_ITEMS, EVAL_DEPTH, EVAL_OBJECT_FIELDS, EVAL_STRING_CHARS, EVAL_TOTAL_CHARS};
use crate::error::Result;
use crate::redact::is_sensitive_by;
use crate::text::cut;
use serde::Serialize;
use serde_json::{Map, Value};

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Evaluated {
    pub value: Value,
    /// `typeof` of the value as the page reported it (`object`, `string`, `undefined`…).
    #[serde(rename = "type")]
    pub kind: String,
    /// Characters of `value` as compact JSON.
    pub char_count: usize,
    pub truncated: bool,
}

struct Bound {
    remaining: usize,
    truncated: bool,
}

/// `json`: `{"value": …, "type": "…", "truncated": bool}` from the page-side serializer.
pub fn project(json: &str) -> Result<Evaluated> {
    // Depth is bounded at the source; serde_json's own recursion limit (128) guards the rest.
    let raw: Value = crate::input::json::parse(json, "evaluate result", |p| p.value())?;
    let mut b = Bound { remaining: EVAL_TOTAL_CHARS, truncated: raw.get("truncated").and_then(Value::as_bool).unwrap_or(false) };
    let kind = raw.get("type").and_then(Value::as_str).map(|t| cut(t, 20, false)).unwrap_or_else(|| "undefined".into());
    let value = bound(raw.get("value").unwrap_or(&Value::Null), 0, &mut b);
    let char_count = serde_json::to_string(&value).map(|s| s.chars().count()).unwrap_or(0);
    Ok(Evaluated { value, kind, char_count, truncated: b.truncated })
}

/// Values shorter than this are not scrubbed (they would match everywhere).
const SECRET_MIN_CHARS: usize = 3;

/// `project`, then every value of a sensitive field in `fields_json` (`[{tag, attrs,
/// label, value}]`, the page's form fields) is replaced by `[redacted]` in the result.
pub fn project_redacted(json: &str, fields_json: &str) -> Result<Evaluated> {
    let mut r = project(json)?;
    let fields: Value = if fields_json.is_empty() { Value::Null } else { crate::input::json::parse(fields_json, "form fields", |p| p.value())? };
    let secrets: Vec<&str> = fields.as_array().into_iter().flatten().filter_map(secret_of).collect();
    if !secrets.is_empty() {
        scrub(&mut r.value, &secrets);
        r.char_count = serde_json::to_string(&r.value).map(|s| s.chars().count()).unwrap_or(0);
    }
    Ok(r)
}

/// The value of one reported field, when the field is sensitive.
fn secret_of(f: &Value) -> Option<&str> {
    let value = f.get("value")?.as_str().filter(|v| v.chars().count() >= SECRET_MIN_CHARS)?;
    // Without its attributes a field cannot be proven safe: treat it as sensitive.
    let Some(attrs) = f.get("attrs").and_then(Value::as_object) else { return Some(value) };
    let label = f.get("label").and_then(Value::as_str).unwrap_or("");
    is_sensitive_by(|k| attrs.get(k).and_then(Value::as_str), label).then_some(value)
}

fn scrub(v: &mut Value, secrets: &[&str]) {
    match v {
        Value::String(s) => {
            if let Some(clean) = scrubbed(s, secrets) {
                *s = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| scrub(i, secrets)),
        Value::Object(fields) => {
            for (k, mut item) in std::mem::take(fields) {
                scrub(&mut item, secrets);
                fields.insert(scrubbed(&k, secrets).unwrap_or(k), item);
            }
        }
        _ => {}
    }
}

/// `s` with every occurrence of a secret replaced, or `None` when it holds none. A plain
/// byte scan: secrets are few and short, and it keeps the wasm module small.
fn scrubbed(s: &str, secrets: &[&str]) -> Option<String> {
    let mut out = String::new();
    let (bytes, mut i, mut last) = (s.as_bytes(), 0, 0);
    while i < bytes.len() {
        match secrets.iter().find(|x| bytes[i..].starts_with(x.as_bytes())) {
            Some(x) => {
                out.push_str(&s[last..i]);
                out.push_str("[redacted]");
                i += x.len();
                last = i;
            }
            None => i += 1,
        }
    }
    (last > 0).then(|| out + &s[last..])
}

fn bound(v: &Value, depth: usize, b: &mut Bound) -> Value {
    if b.remaining == 0 {
        b.truncated = true;
        return Value::String("[budget exhausted]".into());
    }
    match v {
        Value::String(s) => {
            let max = EVAL_STRING_CHARS.min(b.remaining);
            let n = s.chars().count();
            let out = if n > max {
                b.truncated = true;
                let kept: String = s.chars().take(max).collect();
                format!("{kept}…[{} more chars]", n - max)
            } else {
                s.clone()
            };
            b.remaining = b.remaining.saturating_sub(out.chars().count() + 2);
            Value::String(out)
        }
        Value::Array(_) | Value::Object(_) if depth >= EVAL_DEPTH => {
            b.truncated = true;
            b.remaining = b.remaining.saturating_sub(16);
            Value::String(if v.is_array() { "[Array]".into() } else { "[Object]".into() })
        }
        Value::Array(items) => {
            // The page's own `[… N more items]` marker after a full array is kept.
            let marked = items.len() == EVAL_ARRAY_ITEMS + 1 && items.last().and_then(Value::as_str).is_some_and(|s| s.starts_with("[… "));
            let mut out = Vec::new();
            for item in items.iter().take(EVAL_ARRAY_ITEMS + marked as usize) {
                if b.remaining == 0 {
                    break;
                }
                out.push(bound(item, depth + 1, b));
                b.remaining = b.remaining.saturating_sub(1);
            }
            if out.len() < items.len() {
                b.truncated = true;
                out.push(Value::String(format!("[… {} more items]", items.len() - out.len())));
            }
            Value::Array(out)
        }
        Value::Object(fields) => {
            let marked = fields.len() == EVAL_OBJECT_FIELDS + 1 && fields.contains_key("…");
            let mut out = Map::new();
            for (k, item) in fields.iter().take(EVAL_OBJECT_FIELDS + marked as usize) {
                if b.remaining == 0 {
                    break;
                }
                let key = cut(k, 200, false);
                b.remaining = b.remaining.saturating_sub(key.chars().count() + 4);
                out.insert(key, bound(item, depth + 1, b));
            }
            if out.len() < fields.len() {
                b.truncated = true;
                out.insert("…".into(), Value::String(format!("[{} more fields]", fields.len() - out.len())));
            }
            Value::Object(out)
        }
        other => {
            b.remaining = b.remaining.saturating_sub(8);
            other.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_wide_and_long_values_are_bounded() {
        let mut deep = serde_json::json!("leaf");
        for _ in 0..20 {
            deep = serde_json::json!({ "next": deep });
        }
        let wide: Vec<u32> = (0..5000).collect();
        let big = "x".repeat(300_000);
        let raw = serde_json::json!({ "type": "object", "value": { "deep": deep, "wide": wide, "big": big } });
        let r = project(&raw.to_string()).unwrap();
        assert!(r.truncated);
        assert!(r.char_count <= EVAL_TOTAL_CHARS + 1_000, "{}", r.char_count);
        let mut d = &r.value["deep"];
        let mut levels = 0;
        while let Some(next) = d.get("next") {
            d = next;
            levels += 1;
        }
        assert!(levels < EVAL_DEPTH, "{levels}");
        assert_eq!(r.value["wide"].as_array().unwrap().len(), EVAL_ARRAY_ITEMS + 1);
        assert!(r.value["big"].as_str().unwrap().ends_with("more chars]"));
    }

    #[test]
    fn sensitive_field_values_are_scrubbed_wherever_they_appear() {
        let result = r#"{"type":"object","value":{"pw":"hunter2-x","joined":"user=bob;pw=hunter2-x","hunter2-x":1,"nick":"bobby","tok":"tok-99"}}"#;
        let fields = r#"[{"tag":"input","attrs":{"type":"password"},"value":"hunter2-x"},
            {"tag":"input","attrs":{"name":"nickname"},"label":"Nickname","value":"bobby"},
            {"tag":"input","attrs":{"name":"x"},"label":"API token","value":"tok-99"},
            {"tag":"input","value":"no-attrs-7"},{"tag":"input","attrs":{"type":"password"},"value":"ab"}]"#;
        let r = project_redacted(result, fields).unwrap();
        let wire = serde_json::to_string(&r.value).unwrap();
        assert!(!wire.contains("hunter2-x") && !wire.contains("tok-99"), "{wire}");
        assert_eq!(r.value["joined"], "user=bob;pw=[redacted]");
        assert_eq!(r.value["nick"], "bobby", "ordinary values stay");
        assert!(r.value.get("[redacted]").is_some(), "keys are scrubbed too");
        assert_eq!(project_redacted(r#"{"type":"string","value":"no-attrs-7"}"#, fields).unwrap().value, "[redacted]");
        assert!(project_redacted(result, "not json").is_err());
    }

    #[test]
    fn small_values_pass_unchanged() {
        let r = project(r#"{"type":"number","value":42}"#).unwrap();
        assert_eq!((r.value, r.truncated, r.kind.as_str()), (serde_json::json!(42), false, "number"));
        assert!(project("not json").is_err());
    }
}
