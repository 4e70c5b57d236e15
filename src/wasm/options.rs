//! The tools' option objects (`{maxChars, maxNodes, tab, …}`) as the extension passes them,
//! read straight into the tools' own option types (each derives serde's `Deserialize`, so a
//! shape is declared once, where the tool uses it). Unknown fields are ignored, `undefined`
//! and `null` read as absent; a wrong type — a count below 0 or not whole included — is
//! `INVALID_REQUEST` (the router checked every call's parameters before: src/tools/params.rs).
//!
//! Owns: reading an option object. Must never: panic on any value.

use crate::error::{Error, Result};
use crate::session::refs::TabKey;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;

/// A JS value as the option type `T` (absent: `T::default()`); `what` names it in an error.
pub fn read<T: DeserializeOwned + Default>(v: JsValue, what: &str) -> Result<T> {
    if v.is_undefined() || v.is_null() {
        return Ok(T::default());
    }
    serde_wasm_bindgen::from_value(v).map_err(|e| Error::malformed(what, e))
}

/// A tab handle (`{tabId, browserId, tabFence, incarnation}`; other fields ignored).
pub fn tab_key(v: JsValue) -> Result<TabKey> {
    read(v, "tab handle")
}
