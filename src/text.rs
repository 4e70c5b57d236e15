//! Text helpers shared by every renderer: whitespace folding and capped, `…`-cut strings.
//!
//! Owns: how a string is shortened. Must never: decide what text is kept (that is `filter`).

/// Folds runs of whitespace (including newlines) into single spaces and trims the ends.
/// `items` joined by `sep`. One body for every join in the core: `[T]::join` is compiled
/// once per element type (~1.2 KB of wasm each).
pub fn join<'a>(items: &mut dyn Iterator<Item = &'a str>, sep: &str) -> String {
    let mut out = String::new();
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.push_str(sep);
        }
        out.push_str(item);
    }
    out
}

pub fn fold_whitespace(s: &str) -> String {
    // Runs are copied whole (not pushed char by char): this runs on every name and text.
    let mut out = String::with_capacity(s.len().min(4096));
    for w in s.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// A name that says the same words twice (`Sign in Sign in`: a label rendered for two
/// screen sizes, an icon's title beside its text) said once.
pub fn undouble(s: &str) -> &str {
    let words: Vec<(usize, &str)> = s.split(' ').scan(0, |pos, w| {
        let start = *pos;
        *pos += w.len() + 1;
        Some((start, w))
    }).collect();
    let n = words.len();
    if n >= 2 && n.is_multiple_of(2) && words[..n / 2].iter().zip(&words[n / 2..]).all(|(a, b)| a.1 == b.1) {
        return s[..words[n / 2].0 - 1].trim_end();
    }
    s
}

/// Whether `s` starts / ends with whitespace (a whitespace-only string: both).
pub fn edge_spaces(s: &str) -> (bool, bool) {
    let before = s.chars().next().map(char::is_whitespace).unwrap_or(false);
    let after = s.chars().next_back().map(char::is_whitespace).unwrap_or(false);
    (before, after)
}

/// Folds whitespace and caps the result at `max` characters, ending a cut string with `…`.
/// Reads at most a bounded prefix of huge inputs.
pub fn capped(s: &str, max: usize) -> String {
    // Never scan more than a few times the cap: a 100 MB text node costs O(cap).
    let limit = byte_prefix(s, max.saturating_mul(8).max(64));
    let folded = fold_whitespace(limit);
    cut(&folded, max, limit.len() < s.len())
}

/// Cuts `s` to `max` characters with `…` (the ellipsis counts toward `max`).
pub fn cut(s: &str, max: usize, force_ellipsis: bool) -> String {
    let count = char_len(s);
    if count <= max && !force_ellipsis {
        return s.to_string();
    }
    let keep = max.saturating_sub(1).min(count);
    let mut out: String = s.chars().take(keep).collect();
    let trimmed_len = out.trim_end().len();
    out.truncate(trimmed_len);
    out.push('…');
    out
}

/// Longest prefix of `s` of at most `max_bytes` bytes that ends on a char boundary.
pub fn byte_prefix(s: &str, max_bytes: usize) -> &str {
    if s.len() <= max_bytes {
        return s;
    }
    let mut end = max_bytes;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Number of characters as the budget counts them (Unicode scalar values).
pub fn char_len(s: &str) -> usize {
    // Every char starts with a byte that is not a continuation byte (`10xxxxxx`). A plain
    // loop: core's unrolled `chars().count()` is ~0.9 KB of wasm.
    s.bytes().filter(|b| b & 0xC0 != 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_and_caps() {
        assert_eq!(fold_whitespace("  a \n\t b  "), "a b");
        assert_eq!(capped("abcdef", 4), "abc…");
        assert_eq!(capped("abc", 4), "abc");
        assert_eq!(char_len(&capped(&"订".repeat(500), 200)), 200);
    }

    #[test]
    fn doubled_names_are_said_once() {
        assert_eq!(undouble("Sign in Sign in"), "Sign in");
        assert_eq!(undouble("Home Home"), "Home");
        assert_eq!(undouble("New York New Jersey"), "New York New Jersey");
        assert_eq!(undouble("Go"), "Go");
        assert_eq!(undouble(""), "");
    }

    #[test]
    fn huge_input_is_read_only_in_part() {
        let big = "x ".repeat(5_000_000);
        let out = capped(&big, 200);
        assert_eq!(char_len(&out), 200);
        assert!(out.ends_with('…'));
    }
}

/// Prints a number for the model: integers as they are, other finite values with at most
/// four decimals (trailing zeros dropped), non-finite values as `0`. Hand-written so the
/// wasm module does not carry core's float formatting (about 14 KB).
pub fn number(v: f64) -> String {
    if !v.is_finite() {
        return "0".to_string();
    }
    let scaled = (v.abs() * 10_000.0).round();
    if scaled >= 9.0e18 {
        return if v < 0.0 { "-9e18".to_string() } else { "9e18".to_string() };
    }
    let scaled = scaled as u64;
    let (int, frac) = (scaled / 10_000, scaled % 10_000);
    let mut out = String::new();
    if v < 0.0 && scaled > 0 {
        out.push('-');
    }
    out.push_str(&int.to_string());
    if frac > 0 {
        let digits = format!("{:04}", frac);
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
    out
}

#[cfg(test)]
mod number_tests {
    use super::number;

    #[test]
    fn prints_numbers_without_float_formatting() {
        assert_eq!(number(0.5), "0.5");
        assert_eq!(number(-2.25), "-2.25");
        assert_eq!(number(3.0), "3");
        assert_eq!(number(0.05), "0.05");
        assert_eq!(number(1.00004), "1");
        assert_eq!(number(-0.00001), "0");
        assert_eq!(number(f64::NAN), "0");
        assert_eq!(number(1e30), "9e18");
    }
}
