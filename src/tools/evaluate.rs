//! `browser_evaluate`: the second bound on a page-serialized result. The page-side
//! serializer (extension/read/evaluate.js) already applies these limits at the source; this
//! module re-applies them to whatever arrived, adds the total character cap and reports
//! `truncated`, so a lying or broken page cannot make the result unbounded.
//!
//! An expression can read any value of the page (`input.value`), so the result is also
//! scrubbed: the extension reports the page's form fields (read in its isolated world,
//! before and after the expression ran) and every value of a field `redact` calls sensitive
//! is replaced by `[redacted]` wherever it appears in the result, in any case, with spaces
//! or separators between its characters, split into a list, or in Base64 (the extension
//! scrubs a thrown error's message the same way).
//!
//! What this can never promise: values the extension cannot see (closed shadow roots,
//! fields of frames it cannot script, values no field holds any more) and transforms beyond
//! these (encryption, hashing, arithmetic on characters). An expression is code the caller
//! wrote; the scrub stops accidents and lazy exfiltration, not a determined author.
//!
//! Owns: the evaluate limits' enforcement, the scrub and the result shape. Must never:
//! recurse on input depth beyond `EVAL_DEPTH` (deeper input is cut, not walked), or return a
//! sensitive field's value.

use crate::budget::{EVAL_ARRAY_ITEMS, EVAL_DEPTH, EVAL_OBJECT_FIELDS, EVAL_STRING_CHARS, EVAL_TOTAL_CHARS, SCRUB_FILTER_WORDS as FILTER_WORDS, SCRUB_WINDOW_CHARS as WINDOW};
use crate::error::{Code, Error, Result};
use crate::tree::redact::is_sensitive_by;
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
    let raw: Value = crate::input::wire::decode(json, "evaluate result")?;
    let mut b = Bound { remaining: EVAL_TOTAL_CHARS, truncated: raw.get("truncated").and_then(Value::as_bool).unwrap_or(false) };
    let kind = raw.get("type").and_then(Value::as_str).map(|t| cut(t, crate::budget::EVAL_TYPE_CHARS, false)).unwrap_or_else(|| "undefined".into());
    let value = bound(raw.get("value").unwrap_or(&Value::Null), 0, &mut b);
    let char_count = serde_json::to_string(&value).map(|s| crate::text::char_len(&s)).unwrap_or(0);
    Ok(Evaluated { value, kind, char_count, truncated: b.truncated })
}


/// `project`, then every value of a sensitive field in `fields_json` (`[{tag, attrs,
/// label, value, cut?}]`, the page's form fields) is replaced by `[redacted]` in the result,
/// in the trivial forms an expression can turn it into: another case, spaces or separators
/// between its characters (`s e c r e t`, `s,e,c`, a list of one-character strings), Base64.
/// A sensitive value the extension could not read whole (`cut`) fails closed.
pub fn project_redacted(json: &str, fields_json: &str) -> Result<Evaluated> {
    let mut r = project(json)?;
    if let Some(secrets) = secrets_of(fields_json)? {
        scrub(&mut r.value, &secrets);
        r.char_count = serde_json::to_string(&r.value).map(|s| crate::text::char_len(&s)).unwrap_or(0);
    }
    Ok(r)
}

/// Scrubs `texts` (console lines the page logged) like an evaluate result.
pub fn scrub_texts<'a>(texts: impl Iterator<Item = &'a mut String>, fields_json: &str) -> Result<()> {
    if let Some(secrets) = secrets_of(fields_json)? {
        for t in texts {
            if let Some(clean) = scrubbed(t, &secrets) {
                *t = clean;
            }
        }
    }
    Ok(())
}

/// The secrets among reported fields (`None`: none); a sensitive value the extension could
/// not read whole fails closed.
fn secrets_of(fields_json: &str) -> Result<Option<Secrets>> {
    let fields: Value = if fields_json.is_empty() { Value::Null } else { crate::input::wire::decode(fields_json, "form fields")? };
    let mut secrets: Vec<Vec<char>> = Vec::new();
    for f in fields.as_array().into_iter().flatten() {
        let Some(value) = secret_of(f) else { continue };
        if f.get("cut").and_then(Value::as_bool) == Some(true) {
            return Err(Error::new(
                Code::ScriptFailed,
                "a sensitive field's value is too long to check the result against".to_string(),
                "read what you need without evaluate (browser_snapshot shows fields without their secret values)".to_string(),
            ));
        }
        // A short value (a PIN, a CVC) is found only where it stands for its field, by every
        // result's last scrub (tools/scrub.rs): here it would eat "Boeing 737" and "$737.00".
        for form in [value.to_string(), base64(value.as_bytes())] {
            let skeleton = skeleton(&form);
            if skeleton.len() >= crate::budget::SCRUB_ANYWHERE_MIN_CHARS && !secrets.contains(&skeleton) {
                secrets.push(skeleton);
            }
        }
    }
    Ok((!secrets.is_empty()).then(|| Secrets::new(secrets)))
}

/// The value of one reported field, when the field is sensitive.
pub(crate) fn secret_of(f: &Value) -> Option<&str> {
    let value = f.get("value")?.as_str()?;
    // Without its attributes a field cannot be proven safe: treat it as sensitive.
    let Some(attrs) = f.get("attrs").and_then(Value::as_object) else { return Some(value) };
    if attrs.get("type").and_then(Value::as_str).is_some_and(|t| NOT_TYPED.iter().any(|n| t.eq_ignore_ascii_case(n))) {
        return None;
    }
    let label = f.get("label").and_then(Value::as_str).unwrap_or("");
    let near = f.get("near").and_then(Value::as_str).map(last_words).unwrap_or_default();
    let named = if near.is_empty() { label.to_string() } else { format!("{label} {near}") };
    // A value that is a payment card number is sensitive whatever its label.
    (is_sensitive_by(&|k| attrs.get(k).and_then(Value::as_str), &named) || crate::tree::redact::is_card_number(value)).then_some(value)
}

/// Input types whose value is the page's own caption or constant, never something typed: a
/// button's text ("Apply Changes"), a checkbox's or radio's `value` attribute.
const NOT_TYPED: [&str; 6] = ["submit", "button", "reset", "image", "checkbox", "radio"];

/// Of the text just before an unlabelled field (`near`), what may name it: the last
/// `NEAR_LABEL_WORDS` words of its last sentence.
fn last_words(near: &str) -> String {
    let text = near.trim_end().trim_end_matches(['.', '!', '?', ':', ';']);
    // A sentence ends at `.`, `!`, `?` or `;` before a space (not in "e.g" or "api.example.com"),
    // or at a line break.
    let end = text.char_indices().zip(text.chars().skip(1)).filter(|&((_, c), next)| c == '\n' || (matches!(c, '.' | '!' | '?' | ';') && next.is_whitespace())).last();
    let sentence = end.map_or(text, |((i, c), _)| &text[i + c.len_utf8()..]);
    let words: Vec<&str> = sentence.split_whitespace().collect();
    words[words.len().saturating_sub(crate::budget::NEAR_LABEL_WORDS)..].join(" ")
}

/// What survives every trivial transform: letters and digits, ASCII lower-cased (the
/// Unicode case and class tables would cost ~17 KB of wasm; other scripts are kept as is).
pub(crate) fn skeleton(s: &str) -> Vec<char> {
    s.chars().filter_map(fold).collect()
}

/// One character of a skeleton (`text::skeleton_char`).
fn fold(c: char) -> Option<char> {
    crate::text::skeleton_char(c)
}

pub(crate) fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            out.push(if i <= chunk.len() { ABC[(n >> (18 - 6 * i) & 63) as usize] as char } else { '=' });
        }
    }
    out
}


/// The skeletons to find: short ones whole, long ones by every `WINDOW`-character piece,
/// kept as hashes (a collision only redacts more) behind a 2^20-bit filter, so that the
/// list is searched only on a likely hit (a hash set would cost the wasm ~2 KB more).
pub(crate) struct Secrets {
    whole: Vec<Vec<char>>,
    pieces: Vec<u64>,
    filter: Vec<u64>,
}

impl Secrets {
    pub(crate) fn new(all: Vec<Vec<char>>) -> Secrets {
        let (long, whole): (Vec<_>, Vec<_>) = all.into_iter().partition(|s| s.len() > 2 * WINDOW);
        let pieces: Vec<u64> = long.iter().flat_map(|s| s.windows(WINDOW).map(piece_hash)).collect();
        let mut filter = vec![0u64; if pieces.is_empty() { 0 } else { FILTER_WORDS }];
        for h in &pieces {
            filter[(*h >> 6) as usize % FILTER_WORDS] |= 1 << (h & 63);
        }
        Secrets { whole, pieces, filter }
    }

    fn has_piece(&self, w: &[char]) -> bool {
        if self.filter.is_empty() {
            return false;
        }
        let h = piece_hash(w);
        self.filter[(h >> 6) as usize % FILTER_WORDS] & 1 << (h & 63) != 0 && self.pieces.contains(&h)
    }
}

/// FNV-1a over a window's characters.
fn piece_hash(w: &[char]) -> u64 {
    w.iter().fold(0xcbf2_9ce4_8422_2325, |h, &c| (h ^ c as u64).wrapping_mul(0x100_0000_01b3))
}

pub(crate) fn scrub(v: &mut Value, secrets: &Secrets) {
    match v {
        Value::String(s) => {
            if let Some(clean) = scrubbed(s, secrets) {
                *s = clean;
            }
        }
        Value::Array(items) => {
            // A secret cut into small pieces (`[..."secret"]`, `s.split("")`): the whole list goes.
            let small = |i: &Value| i.as_str().is_some_and(|s| crate::text::char_len(s) <= 4);
            if items.len() > 1 && items.iter().all(small) && scrubbed(&items.iter().filter_map(Value::as_str).collect::<String>(), secrets).is_some() {
                *v = Value::String("[redacted]".into());
                return;
            }
            items.iter_mut().for_each(|i| scrub(i, secrets));
        }
        Value::Object(fields) => {
            for (k, mut item) in std::mem::take(fields) {
                scrub(&mut item, secrets);
                fields.insert(scrubbed(&k, secrets).unwrap_or(k), item);
            }
        }
        _ => {}
    }
}

/// `s` with every span whose skeleton is a secret's (or a piece of a long one) replaced, or
/// `None` when it holds none.
pub(crate) fn scrubbed(s: &str, secrets: &Secrets) -> Option<String> {
    // The skeleton of `s`, each char with the byte span of the character it came from.
    let sk: Vec<(char, usize, usize)> = s.char_indices().filter_map(|(at, c)| fold(c).map(|l| (l, at, at + c.len_utf8()))).collect();
    let chars: Vec<char> = sk.iter().map(|c| c.0).collect();
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < sk.len() {
        let whole = secrets.whole.iter().find(|x| chars[i..].starts_with(x)).map(Vec::len);
        let piece = (chars.len() - i >= WINDOW && secrets.has_piece(&chars[i..i + WINDOW])).then_some(WINDOW);
        match whole.or(piece) {
            Some(n) => {
                let (from, to) = (sk[i].1, sk[i + n - 1].2);
                match spans.last_mut() {
                    Some(last) if last.1 >= from => last.1 = last.1.max(to),
                    _ => spans.push((from, to)),
                }
                // A piece moves one character on: the next window may overlap and extend it.
                i += if whole.is_some() { n } else { 1 };
            }
            None => i += 1,
        }
    }
    if spans.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for (from, to) in spans {
        out.push_str(&s[last..from]);
        out.push_str("[redacted]");
        last = to;
    }
    out.push_str(&s[last..]);
    Some(out)
}

fn bound(v: &Value, depth: usize, b: &mut Bound) -> Value {
    if b.remaining == 0 {
        b.truncated = true;
        return Value::String("[budget exhausted]".into());
    }
    match v {
        Value::String(s) => {
            let max = EVAL_STRING_CHARS.min(b.remaining);
            let n = crate::text::char_len(&s);
            let out = if n > max {
                b.truncated = true;
                let kept: String = s.chars().take(max).collect();
                format!("{kept}…[{} more chars]", n - max)
            } else {
                s.clone()
            };
            b.remaining = b.remaining.saturating_sub(crate::text::char_len(&out) + 2);
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
                let key = cut(k, crate::budget::EVAL_KEY_CHARS, false);
                b.remaining = b.remaining.saturating_sub(crate::text::char_len(&key) + 4);
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
        let result = r#"{"type":"object","value":{"pw":"hunter2-x","joined":"user=bob;pw=hunter2-x","hunter2-x":1,"nick":"bobby","tok":"tok-99-abcdef"}}"#;
        let fields = r#"[{"tag":"input","attrs":{"type":"password"},"value":"hunter2-x"},
            {"tag":"input","attrs":{"name":"nickname"},"label":"Nickname","value":"bobby"},
            {"tag":"input","attrs":{"name":"x"},"label":"API token","value":"tok-99-abcdef"},
            {"tag":"input","value":"no-attrs-7"},{"tag":"input","attrs":{"type":"password"},"value":"ab"}]"#;
        let r = project_redacted(result, fields).unwrap();
        let wire = serde_json::to_string(&r.value).unwrap();
        assert!(!wire.contains("hunter2-x") && !wire.contains("tok-99"), "{wire}");
        // (A value shorter than SCRUB_ANYWHERE_MIN_CHARS is found as a whole by every result's
        // last scrub, tools/scrub.rs, so that it never eats ordinary text.)
        assert_eq!(r.value["joined"], "user=bob;pw=[redacted]");
        assert_eq!(r.value["nick"], "bobby", "ordinary values stay");
        assert!(r.value.get("[redacted]").is_some(), "keys are scrubbed too");
        assert_eq!(project_redacted(r#"{"type":"string","value":"no-attrs-7"}"#, fields).unwrap().value, "[redacted]");
        assert!(project_redacted(result, "not json").is_err());
    }

    #[test]
    fn trivial_transforms_of_a_secret_are_scrubbed() {
        let fields = r#"[{"tag":"input","attrs":{"type":"password"},"value":"Hunter2-Secret"}]"#;
        let check = |value: &str| serde_json::to_string(&project_redacted(&format!(r#"{{"type":"object","value":{value}}}"#), fields).unwrap().value).unwrap();
        for (value, expect) in [
            (r#""HUNTER2-SECRET""#, r#""[redacted]""#),
            (r#""pw: hunter2 secret!""#, r#""pw: [redacted]!""#),
            (r#""h,u,n,t,e,r,2,-,S,e,c,r,e,t""#, r#""[redacted]""#),
            (r#"["H","u","n","t","e","r","2","-","S","e","c","r","e","t"]"#, r#""[redacted]""#),
            (r#""SHVudGVyMi1TZWNyZXQ=""#, r#""[redacted]=""#),
            (r#""the hunter is here""#, r#""the hunter is here""#),
        ] {
            assert_eq!(check(value), expect, "{value}");
        }
    }

    #[test]
    fn any_slice_of_a_long_secret_is_scrubbed() {
        let key = (0..40).map(|i| format!("MIIEv{i}QIBADANBg{}", i * 7919)).collect::<String>();
        let fields = format!(r#"[{{"tag":"textarea","attrs":{{"name":"private_key"}},"value":"{key}"}}]"#);
        for slice in [&key[100..130], &key[key.len() - 200..], &key[..17]] {
            let r = project_redacted(&format!(r#"{{"type":"string","value":"tail: {slice}."}}"#), &fields).unwrap();
            assert_eq!(r.value, "tail: [redacted].", "{slice}");
        }
    }

    #[test]
    fn console_lines_are_scrubbed_like_results() {
        let fields = r#"[{"tag":"input","attrs":{"type":"password"},"value":"Hunter2-Secret"},{"tag":"input","attrs":{"name":"q"},"label":"Search","value":"shoes"}]"#;
        let mut lines = vec!["login with HUNTER2 secret".to_string(), "searching shoes".to_string()];
        scrub_texts(lines.iter_mut(), fields).unwrap();
        assert_eq!(lines, ["login with [redacted]", "searching shoes"]);
    }

    #[test]
    fn a_sensitive_value_too_long_to_read_fails_closed() {
        let fields = r#"[{"tag":"textarea","attrs":{"name":"private_key"},"value":"-----BEGIN","cut":true}]"#;
        assert_eq!(project_redacted(r#"{"type":"string","value":"x"}"#, fields).unwrap_err().code, Code::ScriptFailed);
        let ordinary = r#"[{"tag":"textarea","attrs":{"name":"essay"},"label":"Essay","value":"long","cut":true}]"#;
        assert!(project_redacted(r#"{"type":"string","value":"x"}"#, ordinary).is_ok());
    }

    #[test]
    fn base64_is_the_standard_alphabet_with_padding() {
        assert_eq!(base64(b"Man"), "TWFu");
        assert_eq!(base64(b"Ma"), "TWE=");
        assert_eq!(base64(b"M"), "TQ==");
    }

    #[test]
    fn small_values_pass_unchanged() {
        let r = project(r#"{"type":"number","value":42}"#).unwrap();
        assert_eq!((r.value, r.truncated, r.kind.as_str()), (serde_json::json!(42), false, "number"));
        assert!(project("not json").is_err());
    }
}
