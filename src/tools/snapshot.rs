//! The `browser_snapshot` pipeline: observation → semantic tree → view → budgeted
//! selection → rendered state, plus the ref targets of the rendered refs.
//!
//! Owns: the order of the stages and the result shape of docs/tools.md. Must never: keep state
//! (the `Collector` does), or return anything unbounded.

use crate::budget::Budget;
use crate::error::{Code, Error, Result};
use crate::view::filter::{filter, Kind, View};
use crate::session::identity::target_of;
use crate::input::Observation;
use crate::session::refs::RefTarget;
use crate::view::render::RefLabels;
use crate::view::select::{select, select_page};
use crate::tree::Tree;
use crate::tree::{ax_tree, dom_tree};
use serde::Serialize;

/// The `snapshot` object of a `browser_snapshot` result.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotResult {
    pub snapshot_id: String,
    /// The revision a `diff` or `unchanged` result is relative to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base_snapshot_id: Option<String>,
    pub mode: crate::session::mode::Mode,
    pub source: crate::tree::Source,
    /// Absent for `unchanged`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    pub node_count: usize,
    pub char_count: usize,
    pub truncated: bool,
    pub ref_count: usize,
    /// Nodes the page had after filtering (before the budget).
    pub total_nodes: usize,
    #[serde(skip_serializing_if = "is_zero")]
    pub omitted_nodes: usize,
    /// Why an AX read that could have been a diff is `full`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub full_reason: Option<crate::session::mode::FullReason>,
}

pub(crate) fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The semantic tree of an observation: Chromium AX when any frame has an AX tree, else the
/// DOM walk. It takes what it has read out of `obs` (AX names and values, the DOM snapshot's
/// digested columns): one tree per observation.
pub fn build_tree(obs: &mut Observation) -> Result<Tree> {
    build_tree_keeping(obs, false)
}

/// `build_tree`, the frames' AX trees left whole with `keep_ax` (see `ax_tree::build`).
pub fn build_tree_keeping(obs: &mut Observation, keep_ax: bool) -> Result<Tree> {
    let has_ax = obs.frames.iter().any(|f| f.ax.is_some());
    match (&obs.dom_walk, has_ax) {
        (_, true) => Ok(ax_tree::build(obs, keep_ax)),
        (Some(walk), false) => Ok(dom_tree::build(obs, walk)),
        (None, false) => Err(Error::malformed("observation", "it has neither a frame with an AX tree nor a DOM walk")),
    }
}

/// A rendered state and what the stateful layers need from it.
pub struct Output {
    pub result: SnapshotResult,
    /// Targets of the rendered refs, in ref order.
    pub refs: Vec<(String, RefTarget)>,
    /// The view node of each entry of `refs`.
    pub ref_nodes: Vec<usize>,
    pub view: View,
}

/// Renders a state under `budget` (the result's `snapshot_id` is left empty). A scoped read
/// whose element shows nothing is an error, never an empty or widened state.
/// With `page`, the state is that page of the (scoped) view in document order.
pub fn snapshot(tree: &Tree, budget: Budget, labels: RefLabels, page: Option<usize>) -> Result<Output> {
    let view = filter(tree);
    let sel = match page {
        None => select(&view, tree, budget, labels),
        Some(p) => select_page(&view, tree, budget, labels, p).map_err(|pages| {
            Error::new(Code::InvalidRequest, format!("page {p} is past the end: this read has {pages}"), "ask for a page from 1 to that number")
        })?,
    };
    if tree.scope.is_some() && sel.total == 0 {
        return Err(Error::empty_scope());
    }
    let (refs, ref_nodes): (Vec<(String, RefTarget)>, Vec<usize>) = sel
        .rendered
        .refs
        .iter()
        .filter_map(|(label, vi)| target_of(&view.nodes[*vi], tree).map(|t| ((label.clone(), t), *vi)))
        .unzip();
    let node_count = sel.selected.iter().enumerate().filter(|(i, &s)| s && matches!(view.nodes[*i].kind, Kind::Element | Kind::Text)).count();
    let state = sel.rendered.state;
    let result = SnapshotResult {
        snapshot_id: String::new(),
        base_snapshot_id: None,
        mode: crate::session::mode::Mode::Full,
        source: tree.source,
        char_count: crate::text::char_len(&state),
        state: Some(state),
        node_count,
        truncated: sel.truncated,
        ref_count: refs.len(),
        total_nodes: sel.total,
        omitted_nodes: sel.omitted_elements + sel.omitted_text,
        full_reason: None,
    };
    Ok(Output { result, refs, ref_nodes, view })
}
