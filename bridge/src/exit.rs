//! The process's exit codes, one place for every command (the CLI, `setup`, `doctor`, the
//! native-messaging host).
//!
//! Owns: the numbers. Must never: depend on another module of the crate.

pub const EXIT_OK: i32 = 0;
pub const EXIT_TOOL_ERROR: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
pub const EXIT_BRIDGE: i32 = 3;
