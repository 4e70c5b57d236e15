//! The last scrub of every result: the extension's router passes each tool's answer (any tool,
//! reads, actions, errors) through it before it leaves, with the sensitive fields of the tab
//! (read now) and the sensitive values seen earlier in the session, so a secret's copies are
//! caught wherever the page or a request put them: a live preview of a typed password, a form
//! sent with GET (the values in the tab's URL, a request, the snapshot's header), a value
//! attribute a script set, a log line, a link target.
//!
//! Rules (a false positive eats the page's own text, so a short value is only found where it
//! stands for its field):
//! - a sensitive value of `SCRUB_ANYWHERE_MIN_CHARS` or more is replaced anywhere, in the
//!   trivial forms the evaluate scrub knows (case, separators, Base64);
//! - a shorter one (a PIN, a CVC: at least `EVAL_SECRET_MIN_CHARS`) only as a whole: a URL or
//!   form-body parameter's value (`?f1=737&`), a string that is exactly it, a state line's
//!   text after its last `: `, a quoted name; "Boeing 737" and "$737.00" stay; one of
//!   `SCRUB_TOKEN_MIN_CHARS` or more (a one-time code) also wherever it stands as a whole token
//!   ("code 482913 sent"; not inside "1482913" or "A482913B");
//! - every secret also in the forms a page or a request writes it in: HTML-escaped (`a&amp;b`,
//!   an `innerHTML`) and percent-encoded (`a%26b`, a URL);
//! - whatever the fields: a parameter named like a secret (`?reset_token=…`) and the body of a
//!   PEM block (`-----BEGIN … PRIVATE KEY-----`) are redacted in every string.
//!
//! An image attachment's bytes are never touched.
//! Owns: those rules. Must never: change a value that holds no secret, or a result's shape.

use crate::budget::{EVAL_SECRET_MIN_CHARS, SCRUB_ANYWHERE_MIN_CHARS, SCRUB_TOKEN_MIN_CHARS};
use crate::error::Result;
use crate::tools::evaluate::{base64, scrubbed, secret_of, skeleton, Secrets};
use crate::tree::redact::has_secret_word;
use serde_json::Value;

const REDACTED: &str = "[redacted]";

/// The secrets of `fields_json` (`[{tag, attrs, label, value}]`; a fact without attributes is
/// a remembered sensitive value): the long ones as skeletons, the short ones as written.
struct Found {
    long: Option<Secrets>,
    short: Vec<String>,
    /// Short secrets of `SCRUB_TOKEN_MIN_CHARS` or more, in each of their written forms.
    tokens: Vec<String>,
}

/// A value as written, HTML-escaped (in text, and in an attribute) and percent-encoded: the
/// forms that differ from it.
fn forms(value: &str) -> Vec<String> {
    let text = value.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let attr = value.replace('&', "&amp;").replace('"', "&quot;");
    let mut url = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    let mut out: Vec<String> = Vec::new();
    for f in [text, attr, url] {
        if f != value && !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// A fact's value when the field is sensitive for the last scrub: as the evaluate scrub decides
/// (`secret_of`), but a hidden input only when its name, id, label or other words say secret
/// (`csrf_token`): a hidden input is mostly the page's own data (an article's id, title or
/// URL), which would otherwise blank the same text wherever the page shows it.
fn secret(f: &Value) -> Option<&str> {
    let value = secret_of(f)?;
    if !hidden(f) {
        return Some(value);
    }
    let attrs = f.get("attrs").and_then(Value::as_object)?;
    let words = ["name", "id", "autocomplete", "aria-label", "placeholder", "title"].into_iter().filter_map(|k| attrs.get(k).and_then(Value::as_str));
    let label = f.get("label").and_then(Value::as_str);
    words.chain(label).any(has_secret_word).then_some(value)
}

fn found(fields_json: &str) -> Result<Found> {
    let fields: Value = if fields_json.trim().is_empty() { Value::Null } else { crate::input::wire::decode(fields_json, "form fields")? };
    Ok(found_in(&fields))
}

/// The last scrub's matcher, for what is not text: the screenshot's masks ask it of every text
/// the page paints (`tools/screenshot.rs`), so an image hides what a result would redact —
/// case and separators folded, pieces of long secrets, Base64, short ones where they stand
/// whole, secret-named parameters and PEM bodies — by the same code, not a copy.
pub struct Matcher(Found);

impl Matcher {
    /// Over sensitive values as remembered (no field attributes: each is a secret).
    pub fn of_values(values: &[String]) -> Matcher {
        let facts = Value::Array(values.iter().map(|v| serde_json::json!({ "value": v })).collect());
        Matcher(found_in(&facts))
    }

    /// Whether `text` shows a secret: the last scrub would change it.
    pub fn shows_secret(&self, text: &str) -> bool {
        clean(text, &self.0).is_some()
    }
}

fn found_in(fields: &Value) -> Found {
    let mut long: Vec<Vec<char>> = Vec::new();
    let mut short: Vec<String> = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    for f in fields.as_array().into_iter().flatten() {
        let Some(value) = secret(f) else { continue };
        let value = value.trim();
        let sk = skeleton(value);
        if sk.len() >= SCRUB_ANYWHERE_MIN_CHARS {
            let written = forms(value).iter().map(|w| skeleton(w)).collect::<Vec<_>>();
            for form in [sk, skeleton(&base64(value.as_bytes()))].into_iter().chain(written) {
                if !long.contains(&form) {
                    long.push(form);
                }
            }
        } else if value.chars().count() >= EVAL_SECRET_MIN_CHARS && !hidden(f) && !short.iter().any(|s| s == value) {
            // (A hidden input's short value is page data, "1" or "en", not something typed.)
            short.push(value.to_string());
            if value.chars().count() >= SCRUB_TOKEN_MIN_CHARS {
                for t in std::iter::once(value.to_string()).chain(forms(value)) {
                    if !tokens.contains(&t) {
                        tokens.push(t);
                    }
                }
            } else {
                short.extend(forms(value));
            }
        }
    }
    Found { long: (!long.is_empty()).then(|| Secrets::new(long)), short, tokens }
}

/// Whether a fact is of a hidden input.
fn hidden(f: &Value) -> bool {
    f.pointer("/attrs/type").and_then(Value::as_str).is_some_and(|t| t.eq_ignore_ascii_case("hidden"))
}

/// The sensitive values among `fields_json`, as the worker remembers them for later results
/// (a hidden input's short value is not one).
pub fn secret_values(fields_json: &str) -> Result<Vec<String>> {
    let fields: Value = if fields_json.trim().is_empty() { Value::Null } else { crate::input::wire::decode(fields_json, "form fields")? };
    let mut out: Vec<String> = Vec::new();
    for f in fields.as_array().into_iter().flatten() {
        let keep = |v: &&str| v.chars().count() >= EVAL_SECRET_MIN_CHARS && (!hidden(f) || skeleton(v).len() >= SCRUB_ANYWHERE_MIN_CHARS);
        if let Some(v) = secret(f).map(str::trim).filter(keep) {
            if !out.iter().any(|o| o == v) {
                out.push(v.to_string());
            }
        }
    }
    Ok(out)
}

/// `result_json` with every secret of `fields_json` and every secret-named parameter and PEM
/// body redacted (see the module's rules); the same JSON when none is there.
pub fn scrub_result(result_json: &str, fields_json: &str) -> Result<String> {
    let mut v: Value = crate::input::wire::decode(result_json, "result")?;
    let found = found(fields_json)?;
    walk(&mut v, &found);
    Ok(serde_json::to_string(&v).unwrap_or_else(|_| result_json.to_string()))
}

fn walk(v: &mut Value, found: &Found) {
    match v {
        Value::String(s) => {
            if let Some(clean) = clean(s, found) {
                *s = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| walk(i, found)),
        Value::Object(fields) => {
            for (k, mut item) in std::mem::take(fields) {
                // An image's bytes are the image: a screenshot's attachment is left whole.
                if k != "attachment" {
                    walk(&mut item, found);
                }
                let key = found.long.as_ref().and_then(|l| scrubbed(&k, l)).unwrap_or(k);
                fields.insert(key, item);
            }
        }
        _ => {}
    }
}

/// `s` cleaned, or None when nothing in it is a secret.
fn clean(s: &str, found: &Found) -> Option<String> {
    let mut out: Option<String> = None;
    let cur = |o: &Option<String>| o.clone().unwrap_or_else(|| s.to_string());
    if let Some(long) = &found.long {
        if let Some(c) = scrubbed(&cur(&out), long) {
            out = Some(c);
        }
    }
    if let Some(c) = params(&cur(&out), &found.short) {
        out = Some(c);
    }
    if let Some(c) = pem(&cur(&out)) {
        out = Some(c);
    }
    if !found.short.is_empty() {
        if let Some(c) = whole(&cur(&out), &found.short) {
            out = Some(c);
        }
    }
    if !found.tokens.is_empty() {
        if let Some(c) = as_tokens(&cur(&out), &found.tokens) {
            out = Some(c);
        }
    }
    if !found.short.is_empty() {
        if let Some(c) = named_short(&cur(&out), &found.short) {
            out = Some(c);
        }
    }
    out
}

/// A short secret as a whole token right after words that name a secret ("CVC 737", "your PIN
/// is 4821", "security code 737 accepted"): the page echoing it beside what it is. Only the
/// last `budget::NAMED_SHORT_WORDS` words before it on its line count; "Boeing 737", "$737.00",
/// "order 1482913" stay.
fn named_short(s: &str, short: &[String]) -> Option<String> {
    replace_where(s, short, |out, at, end| {
        let whole = !is_word(out[..at].chars().next_back()) && !is_word(out[end..].chars().next());
        // (Not part of a number: "$737.00", "1.737", "737,50".)
        let in_number = matches!(out[..at].chars().next_back(), Some('$' | '.' | ',' | '€' | '£')) || (out[end..].starts_with(['.', ',']) && is_word(out[end + 1..].chars().next()));
        let line = &out[out[..at].rfind('\n').map_or(0, |n| n + 1)..at];
        let before: Vec<&str> = line.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
        let named = !before.is_empty() && has_secret_word(&before[before.len().saturating_sub(crate::budget::NAMED_SHORT_WORDS)..].join(" "));
        whole && !in_number && named
    })
}

/// Every occurrence of a token that no letter or digit touches on either side, replaced.
fn as_tokens(s: &str, tokens: &[String]) -> Option<String> {
    replace_where(s, tokens, |out, at, end| {
        let t = &out[at..end];
        // A boundary counts only where the token itself begins or ends with a letter or digit.
        let open = !(is_word(t.chars().next()) && is_word(out[..at].chars().next_back()));
        let close = !(is_word(t.chars().next_back()) && is_word(out[end..].chars().next()));
        open && close
    })
}

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(char::is_alphanumeric)
}

/// `s` with every occurrence of each of `needles` that `redact(s_now, start, end)` accepts
/// replaced by `[redacted]` (looked at left to right, in the text as replaced so far), or None
/// when none was.
fn replace_where(s: &str, needles: &[String], redact: impl Fn(&str, usize, usize) -> bool) -> Option<String> {
    let mut out = s.to_string();
    let mut changed = false;
    for x in needles.iter().filter(|x| !x.is_empty()) {
        let mut from = 0;
        while let Some(at) = out[from..].find(x.as_str()).map(|n| from + n) {
            let end = at + x.len();
            if redact(&out, at, end) {
                out.replace_range(at..end, REDACTED);
                changed = true;
                from = at + REDACTED.len();
            } else {
                from = at + x.chars().next().map_or(1, char::len_utf8);
            }
        }
    }
    changed.then_some(out)
}

/// Percent-decoding of a parameter value (`+` as a space), for comparing it with a value.
fn decoded(v: &str) -> String {
    let b = v.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(x) => {
                        out.push(x);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b'+' => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Parameters (`?name=value`, `&name=value`, a form body's `name=value` at the start) whose
/// name is a secret word, or whose value is a short secret, get `[redacted]` for their value.
/// A value ends at `&`, `#`, `;`, a quote, `<`, `>` or white space (a URL inside HTML or text).
fn params(s: &str, short: &[String]) -> Option<String> {
    if !s.contains('=') {
        return None;
    }
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    let mut changed = false;
    let mut i = 0;
    while i < b.len() {
        // A parameter starts the string or follows one of these.
        let starts = i == 0 || matches!(b[i - 1], b'?' | b'&' | b'#' | b';');
        if !starts {
            i += 1;
            continue;
        }
        let name_end = s[i..].find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '[' | ']'))).map_or(s.len(), |n| i + n);
        if name_end == i || name_end >= b.len() || b[name_end] != b'=' {
            i += 1;
            continue;
        }
        let name = &s[i..name_end];
        let vstart = name_end + 1;
        let vend = s[vstart..].find(|c: char| matches!(c, '&' | '#' | ';' | '"' | '\'' | '<' | '>') || c.is_whitespace()).map_or(s.len(), |n| vstart + n);
        let value = &s[vstart..vend];
        // (A value the state already redacted stays as it is, with what follows it: a link's
        // `[href=…&token=[redacted]]` keeps its closing bracket.)
        let secret = !value.is_empty() && !value.starts_with(REDACTED) && (has_secret_word(name) || short.iter().any(|x| *x == decoded(value).trim()));
        if secret {
            out.push_str(&s[last..vstart]);
            out.push_str(REDACTED);
            last = vend;
            changed = true;
        }
        i = vend.max(i + 1);
    }
    changed.then(|| {
        out.push_str(&s[last..]);
        out
    })
}

/// The body of every PEM block (`-----BEGIN X-----` … `-----END X-----`, or to the end of the
/// string when it was cut) replaced.
fn pem(s: &str) -> Option<String> {
    const BEGIN: &str = "-----BEGIN ";
    if !s.contains(BEGIN) {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find(BEGIN) {
        let Some(head_end) = rest[at + BEGIN.len()..].find("-----").map(|n| at + BEGIN.len() + n + 5) else { break };
        out.push_str(&rest[..head_end]);
        let body = &rest[head_end..];
        match body.find("-----END ") {
            Some(end) => {
                out.push_str(REDACTED);
                rest = &body[end..];
                // Keep the END line and go on after it.
                let line_end = rest[9..].find("-----").map_or(rest.len(), |n| 9 + n + 5);
                out.push_str(&rest[..line_end]);
                rest = &rest[line_end..];
            }
            None => {
                out.push_str(REDACTED);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    (out != s).then_some(out)
}

/// A short secret as a whole: the string itself, a line's text after its last `: `, or a
/// quoted name (`"4821"`).
fn whole(s: &str, short: &[String]) -> Option<String> {
    if !short.iter().any(|x| s.contains(x.as_str())) {
        return None;
    }
    let is = |t: &str| short.iter().any(|x| x == t.trim());
    if is(s) {
        return Some(REDACTED.into());
    }
    let mut changed = false;
    let lines: Vec<String> = s
        .split('\n')
        .map(|line| {
            let mut l = line.to_string();
            if let Some(at) = l.rfind(": ") {
                if is(&l[at + 2..]) {
                    l = format!("{}: {REDACTED}", &l[..at]);
                    changed = true;
                }
            }
            for x in short {
                let quoted = format!("\"{x}\"");
                if l.contains(&quoted) {
                    l = l.replace(&quoted, &format!("\"{REDACTED}\""));
                    changed = true;
                }
            }
            l
        })
        .collect();
    changed.then(|| lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(result: Value, fields: Value, expect: Value) {
        let out: Value = serde_json::from_str(&scrub_result(&result.to_string(), &fields.to_string()).unwrap()).unwrap();
        assert_eq!(out, expect);
    }

    fn field(label: &str, value: &str) -> Value {
        json!({"tag": "input", "attrs": {}, "label": label, "value": value})
    }

    #[test]
    fn a_long_secret_is_redacted_anywhere_a_copy_of_it_stands() {
        check(
            json!({"state": "- paragraph: Preview: LEAK-typed-pw-31", "tab": {"url": "https://a.test/?f2=LEAK-typed-pw-31&x=1"}}),
            json!([field("Password", "LEAK-typed-pw-31")]),
            json!({"state": "- paragraph: Preview: [redacted]", "tab": {"url": "https://a.test/?f2=[redacted]&x=1"}}),
        );
    }

    #[test]
    fn a_short_secret_is_redacted_only_where_it_stands_for_its_field() {
        check(
            json!({"url": "https://a.test/pay?f1=737&f3=ordinary", "state": "- paragraph: Boeing 737 fleet, $737.00\n- textbox \"Card security code\": 737\n- text: 737", "body": "f1=737&f2=x", "name": "737"}),
            json!([field("Card security code", "737")]),
            json!({"url": "https://a.test/pay?f1=[redacted]&f3=ordinary", "state": "- paragraph: Boeing 737 fleet, $737.00\n- textbox \"Card security code\": [redacted]\n- text: [redacted]", "body": "f1=[redacted]&f2=x", "name": "[redacted]"}),
        );
    }

    #[test]
    fn a_short_secret_echoed_right_after_what_names_it_is_redacted() {
        check(
            json!({"content": "Card ending 4242. CVC 737 accepted. Your PIN is 4821.", "value": "security code: 737 ok"}),
            json!([field("Card security code", "737"), field("PIN", "4821")]),
            json!({"content": "Card ending 4242. CVC [redacted] accepted. Your PIN is [redacted].", "value": "security code: [redacted] ok"}),
        );
    }

    #[test]
    fn a_short_secret_elsewhere_is_the_pages_own_number() {
        let keep = json!({"content": "Boeing 737 fleet, $737.00, 1.737 km, order 1482913, in 2026, page 737 of 800, CVC field below\n737 seats"});
        check(keep.clone(), json!([field("Card security code", "737"), field("PIN", "2026")]), keep);
    }

    #[test]
    fn a_six_character_secret_is_redacted_wherever_it_stands_as_a_whole_token() {
        check(
            json!({"state": "- paragraph: Your code 482913 is being checked (482913)", "log": "otp=482913;sent", "keep": "order 1482913 and A482913B and 4829130"}),
            json!([field("One-time code", "482913")]),
            json!({"state": "- paragraph: Your code [redacted] is being checked ([redacted])", "log": "otp=[redacted];sent", "keep": "order 1482913 and A482913B and 4829130"}),
        );
    }

    #[test]
    fn a_secret_is_found_html_escaped_and_percent_encoded() {
        check(
            json!({"html": "<input type=\"password\" value=\"pa&amp;ss&quot;w0rd-77\">", "url": "https://a.test/?next=pa%26ss%22w0rd-77", "pin": "<b>t&lt;9&gt;4z</b>"}),
            json!([field("Password", "pa&ss\"w0rd-77"), field("PIN", "t<9>4z")]),
            json!({"html": "<input type=\"password\" value=\"[redacted]\">", "url": "https://a.test/?next=[redacted]", "pin": "<b>[redacted]</b>"}),
        );
    }

    #[test]
    fn a_value_not_of_a_sensitive_field_stays() {
        check(json!({"state": "- textbox \"City\": Lisbon-Portugal-2026"}), json!([field("City", "Lisbon-Portugal-2026")]), json!({"state": "- textbox \"City\": Lisbon-Portugal-2026"}));
    }

    #[test]
    fn a_button_caption_is_never_a_secret_whatever_names_it() {
        // Fossil's login: `<input type=button aria-label='Speak password for "anonymous"'>`;
        // its setup pages: a submit button after a paragraph about passwords.
        let speak = json!({"tag": "input", "attrs": {"type": "button", "aria-label": "Speak password for \"anonymous\""}, "label": "", "value": "Speak password for \"anonymous\""});
        let apply = json!({"tag": "input", "attrs": {"type": "submit", "name": "submit"}, "label": "", "near": "Allow users to request a password reset page.", "value": "Apply Changes"});
        let remember = json!({"tag": "input", "attrs": {"type": "checkbox", "name": "remember-password"}, "label": "Remember password", "value": "remember-me-on"});
        let state = json!({"state": "- button \"Speak password for \\\"anonymous\\\"\"\n- button \"Apply Changes\"\n- checkbox \"Remember password\" remember-me-on"});
        check(state.clone(), json!([speak, apply, remember]), state);
    }

    #[test]
    fn the_text_before_an_unlabelled_field_names_it_by_its_last_sentence_only() {
        // Fossil's report editor: the colour key's textarea follows a paragraph that says "token".
        let key = json!({"tag": "textarea", "attrs": {"name": "k"}, "label": "", "near": "Each line contains the text for a single entry in the key.  The first token of each line is the background color for that line.", "value": "#ffffff Key: #f2dcdc Active"});
        check(json!({"value": "#ffffff Key: #f2dcdc Active"}), json!([key]), json!({"value": "#ffffff Key: #f2dcdc Active"}));
        // A label's words at the end of the text before stay a label: "…below. Card PIN:".
        let pin = json!({"tag": "input", "attrs": {"name": "f7"}, "label": "", "near": "Fill in the form below. Then enter your account PIN:", "value": "55-PIN-9911"});
        check(json!({"value": "typed 55-PIN-9911"}), json!([pin]), json!({"value": "typed [redacted]"}));
    }

    #[test]
    fn a_card_number_is_a_secret_whatever_its_label() {
        check(json!({"value": "Notes: 4012 8888 8888 1881 thanks"}), json!([field("Notes", "4012 8888 8888 1881")]), json!({"value": "Notes: [redacted] thanks"}));
    }

    #[test]
    fn a_remembered_value_without_its_field_is_a_secret() {
        check(json!({"text": "changed password to LEAK-typed-pw-31"}), json!([{"value": "LEAK-typed-pw-31"}]), json!({"text": "changed password to [redacted]"}));
    }

    #[test]
    fn secret_named_parameters_are_redacted_in_any_text() {
        check(
            json!({"value": "<a href=\"/r?reset_token=abc123&amp;page=2\">Reset link</a> https://x.test/?api_key=K9&q=shoes"}),
            json!([]),
            json!({"value": "<a href=\"/r?reset_token=[redacted]&amp;page=2\">Reset link</a> https://x.test/?api_key=[redacted]&q=shoes"}),
        );
    }

    #[test]
    fn a_parameter_the_state_redacted_keeps_what_follows_it() {
        // phpLiteAdmin's download link: the state shows `[href=…&token=[redacted]]`.
        let line = json!({"state": "- link \"[↓]\" [href=?db=x&download=y&token=[redacted]] [ref=a10]"});
        check(line.clone(), json!([]), line);
    }

    #[test]
    fn a_pem_block_keeps_its_armour_and_loses_its_body() {
        check(
            json!({"value": "key: -----BEGIN PRIVATE KEY-----\nMIIEvQIBADAN\n-----END PRIVATE KEY----- done", "cut": "-----BEGIN RSA PRIVATE KEY-----\nMIIE"}),
            json!([]),
            json!({"value": "key: -----BEGIN PRIVATE KEY-----[redacted]-----END PRIVATE KEY----- done", "cut": "-----BEGIN RSA PRIVATE KEY-----[redacted]"}),
        );
    }

    #[test]
    fn an_attachment_is_left_whole_and_shapes_stay() {
        let data = "iVBORw0KGgoLEAKtypedpw31";
        check(
            json!({"attachment": {"data": data}, "n": 3, "ok": true, "list": ["a", null]}),
            json!([{"value": "LEAK-typed-pw-31"}]),
            json!({"attachment": {"data": data}, "n": 3, "ok": true, "list": ["a", null]}),
        );
    }

    #[test]
    fn a_hidden_input_is_page_data_unless_its_words_say_secret() {
        let lang = json!({"tag": "input", "attrs": {"type": "hidden", "name": "lang"}, "label": "", "value": "en"});
        check(json!({"state": "- text: en"}), json!([lang]), json!({"state": "- text: en"}));
        let title = json!({"tag": "input", "attrs": {"type": "hidden", "name": "article_title"}, "label": "", "value": "Una solución no violenta"});
        check(json!({"state": "- heading \"Una solución no violenta\""}), json!([title]), json!({"state": "- heading \"Una solución no violenta\""}));
        let token = json!({"tag": "input", "attrs": {"type": "hidden", "name": "csrf_token"}, "label": "", "value": "9f8e7d6c5b4a"});
        check(json!({"v": "x 9f8e7d6c5b4a"}), json!([token]), json!({"v": "x [redacted]"}));
    }

    #[test]
    fn the_values_worth_remembering_are_the_sensitive_ones() {
        let fields = json!([field("Password", "LEAK-1"), field("City", "Lisbon"), field("PIN", "4821"), field("Notes", "4111 1111 1111 1111")]).to_string();
        assert_eq!(secret_values(&fields).unwrap(), ["LEAK-1", "4821", "4111 1111 1111 1111"]);
    }
}
