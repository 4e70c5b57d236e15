//! Typed errors with stable codes and a next-step hint.
//!
//! Owns: the closed set of error codes the core can return and their hints.
//! Must never: panic, carry page-derived secrets, or embed raw input in a message
//! (messages are short, lowercase and built from our own words plus ids).

use serde::Serialize;
use std::fmt;

/// Stable error codes. The string form is part of the public contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Code {
    #[serde(rename = "INVALID_REQUEST")]
    InvalidRequest,
    #[serde(rename = "BROWSER_STALE_REF")]
    StaleRef,
    #[serde(rename = "BROWSER_TARGET_MISMATCH")]
    TargetMismatch,
    #[serde(rename = "BROWSER_PAGE_UNAVAILABLE")]
    PageUnavailable,
    #[serde(rename = "BROWSER_SELECTOR_NOT_FOUND")]
    SelectorNotFound,
    #[serde(rename = "BROWSER_SCRIPT_FAILED")]
    ScriptFailed,
}

impl Code {
    /// Every code (the Bridge's tests hold each to `extension/errors.json`, the one table of
    /// codes and hints).
    pub const ALL: [Code; 6] = [Code::InvalidRequest, Code::StaleRef, Code::TargetMismatch, Code::PageUnavailable, Code::SelectorNotFound, Code::ScriptFailed];

    pub fn as_str(self) -> &'static str {
        match self {
            Code::InvalidRequest => "INVALID_REQUEST",
            Code::StaleRef => "BROWSER_STALE_REF",
            Code::TargetMismatch => "BROWSER_TARGET_MISMATCH",
            Code::PageUnavailable => "BROWSER_PAGE_UNAVAILABLE",
            Code::SelectorNotFound => "BROWSER_SELECTOR_NOT_FOUND",
            Code::ScriptFailed => "BROWSER_SCRIPT_FAILED",
        }
    }
}

/// An error value: a stable code, a short message and a hint saying what to do next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Error {
    pub code: Code,
    pub message: String,
    pub hint: String,
}

impl Error {
    pub fn new(code: Code, message: impl Into<String>, hint: impl Into<String>) -> Error {
        Error { code, message: message.into(), hint: hint.into() }
    }

    /// JSON text that did not decode as `what`: the position and what was expected, never
    /// the value found (a value can be a secret; serde's own messages quote it: `invalid
    /// type: string "hunter2", expected u8` keeps `expected u8`).
    pub fn json(what: &str, e: &serde_json::Error) -> Error {
        use serde_json::error::Category;
        let text = e.to_string();
        let before_position = |t: &str| t.split(" at line ").next().unwrap_or_default().to_string();
        let kind = match e.classify() {
            Category::Io | Category::Eof => "unexpected end".to_string(),
            Category::Syntax => before_position(&text),
            Category::Data => match text.find("expected ") {
                Some(i) => before_position(&text[i..]),
                None if text.starts_with("missing field") => before_position(&text),
                None => "a value of the wrong type".to_string(),
            },
        };
        Error::malformed(what, format!("{kind} at line {} column {}", e.line(), e.column()))
    }

    /// Input that could not be decoded (wrong types, not JSON, missing required parts).
    pub fn malformed(what: &str, detail: impl fmt::Display) -> Error {
        // serde_json messages name the position and the expected type, never the value.
        Error::new(
            Code::InvalidRequest,
            format!("malformed {what}: {detail}"),
            "pass the raw CDP result objects unchanged (see ARCHITECTURE.md, observation schema)",
        )
    }

    pub fn stale_ref(message: impl Into<String>) -> Error {
        Error::new(
            Code::StaleRef,
            message,
            "take a new browser_snapshot and use a ref from it",
        )
    }
}

impl Error {
    /// A selector matched an element that shows nothing: a scoped read never widens to the page.
    pub fn empty_scope() -> Error {
        Error::new(
            Code::SelectorNotFound,
            "the selector's element shows nothing: it is hidden (aria-hidden, display:none, inert) or empty",
            "take a snapshot without selector, or narrow to a visible element",
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
