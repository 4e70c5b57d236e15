//! The DOM-walk payload our content script produces when the AX domain is unavailable.
//!
//! One flat array in document order; `parent` is an index into it (-1 for the root).
//! Elements carry their tag, a whitelisted set of attributes, layout and state; text nodes
//! carry `text` (the walker bounds raw sizes, it decides nothing about meaning).

use super::json::{reader, Parser};
use crate::error::Result;
use rustc_hash::FxHashMap as HashMap;

#[derive(Debug, Clone, Default)]
pub struct DomWalk {
    /// The extension's id for this walk: DOM-source refs name it, so an action finds the
    /// elements of exactly this walk.
    pub walk_id: String,
    pub url: String,
    pub title: String,
    pub nodes: Vec<WalkNode>,
    /// Elements an open modal dialog makes inert (the walk does not descend into them).
    pub behind_modal: usize,
}

#[derive(Debug, Clone, Default)]
pub struct WalkNode {
    pub parent: i64,
    /// Lowercase tag name, or `#text`.
    pub tag: String,
    pub text: Option<String>,
    pub attrs: HashMap<String, String>,
    /// `[x, y, width, height]` in viewport coordinates.
    pub rect: Option<Vec<f64>>,
    pub display: Option<String>,
    pub visibility: Option<String>,
    pub opacity: Option<f64>,
    pub value: Option<String>,
    pub checked: Option<bool>,
    pub selected: Option<bool>,
    pub disabled: Option<bool>,
    pub focused: Option<bool>,
    /// Whitespace-only text stood between this node and its previous sibling (the walk drops
    /// such text nodes and marks the next sibling instead).
    pub ws_before: bool,
    /// Whitespace-only text ended this element (a space follows its content).
    pub ws_end: bool,
    /// The page handles clicks here: an `onclick` attribute, or a pointer cursor that starts
    /// at this element (its parent's cursor is not a pointer).
    pub clickable: bool,
    /// A positioned element the page paints above covers this one's visible center (the
    /// walk hit-tests the elements a user could act on in the viewport).
    pub covered: bool,
    /// CSS-generated text (`::before` / `::after` content strings) of elements whose name
    /// may come from their content.
    pub before: Option<String>,
    pub after: Option<String>,
    /// Label text of form controls (`control.labels`), joined.
    pub label: Option<String>,
    /// On `<iframe>`/`<frame>` elements: the one-time tag this element's window was sent by
    /// its parent (`postMessage`); the child frame that received it reports the same tag.
    /// That pair is the verified parent-frame relation.
    pub frame_tag: Option<String>,
    /// On table cells, what Chromium's data-table guess reads of their box: bits 0–3 a
    /// top, bottom, left, right border wider than 0; bit 4 a background other than the
    /// table's in a table with cell spacing.
    pub cell_box: u8,
}

/// The walks of one tab's frames (`browser_dom_cua`, `browser_extract`): frame 0 is the
/// main document; a child frame is shown only under a visible element carrying its tag.
#[derive(Debug, Clone, Default)]
pub struct PageWalk {
    pub url: String,
    pub title: String,
    pub frames: Vec<FrameWalk>,
    /// The selector's element in frame 0's walk, when the caller narrowed the read.
    pub scope_index: Option<i64>,
    /// Set when frame 0's walk is the article Readability found (not the whole document):
    /// the page's own metadata for it.
    pub article: Option<ArticleMeta>,
}

/// Metadata of an article, from the page's own markup (meta tags, JSON-LD, bylines).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ArticleMeta {
    pub byline: Option<String>,
    pub site: Option<String>,
    pub published: Option<String>,
    pub lang: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct FrameWalk {
    pub frame_id: i64,
    /// The tag this frame's window received from its parent ("" when none or ambiguous).
    pub tag: String,
    pub url: String,
    pub viewport: super::viewport::Viewport,
    pub nodes: Vec<WalkNode>,
}

reader!(pub(super) fn read_walk -> DomWalk {
    "walkId" => walk_id: Parser::string,
    "url" => url: Parser::string,
    "title" => title: Parser::string,
    "nodes" => nodes: |p: &mut Parser<'_>| p.vec_sized(16, read_node),
    "behindModal" => behind_modal: |p: &mut Parser<'_>| Ok(p.opt_i64()?.and_then(|n| usize::try_from(n).ok()).unwrap_or(0)),
});

fn read_node(p: &mut Parser<'_>) -> Result<WalkNode> {
    let mut n = WalkNode::default();
    let mut saw_attrs = false;
    p.object(|p, k| {
        match k {
            "parent" => n.parent = p.i64()?,
            "tag" => n.tag = p.string()?,
            "text" => n.text = p.opt_string()?,
            "attrs" => {
                saw_attrs = true;
                p.object(|p, k| {
                    let v = p.string()?;
                    n.attrs.insert(k.to_string(), v);
                    Ok(())
                })?
            }
            "rect" => n.rect = if p.null() { None } else { Some(p.vec(|p| p.f64())?) },
            "display" => n.display = p.opt_string()?,
            "visibility" => n.visibility = p.opt_string()?,
            "opacity" => n.opacity = p.opt_f64()?,
            "value" => n.value = p.opt_string()?,
            "checked" => n.checked = p.opt_bool()?,
            "selected" => n.selected = p.opt_bool()?,
            "disabled" => n.disabled = p.opt_bool()?,
            "focused" => n.focused = p.opt_bool()?,
            "ws" => n.ws_before = p.opt_bool()?.unwrap_or(false),
            "wsEnd" => n.ws_end = p.opt_bool()?.unwrap_or(false),
            "clickable" => n.clickable = p.opt_bool()?.unwrap_or(false),
            "covered" => n.covered = p.opt_bool()?.unwrap_or(false),
            "label" => n.label = p.opt_string()?,
            "before" => n.before = p.opt_string()?,
            "after" => n.after = p.opt_string()?,
            "frameTag" => n.frame_tag = p.opt_string()?,
            "cellBox" => n.cell_box = p.opt_i64()?.and_then(|b| u8::try_from(b).ok()).unwrap_or(0),
            _ => p.skip()?,
        }
        Ok(())
    })?;
    if !saw_attrs {
        // Without its attributes (type, name, id, autocomplete) a field's value cannot be
        // proven safe: fail closed, the value never enters the core.
        n.value = None;
    }
    Ok(n)
}

// One frame's walk: `{frameId, tag, url, viewport, nodes}`.
reader!(pub(super) fn read_frame -> FrameWalk {
    "frameId" => frame_id: Parser::i64,
    "tag" => tag: Parser::string,
    "url" => url: Parser::string,
    "viewport" => viewport: super::viewport::read_viewport,
    "nodes" => nodes: |p: &mut Parser<'_>| p.vec_sized(16, read_node),
});

pub(super) fn read_page(p: &mut Parser<'_>) -> Result<PageWalk> {
    let mut w = PageWalk::default();
    p.object(|p, k| {
        match k {
            "url" => w.url = p.string()?,
            "title" => w.title = p.string()?,
            "scopeIndex" => w.scope_index = p.opt_i64()?,
            "frames" => w.frames = p.vec(read_frame)?,
            "article" => {
                let mut m = ArticleMeta::default();
                p.object(|p, k| {
                    let slot = match k {
                        "byline" => &mut m.byline,
                        "site" => &mut m.site,
                        "published" => &mut m.published,
                        "lang" => &mut m.lang,
                        _ => return p.skip(),
                    };
                    *slot = p.opt_string()?;
                    Ok(())
                })?;
                w.article = Some(m);
            }
            _ => p.skip()?,
        }
        Ok(())
    })?;
    Ok(w)
}
