//! CDP `Accessibility.getFullAXTree` result (`{nodes: AXNode[]}`), decoded leniently.

use super::json::{reader, Parser, Scalar};
use crate::error::Result;
use std::borrow::Cow;

#[derive(Debug, Clone, Default)]
pub struct AxTree {
    pub nodes: Vec<AxNode>,
}

/// An AX node id. Chromium's are integers sent as decimal text (`"-1000000002"` too): they
/// are kept as numbers (a 50k-node page held 10 MiB of id strings), 32-bit as Chromium's.
pub type AxId = i32;

#[derive(Debug, Clone, Default)]
pub struct AxNode {
    pub node_id: AxId,
    pub ignored: bool,
    /// The role's text; the common ones are shared, not a copy per node (see `COMMON_ROLES`).
    pub role: Cow<'static, str>,
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
#[derive(Debug, Clone, Default)]
pub struct AxValue {
    pub value: Option<Scalar>,
}

#[derive(Debug, Clone, Default)]
pub struct AxProperty {
    pub name: String,
    pub value: AxValue,
}

/// AX properties the core reads; the rest are dropped while decoding.
pub const KEPT_PROPERTIES: [&str; 13] =
    ["checked", "pressed", "disabled", "expanded", "selected", "focused", "focusable", "required", "readonly", "level", "hasPopup", "editable", "modal"];

// Decodes the nodes one by one, keeping only `KEPT_PROPERTIES`.
reader!(pub(super) fn read_tree -> AxTree {
    "nodes" => nodes: |p: &mut Parser<'_>| p.vec_sized(16, read_node),
});

/// An id as a number: Chromium sends integers as decimal text; any other text is an error.
fn read_id(p: &mut Parser<'_>) -> Result<AxId> {
    let s = p.str()?;
    // Parsed as i64 (that parser is in the module already), then narrowed.
    s.parse::<i64>().ok().and_then(|n| AxId::try_from(n).ok()).ok_or_else(|| p.fail("an AX node id that is not a 32-bit integer"))
}

fn read_node(p: &mut Parser<'_>) -> Result<AxNode> {
    let mut n = AxNode::default();
    p.object(|p, k| {
        match k {
            "nodeId" => n.node_id = read_id(p)?,
            "ignored" => n.ignored = p.bool()?,
            "role" => n.role = read_role(p)?,
            "name" => n.name = read_opt_value(p)?,
            "value" => n.value = read_opt_value(p)?,
            // Only the properties the core reads are kept (the rest are most of the bytes).
            "properties" => p.array(|p| {
                let prop = read_property(p)?;
                if KEPT_PROPERTIES.contains(&prop.name.as_str()) {
                    n.properties.push(prop);
                }
                Ok(())
            })?,
            "parentId" => n.parent_id = if p.null() { None } else { Some(read_id(p)?) },
            "childIds" => n.child_ids = p.vec(read_id)?,
            "backendDOMNodeId" => n.backend_dom_node_id = p.opt_i64()?,
            "ignoredReasons" => p.array(|p| {
                let reason = read_property(p)?;
                n.behind_modal |= reason.name == "activeModalDialog";
                Ok(())
            })?,
            _ => p.skip()?,
        }
        Ok(())
    })?;
    if n.is_never_shown() {
        // Kept for the tree's shape only: its text is never read (an inline text box's
        // repeats its parent's; a third of a large page's nodes are inline text boxes).
        n.name = None;
        n.value = None;
        n.properties = Vec::new();
    }
    Ok(n)
}

/// The roles most nodes have: a 50k-node page's 99k role strings were 2 MiB of its peak.
const COMMON_ROLES: [&str; 24] = [
    "none", "generic", "StaticText", "InlineTextBox", "ListMarker", "paragraph", "link", "listitem", "list", "cell", "row",
    "LineBreak", "image", "heading", "button", "LayoutTableCell", "LayoutTableRow", "LayoutTable", "gridcell", "columnheader",
    "option", "LabelText", "table", "section",
];

/// A role value's text (anything but a string reads as no role).
fn read_role(p: &mut Parser<'_>) -> Result<Cow<'static, str>> {
    let text = match read_opt_value(p)?.and_then(|v| v.value) {
        Some(Scalar::Str(s)) => s,
        _ => String::new(),
    };
    Ok(COMMON_ROLES.iter().find(|r| **r == text).map_or(Cow::Owned(text), |r| Cow::Borrowed(*r)))
}

fn read_opt_value(p: &mut Parser<'_>) -> Result<Option<AxValue>> {
    if p.null() {
        return Ok(None);
    }
    read_value(p).map(Some)
}

reader!(fn read_value -> AxValue {
    "value" => value: Parser::scalar,
});

reader!(fn read_property -> AxProperty {
    "name" => name: Parser::string,
    "value" => value: read_value,
});

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
        matches!(self.role_str(), "InlineTextBox" | "ListMarker")
    }

    pub fn role_str(&self) -> &str {
        &self.role
    }
}
