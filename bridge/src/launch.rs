//! A Bridge that is there when needed: the CLI, the MCP server and the native-messaging host
//! start one (`pcc bridge --idle-exit …`, detached, its log in the state directory) when none
//! answers, and wait for it. A running Bridge leaves `bridge.json` ({port, pid}) in the state
//! directory, so the native host finds one started on another port.
//!
//! Owns: starting, finding and waiting for a Bridge. Must never: start one when
//! `PCC_AUTOSTART=0`, start a second on a port that answers, or hand the child this process's
//! stdout (the native host's stdout is its message pipe).

use crate::client::{Client, ClientError};
use crate::config;
use serde_json::{json, Map, Value};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A Bridge this module started exits after this long with no extension linked and no call.
pub const IDLE_EXIT_SECS: u64 = 15 * 60;
/// How long a started Bridge has to answer.
const START_WAIT: Duration = Duration::from_secs(5);
/// How long a caller that just started the Bridge waits for the extension to link (its
/// reconnect backoff is at most budget.rs's 5 s; its keeper wakes a stopped worker each second).
pub const LINK_WAIT: Duration = Duration::from_secs(15);

/// Whether callers may start a Bridge (`PCC_AUTOSTART=0` turns it off: a Bridge run as a
/// service, or a test of the stopped state).
pub fn enabled() -> bool {
    std::env::var("PCC_AUTOSTART").map_or(true, |v| v.trim() != "0")
}

fn state_path() -> PathBuf {
    config::home().join("bridge.json")
}

/// Written by a Bridge once it listens.
pub fn write_state(port: u16) {
    let v = json!({"port": port, "pid": std::process::id(), "version": env!("CARGO_PKG_VERSION")});
    let _ = std::fs::write(state_path(), v.to_string());
}

/// Removed by the Bridge that wrote it, when it stops.
pub fn remove_state() {
    if read_state().is_some_and(|(_, pid)| pid == std::process::id()) {
        let _ = std::fs::remove_file(state_path());
    }
}

/// (port, pid) of the last Bridge that ran with this state directory.
pub fn read_state() -> Option<(u16, u32)> {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(state_path()).ok()?).ok()?;
    Some((u16::try_from(v.get("port")?.as_u64()?).ok()?, u32::try_from(v.get("pid")?.as_u64()?).ok()?))
}

/// The health of a Bridge of this state directory on `port`, if one answers.
pub fn health(port: u16) -> Option<Value> {
    Client::new(port).health().ok().filter(|h| h.get("ok").and_then(Value::as_bool) == Some(true))
}

/// The port to use when none is given: `$PCC_PORT`, else the port of the Bridge this state
/// directory last ran (when it still answers), else the default.
pub fn port() -> u16 {
    if std::env::var("PCC_PORT").is_ok_and(|p| !p.is_empty()) {
        return config::port(None);
    }
    // Asked only of another port than the default (the answer either way on the default), so
    // the usual call pays no extra request.
    match read_state() {
        Some((p, _)) if p != config::DEFAULT_PORT && health(p).is_some() => p,
        _ => config::DEFAULT_PORT,
    }
}

/// Makes sure a Bridge answers on `port`: true when this call started it.
pub fn ensure(port: u16) -> Result<bool, String> {
    if health(port).is_some() {
        return Ok(false);
    }
    if !enabled() {
        return Err(format!("no Bridge answers on port {port} and PCC_AUTOSTART=0"));
    }
    let mut child = spawn(port)?;
    let start = Instant::now();
    while start.elapsed() < START_WAIT {
        if health(port).is_some() {
            // Reaped when it exits (a long-lived MCP server would keep a zombie otherwise).
            std::thread::spawn(move || child.wait());
            return Ok(true);
        }
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("the Bridge it started exited ({status}): {}", last_log_line()));
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    Err(format!("the Bridge it started does not answer on port {port} after {} s: {}", START_WAIT.as_secs(), last_log_line()))
}

/// Waits (up to `wait`) for the extension to link to the Bridge on `port`.
pub fn wait_linked(port: u16, wait: Duration) -> bool {
    let start = Instant::now();
    loop {
        if health(port).is_some_and(|h| h.get("connected").and_then(Value::as_bool) == Some(true)) {
            return true;
        }
        if start.elapsed() >= wait {
            return false;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn log_path() -> PathBuf {
    config::home().join("bridge.log")
}

fn last_log_line() -> String {
    let text = std::fs::read_to_string(log_path()).unwrap_or_default();
    let line = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("no log");
    format!("{line} (log: {})", log_path().display())
}

fn spawn(port: u16) -> Result<std::process::Child, String> {
    use std::process::{Command, Stdio};
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    // The token exists before the Bridge runs, so a caller can check its health at once.
    config::token().map_err(|e| format!("cannot create the token in {}: {e}", config::home().display()))?;
    let log = std::fs::OpenOptions::new().create(true).append(true).open(log_path()).map_err(|e| format!("{}: {e}", log_path().display()))?;
    let mut cmd = Command::new(exe);
    cmd.args(["bridge", "--port", &port.to_string(), "--idle-exit", &IDLE_EXIT_SECS.to_string()]).stdin(Stdio::null()).stdout(Stdio::null()).stderr(log);
    detach(&mut cmd);
    cmd.spawn().map_err(|e| format!("cannot start the Bridge: {e}"))
}

/// Its own process group (Unix) or outside the browser's job (Windows): the Bridge outlives
/// the native host the browser ends, and the terminal's Ctrl-C of a CLI.
#[cfg(unix)]
fn detach(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
}

#[cfg(windows)]
fn detach(cmd: &mut std::process::Command) {
    use std::os::windows::process::CommandExt;
    const DETACHED_PROCESS: u32 = 0x0000_0008;
    const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
    const CREATE_BREAKAWAY_FROM_JOB: u32 = 0x0100_0000;
    cmd.creation_flags(DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP | CREATE_BREAKAWAY_FROM_JOB);
}

/// A tool call as the CLI and the MCP server make it: local files it names are handled
/// on this machine (`files.rs`: a screenshot's `path` is written here, never sent). When no
/// Bridge listens (so the call was not sent), one is started (`launch`), the extension is
/// given a moment to link, and the call is made then: once.
pub fn call_tool(client: &Client, method: &str, mut params: Map<String, Value>, mode: Option<&str>) -> Result<Value, ClientError> {
    let save = match crate::files::screenshot_path(method, &mut params) {
        Ok(p) => p,
        Err(m) => return Ok(json!({"error": {"code": "INVALID_REQUEST", "message": m, "hint": "pass an absolute .png path in an existing directory"}})),
    };
    let mut result = match client.call(method, params.clone(), mode) {
        Err(ClientError::NotRunning(_) | ClientError::NoToken) if enabled() => {
            ensure(client.port).map_err(ClientError::Unreachable)?;
            wait_linked(client.port, LINK_WAIT);
            client.call(method, params, mode)?
        }
        other => other?,
    };
    if let Some(path) = save {
        crate::files::write_screenshot(&path, &mut result);
    }
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autostart_is_on_unless_turned_off() {
        // One test touches the variable (tests run in threads of one process).
        std::env::remove_var("PCC_AUTOSTART");
        assert!(enabled());
        std::env::set_var("PCC_AUTOSTART", "0");
        assert!(!enabled());
        assert!(ensure(1).is_err(), "a port nothing answers on, with autostart off, is an error, not a start");
        std::env::set_var("PCC_AUTOSTART", "1");
        assert!(enabled());
        std::env::remove_var("PCC_AUTOSTART");
    }
}
