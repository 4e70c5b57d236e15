//! CDP `DOMSnapshot.captureSnapshot` result: columnar per-document node and layout tables
//! whose strings are indices into one shared `strings` table (-1 = absent). Only the
//! columns the core reads are declared; the rest are skipped by the decoder.

use serde::de::{self, DeserializeSeed, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use std::fmt;
use std::marker::PhantomData;


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
    pub attributes: Rows<i64>,
    /// String index of each node's value (text nodes: their text; -1 for none).
    pub node_value: Vec<i64>,
    pub is_clickable: RareBool,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LayoutSnapshot {
    pub node_index: Vec<i64>,
    /// One row per layout object: indices of the computed styles asked for, in order.
    pub styles: Rows<i64>,
    /// `[x, y, width, height]` in document coordinates.
    pub bounds: Rows<f64>,
    /// The text of each layout object (a string index; -1 for none): generated text too.
    pub text: Vec<i64>,
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
}

/// Rows as CDP sends them: an array of arrays (`null` reads as no rows).
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Rows<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Rows<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of arrays")
            }
            fn visit_unit<E: de::Error>(self) -> std::result::Result<Self::Value, E> {
                Ok(Rows::default())
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Self::Value, A::Error> {
                let mut rows = Rows::default();
                while seq.next_element_seed(Row(&mut rows.values))?.is_some() {
                    rows.ends.push(u32::try_from(rows.values.len()).map_err(|_| de::Error::custom("too many values"))?);
                }
                Ok(rows)
            }
        }
        d.deserialize_any(V(PhantomData))
    }
}

/// One row, appended to the flat values.
struct Row<'v, T>(&'v mut Vec<T>);

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for Row<'_, T> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for Row<'_, T> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(), A::Error> {
        while let Some(v) = seq.next_element()? {
            self.0.push(v);
        }
        Ok(())
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct RareBool {
    pub index: Vec<i64>,
}

impl DomSnapshot {
    /// The string at a table index; `None` for -1 or out of range.
    pub fn string(&self, index: i64) -> Option<&str> {
        usize::try_from(index).ok().and_then(|i| self.strings.get(i)).map(String::as_str)
    }
}
