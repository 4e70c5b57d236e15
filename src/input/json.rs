//! A small pull parser for JSON text, and the typed readers built on it.
//!
//! Why not serde derive: a derived decoder is instantiated per type and per field and cost
//! about 90 KB of the wasm module; these readers are plain functions over one parser, and
//! they decode straight into our types without an intermediate value tree (no second copy
//! of a 50 MB observation).
//!
//! Owns: JSON syntax, string escapes, the nesting limit, and the lenient rules shared by
//! every wire type: `null` reads as the default, unknown fields are skipped, a wrong type
//! is an error naming the byte offset. Must never: panic or recurse past `crate::budget::JSON_MAX_DEPTH`.

use crate::error::{Error, Result};
use std::borrow::Cow;

/// One JSON object read into a type from its table of keys: `reader!(pub fn name -> Type {
/// "jsonKey" => field: read, … })`, where `read` is any `fn(&mut Parser) -> Result<T>` (a
/// parser method such as `Parser::opt_string`, or another reader). The value starts as
/// `Type::default()`; unknown keys are skipped, a wrong type is an error (the parser's
/// rules). Every reader of the same shape is this one table, not a hand-written loop.
macro_rules! reader {
    ($(#[$m:meta])* $vis:vis fn $name:ident -> $ty:ty { $($key:literal => $($field:ident).+ : $read:expr),* $(,)? }) => {
        $(#[$m])*
        $vis fn $name(p: &mut $crate::input::json::Parser<'_>) -> $crate::error::Result<$ty> {
            let mut o = <$ty>::default();
            p.object(|p, k| {
                match k {
                    $($key => o.$($field).+ = ($read)(p)?,)*
                    _ => p.skip()?,
                }
                Ok(())
            })?;
            Ok(o)
        }
    };
}
pub(crate) use reader;


pub struct Parser<'a> {
    s: &'a str,
    pos: usize,
    depth: usize,
    what: &'static str,
}

/// A JSON scalar as CDP sends it in `AXValue.value`.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    Str(String),
    Num(f64),
    Bool(bool),
}

impl<'a> Parser<'a> {
    pub fn new(s: &'a str, what: &'static str) -> Parser<'a> {
        Parser { s, pos: 0, depth: 0, what }
    }

    fn bytes(&self) -> &'a [u8] {
        self.s.as_bytes()
    }

    pub fn fail(&self, msg: &str) -> Error {
        Error::malformed(self.what, format!("{msg} at byte {}", self.pos))
    }

    fn peek(&mut self) -> Option<u8> {
        while let Some(&c) = self.bytes().get(self.pos) {
            if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                self.pos += 1;
            } else {
                return Some(c);
            }
        }
        None
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn literal(&mut self, word: &str) -> bool {
        if self.s[self.pos..].starts_with(word) {
            self.pos += word.len();
            true
        } else {
            false
        }
    }

    /// `null` (consumed) → true.
    pub fn null(&mut self) -> bool {
        self.peek() == Some(b'n') && self.literal("null")
    }

    /// The whole input is one value followed only by whitespace.
    pub fn finish(&mut self) -> Result<()> {
        if self.peek().is_some() {
            return Err(self.fail("trailing characters"));
        }
        Ok(())
    }

    fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > crate::budget::JSON_MAX_DEPTH {
            return Err(self.fail("nesting too deep"));
        }
        Ok(())
    }

    /// Reads an object, calling `f` with each key; `f` must read (or `skip`) the value.
    pub fn object(&mut self, mut f: impl FnMut(&mut Parser<'a>, &str) -> Result<()>) -> Result<()> {
        self.object_dyn(&mut f)
    }

    /// The body of `object`, instantiated once: a generic body per reader closure cost
    /// ~1 KB of wasm each (27 of them), a `dyn` call per key costs nothing measurable.
    fn object_dyn(&mut self, f: &mut dyn FnMut(&mut Parser<'a>, &str) -> Result<()>) -> Result<()> {
        if self.null() {
            return Ok(());
        }
        if !self.eat(b'{') {
            return Err(self.fail("expected an object"));
        }
        self.enter()?;
        if !self.eat(b'}') {
            loop {
                if self.peek() != Some(b'"') {
                    return Err(self.fail("expected a key"));
                }
                let key = self.raw_string()?;
                if !self.eat(b':') {
                    return Err(self.fail("expected ':'"));
                }
                f(self, &key)?;
                if self.eat(b',') {
                    continue;
                }
                if self.eat(b'}') {
                    break;
                }
                return Err(self.fail("expected ',' or '}'"));
            }
        }
        self.depth -= 1;
        Ok(())
    }

    /// Reads an array, calling `f` once per element; `f` must read the element.
    pub fn array(&mut self, mut f: impl FnMut(&mut Parser<'a>) -> Result<()>) -> Result<()> {
        self.array_dyn(&mut f)
    }

    /// The body of `array`, instantiated once (see `object_dyn`).
    fn array_dyn(&mut self, f: &mut dyn FnMut(&mut Parser<'a>) -> Result<()>) -> Result<()> {
        if self.null() {
            return Ok(());
        }
        if !self.eat(b'[') {
            return Err(self.fail("expected an array"));
        }
        self.enter()?;
        if !self.eat(b']') {
            loop {
                f(self)?;
                if self.eat(b',') {
                    continue;
                }
                if self.eat(b']') {
                    break;
                }
                return Err(self.fail("expected ',' or ']'"));
            }
        }
        self.depth -= 1;
        Ok(())
    }

    pub fn vec<T>(&mut self, mut item: impl FnMut(&mut Parser<'a>) -> Result<T>) -> Result<Vec<T>> {
        let mut out = Vec::new();
        self.array(|p| {
            out.push(item(p)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// `vec` for the large arrays: the items are counted first (a scan of the bytes, no
    /// decoding) and the vector is allocated once. Grown by doubling, a vector's old and new
    /// buffers are alive together: a third of a 50k-node page's peak.
    /// `least`: the fewest bytes an item and its comma can take (see `items_ahead`).
    pub fn vec_sized<T>(&mut self, least: usize, mut item: impl FnMut(&mut Parser<'a>) -> Result<T>) -> Result<Vec<T>> {
        let mut out = Vec::with_capacity(self.items_ahead(least).0);
        self.array(|p| {
            out.push(item(p)?);
            Ok(())
        })?;
        Ok(out)
    }

    /// How many items the array ahead holds, and how many the arrays among them hold (0 if
    /// it is not an array), each bounded by its bytes (no item takes fewer than `least`) so
    /// that hostile text cannot reserve more than a decoder of valid items would.
    pub fn items_ahead(&mut self, least: usize) -> (usize, usize) {
        let b = self.bytes();
        let start = match self.peek() {
            Some(b'[') => self.pos + 1,
            _ => return (0, 0),
        };
        // Items are counted where a value starts: after `[` or `,` (depth 0 and 1).
        let (mut depth, mut counts, mut i, mut open) = (0usize, [0usize; 2], start, true);
        while let Some(&c) = b.get(i) {
            if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                i += 1;
                continue;
            }
            if open && c != b']' && c != b'}' && depth < 2 {
                counts[depth] += 1;
            }
            open = false;
            match c {
                b'"' => {
                    // To the closing quote (an escaped one does not close it).
                    i += 1;
                    while let Some(&c) = b.get(i) {
                        match c {
                            b'\\' => i += 1,
                            b'"' => break,
                            _ => {}
                        }
                        i += 1;
                    }
                }
                b'[' => {
                    depth += 1;
                    open = true;
                }
                b'{' => depth += 1,
                b']' | b'}' if depth == 0 => break,
                b']' | b'}' => depth -= 1,
                b',' => open = true,
                _ => {}
            }
            i += 1;
        }
        let most = (i - start) / least.max(1) + 1;
        (counts[0].min(most), counts[1].min(most))
    }

    fn raw_string(&mut self) -> Result<Cow<'a, str>> {
        if !self.eat(b'"') {
            return Err(self.fail("expected a string"));
        }
        let start = self.pos;
        let b = self.bytes();
        // Fast path: no escapes, borrowed.
        while let Some(&c) = b.get(self.pos) {
            match c {
                b'"' => {
                    self.pos += 1;
                    return Ok(Cow::Borrowed(&self.s[start..self.pos - 1]));
                }
                b'\\' => break,
                0..=0x1f => return Err(self.fail("control character in string")),
                _ => self.pos += 1,
            }
        }
        let mut out = String::from(&self.s[start..self.pos]);
        loop {
            let Some(&c) = b.get(self.pos) else { return Err(self.fail("unterminated string")) };
            match c {
                b'"' => {
                    self.pos += 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => {
                    let e = *b.get(self.pos + 1).ok_or_else(|| self.fail("unterminated escape"))?;
                    self.pos += 2;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) && self.s[self.pos..].starts_with("\\u") {
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if (0xDC00..0xE000).contains(&lo) { 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00) } else { 0xFFFD }
                            } else {
                                hi
                            };
                            out.push(char::from_u32(code).unwrap_or('\u{FFFD}'));
                        }
                        _ => return Err(self.fail("bad escape")),
                    }
                }
                0..=0x1f => return Err(self.fail("control character in string")),
                _ => {
                    // Copy the run up to the next quote or escape (UTF-8 stays whole: both are ASCII).
                    let run = b[self.pos..].iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20).unwrap_or(b.len() - self.pos);
                    out.push_str(&self.s[self.pos..self.pos + run]);
                    self.pos += run;
                }
            }
        }
    }

    fn hex4(&mut self) -> Result<u32> {
        let h = self.s.get(self.pos..self.pos + 4).ok_or_else(|| self.fail("short \\u escape"))?;
        let v = u32::from_str_radix(h, 16).map_err(|_| self.fail("bad \\u escape"))?;
        self.pos += 4;
        Ok(v)
    }

    /// A string; `null` reads as "".
    pub fn string(&mut self) -> Result<String> {
        if self.null() {
            return Ok(String::new());
        }
        self.raw_string().map(Cow::into_owned)
    }

    pub fn opt_string(&mut self) -> Result<Option<String>> {
        if self.null() {
            return Ok(None);
        }
        self.raw_string().map(|s| Some(s.into_owned()))
    }

    /// A string borrowed from the text when it holds no escape.
    pub fn str(&mut self) -> Result<Cow<'a, str>> {
        self.raw_string()
    }

    fn number_text(&mut self) -> Result<&'a str> {
        // The characters a number may use; `number()` then checks the JSON grammar.
        self.peek();
        let start = self.pos;
        let b = self.bytes();
        while let Some(&c) = b.get(self.pos) {
            if c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E') {
                self.pos += 1;
            } else {
                break;
            }
        }
        if start == self.pos {
            return Err(self.fail("expected a number"));
        }
        Ok(&self.s[start..self.pos])
    }

    /// A number; `null` reads as 0.
    pub fn f64(&mut self) -> Result<f64> {
        if self.null() {
            return Ok(0.0);
        }
        let t = self.number_text()?;
        number(t).ok_or_else(|| self.fail("bad number"))
    }

    /// An integer (an integral float is accepted); `null` reads as 0.
    pub fn i64(&mut self) -> Result<i64> {
        if self.null() {
            return Ok(0);
        }
        let t = self.number_text()?;
        // JSON's grammar first (`007`, `+5`, `1-2` are not numbers), then exactly when integral.
        let f = number(t);
        if let (Some(_), Ok(v)) = (f, t.parse::<i64>()) {
            return Ok(v);
        }
        match f {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Ok(f as i64),
            _ => Err(self.fail("expected an integer")),
        }
    }

    pub fn opt_i64(&mut self) -> Result<Option<i64>> {
        if self.null() {
            return Ok(None);
        }
        self.i64().map(Some)
    }

    pub fn opt_f64(&mut self) -> Result<Option<f64>> {
        if self.null() {
            return Ok(None);
        }
        self.f64().map(Some)
    }

    pub fn bool(&mut self) -> Result<bool> {
        if self.null() {
            return Ok(false);
        }
        if self.peek() == Some(b't') && self.literal("true") {
            return Ok(true);
        }
        if self.peek() == Some(b'f') && self.literal("false") {
            return Ok(false);
        }
        Err(self.fail("expected a boolean"))
    }

    pub fn opt_bool(&mut self) -> Result<Option<bool>> {
        if self.null() {
            return Ok(None);
        }
        self.bool().map(Some)
    }

    /// A string, number or boolean; anything else (skipped) is `None`.
    pub fn scalar(&mut self) -> Result<Option<Scalar>> {
        Ok(match self.peek() {
            Some(b'"') => Some(Scalar::Str(self.string()?)),
            Some(b't' | b'f') => Some(Scalar::Bool(self.bool()?)),
            Some(b'-' | b'0'..=b'9') => Some(Scalar::Num(self.f64()?)),
            _ => {
                self.skip()?;
                None
            }
        })
    }

    /// Skips one value of any type.
    pub fn skip(&mut self) -> Result<()> {
        match self.peek() {
            Some(b'{') => self.object(|p, _| p.skip()),
            Some(b'[') => self.array(|p| p.skip()),
            Some(b'"') => self.raw_string().map(drop),
            Some(b't' | b'f') => self.bool().map(drop),
            Some(b'n') if self.null() => Ok(()),
            Some(_) => {
                let t = self.number_text()?;
                number(t).map(drop).ok_or_else(|| self.fail("bad number"))
            }
            None => Err(self.fail("unexpected end")),
        }
    }

    /// Any value, as a `serde_json::Value` (for results that are kept as JSON).
    pub fn value(&mut self) -> Result<serde_json::Value> {
        use serde_json::Value;
        Ok(match self.peek() {
            Some(b'{') => {
                let mut m = serde_json::Map::new();
                self.object(|p, k| {
                    let v = p.value()?;
                    m.insert(k.to_string(), v);
                    Ok(())
                })?;
                Value::Object(m)
            }
            Some(b'[') => Value::Array(self.vec(|p| p.value())?),
            Some(b'"') => Value::String(self.string()?),
            Some(b't' | b'f') => Value::Bool(self.bool()?),
            Some(b'n') if self.null() => Value::Null,
            Some(_) => {
                let t = self.number_text()?;
                match t.parse::<i64>() {
                    Ok(i) => Value::from(i),
                    Err(_) => number(t).and_then(serde_json::Number::from_f64).map(Value::Number).ok_or_else(|| self.fail("bad number"))?,
                }
            }
            None => return Err(self.fail("unexpected end")),
        })
    }
}

/// Decodes one whole JSON text with `read`.
pub fn parse<'a, T>(s: &'a str, what: &'static str, read: impl FnOnce(&mut Parser<'a>) -> Result<T>) -> Result<T> {
    let mut p = Parser::new(s, what);
    if p.peek().is_none() {
        return Err(p.fail("empty input"));
    }
    let v = read(&mut p)?;
    p.finish()?;
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_objects_arrays_and_escapes() {
        let mut got = Vec::new();
        parse(r#" {"a": "x\"\u00e9\ud83d\ude00", "b": [1, 2.5, -3e2], "c": null, "d": {"e": [true]}} "#, "t", |p| {
            p.object(|p, k| {
                match k {
                    "a" => got.push(p.string()?),
                    "b" => got.push(format!("{:?}", p.vec(|p| p.f64())?)),
                    _ => p.skip()?,
                }
                Ok(())
            })
        })
        .unwrap();
        assert_eq!(got, vec!["x\"é😀".to_string(), "[1.0, 2.5, -300.0]".to_string()]);
    }

    #[test]
    fn errors_are_typed_never_panics() {
        for bad in ["", "{", "[1,", r#"{"a" 1}"#, r#""\x""#, r#""\u12"#, "[1] x", "{\"a\":tru}", &"[".repeat(1000)] {
            let r = parse(bad, "t", |p| p.skip());
            assert!(r.is_err(), "{bad}");
        }
        assert!(parse("\"a\"", "t", |p| p.i64()).is_err());
        assert_eq!(parse("4.0", "t", |p| p.i64()).unwrap(), 4);
    }

    #[test]
    fn items_ahead_counts_items_and_the_items_of_inner_arrays() {
        let check = |text: &str, least: usize, expect: (usize, usize)| {
            assert_eq!(Parser::new(text, "t").items_ahead(least), expect, "{text}");
        };
        check("[]", 1, (0, 0));
        check(" [ 1, 2 ,3 ]", 1, (3, 0));
        check("[[1,2],[],[3]]", 1, (3, 3));
        check(r#"[{"a":[1,2]},"x,]\"[",{}]"#, 1, (3, 0)); // an object's array is not counted
        check("{}", 1, (0, 0));
        // Bounded by the bytes: ten commas cannot reserve ten items of 16 bytes.
        check("[,,,,,,,,,]", 16, (1, 0));
        // Unterminated text counts what it holds, and nothing panics.
        check(r#"[1,2,"ab"#, 1, (3, 0));
    }

    #[test]
    fn integers_and_skipped_values_keep_the_number_grammar() {
        for bad in ["007", "+5", "1-2", "-"] {
            assert!(parse(bad, "t", |p| p.i64()).is_err(), "i64 {bad}");
            assert!(parse(&format!("[{bad}]"), "t", |p| p.skip()).is_err(), "skip {bad}");
        }
        assert_eq!(parse("-12", "t", |p| p.i64()).unwrap(), -12);
        assert!(parse("[0, -1.5e3, 7]", "t", |p| p.skip()).is_ok());
    }
}

/// A JSON number (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`; `007`, `1-2`, `.5` are not),
/// computed by hand: `str::parse::<f64>` brings ~10 KB of correctly-rounded decimal
/// conversion into the wasm module, and CDP numbers (coordinates, sizes, opacities) need no
/// last-bit rounding. Integers have their own exact path (`i64`).
pub fn number(t: &str) -> Option<f64> {
    let b = t.as_bytes();
    let mut i = 0;
    let neg = b.first() == Some(&b'-');
    if neg {
        i += 1;
    }
    let digits = |i: &mut usize| {
        let start = *i;
        while b.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i - start
    };
    let int_start = i;
    let int_len = digits(&mut i);
    if int_len == 0 || (int_len > 1 && b[int_start] == b'0') {
        return None;
    }
    let mut mantissa = 0f64;
    let mut scale = 0i32;
    for &c in &b[int_start..i] {
        mantissa = mantissa * 10.0 + f64::from(c - b'0');
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        let frac_start = i;
        if digits(&mut i) == 0 {
            return None;
        }
        for &c in &b[frac_start..i] {
            if mantissa < 1e17 {
                mantissa = mantissa * 10.0 + f64::from(c - b'0');
                scale -= 1;
            }
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        let exp_neg = b.get(i) == Some(&b'-');
        if matches!(b.get(i), Some(b'-' | b'+')) {
            i += 1;
        }
        let exp_start = i;
        if digits(&mut i) == 0 {
            return None;
        }
        let exp: i32 = t[exp_start..i].bytes().take(6).fold(0, |e, c| e * 10 + i32::from(c - b'0'));
        scale = scale.saturating_add(if exp_neg { -exp } else { exp });
    }
    if i != b.len() {
        return None;
    }
    let v = if scale < 0 { mantissa / 10f64.powi(-scale) } else { mantissa * 10f64.powi(scale) };
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod number_tests {
    use super::number;

    #[test]
    fn json_numbers_and_only_those() {
        for (t, v) in [("0", 0.0), ("-12", -12.0), ("1.5", 1.5), ("0.25", 0.25), ("1e3", 1000.0), ("2.5E-2", 0.025), ("-0.0", 0.0), ("123456.789", 123456.789)] {
            assert!((number(t).unwrap() - v).abs() <= v.abs() * 1e-15, "{t}");
        }
        for t in ["007", "1-2", ".5", "1.", "-", "1e", "+1", "1.2.3", "", "0x10"] {
            assert_eq!(number(t), None, "{t}");
        }
    }
}
