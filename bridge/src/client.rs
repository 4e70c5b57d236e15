//! The HTTP client of the CLI and the MCP server: calls a local Bridge with the token.
//!
//! Owns: reaching the Bridge. Must never: send empty optional fields (they are dropped
//! before sending), retry a call (a side effect is never replayed), or print the token.

use crate::config;
use serde_json::{json, Map, Value};
use std::time::Duration;

/// Longer than the Bridge's own call timeout, so its answer always arrives first.
const HTTP_TIMEOUT: Duration = Duration::from_secs(120);
/// Results (a screenshot's PNG in Base64 is the largest) are read up to this size.
const MAX_BODY_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug)]
pub enum ClientError {
    /// No token file: the Bridge never ran with this state directory.
    NoToken,
    /// Nothing answers on the port.
    Unreachable(String),
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::NoToken => write!(f, "BRIDGE_UNREACHABLE: no token in {} (hint: start the Bridge with `pcc bridge`)", config::home().display()),
            ClientError::Unreachable(e) => write!(f, "BRIDGE_UNREACHABLE: {e} (hint: start the Bridge with `pcc bridge`)"),
        }
    }
}

pub struct Client {
    base: String,
    agent: ureq::Agent,
}

impl Client {
    pub fn new(port: u16) -> Client {
        let agent = ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(HTTP_TIMEOUT)).build().into();
        Client { base: format!("http://127.0.0.1:{port}"), agent }
    }

    fn token() -> Result<String, ClientError> {
        config::read_token().ok_or(ClientError::NoToken)
    }

    fn read(resp: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Result<Value, ClientError> {
        let mut resp = resp.map_err(|e| ClientError::Unreachable(e.to_string()))?;
        resp.body_mut().with_config().limit(MAX_BODY_BYTES).read_json::<Value>().map_err(|e| ClientError::Unreachable(format!("unreadable answer: {e}")))
    }

    pub fn health(&self) -> Result<Value, ClientError> {
        let token = Self::token()?;
        Self::read(self.agent.get(format!("{}/health", self.base)).header("Authorization", format!("Bearer {token}")).call())
    }

    /// One tool call; `mode` is `Some("compact")`, `Some("raw")` or `None` (the Bridge's raw).
    pub fn call(&self, method: &str, params: Map<String, Value>, mode: Option<&str>) -> Result<Value, ClientError> {
        let token = Self::token()?;
        let mut body = json!({"method": method, "params": drop_empty(params)});
        if let Some(m) = mode {
            body["responseMode"] = m.into();
        }
        Self::read(self.agent.post(format!("{}/call", self.base)).header("Authorization", format!("Bearer {token}")).send_json(&body))
    }
}

/// Empty optional fields (`null`, `""`) are never sent.
pub fn drop_empty(params: Map<String, Value>) -> Map<String, Value> {
    params.into_iter().filter(|(_, v)| !matches!(v, Value::Null) && v.as_str() != Some("")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_optional_fields_are_not_sent() {
        let p = json!({"selector": "", "snapshotId": null, "tabId": 3, "path": "", "text": " "});
        let kept = drop_empty(p.as_object().unwrap().clone());
        assert_eq!(Value::Object(kept), json!({"tabId": 3, "text": " "}));
    }
}
