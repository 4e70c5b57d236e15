//! The AX revision diff: compares two revisions of one document's semantic view, keyed by
//! backend DOM node identity, and renders `+` added, `-` removed and `~` changed lines.
//!
//! Owns: node keys, the entries a revision keeps, change detection, the `+/-/~` lines
//! within the diff budget, the fallback rules that only depend on the two revisions (mass
//! change, temporary identity, unverified iframes). Must never: key a node on model-visible text, or show a sensitive value (the
//! line bodies come from `render::body`, after redaction).

use crate::budget::{Budget, DIFF_MAX_CHANGED_DEN, DIFF_MAX_CHANGED_NUM};
use crate::view::filter::{Kind, View};
use crate::session::refs::RefTarget;
use crate::view::render::body;
use crate::tree::Tree;
use rustc_hash::FxHashMap as HashMap;
use serde::{Deserialize, Serialize};
use std::hash::BuildHasher;

/// Identity of a node across reads: backend DOM node id within its frame's document.
/// Saved as `[frame, backend, sub]` (a revision holds tens of thousands of keys).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(from = "(i64, i64, u32)", into = "(i64, i64, u32)")]
pub struct Key {
    /// The frame's id, hashed (64 bits over a page's few frame ids; a revision holds tens of
    /// thousands of keys, and a string in each was most of its memory).
    pub frame: i64,
    pub backend: i64,
    /// 0 for the node itself, 1 for the warning line attached to it, 2 + n for the n-th
    /// line without an identity of its own under it (text from `::before`, a list marker,
    /// a second line on one DOM node). Such keys never carry a ref.
    pub sub: u32,
}

impl From<(i64, i64, u32)> for Key {
    fn from((frame, backend, sub): (i64, i64, u32)) -> Key {
        Key { frame, backend, sub }
    }
}

impl From<Key> for (i64, i64, u32) {
    fn from(k: Key) -> Self {
        (k.frame, k.backend, k.sub)
    }
}

/// What a revision remembers of one view node.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Entry {
    pub body: String,
    pub parent: Option<Key>,
    pub actionable: bool,
    /// View index in the revision's own view (for ref targets).
    pub view_index: usize,
}

/// All entries of a view, in document order.
#[derive(Default, Serialize, Deserialize)]
pub struct Entries {
    pub order: Vec<Key>,
    #[serde(with = "crate::saved::pairs")]
    pub map: HashMap<Key, Entry>,
    /// An actionable node had no backend identity (or shared one): a ref could not be
    /// carried over provably, so no diff.
    pub temporary: bool,
}




pub fn entries(view: &View, tree: &Tree) -> Entries {
    let mut e = Entries { order: Vec::new(), map: HashMap::default(), temporary: false };
    // Lines without an identity of their own, numbered under their anchor, in document order.
    // (Counted per anchor's view index; the last slot is the document's.)
    let mut derived = vec![0u32; view.nodes.len() + 1];
    let parents = view.parents();
    let frames: Vec<i64> = tree.frames.iter().map(|f| rustc_hash::FxBuildHasher.hash_one(&f.frame_id) as i64).collect();
    let frame_of = |ni: usize| frames.get(tree.nodes[ni].frame).copied().unwrap_or_default();
    let key_of = |vi: usize| -> Option<Key> {
        let v = &view.nodes[vi];
        let src = v.src?;
        let n = &tree.nodes[src];
        let backend = n.target.backend_node_id?;
        Some(Key { frame: frame_of(src), backend, sub: 0 })
    };
    // Warnings have no source node of their own: they hang on their (element) parent.
    let mut last_key: Vec<Option<Key>> = vec![None; view.nodes.len()];
    for vi in view.preorder() {
        let v = &view.nodes[vi];
        if !matches!(v.kind, Kind::Element | Kind::Text | Kind::Warning) {
            continue;
        }
        let mut p = parents[vi];
        while p != usize::MAX && view.nodes[p].kind == Kind::Group {
            p = parents[p];
        }
        let parent = if p == usize::MAX { None } else { last_key[p] };
        let own = if v.kind == Kind::Warning {
            parent.map(|k| Key { sub: 1, ..k })
        } else {
            key_of(vi)
        };
        let key = match own {
            Some(k) if !e.map.contains_key(&k) => k,
            other => {
                // No identity of its own, or a second line on one DOM node. Text and other
                // lines without refs are keyed by their anchor (own node or nearest keyed
                // ancestor) and their ordinal under it; a line with a ref never is.
                // A top-level line hangs on its frame's document.
                let doc_key = || v.src.map(|s| Key { frame: frame_of(s), backend: i64::MIN, sub: 0 });
                let anchor = match other {
                    Some(k) => e.map.get(&k).map(|en| (Key { sub: 0, ..k }, en.view_index)),
                    None => match &parent {
                        Some(pk) => Some((Key { sub: 0, ..*pk }, p)),
                        None => doc_key().map(|k| (k, view.nodes.len())),
                    },
                };
                match anchor {
                    Some((base, slot)) if !(v.actionable && v.kind == Kind::Element) => {
                        derived[slot] += 1;
                        Key { sub: 1 + derived[slot], ..base }
                    }
                    _ => {
                        e.temporary = true;
                        continue;
                    }
                }
            }
        };
        last_key[vi] = Some(key);
        e.order.push(key);
        e.map.insert(key, Entry { body: body(v, tree), parent, actionable: v.actionable && v.kind == Kind::Element, view_index: vi });
    }
    e
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Added,
    Removed,
    Changed,
}

/// Focus marker of a line body (`render`).
const FOCUSED: &str = " [focused]";

/// Did a line change in a way worth a `~` line? Focus moving alone is not: the action that
/// moved it was the model's own, and each move would cost two lines (lost, gained). A line
/// that changes otherwise is shown as it is now, focus included.
fn body_changed(base: &str, new: &str) -> bool {
    base != new && base.replacen(FOCUSED, "", 1) != new.replacen(FOCUSED, "", 1)
}

/// The changes from `base` to `new`, in the order they are shown: added and changed nodes
/// in the new document order, then removed nodes in the base order.
pub fn changes(base: &Entries, new: &Entries) -> Vec<(Change, Key)> {
    let mut out = Vec::new();
    for k in &new.order {
        match base.map.get(k) {
            None => out.push((Change::Added, *k)),
            Some(b) => {
                let n = &new.map[k];
                if body_changed(&b.body, &n.body) || b.parent != n.parent {
                    out.push((Change::Changed, *k));
                }
            }
        }
    }
    for k in &base.order {
        if !new.map.contains_key(k) {
            out.push((Change::Removed, *k));
        }
    }
    out
}

/// A diff's lines: the state text, how many lines it shows and how many it left out.
pub struct Lines {
    pub state: String,
    pub count: usize,
    pub omitted: usize,
}

/// The `+` added, `~` changed, `-` removed lines of `changes`, within `budget` (a note says
/// how many more), or `mass-change` when more than half of the lines changed. `refs` (the
/// base's refs still in the document) gains the labels of added actionable nodes, counting
/// on from `last_label` (`aN` labels are never reused), and loses those of removed nodes;
/// `target(view index)` is a line's ref target, when it has one.
pub fn lines(
    changes: &[(Change, Key)],
    base: &Entries,
    new: &Entries,
    refs: &mut HashMap<Key, (String, RefTarget)>,
    budget: Budget,
    last_label: usize,
    target: impl Fn(usize) -> Option<RefTarget>,
) -> Result<Lines, crate::session::mode::FullReason> {
    let size = base.order.len().max(new.order.len()).max(1);
    if changes.len() * DIFF_MAX_CHANGED_DEN > size * DIFF_MAX_CHANGED_NUM {
        return Err(crate::session::mode::FullReason::MassChange);
    }
    let mut next = last_label;
    let mut out = Lines { state: String::new(), count: 0, omitted: 0 };
    for (change, key) in changes {
        let (sign, entry) = match change {
            Change::Added => ('+', &new.map[key]),
            Change::Changed => ('~', &new.map[key]),
            Change::Removed => ('-', &base.map[key]),
        };
        let mut line = format!("{sign} {}", entry.body);
        if *change != Change::Removed && entry.actionable {
            let label = match refs.get(key) {
                Some((l, _)) => l.clone(),
                None => {
                    next += 1;
                    format!("a{next}")
                }
            };
            if let Some(t) = target(entry.view_index) {
                line.push_str(&format!(" [ref={label}]"));
                refs.insert(*key, (label, t));
            }
        }
        // Removed nodes' refs fail closed from now on.
        if *change == Change::Removed {
            refs.remove(key);
        }
        let cost = crate::text::char_len(&line) + 1;
        if out.count >= budget.nodes || crate::text::char_len(&out.state) + cost > budget.chars.saturating_sub(crate::budget::DIFF_NOTE_CHARS) {
            out.omitted += 1;
            continue;
        }
        if !out.state.is_empty() {
            out.state.push('\n');
        }
        out.state.push_str(&line);
        out.count += 1;
    }
    if out.omitted > 0 {
        out.state.push_str(&format!("\n- note: {} more changes not shown; read with disableDiffing for the full state", out.omitted));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::body_changed;

    #[test]
    fn focus_moving_alone_is_not_a_change() {
        assert!(!body_changed("button \"Pick\" [focused]", "button \"Pick\""));
        assert!(!body_changed("textbox \"City\"", "textbox \"City\" [focused]"));
        assert!(body_changed("textbox \"City\"", "textbox \"City\" value=\"Lis\" [focused]"));
        assert!(body_changed("checkbox \"A\" [focused]", "checkbox \"A\" [checked] [focused]"));
    }
}
