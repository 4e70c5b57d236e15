//! pi-control-chrome collector: raw Chromium observations in, a small, safe, model-facing
//! state out. The core is pure (no IO, no clock, no randomness, no JS types); `wasm` is
//! the only module that touches `JsValue`. See ARCHITECTURE.md for the data flow.
//!
//! The folders are the pipeline's stages, each using only the stages before it
//! (`tests/layout.rs`): `input` (wire types) → `tree` (the semantic tree of either source)
//! → `view` (what is kept, chosen and rendered) → `session` (refs, revisions, diffs) →
//! `tools` (one module per tool, and the `Collector` that holds their state) → `model` (the
//! model-facing projection and text). `budget`, `error`, `text` and `order` serve every
//! stage; `wasm` is the facade over all of them.

pub mod budget;
pub mod error;
mod order;
pub mod role;
pub mod saved;
pub mod text;

pub mod input;
pub mod model;
pub mod session;
pub mod tools;
pub mod tree;
pub mod view;

pub mod wasm;

pub use error::{Code, Error};
pub use session::refs::{RefTarget, TabKey};
pub use tools::collector::{AxOptions, Collector, SnapshotOptions};
pub use tools::snapshot::SnapshotResult;
pub use tree::layout::COMPUTED_STYLES;
