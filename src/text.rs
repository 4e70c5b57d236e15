//! Text helpers shared by every renderer: whitespace folding and capped, `…`-cut strings.
//!
//! Owns: how a string is shortened. Must never: decide what text is kept (that is `filter`).

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

/// Folds runs of whitespace (including newlines) into single spaces and trims the ends, and
/// leaves out what renders as nothing inside a word: a soft hyphen (U+00AD) and a zero-width
/// space (U+200B) (`hello\u{ad}\u{200b}world` reads `helloworld`, as a reader sees it).
pub fn fold_whitespace(s: &str) -> String {
    if is_folded(s) {
        return s.to_string();
    }
    // Runs are copied whole (not pushed char by char): this runs on every name and text.
    let mut out = String::with_capacity(s.len().min(4096));
    for w in s.split_whitespace() {
        let at = out.len();
        let sep = usize::from(at > 0);
        if sep == 1 {
            out.push(' ');
        }
        if w.contains(INVISIBLE) {
            out.extend(w.split(INVISIBLE));
        } else {
            out.push_str(w);
        }
        // (A word of invisible characters only is no word.)
        if out.len() == at + sep {
            out.truncate(at);
        }
    }
    out
}

/// Characters that render as nothing inside a word: soft hyphen, zero-width space.
const INVISIBLE: [char; 2] = ['\u{ad}', '\u{200b}'];

/// Whether `fold_whitespace` would give `s` back unchanged: no whitespace but single spaces
/// between words. A byte scan (most names and texts are folded already); a sequence that
/// may be a non-ASCII space (U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F,
/// U+205F, U+3000) counts as unfolded.
fn is_folded(s: &str) -> bool {
    let b = s.as_bytes();
    if b.first() == Some(&b' ') || b.last() == Some(&b' ') {
        return false;
    }
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut space = false;
    for (i, &c) in b.iter().enumerate() {
        let unfolded = match c {
            b' ' => space,
            b'\t' | b'\n' | 0x0B | 0x0C | b'\r' => true,
            0xC2 => matches!(at(i + 1), 0x85 | 0xA0 | 0xAD),
            0xE1 => at(i + 1) == 0x9A && at(i + 2) == 0x80,
            0xE2 => matches!((at(i + 1), at(i + 2)), (0x80, 0x80..=0x8B | 0xA8 | 0xA9 | 0xAF) | (0x81, 0x9F)),
            0xE3 => at(i + 1) == 0x80 && at(i + 2) == 0x80,
            _ => false,
        };
        if unfolded {
            return false;
        }
        space = c == b' ';
    }
    true
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

    /// The fold the byte scan short-cuts: words split on any Unicode space, one space between.
    fn folded_by_words(s: &str) -> String {
        s.split_whitespace().map(|w| w.replace(INVISIBLE, "")).filter(|w| !w.is_empty()).collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn what_renders_as_nothing_inside_a_word_is_left_out() {
        assert_eq!(fold_whitespace("hello\u{ad}\u{200b}world"), "helloworld");
        assert_eq!(fold_whitespace("Donau\u{ad}dampf\u{ad}schiff fährt"), "Donaudampfschiff fährt");
        assert_eq!(fold_whitespace("a \u{200b} b"), "a b");
        assert_eq!(fold_whitespace("\u{200b}"), "");
        // (joiners carry meaning in Persian and in emoji: kept)
        assert_eq!(fold_whitespace("می\u{200c}خواهم 👩\u{200d}💻"), "می\u{200c}خواهم 👩\u{200d}💻");
    }

    #[test]
    fn every_unicode_space_folds_and_nothing_else_does() {
        // Every Unicode space is below U+3001, and the scan looks only at the lead bytes of
        // U+0080–U+00BF and U+1000–U+3FFF: past U+4000 nothing can go another way.
        for c in (0..0x4000).filter_map(char::from_u32) {
            for s in [format!("a{c}b"), format!("{c}"), format!("a {c}"), format!("\u{2014}{c}\u{2019}")] {
                assert_eq!(fold_whitespace(&s), folded_by_words(&s), "U+{:04X} in {s:?}", c as u32);
            }
        }
    }

    #[test]
    fn a_folded_text_comes_back_as_it_is() {
        for s in ["Sign in", "l\u{2019}été — 3…", "a b c", "", "x"] {
            assert_eq!(fold_whitespace(s), s);
        }
        for s in ["a  b", " a", "a ", "a\u{a0}b", "a\u{2009}b", "a\u{3000}b", "a\tb"] {
            assert_eq!(fold_whitespace(s), folded_by_words(s));
        }
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

/// One character of a value's skeleton (what survives case changes and separators: letters
/// and digits, ASCII lower-cased; other scripts as they are), or `None` for punctuation, spaces
/// and other separators. The redaction rules compare and measure values by their skeletons.
pub fn skeleton_char(c: char) -> Option<char> {
    if c.is_ascii() {
        c.is_ascii_alphanumeric().then(|| c.to_ascii_lowercase())
    } else {
        (!c.is_whitespace()).then_some(c)
    }
}

/// The length of `s`'s skeleton (`skeleton_char`).
pub fn skeleton_len(s: &str) -> usize {
    s.chars().filter_map(skeleton_char).count()
}

/// Case folding for case-insensitive search, in every script: each char's Unicode lowercase,
/// plus the full foldings lowercase leaves apart (`ß`, `ẞ` → `ss`; final `ς` → `σ`), so that
/// `STRASSE` finds `Straße` and `οδός` finds `ΟΔΌΣ`. Accents stay (`e` does not find `é`).
pub fn case_fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        push_folded(&mut out, c);
    }
    out
}

/// `case_fold(s)` and, for each char of `s` in order, (where its folding starts in the folded
/// text, its byte offset in `s`): a match found in the folded text maps back to `s`.
pub fn case_fold_mapped(s: &str) -> (String, Vec<(usize, usize)>) {
    let mut out = String::with_capacity(s.len());
    let mut map = Vec::with_capacity(s.len());
    for (at, c) in s.char_indices() {
        map.push((out.len(), at));
        push_folded(&mut out, c);
    }
    (out, map)
}

fn push_folded(out: &mut String, c: char) {
    match c {
        'ß' | 'ẞ' => out.push_str("ss"),
        'ς' => out.push('σ'),
        c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
        c => out.extend(c.to_lowercase()),
    }
}

#[cfg(test)]
mod case_tests {
    use super::*;

    fn check(a: &str, b: &str) {
        assert_eq!(case_fold(a), case_fold(b), "{a} / {b}");
    }

    #[test]
    fn folds_case_in_every_script() {
        check("Москва", "МОСКВА");
        check("ΟΔΌΣ", "οδός");
        check("Élan", "ÉLAN");
        check("Straße", "STRASSE");
        check("ÆBLE", "æble");
        assert_ne!(case_fold("élan"), case_fold("elan"), "accents stay");
    }

    #[test]
    fn a_match_in_the_folded_text_maps_back() {
        let (folded, map) = case_fold_mapped("Große Straße");
        let at = folded.find("strasse").unwrap();
        let original = map.iter().rev().find(|(f, _)| *f <= at).map(|(_, o)| *o).unwrap();
        assert_eq!(&"Große Straße"[original..], "Straße");
    }
}
