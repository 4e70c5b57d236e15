//! The collector's state as text and back: a host renews the wasm instance after a large
//! page (linear memory never shrinks) and hands the whole state to the new instance, so
//! refs, revisions, id counters and journals carry over exactly.
//!
//! Each saved type derives serde's `Serialize`/`Deserialize` (one declaration of its fields
//! serves both directions, so a field cannot be saved and then forgotten on the way back);
//! the text is JSON private to one build of the module. Maps go as `[key, value]` pairs in
//! key order (keys are structs, and a restored map saves the same text).
//!
//! Owns: the saved text's encoding and the map rule. Must never: panic on malformed text (a
//! bad state is an error), or drop anything the old instance held (saving a restored state
//! writes the same text).

use crate::error::{Error, Result};
use serde::{de::DeserializeOwned, Deserialize, Deserializer, Serialize, Serializer};
use std::hash::{BuildHasher, Hash};

/// `v` as text (`read` gives it back).
pub fn write<T: Serialize>(v: &T) -> String {
    // The saved types hold strings, numbers, sequences and pair lists only: serde_json
    // cannot fail on them (`tests/saved_state.rs` saves one of each).
    serde_json::to_string(v).expect("the saved state's types serialize to JSON")
}

/// The `T` `write` wrote as `text`, or an error when it is not one.
pub fn read<T: DeserializeOwned>(text: &str) -> Result<T> {
    serde_json::from_str(text).map_err(|e| Error::json("saved state", &e))
}

/// A hash map saved as `[key, value]` pairs in key order: `#[serde(with = "crate::saved::pairs")]`.
pub mod pairs {
    use super::*;

    pub fn serialize<K, V, H, S>(map: &std::collections::HashMap<K, V, H>, s: S) -> std::result::Result<S::Ok, S::Error>
    where
        K: Serialize + Ord + Eq + Hash,
        V: Serialize,
        H: BuildHasher,
        S: Serializer,
    {
        let mut keys: Vec<&K> = map.keys().collect();
        crate::order::sort(&mut keys);
        s.collect_seq(keys.into_iter().map(|k| (k, &map[k])))
    }

    pub fn deserialize<'de, K, V, H, D>(d: D) -> std::result::Result<std::collections::HashMap<K, V, H>, D::Error>
    where
        K: Deserialize<'de> + Eq + Hash,
        V: Deserialize<'de>,
        H: BuildHasher + Default,
        D: Deserializer<'de>,
    {
        Vec::<(K, V)>::deserialize(d).map(|v| v.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustc_hash::FxHashMap as HashMap;

    #[derive(Default, Debug, PartialEq, Serialize, Deserialize)]
    struct Sample {
        n: i64,
        s: String,
        o: Option<String>,
        v: Vec<(u32, bool)>,
        #[serde(with = "pairs")]
        m: HashMap<(i64, u32), String>,
    }

    fn sample() -> Sample {
        let m = (0..50).map(|i| ((i % 7, i as u32), format!("v{i}"))).collect();
        Sample { n: -12, s: "a:b;é".into(), o: Some(String::new()), v: vec![(1, true), (2, false)], m }
    }

    #[test]
    fn a_value_reads_back_equal_and_saves_the_same_text() {
        let text = write(&sample());
        let back: Sample = read(&text).unwrap();
        assert_eq!(back, sample());
        assert_eq!(write(&back), text);
    }

    #[test]
    fn a_short_long_or_foreign_text_is_an_error() {
        let text = write(&sample());
        for bad in [&text[..text.len() - 1], &format!("{text}x"), "", "{}x", r#"{"n":"x"}"#, "[1,2]"] {
            assert!(read::<Sample>(bad).is_err(), "{bad}");
        }
    }
}
