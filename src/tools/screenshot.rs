//! `browser_screenshot`'s plan: what the captured image must hide and what it may mark, as
//! boxes on it, computed from the page's semantic view — the worker captures, draws the boxes
//! on the image (never in the page) and encodes it. A box covers every field the text state
//! would redact (sensitive by type, name, label or value: the view's own `sensitive` flag) and
//! every element whose text shows a secret the session saw (a copy of a typed password in a
//! live preview, a token printed in the page); marks are the actionable elements of a state's
//! refs, each with its label. Also the image's size as a vision model pays for it.
//!
//! Owns: those boxes (CSS pixels of the captured region) and the token estimate. Must never:
//! miss a box the text state's redaction implies, or mark an element the state has no ref for.

use crate::budget::MARK_FONT_PX;
use crate::tools::scrub::Matcher;
use crate::tree::layout::Rect;
use crate::tree::redact::is_sensitive;
use crate::tree::Tree;
use crate::view::filter::View;
use serde::{Deserialize, Serialize};

/// A filled form field of the top frame where the page paints it (its border box, viewport
/// CSS px), as the page reported it whether or not the tree holds it: behind a modal dialog
/// (inert), under `aria-hidden`, in a closed shadow root. Covered when the last scrub would
/// call its value a secret (`evaluate::secret_of`: its type, words, label, or a card number).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PaintedField {
    pub tag: String,
    pub attrs: std::collections::BTreeMap<String, String>,
    pub label: String,
    pub near: Option<String>,
    pub value: String,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl PaintedField {
    fn is_secret(&self) -> bool {
        let fact = serde_json::json!({ "tag": self.tag, "attrs": self.attrs, "label": self.label, "near": self.near, "value": self.value });
        crate::tools::evaluate::secret_of(&fact).is_some()
    }
}

/// A text the top frame paints, with its glyphs' box (viewport CSS px): `[text, x, y, width,
/// height]` as page/checks.js `paintedTexts` reports it — in the tree or not (behind a modal,
/// under `aria-hidden`, in a closed shadow root, CSS-generated).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct PaintedText(pub String, pub f64, pub f64, pub f64, pub f64);

/// A box on the captured image, in CSS pixels from its top-left corner.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Region {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// A ref's mark: its label, its element's border box, and where the label goes (`tag`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Mark {
    #[serde(rename = "ref")]
    pub label: String,
    #[serde(flatten)]
    pub region: Region,
    pub tag: Region,
}

/// A label's box for `label` at font size `MARK_FONT_PX` (its width estimated from its
/// characters: labels are `e` and digits), tried above the element's corner, then below it,
/// then inside, and kept within the capture; the first spot that overlaps no label placed
/// before wins (else the last).
fn tag_for(label: &str, r: &Region, placed: &[Region], capture: Capture) -> Region {
    let font = MARK_FONT_PX as f64;
    let (w, h) = (label.chars().count() as f64 * font * 0.62 + font / 2.0, font * 1.25);
    let spot = |x: f64, y: f64| Region { x: x.min(capture.width - w).max(0.0), y: y.min(capture.height - h).max(0.0), width: w, height: h };
    let spots = [spot(r.x, r.y - h), spot(r.x, r.y + r.height), spot(r.x, r.y)];
    let free = |s: &Region| !placed.iter().any(|p| s.x < p.x + p.width && p.x < s.x + s.width && s.y < p.y + p.height && p.y < s.y + s.height);
    spots.iter().find(|s| free(s)).unwrap_or(&spots[2]).clone()
}

/// The captured region: its top-left corner in the viewport's coordinates (the tree's boxes
/// are in those) and its size, CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Capture {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Capture {
    /// `r` on the captured image, clipped to it; None when it shows nothing there.
    fn place(&self, r: &Rect) -> Option<Region> {
        let x0 = (r.x - self.x).max(0.0);
        let y0 = (r.y - self.y).max(0.0);
        let x1 = (r.x + r.w - self.x).min(self.width);
        let y1 = (r.y + r.h - self.y).min(self.height);
        (x1 > x0 && y1 > y0).then(|| Region { x: x0, y: y0, width: x1 - x0, height: y1 - y0 })
    }
}

/// The boxes to cover: each sensitive field (the view's, any the redaction rule names by
/// itself: a password field shows dots until "show password" makes it text, and each painted
/// field the page reported that the last scrub calls secret, in the tree or not), each painted
/// text that shows a secret (its glyphs' box), and the nearest
/// element with a box around any text of the page (as the page has it, before the view's own
/// redaction) that shows a secret.
pub fn masks(tree: &Tree, view: &View, secrets: &[String], fields: &[PaintedField], texts: &[PaintedText], capture: Capture) -> Vec<Region> {
    let mut parent = vec![usize::MAX; tree.nodes.len()];
    for (i, n) in tree.nodes.iter().enumerate() {
        for &c in &n.children {
            if let Some(p) = parent.get_mut(c) {
                *p = i;
            }
        }
    }
    let mut flagged = vec![false; tree.nodes.len()];
    for vi in view.preorder() {
        if let Some(s) = view.nodes[vi].src.filter(|_| view.nodes[vi].sensitive) {
            if let Some(f) = flagged.get_mut(s) {
                *f = true;
            }
        }
    }
    // The values of the sensitive fields now are secrets too, wherever the page copies them.
    let mut secrets = secrets.to_vec();
    secrets.extend(tree.nodes.iter().enumerate().filter(|(i, _)| flagged[*i]).filter_map(|(_, n)| n.value.clone()).filter(|v| !v.trim().is_empty()));
    // (The last scrub's own matcher: what a result would redact, an image covers.)
    let matcher = Matcher::of_values(&secrets);
    let mut out = Vec::new();
    let painted = fields.iter().filter(|f| f.is_secret()).map(|f| Rect { x: f.x, y: f.y, w: f.width, h: f.height });
    let painted_texts = texts.iter().filter(|t| matcher.shows_secret(&t.0)).map(|t| Rect { x: t.1, y: t.2, w: t.3, h: t.4 });
    for r in painted.chain(painted_texts) {
        if let Some(region) = capture.place(&r) {
            if !out.contains(&region) {
                out.push(region);
            }
        }
    }
    for (i, n) in tree.nodes.iter().enumerate() {
        let texts = [Some(n.name.as_str()), n.value.as_deref()];
        let field = matches!(n.tag.as_str(), "input" | "textarea" | "select");
        let secret = flagged[i] || (field && is_sensitive(n)) || texts.into_iter().flatten().any(|t| !t.is_empty() && matcher.shows_secret(t));
        if !secret || n.hidden {
            continue;
        }
        // (A text node has no box of its own: its element's covers it.)
        let mut at = i;
        while tree.nodes[at].bounds.is_none_or(|b| b.w <= 0.0 || b.h <= 0.0) && parent[at] != usize::MAX {
            at = parent[at];
        }
        if let Some(region) = tree.nodes[at].bounds.and_then(|r| capture.place(&r)) {
            if !out.contains(&region) {
                out.push(region);
            }
        }
    }
    out
}

/// What moved while the image was taken: the texts read again after the capture (`after`)
/// that show a secret (`secrets`, the last scrub's matcher). One that stayed is covered where
/// it is; one that moved (from where the plan read it, `before`) may have been anywhere along
/// its path when the pixels were taken, and a path can wrap (a marquee, a carousel): it is
/// covered over the whole width of the capture where it moved sideways, and over its whole
/// height where it moved up or down, across both places. One that appeared meanwhile is
/// covered where it is after.
pub fn moved_masks(before: &[PaintedText], after: &[PaintedText], secrets: &[String], capture: Capture) -> Vec<Region> {
    let matcher = Matcher::of_values(secrets);
    let mut out: Vec<Region> = Vec::new();
    for (k, t) in after.iter().enumerate() {
        if !matcher.shows_secret(&t.0) {
            continue;
        }
        // The same text where it was: the one at the same index if it is the same text, else
        // the first with the same text.
        let was = before.get(k).filter(|b| b.0 == t.0).or_else(|| before.iter().find(|b| b.0 == t.0));
        let (mut x0, mut y0, mut x1, mut y1) = match was {
            Some(b) => (b.1.min(t.1), b.2.min(t.2), (b.1 + b.3).max(t.1 + t.3), (b.2 + b.4).max(t.2 + t.4)),
            None => (t.1, t.2, t.1 + t.3, t.2 + t.4),
        };
        if was.is_some_and(|b| b.1 != t.1) {
            (x0, x1) = (capture.x, capture.x + capture.width);
        }
        if was.is_some_and(|b| b.2 != t.2) {
            (y0, y1) = (capture.y, capture.y + capture.height);
        }
        if let Some(region) = capture.place(&Rect { x: x0, y: y0, w: x1 - x0, h: y1 - y0 }) {
            if !out.contains(&region) {
                out.push(region);
            }
        }
    }
    out
}

/// The marks of `refs` (label, view node) on the captured image: those whose element shows
/// there.
pub fn marks(tree: &Tree, view: &View, refs: &[(String, usize)], capture: Capture) -> Vec<Mark> {
    let at: Vec<(String, Option<Rect>)> = refs.iter().map(|(label, vi)| (label.clone(), view.nodes[*vi].src.and_then(|s| tree.nodes.get(s)).and_then(|n| n.bounds))).collect();
    marks_at(&at, capture)
}

/// The marks of refs whose element boxes are known (viewport coordinates): each one that shows
/// in the capture, its label placed off the labels before it.
pub fn marks_at(refs: &[(String, Option<Rect>)], capture: Capture) -> Vec<Mark> {
    let mut placed: Vec<Region> = Vec::new();
    refs.iter()
        .filter_map(|(label, r)| {
            let region = capture.place(r.as_ref()?)?;
            let tag = tag_for(label, &region, &placed, capture);
            placed.push(tag.clone());
            Some(Mark { label: label.clone(), region, tag })
        })
        .collect()
}

/// Vision tokens an image of `width` × `height` pixels costs, by the published formulas:
/// Anthropic's `width × height / 750` (for an image within its 1,568 px edge) and OpenAI's
/// high-detail tiles (fit in 2,048 px, the short side scaled to 768 px, 170 per 512 px tile
/// plus 85).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tokens {
    pub anthropic: u64,
    pub openai: u64,
}

pub fn tokens(width: u32, height: u32) -> Tokens {
    let (w, h) = (f64::from(width.max(1)), f64::from(height.max(1)));
    let fit = (2048.0 / w.max(h)).min(1.0);
    let (w2, h2) = (w * fit, h * fit);
    let short = (768.0 / w2.min(h2)).min(1.0);
    let (w3, h3) = (w2 * short, h2 * short);
    let tiles = (w3 / 512.0).ceil() * (h3 / 512.0).ceil();
    Tokens { anthropic: (w * h / 750.0).ceil() as u64, openai: (170.0 * tiles + 85.0) as u64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VIEWPORT: Capture = Capture { x: 0.0, y: 0.0, width: 800.0, height: 600.0 };

    #[test]
    fn a_box_is_clipped_to_the_capture_and_one_outside_shows_nothing() {
        assert_eq!(VIEWPORT.place(&Rect { x: -10.0, y: 590.0, w: 50.0, h: 40.0 }), Some(Region { x: 0.0, y: 590.0, width: 40.0, height: 10.0 }));
        assert_eq!(VIEWPORT.place(&Rect { x: 10.0, y: 700.0, w: 50.0, h: 40.0 }), None);
        let scrolled = Capture { x: 0.0, y: -300.0, width: 800.0, height: 2000.0 };
        assert_eq!(scrolled.place(&Rect { x: 5.0, y: 10.0, w: 20.0, h: 20.0 }), Some(Region { x: 5.0, y: 310.0, width: 20.0, height: 20.0 }));
    }

    #[test]
    fn a_label_goes_above_its_box_else_below_else_inside_and_stays_on_the_image() {
        let font = MARK_FONT_PX as f64;
        let r = Region { x: 100.0, y: 100.0, width: 80.0, height: 30.0 };
        let first = tag_for("e1", &r, &[], VIEWPORT);
        assert_eq!((first.x, first.y + first.height), (100.0, 100.0), "above");
        let second = tag_for("e2", &r, &[first.clone()], VIEWPORT);
        assert_eq!(second.y, 130.0, "below, the spot above being taken");
        let third = tag_for("e3", &r, &[first, second], VIEWPORT);
        assert_eq!(third.y, 100.0, "inside");
        let top = tag_for("e12", &Region { x: 790.0, y: 0.0, width: 10.0, height: 10.0 }, &[], VIEWPORT);
        assert!(top.y >= 0.0 && top.x + top.width <= 800.0 && top.height == font * 1.25, "{top:?}");
    }

    /// Whether the masks' matcher finds a secret of `secrets` in `text`.
    fn shows(text: &str, secrets: &[&str]) -> bool {
        Matcher::of_values(&secrets.iter().map(|s| s.to_string()).collect::<Vec<_>>()).shows_secret(text)
    }

    #[test]
    fn a_one_time_code_shows_where_it_stands_whole_and_nowhere_else() {
        assert!(shows("you typed 482913 here", &["482913"]));
        assert!(!shows("order 1482913", &["482913"]));
        assert!(!shows("page 12 of 40", &["12"]));
    }

    #[test]
    fn a_copy_in_another_case_shows_the_secret() {
        assert!(shows("PW-QUOKKA-7731-ZEBRA", &["pw-Quokka-7731-zebra"]));
    }

    #[test]
    fn a_card_number_in_groups_shows_the_typed_one() {
        assert!(shows("Card: 4539 1488 0343 6467", &["4539148803436467"]));
    }

    #[test]
    fn a_piece_of_a_long_key_shows_it() {
        let key = "sk_live_9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c";
        assert!(shows(&format!("prefix {}…", &key[..20]), &[key]));
    }

    #[test]
    fn a_pem_body_and_a_secret_named_parameter_show_without_any_field() {
        assert!(shows("-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----", &[]));
        assert!(shows("https://x.test/reset?token=Zm9vYmFyYmF6cXV4", &[]));
        assert!(!shows("https://x.test/search?q=cats&page=2", &[]));
    }

    #[test]
    fn a_copy_that_moved_is_covered_along_every_path_it_may_have_taken() {
        let cap = Capture { x: 0.0, y: 0.0, width: 800.0, height: 600.0 };
        let before = [PaintedText("pw Zq-PASS-991177".into(), 10.0, 100.0, 150.0, 20.0), PaintedText("plain".into(), 0.0, 0.0, 10.0, 10.0)];
        let after = [PaintedText("pw Zq-PASS-991177".into(), 210.0, 100.0, 150.0, 20.0), PaintedText("plain".into(), 0.0, 0.0, 10.0, 10.0)];
        // Moved sideways: the whole width of the capture, on its line.
        assert_eq!(moved_masks(&before, &after, &["Zq-PASS-991177".into()], cap), vec![Region { x: 0.0, y: 100.0, width: 800.0, height: 20.0 }]);
        // Stayed: where it is.
        assert_eq!(moved_masks(&after, &after, &["Zq-PASS-991177".into()], cap), vec![Region { x: 210.0, y: 100.0, width: 150.0, height: 20.0 }]);
        // Moved up: the whole height, across its columns.
        let up = [PaintedText("pw Zq-PASS-991177".into(), 210.0, 40.0, 150.0, 20.0)];
        assert_eq!(moved_masks(&after[..1], &up, &["Zq-PASS-991177".into()], cap), vec![Region { x: 210.0, y: 0.0, width: 150.0, height: 600.0 }]);
        // One that appeared after the plan is covered where it is.
        assert_eq!(moved_masks(&[], &after, &["Zq-PASS-991177".into()], cap), vec![Region { x: 210.0, y: 100.0, width: 150.0, height: 20.0 }]);
        assert!(moved_masks(&before, &after, &[], cap).is_empty());
    }

    #[test]
    fn ordinary_numbers_show_no_secret() {
        for text in ["order 1482913", "$185.00", "2026", "Total: 1,482.91"] {
            assert!(!shows(text, &["482913", "7731"]), "{text}");
        }
    }

    #[test]
    fn token_estimates_follow_the_published_formulas() {
        assert_eq!(tokens(1000, 1000), Tokens { anthropic: 1334, openai: 765 });
        assert_eq!(tokens(512, 512), Tokens { anthropic: 350, openai: 255 });
        assert_eq!(tokens(1280, 720), Tokens { anthropic: 1229, openai: 1105 });
    }
}
