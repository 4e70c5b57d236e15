//! Text flow facts from `DOMSnapshot.captureSnapshot`: where the page renders a space between
//! two text runs that Chromium's AX tree puts side by side. Chromium leaves whitespace-only
//! text out of the AX tree (`Por<!-- --> <span>Ann</span>`, `libertés<strong> </strong>(CNIL)`)
//! and may hoist the text of several block boxes under one node (a footer's list items).
//!
//! Owns: rendered whitespace between siblings (moved onto the text runs it separates) and
//! each node's block box. Must never: decide what is shown, or read styles other than
//! `display` and whether a node has a layout box.

use crate::input::{DocumentSnapshot, DomSnapshot};

/// Elements that render content of their own (not text, not whitespace).
const REPLACED: [&str; 7] = ["img", "input", "svg", "iframe", "select", "textarea", "button"];

pub struct Flow {
    /// A rendered space precedes / follows this node's text.
    pub space_before: Vec<bool>,
    pub space_after: Vec<bool>,
    /// Index of the nearest block-level box around the node (itself for a block element).
    pub block: Vec<usize>,
}

impl Flow {
    /// `parent`: parent index per node (parents precede children); `laid_out`: the node has a
    /// layout box; `display`: its computed `display`.
    pub fn new<'s>(snap: &'s DomSnapshot, d: &DocumentSnapshot, parent: &[i64], laid_out: &dyn Fn(usize) -> bool, display: &dyn Fn(usize) -> Option<&'s str>) -> Flow {
        let n = parent.len().min(d.nodes.node_type.len());
        let parent_of = |i: usize| usize::try_from(parent[i]).ok().filter(|&p| p < i);
        let kind = |i: usize| d.nodes.node_type.get(i).copied().unwrap_or(0);
        let is_space = |i: usize| {
            kind(i) == 3 && laid_out(i) && d.nodes.node_value.get(i).and_then(|&v| snap.string(v)).map(|t| !t.is_empty() && t.chars().all(char::is_whitespace)).unwrap_or(false)
        };
        // Reverse pass (children come after parents): what each subtree renders (0 nothing,
        // 1 only whitespace, 2 more), and its first and last text node.
        let mut content = vec![0u8; n];
        let mut first_text = vec![usize::MAX; n];
        let mut last_text = vec![0usize; n];
        for i in (0..n).rev() {
            let own = match kind(i) {
                3 if is_space(i) => 1,
                3 if laid_out(i) => 2,
                1 if laid_out(i) && snap.string(d.nodes.node_name[i]).is_some_and(|t| REPLACED.iter().any(|r| t.eq_ignore_ascii_case(r))) => 2,
                _ => 0,
            };
            content[i] = content[i].max(own);
            if kind(i) == 3 && own == 2 {
                first_text[i] = i;
                last_text[i] = i;
            }
            if let Some(p) = parent_of(i) {
                content[p] = content[p].max(content[i]);
                first_text[p] = first_text[p].min(first_text[i]);
                last_text[p] = last_text[p].max(last_text[i]);
            }
        }
        let mut f = Flow { space_before: vec![false; n], space_after: vec![false; n], block: vec![0; n] };
        let mut last_child = vec![usize::MAX; n];
        for i in 0..n {
            let Some(p) = parent_of(i) else { continue };
            let block_self = kind(i) == 1 && display(i).map(breaks_flow).unwrap_or(false);
            f.block[i] = if block_self { i } else { f.block[p] };
            if !matches!(kind(i), 1 | 3) {
                continue; // a comment sits between a run and its space
            }
            let prev = std::mem::replace(&mut last_child[p], i);
            if prev == usize::MAX {
                continue;
            }
            // A whitespace-only sibling (or an element holding only whitespace) between two
            // runs: the space ends the previous sibling's text and starts the next one's.
            if content[i] == 1 {
                f.space_after[prev] = true;
                if last_text[prev] < n && first_text[prev] != usize::MAX {
                    f.space_after[last_text[prev]] = true;
                }
            }
            if content[prev] == 1 {
                f.space_before[i] = true;
                if first_text[i] < n {
                    f.space_before[first_text[i]] = true;
                }
            }
        }
        f
    }
}

/// Whether a computed `display` value starts a box of its own, so text on either side does
/// not join: everything but plain inline boxes. Inline blocks count as boxes (pages space
/// them with margins, not with text).
pub fn breaks_flow(display: &str) -> bool {
    !matches!(display, "inline" | "contents" | "none" | "" | "inline flow" | "ruby" | "ruby-text")
}
