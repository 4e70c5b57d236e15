//! Stage 4, the session: what outlives one call — the ref registry, ref identity and
//! rebinding, revision entries and diffs, the revision store, and the policy that chooses
//! `full`, `diff` or `unchanged` (`policy`).
//!
//! Owns: fail-closed ref resolution and the `full` / `diff` / `unchanged` decision. Must
//! never: read a page or render a state (it compares what `view` produced).

pub mod diff;
pub mod follow;
pub mod identity;
pub mod mode;
pub mod policy;
pub mod read_plan;
pub mod refs;
pub mod revision;
