//! `browser_dom_cua`: the DOM elements a person sees in the viewport right now, one line
//! each, with whitelisted attributes, visible text and viewport coordinates (for agents that
//! act by position).
//!
//! Owns: what counts as a visible element, the line format, and the main/iframe split of
//! the budget. Must never: emit a sensitive value, a hidden or off-viewport element, or an
//! iframe whose parent relation is not verified.

use crate::role::Role;
use crate::budget::{Budget, CUA_ATTR_CHARS, CUA_FRAME_DEPTH, CUA_TEXT_CHARS, HREF_CHARS};
use crate::input::{FrameWalk, PageWalk};
use crate::tree::layout::Rect;
use crate::tree::redact;
use crate::text::capped;
use crate::tree::walk_view::WalkView;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct VisibleDom {
    pub state: String,
    pub node_count: usize,
    pub char_count: usize,
    /// Visible elements found before the budget.
    pub total_nodes: usize,
    /// Iframes whose content is listed.
    #[serde(skip_serializing_if = "is_zero")]
    pub frame_count: usize,
    pub truncated: bool,
}

/// Options of `browser_dom_cua`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct CuaOptions {
    pub max_chars: Option<u64>,
    pub max_nodes: Option<u64>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Attributes shown, in this order.
const SHOWN_ATTRS: [&str; 11] =
    ["id", "name", "type", "role", "href", "placeholder", "aria-label", "title", "alt", "aria-expanded", "aria-selected"];


#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum ItemKind {
    Interactive = 0,
    Heading = 1,
    Content = 2,
}

struct Item {
    line: String,
    kind: ItemKind,
    in_iframe: bool,
}

struct Walker<'a> {
    page: &'a PageWalk,
    items: Vec<Item>,
    expanded: Vec<i64>,
    frame_count: usize,
}

pub fn visible_dom(page: &PageWalk, budget: Budget) -> VisibleDom {
    let mut w = Walker { page, items: Vec::new(), expanded: Vec::new(), frame_count: 0 };
    if let Some(main) = page.frames.iter().find(|f| f.frame_id == 0).or(page.frames.first()) {
        let clip = Rect { x: 0.0, y: 0.0, w: main.viewport.width, h: main.viewport.height };
        let scope = page.scope_index.and_then(|i| usize::try_from(i).ok()).filter(|&i| i < main.nodes.len());
        w.frame(main, (0.0, 0.0), clip, 0, scope);
    }
    let Walker { items, frame_count, .. } = w;
    let with_frames = items.iter().any(|i| i.in_iframe);
    let (main_budget, frame_budget) = if with_frames { budget.split_for_iframes() } else { (budget, Budget { chars: 0, nodes: 0, text_chars: 0 }) };
    // Keep by kind (actions first), then document order, each part within its own share.
    let mut order: Vec<(u64, usize)> = items.iter().enumerate().map(|(i, it)| (it.kind as u64, i)).collect();
    crate::order::sort_keyed(&mut order);
    let mut keep = vec![false; items.len()];
    let (mut used, mut kept) = ([0usize; 2], [0usize; 2]);
    for (_, i) in order {
        let part = items[i].in_iframe as usize;
        let b = if part == 1 { frame_budget } else { main_budget };
        let cost = crate::text::char_len(&items[i].line) + 1;
        if kept[part] < b.nodes && used[part] + cost <= b.chars {
            keep[i] = true;
            kept[part] += 1;
            used[part] += cost;
        }
    }
    let shown = keep.iter().filter(|k| **k).count();
    let state = crate::text::join(&mut items.iter().zip(&keep).filter(|(_, k)| **k).map(|(i, _)| i.line.as_str()), "\n");
    VisibleDom {
        node_count: shown,
        char_count: crate::text::char_len(&state),
        total_nodes: items.len(),
        frame_count,
        truncated: shown < items.len(),
        state,
    }
}

impl<'a> Walker<'a> {
    fn frame(&mut self, frame: &'a FrameWalk, offset: (f64, f64), clip: Rect, depth: usize, scope: Option<usize>) {
        self.expanded.push(frame.frame_id);
        let view = WalkView::new(&frame.nodes);
        let indent = "  ".repeat(depth);
        let mut stack: Vec<(usize, bool)> = match scope {
            Some(s) => vec![(s, false)],
            None => view.roots.iter().rev().map(|&r| (r, false)).collect(),
        };
        // (index, inside an interactive element whose text it already shows)
        while let Some((i, absorbed)) = stack.pop() {
            if view.hidden[i] || view.in_field[i] || frame.nodes[i].tag == "#text" {
                continue;
            }
            let Some(rect) = view.rect(i).map(|r| r.offset(offset.0, offset.1)) else { continue };
            let visible = rect.intersect(&clip).is_some();
            let kind = kind_of(&view, i);
            let is_frame = matches!(frame.nodes[i].tag.as_str(), "iframe" | "frame");
            if visible && is_frame {
                self.iframe(&view, i, rect, clip, depth, &indent);
                continue;
            }
            let absorbs = kind == Some(ItemKind::Interactive);
            if visible {
                let listed = match kind {
                    Some(ItemKind::Interactive) => true,
                    Some(_) => !absorbed,
                    None => false,
                };
                let text = match kind {
                    Some(ItemKind::Interactive) | Some(ItemKind::Heading) => view.text(i, CUA_TEXT_CHARS),
                    _ if !absorbed && lays_out_as_block(&view, i) => own_text(&view, i),
                    _ => String::new(),
                };
                if listed || !text.is_empty() {
                    let line = format!("{indent}{}", line(&view, i, &text, rect));
                    self.items.push(Item { line, kind: kind.unwrap_or(ItemKind::Content), in_iframe: depth > 0 });
                }
            }
            // Children of an off-viewport element may still be visible (overflow, fixed).
            for &c in view.children[i].iter().rev() {
                stack.push((c, absorbed || absorbs));
            }
        }
    }

    fn iframe(&mut self, view: &WalkView<'a>, i: usize, rect: Rect, clip: Rect, depth: usize, indent: &str) {
        let src = view.attr(i, "src").map(|s| crate::tools::tabs::model_url(&redact::url(s)));
        let label = view.attr(i, "title").or(view.attr(i, "name")).map(str::to_string).or(src).unwrap_or_default();
        let head = format!("{indent}iframe{} {}", quoted(&label), at(rect));
        // Verified: exactly one child frame reports the tag sent to this element's window.
        let tag = view.nodes[i].frame_tag.as_deref().filter(|t| !t.is_empty());
        let mut matching = self.page.frames.iter().filter(|f| f.frame_id != 0 && tag.is_some_and(|t| f.tag == t));
        let child = matching.next().filter(|_| matching.next().is_none());
        match child {
            Some(f) if depth < CUA_FRAME_DEPTH && !self.expanded.contains(&f.frame_id) => {
                self.frame_count += 1;
                self.items.push(Item { line: head, kind: ItemKind::Heading, in_iframe: depth > 0 });
                let inner = rect.intersect(&clip).unwrap_or(rect);
                self.frame(f, (rect.x, rect.y), inner, depth + 1, None);
            }
            _ => {
                let line = format!("{head} (not expanded: its document could not be read)");
                self.items.push(Item { line, kind: ItemKind::Heading, in_iframe: depth > 0 });
            }
        }
    }
}

fn kind_of(view: &WalkView<'_>, i: usize) -> Option<ItemKind> {
    let n = &view.nodes[i];
    let role = view.attr(i, "role").and_then(Role::from_aria_attribute);
    let interactive = match n.tag.as_str() {
        "a" => view.attr(i, "href").is_some(),
        "button" | "select" | "textarea" | "summary" => true,
        "input" => !n.attrs.get("type").is_some_and(|t| t.eq_ignore_ascii_case("hidden")),
        _ => false,
    } || role.is_some_and(Role::is_actionable)
        || view.attr(i, "contenteditable").is_some_and(|v| v != "false")
        || view.attr(i, "tabindex").is_some_and(|t| t.parse::<i64>().is_ok_and(|t| t >= 0));
    if interactive {
        return Some(ItemKind::Interactive);
    }
    if crate::role::heading_level(&n.tag).is_some() || role == Some(Role::Heading) {
        return Some(ItemKind::Heading);
    }
    (n.tag == "img" && view.attr(i, "alt").is_some()).then_some(ItemKind::Content)
}

/// Whether the page lays the element out on lines of its own (any display but inline-*;
/// a walk node without styles is inline).
fn lays_out_as_block(view: &WalkView<'_>, i: usize) -> bool {
    !view.nodes[i].display.as_deref().unwrap_or("inline").starts_with("inline")
}

/// Text of a block, without nested blocks and interactive elements (listed on their own).
fn own_text(view: &WalkView<'_>, i: usize) -> String {
    let mut out = String::new();
    let mut stack: Vec<usize> = view.children[i].iter().rev().copied().collect();
    while let Some(j) = stack.pop() {
        if out.len() > CUA_TEXT_CHARS * 4 || view.hidden[j] {
            continue;
        }
        let n = &view.nodes[j];
        if n.tag == "#text" {
            out.push(' ');
            out.push_str(crate::text::byte_prefix(n.text.as_deref().unwrap_or(""), CUA_TEXT_CHARS * 4));
        } else if !lays_out_as_block(view, j) && kind_of(view, j).is_none() {
            stack.extend(view.children[j].iter().rev());
        }
    }
    capped(&out, CUA_TEXT_CHARS)
}

fn sensitive(view: &WalkView<'_>, i: usize) -> bool {
    crate::tree::walk_view::is_sensitive(&view.nodes[i])
}

fn line(view: &WalkView<'_>, i: usize, text: &str, rect: Rect) -> String {
    let n = &view.nodes[i];
    let secret = crate::role::is_field_tag(&n.tag) || view.attr(i, "contenteditable").is_some();
    let secret = secret && sensitive(view, i);
    let mut out = n.tag.clone();
    for a in SHOWN_ATTRS {
        let Some(v) = view.attr(i, a) else { continue };
        let v = if a == "href" { capped(&redact::url(v), HREF_CHARS) } else { capped(v, CUA_ATTR_CHARS) };
        out.push(' ');
        out.push_str(a);
        out.push('=');
        out.push_str(&quote(&v));
    }
    let value = n.value.as_deref().filter(|v| !v.is_empty());
    if let Some(v) = value {
        out.push_str(" value=");
        out.push_str(&if secret { "[redacted]".to_string() } else { quote(&capped(v, CUA_TEXT_CHARS)) });
    }
    if n.checked == Some(true) {
        out.push_str(" checked");
    }
    if n.disabled == Some(true) {
        out.push_str(" disabled");
    }
    if n.focused == Some(true) {
        out.push_str(" focused");
    }
    if !text.is_empty() {
        out.push(' ');
        out.push_str(&if secret { "\"[redacted]\"".to_string() } else { quote(text) });
    }
    out.push(' ');
    out.push_str(&at(rect));
    out
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn quoted(s: &str) -> String {
    if s.is_empty() { String::new() } else { format!(" {}", quote(&capped(s, CUA_ATTR_CHARS))) }
}

/// `@x,y w×h` in whole CSS pixels of the top-level viewport.
fn at(r: Rect) -> String {
    format!("@{},{} {}x{}", r.x.round() as i64, r.y.round() as i64, r.w.round() as i64, r.h.round() as i64)
}
