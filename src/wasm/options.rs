//! Readers of the tools' option objects (`{maxChars, maxNodes, tab, …}`), on the same
//! parser as the observations. Unknown fields are ignored; a wrong type is an error. They
//! belong to the facade: the option types are the tools' own, so reading them in `input`
//! would make the wire layer depend on every tool.

use crate::input::json::{reader, Parser};
use crate::tools::collector::{AxOptions, SnapshotOptions};
use crate::error::Result;
use crate::tools::extract::ExtractOptions;
use crate::tools::journal::ReadOptions;
use crate::session::refs::TabKey;
use crate::tools::visible_dom::CuaOptions;

/// `browser_find`'s query as the extension passes it (a plain JS object, typed by serde).
#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct FindQuery {
    text: Option<String>,
    role: Option<String>,
    name: Option<String>,
    exact: bool,
    placeholder: Option<String>,
    test_id: Option<String>,
    elements: bool,
    max_results: Option<f64>,
    max_chars: Option<f64>,
}

/// The query of `Collector.find`: a wrong type is `INVALID_REQUEST`; counts below 0 read as 0.
pub fn find_query(v: wasm_bindgen::JsValue) -> Result<crate::tools::find::Query> {
    let q: FindQuery = if v.is_undefined() || v.is_null() {
        FindQuery::default()
    } else {
        serde_wasm_bindgen::from_value(v).map_err(|e| crate::error::Error::malformed("find query", &e.to_string()))?
    };
    let count = |n: Option<f64>| n.filter(|n| n.is_finite()).map(|n| n.max(0.0) as u64);
    Ok(crate::tools::find::Query { text: q.text, role: q.role, name: q.name, exact: q.exact, placeholder: q.placeholder, test_id: q.test_id, elements: q.elements, max_results: count(q.max_results), max_chars: count(q.max_chars) })
}

/// A non-negative count; negative values read as 0.
fn count(p: &mut Parser<'_>) -> Result<Option<u64>> {
    Ok(p.opt_i64()?.map(|v| v.max(0) as u64))
}

reader!(pub fn tab_key -> TabKey {
    "tabId" => tab_id: Parser::i64,
    "browserId" => browser_id: Parser::string,
    "tabFence" => tab_fence: Parser::string,
    "incarnation" => incarnation: Parser::string,
});

/// `page`: 1-based; 0 or less reads as none.
fn page(p: &mut Parser<'_>) -> Result<Option<u64>> {
    Ok(count(p)?.filter(|&n| n > 0))
}

reader!(pub fn snapshot -> SnapshotOptions {
    "maxChars" => max_chars: count,
    "maxNodes" => max_nodes: count,
    "tab" => tab: tab_key,
    "page" => page: page,
});

reader!(pub fn accessibility -> AxOptions {
    "maxChars" => max_chars: count,
    "maxNodes" => max_nodes: count,
    "tab" => tab: tab_key,
    "sessionId" => session_id: Parser::string,
    "scope" => scope: Parser::string,
    "disableDiffing" => disable_diffing: Parser::bool,
    "baseSnapshotId" => base_snapshot_id: Parser::opt_string,
    "unchangedSince" => unchanged_since: Parser::opt_string,
});

reader!(pub fn journal_read -> ReadOptions {
    "maxEntries" => max_entries: count,
    "maxChars" => max_chars: count,
    "filter" => filter: Parser::opt_string,
    "fields" => fields: Parser::opt_string,
});

reader!(pub fn cua -> CuaOptions {
    "maxChars" => max_chars: count,
    "maxNodes" => max_nodes: count,
});

reader!(pub fn extract -> ExtractOptions {
    "maxChars" => max_chars: count,
    "format" => format: Parser::opt_string,
    "offset" => offset: count,
});
