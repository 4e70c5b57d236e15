//! The `#[wasm_bindgen]` facade: the only module that knows about `JsValue`. One stateful
//! handle (`Collector`) whose methods are one-liners into the core, and one error
//! conversion point (`{code, message, hint}` thrown as a JS object).
//!
//! Must never: contain logic beyond decoding arguments and encoding results.

use crate::collector::{AxOptions, Collector as Core, SnapshotOptions};
use crate::error::Error;
use crate::refs::TabKey;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsValue::from_str(&e.to_string()))
}

fn err(e: Error) -> JsValue {
    to_js(&e).unwrap_or_else(|_| JsValue::from_str(e.code.as_str()))
}

fn decode<T: serde::de::DeserializeOwned + Default>(v: JsValue, what: &str) -> Result<T, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(T::default());
    }
    serde_wasm_bindgen::from_value(v).map_err(|e| err(Error::malformed(what, e)))
}

/// Observations are passed as JSON text: `JSON.stringify` of CDP results is native-fast and
/// one `serde_json` pass beats crossing the boundary once per field.
fn json_text(v: &JsValue) -> Result<String, JsValue> {
    v.as_string().ok_or_else(|| err(Error::malformed("observation", "expected a JSON string")))
}

#[wasm_bindgen]
pub struct Collector {
    core: Core,
}

#[wasm_bindgen]
impl Collector {
    #[wasm_bindgen(constructor)]
    pub fn new(runtime_id: &str) -> Collector {
        Collector { core: Core::new(runtime_id) }
    }

    /// `observation`: JSON text of the observation envelope; `options`: `{maxChars, maxNodes, tab}`.
    pub fn snapshot(&mut self, observation: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
        let opts: SnapshotOptions = decode(options, "snapshot options")?;
        let obs = json_text(&observation)?;
        self.core.snapshot(&obs, &opts).map_err(err).and_then(|r| to_js(&r))
    }

    /// Resolves `ref` of `snapshotId` for the tab handle `tab`; throws `BROWSER_STALE_REF`.
    pub fn resolve(&self, snapshot_id: &str, ref_label: &str, tab: JsValue) -> Result<JsValue, JsValue> {
        let tab: TabKey = decode(tab, "tab handle")?;
        self.core.resolve(snapshot_id, ref_label, &tab).map_err(err).and_then(|t| to_js(&t))
    }

    /// Rebinds a ref whose node is gone to its unique strong equivalent in `observation`.
    pub fn rebind(&self, snapshot_id: &str, ref_label: &str, tab: JsValue, observation: JsValue) -> Result<JsValue, JsValue> {
        let tab: TabKey = decode(tab, "tab handle")?;
        let obs = json_text(&observation)?;
        self.core.rebind(snapshot_id, ref_label, &tab, &obs).map_err(err).and_then(|t| to_js(&t))
    }

    /// `browser_accessibility_snapshot`: options `{maxChars, maxNodes, tab, sessionId, scope,
    /// disableDiffing, baseSnapshotId}`; result mode `full`, `diff` or `unchanged`.
    pub fn accessibility(&mut self, observation: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
        let opts: AxOptions = decode(options, "accessibility options")?;
        let obs = json_text(&observation)?;
        self.core.accessibility(&obs, &opts).map_err(err).and_then(|r| to_js(&r))
    }

    #[wasm_bindgen(js_name = disposeSession)]
    pub fn dispose_session(&mut self, session_id: &str) {
        self.core.dispose_session(session_id);
    }

    #[wasm_bindgen(js_name = clearTab)]
    pub fn clear_tab(&mut self, tab_id: f64) {
        self.core.clear_tab(tab_id as i64);
    }
}

/// Light tab descriptors from the JSON of a `chrome.tabs.query` result (`browser_tabs`).
#[wasm_bindgen(js_name = projectTabs)]
pub fn project_tabs(tabs_json: &str) -> Result<JsValue, JsValue> {
    crate::tabs::project_tabs(tabs_json).map_err(err).and_then(|t| to_js(&t))
}

/// One light tab descriptor from the JSON of a `chrome.tabs.Tab`.
#[wasm_bindgen(js_name = projectTab)]
pub fn project_tab(tab_json: &str) -> Result<JsValue, JsValue> {
    crate::tabs::project_tab(tab_json).map_err(err).and_then(|t| to_js(&t))
}

/// The model text of a screenshot result.
#[wasm_bindgen(js_name = screenshotText)]
pub fn screenshot_text(tab_id: f64) -> String {
    crate::tabs::screenshot_text(tab_id as i64)
}

/// Computed styles the extension must ask `DOMSnapshot.captureSnapshot` for, in order.
#[wasm_bindgen(js_name = computedStyles)]
pub fn computed_styles() -> Vec<String> {
    crate::layout::COMPUTED_STYLES.iter().map(|s| s.to_string()).collect()
}

/// Bytes of wasm linear memory now (it only grows, so after a read this is its peak).
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>().buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as f64
}
