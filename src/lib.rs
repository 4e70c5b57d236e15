//! pi-control-chrome collector: raw Chromium observations in, a small, safe, model-facing
//! state out. The core is pure (no IO, no clock, no randomness, no JS types); `wasm` is
//! the only module that touches `JsValue`. See ARCHITECTURE.md for the data flow.

pub mod budget;
pub mod error;
pub mod input;
pub mod text;

mod ax_tree;
mod dom_tree;
mod flow;
mod href;
mod layout;
mod order;
mod role;
mod tree;
mod walk_view;

pub mod collector;
pub mod diff;
pub mod revision;
pub mod filter;
pub mod identity;
pub mod redact;
pub mod refs;
pub mod render;
pub mod select;
pub mod snapshot;
pub mod tabs;
pub mod visible_dom;
pub mod extract;
pub mod find;
pub mod evaluate;
pub mod journal;
pub mod projection;
pub mod model_view;
pub mod model_text;

pub mod wasm;

pub use collector::{AxOptions, Collector, SnapshotOptions};
pub use error::{Code, Error};
pub use layout::COMPUTED_STYLES;
pub use refs::{RefTarget, TabKey};
pub use snapshot::SnapshotResult;
