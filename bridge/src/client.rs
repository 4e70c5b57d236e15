//! The HTTP client of the CLI and the MCP server: calls a local Bridge with the token.
//!
//! Owns: reaching the Bridge, and the agent session a call belongs to (`PCC_SESSION`, or the
//! MCP server's own). Must never: change a parameter (a `null` is left out, nothing else:
//! `""` and `false` reach the worker as given), retry a call (a side effect is never
//! replayed), or print the token.

use crate::config;
use crate::wire::hint;
use serde_json::{json, Map, Value};
use std::time::Duration;

/// Longer than the Bridge's latest answer to any call (budget.rs: deadline + longest
/// `timeout` + grace), so its answer always arrives first.
const HTTP_TIMEOUT: Duration = Duration::from_millis((pcc::budget::CALL_DEADLINE_MS + pcc::budget::TIMEOUT_MAX_MS + pcc::budget::CALL_GRACE_MS) as u64 + 30_000);
/// Results (a screenshot's PNG in Base64 is the largest) are read up to this size.
const MAX_BODY_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug)]
pub enum ClientError {
    /// No token file: the Bridge never ran with this state directory.
    NoToken,
    /// Nothing listens on the port: the call was not sent.
    NotRunning(String),
    /// The Bridge could not be reached or answered nothing readable.
    Unreachable(String),
    /// A side-effect call was (or may have been) sent and no answer came: whether it ran is
    /// unknown. Never "start the Bridge and retry".
    Uncertain(String),
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::NoToken => write!(f, "BRIDGE_UNREACHABLE: no token in {} (hint: {})", config::home().display(), hint("BRIDGE_UNREACHABLE")),
            ClientError::NotRunning(e) | ClientError::Unreachable(e) => write!(f, "BRIDGE_UNREACHABLE: {e} (hint: {})", hint("BRIDGE_UNREACHABLE")),
            ClientError::Uncertain(e) => {
                write!(f, "BROWSER_OPERATION_UNCERTAIN: the call was sent but no answer came ({e}) (hint: {})", hint("BROWSER_OPERATION_UNCERTAIN"))
            }
        }
    }
}

pub struct Client {
    pub(crate) port: u16,
    base: String,
    agent: ureq::Agent,
    /// The agent session of every call (the worker keeps a current tab, tabs, group and
    /// revisions per session): `PCC_SESSION`, or what `with_session` set.
    session: Option<String>,
}

/// A session id as the Bridge takes it: 1 to 64 of `A-Z a-z 0-9 . _ : -`.
pub fn valid_session(s: &str) -> bool {
    (1..=pcc::budget::SESSION_ID_CHARS).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"._:-".contains(&b))
}

impl Client {
    pub fn new(port: u16) -> Client {
        // No pooled connections: the Bridge closes idle ones (its header timeout), and a call
        // written into a closed one would look like a call the Bridge lost (uncertain).
        let agent = ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(HTTP_TIMEOUT)).max_idle_connections(0).build().into();
        let session = std::env::var("PCC_SESSION").ok().filter(|s| valid_session(s));
        Client { port, base: format!("http://127.0.0.1:{port}"), agent, session }
    }

    /// The same client for agent session `id` (unless `PCC_SESSION` names one).
    pub fn with_session(mut self, id: String) -> Client {
        if self.session.is_none() && valid_session(&id) {
            self.session = Some(id);
        }
        self
    }

    fn token() -> Result<String, ClientError> {
        config::read_token().ok_or(ClientError::NoToken)
    }

    /// The answer as JSON. A failure once the request may have left is `Uncertain` when
    /// `side_effect`: the Bridge may have forwarded it before it went away.
    fn read(resp: Result<ureq::http::Response<ureq::Body>, ureq::Error>, side_effect: bool) -> Result<Value, ClientError> {
        let lost = |e: String, sent: bool| match (sent, side_effect) {
            (false, _) => ClientError::NotRunning(e),
            (true, true) => ClientError::Uncertain(e),
            (true, false) => ClientError::Unreachable(e),
        };
        let mut resp = resp.map_err(|e| lost(e.to_string(), maybe_sent(&e)))?;
        resp.body_mut().with_config().limit(MAX_BODY_BYTES).read_json::<Value>().map_err(|e| lost(format!("unreadable answer: {e}"), true))
    }

    pub fn health(&self) -> Result<Value, ClientError> {
        let token = Self::token()?;
        Self::read(self.agent.get(format!("{}/health", self.base)).header("Authorization", format!("Bearer {token}")).call(), false)
    }

    /// One tool call; `mode` is `Some("compact")`, `Some("raw")` or `None` (the Bridge's raw).
    pub fn call(&self, method: &str, params: Map<String, Value>, mode: Option<&str>) -> Result<Value, ClientError> {
        let token = Self::token()?;
        // The parameters go as given: the router checks them (a `null` is an absent one there).
        let mut body = json!({"method": method, "params": params});
        if let Some(m) = mode {
            body["responseMode"] = m.into();
        }
        if let Some(s) = &self.session {
            body["session"] = s.clone().into();
        }
        // Unknown methods (`pcc call`) count as side effects.
        let side_effect = crate::tools::find(method).is_none_or(|t| !t.read_only);
        Self::read(self.agent.post(format!("{}/call", self.base)).header("Authorization", format!("Bearer {token}")).send_json(&body), side_effect)
    }
}

/// Could the request have reached the Bridge? Only a failure to connect proves it did not.
fn maybe_sent(e: &ureq::Error) -> bool {
    use std::io::ErrorKind::{AddrNotAvailable, ConnectionRefused};
    !matches!(
        e,
        ureq::Error::ConnectionFailed
            | ureq::Error::HostNotFound
            | ureq::Error::Timeout(ureq::Timeout::Resolve | ureq::Timeout::Connect)
    ) && !matches!(e, ureq::Error::Io(io) if matches!(io.kind(), ConnectionRefused | AddrNotAvailable))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_failed_connect_proves_a_call_was_not_sent() {
        assert!(!maybe_sent(&ureq::Error::ConnectionFailed));
        assert!(!maybe_sent(&ureq::Error::Io(std::io::ErrorKind::ConnectionRefused.into())));
        assert!(maybe_sent(&ureq::Error::Io(std::io::ErrorKind::ConnectionReset.into())));
        assert!(maybe_sent(&ureq::Error::Timeout(ureq::Timeout::Global)));
    }

    #[test]
    fn a_session_id_is_short_and_plain() {
        for ok in ["mcp-3f2a", "pi.1:a_b", &"a".repeat(64)] {
            assert!(valid_session(ok), "{ok}");
        }
        for bad in ["", "a b", "x/y", "é", &"a".repeat(65)] {
            assert!(!valid_session(bad), "{bad}");
        }
    }
}
