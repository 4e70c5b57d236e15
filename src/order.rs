//! The core's one sort: `(key, index)` pairs, ascending. Every ordering the core needs is
//! expressed as a `u64` key plus a tiebreaking index, so the sort is compiled once (each
//! `sort_unstable` instantiation costs ~1 KB of wasm).
//!
//! Owns: that sort. Must never: be bypassed by another `sort*` call in the core.

pub fn sort_keyed(v: &mut [(u64, usize)]) {
    v.sort_unstable();
}
