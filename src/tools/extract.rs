//! `browser_extract`: the page's main content as Markdown or plain text, one page of it
//! at a time. What the main content is was decided in the page: the article Mozilla
//! Readability found (`PageWalk::article`), else the caller's selector, else the body
//! without its landmarks of page chrome.
//!
//! Owns: the Markdown/text rendering of a walk, its paging (`offset` → `nextOffset`), the
//! article's metadata in the header, and saying why a result is empty.
//! Must never: emit a form field's value, hidden or template content, a secret-bearing URL
//! parameter, or more than the (clamped) character budget; never call an empty result
//! complete without a `hint`.

use crate::role::Role;
use crate::budget::{EXTRACT_CELL_CHARS, EXTRACT_DEFAULT_CHARS, EXTRACT_MAX_CHARS, EXTRACT_TINY_CHARS, HREF_CHARS, MIN_CHARS, NODE_TEXT_CHARS, TAB_URL_CHARS};
use crate::input::PageWalk;
use crate::tree::redact;
use crate::text::{capped, char_len, fold_whitespace};
use crate::tree::walk_view::WalkView;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Text,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Extract {
    pub title: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub byline: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub published: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    pub url: String,
    pub format: &'static str,
    /// `article` (Readability's), `selector` (the caller's scope) or `body`.
    pub scope: &'static str,
    pub content: String,
    pub char_count: usize,
    /// Characters of the whole rendered content, all pages.
    pub total_chars: usize,
    /// Where `content` starts in the whole content (absent at 0).
    #[serde(skip_serializing_if = "is_zero")]
    pub offset: usize,
    /// Where the next page starts; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<usize>,
    /// Why the content is empty, and the call that helps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<&'static str>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Options of `browser_extract` (`{maxChars, format, offset}`; format `markdown` or `text`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ExtractOptions {
    pub max_chars: Option<u64>,
    pub format: Option<String>,
    pub offset: Option<u64>,
}

/// Clamps the caller's `maxChars` to `[MIN_CHARS, EXTRACT_MAX_CHARS]`; default 12,000.
pub fn budget(max_chars: Option<u64>) -> usize {
    max_chars.map_or(EXTRACT_DEFAULT_CHARS, |v| (v.min(EXTRACT_MAX_CHARS as u64) as usize).max(MIN_CHARS))
}

pub fn extract(page: &PageWalk, format: Format, max_chars: usize, offset: usize) -> Extract {
    let main = page.frames.iter().find(|f| f.frame_id == 0).or(page.frames.first());
    let nodes = main.map(|f| f.nodes.as_slice()).unwrap_or(&[]);
    let view = WalkView::new(nodes);
    let scoped = page.scope_index.and_then(|i| usize::try_from(i).ok()).filter(|&i| i < nodes.len());
    let (roots, scope) = match (scoped, &page.article) {
        (Some(s), _) => (vec![s], "selector"),
        (None, Some(_)) => (view.roots.clone(), "article"),
        (None, None) => (body(&view).into_iter().collect(), "body"),
    };
    let mut r = Renderer { view: &view, format, out: String::new(), skip_chrome: scope == "body", list_depth: 0 };
    for root in roots {
        r.block(root, "");
    }
    let full = tidy(&r.out);
    let total_chars = char_len(&full);
    let (content, next_offset) = page_of(&full, offset, max_chars);
    let hint = match () {
        _ if offset > 0 && content.is_empty() && total_chars > 0 => Some("offset is past the end of the content: start again at offset 0"),
        _ if total_chars < EXTRACT_TINY_CHARS => Some("little or no readable text here: browser_snapshot shows the page's controls, browser_find searches it"),
        _ => None,
    };
    let meta = page.article.clone().unwrap_or_default();
    let bounded = |v: Option<String>| v.map(|s| capped(&s, NODE_TEXT_CHARS)).filter(|s| !s.is_empty());
    Extract {
        title: capped(&page.title, NODE_TEXT_CHARS),
        byline: bounded(meta.byline),
        site: bounded(meta.site),
        published: bounded(meta.published),
        lang: bounded(meta.lang),
        url: capped(&redact::url(&page.url), TAB_URL_CHARS),
        format: if format == Format::Markdown { "markdown" } else { "text" },
        scope,
        char_count: char_len(&content),
        total_chars,
        offset,
        next_offset,
        hint,
        content,
    }
}

/// The part of `full` from character `offset` within `max` characters, cut at the last
/// block boundary in its second half (else at `max`), and where the next part starts.
fn page_of(full: &str, offset: usize, max: usize) -> (String, Option<usize>) {
    let rest: &str = full.char_indices().nth(offset).map_or("", |(b, _)| &full[b..]);
    let rest_chars = char_len(rest);
    if rest_chars <= max {
        return (rest.to_string(), None);
    }
    let end = rest.char_indices().nth(max).map_or(rest.len(), |(b, _)| b);
    let keep = &rest[..end];
    // A blank line, else a line end, else a space in the second half; else mid-word.
    let cut = ["\n\n", "\n", " "].iter().filter_map(|sep| keep.rfind(sep)).find(|&p| p > keep.len() / 2).unwrap_or(end);
    // The next part starts after the separator at the cut (an indented line keeps its indent).
    let after = &rest[cut..];
    let gap = after.len() - if after.starts_with('\n') { after.trim_start_matches('\n') } else { after.trim_start_matches(' ') }.len();
    let next = offset + char_len(&rest[..cut + gap]);
    (rest[..cut].trim_end().to_string(), Some(next))
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

/// Landmarks of page chrome, left out of a whole-body extract (never the body itself).
const CHROME_TAGS: [&str; 4] = ["nav", "header", "footer", "aside"];

fn is_chrome(view: &WalkView<'_>, i: usize) -> bool {
    CHROME_TAGS.contains(&view.nodes[i].tag.as_str())
        || view.attr(i, "role").and_then(Role::from_aria_attribute).is_some_and(|r| {
            matches!(r, Role::Navigation | Role::Banner | Role::ContentInfo | Role::Complementary | Role::Search | Role::Dialog)
        })
        || view.attr(i, "aria-hidden") == Some("true")
}

/// A Markdown block: a block tag, or an element the page lays out as a block (the article
/// walk of a clone may lack styles, so tags decide first).
fn is_markdown_block(view: &WalkView<'_>, i: usize) -> bool {
    let n = &view.nodes[i];
    BLOCK_TAGS.contains(&n.tag.as_str())
        || n.display.as_deref().is_some_and(|d| !d.starts_with("inline") && d != "contents" && d != "none")
}

struct Renderer<'a, 'v> {
    view: &'a WalkView<'v>,
    format: Format,
    out: String,
    skip_chrome: bool,
    list_depth: usize,
}

impl Renderer<'_, '_> {
    fn md(&self) -> bool {
        self.format == Format::Markdown
    }

    fn skipped(&self, i: usize) -> bool {
        let v = self.view;
        v.hidden[i] || v.in_field[i] || SKIPPED_TAGS.contains(&v.nodes[i].tag.as_str()) || (self.skip_chrome && is_chrome(v, i))
    }

    /// Renders a block: inline runs between block children become paragraphs.
    fn block(&mut self, i: usize, prefix: &str) {
        if self.skipped(i) || self.out.len() > EXTRACT_MAX_CHARS * 8 {
            return;
        }
        let v = self.view;
        let tag = v.nodes[i].tag.as_str();
        if let Some(level) = crate::role::heading_level(tag) {
            let text = self.inline_of(i);
            let head = if self.md() { format!("{} {}", "#".repeat(level), text) } else { text };
            return self.paragraph(&head, prefix);
        }
        match tag {
            "#text" => return self.paragraph(v.nodes[i].text.as_deref().unwrap_or(""), prefix),
            "pre" => {
                let raw = self.raw_text(i);
                let body = if self.md() { format!("```\n{}\n```", raw.trim_end()) } else { raw.trim_end().to_string() };
                self.out.push_str(&format!("\n\n{}", prefixed(&body, prefix)));
                return;
            }
            "hr" => return self.paragraph(if self.md() { "---" } else { "" }, prefix),
            "tr" => {
                let ids: Vec<usize> = v.children[i].iter().copied().filter(|&c| !self.skipped(c) && matches!(v.nodes[c].tag.as_str(), "td" | "th")).collect();
                let cells: Vec<String> = ids.iter().map(|&c| self.inline_of(c).replace('|', "\\|")).collect();
                // A row with a cell longer than a table cell is layout: its cells are blocks.
                if cells.iter().any(|c| char_len(c) > EXTRACT_CELL_CHARS) {
                    return ids.into_iter().for_each(|c| self.block(c, prefix));
                }
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
                let parent = self.parent_of(i);
                let indent = "  ".repeat(self.list_depth.saturating_sub(1));
                // An ordered item says its number (the model reads the Markdown, not a renderer).
                let bullet = match self.view.nodes.get(parent) {
                    Some(p) if p.tag == "ol" => {
                        let n = self.view.children[parent].iter().take_while(|&&c| c != i).filter(|&&c| self.view.nodes[c].tag == "li").count();
                        format!("{}. ", n + 1)
                    }
                    _ => "- ".to_string(),
                };
                (format!("{prefix}{indent}"), Some(bullet))
            }
            _ => (prefix.to_string(), None),
        };
        let mut run = String::new();
        let mut bullet = item;
        for &c in &v.children[i] {
            if self.skipped(c) {
                continue;
            }
            if v.nodes[c].tag != "#text" && is_markdown_block(v, c) {
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

    fn flush(&mut self, run: &mut String, prefix: &str, bullet: &mut Option<String>) {
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
        // The walk drops whitespace-only text and marks its neighbours: it is still a space.
        if n.ws_before {
            out.push(' ');
        }
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
                    // Set apart: an image's text is never glued to the words beside it.
                    out.push_str(&if md { format!(" ![{}] ", capped(alt, NODE_TEXT_CHARS)) } else { format!(" {} ", capped(alt, NODE_TEXT_CHARS)) });
                }
            }
            _ => {
                for &c in &v.children[i] {
                    self.inline(c, out);
                }
            }
        }
        if n.ws_end {
            out.push(' ');
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// A page from `(parent, tag, text-or-attrs)` triples; `article` marks Readability's walk.
    fn page(nodes: &[(i64, &str, Value)], article: Option<Value>) -> PageWalk {
        let nodes: Vec<Value> = nodes
            .iter()
            .map(|(parent, tag, x)| match x {
                Value::String(t) => json!({"parent": parent, "tag": tag, "text": t}),
                attrs => json!({"parent": parent, "tag": tag, "attrs": attrs}),
            })
            .collect();
        let mut v = json!({"url": "https://example.com/a?token=SECRET1", "title": "T", "frames": [{"frameId": 0, "nodes": nodes}]});
        if let Some(a) = article {
            v["article"] = a;
        }
        crate::input::decode_page_walk(&v.to_string()).unwrap()
    }

    fn check(p: &PageWalk, max: usize, offset: usize, expect: Value) {
        let got = serde_json::to_value(extract(p, Format::Markdown, max, offset)).unwrap();
        for (k, want) in expect.as_object().unwrap() {
            assert_eq!(&got[k], want, "{k} in {got:#}");
        }
    }

    fn paragraphs(n: usize) -> Vec<(i64, &'static str, Value)> {
        let mut v = vec![(-1, "div", json!({}))];
        for i in 0..n {
            v.push((0, "p", json!({})));
            v.push(((v.len() - 1) as i64, "#text", json!(format!("Paragraph {i} of the article, with enough words to be a block."))));
        }
        v
    }

    #[test]
    fn an_article_is_rendered_with_its_metadata() {
        let p = page(&[(-1, "div", json!({})), (0, "h2", json!({})), (1, "#text", json!("Head")), (0, "p", json!({})), (3, "#text", json!("Body text."))],
            Some(json!({"byline": "Ann Author", "site": "Example", "published": "2024-01-02", "lang": "en"})));
        check(&p, 12_000, 0, json!({"scope": "article", "content": "## Head\n\nBody text.", "byline": "Ann Author", "site": "Example", "published": "2024-01-02", "lang": "en", "url": "https://example.com/a?token=[redacted]"}));
    }

    #[test]
    fn a_body_whose_class_names_a_footer_or_sidebar_is_still_content() {
        let p = page(&[(-1, "body", json!({"class": "feature-footer-v2 no-sidebars"})), (0, "div", json!({"class": "i-nav_drawer"})), (1, "#text", json!("Story text."))], None);
        check(&p, 12_000, 0, json!({"scope": "body", "content": "Story text."}));
    }

    #[test]
    fn a_body_extract_leaves_out_navigation_landmarks() {
        let p = page(&[(-1, "body", json!({})), (0, "nav", json!({})), (1, "#text", json!("Home About")), (0, "p", json!({})), (3, "#text", json!("Story text."))], None);
        check(&p, 12_000, 0, json!({"content": "Story text."}));
    }

    #[test]
    fn whitespace_the_walk_dropped_between_inline_elements_is_a_space() {
        let mut p = page(&[(-1, "body", json!({})), (0, "p", json!({})), (1, "a", json!({})), (2, "#text", json!("one")), (1, "b", json!({})), (4, "#text", json!("two")), (1, "#text", json!("three"))], None);
        p.frames[0].nodes[4].ws_before = true;
        p.frames[0].nodes[4].ws_end = true;
        let got = extract(&p, Format::Text, 12_000, 0);
        assert_eq!(got.content, "one two three");
    }

    #[test]
    fn an_empty_result_says_why_and_what_to_call() {
        let p = page(&[(-1, "body", json!({}))], None);
        let got = extract(&p, Format::Text, 12_000, 0);
        assert_eq!((got.content.as_str(), got.char_count), ("", 0));
        assert!(got.hint.is_some_and(|h| h.contains("browser_snapshot")));
    }

    #[test]
    fn a_data_row_is_a_markdown_row_and_a_layout_row_is_text() {
        let row = |first: &str| page(&[(-1, "table", json!({})), (0, "tr", json!({})), (1, "td", json!({})), (2, "#text", json!(first)), (1, "td", json!({})), (4, "#text", json!("b"))], Some(json!({})));
        assert_eq!(extract(&row("a"), Format::Markdown, 12_000, 0).content, "| a | b |\n| --- | --- |");
        let long = "word ".repeat(70);
        assert_eq!(extract(&row(&long), Format::Markdown, 12_000, 0).content, format!("{}\n\nb", long.trim()));
    }

    #[test]
    fn an_offset_past_the_end_says_so() {
        let p = page(&paragraphs(3), Some(json!({})));
        check(&p, 12_000, 100_000, json!({"content": "", "hint": "offset is past the end of the content: start again at offset 0"}));
    }

    #[test]
    fn pages_cut_between_blocks_and_together_are_the_whole_content() {
        let p = page(&paragraphs(60), Some(json!({})));
        let whole = extract(&p, Format::Text, 100_000, 0);
        assert!(whole.next_offset.is_none() && whole.total_chars > 3_000);
        let (mut offset, mut parts) = (0, Vec::new());
        while parts.len() < 50 {
            let part = extract(&p, Format::Text, 1_000, offset);
            assert!(part.char_count <= 1_000 && part.content.ends_with("block."), "{}", part.content);
            assert_eq!(part.total_chars, whole.total_chars);
            parts.push(part.content);
            match part.next_offset {
                Some(n) => offset = n,
                None => break,
            }
        }
        assert!(parts.len() > 3);
        assert_eq!(parts.join("\n\n"), whole.content);
    }
}
