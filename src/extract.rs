//! `browser_extract`: the page's main content as Markdown or plain text. Main content is
//! found readability-style (paragraph scores bubbled up to their containers, weighed by
//! link density and boilerplate hints), not the whole body with its navigation.
//!
//! Owns: main-content detection and the Markdown/text rendering of a DOM walk.
//! Must never: emit a form field's value, hidden or template content, a secret-bearing URL
//! parameter, or more than the (clamped) character budget.

use crate::budget::{EXTRACT_DEFAULT_CHARS, EXTRACT_MAX_CHARS, HREF_CHARS, MIN_CHARS, NODE_TEXT_CHARS, TAB_URL_CHARS};
use crate::input::PageWalk;
use crate::redact;
use crate::text::{capped, cut, fold_whitespace};
use crate::walk_view::WalkView;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Text,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Extract {
    pub title: String,
    pub url: String,
    pub format: &'static str,
    /// `main` (detected main content), `selector` (the caller's scope) or `body`.
    pub scope: &'static str,
    pub content: String,
    pub char_count: usize,
    /// Characters of the whole rendered content before the budget.
    pub total_chars: usize,
    pub truncated: bool,
}

/// Options of `browser_extract` (`{maxChars, format}`; format `markdown` or `text`).
#[derive(Debug, Clone, Default)]
pub struct ExtractOptions {
    pub max_chars: Option<u64>,
    pub format: Option<String>,
}

/// Clamps the caller's `maxChars` to `[MIN_CHARS, EXTRACT_MAX_CHARS]`; default 12,000.
pub fn budget(max_chars: Option<u64>) -> usize {
    max_chars.map_or(EXTRACT_DEFAULT_CHARS, |v| (v.min(EXTRACT_MAX_CHARS as u64) as usize).max(MIN_CHARS))
}

pub fn extract(page: &PageWalk, format: Format, max_chars: usize) -> Extract {
    let main = page.frames.iter().find(|f| f.frame_id == 0).or(page.frames.first());
    let nodes = main.map(|f| f.nodes.as_slice()).unwrap_or(&[]);
    let view = WalkView::new(nodes);
    let scoped = page.scope_index.and_then(|i| usize::try_from(i).ok()).filter(|&i| i < nodes.len());
    let (roots, scope) = match scoped {
        Some(s) => (vec![s], "selector"),
        None => match main_content(&view) {
            Some(roots) => (roots, "main"),
            None => (body(&view).into_iter().collect(), "body"),
        },
    };
    let mut r = Renderer { view: &view, format, out: String::new(), skip_boilerplate: scoped.is_none(), list_depth: 0 };
    for root in roots {
        r.block(root, "");
    }
    let full = tidy(&r.out);
    let total_chars = crate::text::char_len(&full);
    let content = if total_chars > max_chars { cut_at_block(&full, max_chars) } else { full };
    Extract {
        title: capped(&page.title, NODE_TEXT_CHARS),
        url: capped(&redact::url(&page.url), TAB_URL_CHARS),
        format: if format == Format::Markdown { "markdown" } else { "text" },
        scope,
        char_count: crate::text::char_len(&content),
        total_chars,
        truncated: total_chars > max_chars,
        content,
    }
}

fn body(view: &WalkView<'_>) -> Option<usize> {
    (0..view.nodes.len()).find(|&i| view.nodes[i].tag == "body").or(view.roots.first().copied())
}

const BLOCK_TAGS: [&str; 36] = [
    "p", "div", "section", "article", "main", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "pre", "blockquote",
    "table", "tr", "td", "th", "thead", "tbody", "tfoot", "figure", "figcaption", "dl", "dt", "dd", "hr", "header",
    "footer", "nav", "aside", "form", "details", "address",
];

/// Never content: controls, media and UI chrome.
const SKIPPED_TAGS: [&str; 12] =
    ["input", "textarea", "select", "button", "svg", "canvas", "video", "audio", "iframe", "frame", "object", "dialog"];

/// Containers that are page chrome, not the main content.
const BOILERPLATE_TAGS: [&str; 4] = ["nav", "header", "footer", "aside"];
const BOILERPLATE_ROLES: [&str; 6] = ["navigation", "banner", "contentinfo", "complementary", "search", "dialog"];
const NEGATIVE_HINTS: [&str; 18] = [
    "comment", "sidebar", "footer", "masthead", "menu", "nav", "share", "social", "promo", "related", "advert",
    "cookie", "banner", "breadcrumb", "subscribe", "newsletter", "popup", "modal",
];
const POSITIVE_HINTS: [&str; 8] = ["article", "content", "main", "post", "entry", "story", "body", "text"];

fn hints(view: &WalkView<'_>, i: usize) -> String {
    let mut s = String::new();
    for a in ["class", "id"] {
        if let Some(v) = view.attr(i, a) {
            s.push(' ');
            s.push_str(&v.to_ascii_lowercase());
        }
    }
    s
}

fn is_boilerplate(view: &WalkView<'_>, i: usize) -> bool {
    let n = &view.nodes[i];
    if BOILERPLATE_TAGS.contains(&n.tag.as_str()) || view.attr(i, "role").is_some_and(|r| BOILERPLATE_ROLES.contains(&r)) {
        return true;
    }
    if view.attr(i, "aria-hidden") == Some("true") {
        return true;
    }
    let h = hints(view, i);
    NEGATIVE_HINTS.iter().any(|w| h.contains(w)) && !POSITIVE_HINTS.iter().any(|w| h.contains(w))
}

fn is_block(view: &WalkView<'_>, i: usize) -> bool {
    let n = &view.nodes[i];
    BLOCK_TAGS.contains(&n.tag.as_str())
        || n.display.as_deref().is_some_and(|d| !d.starts_with("inline") && d != "contents" && d != "none")
}

/// Readability-style detection: returns the chosen container and its content siblings.
fn main_content(view: &WalkView<'_>) -> Option<Vec<usize>> {
    let n = view.nodes.len();
    let mut excluded = vec![false; n];
    let mut parent = vec![usize::MAX; n];
    for i in 0..n {
        for &c in &view.children[i] {
            parent[c] = i;
            excluded[c] = excluded[i];
        }
        // Children come after parents in the walk, so exclusion flows down in one pass.
        if is_boilerplate(view, i) || view.hidden[i] {
            excluded[i] = true;
            for &c in &view.children[i] {
                excluded[c] = true;
            }
        }
    }
    // Text and link-text lengths per subtree (children come after parents: sum backwards).
    let mut text_len = vec![0usize; n];
    let mut link_len = vec![0usize; n];
    for i in (0..n).rev() {
        if excluded[i] {
            continue;
        }
        if view.nodes[i].tag == "#text" {
            text_len[i] = view.nodes[i].text.as_deref().map_or(0, |t| t.trim().len());
        } else if SKIPPED_TAGS.contains(&view.nodes[i].tag.as_str()) {
            continue;
        }
        if view.nodes[i].tag == "a" {
            link_len[i] = text_len[i];
        }
        if let Some(&p) = parent.get(i).filter(|&&p| p != usize::MAX) {
            text_len[p] += text_len[i];
            link_len[p] += link_len[i];
        }
    }
    let mut score = vec![0f64; n];
    let mut scored = vec![false; n];
    for i in 0..n {
        let tag = view.nodes[i].tag.as_str();
        if excluded[i] || !matches!(tag, "p" | "pre" | "td" | "blockquote" | "li" | "dd") && !(is_block(view, i) && has_direct_text(view, i)) {
            continue;
        }
        let len = text_len[i];
        if len < 25 {
            continue;
        }
        let commas = view.text(i, 2000).matches([',', '，', '、']).count() as f64;
        let s = 1.0 + commas + (len as f64 / 100.0).min(3.0);
        let mut anc = parent[i];
        for level in 0..3 {
            if anc == usize::MAX {
                break;
            }
            if !scored[anc] {
                scored[anc] = true;
                score[anc] = initial_score(view, anc);
            }
            score[anc] += s / [1.0, 2.0, 3.0][level];
            anc = parent[anc];
        }
    }
    let weighted = |i: usize| score[i] * (1.0 - link_len[i] as f64 / text_len[i].max(1) as f64);
    let top = (0..n).filter(|&i| scored[i] && !excluded[i]).max_by(|&a, &b| weighted(a).total_cmp(&weighted(b)))?;
    if weighted(top) < 5.0 {
        return None;
    }
    // Siblings that are content too (a split article, a lead paragraph beside the body).
    let threshold = (weighted(top) * 0.2).max(10.0);
    let Some(&p) = parent.get(top).filter(|&&p| p != usize::MAX) else { return Some(vec![top]) };
    let roots = view.children[p]
        .iter()
        .copied()
        .filter(|&s| {
            s == top
                || !excluded[s] && view.nodes[s].tag != "#text" && ((scored[s] && weighted(s) >= threshold)
                    || (view.nodes[s].tag == "p" && text_len[s] > 80 && link_len[s] * 4 < text_len[s]))
        })
        .collect();
    Some(roots)
}

fn has_direct_text(view: &WalkView<'_>, i: usize) -> bool {
    view.children[i].iter().any(|&c| view.nodes[c].tag == "#text" && view.nodes[c].text.as_deref().is_some_and(|t| t.trim().len() >= 25))
}

fn initial_score(view: &WalkView<'_>, i: usize) -> f64 {
    let tag_score = match view.nodes[i].tag.as_str() {
        "article" | "main" => 10.0,
        "div" | "section" => 5.0,
        "pre" | "td" | "blockquote" => 3.0,
        "ol" | "ul" | "dl" | "dd" | "dt" | "li" | "form" | "address" => -3.0,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "th" => -5.0,
        _ => 0.0,
    };
    let h = hints(view, i);
    let class_score = if POSITIVE_HINTS.iter().any(|w| h.contains(w)) { 25.0 } else { 0.0 }
        - if NEGATIVE_HINTS.iter().any(|w| h.contains(w)) { 25.0 } else { 0.0 };
    tag_score + class_score + if view.attr(i, "role") == Some("main") { 10.0 } else { 0.0 }
}

struct Renderer<'a, 'v> {
    view: &'a WalkView<'v>,
    format: Format,
    out: String,
    skip_boilerplate: bool,
    list_depth: usize,
}

impl Renderer<'_, '_> {
    fn md(&self) -> bool {
        self.format == Format::Markdown
    }

    fn skipped(&self, i: usize) -> bool {
        let v = self.view;
        v.hidden[i] || v.in_field[i] || SKIPPED_TAGS.contains(&v.nodes[i].tag.as_str()) || (self.skip_boilerplate && is_boilerplate(v, i))
    }

    /// Renders a block: inline runs between block children become paragraphs.
    fn block(&mut self, i: usize, prefix: &str) {
        if self.skipped(i) || self.out.len() > EXTRACT_MAX_CHARS * 8 {
            return;
        }
        let v = self.view;
        let tag = v.nodes[i].tag.as_str();
        match tag {
            "#text" => return self.paragraph(v.nodes[i].text.as_deref().unwrap_or(""), prefix),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let level = (tag.as_bytes()[1] - b'0') as usize;
                let text = self.inline_of(i);
                let head = if self.md() { format!("{} {}", "#".repeat(level), text) } else { text };
                return self.paragraph(&head, prefix);
            }
            "pre" => {
                let raw = self.raw_text(i);
                let body = if self.md() { format!("```\n{}\n```", raw.trim_end()) } else { raw.trim_end().to_string() };
                self.out.push_str(&format!("\n\n{}", prefixed(&body, prefix)));
                return;
            }
            "hr" => return self.paragraph(if self.md() { "---" } else { "" }, prefix),
            "tr" => {
                let cells: Vec<String> = v.children[i].iter().filter(|&&c| !self.skipped(c) && matches!(v.nodes[c].tag.as_str(), "td" | "th")).map(|&c| self.inline_of(c).replace('|', "\\|")).collect();
                if !cells.is_empty() {
                    let row = crate::text::join(&mut cells.iter().map(String::as_str), if self.md() { " | " } else { "\t" });
                    let row = if self.md() { format!("| {row} |") } else { row };
                    let first = !self.out.ends_with('|');
                    self.out.push_str(&format!("\n{prefix}{row}"));
                    if first && self.md() {
                        self.out.push_str(&format!("\n{prefix}|{}", " --- |".repeat(cells.len())));
                    }
                }
                return;
            }
            "table" => self.out.push('\n'),
            _ => {}
        }
        let (child_prefix, item) = match tag {
            "blockquote" if self.md() => (format!("{prefix}> "), None),
            "ul" | "ol" => {
                self.list_depth += 1;
                (prefix.to_string(), None)
            }
            "li" => {
                let ordered = self.view.nodes.get(self.parent_of(i)).is_some_and(|p| p.tag == "ol");
                let indent = "  ".repeat(self.list_depth.saturating_sub(1));
                (format!("{prefix}{indent}"), Some(if ordered { "1. " } else { "- " }))
            }
            _ => (prefix.to_string(), None),
        };
        let mut run = String::new();
        let mut bullet = item;
        for &c in &v.children[i] {
            if self.skipped(c) {
                continue;
            }
            if v.nodes[c].tag != "#text" && is_block(v, c) {
                self.flush(&mut run, &child_prefix, &mut bullet);
                if let Some(b) = bullet.take() {
                    self.out.push_str(&format!("\n{child_prefix}{b}"));
                }
                self.block(c, &child_prefix);
            } else {
                self.inline(c, &mut run);
            }
        }
        self.flush(&mut run, &child_prefix, &mut bullet);
        if matches!(tag, "ul" | "ol") {
            self.list_depth -= 1;
        }
    }

    fn parent_of(&self, i: usize) -> usize {
        usize::try_from(self.view.nodes[i].parent).unwrap_or(usize::MAX)
    }

    fn flush(&mut self, run: &mut String, prefix: &str, bullet: &mut Option<&'static str>) {
        let text = fold_whitespace(run);
        run.clear();
        if text.is_empty() {
            return;
        }
        match bullet.take() {
            Some(b) => self.out.push_str(&format!("\n{prefix}{b}{text}")),
            None => self.paragraph(&text, prefix),
        }
    }

    fn paragraph(&mut self, text: &str, prefix: &str) {
        let text = fold_whitespace(text);
        if !text.is_empty() {
            let sep = if self.list_depth > 0 { "\n" } else { "\n\n" };
            self.out.push_str(&format!("{sep}{prefix}{text}"));
        }
    }

    fn inline_of(&self, i: usize) -> String {
        let mut s = String::new();
        for &c in &self.view.children[i] {
            self.inline(c, &mut s);
        }
        fold_whitespace(&s)
    }

    fn inline(&self, i: usize, out: &mut String) {
        if self.skipped(i) || out.len() > EXTRACT_MAX_CHARS * 4 {
            return;
        }
        let v = self.view;
        let n = &v.nodes[i];
        if n.tag == "#text" {
            out.push_str(n.text.as_deref().unwrap_or(""));
            return;
        }
        let md = self.md();
        match n.tag.as_str() {
            "br" => out.push('\n'),
            "a" if md => {
                let text = self.inline_of(i);
                match v.attr(i, "href").filter(|h| !h.starts_with("javascript:") && !h.starts_with('#')) {
                    Some(h) if !text.is_empty() => out.push_str(&format!("[{text}]({})", capped(&redact::url(h), HREF_CHARS))),
                    _ => out.push_str(&text),
                }
            }
            "strong" | "b" if md => wrap(out, "**", &self.inline_of(i)),
            "em" | "i" if md => wrap(out, "_", &self.inline_of(i)),
            "code" if md => wrap(out, "`", &self.inline_of(i)),
            "img" => {
                if let Some(alt) = v.attr(i, "alt") {
                    out.push_str(&if md { format!("![{}]", capped(alt, NODE_TEXT_CHARS)) } else { capped(alt, NODE_TEXT_CHARS) });
                }
            }
            _ => {
                for &c in &v.children[i] {
                    self.inline(c, out);
                }
            }
        }
    }

    /// Text of a `<pre>` with its whitespace kept.
    fn raw_text(&self, i: usize) -> String {
        let mut s = String::new();
        let mut stack = vec![i];
        while let Some(j) = stack.pop() {
            if self.skipped(j) || s.len() > EXTRACT_MAX_CHARS * 4 {
                continue;
            }
            match self.view.nodes[j].tag.as_str() {
                "#text" => s.push_str(self.view.nodes[j].text.as_deref().unwrap_or("")),
                "br" => s.push('\n'),
                _ => stack.extend(self.view.children[j].iter().rev()),
            }
        }
        s
    }
}

fn wrap(out: &mut String, mark: &str, text: &str) {
    if !text.is_empty() {
        out.push_str(&format!(" {mark}{text}{mark} "));
    }
}

fn prefixed(body: &str, prefix: &str) -> String {
    if prefix.is_empty() {
        return body.to_string();
    }
    let lines: Vec<String> = body.lines().map(|l| format!("{prefix}{l}")).collect();
    crate::text::join(&mut lines.iter().map(String::as_str), "\n")
}

/// Trims each line's end and collapses runs of blank lines.
fn tidy(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut blank = 0;
    for line in s.lines() {
        let line = line.trim_end();
        if line.trim().is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(line);
    }
    out
}

/// Cuts at the last block boundary within `max` characters (else mid-text with `…`).
fn cut_at_block(s: &str, max: usize) -> String {
    let keep = cut(s, max, true);
    match keep.rfind("\n\n") {
        Some(p) if p > keep.len() / 2 => format!("{}\n\n…", &keep[..p]),
        _ => keep,
    }
}
