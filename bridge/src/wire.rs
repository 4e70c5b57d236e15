//! The Bridge's own error values (the extension's and the core's have theirs): stable codes,
//! an HTTP status each, and a next-step hint, in the same `{error: {code, message, hint}}`
//! shape as every tool error.
//!
//! Owns: the Bridge-level codes. Must never: put a token or page text into a message.

use axum::http::StatusCode;
use serde_json::{json, Value};

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

    pub fn hint(self) -> &'static str {
        match self {
            BridgeCode::InvalidRequest => "send {method, params, responseMode} with responseMode \"compact\" or \"raw\" (or none)",
            BridgeCode::Unauthorized => "send Authorization: Bearer <token>; the token is in the Bridge's state directory (pcc home)",
            BridgeCode::Forbidden => "call the Bridge from a local program on 127.0.0.1, not from a web page",
            BridgeCode::NotConnected => "start Chromium with the pi-control-chrome extension loaded; it connects by itself",
        }
    }
}

pub fn bridge_error(code: BridgeCode, message: &str) -> Value {
    json!({"error": {"code": code.as_str(), "message": message, "hint": code.hint()}})
}
