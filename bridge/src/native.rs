//! The native-messaging host: Chrome starts `pcc chrome-extension://<id>/` (the manifest
//! `pcc setup` wrote names this program) when the extension calls
//! `chrome.runtime.sendNativeMessage("com.pi_control_chrome.pcc", {type: "hello"})`. It makes
//! sure a Bridge runs (`launch::ensure`) and answers `{type: "bridge", port, token}`, so the
//! extension pairs with nothing pasted; the token crosses only this pipe, which Chrome opens
//! for the extensions the manifest allows. Messages are JSON, each after its length (4 bytes,
//! native byte order), as Chrome frames them.
//!
//! Owns: the host side of that exchange and the note of the last contact per browser profile
//! (`native.json`, for `pcc doctor`: the profile is the browser's `--user-data-dir`, read from
//! the command line of the browser that started this host; `""` for the default one). Must never: write anything but framed messages to stdout, answer an origin
//! that is not an extension, or read a message larger than MAX_IN.

use crate::link::{NativeAnswer, NativeAsk};
use crate::{config, launch, setup};
use serde_json::{json, Value};
use std::io::{Read, Write};

/// The largest message accepted from the browser (ours are a few bytes).
const MAX_IN: u32 = 64 * 1024;

/// Whether `pcc` was started by a browser as a native-messaging host.
pub fn is_invocation(first_arg: &str) -> bool {
    first_arg.starts_with("chrome-extension://")
}

/// One framed message, or None at the end of input or on a malformed frame.
pub fn read_message(input: &mut impl Read) -> Option<Value> {
    let mut len = [0u8; 4];
    input.read_exact(&mut len).ok()?;
    let len = u32::from_ne_bytes(len);
    if len > MAX_IN {
        return None;
    }
    let mut body = vec![0u8; len as usize];
    input.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

pub fn write_message(output: &mut impl Write, v: &Value) -> std::io::Result<()> {
    let body = v.to_string();
    output.write_all(&(body.len() as u32).to_ne_bytes())?;
    output.write_all(body.as_bytes())?;
    output.flush()
}

/// The extension ID of a `chrome-extension://<id>/` origin.
fn extension_id(origin: &str) -> Option<&str> {
    origin.strip_prefix("chrome-extension://").map(|r| r.trim_end_matches('/')).filter(|id| setup::is_extension_id(id))
}

/// Browser profiles whose last contact is kept.
const CONTACTS_KEPT: usize = 16;

fn note_contact(origin: &str) {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let profile = browser_profile().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
    let mut contacts: Vec<Value> = contacts().into_iter().filter(|c| c.get("profile").and_then(Value::as_str) != Some(profile.as_str())).collect();
    contacts.push(json!({"origin": origin, "at": secs, "profile": profile}));
    let drop = contacts.len().saturating_sub(CONTACTS_KEPT);
    let _ = std::fs::write(config::home().join("native.json"), json!({"contacts": &contacts[drop..]}).to_string());
}

fn contacts() -> Vec<Value> {
    let text = std::fs::read_to_string(config::home().join("native.json")).unwrap_or_default();
    serde_json::from_str::<Value>(&text).ok().and_then(|v| v.get("contacts").and_then(Value::as_array).cloned()).unwrap_or_default()
}

/// The `--user-data-dir` of the browser that started this host (its parent process), when it
/// was started with one; None for the default profile (or where the OS does not say).
fn browser_profile() -> Option<std::path::PathBuf> {
    #[cfg(target_os = "linux")]
    {
        let cmdline = std::fs::read(format!("/proc/{}/cmdline", std::os::unix::process::parent_id())).ok()?;
        profile_of(cmdline.split(|b| *b == 0).map(|a| String::from_utf8_lossy(a).into_owned()))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// The `--user-data-dir` a browser's arguments name (`--user-data-dir=DIR` or `--user-data-dir DIR`).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
pub fn profile_of(args: impl Iterator<Item = String>) -> Option<std::path::PathBuf> {
    let mut args = args.peekable();
    while let Some(a) = args.next() {
        if let Some(dir) = a.strip_prefix("--user-data-dir=") {
            return Some(dir.into());
        }
        if a == "--user-data-dir" {
            return args.next().map(Into::into);
        }
    }
    None
}

/// When (unix seconds) and by whom the native host was last reached from the browser profile
/// `profile` (None: the default profile).
pub fn last_contact(profile: Option<&std::path::Path>) -> Option<(String, u64)> {
    let want = profile.map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
    let same = |c: &Value| {
        let p = c.get("profile").and_then(Value::as_str).unwrap_or("");
        p == want || (!p.is_empty() && !want.is_empty() && std::path::Path::new(p).canonicalize().ok() == std::path::Path::new(&want).canonicalize().ok())
    };
    let c = contacts().into_iter().rev().find(same)?;
    Some((c.get("origin")?.as_str()?.to_string(), c.get("at")?.as_u64()?))
}

fn error(code: &str, message: &str) -> Value {
    value(NativeAnswer::Error { error: crate::wire::error_value(code, message) })
}

fn value(a: NativeAnswer) -> Value {
    serde_json::to_value(a).unwrap_or(Value::Null)
}

/// The answer to one message from the extension.
pub fn answer(origin: &str, msg: &Value) -> Value {
    if extension_id(origin).is_none() {
        return error("INVALID_REQUEST", "the native host answers extensions only");
    }
    if serde_json::from_value::<NativeAsk>(msg.clone()).is_err() {
        return error("INVALID_REQUEST", "the native host understands {type: \"hello\"} only");
    }
    note_contact(origin);
    let port = launch::port();
    let started = match launch::ensure(port) {
        Ok(s) => s,
        Err(m) => return error("BRIDGE_UNREACHABLE", &m),
    };
    match config::read_token() {
        Some(token) => value(NativeAnswer::Bridge { port, token, started, version: env!("CARGO_PKG_VERSION").to_string() }),
        None => error("BRIDGE_UNREACHABLE", "the Bridge has no token"),
    }
}

/// Serves the browser until it closes the pipe. Exit code.
pub fn run(origin: &str) -> i32 {
    let mut input = std::io::stdin().lock();
    let mut output = std::io::stdout().lock();
    while let Some(msg) = read_message(&mut input) {
        if write_message(&mut output, &answer(origin, &msg)).is_err() {
            break;
        }
    }
    crate::exit::EXIT_OK
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_browsers_profile_is_its_user_data_dir() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>().into_iter();
        assert_eq!(profile_of(args(&["chromium", "--user-data-dir=/tmp/p", "--foo"])), Some("/tmp/p".into()));
        assert_eq!(profile_of(args(&["chromium", "--user-data-dir", "/tmp/q"])), Some("/tmp/q".into()));
        assert_eq!(profile_of(args(&["chromium", "--headless"])), None);
    }

    use super::*;

    #[test]
    fn messages_cross_framed_by_their_length() {
        let mut buf = Vec::new();
        write_message(&mut buf, &json!({"type": "hello"})).unwrap();
        assert_eq!(&buf[..4], &16u32.to_ne_bytes());
        assert_eq!(read_message(&mut buf.as_slice()), Some(json!({"type": "hello"})));
    }

    #[test]
    fn a_short_oversized_or_malformed_frame_ends_the_exchange() {
        assert_eq!(read_message(&mut [1u8, 0].as_slice()), None);
        let mut huge = (MAX_IN + 1).to_ne_bytes().to_vec();
        huge.extend_from_slice(b"{}");
        assert_eq!(read_message(&mut huge.as_slice()), None);
        let mut bad = 3u32.to_ne_bytes().to_vec();
        bad.extend_from_slice(b"{x}");
        assert_eq!(read_message(&mut bad.as_slice()), None);
        let mut cut = 10u32.to_ne_bytes().to_vec();
        cut.extend_from_slice(b"{}");
        assert_eq!(read_message(&mut cut.as_slice()), None);
    }

    #[test]
    fn only_an_extension_origin_and_a_hello_are_answered() {
        assert!(is_invocation("chrome-extension://fkdodadinipmkododhlcdcpkijgbfape/"));
        assert!(!is_invocation("snapshot"));
        assert_eq!(answer("https://evil.example/", &json!({"type": "hello"}))["error"]["code"], "INVALID_REQUEST");
        assert_eq!(answer("chrome-extension://fkdodadinipmkododhlcdcpkijgbfape/", &json!({"type": "token"}))["error"]["code"], "INVALID_REQUEST");
        assert_eq!(answer("chrome-extension://fkdodadinipmkododhlcdcpkijgbfape/", &json!([]))["type"], "error");
    }
}
