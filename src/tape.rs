//! The collector's state as text and back: a host renews the wasm instance after a large
//! page (linear memory never shrinks) and hands the whole state to the new instance, so
//! refs, revisions, id counters and journals carry over exactly.
//!
//! One `tape` method per type serves both directions (writing, it appends each field;
//! reading, it sets each field in the same order), so a field cannot be saved and then
//! forgotten on the way back. The format is private to one build of the module: integers as
//! `-12;`, strings as `<bytes>:<text>`, sequences as a count then their items. (JSON objects
//! with typed readers cost ~35 KB of wasm here; this costs a few.)
//!
//! Owns: the tape format and the container rules. Must never: panic, or allocate more than
//! in proportion to its input, on malformed text (a bad tape is an error), or drop anything
//! the old instance held (saving a restored state writes the same text).

use crate::error::{Error, Result};
use rustc_hash::FxHashMap as HashMap;
use std::collections::VecDeque;
use std::hash::Hash;

/// A type that goes on the tape field by field.
pub trait Taped {
    fn tape(&mut self, t: &mut Tape<'_>);
}

pub struct Tape<'a> {
    out: String,
    input: &'a str,
    pos: usize,
    reading: bool,
    bad: bool,
    /// The last `repeated` integer: one equal to it is written as nothing.
    last: i64,
}

impl Tape<'_> {
    /// `v` read from `input`, or an error when `input` is not exactly one tape of `T`.
    pub fn read<T: Taped + Default>(input: &str) -> Result<T> {
        let mut t = Tape { out: String::new(), input, pos: 0, reading: true, bad: false, last: 0 };
        let mut v = T::default();
        v.tape(&mut t);
        if t.bad || t.pos != input.len() {
            return Err(Error::malformed("saved state", format!("not a state of this module (at byte {})", t.pos)));
        }
        Ok(v)
    }

    /// `v` as text (`read` gives it back).
    pub fn write<T: Taped>(v: &mut T) -> String {
        let mut t = Tape { out: String::new(), input: "", pos: 0, reading: false, bad: false, last: 0 };
        v.tape(&mut t);
        t.out
    }

    /// The digits up to `end`, read (or `None`: the tape is bad from here on).
    fn token(&mut self, end: u8) -> Option<&str> {
        let rest = self.input.get(self.pos..).filter(|_| !self.bad)?;
        let Some(n) = rest.bytes().position(|b| b == end) else {
            self.bad = true;
            return None;
        };
        self.pos += n + 1;
        Some(&rest[..n])
    }

    fn int(&mut self, v: &mut i64) {
        if !self.reading {
            self.out.push_str(&v.to_string());
            self.out.push(';');
            return;
        }
        match self.token(b';').map(str::parse::<i64>) {
            Some(Ok(n)) => *v = n,
            _ => self.bad = true,
        }
    }

    /// An integer that mostly repeats the previous one taped this way (the frame of each of a
    /// revision's keys): written as nothing when it does.
    pub fn repeated(&mut self, v: &mut i64) {
        if self.reading && self.input.as_bytes().get(self.pos) == Some(&b';') {
            self.pos += 1;
            *v = self.last;
        } else if !self.reading && *v == self.last {
            self.out.push(';');
        } else {
            self.int(v);
        }
        self.last = *v;
    }

    fn string(&mut self, v: &mut String) {
        if !self.reading {
            self.out.push_str(&(v.len() as i64).to_string());
            self.out.push(':');
            self.out.push_str(v);
            return;
        }
        let len = match self.token(b':').map(str::parse::<i64>) {
            Some(Ok(n)) if n >= 0 => n as usize,
            _ => return self.bad = true,
        };
        match self.input.get(self.pos..self.pos.saturating_add(len)) {
            Some(s) => {
                *v = s.to_string();
                self.pos += len;
            }
            None => self.bad = true,
        }
    }

    /// A sequence's length: written, or read (at most one item per remaining byte).
    fn count(&mut self, len: usize) -> usize {
        let mut n = len as i64;
        self.int(&mut n);
        let left = self.input.len() - self.pos.min(self.input.len());
        if self.reading && !(0..=left as i64).contains(&n) {
            self.bad = true;
        }
        if self.bad { 0 } else { n as usize }
    }

    /// Room to reserve for `n` items about to be read: `n`, but never more than one item per
    /// 16 bytes of tape left (a bad count cannot allocate out of proportion to the tape; a
    /// sequence of shorter items grows as it reads).
    fn room(&self, n: usize) -> usize {
        n.min(self.input.len().saturating_sub(self.pos) / 16)
    }

    /// A `&'static str` among `names` (the first when the tape says another).
    pub fn name(&mut self, v: &mut &'static str, names: &[&'static str]) {
        let mut s = v.to_string();
        self.string(&mut s);
        *v = names.iter().find(|n| **n == s).unwrap_or(&names[0]);
    }
}

impl Taped for i64 {
    fn tape(&mut self, t: &mut Tape<'_>) {
        t.int(self);
    }
}

impl Taped for String {
    fn tape(&mut self, t: &mut Tape<'_>) {
        t.string(self);
    }
}

/// Unsigned integers go on the tape as `i64` (counters and sizes never reach 2^63).
macro_rules! unsigned {
    ($($ty:ty),*) => {$(
        impl Taped for $ty {
            fn tape(&mut self, t: &mut Tape<'_>) {
                let mut n = *self as i64;
                t.int(&mut n);
                *self = n.max(0) as $ty;
            }
        }
    )*};
}
unsigned!(u64, usize, u32);

impl Taped for bool {
    fn tape(&mut self, t: &mut Tape<'_>) {
        let mut n = *self as i64;
        t.int(&mut n);
        *self = n != 0;
    }
}

impl<T: Taped + Default> Taped for Option<T> {
    fn tape(&mut self, t: &mut Tape<'_>) {
        let mut some = self.is_some();
        some.tape(t);
        if some {
            self.get_or_insert_with(T::default).tape(t);
        } else {
            *self = None;
        }
    }
}

impl<A: Taped, B: Taped> Taped for (A, B) {
    fn tape(&mut self, t: &mut Tape<'_>) {
        self.0.tape(t);
        self.1.tape(t);
    }
}

/// A sequence: its count, then its items (read ones replace what was there).
macro_rules! sequence {
    ($($seq:ident),*) => {$(
        impl<T: Taped + Default> Taped for $seq<T> {
            fn tape(&mut self, t: &mut Tape<'_>) {
                let n = t.count(self.len());
                if t.reading {
                    // (Stopping at a bad tape; reserved only in proportion to the tape left.)
                    let mut v = Vec::with_capacity(t.room(n));
                    for _ in 0..n {
                        if t.bad {
                            break;
                        }
                        let mut x = T::default();
                        x.tape(t);
                        v.push(x);
                    }
                    *self = v.into();
                } else {
                    self.iter_mut().for_each(|x| x.tape(t));
                }
            }
        }
    )*};
}
sequence!(Vec, VecDeque);

/// A map as a sequence of `(key, value)` (in its own order: a restored map may write its
/// entries in another order, never other entries).
impl<K: Taped + Default + Clone + Eq + Hash, V: Taped + Default> Taped for HashMap<K, V> {
    fn tape(&mut self, t: &mut Tape<'_>) {
        let n = t.count(self.len());
        if t.reading {
            self.clear();
            self.reserve(t.room(n));
            for _ in 0..n {
                let (mut k, mut v) = (K::default(), V::default());
                k.tape(t);
                v.tape(t);
                self.insert(k, v);
            }
        } else {
            for (k, v) in self.iter_mut() {
                k.clone().tape(t);
                v.tape(t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default, Debug, PartialEq)]
    struct Sample {
        n: i64,
        s: String,
        o: Option<String>,
        v: Vec<(u32, bool)>,
    }

    impl Taped for Sample {
        fn tape(&mut self, t: &mut Tape<'_>) {
            self.n.tape(t);
            self.s.tape(t);
            self.o.tape(t);
            self.v.tape(t);
        }
    }

    fn sample() -> Sample {
        Sample { n: -3, s: "a;b:c ü".into(), o: Some(String::new()), v: vec![(7, true), (0, false)] }
    }

    #[test]
    fn a_value_reads_back_equal() {
        let text = Tape::write(&mut sample());
        assert_eq!(text, "-3;8:a;b:c ü1;0:2;7;1;0;0;");
        assert_eq!(Tape::read::<Sample>(&text).unwrap(), sample());
    }

    #[test]
    fn a_short_long_or_foreign_tape_is_an_error() {
        let text = Tape::write(&mut sample());
        for bad in [&text[..text.len() - 1], &format!("{text}0;"), "", "x;", "-3;99:a", "-3;8:a;b:c \u{fc}1;0:99999999999;"] {
            assert!(Tape::read::<Sample>(bad).is_err(), "{bad:?}");
        }
    }

    #[derive(Default, Debug, PartialEq)]
    struct Frames(Vec<i64>);

    impl Taped for Frames {
        fn tape(&mut self, t: &mut Tape<'_>) {
            let n = t.count(self.0.len());
            self.0.resize(n, 0);
            self.0.iter_mut().for_each(|v| t.repeated(v));
        }
    }

    #[test]
    fn a_repeated_integer_is_written_as_nothing_and_read_back() {
        let mut f = Frames(vec![-9, -9, -9, 4, 4, 0]);
        let text = Tape::write(&mut f);
        assert_eq!(text, "6;-9;;;4;;0;");
        assert_eq!(Tape::read::<Frames>(&text).unwrap(), f);
    }

    #[test]
    fn a_string_length_inside_a_character_is_an_error() {
        assert!(Tape::read::<Sample>("1;1:ü0;0;").is_err());
    }
}
