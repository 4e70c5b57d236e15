//! Stage 2, the semantic tree: one arena of nodes built from either Chromium AX (+ DOMSnapshot)
//! or the content-script DOM walk, so every later stage works on one shape. This file is
//! the arena; beside it, the builders (`ax_tree`, `dom_tree`), what they read of layout
//! (`layout`, `flow`), the role table (`role`), the sensitivity rules (`redact`) and the
//! page-walk structure the walk tools share (`walk_view`).
//!
//! Owns: the node type and its arena. Must never: filter, budget or render.

pub(crate) mod ax_patch;
pub(crate) mod ax_tree;
pub(crate) mod dom_tree;
pub(crate) mod flow;
pub(crate) mod layout;
pub mod redact;
pub(crate) mod walk_view;

use crate::tree::layout::Rect;

/// Where the tree came from; reported to the caller as `source`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    #[default]
    ChromiumAx,
    Dom,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::ChromiumAx => "chromium_ax",
            Source::Dom => "dom",
        }
    }
}

/// How to find the DOM node again for an action. Never derived from model text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Target {
    pub backend_node_id: Option<i64>,
    pub walk_index: Option<i64>,
}

#[derive(Debug, Clone, Default)]
pub struct States {
    /// "true" | "false" | "mixed"
    pub checked: Option<String>,
    pub pressed: Option<String>,
    pub disabled: bool,
    pub expanded: Option<bool>,
    pub selected: bool,
    pub focused: bool,
    pub focusable: bool,
    pub required: bool,
    /// Its value fails the field's constraints, or the page says so (`aria-invalid`).
    pub invalid: bool,
    pub readonly: bool,
    pub level: Option<i64>,
    pub haspopup: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Node {
    pub role: crate::role::Role,
    pub name: String,
    pub value: Option<String>,
    pub states: States,
    /// Lowercase tag name when known.
    pub tag: String,
    /// Whitelisted DOM attributes (lowercase names): id, name, type, autocomplete, href,
    /// placeholder, aria-label, contenteditable, role. Used for identity and redaction.
    pub attrs: Vec<(String, String)>,
    /// Not shown although present: visibility hidden, opacity 0, aria-hidden (DOM source).
    pub hidden: bool,
    /// Chromium marked it ignored.
    pub ignored: bool,
    /// Its accessible name was not computed (missing from the input, not empty): the label
    /// that could make its value sensitive is unknown, so a value counts as sensitive.
    pub name_unknown: bool,
    /// Bounds in the top-level viewport's coordinates.
    pub bounds: Option<Rect>,
    pub in_viewport: bool,
    /// A positioned element painted above it covers its center.
    pub covered: bool,
    /// The page handles clicks here (listeners or a pointer cursor starting here).
    pub clickable: bool,
    /// Its box breaks the inline flow: text before and after it renders apart.
    pub block: bool,
    /// Rendered whitespace at its edges (text nodes), or whitespace between it and its
    /// previous sibling (DOM walk): text joins across it with one space, else with none.
    pub space_before: bool,
    pub space_after: bool,
    /// The block box its text flows in (AX source, from the DOM snapshot): runs of two
    /// boxes join with a space whatever the AX tree's shape.
    pub flow: Option<u64>,
    pub frame: usize,
    pub target: Target,
    pub children: Vec<usize>,
    /// DOM source, on `<iframe>` elements: the one-time tag its window was sent (the child
    /// frame that received it belongs here).
    pub frame_tag: Option<String>,
    /// DOM source, on `<iframe>` elements: where its document starts inside the element's box
    /// and at what scale (`[left, top, scale]`, the element's CSS px; `input::dom_walk`).
    pub frame_box: Option<[f64; 3]>,
    /// A warning line to show in place of this node's missing content (unexpandable iframe).
    pub warning: Option<String>,
}

impl Tree {
    /// The topmost nodes (pre-order) for which `inside` holds, not descending below a match.
    pub fn topmost(&self, inside: &dyn Fn(&Node) -> bool) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![self.root];
        while let Some(i) = stack.pop() {
            if i != self.root && inside(&self.nodes[i]) {
                out.push(i);
                continue;
            }
            stack.extend(self.nodes[i].children.iter().rev().copied());
        }
        out
    }

    /// Whether node `i` is the element a selector chose, its own node (not a descendant
    /// standing in for it): the caller asked what that element is.
    pub fn is_chosen(&self, i: usize) -> bool {
        self.scope_own && self.scope.as_deref() == Some(&[i])
    }
}

impl Node {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Clone, Default)]
pub struct Frame {
    pub frame_id: String,
    pub session: String,
    pub url: String,
    pub is_main: bool,
}

#[derive(Debug, Clone)]
pub struct Tree {
    pub nodes: Vec<Node>,
    pub root: usize,
    pub frames: Vec<Frame>,
    pub source: Source,
    /// The scope of a selector-narrowed read: the selector's node, or (when that element has
    /// no node of its own: a pruned wrapper, an image) its topmost descendants that do.
    /// Empty when nothing inside it is in the tree (hidden, `display: none`, empty); `None`
    /// for a whole-page read. Never silently widened to the page.
    pub scope: Option<Vec<usize>>,
    /// The scope is the selected element's own node (not its descendants standing in for it).
    pub scope_own: bool,
    /// Input problems worked around (cycles, dangling ids, depth cut): counted, not fatal.
    pub repaired: usize,
    /// Child frames whose `<iframe>` owner could not be verified (not shown; no AX diff).
    pub unverified_frames: usize,
    /// The top-level viewport, in the coordinates of `Node::bounds`.
    pub viewport: Rect,
    /// Elements an open modal dialog hides from the tree (said in one note line).
    pub behind_modal: usize,
}

/// Attributes copied from the DOM into the tree.
pub const KEPT_ATTRS: [&str; 12] =
    ["id", "name", "type", "autocomplete", "href", "placeholder", "aria-label", "contenteditable", "role", "title", "aria-selected", "data-testid"];

pub fn keep_attrs<'a>(attrs: impl Iterator<Item = (&'a str, &'a str)>) -> Vec<(String, String)> {
    attrs
        .filter(|(k, _)| KEPT_ATTRS.contains(k))
        .map(|(k, v)| (k.to_string(), crate::text::capped(v, 512)))
        .collect()
}
