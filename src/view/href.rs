//! How a link's URL is shown to the model: same-origin links as paths, tracking parameters
//! dropped, secret parameters redacted, the length capped. Hrefs are a large share of a
//! real page's state; every character here is paid on every read.
//!
//! Owns: the shown form of an `href`. Must never: show a secret parameter's value, a
//! `javascript:` / `data:` / `vbscript:` URL, or more than `HREF_CHARS` characters.

use crate::budget::HREF_CHARS;
use crate::tree::redact;
use crate::text::capped;

/// Query parameters that only track the click (dropped with their value).
const TRACKING: [&str; 16] = [
    "fbclid", "gclid", "gbraid", "wbraid", "dclid", "msclkid", "mc_cid", "mc_eid", "_ga", "_gl", "yclid",
    "igshid", "ref_src", "__twitter_impression", "_hsenc", "_hsmi",
];

/// The href as a line shows it, or `None` when it must not be shown (script and data URLs).
pub fn display(href: &str, page_url: &str) -> Option<String> {
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
    let page_local = origin.map_or(page_url, |o| &page_url[o.len()..]);
    Some(capped(&redact::url(&shared_elided(&without_tracking(local), page_local)), HREF_CHARS))
}

/// A link to the page's own path whose query starts with the page's own leading parameters
/// (an admin application's `?db=…&table=…&action=x` on every link) shows that shared run as
/// `…`: `?…&action=row_create`. Only a run of at least `HREF_SHARED_MIN_CHARS`, never a
/// fragment or a path; the page's URL is in every result's header.
fn shared_elided(href: &str, page: &str) -> String {
    // (Slices: this runs for every link of every read.)
    fn split(u: &str) -> (&str, &str, &str) {
        let (u, frag) = u.split_at(u.find('#').unwrap_or(u.len()));
        let (path, query) = u.split_at(u.find('?').unwrap_or(u.len()));
        (path, query.trim_start_matches('?'), frag)
    }
    let (path, query, frag) = split(href);
    let (page_path, page_query, _) = split(page);
    if query.is_empty() || page_query.is_empty() || !(path.is_empty() || path == page_path) {
        return href.to_string();
    }
    let params: Vec<&str> = query.split('&').collect();
    let shared = params.iter().zip(page_query.split('&')).take_while(|(a, b)| **a == *b).count();
    let shared_chars: usize = params[..shared].iter().map(|p| p.len() + 1).sum();
    if shared == 0 || shared_chars < crate::budget::HREF_SHARED_MIN_CHARS {
        return href.to_string();
    }
    let rest = &params[shared..];
    let mut out = format!("{path}?…");
    for p in rest {
        out.push('&');
        out.push_str(p);
    }
    out.push_str(frag);
    out
}

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
        assert_eq!(display(href, "https://news.example/world/today?x=1").as_deref(), expect, "{href}");
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
    fn the_page_own_leading_parameters_show_as_an_ellipsis() {
        let page = "http://127.0.0.1:8080/?database=.%2Flibrary.sqlite&table=books&fulltexts=0&numRows=30&action=row_view";
        let shown = |h: &str| display(h, page);
        // phpLiteAdmin: the same table's other actions, another table of the same database.
        assert_eq!(shown("?database=.%2Flibrary.sqlite&table=books&fulltexts=0&numRows=30&action=row_create").as_deref(), Some("?…&action=row_create"));
        assert_eq!(shown("?database=.%2Flibrary.sqlite&table=loans&fulltexts=0&numRows=30&action=row_view").as_deref(), Some("?…&table=loans&fulltexts=0&numRows=30&action=row_view"));
        assert_eq!(shown("/?database=.%2Flibrary.sqlite&table=books&fulltexts=0&numRows=30").as_deref(), Some("/?…"));
        // A short shared run, another path, another origin, a fragment: as they are.
        assert_eq!(display("?a=1&b=2", "http://h/?a=1&c=3").as_deref(), Some("?a=1&b=2"));
        assert_eq!(shown("/other?database=.%2Flibrary.sqlite&x=1").as_deref(), Some("/other?database=.%2Flibrary.sqlite&x=1"));
        assert_eq!(shown("https://elsewhere.test/?database=.%2Flibrary.sqlite&table=books").as_deref(), Some("https://elsewhere.test/?database=.%2Flibrary.sqlite&table=books"));
        assert_eq!(shown("#top").as_deref(), Some("#top"));
    }

    #[test]
    fn long_hrefs_are_capped() {
        let long = format!("/{}", "a".repeat(400));
        assert_eq!(display(&long, "").unwrap().chars().count(), crate::budget::HREF_CHARS);
    }
}
