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

pub use ax::{AxNode, AxProperty, AxTree, AxValue};
pub use dom_snapshot::{DocumentSnapshot, DomSnapshot, LayoutSnapshot, NodeSnapshot, RareBool};
pub use dom_walk::{DomWalk, WalkNode};
pub use observation::{FrameObservation, Observation, Scope, SessionSnapshot, Viewport};

use crate::error::{Error, Result};

/// Decodes an observation from JSON text.
pub fn decode_observation(json: &str) -> Result<Observation> {
    serde_json::from_str(json).map_err(|e| Error::malformed("observation", e))
}
