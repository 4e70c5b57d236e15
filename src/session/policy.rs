//! The revision policy: what one AX read answers against the revision it may diff from —
//! `full`, `diff` or `unchanged` — and the refs the new revision holds. The tools layer turns
//! the answer into a result; the store (`revision`) says which base is usable.
//!
//! Owns: the choice among the three modes and each mode's refs (labels carried over by
//! identity, new ones counting on, never reused). Must never: answer `diff` that is not
//! shorter than the full state, diff against a base the store refused, or give a ref to a
//! line without a provable identity.

use crate::budget::Budget;
use crate::session::diff::{self, Entries, Key};
use crate::session::identity;
use crate::session::mode::FullReason;
use crate::session::refs::RefTarget;
use crate::session::revision::Revision;
use crate::tree::Tree;
use crate::view::filter::View;
use rustc_hash::FxHashMap as HashMap;

/// A revision's refs: each line identity's label and target.
pub type Refs = HashMap<Key, (String, RefTarget)>;

/// One read, rendered in full: what the policy weighs a diff against.
pub struct Read<'a> {
    pub tree: &'a Tree,
    pub view: &'a View,
    pub entries: &'a Entries,
    /// The full state's length in characters.
    pub full_chars: usize,
    /// The full state's refs (fresh labels) and the view node of each.
    pub full_refs: &'a [(String, RefTarget)],
    pub ref_nodes: &'a [usize],
    pub budget: Budget,
    /// The highest `aN` label ever given in this runtime.
    pub last_label: usize,
}

/// What the read answers.
pub enum Answer {
    /// Nothing the state shows changed: the base's refs still in the document.
    Unchanged { refs: Refs },
    /// The changed lines, within the budget.
    Diff { lines: diff::Lines, chars: usize, refs: Refs },
    /// The whole state, with fresh labels; `reason` says why a read that had a base is not a diff.
    Full { reason: Option<FullReason>, refs: Refs },
}

/// The answer to `read` given the store's choice of base (`Err`: why there is none usable).
pub fn answer(base: Result<Option<&Revision>, FullReason>, read: &Read<'_>) -> Answer {
    let reason = match base {
        Ok(None) => None,
        Err(reason) => Some(reason),
        Ok(Some(b)) => match against(b, read) {
            Ok(a) => return a,
            Err(reason) => Some(reason),
        },
    };
    Answer::Full { reason, refs: full_refs(read) }
}

/// `diff` or `unchanged` against `base`, or the reason the rules say `full`.
fn against(base: &Revision, read: &Read<'_>) -> Result<Answer, FullReason> {
    let changes = diff::changes(&base.entries, read.entries);
    let mut refs: Refs = base.refs.iter().filter(|(k, _)| read.entries.map.contains_key(k)).map(|(k, v)| (*k, v.clone())).collect();
    if changes.is_empty() {
        return Ok(Answer::Unchanged { refs });
    }
    let lines = diff::lines(&changes, &base.entries, read.entries, &mut refs, read.budget, read.last_label, |vi| identity::target_of(&read.view.nodes[vi], read.tree))?;
    let chars = crate::text::char_len(&lines.state);
    if chars >= read.full_chars {
        return Err(FullReason::DiffNotShorter);
    }
    Ok(Answer::Diff { lines, chars, refs })
}

/// The full state's refs keyed by line identity (a ref on a line without one is not kept:
/// it could not be carried into a later diff provably).
fn full_refs(read: &Read<'_>) -> Refs {
    let mut by_view: Vec<Option<&Key>> = vec![None; read.view.nodes.len()];
    for k in &read.entries.order {
        by_view[read.entries.map[k].view_index] = Some(k);
    }
    read.full_refs.iter().zip(read.ref_nodes).filter_map(|((l, t), &vi)| by_view.get(vi).copied().flatten().map(|k| (*k, (l.clone(), t.clone())))).collect()
}

/// The highest `aN` label of `refs`.
pub fn max_label(refs: &Refs) -> usize {
    refs.values().filter_map(|(l, _)| l.get(1..).and_then(|n| n.parse().ok())).max().unwrap_or(0)
}

/// `refs` in label order (the registry lists them so).
pub fn by_label(refs: &Refs) -> Vec<(String, RefTarget)> {
    let all: Vec<&(String, RefTarget)> = refs.values().collect();
    let mut keyed: Vec<(u64, usize)> = all.iter().enumerate().map(|(i, (l, _))| (l.get(1..).and_then(|n| n.parse().ok()).unwrap_or(0), i)).collect();
    crate::order::sort_keyed(&mut keyed);
    keyed.iter().map(|&(_, i)| all[i].clone()).collect()
}
