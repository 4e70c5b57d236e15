//! Budgeted selection: which view nodes fit in the state. Keeps what a user sees first
//! (the focused control, actionable nodes in the viewport, the page's regions and headings,
//! then what is nearest the viewport), degrades long runs of similar siblings by keeping
//! their ends, and trims until the rendered text fits the character budget exactly.
//!
//! Owns: priorities and the greedy fit. Must never: cut text mid-line or emit lines (that
//! is `render`); never exceed the budget it is given.

use crate::budget::{Budget, RUN_EDGE, RUN_MIN};
use crate::view::filter::{Kind, View};
use crate::view::render::{body, line_cost, render, RefLabels, Rendered};
use crate::role::Role;
use crate::tree::Tree;

/// The outcome of a selection: what was kept and the exact rendering of it.
pub struct Selection {
    pub selected: Vec<bool>,
    pub rendered: Rendered,
    /// Elements and text nodes in the view, and how many of them were left out.
    pub total: usize,
    pub omitted_elements: usize,
    pub omitted_text: usize,
    pub omitted_main: usize,
    pub omitted_frames: usize,
    pub omitted_offscreen: usize,
    pub truncated: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum RunPos {
    None,
    Edge,
    Middle,
}

pub fn select(view: &View, tree: &Tree, budget: Budget, labels: RefLabels) -> Selection {
    select_in(view, tree, budget, labels, None)
}

/// Page `page` (1-based) of the view in document order, each within the budget: a page
/// starts after the last node the previous page showed (their ancestors come along as
/// context). The closing note says whether another page follows.
/// `Err(pages)` when `page` is past the last page. `truncated` says another page follows.
pub fn select_page(view: &View, tree: &Tree, budget: Budget, labels: RefLabels, page: usize) -> Result<Selection, usize> {
    let order = view.preorder();
    let mut from = 0;
    for k in 1.. {
        let sel = select_in(view, tree, budget, labels, Some((from, k)));
        if k >= page {
            return Ok(sel);
        }
        if !sel.truncated {
            return Err(k);
        }
        let last = order.iter().rposition(|&i| sel.selected[i]).unwrap_or(0);
        from = (last + 1).max(from + 1);
    }
    unreachable!("pages are counted until one returns")
}

/// `paged`: `(first document position, page number)` for a page in document order.
fn select_in(view: &View, tree: &Tree, budget: Budget, labels: RefLabels, paged: Option<(usize, usize)>) -> Selection {
    let order = view.preorder();
    let parents = view.parents();
    let n = view.nodes.len();
    let main_frame = tree.frames.iter().position(|f| f.is_main).unwrap_or(0);
    let has_frames = order.iter().any(|&i| view.nodes[i].frame != main_frame && matches!(view.nodes[i].kind, Kind::Element | Kind::Text));
    let (main_budget, frame_budget) = if has_frames { budget.split_for_iframes() } else { (budget, Budget { chars: 0, nodes: 0, text_chars: 0 }) };

    // Depth (in rendered lines) and run position of every node.
    let mut depth = vec![0usize; n];
    let mut run = vec![RunPos::None; n];
    // Where a node sits: 1 in the main content (inside `main` or an `article`), 2 in page
    // chrome (navigation, sidebars, header, footer), 0 elsewhere. Chrome wins when nested.
    let mut region = vec![0u8; n];
    for &i in &order {
        let v = &view.nodes[i];
        let child_depth = depth[i] + usize::from(v.kind == Kind::Element && i != view.root);
        let inner = match v.role {
            _ if region[i] == 2 => 2,
            Role::Navigation | Role::Complementary | Role::ContentInfo | Role::Banner => 2,
            Role::Main | Role::Article => 1,
            _ => region[i],
        };
        for &c in &v.children {
            depth[c] = child_depth;
            run[c] = run[i];
            region[c] = inner;
        }
        mark_runs(view, i, &mut run);
    }
    let folded = folded_options(view, tree);
    // Candidates with their priority class and tiebreaks.
    // (class in the top 4 bits, then distance, then document position; view index)
    let mut cands: Vec<(u64, usize)> = Vec::new();
    for (doc_pos, &i) in order.iter().enumerate() {
        let v = &view.nodes[i];
        if !matches!(v.kind, Kind::Element | Kind::Text) || folded[i] {
            continue;
        }
        let regionish = v.kind == Kind::Element && (v.role == Role::Heading || v.role == Role::Iframe || (v.role.is_landmark()));
        let class = if v.focused {
            0
        } else if v.in_viewport && v.actionable {
            1
        } else if regionish && run[i] != RunPos::Middle {
            2
        } else if v.in_viewport {
            3
        } else if run[i] == RunPos::Edge {
            4
        } else if region[i] == 1 && (!v.actionable || run[i] == RunPos::None) {
            // A reader's order: the article's text (its paragraphs form a run too) before
            // the page's repeated chrome, nearest the viewport first.
            5
        } else if run[i] == RunPos::None && v.actionable && region[i] != 2 {
            6
        } else if run[i] == RunPos::None {
            7
        } else {
            8
        };
        // Off-screen nodes nearest the viewport first; in-viewport ones in document order.
        let dist = if v.in_viewport { 0 } else { distance(view, tree, i) };
        let key = match paged {
            Some((from, _)) if doc_pos < from => continue,
            Some(_) => doc_pos as u64,
            None => (class as u64) << 60 | dist.min((1 << 38) - 1) << 21 | (doc_pos as u64).min((1 << 21) - 1),
        };
        cands.push((key, i));
    }
    crate::order::sort_keyed(&mut cands);

    // Greedy fit with ancestor closure, per budget (main / frames).
    let mut selected = vec![false; n];
    let mut used = [(0usize, 0usize, 0usize); 2]; // (chars, nodes, text chars)
    let limits = [main_budget, frame_budget];
    // Leave room for note lines and the closing line; the exact fit happens below.
    let reserve = |b: &Budget| b.chars / crate::budget::NOTE_RESERVE_SHARE + crate::budget::NOTE_RESERVE_CHARS;
    let mut added_order: Vec<usize> = Vec::new();
    // Each node's line cost, computed once: (chars, is page text).
    let mut line_costs: Vec<Option<(usize, bool)>> = vec![None; n];
    for &(_, i) in &cands {
        if selected[i] {
            continue;
        }
        let slot = usize::from(view.nodes[i].frame != main_frame);
        let lim = limits[slot];
        let mut chain = vec![i];
        let mut p = parents[i];
        while p != usize::MAX && p != view.root && !selected[p] {
            if view.nodes[p].kind == Kind::Element {
                chain.push(p);
            }
            p = parents[p];
        }
        let mut cost = 0;
        let mut text_cost = 0;
        for &c in &chain {
            let (lc, is_text) = *line_costs[c].get_or_insert_with(|| {
                let v = &view.nodes[c];
                (line_cost(&body(v, tree), depth[c], v.actionable), v.kind == Kind::Text || v.inline_text.is_some())
            });
            cost += lc;
            if is_text {
                text_cost += lc;
            }
        }
        let (uc, un, ut) = used[slot];
        if uc + cost + reserve(&lim) > lim.chars || un + chain.len() > lim.nodes || (text_cost > 0 && ut + text_cost > lim.text_chars) {
            // A page is a stretch of the document without gaps: it ends at the first misfit.
            if paged.is_some() {
                break;
            }
            continue;
        }
        used[slot] = (uc + cost, un + chain.len(), ut + text_cost);
        for &c in chain.iter().rev() {
            selected[c] = true;
            added_order.push(c);
        }
    }

    // Exact fit: render, and drop the last-added leaves until the text is within budget.
    // A page's closing line is fitted in its longer form ("…; more: page N").
    let summary_of = |selected: &[bool]| {
        let (line, stats) = closing_line(view, selected, &folded, main_frame, tree.behind_modal);
        match paged {
            Some((_, k)) => (Some(format!("- note: page {k}; more: page {}", k + 1)), stats),
            None => (line, stats),
        }
    };
    let mut rendered = render(view, tree, &selected, labels);
    let mut summary = summary_of(&selected);
    while crate::text::char_len(&rendered.state) + summary.0.as_ref().map(|l| crate::text::char_len(&l) + 1).unwrap_or(0) > budget.chars {
        let mut removed = 0;
        while removed < 4 {
            let Some(i) = added_order.pop() else { break };
            if view.nodes[i].children.iter().all(|&c| !selected[c]) {
                selected[i] = false;
                removed += 1;
            } else {
                // Still has selected children: put it back below its children's turn.
                added_order.insert(0, i);
                if added_order.iter().all(|&x| !selected[x]) {
                    break;
                }
            }
        }
        if removed == 0 {
            break;
        }
        rendered = render(view, tree, &selected, labels);
        summary = summary_of(&selected);
    }
    let (mut line, mut stats) = summary;
    if let Some((_, k)) = paged {
        let last = order.iter().rposition(|&i| selected[i]).unwrap_or(0);
        stats.truncated = order[last + 1..].iter().any(|&i| matches!(view.nodes[i].kind, Kind::Element | Kind::Text));
        if !stats.truncated {
            line = Some(format!("- note: page {k}, the last"));
        }
    }
    if let Some(line) = line {
        if !rendered.state.is_empty() {
            rendered.state.push('\n');
        }
        rendered.state.push_str(&line);
        rendered.lines += line.lines().count();
    }
    Selection { selected, rendered, ..stats }
}

/// The options a collapsed list box folds away, whatever the budget: of all but its first
/// `OPTIONS_SHOWN - 2`, its last two and the selected one, each run of at least `RUN_MIN`
/// (and what is inside them). The rest is a `note: N more options … [more=…]` line; a read scoped to the list box
/// itself shows every option. (Admin forms repeat a 15-option function list on every row and a
/// 40-option row count; a country list has 250.)
fn folded_options(view: &View, tree: &Tree) -> Vec<bool> {
    let mut folded = vec![false; view.nodes.len()];
    for v in &view.nodes {
        let Some(src) = v.src else { continue };
        if v.kind != Kind::Element || v.role != Role::ComboBox || tree.nodes[src].states.expanded != Some(false) || tree.scope.as_ref().is_some_and(|s| s.contains(&src)) {
            continue;
        }
        // Its options, also through the wrappers the view folds (Chromium's popup, an optgroup).
        let mut options = Vec::new();
        let mut stack: Vec<usize> = v.children.iter().rev().copied().collect();
        while let Some(c) = stack.pop() {
            let n = &view.nodes[c];
            if n.kind == Kind::Element && n.role == Role::Option {
                options.push(c);
            } else if n.kind == Kind::Group || (n.kind == Kind::Element && matches!(n.role, Role::Group | Role::ListBox)) {
                stack.extend(n.children.iter().rev().copied());
            }
        }
        // Kept: the first ones, the last two, the selected one; a run of the others is folded
        // when it is at least `RUN_MIN` long (a note costs a line).
        let head = crate::budget::OPTIONS_SHOWN - 2;
        let kept = |k: usize| k < head || k + 2 >= options.len() || view.nodes[options[k]].src.is_some_and(|s| tree.nodes[s].states.selected);
        let mut k = 0;
        while k < options.len() {
            let end = (k..options.len()).find(|&e| kept(e)).unwrap_or(options.len());
            if end - k >= RUN_MIN {
                for &o in &options[k..end] {
                    let mut stack = vec![o];
                    while let Some(x) = stack.pop() {
                        folded[x] = true;
                        stack.extend(view.nodes[x].children.iter().copied());
                    }
                }
            }
            k = end.max(k + 1);
        }
    }
    folded
}

/// Marks runs of at least `RUN_MIN` similar consecutive children of `parent`.
fn mark_runs(view: &View, parent: usize, run: &mut [RunPos]) {
    let children = &view.nodes[parent].children;
    let sig = |c: usize| -> (Kind, Option<Role>) {
        let v = &view.nodes[c];
        match v.kind {
            Kind::Element => (Kind::Element, Some(v.role)),
            k => (k, None),
        }
    };
    let mut start = 0;
    while start < children.len() {
        let s = sig(children[start]);
        let mut end = start + 1;
        while end < children.len() && sig(children[end]) == s {
            end += 1;
        }
        let len = end - start;
        if len >= RUN_MIN && s.0 != Kind::Warning {
            for (k, &c) in children[start..end].iter().enumerate() {
                let pos = if k < RUN_EDGE || k >= len - RUN_EDGE { RunPos::Edge } else { RunPos::Middle };
                // A run nested inside a run's middle stays middle.
                run[c] = run[c].max(pos);
            }
        }
        start = end;
    }
}

/// Pixels from the viewport to the node (or its nearest ancestor with bounds).
fn distance(view: &View, tree: &Tree, i: usize) -> u64 {
    let v = &view.nodes[i];
    let Some(src) = v.src else { return u32::MAX as u64 };
    let viewport = tree.viewport;
    match tree.nodes[src].bounds {
        Some(b) => b.distance(&viewport).min(u32::MAX as f64) as u64,
        None => u32::MAX as u64,
    }
}

/// The state of a page that shows nothing yet.
pub const EMPTY_PAGE_NOTE: &str = "- note: the page shows nothing yet (still loading or rendering?); browser_wait_for text, then read again";

/// The closing `- note: truncated …` line, and the counts behind it.
fn closing_line(view: &View, selected: &[bool], folded: &[bool], main_frame: usize, behind_modal: usize) -> (Option<String>, Selection) {
    let mut s = Selection {
        selected: Vec::new(),
        rendered: Rendered { state: String::new(), refs: Vec::new(), lines: 0 },
        total: 0,
        omitted_elements: 0,
        omitted_text: 0,
        omitted_main: 0,
        omitted_frames: 0,
        omitted_offscreen: 0,
        truncated: false,
    };
    for i in view.preorder() {
        let v = &view.nodes[i];
        if !matches!(v.kind, Kind::Element | Kind::Text) {
            continue;
        }
        s.total += 1;
        // (Folded options are said by their list box's own note.)
        if selected[i] || folded[i] {
            continue;
        }
        if v.kind == Kind::Text {
            s.omitted_text += 1;
        } else {
            s.omitted_elements += 1;
        }
        if v.frame == main_frame {
            s.omitted_main += 1;
        } else {
            s.omitted_frames += 1;
        }
        if !v.in_viewport {
            s.omitted_offscreen += 1;
        }
    }
    s.truncated = s.omitted_elements > 0;
    let omitted = s.omitted_elements + s.omitted_text;
    // An open modal dialog hides the page from the tree: never silently.
    let modal = (behind_modal > 0).then(|| format!("- note: a modal dialog is open; {behind_modal} elements behind it are not shown"));
    if s.total == 0 && modal.is_none() {
        // Nothing visible at all: a client-rendered app still booting reads so, and so does a
        // blank page. Never an empty answer a model takes for the page's content.
        return (Some(EMPTY_PAGE_NOTE.to_string()), s);
    }
    if omitted == 0 {
        return (modal, s);
    }
    let mut line = modal.map(|m| m + "\n").unwrap_or_default();
    line.push_str(&format!("- note: {} of {} nodes not shown (main {}", omitted, s.total, s.omitted_main));
    if s.omitted_frames > 0 {
        line.push_str(&format!(", iframes {}", s.omitted_frames));
    }
    line.push_str(&format!("; {} off-screen); reach them with browser_find", s.omitted_offscreen));
    (Some(line), s)
}
