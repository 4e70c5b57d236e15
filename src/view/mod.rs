//! Stage 3, the view: which nodes of the semantic tree reach the model and how they read.
//!
//! Owns: the filter (kept, lifted, skipped; sensitive values dropped), link display, the
//! line format and the budgeted selection. Must never: keep state between calls or know
//! refs' lifetimes (that is `session`).

pub mod filter;
pub(crate) mod href;
pub mod render;
pub mod select;
