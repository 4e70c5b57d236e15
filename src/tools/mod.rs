//! Stage 5, the tools: one module per tool's pure computation, and the `Collector` that
//! holds their state (snapshot ids, registry, revisions, journals) between calls.
//!
//! Owns: each tool's result shape. Must never: do IO or read a clock (the host passes
//! what it observed and the runtime id).

pub mod collector;
pub mod evaluate;
pub mod extract;
pub mod find;
pub mod journal;
pub mod params;
pub mod screenshot;
pub mod scrub;
pub mod snapshot;
pub mod tabs;
pub mod visible_dom;
