//! The tools' option objects (`{maxChars, maxNodes, tab, …}`) as the extension passes them:
//! plain JS objects deserialized by serde (`serde-wasm-bindgen`) into the wire shapes here,
//! then turned into the tools' own option types. Unknown fields are ignored, `undefined` and
//! `null` read as absent; a wrong type is `INVALID_REQUEST`. They belong to the facade: the
//! option types are the tools' own, so reading them in `input` would make the wire layer
//! depend on every tool.
//!
//! Owns: the option objects' wire shapes and their conversion. Must never: panic on any
//! value, or give a count below 0.

use crate::error::{Error, Result};
use crate::session::refs::TabKey;
use crate::tools::collector::{AxOptions, SnapshotOptions};
use crate::tools::extract::ExtractOptions;
use crate::tools::find::Query;
use crate::tools::journal::ReadOptions;
use crate::tools::visible_dom::CuaOptions;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use wasm_bindgen::JsValue;

/// A JS value into the wire shape `T` (absent: `T::default()`).
pub fn read<T: DeserializeOwned + Default>(v: JsValue, what: &str) -> Result<T> {
    if v.is_undefined() || v.is_null() {
        return Ok(T::default());
    }
    serde_wasm_bindgen::from_value(v).map_err(|e| Error::malformed(what, e))
}

/// A count: not finite reads as absent, below 0 as 0.
fn count(n: Option<f64>) -> Option<u64> {
    n.filter(|n| n.is_finite()).map(|n| n.max(0.0) as u64)
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct Tab {
    tab_id: Option<f64>,
    browser_id: Option<String>,
    tab_fence: Option<String>,
    incarnation: Option<String>,
}

impl From<Tab> for TabKey {
    fn from(t: Tab) -> TabKey {
        let tab_id = t.tab_id.filter(|n| n.is_finite()).map_or(0, |n| n as i64);
        TabKey { tab_id, browser_id: t.browser_id.unwrap_or_default(), tab_fence: t.tab_fence.unwrap_or_default(), incarnation: t.incarnation.unwrap_or_default() }
    }
}

pub fn tab_key(v: JsValue) -> Result<TabKey> {
    read::<Tab>(v, "tab handle").map(TabKey::from)
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct Snapshot {
    max_chars: Option<f64>,
    max_nodes: Option<f64>,
    tab: Option<Tab>,
    /// 1-based; 0 or less reads as none.
    page: Option<f64>,
}

pub fn snapshot(v: JsValue) -> Result<SnapshotOptions> {
    let o: Snapshot = read(v, "snapshot options")?;
    Ok(SnapshotOptions { max_chars: count(o.max_chars), max_nodes: count(o.max_nodes), tab: o.tab.map(TabKey::from).unwrap_or_default(), page: count(o.page).filter(|&n| n > 0) })
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct Accessibility {
    max_chars: Option<f64>,
    max_nodes: Option<f64>,
    tab: Option<Tab>,
    session_id: Option<String>,
    scope: Option<String>,
    disable_diffing: Option<bool>,
    base_snapshot_id: Option<String>,
    unchanged_since: Option<String>,
}

pub fn accessibility(v: JsValue) -> Result<AxOptions> {
    let o: Accessibility = read(v, "accessibility options")?;
    Ok(AxOptions {
        max_chars: count(o.max_chars),
        max_nodes: count(o.max_nodes),
        tab: o.tab.map(TabKey::from).unwrap_or_default(),
        session_id: o.session_id.unwrap_or_default(),
        scope: o.scope.unwrap_or_default(),
        disable_diffing: o.disable_diffing.unwrap_or(false),
        base_snapshot_id: o.base_snapshot_id,
        unchanged_since: o.unchanged_since,
    })
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct Journal {
    max_entries: Option<f64>,
    max_chars: Option<f64>,
    filter: Option<String>,
    fields: Option<String>,
}

pub fn journal_read(v: JsValue, what: &str) -> Result<ReadOptions> {
    let o: Journal = read(v, what)?;
    Ok(ReadOptions { max_entries: count(o.max_entries), max_chars: count(o.max_chars), filter: o.filter, fields: o.fields })
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct Cua {
    max_chars: Option<f64>,
    max_nodes: Option<f64>,
}

pub fn cua(v: JsValue) -> Result<CuaOptions> {
    let o: Cua = read(v, "dom_cua options")?;
    Ok(CuaOptions { max_chars: count(o.max_chars), max_nodes: count(o.max_nodes) })
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct Extract {
    max_chars: Option<f64>,
    format: Option<String>,
    offset: Option<f64>,
}

pub fn extract(v: JsValue) -> Result<ExtractOptions> {
    let o: Extract = read(v, "extract options")?;
    Ok(ExtractOptions { max_chars: count(o.max_chars), format: o.format, offset: count(o.offset) })
}

/// `browser_find`'s query as the extension passes it.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct FindQuery {
    text: Option<String>,
    role: Option<String>,
    name: Option<String>,
    exact: Option<bool>,
    placeholder: Option<String>,
    test_id: Option<String>,
    elements: Option<bool>,
    max_results: Option<f64>,
    max_chars: Option<f64>,
}

pub fn find_query(v: JsValue) -> Result<Query> {
    let q: FindQuery = read(v, "find query")?;
    Ok(Query {
        text: q.text,
        role: q.role,
        name: q.name,
        exact: q.exact.unwrap_or(false),
        placeholder: q.placeholder,
        test_id: q.test_id,
        elements: q.elements.unwrap_or(false),
        max_results: count(q.max_results),
        max_chars: count(q.max_chars),
    })
}
