//! A read-only view over one frame's DOM walk: children lists, effective visibility
//! (inherited `display: none`, `visibility`, `opacity: 0`) and subtree text, shared by the
//! visible-DOM listing and the main-content extraction.
//!
//! Owns: the walk's structure after repair (bad parent links, cycles, depth). Must never:
//! decide what reaches the model (that is `visible_dom` and `extract`).

use crate::budget::MAX_TREE_DEPTH;
use crate::input::WalkNode;
use crate::tree::layout::Rect;

pub struct WalkView<'a> {
    pub nodes: &'a [WalkNode],
    pub children: Vec<Vec<usize>>,
    /// Root indices (parent -1 or a parent that does not precede the node).
    pub roots: Vec<usize>,
    /// Not rendered: the node or an ancestor is `display: none`, invisible or transparent.
    pub hidden: Vec<bool>,
    /// Inside a form field (`input`, `textarea`, `select`, a sensitive rich-text editor): its
    /// text is the field's value.
    pub in_field: Vec<bool>,
}

/// Tags whose content is never page content.
const NON_CONTENT: [&str; 5] = ["script", "style", "template", "noscript", "head"];

/// A rich-text editor (`contenteditable`) that is sensitive: its text is a secret field's value.
fn secret_editor(n: &WalkNode) -> bool {
    is_editable(n) && is_sensitive(n)
}

/// Whether the element carries `contenteditable` (any value but `false`).
pub fn is_editable(n: &WalkNode) -> bool {
    n.attrs.get("contenteditable").is_some_and(|v| !v.eq_ignore_ascii_case("false"))
}

/// Whether a walked field's value is sensitive: by its attributes, or by the name its label
/// (else its `title`) gives it (`aria-label` is one of the attributes).
pub fn is_sensitive(n: &WalkNode) -> bool {
    let attrs: Vec<(String, String)> = n.attrs.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
    let name = n.label.clone().or_else(|| n.attrs.get("title").cloned()).unwrap_or_default();
    crate::tree::redact::is_sensitive(&crate::tree::Node { name, attrs, ..crate::tree::Node::default() })
}

impl<'a> WalkView<'a> {
    pub fn new(nodes: &'a [WalkNode]) -> WalkView<'a> {
        let n = nodes.len();
        let mut children = vec![Vec::new(); n];
        let mut roots = Vec::new();
        let mut hidden = vec![false; n];
        let mut in_field = vec![false; n];
        let mut depth = vec![0usize; n];
        for (i, node) in nodes.iter().enumerate() {
            // A parent must come earlier in document order: that rules out cycles.
            let parent = usize::try_from(node.parent).ok().filter(|&p| p < i && depth[p] < MAX_TREE_DEPTH);
            let own_hidden = node.tag != "#text"
                && (node.display.as_deref() == Some("none")
                    || matches!(node.visibility.as_deref(), Some("hidden" | "collapse"))
                    || node.opacity.is_some_and(|o| o <= 0.0)
                    || NON_CONTENT.contains(&node.tag.as_str()));
            match parent {
                Some(p) => {
                    children[p].push(i);
                    depth[i] = depth[p] + 1;
                    // `visibility` is inherited and already computed per element; display
                    // and opacity hide the whole subtree.
                    hidden[i] = own_hidden || hidden[p];
                    in_field[i] = in_field[p] || crate::role::is_field_tag(&nodes[p].tag) || secret_editor(&nodes[p]);
                }
                None => {
                    roots.push(i);
                    hidden[i] = own_hidden;
                }
            }
        }
        WalkView { nodes, children, roots, hidden, in_field }
    }

    pub fn rect(&self, i: usize) -> Option<Rect> {
        self.nodes[i].rect.as_deref().and_then(Rect::from_slice)
    }

    pub fn attr(&self, i: usize, name: &str) -> Option<&'a str> {
        self.nodes[i].attrs.get(name).map(String::as_str).filter(|v| !v.is_empty())
    }

    /// Visible text of the subtree at `i`, whitespace-folded, read until `max` characters
    /// are known (more is never scanned). Field contents are never included.
    pub fn text(&self, i: usize, max: usize) -> String {
        let mut out = String::new();
        let mut stack = vec![i];
        while let Some(j) = stack.pop() {
            if out.len() > max * 4 {
                break;
            }
            if self.hidden[j] || self.in_field[j] {
                continue;
            }
            let node = &self.nodes[j];
            if node.tag == "#text" {
                if let Some(t) = &node.text {
                    out.push(' ');
                    out.push_str(crate::text::byte_prefix(t, max * 4));
                }
                continue;
            }
            stack.extend(self.children[j].iter().rev());
        }
        crate::text::capped(&out, max)
    }
}
