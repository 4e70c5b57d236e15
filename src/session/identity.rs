//! Node identity for actions: what a ref's target is (`RefTarget` from a view node), and
//! the one permitted rebind — to a *unique strong equivalent* in the same document when the
//! original node is gone. Strong means: same frame, role, accessible name and tag, and the
//! same non-empty DOM `id` (or form-control `name`). Anything weaker fails closed.
//!
//! Owns: equivalence. Must never: match on model-supplied text or pick among candidates.

use crate::error::{Error, Result};
use crate::view::filter::VNode;
use crate::session::refs::RefTarget;
use crate::text::fold_whitespace;
use crate::tree::Tree;

pub fn target_of(v: &VNode, tree: &Tree) -> Option<RefTarget> {
    let src = v.src?;
    let n = &tree.nodes[src];
    let frame = tree.frames.get(n.frame)?;
    Some(RefTarget {
        frame_id: frame.frame_id.clone(),
        session: frame.session.clone(),
        backend_node_id: n.target.backend_node_id,
        walk_index: n.target.walk_index,
        walk_id: None, // stamped by the collector, which knows the walk
        role: n.role,
        name: fold_whitespace(&n.name),
        tag: n.tag.clone(),
        id_attr: n.attr("id").filter(|s| !s.is_empty()).map(str::to_string),
        name_attr: n.attr("name").filter(|s| !s.is_empty()).map(str::to_string),
    })
}

/// Finds the unique strong equivalent of `old` in a fresh tree of the same document.
pub fn rebind(old: &RefTarget, tree: &Tree, ref_label: &str) -> Result<RefTarget> {
    if old.id_attr.is_none() && old.name_attr.is_none() {
        return Err(Error::stale_ref(format!(
            "the element of ref {ref_label} is gone and it has no stable id to find it again"
        )));
    }
    let mut found: Option<RefTarget> = None;
    let mut count = 0;
    for n in &tree.nodes {
        let Some(frame) = tree.frames.get(n.frame) else { continue };
        if frame.frame_id != old.frame_id || frame.session != old.session || n.role != old.role || n.tag != old.tag {
            continue;
        }
        if fold_whitespace(&n.name) != old.name {
            continue;
        }
        let id_ok = old.id_attr.as_deref().map(|id| n.attr("id") == Some(id)).unwrap_or(true);
        let name_ok = old.name_attr.as_deref().map(|nm| n.attr("name") == Some(nm)).unwrap_or(true);
        if !(id_ok && name_ok) || n.hidden || n.ignored {
            continue;
        }
        count += 1;
        found = Some(RefTarget {
            backend_node_id: n.target.backend_node_id,
            walk_index: n.target.walk_index,
            ..old.clone()
        });
    }
    match (count, found) {
        // A fresh walk holds only connected elements: its index counts anew.
        (1, Some(t)) if t.walk_index.is_some() || t.backend_node_id != old.backend_node_id => Ok(t),
        (1, Some(_)) => Err(Error::stale_ref(format!("the element of ref {ref_label} is no longer connected"))),
        (0, _) => Err(Error::stale_ref(format!("the element of ref {ref_label} is gone"))),
        _ => Err(Error::stale_ref(format!("the element of ref {ref_label} is gone and {count} elements now look like it"))),
    }
}
