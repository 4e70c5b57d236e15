//! `browser_find`: searches the page's whole semantic view — not only the part a budgeted
//! state shows — and answers with the matching lines, each with a ref (when it has a DOM
//! node) and a short ancestor path, so that the model reaches what a state elided.
//!
//! Owns: what matches (text in a node's name, value or inline text, case folded in every
//! script (`text::case_fold`); role
//! and name; or a host predicate such as a RegExp), the match line with its excerpt and path,
//! the result bound. Must never: search what filtering dropped (hidden, inert, sensitive
//! values), return more than its bound, or pretend a capped answer is complete.

use crate::budget::{Budget, FIND_DEFAULT_RESULTS, FIND_MAX_RESULTS, FIND_SUBTREE_CHARS, NODE_TEXT_CHARS};
use crate::view::filter::{Kind, VNode, View};
use crate::session::identity::target_of;
use crate::session::refs::RefTarget;
use crate::view::render::{body, line_cost};
use crate::role::Role;
use crate::text::{capped, char_len, fold_whitespace};
use crate::tree::Tree;
use serde::{Deserialize, Serialize};

/// What to look for. `text` and the predicate match a node's own text; `role` (an ARIA role
/// as states show it) and `name` (a substring of the accessible name, or all of it with
/// `exact`) match elements. Every given criterion must hold.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Query {
    pub text: Option<String>,
    pub role: Option<String>,
    pub name: Option<String>,
    pub exact: bool,
    /// A substring of the element's `placeholder`.
    pub placeholder: Option<String>,
    /// The element's `data-testid`, whole.
    pub test_id: Option<String>,
    /// Target mode (semantic targets of actions): only elements with a DOM node count, a
    /// text match names its nearest such element, so every line carries a ref in order.
    pub elements: bool,
    pub max_results: Option<u64>,
    pub max_chars: Option<u64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FindResult {
    pub snapshot_id: String,
    /// Nodes that matched in the whole view.
    pub matches: usize,
    /// Of them, shown here (document order).
    pub shown: usize,
    pub truncated: bool,
    pub state: String,
    /// Target mode only (never shown to a model): each shown line's ref and the line without
    /// it, in order, for the extension's choice among the matches.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub refs: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
}

pub struct Found {
    pub result: FindResult,
    pub refs: Vec<(String, RefTarget)>,
}

fn folded(s: &str) -> String {
    crate::text::case_fold(s)
}

/// The text a node shows of itself: name, value (already redacted) and inline text.
fn own_text(v: &VNode) -> String {
    let mut s = v.name.clone();
    for t in [v.value.as_deref(), v.inline_text.as_deref()].into_iter().flatten() {
        s.push(' ');
        s.push_str(t);
    }
    fold_whitespace(&s)
}

/// Whether an element passes the role, name, placeholder and test id criteria.
fn criteria(v: &VNode, tree: &Tree, q: &Query) -> bool {
    let attr = |k: &str| v.src.and_then(|s| tree.nodes[s].attr(k)).unwrap_or("");
    if q.placeholder.as_ref().is_some_and(|p| !folded(attr("placeholder")).contains(&folded(p))) {
        return false;
    }
    if q.test_id.as_ref().is_some_and(|t| attr("data-testid") != t) {
        return false;
    }
    if let Some(r) = &q.role {
        // A role as a line shows it, in any case (`Button`); a name no line shows matches nothing.
        if v.kind != Kind::Element || Role::from_name(&r.to_ascii_lowercase()) != Some(v.role.shows()) {
            return false;
        }
    }
    if let Some(n) = &q.name {
        let name = folded(&fold_whitespace(&v.name));
        let n = folded(&fold_whitespace(n));
        if (q.exact && name != n) || (!q.exact && !name.contains(&n)) {
            return false;
        }
    }
    true
}

/// Appends a child's text the way the page renders the join: a space only at rendered
/// whitespace or a box edge (`$<b>12</b>.99` stays `$12.99`).
fn join_into(out: &mut String, prev: Option<&VNode>, next: &VNode, text: &str) {
    if text.is_empty() {
        return;
    }
    let spaced = prev.is_some_and(|p| p.space_after || p.block) || next.space_before || next.block;
    if !out.is_empty() && spaced {
        out.push(' ');
    }
    out.push_str(text);
}

/// Per view node, whether its text holds the needle and passes the predicate: its own text
/// joined with its subtree's, so that a phrase split by inline markup (`If the <a>conjugate
/// transpose</a> of`) is found in the paragraph. Bottom-up, each child's text handed to its
/// parent once; a subtree text over `FIND_SUBTREE_CHARS` is not built (its parts still
/// match on their own).
fn text_hits(view: &View, needle: Option<&str>, pred: &dyn Fn(&str) -> bool) -> Vec<bool> {
    let ok = |t: &str| !t.is_empty() && needle.is_none_or(|n| folded(t).contains(n)) && pred(t);
    let mut text: Vec<Option<String>> = vec![None; view.nodes.len()];
    let mut hit = vec![false; view.nodes.len()];
    for i in view.preorder().into_iter().rev() {
        let v = &view.nodes[i];
        let own = if matches!(v.kind, Kind::Element | Kind::Text) { own_text(v) } else { String::new() };
        let mut all = Some(own.clone());
        let mut prev: Option<&VNode> = None;
        for &c in &v.children {
            hit[i] |= hit[c];
            match (text[c].take(), all.as_mut()) {
                (Some(t), Some(out)) => join_into(out, prev, &view.nodes[c], &t),
                _ => all = None,
            }
            prev = Some(&view.nodes[c]);
        }
        let all = all.filter(|t| char_len(t) <= FIND_SUBTREE_CHARS);
        hit[i] |= ok(all.as_deref().unwrap_or(&own));
        text[i] = all;
    }
    hit
}

/// The text of a node's subtree as `text_hits` joins it (for a match line), capped.
fn subtree_text(view: &View, i: usize) -> String {
    let mut out = String::new();
    let mut stack = vec![(i, None::<usize>)];
    while let Some((n, prev)) = stack.pop() {
        let v = &view.nodes[n];
        if matches!(v.kind, Kind::Element | Kind::Text) {
            join_into(&mut out, prev.map(|p| &view.nodes[p]), v, &own_text(v));
        }
        if char_len(&out) > FIND_SUBTREE_CHARS {
            break;
        }
        let kids = &v.children;
        for (k, &c) in kids.iter().enumerate().rev() {
            stack.push((c, if k == 0 { None } else { Some(kids[k - 1]) }));
        }
    }
    out
}

/// The nearest structural ancestors (landmarks, headings' sections, lists, tables, named
/// containers), outermost first, at most three: where the match sits on the page.
fn path(view: &View, parents: &[usize], mut i: usize) -> String {
    let mut steps: Vec<String> = Vec::new();
    while steps.len() < 3 {
        i = parents[i];
        if i == usize::MAX {
            break;
        }
        let v = &view.nodes[i];
        if v.kind != Kind::Element || v.role == Role::Generic {
            continue;
        }
        let mut s = v.role.display().to_string();
        if !v.name.is_empty() && (v.role.is_landmark() || matches!(v.role, Role::List | Role::Table | Role::Group | Role::ListItem)) {
            s.push_str(" \"");
            s.push_str(&capped(&v.name, crate::budget::FIND_PATH_NAME_CHARS).replace('"', "'"));
            s.push('"');
        }
        steps.push(s);
    }
    steps.reverse();
    crate::text::join(&mut steps.iter().map(String::as_str), " > ")
}

/// A line shows its match: when the needle lies past what the line's cap keeps (or in the
/// node's children), the line ends with an excerpt of its text around it.
fn line_body(view: &View, i: usize, tree: &Tree, needle: Option<&str>) -> String {
    let v = &view.nodes[i];
    let full = body(v, tree);
    let shows = |t: &str| needle.is_some_and(|n| folded(t).contains(n));
    if shows(&full) || (v.children.is_empty() && needle.is_none()) {
        return full;
    }
    let text = if v.children.is_empty() { own_text(v) } else { subtree_text(view, i) };
    let at = needle.and_then(|n| {
        let (folded, map) = crate::text::case_fold_mapped(&text);
        let at = folded.find(n)?;
        map.iter().rev().find(|(f, _)| *f <= at).map(|(_, o)| *o)
    });
    let at = at.unwrap_or(0);
    let start = floor_char(&text, at.saturating_sub(NODE_TEXT_CHARS / 2));
    let mut out = if v.kind == Kind::Text { "text".to_string() } else { v.role.display().to_string() };
    out.push_str(if start > 0 { ": …" } else { ": " });
    out.push_str(&capped(&text[start..], NODE_TEXT_CHARS));
    out
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Searches the whole view; `pred` is the host's extra test (a RegExp), `|_| true` without.
pub fn find(view: &View, tree: &Tree, q: &Query, pred: &dyn Fn(&str) -> bool) -> Found {
    let max_results = q.max_results.map(|m| m as usize).unwrap_or(FIND_DEFAULT_RESULTS).clamp(1, FIND_MAX_RESULTS);
    let max_chars = Budget::clamped(q.max_chars, None).chars;
    let needle = q.text.as_deref().map(|t| folded(&fold_whitespace(t))).filter(|t| !t.is_empty());
    let parents = view.parents();
    let by_element = q.role.is_some() || q.name.is_some() || q.placeholder.is_some() || q.test_id.is_some();
    let texts = needle.is_some() || !by_element;
    let hits = if texts { text_hits(view, needle.as_deref(), pred) } else { Vec::new() };
    // Text queries report the deepest node holding the match (a dropped wrapper: its nearest
    // shown ancestor); role and name queries every element that passes them.
    let mut report = vec![false; view.nodes.len()];
    for i in view.preorder() {
        let v = &view.nodes[i];
        let text_ok = !texts || (hits[i] && (by_element || !v.children.iter().any(|&c| hits[c])));
        if !text_ok || !criteria(v, tree, q) {
            continue;
        }
        // The node a line is about: shown (a dropped wrapper gives way to its ancestor), and
        // in target mode an element with a DOM node.
        let shown = |n: &VNode| match n.kind {
            Kind::Element => !q.elements || n.src.is_some(),
            Kind::Text => !q.elements,
            _ => false,
        };
        let mut at = i;
        while !shown(&view.nodes[at]) && parents[at] != usize::MAX {
            at = parents[at];
        }
        report[at] = shown(&view.nodes[at]) && at != view.root;
    }
    let mut state = String::new();
    let mut refs = Vec::new();
    let (mut labels, mut lines) = (Vec::new(), Vec::new());
    let (mut total, mut shown, mut cut) = (0, 0, false);
    for i in view.preorder() {
        let v = &view.nodes[i];
        if !report[i] {
            continue;
        }
        total += 1;
        if shown >= max_results || cut {
            continue;
        }
        let target = (v.kind == Kind::Element).then(|| target_of(v, tree)).flatten();
        let label = target.as_ref().map(|_| format!("e{}", refs.len() + 1));
        let body = line_body(view, i, tree, needle.as_deref());
        let at = path(view, &parents, i);
        let place = if at.is_empty() { String::new() } else { format!(" — in {at}") };
        let line = match &label {
            Some(l) => format!("{body} [ref={l}]{place}"),
            None => format!("{body}{place}"),
        };
        let bare = format!("{body}{place}");
        if char_len(&state) + line_cost(&line, 0, false) > max_chars {
            cut = true;
            continue;
        }
        if let (Some(l), Some(t)) = (label, target) {
            if q.elements {
                labels.push(l.clone());
                lines.push(bare);
            }
            refs.push((l, t));
        }
        state.push_str("- ");
        state.push_str(&line);
        state.push('\n');
        shown += 1;
    }
    state.pop();
    let result = FindResult { snapshot_id: String::new(), matches: total, shown, truncated: shown < total, state, refs: labels, lines };
    Found { result, refs }
}
