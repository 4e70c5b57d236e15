//! The messages of the Bridge's two links to the extension, typed: the WebSocket (hello,
//! challenge, auth, welcome, call, result; the worker's pings) and the native-messaging pipe
//! (hello → bridge or error). Each direction is one serde enum tagged by `type`; the
//! extension's side is one table too (`extension/services/bridge.js` `LINK`).
//!
//! Owns: the shapes of those messages. Must never: carry a token over the WebSocket (only the
//! native pipe, which the browser opens for the extension IDs the host's manifest allows).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the extension sends over the WebSocket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum FromExtension {
    Hello {
        #[serde(default)]
        browser_id: String,
        #[serde(default)]
        nonce: String,
    },
    Auth {
        #[serde(default)]
        proof: String,
    },
    Result {
        id: u64,
        #[serde(default)]
        result: Value,
    },
    /// Keeps the worker alive; nothing to do.
    Ping,
}

/// What the Bridge sends over the WebSocket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum ToExtension {
    Challenge {
        proof: String,
        nonce: String,
    },
    Welcome {
        connection_id: String,
        connection_generation: u64,
        #[serde(skip_serializing_if = "Option::is_none")]
        policy: Option<Value>,
    },
    Call {
        id: u64,
        method: String,
        params: Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        session: Option<String>,
    },
}

impl ToExtension {
    pub fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl FromExtension {
    /// A message of the extension, or None when it is not one.
    pub fn parse(text: &str) -> Option<FromExtension> {
        serde_json::from_str(text).ok()
    }
}

/// What the extension asks the native host.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum NativeAsk {
    Hello,
}

/// What the native host answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum NativeAnswer {
    Bridge { port: u16, token: String, started: bool, version: String },
    Error { error: Value },
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_message_reads_back_as_itself() {
        let from = [
            FromExtension::Hello { browser_id: "b".into(), nonce: "n".repeat(16) },
            FromExtension::Auth { proof: "p".into() },
            FromExtension::Result { id: 7, result: json!({"ok": true}) },
            FromExtension::Ping,
        ];
        for m in from {
            assert_eq!(FromExtension::parse(&serde_json::to_string(&m).unwrap()), Some(m));
        }
        let to = [
            ToExtension::Challenge { proof: "p".into(), nonce: "n".into() },
            ToExtension::Welcome { connection_id: "conn-1".into(), connection_generation: 2, policy: None },
            ToExtension::Call { id: 1, method: "browser_tabs".into(), params: json!({"text": ""}), session: Some("s".into()) },
        ];
        for m in to {
            assert_eq!(serde_json::from_str::<ToExtension>(&m.text()).unwrap(), m);
        }
    }

    #[test]
    fn the_wire_spelling_is_the_extensions() {
        let call = ToExtension::Call { id: 3, method: "m".into(), params: json!({}), session: None }.text();
        assert_eq!(call, r#"{"type":"call","id":3,"method":"m","params":{}}"#);
        let welcome = ToExtension::Welcome { connection_id: "c".into(), connection_generation: 1, policy: None }.text();
        assert_eq!(welcome, r#"{"type":"welcome","connectionId":"c","connectionGeneration":1}"#);
        assert_eq!(FromExtension::parse(r#"{"type":"hello","browserId":"x","nonce":"y","runtimeId":"r","version":"1"}"#), Some(FromExtension::Hello { browser_id: "x".into(), nonce: "y".into() }));
        assert_eq!(FromExtension::parse(r#"{"type":"nonsense"}"#), None);
        let native = serde_json::to_value(NativeAnswer::Bridge { port: 1, token: "t".into(), started: false, version: "v".into() }).unwrap();
        assert_eq!(native, json!({"type": "bridge", "port": 1, "token": "t", "started": false, "version": "v"}));
    }
}
