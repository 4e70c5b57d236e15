//! Decoding JSON text into the wire types (serde derive over `serde_json`), and the few
//! shapes serde has no derive for: CDP's integer ids sent as text, a scalar of any JSON
//! type, and the typed error every decode failure becomes.
//!
//! Owns: the JSON syntax rules every wire type shares (unknown fields are skipped, a missing
//! field reads as its default, a wrong type is an error naming line and column), the nesting
//! limit (`crate::budget::JSON_MAX_DEPTH`, which is serde_json's own). Must never: panic on
//! any input, or put a byte of the input into an error message (`Error::json`).

use crate::error::{Error, Result};
use serde::de::{self, Deserializer, IgnoredAny, Visitor};
use serde::Deserialize;
use std::fmt;

/// `s` decoded as one `T`; anything else (trailing text too) is an `InvalidRequest` error.
pub fn decode<'a, T: Deserialize<'a>>(s: &'a str, what: &'static str) -> Result<T> {
    serde_json::from_str(s).map_err(|e| Error::json(what, &e))
}

/// A JSON scalar as CDP sends it in `AXValue.value`.
#[derive(Debug, Clone, PartialEq)]
pub enum Scalar {
    Str(String),
    Num(f64),
    Bool(bool),
}

/// A string, number or boolean; any other value (an idref list, an object, `null`) reads as
/// `None` and is skipped.
pub fn scalar<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<Scalar>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<Scalar>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("any JSON value")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> std::result::Result<Self::Value, E> {
            Ok(Some(Scalar::Str(v.to_string())))
        }
        fn visit_string<E: de::Error>(self, v: String) -> std::result::Result<Self::Value, E> {
            Ok(Some(Scalar::Str(v)))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> std::result::Result<Self::Value, E> {
            Ok(Some(Scalar::Num(v)))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<Self::Value, E> {
            Ok(Some(Scalar::Num(v as f64)))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<Self::Value, E> {
            Ok(Some(Scalar::Num(v as f64)))
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> std::result::Result<Self::Value, E> {
            Ok(Some(Scalar::Bool(v)))
        }
        fn visit_unit<E: de::Error>(self) -> std::result::Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E: de::Error>(self) -> std::result::Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Self::Value, D::Error> {
            d.deserialize_any(V)
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> std::result::Result<Self::Value, A::Error> {
            IgnoredAny.visit_seq(seq).map(|_| None)
        }
        fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> std::result::Result<Self::Value, A::Error> {
            IgnoredAny.visit_map(map).map(|_| None)
        }
    }
    d.deserialize_any(V)
}

/// `null` as the type's default (CDP and the page send `null` for an absent list or text).
pub fn nullable<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> std::result::Result<T, D::Error> {
    Option::<T>::deserialize(d).map(Option::unwrap_or_default)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Code;

    #[derive(Debug, Default, serde::Deserialize)]
    #[serde(default)]
    struct T {
        n: u8,
        s: String,
    }

    fn check(input: &str, expect: std::result::Result<(u8, &str), &str>) {
        let got = decode::<T>(input, "t").map(|t| (t.n, t.s.clone())).map_err(|e| {
            assert_eq!(e.code, Code::InvalidRequest);
            e.message
        });
        match (got, expect) {
            (Ok((n, s)), Ok((en, es))) => assert_eq!((n, s.as_str()), (en, es), "{input}"),
            (Err(m), Err(e)) => assert_eq!(m, e, "{input}"),
            (got, _) => panic!("{input}: {got:?}"),
        }
    }

    #[test]
    fn unknown_fields_are_skipped_and_missing_ones_default() {
        check(r#"{"n": 3, "x": {"deep": [1, 2]}}"#, Ok((3, "")));
    }

    #[test]
    fn a_wrong_value_is_named_by_what_was_expected_never_by_itself() {
        check(r#"{"n": "hunter2"}"#, Err("malformed t: expected u8 at line 1 column 15"));
        check(r#"{"n": 300}"#, Err("malformed t: expected u8 at line 1 column 9"));
    }

    #[test]
    fn syntax_errors_and_trailing_text_are_errors() {
        for bad in ["", "{", "[1,", r#"{"s" 1}"#, r#"{"s":"\x"}"#, "{} x", "{\"s\":tru}", &"[".repeat(1000)] {
            assert!(decode::<T>(bad, "t").is_err(), "{bad}");
        }
    }

    #[test]
    fn nesting_stops_at_the_budgets_depth() {
        // Values decoded stop at the depth; skipped ones are skipped without recursion.
        let nested = |n: usize| format!("{}0{}", "[".repeat(n), "]".repeat(n));
        let value = |n: usize| decode::<serde_json::Value>(&nested(n), "t");
        assert!(value(crate::budget::JSON_MAX_DEPTH - 1).is_ok());
        assert!(value(crate::budget::JSON_MAX_DEPTH).is_err());
        assert!(decode::<T>(&format!(r#"{{"x":{}}}"#, nested(100_000)), "t").is_ok());
    }

    #[test]
    fn scalars_of_any_type_and_nothing_else() {
        #[derive(serde::Deserialize)]
        struct S {
            #[serde(deserialize_with = "scalar")]
            v: Option<Scalar>,
        }
        let v = |json: &str| decode::<S>(json, "s").map(|s| s.v).unwrap();
        assert_eq!(v(r#"{"v":"a"}"#), Some(Scalar::Str("a".into())));
        assert_eq!(v(r#"{"v":2.5}"#), Some(Scalar::Num(2.5)));
        assert_eq!(v(r#"{"v":-3}"#), Some(Scalar::Num(-3.0)));
        assert_eq!(v(r#"{"v":true}"#), Some(Scalar::Bool(true)));
        assert_eq!(v(r#"{"v":null}"#), None);
        assert_eq!(v(r#"{"v":[{"idref":"x"}]}"#), None);
    }
}
