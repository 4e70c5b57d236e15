//! The Bridge server: listens on 127.0.0.1 only. The extension connects to
//! `GET /extension` (WebSocket, `chrome-extension://` origin only, then a mutual proof of
//! the token); hosts call
//! `GET /health` and `POST /call` with the per-install token.
//!
//! `POST /call {method, params, responseMode, session}` forwards the call to the extension and
//! answers with its result plus `browserId`, `connectionId` and `connectionGeneration`;
//! `responseMode: "compact"` runs the core's canonical projection first (`raw` or no mode:
//! the extension's result as is).
//!
//! Owns: the connection to the extension, request checks (token, Host, Origin, mode) and
//! the wire shape. Must never: serve a request from a browser page (a foreign `Origin`, a
//! non-loopback `Host`), accept a WebSocket from anything but an extension, replay a call,
//! or change params beyond forwarding them.

use crate::config;
use crate::link::{FromExtension, ToExtension};
use crate::pairing;
use crate::wire::{bridge_error, BridgeCode};
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use pcc::{budget, model::projection};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// The extension must say hello this soon after connecting.
const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// A request's headers must arrive this soon after the connection opens (or after the
/// previous response): idle sockets cannot pile up.
const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);
/// Open connections at most (well under a 1,024-descriptor limit); the next waits in the
/// listen backlog until one closes.
const MAX_CONNECTIONS: usize = 256;

/// The live link to the extension.
struct Link {
    connection_id: String,
    generation: u64,
    browser_id: String,
    outbox: mpsc::UnboundedSender<String>,
    pending: Arc<Mutex<HashMap<u64, oneshot::Sender<Value>>>>,
}

pub struct Bridge {
    token: String,
    port: u16,
    /// When set, only this extension id may connect.
    extension_id: Option<String>,
    /// The consent and origin policy fields this Bridge was started with (`pcc bridge
    /// --read-user-tabs …`), handed to the extension in its welcome.
    policy: Option<Value>,
    link: Mutex<Option<Arc<Link>>>,
    next_call: AtomicU64,
    /// Why the last extension that tried to link was refused (for `pcc doctor`), and when.
    refused: Mutex<Option<(&'static str, Instant)>>,
    /// When a call or a link last happened (`--idle-exit` counts from it).
    last_use: Mutex<Instant>,
    /// budget.rs's CALL_DEADLINE_MS, or `PCC_CALL_DEADLINE_MS` (tests shorten it).
    call_deadline_ms: u64,
}

type Shared = Arc<Bridge>;

/// `idle_exit`: stop after this long with no extension linked and no call (a Bridge that
/// `launch` started; one a person starts runs until stopped).
pub async fn serve(port: u16, extension_id: Option<String>, policy: Option<Value>, idle_exit: Option<Duration>) -> std::io::Result<()> {
    let token = config::token()?;
    let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await?;
    let port = listener.local_addr()?.port();
    let call_deadline_ms = std::env::var("PCC_CALL_DEADLINE_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(budget::CALL_DEADLINE_MS as u64);
    let bridge = Arc::new(Bridge { token, port, extension_id, policy, link: Mutex::new(None), next_call: AtomicU64::new(1), refused: Mutex::new(None), last_use: Mutex::new(Instant::now()), call_deadline_ms });
    let idle = bridge.clone();
    let app = Router::new()
        .route("/health", get(health))
        .route("/call", post(call))
        .route("/extension", get(extension))
        .with_state(bridge);
    eprintln!("pcc bridge: listening on 127.0.0.1:{port} (token in {})", config::home().join("token").display());
    crate::launch::write_state(port);
    let outcome = accept_loop(listener, app, std::pin::pin!(async move {
        tokio::select! {
            _ = shutdown() => {}
            _ = idle_for(&idle, idle_exit) => eprintln!("pcc bridge: idle, exiting"),
        }
    }))
    .await;
    crate::launch::remove_state();
    outcome
}

/// Resolves once the Bridge has had no link and no call for `limit` (never without one).
async fn idle_for(b: &Bridge, limit: Option<Duration>) {
    let Some(limit) = limit else { return std::future::pending().await };
    loop {
        tokio::time::sleep(Duration::from_secs(1).min(limit)).await;
        let linked = current_link(b).is_some();
        if linked {
            touch(b);
        } else if b.last_use.lock().is_ok_and(|t| t.elapsed() >= limit) {
            return;
        }
    }
}

fn touch(b: &Bridge) {
    if let Ok(mut t) = b.last_use.lock() {
        *t = Instant::now();
    }
}

async fn accept_loop(listener: tokio::net::TcpListener, app: Router, mut stop: std::pin::Pin<&mut impl std::future::Future<Output = ()>>) -> std::io::Result<()> {
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    loop {
        let slot = tokio::select! {
            slot = slots.clone().acquire_owned() => slot.map_err(std::io::Error::other)?,
            _ = &mut stop => return Ok(()),
        };
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(_) => {
                    // E.g. out of descriptors: wait for some to close instead of spinning.
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = &mut stop => return Ok(()),
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_READ_TIMEOUT)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                .with_upgrades();
            let _ = conn.await;
        });
    }
}

async fn shutdown() {
    #[cfg(unix)]
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
    #[cfg(not(unix))]
    let mut term: Option<Never> = None;
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = async { if let Some(t) = term.as_mut() { t.recv().await; } else { std::future::pending::<()>().await } } => {}
    }
}

/// No SIGTERM off Unix: a signal source that never fires.
#[cfg(not(unix))]
struct Never;

#[cfg(not(unix))]
impl Never {
    async fn recv(&mut self) -> Option<()> {
        std::future::pending().await
    }
}

fn reply(status: StatusCode, body: Value) -> Response {
    (status, [("content-type", "application/json")], body.to_string()).into_response()
}

fn refuse(code: BridgeCode, message: &str) -> Response {
    reply(code.status(), bridge_error(code, message))
}

async fn recv_message(socket: &mut WebSocket) -> Option<FromExtension> {
    match socket.recv().await {
        Some(Ok(Message::Text(t))) => FromExtension::parse(t.as_str()),
        _ => None,
    }
}

/// The extension proves it holds the token and learns that this Bridge does too; returns
/// its browserId. Anything else (no hello, a wrong proof) ends the connection.
async fn handshake(b: &Bridge, socket: &mut WebSocket) -> Option<String> {
    let Some(FromExtension::Hello { browser_id, nonce: their_nonce }) = recv_message(socket).await else { return None };
    let browser_id: String = browser_id.chars().take(200).collect();
    if !(16..=128).contains(&their_nonce.len()) {
        return None;
    }
    let our_nonce = config::random_id();
    let challenge = ToExtension::Challenge { proof: pairing::proof(&b.token, "bridge", &their_nonce), nonce: our_nonce.clone() };
    socket.send(Message::Text(challenge.text().into())).await.ok()?;
    // An extension holding another token finds our proof wrong and closes: a refusal too.
    let Some(auth) = recv_message(socket).await else {
        refused(b, "it does not hold this Bridge's token");
        return None;
    };
    let given = match &auth {
        FromExtension::Auth { proof } => proof.as_str(),
        _ => "",
    };
    if !matches!(auth, FromExtension::Auth { .. }) || !pairing::verify(&b.token, "extension", &our_nonce, given) {
        eprintln!("pcc bridge: refused an extension that does not hold the token (run `pcc setup` once, or paste `pcc pair`'s token)");
        refused(b, "it does not hold this Bridge's token");
        return None;
    }
    Some(browser_id)
}

/// Loopback `Host` only (DNS rebinding), no `Origin` (drive-by pages), the right token.
fn check_http(b: &Bridge, headers: &HeaderMap) -> Result<(), Response> {
    let host = headers.get("host").and_then(|h| h.to_str().ok()).unwrap_or("");
    if !is_loopback_host(host, b.port) {
        return Err(refuse(BridgeCode::Forbidden, "the Host header is not a loopback address of this Bridge"));
    }
    if headers.contains_key("origin") {
        return Err(refuse(BridgeCode::Forbidden, "requests from web pages are refused"));
    }
    let auth = headers.get("authorization").and_then(|h| h.to_str().ok()).unwrap_or("");
    let given = auth.strip_prefix("Bearer ").unwrap_or("");
    if !pairing::same(given, &b.token) {
        return Err(refuse(BridgeCode::Unauthorized, "missing or wrong token"));
    }
    Ok(())
}

fn is_loopback_host(host: &str, port: u16) -> bool {
    let (name, tail) = match host.strip_prefix('[') {
        Some(rest) => match rest.split_once(']') {
            Some((inner, tail)) => (format!("[{inner}]"), tail),
            None => return false,
        },
        None => match host.split_once(':') {
            Some((name, _)) => (name.to_string(), &host[name.len()..]),
            None => (host.to_string(), ""),
        },
    };
    let port_ok = tail.is_empty() || tail.strip_prefix(':').and_then(|p| p.parse::<u16>().ok()) == Some(port);
    port_ok && matches!(name.as_str(), "127.0.0.1" | "localhost" | "[::1]")
}


fn refused(b: &Bridge, why: &'static str) {
    if let Ok(mut r) = b.refused.lock() {
        *r = Some((why, Instant::now()));
    }
}

fn current_link(b: &Bridge) -> Option<Arc<Link>> {
    b.link.lock().ok()?.clone()
}

async fn health(State(b): State<Shared>, headers: HeaderMap) -> Response {
    if let Err(r) = check_http(&b, &headers) {
        return r;
    }
    let mut out = json!({
        "ok": true,
        "version": env!("CARGO_PKG_VERSION"),
        "connected": false,
        "capabilities": {"compactResponses": true, "responseModes": ["compact", "raw"], "compactMethods": projection::COMPACT_METHODS},
    });
    if let Some(link) = current_link(&b) {
        out["connected"] = true.into();
        out["browserId"] = link.browser_id.clone().into();
        out["connectionId"] = link.connection_id.clone().into();
        out["connectionGeneration"] = link.generation.into();
    } else if let Some((why, at)) = b.refused.lock().ok().and_then(|r| *r) {
        out["refused"] = json!({"why": why, "secondsAgo": at.elapsed().as_secs()});
    }
    reply(StatusCode::OK, out)
}

/// A validated `POST /call` body.
struct CallRequest {
    method: String,
    params: Map<String, Value>,
    compact: bool,
    /// The agent session the call belongs to (one per client: `client.rs`).
    session: Option<String>,
}

fn parse_call(body: &[u8]) -> Result<CallRequest, Response> {
    let invalid = |m: &str| refuse(BridgeCode::InvalidRequest, m);
    let v: Value = serde_json::from_slice(body).map_err(|_| invalid("the body must be a JSON object {method, params, responseMode}"))?;
    let method = v.get("method").and_then(Value::as_str).filter(|m| !m.is_empty()).ok_or_else(|| invalid("method must be a non-empty string"))?;
    let params = match v.get("params") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(p)) => p.clone(),
        Some(_) => return Err(invalid("params must be an object")),
    };
    let compact = match v.get("responseMode") {
        None | Some(Value::Null) => false,
        Some(Value::String(m)) if m == "raw" => false,
        Some(Value::String(m)) if m == "compact" => true,
        Some(_) => return Err(invalid("responseMode must be \"compact\" or \"raw\"")),
    };
    if compact && !projection::has_compact(method) {
        return Err(invalid(&format!("{method} has no compact projection; use responseMode \"raw\" or omit it")));
    }
    let session = match v.get("session") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if crate::client::valid_session(s) => Some(s.clone()),
        Some(_) => return Err(invalid("session must be 1 to 64 of A-Z a-z 0-9 . _ : -")),
    };
    Ok(CallRequest { method: method.to_string(), params, compact, session })
}

async fn call(State(b): State<Shared>, headers: HeaderMap, body: axum::body::Bytes) -> Response {
    if let Err(r) = check_http(&b, &headers) {
        return r;
    }
    touch(&b);
    let mut req = match parse_call(&body) {
        Ok(r) => r,
        Err(r) => return r,
    };
    // Local files a call names are checked on this machine before the browser sees them.
    if let Err(m) = crate::files::check(&req.method, &mut req.params) {
        return refuse(BridgeCode::InvalidRequest, &m);
    }
    let Some(link) = current_link(&b) else {
        return refuse(BridgeCode::NotConnected, "no browser extension is connected to this Bridge");
    };
    let id = b.next_call.fetch_add(1, Ordering::Relaxed);
    let (tx, rx) = oneshot::channel();
    if let Ok(mut p) = link.pending.lock() {
        p.insert(id, tx);
    }
    let msg = ToExtension::Call { id, method: req.method.clone(), params: Value::Object(req.params.clone()), session: req.session.clone() };
    if link.outbox.send(msg.text()).is_err() {
        if let Ok(mut p) = link.pending.lock() {
            p.remove(&id);
        }
        return refuse(BridgeCode::NotConnected, "the extension disconnected");
    }
    let result = match tokio::time::timeout(answer_by(b.call_deadline_ms, &req.params), rx).await {
        Ok(Ok(v)) => v,
        // The call reached the extension: its outcome is unknown, and it is never replayed.
        Ok(Err(_)) => return reply(StatusCode::OK, uncertain(&link, "the extension disconnected during the call")),
        Err(_) => {
            if let Ok(mut p) = link.pending.lock() {
                p.remove(&id);
            }
            return reply(StatusCode::OK, late(&link, &req.method));
        }
    };
    let mut out = match result {
        Value::Object(o) => o,
        other => {
            let mut o = Map::new();
            o.insert("value".into(), other);
            o
        }
    };
    stamp(&mut out, &link);
    let out = Value::Object(out);
    if req.compact {
        return match projection::project(&req.method, &out) {
            Ok(v) => reply(StatusCode::OK, v),
            Err(e) => reply(StatusCode::OK, json!({"error": e})),
        };
    }
    reply(StatusCode::OK, out)
}

fn stamp(out: &mut Map<String, Value>, link: &Link) {
    out.insert("browserId".into(), link.browser_id.clone().into());
    out.insert("connectionId".into(), link.connection_id.clone().into());
    out.insert("connectionGeneration".into(), link.generation.into());
}

/// The call's deadline (its `timeout` included, as the worker counts it) plus a grace: the
/// worker answers by its deadline unless it is too busy to, and then the Bridge answers.
fn answer_by(deadline_ms: u64, params: &Map<String, Value>) -> Duration {
    let timeout = params.get("timeout").and_then(Value::as_u64).map_or(0, |t| t.min(budget::TIMEOUT_MAX_MS as u64));
    Duration::from_millis(deadline_ms + timeout + budget::CALL_GRACE_MS as u64)
}

/// A call the extension did not answer by its deadline: a read found the tab unavailable; a
/// side effect (anything the catalogue does not mark read-only) may have happened.
fn late(link: &Link, method: &str) -> Value {
    if !crate::tools::find(method).is_some_and(|t| t.read_only) {
        return uncertain(link, "the extension did not answer in time");
    }
    let mut out = Map::new();
    out.insert(
        "error".into(),
        crate::wire::error_value("BROWSER_PAGE_UNAVAILABLE", "the tab did not answer in time: it may be hung or crashed"),
    );
    stamp(&mut out, link);
    Value::Object(out)
}

fn uncertain(link: &Link, message: &str) -> Value {
    let mut out = Map::new();
    out.insert(
        "error".into(),
        crate::wire::error_value("BROWSER_OPERATION_UNCERTAIN", message),
    );
    stamp(&mut out, link);
    Value::Object(out)
}

async fn extension(State(b): State<Shared>, headers: HeaderMap, ws: WebSocketUpgrade) -> Response {
    let origin = headers.get("origin").and_then(|h| h.to_str().ok()).unwrap_or("");
    let allowed = match (&b.extension_id, origin.strip_prefix("chrome-extension://")) {
        (Some(id), Some(rest)) => rest.trim_end_matches('/') == id,
        (None, Some(rest)) => !rest.is_empty(),
        (_, None) => false,
    };
    if !allowed {
        if origin.starts_with("chrome-extension://") {
            refused(&b, "its extension ID is not the one this Bridge pins (--extension-id)");
        }
        return refuse(BridgeCode::Forbidden, "only the browser extension may connect here");
    }
    ws.on_upgrade(move |socket| run_link(b, socket))
}

/// One extension connection: hello → challenge → auth → welcome (mutual proof of the
/// token, see `pairing`), then calls out and results in until it closes.
async fn run_link(b: Shared, mut socket: WebSocket) {
    let Ok(Some(browser_id)) = tokio::time::timeout(HELLO_TIMEOUT, handshake(&b, &mut socket)).await else {
        let _ = socket.send(Message::Close(None)).await;
        return;
    };
    let (outbox, mut outgoing) = mpsc::unbounded_channel::<String>();
    let link = Arc::new(Link {
        connection_id: format!("conn-{}", config::random_id()),
        generation: config::next_generation(),
        browser_id,
        outbox,
        pending: Arc::new(Mutex::new(HashMap::new())),
    });
    let welcome = ToExtension::Welcome { connection_id: link.connection_id.clone(), connection_generation: link.generation, policy: b.policy.clone() };
    if socket.send(Message::Text(welcome.text().into())).await.is_err() {
        return;
    }
    if let Ok(mut l) = b.link.lock() {
        // A newer extension connection replaces the old one; its pending calls fail as
        // uncertain when the old sockets' pending map is dropped.
        *l = Some(link.clone());
    }
    eprintln!("pcc bridge: extension connected ({}, generation {})", link.connection_id, link.generation);
    loop {
        tokio::select! {
            msg = outgoing.recv() => match msg {
                Some(text) => if socket.send(Message::Text(text.into())).await.is_err() { break },
                None => break,
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(t))) => deliver(&link, t.as_str()),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                Some(Ok(_)) => {}
            },
        }
    }
    if let Ok(mut l) = b.link.lock() {
        if l.as_ref().is_some_and(|cur| Arc::ptr_eq(cur, &link)) {
            *l = None;
        }
    }
    if let Ok(mut p) = link.pending.lock() {
        p.clear(); // waiting calls see a closed channel: uncertain
    }
    eprintln!("pcc bridge: extension disconnected ({})", link.connection_id);
}

fn deliver(link: &Link, text: &str) {
    // (Pings keep the worker alive: nothing to do.)
    let Some(FromExtension::Result { id, result }) = FromExtension::parse(text) else { return };
    let waiter = link.pending.lock().ok().and_then(|mut p| p.remove(&id));
    if let Some(tx) = waiter {
        let _ = tx.send(result);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_answer_by(params: Value, expect_ms: u64) {
        let Value::Object(p) = params else { unreachable!() };
        assert_eq!(answer_by(1_000, &p), Duration::from_millis(expect_ms), "{p:?}");
    }

    #[test]
    fn the_bridge_answers_after_the_deadline_plus_grace() {
        check_answer_by(json!({}), 3_000);
    }

    #[test]
    fn a_calls_timeout_extends_its_deadline_up_to_the_cap() {
        check_answer_by(json!({"timeout": 4_000}), 7_000);
        check_answer_by(json!({"timeout": 10_000_000}), 3_000 + budget::TIMEOUT_MAX_MS as u64);
        check_answer_by(json!({"timeout": "soon"}), 3_000);
    }

    #[test]
    fn only_loopback_hosts_of_this_port() {
        assert!(is_loopback_host("127.0.0.1:17373", 17373));
        assert!(is_loopback_host("localhost:17373", 17373));
        assert!(is_loopback_host("[::1]:17373", 17373));
        assert!(is_loopback_host("localhost", 17373));
        assert!(!is_loopback_host("evil.example:17373", 17373));
        assert!(!is_loopback_host("127.0.0.1:80", 17373));
        assert!(!is_loopback_host("127.0.0.1.evil.example:17373", 17373));
        assert!(!is_loopback_host("", 17373));
    }

    #[test]
    fn modes_are_checked() {
        assert!(parse_call(br#"{"method":"browser_snapshot","responseMode":"compact"}"#).is_ok());
        assert!(parse_call(br#"{"method":"browser_click","responseMode":"raw"}"#).is_ok());
        assert!(parse_call(br#"{"method":"browser_click","responseMode":"compact"}"#).is_err());
        assert!(parse_call(br#"{"method":"browser_snapshot","responseMode":"tiny"}"#).is_err());
        assert!(parse_call(br#"{"method":"browser_snapshot","params":[]}"#).is_err());
        assert!(parse_call(b"not json").is_err());
    }
}
