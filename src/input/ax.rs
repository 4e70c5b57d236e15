//! CDP `Accessibility.getFullAXTree` result (`{nodes: AXNode[]}`), decoded leniently.

use super::wire::{nullable, scalar, Scalar};
use serde::de::{self, Deserializer};
use serde::Deserialize;
use crate::role::Role;
use std::borrow::Cow;

#[derive(Debug, Clone, Default)]
pub struct AxTree {
    pub nodes: Vec<AxNode>,
}

/// A patch of one frame's held AX tree (`browser_accessibility_snapshot` after a change the
/// page could localize): per changed element, its AX subtree (`Accessibility.queryAXTree`, which
/// computes role and name for ignored nodes too) and its AX ancestors
/// (`Accessibility.getAXNodeAndAncestors`). `tree/ax_patch.rs` applies it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct AxPatch {
    #[serde(deserialize_with = "nullable")]
    pub frame_id: String,
    #[serde(deserialize_with = "nullable")]
    pub roots: Vec<PatchRoot>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PatchRoot {
    /// The changed element (the tracker's root), in the frame's session.
    pub backend_node_id: i64,
    /// Its whole subtree changed (`subtree` holds it); otherwise only its children came or
    /// went (its own node, first of `ancestors`, says which are there now).
    #[serde(deserialize_with = "nullable")]
    pub whole: bool,
    #[serde(deserialize_with = "nullable")]
    pub subtree: AxTree,
    #[serde(deserialize_with = "nullable")]
    pub ancestors: AxTree,
}

/// An AX node id. Chromium's are integers sent as decimal text (`"-1000000002"` too): they
/// are kept as numbers (a 50k-node page held 10 MiB of id strings), 32-bit as Chromium's.
pub type AxId = i32;

#[derive(Debug, Clone, Default)]
pub struct AxNode {
    pub node_id: AxId,
    pub ignored: bool,
    /// The role, read from Chromium's name for it (`role::Role::from_chromium`).
    pub role: Role,
    /// One of the boxes of a table Chromium decided is for layout (its role reads `generic`).
    pub layout_table_part: bool,
    pub name: Option<AxValue>,
    pub value: Option<AxValue>,
    /// Only the properties the core reads are kept (see `KEPT_PROPERTIES`).
    pub properties: Vec<AxProperty>,
    pub parent_id: Option<AxId>,
    pub child_ids: Vec<AxId>,
    pub backend_dom_node_id: Option<i64>,
    /// Ignored because a modal dialog is open (`ignoredReasons` names `activeModalDialog`):
    /// Chromium then leaves the rest of the page out of the tree.
    pub behind_modal: bool,
}

/// `AXValue`: the value is any JSON (string, number, boolean, idref list…). Its `type`
/// and `sources` are not read (and not kept: they dominate memory on large pages).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct AxValue {
    #[serde(default, deserialize_with = "scalar")]
    pub value: Option<Scalar>,
}

#[derive(Debug, Clone, Default)]
pub struct AxProperty {
    pub name: String,
    pub value: AxValue,
}

/// AX properties the core reads; the rest are dropped while decoding.
pub const KEPT_PROPERTIES: [&str; 14] =
    ["checked", "pressed", "disabled", "expanded", "selected", "focused", "focusable", "required", "invalid", "readonly", "level", "hasPopup", "editable", "modal"];

impl<'de> Deserialize<'de> for AxTree {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Wire {
            #[serde(default, deserialize_with = "nullable")]
            nodes: Vec<AxNode>,
        }
        Wire::deserialize(d).map(|w| AxTree { nodes: w.nodes })
    }
}

/// An id as a number: Chromium sends integers as decimal text; any other text is an error.
fn id<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<AxId, D::Error> {
    let s = Cow::<'de, str>::deserialize(d)?;
    s.parse::<AxId>().map_err(|_| de::Error::custom("expected an AX node id that is a 32-bit integer"))
}

/// An id where one may be absent or in a list.
#[derive(Deserialize)]
struct Id(#[serde(deserialize_with = "id")] AxId);

fn opt_id<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<AxId>, D::Error> {
    Option::<Id>::deserialize(d).map(|o| o.map(|i| i.0))
}

fn ids<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Vec<AxId>, D::Error> {
    Option::<Vec<Id>>::deserialize(d).map(|o| o.unwrap_or_default().into_iter().map(|i| i.0).collect())
}

/// A property or an ignored reason as CDP sends it: a name (borrowed from the text) and a value.
#[derive(Deserialize)]
struct WireProperty<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(default)]
    value: AxValue,
}

/// A node as CDP sends it; `AxNode` keeps what the core reads of it.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WireNode<'a> {
    #[serde(default, deserialize_with = "id")]
    node_id: AxId,
    #[serde(default, deserialize_with = "nullable")]
    ignored: bool,
    #[serde(default)]
    role: Option<AxValue>,
    #[serde(default)]
    name: Option<AxValue>,
    #[serde(default)]
    value: Option<AxValue>,
    #[serde(default, borrow, deserialize_with = "nullable")]
    properties: Vec<WireProperty<'a>>,
    #[serde(default, deserialize_with = "opt_id")]
    parent_id: Option<AxId>,
    #[serde(default, deserialize_with = "ids")]
    child_ids: Vec<AxId>,
    #[serde(default, rename = "backendDOMNodeId")]
    backend_dom_node_id: Option<i64>,
    #[serde(default, borrow, deserialize_with = "nullable")]
    ignored_reasons: Vec<WireProperty<'a>>,
}

impl<'de> Deserialize<'de> for AxNode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let w = WireNode::deserialize(d)?;
        // A role value's text (anything but a string reads as no role).
        let role_name = match w.role.and_then(|v| v.value) {
            Some(Scalar::Str(s)) => s,
            _ => String::new(),
        };
        let mut n = AxNode {
            node_id: w.node_id,
            ignored: w.ignored,
            role: Role::from_chromium(&role_name),
            layout_table_part: crate::role::is_layout_table_part(&role_name),
            name: w.name,
            value: w.value,
            // Only the properties the core reads are kept (the rest are most of the bytes).
            properties: w
                .properties
                .into_iter()
                .filter_map(|p| KEPT_PROPERTIES.iter().find(|k| **k == p.name).map(|k| AxProperty { name: (*k).to_string(), value: p.value }))
                .collect(),
            parent_id: w.parent_id,
            child_ids: w.child_ids,
            backend_dom_node_id: w.backend_dom_node_id,
            behind_modal: w.ignored_reasons.iter().any(|r| r.name == "activeModalDialog"),
        };
        if n.is_never_shown() {
            // Kept for the tree's shape only: its text is never read (an inline text box's
            // repeats its parent's; a third of a large page's nodes are inline text boxes).
            n.name = None;
            n.value = None;
            n.properties = Vec::new();
        }
        Ok(n)
    }
}

impl AxValue {
    /// `text`, moving a string out instead of copying it.
    pub fn into_text(self) -> Option<String> {
        match self.value {
            Some(Scalar::Str(s)) => Some(s),
            _ => self.text(),
        }
    }

    /// The value as text: strings as they are, numbers and booleans printed, else `None`.
    pub fn text(&self) -> Option<String> {
        match self.value.as_ref()? {
            Scalar::Str(s) => Some(s.clone()),
            Scalar::Num(n) => Some(crate::text::number(*n)),
            Scalar::Bool(b) => Some(b.to_string()),
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self.value.as_ref()? {
            Scalar::Bool(b) => Some(*b),
            Scalar::Str(s) => match s.as_str() {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            Scalar::Num(_) => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self.value.as_ref()? {
            Scalar::Num(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => Some(*n as i64),
            _ => None,
        }
    }
}

impl AxNode {
    pub fn property(&self, name: &str) -> Option<&AxValue> {
        self.properties.iter().find(|p| p.name == name).map(|p| &p.value)
    }

    /// An inline text box or a list marker: never shown (the filter skips them), and not
    /// worth a tree node on pages with 100k of them.
    pub fn is_never_shown(&self) -> bool {
        matches!(self.role, Role::InlineTextBox | Role::ListMarker)
    }
}
