//! Wire types of the raw observations the extension ferries in, and their decoding.
//!
//! Owns: serde shapes of CDP `Accessibility.getFullAXTree`, `DOMSnapshot.captureSnapshot`,
//! our content-script DOM walk, and the envelope (`Observation`) that bundles them.
//! Must never: interpret what it decodes (no filtering, no roles, no budgets). Unknown
//! fields are ignored; wrong types become `Error` values, never panics.

mod ax;
mod dom_snapshot;
mod dom_walk;
mod observation;
mod viewport;
pub mod wire;

pub use ax::{AxId, AxNode, AxPatch, AxProperty, AxTree, AxValue, PatchRoot};
pub use dom_snapshot::{DocumentSnapshot, DomSnapshot, LayoutSnapshot, NodeSnapshot, RareBool, Rows};
pub use dom_walk::{DomWalk, FrameWalk, PageWalk, WalkNode};
pub use observation::{FrameObservation, Observation, Scope, SessionSnapshot};
pub use viewport::Viewport;

use crate::error::Result;

/// Decodes an observation from JSON text.
pub fn decode_observation(json: &str) -> Result<Observation> {
    wire::decode(json, "observation")
}

/// An observation's JSON text, borrowed or owned. Owned text is freed as soon as it is
/// decoded, before the tree is built from it (on a 50k-node page: 24 MiB less at the peak).
pub enum ObservationText<'a> {
    Borrowed(&'a str),
    Owned(String),
}

impl ObservationText<'_> {
    pub fn decode(self) -> Result<Observation> {
        match self {
            ObservationText::Borrowed(s) => decode_observation(s),
            ObservationText::Owned(s) => decode_observation(&s),
        }
    }
}

impl<'a> From<&'a str> for ObservationText<'a> {
    fn from(s: &'a str) -> Self {
        ObservationText::Borrowed(s)
    }
}

impl<'a> From<&'a String> for ObservationText<'a> {
    fn from(s: &'a String) -> Self {
        ObservationText::Borrowed(s)
    }
}

impl From<String> for ObservationText<'_> {
    fn from(s: String) -> Self {
        ObservationText::Owned(s)
    }
}

/// Decodes the frame walks of `browser_dom_cua` / `browser_extract` from JSON text.
pub fn decode_page_walk(json: &str) -> Result<PageWalk> {
    wire::decode(json, "page walk")
}
