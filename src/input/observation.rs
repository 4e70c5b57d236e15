//! The envelope: one observation of one tab, as ferried by the extension.

use super::json::{reader, Parser};
use super::viewport::{read_viewport, Viewport};
use super::{AxTree, DomSnapshot, DomWalk};
use crate::error::Result;

#[derive(Debug, Clone, Default)]
pub struct Observation {
    pub url: String,
    pub title: String,
    pub viewport: Viewport,
    /// Frames in the order the extension found them; the first without a parent is the main frame.
    pub frames: Vec<FrameObservation>,
    /// One `DOMSnapshot.captureSnapshot` per debugger session (main target, each OOPIF).
    pub snapshots: Vec<SessionSnapshot>,
    /// Present when the AX domain was unavailable and a content script walked the DOM.
    pub dom_walk: Option<DomWalk>,
    /// DOM source: the walks of the child frames (frame tags verify where each belongs).
    pub dom_frames: Vec<super::FrameWalk>,
    /// Narrow the state to this element's subtree (a `selector` resolved by the extension).
    pub scope: Option<Scope>,
}

#[derive(Debug, Clone, Default)]
pub struct FrameObservation {
    pub frame_id: String,
    pub parent_frame_id: Option<String>,
    pub url: String,
    /// Debugger session the frame lives in ("" for the tab's own target).
    pub session: String,
    /// Backend node id of the `<iframe>` element in the parent document, from
    /// `DOM.getFrameOwner`: the verified parent-frame relation.
    pub owner_backend_node_id: Option<i64>,
    pub ax: Option<AxTree>,
    /// Why the frame could not be captured, in the extension's words.
    pub error: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct SessionSnapshot {
    pub session: String,
    pub snapshot: DomSnapshot,
}

#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub session: String,
    pub backend_node_id: Option<i64>,
    /// DOM-walk source: the index of the scope element in the walk.
    pub walk_index: Option<i64>,
}

pub(super) fn read_observation(p: &mut Parser<'_>) -> Result<Observation> {
    let mut o = Observation::default();
    p.object(|p, k| {
        match k {
            "url" => o.url = p.string()?,
            "title" => o.title = p.string()?,
            "viewport" => o.viewport = read_viewport(p)?,
            "frames" => o.frames = p.vec(read_frame)?,
            "snapshots" => o.snapshots = p.vec(|p| {
                let mut s = SessionSnapshot::default();
                p.object(|p, k| {
                    match k {
                        "session" => s.session = p.string()?,
                        "snapshot" => s.snapshot = super::dom_snapshot::read_snapshot(p)?,
                        _ => p.skip()?,
                    }
                    Ok(())
                })?;
                Ok(s)
            })?,
            "domWalk" => o.dom_walk = if p.null() { None } else { Some(super::dom_walk::read_walk(p)?) },
            "domFrames" => o.dom_frames = p.vec(super::dom_walk::read_frame)?,
            "scope" => o.scope = if p.null() { None } else {
                let mut s = Scope::default();
                p.object(|p, k| {
                    match k {
                        "session" => s.session = p.string()?,
                        "backendNodeId" => s.backend_node_id = p.opt_i64()?,
                        "walkIndex" => s.walk_index = p.opt_i64()?,
                        _ => p.skip()?,
                    }
                    Ok(())
                })?;
                Some(s)
            },
            _ => p.skip()?,
        }
        Ok(())
    })?;
    Ok(o)
}

reader!(fn read_frame -> FrameObservation {
    "frameId" => frame_id: Parser::string,
    "parentFrameId" => parent_frame_id: Parser::opt_string,
    "url" => url: Parser::string,
    "session" => session: Parser::string,
    "ownerBackendNodeId" => owner_backend_node_id: Parser::opt_i64,
    "ax" => ax: |p: &mut Parser<'_>| if p.null() { Ok(None) } else { super::ax::read_tree(p).map(Some) },
    "error" => error: Parser::opt_string,
});
