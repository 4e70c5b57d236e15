//! Redaction: decides which fields hold sensitive values. A sensitive node may still be
//! shown by role and name; its value never leaves the core (state, refs, errors, diffs).
//!
//! Owns: the sensitivity rules (input type, name / id / autocomplete / label words).
//! Must never: be bypassed by a selector, a budget or a render mode.

use crate::tree::Node;

/// Words that mark a field as holding a secret, matched on word-ish boundaries in the
/// field's name, id, autocomplete, aria-label, placeholder and accessible name.
/// Written with `-` between parts (`api_key` and `apiKey` normalize to `api-key`).
/// A payment card is named by what of it is secret (`card number`, `security code`): "card"
/// alone names a kanban card, a gift card's message or a card holder's name as often.
const SECRET_WORDS: [&str; 52] = [
    "password", "passwd", "passcode", "pwd", "token", "secret", "credential", "otp", "totp",
    "one-time", "onetime", "2fa", "mfa", "pin", "cvc", "cvv", "csc", "ccnum",
    "card-number", "cardnumber", "card-no", "card-num", "credit-card", "debit-card", "card-security",
    "card-code", "card-verification", "security-code",
    "apikey", "api-key", "key",
    // Wallets, recovery and identity numbers.
    "passphrase", "mnemonic", "seed-phrase", "recovery-phrase", "recovery-code", "recovery-key",
    "private-key", "privatekey", "iban", "ssn", "social-security", "security-answer",
    "account-number", "routing-number",
    // The corpus's other languages (ASCII forms).
    "passwort", "kennwort", "senha", "wachtwoord", "motdepasse", "mot-de-passe", "contrasena",
];

/// Secret words in scripts the word splitter does not handle (matched as written).
const SECRET_WORDS_NON_ASCII: [&str; 10] =
    ["contraseña", "Contraseña", "密码", "密碼", "パスワード", "비밀번호", "пароль", "Пароль", "口令", "暗証番号"];

/// `autocomplete` tokens that always mean a secret.
const SECRET_AUTOCOMPLETE: [&str; 7] =
    ["current-password", "new-password", "one-time-code", "cc-number", "cc-csc", "cc-exp", "cc-exp-month"];

/// Whether the node's value must never be emitted.
pub fn is_sensitive(node: &Node) -> bool {
    is_sensitive_by(&|k| node.attr(k), &node.name)
}

/// `is_sensitive` over any attribute lookup (lowercase names) and accessible name / label.
pub fn is_sensitive_by<'a>(attr: &dyn Fn(&str) -> Option<&'a str>, name: &str) -> bool {
    if let Some(t) = attr("type") {
        if t.eq_ignore_ascii_case("password") || t.eq_ignore_ascii_case("hidden") {
            return true;
        }
    }
    if let Some(ac) = attr("autocomplete") {
        let ac = ac.to_ascii_lowercase();
        if ac.split_whitespace().any(|t| SECRET_AUTOCOMPLETE.contains(&t)) {
            return true;
        }
    }
    // A placeholder that gives examples ("e.g. Bank, Savings, Credit Card, Cash") says what
    // the field is not limited to, not what it is: it does not name the field (nor does an
    // accessible name taken from it). A bare list of examples still names a field that has
    // no other name.
    let placeholder = attr("placeholder").filter(|p| !reads_as_examples(p, name));
    let name = Some(name).filter(|n| attr("placeholder").is_none_or(|p| p.trim() != n.trim() || placeholder.is_some()));
    let fields = [attr("name"), attr("id"), attr("autocomplete"), attr("aria-label"), placeholder, attr("title"), name];
    fields.into_iter().flatten().any(has_secret_word)
}

/// Whether a placeholder gives examples rather than naming its field: it opens as examples do
/// ("e.g.", "for example", "such as", "like"), or it is a list (two or more commas) beside an
/// accessible name of the field's own (`name`, when that is not the placeholder itself).
fn reads_as_examples(placeholder: &str, name: &str) -> bool {
    let p = placeholder.trim_start().to_ascii_lowercase();
    const OPENINGS: [&str; 9] = ["e.g.", "e.g ", "eg.", "eg ", "ex.", "ex:", "for example", "such as", "like "];
    if OPENINGS.iter().any(|o| p.starts_with(o)) {
        return true;
    }
    let own_name = !name.trim().is_empty() && name.trim() != placeholder.trim();
    own_name && p.matches(',').count() >= 2
}

/// Word match on normalized text: `api_token`, `apiToken`, `API token`, `x-api-key` all match.
pub fn has_secret_word(s: &str) -> bool {
    if !s.is_ascii() && SECRET_WORDS_NON_ASCII.iter().any(|w| s.contains(w)) {
        return true;
    }
    let normalized = split_camel(s);
    let words: Vec<&str> = normalized.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let joined = crate::text::join(&mut words.iter().copied(), "-");
    let compact = crate::text::join(&mut words.iter().copied(), ""); // once, not per secret word: this runs on every node
    SECRET_WORDS.iter().any(|w| {
        // A whole word, a word's start (5+ letters), or anywhere (6+): all need `compact` to hold it.
        if w.contains('-') {
            // Parts whole at the end (`card-no` is not `card-notes`; a plural `keys` still is).
            joined.match_indices(w).any(|(at, _)| matches!(joined[at + w.len()..].chars().next(), None | Some('-' | 's')))
        } else {
            compact.contains(w) && (w.len() >= 6 || words.iter().any(|x| x == w || (w.len() >= 5 && x.starts_with(w))))
        }
    })
}

/// Whether `s` is a payment card number: 13 to 19 digits, alone or in groups split by single
/// spaces or dashes, whose Luhn checksum holds (a field holding one is sensitive whatever its
/// label).
pub fn is_card_number(s: &str) -> bool {
    let s = s.trim();
    if s.len() > 40 || !s.chars().all(|c| c.is_ascii_digit() || c == ' ' || c == '-') || s.contains("  ") || s.contains("--") {
        return false;
    }
    let digits: Vec<u32> = s.chars().filter_map(|c| c.to_digit(10)).collect();
    if !(13..=19).contains(&digits.len()) || digits.iter().all(|&d| d == digits[0]) {
        return false;
    }
    let sum: u32 = digits.iter().rev().enumerate().map(|(i, &d)| if i % 2 == 1 { if d * 2 > 9 { d * 2 - 9 } else { d * 2 } } else { d }).sum();
    sum % 10 == 0
}

/// A URL with the values of secret-named query and fragment parameters replaced
/// (`?api_key=…&q=x` → `?api_key=[redacted]&q=x`). Other parts are kept as they are.
pub fn url(u: &str) -> String {
    let Some(start) = u.find(['?', '#']) else { return u.to_string() };
    let mut out = String::with_capacity(u.len());
    out.push_str(&u[..start]);
    let mut rest = &u[start..];
    while let Some(sep) = rest.chars().next() {
        out.push(sep);
        rest = &rest[sep.len_utf8()..];
        let end = rest.find(['&', '#', '?', ';']).unwrap_or(rest.len());
        let (param, tail) = rest.split_at(end);
        match param.split_once('=') {
            Some((name, _)) if has_secret_word(name) => {
                out.push_str(name);
                out.push_str("=[redacted]");
            }
            _ => out.push_str(param),
        }
        rest = tail;
    }
    out
}

/// `apiToken` → `api token`, ASCII-lowercased (the secret words are ASCII; other scripts
/// only separate words).
fn split_camel(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(crate::budget::REDACT_NAME_CHARS) + 8);
    let mut prev_lower = false;
    for c in s.chars().take(crate::budget::REDACT_NAME_CHARS) {
        if c.is_ascii_uppercase() && prev_lower {
            out.push(' ');
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        out.push(c.to_ascii_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(attrs: &[(&str, &str)], name: &str) -> Node {
        Node {
            role: crate::role::Role::TextBox,
            name: name.into(),
            attrs: attrs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            ..Node::default()
        }
    }

    #[test]
    fn sensitive_by_type_name_id_autocomplete_label() {
        assert!(is_sensitive(&field(&[("type", "password")], "Password")));
        assert!(is_sensitive(&field(&[("type", "hidden")], "")));
        assert!(is_sensitive(&field(&[("name", "api_token")], "")));
        assert!(is_sensitive(&field(&[("id", "apiKey")], "")));
        assert!(is_sensitive(&field(&[("autocomplete", "one-time-code")], "")));
        assert!(is_sensitive(&field(&[("autocomplete", "cc-number")], "")));
        assert!(is_sensitive(&field(&[], "API token")));
        assert!(is_sensitive(&field(&[], "Card number")));
        assert!(is_sensitive(&field(&[], "CVC")));
        assert!(is_sensitive(&field(&[], "Enter PIN")));
        assert!(is_sensitive(&field(&[("name", "x-api-key")], "")));
        assert!(is_sensitive(&field(&[("name", "client_secret")], "")));
        assert!(is_sensitive(&field(&[], "Verification code (OTP)")));
        assert!(is_sensitive(&field(&[("name", "key")], "")));
        assert!(is_sensitive(&field(&[], "License key")));
    }

    #[test]
    fn wallet_recovery_identity_and_other_languages_are_secret_words() {
        for label in ["Passphrase", "Recovery phrase", "Seed phrase", "Mnemonic", "Private key", "IBAN", "SSN",
            "Social security number", "Security answer", "Account number", "Routing number", "Mot de passe",
            "Passwort", "Kennwort", "Senha", "Contraseña", "密码", "パスワード", "Пароль"] {
            assert!(is_sensitive(&field(&[], label)), "{label}");
        }
        for label in ["Recovery email", "Account name", "Security settings", "Seed catalogue", "Passage"] {
            assert!(!is_sensitive(&field(&[], label)), "{label}");
        }
    }

    #[test]
    fn secret_query_parameters_are_redacted() {
        assert_eq!(url("https://x.test/a?api_key=abc&q=1#access_token=zz"), "https://x.test/a?api_key=[redacted]&q=1#access_token=[redacted]");
        assert_eq!(url("https://x.test/a?page=2"), "https://x.test/a?page=2");
        assert_eq!(url("https://x.test/"), "https://x.test/");
        assert_eq!(url("/p?pwd=1;sid=2"), "/p?pwd=[redacted];sid=2");
    }

    #[test]
    fn a_title_alone_makes_a_field_sensitive() {
        assert!(is_sensitive(&field(&[("title", "Password")], "")));
        assert!(!is_sensitive(&field(&[("title", "Your city")], "")));
    }

    #[test]
    fn card_numbers_are_luhn_valid_13_to_19_digits() {
        for yes in ["4111 1111 1111 1111", "4111111111111111", "5500-0000-0000-0004", "4012888888881881", "378282246310005"] {
            assert!(is_card_number(yes), "{yes}");
        }
        for no in ["4111 1111 1111 1112", "1234", "0000 0000 0000 0000", "4111  1111 1111 1111", "flight 4111111111111111", "2026-12-06", "+1 555 0100 2000"] {
            assert!(!is_card_number(no), "{no}");
        }
    }

    #[test]
    fn ordinary_fields_are_not_sensitive() {
        assert!(!is_sensitive(&field(&[("type", "email"), ("name", "email")], "Account email")));
        assert!(!is_sensitive(&field(&[("name", "q")], "Search chats")));
        assert!(!is_sensitive(&field(&[("name", "prompt")], "Message")));
        assert!(!is_sensitive(&field(&[], "Spinning wheel")));
        assert!(!is_sensitive(&field(&[], "Discard changes")));
        assert!(!is_sensitive(&field(&[("name", "keyword")], "Keywords")));
    }

    #[test]
    fn a_placeholder_of_examples_does_not_name_the_field() {
        // A budget app's account form: "Name" with examples that mention a card.
        let ex = "e.g. Bank, Savings, Credit Card, Cash";
        assert!(!is_sensitive(&field(&[("placeholder", ex)], "Name")));
        assert!(!is_sensitive(&field(&[("placeholder", ex)], ex)), "a name taken from the placeholder");
        assert!(!is_sensitive(&field(&[("placeholder", "Bank, Savings, Credit Card, Cash")], "Account name")));
        assert!(!is_sensitive(&field(&[("placeholder", "such as your PIN hint")], "Hint")));
        // A placeholder that names the field still does; so does a list that is all it has.
        assert!(is_sensitive(&field(&[("placeholder", "Password")], "Password")));
        assert!(is_sensitive(&field(&[("placeholder", "Enter your API token")], "")));
        assert!(is_sensitive(&field(&[("placeholder", "Password, PIN, or passcode")], "Password, PIN, or passcode")));
    }

    #[test]
    fn card_alone_is_not_a_secret_but_what_of_a_card_is_secret_is() {
        for label in ["Card title", "Add a card", "Gift card message", "Name on card", "Cards"] {
            assert!(!is_sensitive(&field(&[], label)), "{label}");
        }
        for label in ["Card number", "Credit card", "Debit card number", "Card security code", "Security code", "CardNumber"] {
            assert!(is_sensitive(&field(&[], label)), "{label}");
        }
        assert!(is_sensitive(&field(&[("name", "card_no")], "")));
        assert!(!is_sensitive(&field(&[("name", "card_notes")], "")));
        assert!(is_sensitive(&field(&[("name", "x-api-keys")], "")));
    }
}
