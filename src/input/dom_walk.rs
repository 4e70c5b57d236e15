//! The DOM-walk payload our content script produces when the AX domain is unavailable.
//!
//! One flat array in document order; `parent` is an index into it (-1 for the root).
//! Elements carry their tag, a whitelisted set of attributes, layout and state; text nodes
//! carry `text` (the walker bounds raw sizes, it decides nothing about meaning).

use serde::Deserialize;
use rustc_hash::FxHashMap as HashMap;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct DomWalk {
    pub url: String,
    pub title: String,
    pub nodes: Vec<WalkNode>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct WalkNode {
    pub parent: i64,
    /// Lowercase tag name, or `#text`.
    pub tag: String,
    pub text: Option<String>,
    pub attrs: HashMap<String, String>,
    /// `[x, y, width, height]` in viewport coordinates.
    pub rect: Option<Vec<f64>>,
    pub display: Option<String>,
    pub visibility: Option<String>,
    pub opacity: Option<f64>,
    pub value: Option<String>,
    pub checked: Option<bool>,
    pub selected: Option<bool>,
    pub disabled: Option<bool>,
    pub focused: Option<bool>,
    /// Label text of form controls (`control.labels`), joined.
    pub label: Option<String>,
}
