//! CDP `DOMSnapshot.captureSnapshot` result: columnar per-document node and layout tables
//! whose strings are indices into one shared `strings` table (-1 = absent). Only the
//! columns the core reads are declared; the rest are skipped by the decoder.


#[derive(Debug, Clone, Default)]
pub struct DomSnapshot {
    pub documents: Vec<DocumentSnapshot>,
    pub strings: Vec<String>,
}

#[derive(Debug, Clone, Default)]
pub struct DocumentSnapshot {
    pub nodes: NodeSnapshot,
    pub layout: LayoutSnapshot,
    pub scroll_offset_x: f64,
    pub scroll_offset_y: f64,
}

#[derive(Debug, Clone, Default)]
pub struct NodeSnapshot {
    pub parent_index: Vec<i64>,
    pub node_type: Vec<i64>,
    pub node_name: Vec<i64>,
    pub backend_node_id: Vec<i64>,
    pub attributes: Rows<i64>,
    /// String index of each node's value (text nodes: their text; -1 for none).
    pub node_value: Vec<i64>,
    pub is_clickable: RareBool,
}

#[derive(Debug, Clone, Default)]
pub struct LayoutSnapshot {
    pub node_index: Vec<i64>,
    /// One row per layout object: indices of the computed styles asked for, in order.
    pub styles: Rows<i64>,
    /// `[x, y, width, height]` in document coordinates.
    pub bounds: Rows<f64>,
    pub paint_orders: Vec<i64>,
}

/// A list of lists kept flat: one allocation for all rows instead of one per row (a
/// 50k-node page's attribute, style and bounds rows held 13 MiB in their own vectors).
#[derive(Debug, Clone)]
pub struct Rows<T> {
    values: Vec<T>,
    /// Where each row ends in `values`.
    ends: Vec<u32>,
}

impl<T> Default for Rows<T> {
    fn default() -> Self {
        Rows { values: Vec::new(), ends: Vec::new() }
    }
}

impl<T> Rows<T> {
    pub fn get(&self, row: usize) -> Option<&[T]> {
        let end = *self.ends.get(row)? as usize;
        let start = if row == 0 { 0 } else { self.ends[row - 1] as usize };
        self.values.get(start..end)
    }

    fn read<'a>(p: &mut Parser<'a>, item: fn(&mut Parser<'a>) -> Result<T>) -> Result<Rows<T>> {
        let (n, values) = p.items_ahead(2);
        let mut rows = Rows { values: Vec::with_capacity(values), ends: Vec::with_capacity(n) };
        p.array(|p| {
            p.array(|p| {
                rows.values.push(item(p)?);
                Ok(())
            })?;
            rows.ends.push(u32::try_from(rows.values.len()).map_err(|_| p.fail("too many values"))?);
            Ok(())
        })?;
        Ok(rows)
    }
}

#[derive(Debug, Clone, Default)]
pub struct RareBool {
    pub index: Vec<i64>,
}

use super::json::{reader, Parser};
use crate::error::Result;

reader!(pub(super) fn read_snapshot -> DomSnapshot {
    "documents" => documents: |p: &mut Parser<'_>| p.vec(read_document),
    "strings" => strings: |p: &mut Parser<'_>| p.vec(Parser::string),
});

fn ints(p: &mut Parser<'_>) -> Result<Vec<i64>> {
    p.vec_sized(2, |p| p.i64())
}

fn read_document(p: &mut Parser<'_>) -> Result<DocumentSnapshot> {
    let mut d = DocumentSnapshot::default();
    p.object(|p, k| {
        match k {
            "nodes" => p.object(|p, k| {
                let n = &mut d.nodes;
                match k {
                    "parentIndex" => n.parent_index = ints(p)?,
                    "nodeType" => n.node_type = ints(p)?,
                    "nodeName" => n.node_name = ints(p)?,
                    "backendNodeId" => n.backend_node_id = ints(p)?,
                    "attributes" => n.attributes = Rows::read(p, Parser::i64)?,
                    "nodeValue" => n.node_value = ints(p)?,
                    "isClickable" => p.object(|p, k| {
                        match k {
                            "index" => n.is_clickable.index = ints(p)?,
                            _ => p.skip()?,
                        }
                        Ok(())
                    })?,
                    _ => p.skip()?,
                }
                Ok(())
            })?,
            "layout" => p.object(|p, k| {
                let l = &mut d.layout;
                match k {
                    "nodeIndex" => l.node_index = ints(p)?,
                    "styles" => l.styles = Rows::read(p, Parser::i64)?,
                    "bounds" => l.bounds = Rows::read(p, Parser::f64)?,
                    "paintOrders" => l.paint_orders = ints(p)?,
                    _ => p.skip()?,
                }
                Ok(())
            })?,
            "scrollOffsetX" => d.scroll_offset_x = p.f64()?,
            "scrollOffsetY" => d.scroll_offset_y = p.f64()?,
            _ => p.skip()?,
        }
        Ok(())
    })?;
    Ok(d)
}

impl DomSnapshot {
    /// The string at a table index; `None` for -1 or out of range.
    pub fn string(&self, index: i64) -> Option<&str> {
        usize::try_from(index).ok().and_then(|i| self.strings.get(i)).map(String::as_str)
    }
}
