//! The DOM-walk payload our content script produces when the AX domain is unavailable.
//!
//! One flat array in document order; `parent` is an index into it (-1 for the root).
//! Elements carry their tag, a whitelisted set of attributes, layout and state; text nodes
//! carry `text` (the walker bounds raw sizes, it decides nothing about meaning).

use super::wire::nullable;
use rustc_hash::FxHashMap as HashMap;
use serde::{Deserialize, Deserializer};

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DomWalk {
    /// The extension's id for this walk: DOM-source refs name it, so an action finds the
    /// elements of exactly this walk.
    #[serde(deserialize_with = "nullable")]
    pub walk_id: String,
    #[serde(deserialize_with = "nullable")]
    pub url: String,
    #[serde(deserialize_with = "nullable")]
    pub title: String,
    #[serde(deserialize_with = "nullable")]
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
    /// A checkbox whose state is neither (`indeterminate`, set by script).
    pub mixed: bool,
    /// A form field that fails its constraints (a value of the wrong type or pattern; an
    /// empty required field once the user has been at it: `:user-invalid`).
    pub invalid: bool,
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
    /// On `<iframe>`/`<frame>` elements: where the frame's document starts inside the element's
    /// box — `[left, top, scale]`, its border and padding (the element's CSS px) and the
    /// element's scale on screen (a `transform: scale(2)`: 2) — so the frame's coordinates
    /// are placed where it is painted.
    pub frame_box: Option<Vec<f64>>,
    /// On table cells, what Chromium's data-table guess reads of their box: bits 0–3 a
    /// top, bottom, left, right border wider than 0; bit 4 a background other than the
    /// table's in a table with cell spacing.
    pub cell_box: u8,
}

/// The walks of one tab's frames (`browser_dom_cua`, `browser_extract`): frame 0 is the
/// main document; a child frame is shown only under a visible element carrying its tag.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PageWalk {
    #[serde(deserialize_with = "nullable")]
    pub url: String,
    #[serde(deserialize_with = "nullable")]
    pub title: String,
    #[serde(deserialize_with = "nullable")]
    pub frames: Vec<FrameWalk>,
    /// The selector's element in frame 0's walk, when the caller narrowed the read.
    pub scope_index: Option<i64>,
    /// Set when frame 0's walk is the article Readability found (not the whole document):
    /// the page's own metadata for it.
    pub article: Option<ArticleMeta>,
}

/// Metadata of an article, from the page's own markup (meta tags, JSON-LD, bylines).
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ArticleMeta {
    pub byline: Option<String>,
    pub site: Option<String>,
    pub published: Option<String>,
    pub lang: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FrameWalk {
    pub frame_id: i64,
    /// The tag this frame's window received from its parent ("" when none or ambiguous).
    #[serde(deserialize_with = "nullable")]
    pub tag: String,
    #[serde(deserialize_with = "nullable")]
    pub url: String,
    #[serde(deserialize_with = "nullable")]
    pub viewport: super::viewport::Viewport,
    #[serde(deserialize_with = "nullable")]
    pub nodes: Vec<WalkNode>,
}

/// A node as the walk sends it; `WalkNode` is what the core keeps of it.
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct WireNode {
    parent: i64,
    #[serde(deserialize_with = "nullable")]
    tag: String,
    text: Option<String>,
    attrs: Option<HashMap<String, String>>,
    rect: Option<Vec<f64>>,
    display: Option<String>,
    visibility: Option<String>,
    opacity: Option<f64>,
    value: Option<String>,
    checked: Option<bool>,
    #[serde(deserialize_with = "nullable")]
    mixed: bool,
    #[serde(deserialize_with = "nullable")]
    invalid: bool,
    selected: Option<bool>,
    disabled: Option<bool>,
    focused: Option<bool>,
    #[serde(deserialize_with = "nullable")]
    ws: bool,
    #[serde(deserialize_with = "nullable")]
    ws_end: bool,
    #[serde(deserialize_with = "nullable")]
    clickable: bool,
    #[serde(deserialize_with = "nullable")]
    covered: bool,
    label: Option<String>,
    before: Option<String>,
    after: Option<String>,
    frame_tag: Option<String>,
    frame_box: Option<Vec<f64>>,
    #[serde(deserialize_with = "nullable")]
    cell_box: u8,
}

impl<'de> Deserialize<'de> for WalkNode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = WireNode::deserialize(d)?;
        Ok(WalkNode {
            parent: w.parent,
            tag: w.tag,
            text: w.text,
            // Without its attributes (type, name, id, autocomplete) a field's value cannot be
            // proven safe: fail closed, the value never enters the core.
            value: w.value.filter(|_| w.attrs.is_some()),
            attrs: w.attrs.unwrap_or_default(),
            rect: w.rect,
            display: w.display,
            visibility: w.visibility,
            opacity: w.opacity,
            checked: w.checked,
            mixed: w.mixed,
            invalid: w.invalid,
            selected: w.selected,
            disabled: w.disabled,
            focused: w.focused,
            ws_before: w.ws,
            ws_end: w.ws_end,
            clickable: w.clickable,
            covered: w.covered,
            before: w.before,
            after: w.after,
            label: w.label,
            frame_tag: w.frame_tag,
            frame_box: w.frame_box,
            cell_box: w.cell_box,
        })
    }
}
