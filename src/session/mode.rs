//! What a revision read answers — `full`, `diff` or `unchanged` — and why a read that could
//! have been a diff is `full`: typed values whose wire names (docs/ax-revisions.md) are
//! written once, in `as_str`, for serde and for text alike.
//!
//! Owns: the names of modes and full reasons. Must never: decide one (`revision`, `diff` and
//! the collector do).

use serde::{Serialize, Serializer};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Full,
    Diff,
    Unchanged,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Full => "full",
            Mode::Diff => "diff",
            Mode::Unchanged => "unchanged",
        }
    }
}

/// Why an AX read that could have been a diff is `full`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FullReason {
    /// The held revision is of another document (navigation, reload, a replaced tab).
    Navigation,
    /// The caller holds another revision than the latest.
    BaseMismatch,
    /// Too many nodes changed for a diff to help.
    MassChange,
    /// The diff would not be shorter than the full state.
    DiffNotShorter,
    /// Node identity cannot be proven across the two reads.
    UnprovableIdentity,
    /// The caller asked for `full`.
    DisableDiffing,
}

impl FullReason {
    pub fn as_str(self) -> &'static str {
        match self {
            FullReason::Navigation => "navigation",
            FullReason::BaseMismatch => "base-mismatch",
            FullReason::MassChange => "mass-change",
            FullReason::DiffNotShorter => "diff-not-shorter",
            FullReason::UnprovableIdentity => "unprovable-identity",
            FullReason::DisableDiffing => "disableDiffing",
        }
    }
}

macro_rules! named {
    ($t:ty) => {
        impl Serialize for $t {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
named!(Mode);
named!(FullReason);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_and_reasons_are_written_as_the_contract_spells_them() {
        let json = serde_json::to_string(&(Mode::Unchanged, [FullReason::BaseMismatch, FullReason::DisableDiffing])).unwrap();
        assert_eq!(json, r#"["unchanged",["base-mismatch","disableDiffing"]]"#);
        assert_eq!(format!("{} ({})", Mode::Full, FullReason::MassChange), "full (mass-change)");
    }
}
