//! The Bridge's own error values: stable codes, an HTTP status each, and a next-step hint,
//! in the same `{error: {code, message, hint}}` shape as every tool error. Every code's hint
//! is written once, in `extension/errors.json` (the extension's table too); `hint(code)`
//! reads it.
//!
//! Owns: the Bridge-level codes and their statuses. Must never: put a token or page text
//! into a message, or write a hint of its own for a code of the table.

use axum::http::StatusCode;
use serde_json::{json, Map, Value};
use std::sync::LazyLock;

/// `extension/errors.json`: every error code and its next-step hint.
pub const ERRORS_JSON: &str = include_str!("../../extension/errors.json");

static HINTS: LazyLock<Map<String, Value>> = LazyLock::new(|| match serde_json::from_str(ERRORS_JSON) {
    Ok(Value::Object(m)) => m,
    _ => Map::new(), // a test holds the table to JSON
});

/// The next-step hint of `code` ("" for a code the table lacks: a test keeps every code the
/// Bridge emits in it).
pub fn hint(code: &str) -> &'static str {
    HINTS.get(code).and_then(Value::as_str).unwrap_or("")
}

/// `{code, message, hint}` of a table code.
pub fn error_value(code: &str, message: &str) -> Value {
    json!({"code": code, "message": message, "hint": hint(code)})
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BridgeCode {
    InvalidRequest,
    Unauthorized,
    Forbidden,
    NotConnected,
}

impl BridgeCode {
    pub fn as_str(self) -> &'static str {
        match self {
            BridgeCode::InvalidRequest => "INVALID_REQUEST",
            BridgeCode::Unauthorized => "BRIDGE_UNAUTHORIZED",
            BridgeCode::Forbidden => "BRIDGE_FORBIDDEN",
            BridgeCode::NotConnected => "BRIDGE_NOT_CONNECTED",
        }
    }

    pub fn status(self) -> StatusCode {
        match self {
            BridgeCode::InvalidRequest => StatusCode::BAD_REQUEST,
            BridgeCode::Unauthorized => StatusCode::UNAUTHORIZED,
            BridgeCode::Forbidden => StatusCode::FORBIDDEN,
            BridgeCode::NotConnected => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

pub fn bridge_error(code: BridgeCode, message: &str) -> Value {
    json!({"error": error_value(code.as_str(), message)})
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_the_bridge_emits_has_its_hint_in_the_one_table() {
        assert!(matches!(serde_json::from_str::<Value>(ERRORS_JSON), Ok(Value::Object(_))), "errors.json is an object");
        let codes = [BridgeCode::InvalidRequest, BridgeCode::Unauthorized, BridgeCode::Forbidden, BridgeCode::NotConnected].map(BridgeCode::as_str);
        for code in codes.iter().chain(&["BROWSER_OPERATION_UNCERTAIN", "BROWSER_PAGE_UNAVAILABLE", "BRIDGE_UNREACHABLE"]) {
            assert!(!hint(code).is_empty(), "{code} has no hint in extension/errors.json");
        }
    }

    #[test]
    fn the_cores_codes_are_in_the_table() {
        for code in pcc::error::Code::ALL {
            assert!(!hint(code.as_str()).is_empty(), "{} has no hint in extension/errors.json", code.as_str());
        }
    }
}
