//! How a link's URL is shown to the model: same-origin links as paths, tracking parameters
//! dropped, secret parameters redacted, the query most of a frame's links start with shown once
//! (the frame's base) and as `…` in each, the length capped. Hrefs are a large share of a real
//! page's state; every character here is paid on every read.
//!
//! Owns: the shown form of an `href` and a frame's base. Must never: show a secret parameter's
//! value, a `javascript:` / `data:` / `vbscript:` URL, more than `HREF_CHARS` characters, or a
//! `…` whose base the state does not name.

use crate::budget::HREF_CHARS;
use crate::tree::redact;
use crate::text::capped;

/// Query parameters that only track the click (dropped with their value).
const TRACKING: [&str; 16] = [
    "fbclid", "gclid", "gbraid", "wbraid", "dclid", "msclkid", "mc_cid", "mc_eid", "_ga", "_gl", "yclid",
    "igshid", "ref_src", "__twitter_impression", "_hsenc", "_hsmi",
];

/// The href as a line shows it, or `None` when it must not be shown (script and data URLs):
/// `base` (the frame's, see `set_bases`) shown as `…`.
pub fn display(href: &str, page_url: &str, base: Option<&str>) -> Option<String> {
    let shown = full_form(href, page_url)?;
    let shown = match base {
        Some(b) if shown.len() > b.len() && shown.starts_with(b) => format!("…{}", &shown[b.len()..]),
        _ => shown,
    };
    Some(capped(&shown, HREF_CHARS))
}

/// The href redacted, tracking parameters dropped, same-origin as a path, not capped.
fn full_form(href: &str, page_url: &str) -> Option<String> {
    let h = href.trim();
    let lower = h.get(..11.min(h.len())).unwrap_or("").to_ascii_lowercase();
    if h.is_empty() || ["javascript:", "data:", "vbscript:"].iter().any(|p| lower.starts_with(p)) {
        return None;
    }
    let origin = origin_of(page_url);
    let local = match origin {
        Some(o) if h.len() > o.len() && h[..o.len()].eq_ignore_ascii_case(o) && h[o.len()..].starts_with(['/', '?', '#']) => &h[o.len()..],
        Some(o) if h.eq_ignore_ascii_case(o) => "/",
        _ => h,
    };
    Some(redact::url(&without_tracking(local)))
}

/// The base of the top frame: the leading query (path, `?` and whole parameters, ending in `&`)
/// that saves the most characters when its links show it as `…` and the state names it once
/// (an admin application's `?db=…&table=…&` on every link); none when fewer than
/// `HREF_BASE_LINKS` links share `HREF_SHARED_MIN_CHARS` characters or more, or naming it would
/// cost more than it saves. A function of the tree alone: every read and diff of the same links
/// shows the same forms.
pub fn set_bases(tree: &mut crate::tree::Tree) {
    use std::collections::HashMap;
    // (The top frame's only: one note names it, and a frame's links are rarely that many.)
    let mains: Vec<usize> = (0..tree.frames.len()).filter(|&f| tree.frames[f].is_main).collect();
    for f in mains {
        let page = tree.frames[f].url.clone();
        let mut count: HashMap<String, usize> = HashMap::new();
        for n in tree.nodes.iter().filter(|n| n.frame == f && n.role == crate::role::Role::Link) {
            let Some(shown) = n.attr("href").and_then(|h| full_form(h, &page)) else { continue };
            let Some(q) = shown.find('?') else { continue };
            // Each whole-parameter prefix, the first few (a link's own tail is never shared).
            for (i, _) in shown.match_indices('&').filter(|(i, _)| *i > q).take(crate::budget::HREF_BASE_PARAMS) {
                *count.entry(shown[..=i].to_string()).or_default() += 1;
            }
        }
        let saved = |b: &str, n: usize| (n * (b.chars().count() - 1)).saturating_sub(b.chars().count() + BASE_NOTE.chars().count() + 8);
        tree.frames[f].href_base = count
            .into_iter()
            .filter(|(b, n)| *n >= crate::budget::HREF_BASE_LINKS && b.chars().count() >= crate::budget::HREF_SHARED_MIN_CHARS && b.chars().count() <= HREF_CHARS)
            .map(|(b, n)| (saved(&b, n), b))
            .filter(|(s, _)| *s > 0)
            .max()
            .map(|(_, b)| b);
    }
}

/// The note naming a frame's base, before the base itself.
pub const BASE_NOTE: &str = "… in an href stands for ";

/// `scheme://host[:port]` of an http(s) URL.
fn origin_of(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"))?;
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    Some(&url[..url.len() - rest.len() + host_end])
}

/// The URL without tracking query parameters (`utm_*`, click ids); the rest kept in order.
fn without_tracking(u: &str) -> String {
    let Some(q) = u.find('?') else { return u.to_string() };
    let (base, rest) = u.split_at(q);
    let (query, fragment) = match rest[1..].find('#') {
        Some(f) => (&rest[1..1 + f], &rest[1 + f..]),
        None => (&rest[1..], ""),
    };
    let kept: Vec<&str> = query
        .split('&')
        .filter(|p| {
            let name = p.split('=').next().unwrap_or("").to_ascii_lowercase();
            !p.is_empty() && !name.starts_with("utm_") && !TRACKING.contains(&name.as_str())
        })
        .collect();
    let mut out = base.to_string();
    if !kept.is_empty() {
        out.push('?');
        out.push_str(&crate::text::join(&mut kept.iter().copied(), "&"));
    }
    out.push_str(fragment);
    out
}

#[cfg(test)]
mod tests {
    use super::display;

    fn check(href: &str, expect: Option<&str>) {
        assert_eq!(display(href, "https://news.example/world/today?x=1", None).as_deref(), expect, "{href}");
    }

    #[test]
    fn same_origin_links_show_as_paths() {
        check("https://news.example/story/1", Some("/story/1"));
        check("https://news.example", Some("/"));
        check("https://news.example.evil/x", Some("https://news.example.evil/x"));
        check("/relative?page=2", Some("/relative?page=2"));
    }

    #[test]
    fn tracking_parameters_are_dropped() {
        check("/a?utm_source=x&id=7&fbclid=Z", Some("/a?id=7"));
        check("https://other.example/p?utm_medium=m#top", Some("https://other.example/p#top"));
    }

    #[test]
    fn secret_parameters_are_redacted() {
        check("https://other.example/reset?token=abc123&q=1", Some("https://other.example/reset?token=[redacted]&q=1"));
        check("/cb#access_token=zz", Some("/cb#access_token=[redacted]"));
    }

    #[test]
    fn script_and_data_urls_are_never_shown() {
        check("javascript:void(0)", None);
        check(" JavaScript:alert(1)", None);
        check("data:text/html;base64,AAAA", None);
        check("", None);
    }

    #[test]
    fn a_base_shows_as_an_ellipsis_and_other_links_as_they_are() {
        let base = Some("?database=.%2Flibrary.sqlite&fulltexts=0&");
        let page = "http://127.0.0.1:8080/?message=49a6c";
        assert_eq!(display("?database=.%2Flibrary.sqlite&fulltexts=0&action=row_create", page, base).as_deref(), Some("…action=row_create"));
        assert_eq!(display("?database=.%2Flibrary.sqlite&table=books", page, base).as_deref(), Some("?database=.%2Flibrary.sqlite&table=books"));
        assert_eq!(display("https://elsewhere.test/?database=.%2Flibrary.sqlite&fulltexts=0&x=1", page, base).as_deref(), Some("https://elsewhere.test/?database=.%2Flibrary.sqlite&fulltexts=0&x=1"));
    }

    #[test]
    fn long_hrefs_are_capped() {
        let long = format!("/{}", "a".repeat(400));
        assert_eq!(display(&long, "", None).unwrap().chars().count(), crate::budget::HREF_CHARS);
    }
}
