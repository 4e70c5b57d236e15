//! The envelope: one observation of one tab, as ferried by the extension.

use super::viewport::Viewport;
use super::wire::nullable;
use super::{AxPatch, AxTree, DomSnapshot, DomWalk};
use serde::Deserialize;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Observation {
    #[serde(deserialize_with = "nullable")]
    pub url: String,
    #[serde(deserialize_with = "nullable")]
    pub title: String,
    #[serde(deserialize_with = "nullable")]
    pub viewport: Viewport,
    /// Frames in the order the extension found them; the first without a parent is the main frame.
    #[serde(deserialize_with = "nullable")]
    pub frames: Vec<FrameObservation>,
    /// One `DOMSnapshot.captureSnapshot` per debugger session (main target, each OOPIF).
    #[serde(deserialize_with = "nullable")]
    pub snapshots: Vec<SessionSnapshot>,
    /// Present when the AX domain was unavailable and a content script walked the DOM.
    pub dom_walk: Option<DomWalk>,
    /// DOM source: the walks of the child frames (frame tags verify where each belongs).
    #[serde(deserialize_with = "nullable")]
    pub dom_frames: Vec<super::FrameWalk>,
    /// Narrow the state to this element's subtree (a `selector` resolved by the extension).
    pub scope: Option<Scope>,
    /// The frames carry no AX tree: the held read's, patched where the page changed.
    pub ax_patch: Option<AxPatch>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct FrameObservation {
    #[serde(deserialize_with = "nullable")]
    pub frame_id: String,
    pub parent_frame_id: Option<String>,
    #[serde(deserialize_with = "nullable")]
    pub url: String,
    /// Debugger session the frame lives in ("" for the tab's own target).
    #[serde(deserialize_with = "nullable")]
    pub session: String,
    /// Backend node id of the `<iframe>` element in the parent document, from
    /// `DOM.getFrameOwner`: the verified parent-frame relation.
    pub owner_backend_node_id: Option<i64>,
    pub ax: Option<AxTree>,
    /// Why the frame could not be captured, in the extension's words.
    pub error: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SessionSnapshot {
    #[serde(deserialize_with = "nullable")]
    pub session: String,
    #[serde(deserialize_with = "nullable")]
    pub snapshot: DomSnapshot,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Scope {
    #[serde(deserialize_with = "nullable")]
    pub session: String,
    pub backend_node_id: Option<i64>,
    /// DOM-walk source: the index of the scope element in the walk.
    pub walk_index: Option<i64>,
}
