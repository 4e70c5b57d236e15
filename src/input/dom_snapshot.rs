//! CDP `DOMSnapshot.captureSnapshot` result: columnar per-document node and layout tables
//! whose strings are indices into one shared `strings` table (-1 = absent). Only the
//! columns the core reads are declared; the rest are skipped by the decoder.

use serde::Deserialize;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct DomSnapshot {
    pub documents: Vec<DocumentSnapshot>,
    pub strings: Vec<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DocumentSnapshot {
    pub nodes: NodeSnapshot,
    pub layout: LayoutSnapshot,
    pub scroll_offset_x: f64,
    pub scroll_offset_y: f64,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSnapshot {
    pub parent_index: Vec<i64>,
    pub node_type: Vec<i64>,
    pub node_name: Vec<i64>,
    pub backend_node_id: Vec<i64>,
    pub attributes: Vec<Vec<i64>>,
    pub is_clickable: RareBool,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LayoutSnapshot {
    pub node_index: Vec<i64>,
    /// One row per layout object: indices of the computed styles asked for, in order.
    pub styles: Vec<Vec<i64>>,
    /// `[x, y, width, height]` in document coordinates.
    pub bounds: Vec<Vec<f64>>,
    pub paint_orders: Vec<i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct RareBool {
    pub index: Vec<i64>,
}

impl DomSnapshot {
    /// The string at a table index; `None` for -1 or out of range.
    pub fn string(&self, index: i64) -> Option<&str> {
        usize::try_from(index).ok().and_then(|i| self.strings.get(i)).map(String::as_str)
    }
}
