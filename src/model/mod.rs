//! Stage 6, the model: raw tool results made model-facing — the compact projection, the
//! facts that reach model text, and the text itself.
//!
//! Owns: what a model reads of a result. Must never: drop an id, handle or error a caller
//! needs (the projection is idempotent).

pub mod model_text;
pub mod model_view;
pub mod projection;
