//! `pcc doctor`: walks the chain a call takes — this program on the PATH, the native-messaging
//! host, the Bridge, the extension and its pairing — and names the first missing piece with
//! the command that fixes it; when the extension is linked, the extension's own
//! `browser_doctor` follows. The checks are a pure function of the facts gathered, so each
//! diagnosis is tested on its own.
//!
//! Owns: those diagnoses and their fixes. Must never: start a Bridge (it reports what is), or
//! print the token.

use crate::{native, setup};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What the Bridge's `/health` said.
pub enum Bridge {
    /// Nothing listens (or no state directory yet).
    Down,
    /// Something answers on the port but refuses this state directory's token.
    OtherToken,
    Up(Value),
}

pub struct Facts {
    /// This program.
    pub exe: PathBuf,
    /// What `pcc` resolves to on the PATH.
    pub on_path: Option<PathBuf>,
    /// The host manifests found: (for what, path, contents).
    pub hosts: Vec<(String, PathBuf, Option<Value>)>,
    pub port: u16,
    pub bridge: Bridge,
    /// The native host's last contact from the profile checked: (origin, seconds ago).
    pub contact: Option<(String, u64)>,
    /// Whether a Bridge is started when a call needs one (`PCC_AUTOSTART` is not 0).
    pub autostart: bool,
}

#[derive(Debug, PartialEq, Eq)]
pub struct Check {
    pub ok: bool,
    pub what: String,
    pub fix: Option<String>,
}

fn ok(what: String) -> Check {
    Check { ok: true, what, fix: None }
}

fn missing(what: String, fix: &str) -> Check {
    Check { ok: false, what, fix: Some(fix.to_string()) }
}

const INSTALL: &str = "./build.sh install (in the pi-control-chrome checkout)";

pub fn checks(f: &Facts) -> Vec<Check> {
    let mut out = Vec::new();
    out.push(match &f.on_path {
        Some(p) if same_file(p, &f.exe) => ok(format!("pcc is on the PATH ({})", p.display())),
        Some(p) => missing(format!("`pcc` on the PATH is another program ({}, this one is {})", p.display(), f.exe.display()), INSTALL),
        None => missing(format!("`pcc` is not on the PATH (this one is {})", f.exe.display()), "add its directory to PATH (e.g. export PATH=\"$HOME/.local/bin:$PATH\"), or run ./build.sh install"),
    });
    let pinned = setup::pinned_extension_id();
    let good: Vec<&(String, PathBuf, Option<Value>)> = f.hosts.iter().filter(|(_, _, m)| m.as_ref().is_some_and(|m| host_runs(m) && allows(m, &pinned))).collect();
    out.push(if f.hosts.is_empty() {
        missing("the native-messaging host is not registered (the extension cannot find the Bridge by itself)".into(), "pcc setup (add --user-data-dir DIR for a browser started with one)")
    } else if good.is_empty() {
        missing(format!("the native-messaging host ({}) names a missing program or not this extension", f.hosts[0].1.display()), "pcc setup")
    } else {
        ok(format!("native-messaging host registered for {}", good.iter().map(|h| h.0.as_str()).collect::<Vec<_>>().join(", ")))
    });
    let health = match &f.bridge {
        // Nothing is missing: the extension, the CLI and MCP start one (doctor never does).
        Bridge::Down if f.autostart => {
            out.push(ok(format!("no Bridge runs on 127.0.0.1:{} now; the extension, the CLI and MCP start one when they need it", f.port)));
            None
        }
        Bridge::Down => {
            out.push(missing(format!("no Bridge answers on 127.0.0.1:{}, and none is started by itself (PCC_AUTOSTART=0)", f.port), "run `pcc bridge`, or unset PCC_AUTOSTART"));
            None
        }
        Bridge::OtherToken => {
            out.push(missing(format!("the program on port {} refuses this state directory's token (another Bridge, PCC_HOME differs)", f.port), "stop that program, or use its PCC_HOME / another --port"));
            None
        }
        Bridge::Up(h) => {
            out.push(ok(format!("the Bridge answers on 127.0.0.1:{}", f.port)));
            Some(h)
        }
    };
    let Some(h) = health else { return out };
    if h.get("connected").and_then(Value::as_bool) == Some(true) {
        out.push(ok("the extension is linked and paired".into()));
        return out;
    }
    out.push(match (h.get("refused").and_then(|r| r.get("why")).and_then(Value::as_str), &f.contact) {
        (Some(why), _) => missing(format!("an extension tried to link and was refused: {why}"), "pcc setup, then reload the extension (chrome://extensions); or paste the token `pcc pair` prints into its options"),
        (None, None) => missing(
            "no extension has reached this Bridge or its native host from this profile: the extension is not loaded, its ID is not the one the host allows, or the browser reads another profile's hosts".into(),
            "load dist/extension (chrome://extensions → Developer mode → Load unpacked); for a store install: pcc setup --extension-id <its ID>; for a browser started with --user-data-dir DIR: pcc setup --user-data-dir DIR (and pcc doctor --user-data-dir DIR)",
        ),
        (None, Some((origin, ago))) => missing(
            format!("the extension ({origin}) reached the native host {ago} s ago but is not linked"),
            "reload the extension (chrome://extensions), or paste the token `pcc pair` prints into its options",
        ),
    });
    out
}

fn host_runs(m: &Value) -> bool {
    m.get("path").and_then(Value::as_str).is_some_and(|p| Path::new(p).is_file())
}

fn allows(m: &Value, id: &str) -> bool {
    let origin = format!("chrome-extension://{id}/");
    m.get("allowed_origins").and_then(Value::as_array).is_some_and(|a| a.iter().any(|o| o.as_str() == Some(origin.as_str())))
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// `pcc` as the PATH resolves it.
fn which_pcc() -> Option<PathBuf> {
    let name = if cfg!(windows) { "pcc.exe" } else { "pcc" };
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|p| p.is_file())
}

/// Doctor's verdict: the checks printed, and the exit code when it ends there (something is
/// missing, or no Bridge runs: doctor never starts one); None when the extension's own
/// `browser_doctor` follows.
pub fn run(port: u16, user_data_dirs: &[PathBuf]) -> Option<i32> {
    let facts = gather(port, user_data_dirs);
    let checks = checks(&facts);
    if !print(&checks) {
        return Some(crate::exit::EXIT_BRIDGE);
    }
    (!matches!(facts.bridge, Bridge::Up(_))).then_some(crate::exit::EXIT_OK)
}

pub fn gather(port: u16, user_data_dirs: &[PathBuf]) -> Facts {
    let bridge = match crate::client::Client::new(port).health() {
        Ok(h) if h.get("ok").and_then(Value::as_bool) == Some(true) => Bridge::Up(h),
        Ok(_) => Bridge::OtherToken,
        Err(_) => Bridge::Down,
    };
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    Facts {
        exe: std::env::current_exe().unwrap_or_default(),
        on_path: which_pcc(),
        hosts: setup::installed(&[user_data_dirs, &setup::recorded_profiles()].concat()),
        port,
        bridge,
        // The profile checked: the one named, else the default (another profile's contact
        // says nothing about this one).
        contact: if user_data_dirs.is_empty() { native::last_contact(None) } else { user_data_dirs.iter().find_map(|d| native::last_contact(Some(d))) }.map(|(o, at)| (o, now.saturating_sub(at))),
        autostart: crate::launch::enabled(),
    }
}

/// Prints the checks; true when nothing is missing.
pub fn print(checks: &[Check]) -> bool {
    for c in checks {
        match &c.fix {
            None => println!("ok       {}", c.what),
            Some(fix) => println!("MISSING  {}\n         fix: {fix}", c.what),
        }
    }
    checks.iter().all(|c| c.ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn facts() -> Facts {
        let exe = std::env::current_exe().unwrap();
        let host = json!({"path": exe.to_string_lossy(), "allowed_origins": [format!("chrome-extension://{}/", setup::pinned_extension_id())]});
        Facts { exe: exe.clone(), on_path: Some(exe), hosts: vec![("chromium".into(), PathBuf::from("/h/x.json"), Some(host))], port: 17373, bridge: Bridge::Up(json!({"ok": true, "connected": true})), contact: None, autostart: true }
    }

    /// The first missing piece and its fix.
    fn check(f: Facts, expect_what: &str, expect_fix: &str) {
        let got = checks(&f);
        let first = got.iter().find(|c| !c.ok).unwrap_or_else(|| panic!("nothing missing in {got:?}"));
        assert!(first.what.contains(expect_what), "{first:?}");
        assert!(first.fix.as_deref().unwrap_or("").contains(expect_fix), "{first:?}");
    }

    #[test]
    fn all_there() {
        assert!(checks(&facts()).iter().all(|c| c.ok), "{:?}", checks(&facts()));
    }

    #[test]
    fn not_on_the_path() {
        check(Facts { on_path: None, ..facts() }, "not on the PATH", "PATH");
    }

    #[test]
    fn no_native_host() {
        check(Facts { hosts: vec![], ..facts() }, "not registered", "pcc setup");
    }

    #[test]
    fn a_host_for_a_removed_program_or_another_extension() {
        let f = facts();
        let stale = json!({"path": "/nowhere/pcc", "allowed_origins": f.hosts[0].2.as_ref().unwrap()["allowed_origins"].clone()});
        check(Facts { hosts: vec![("chrome".into(), PathBuf::from("/h/y.json"), Some(stale))], ..facts() }, "names a missing program", "pcc setup");
        let other = json!({"path": f.exe.to_string_lossy(), "allowed_origins": ["chrome-extension://abcdefghijklmnopabcdefghijklmnop/"]});
        check(Facts { hosts: vec![("chrome".into(), PathBuf::from("/h/y.json"), Some(other))], ..facts() }, "not this extension", "pcc setup");
    }

    #[test]
    fn bridge_down_and_not_started_by_itself() {
        check(Facts { bridge: Bridge::Down, autostart: false, ..facts() }, "no Bridge answers", "pcc bridge");
    }

    #[test]
    fn bridge_down_is_nothing_missing_when_calls_start_it() {
        let got = checks(&Facts { bridge: Bridge::Down, ..facts() });
        assert!(got.iter().all(|c| c.ok && c.fix.is_none()), "{got:?}");
        assert!(got.last().unwrap().what.contains("start one when they need it"), "{got:?}");
    }

    #[test]
    fn no_verdict_contradicts_its_fix() {
        // A check that is missing has a fix that does something; one that is not has none.
        let all = [Facts { bridge: Bridge::Down, autostart: false, ..facts() }, Facts { bridge: Bridge::Down, ..facts() }, Facts { hosts: vec![], ..facts() }, Facts { bridge: Bridge::Up(json!({"ok": true, "connected": false})), ..facts() }];
        for f in all {
            for c in checks(&f) {
                assert_eq!(c.ok, c.fix.is_none(), "{c:?}");
                assert!(!c.fix.as_deref().unwrap_or("").contains("none needed"), "{c:?}");
            }
        }
    }

    #[test]
    fn another_program_on_the_port() {
        check(Facts { bridge: Bridge::OtherToken, ..facts() }, "refuses this state directory's token", "PCC_HOME");
    }

    #[test]
    fn extension_not_loaded() {
        check(Facts { bridge: Bridge::Up(json!({"ok": true, "connected": false})), ..facts() }, "not loaded", "Load unpacked");
        check(Facts { bridge: Bridge::Up(json!({"ok": true, "connected": false})), ..facts() }, "another profile", "pcc setup --user-data-dir DIR");
    }

    #[test]
    fn extension_not_paired() {
        let h = json!({"ok": true, "connected": false, "refused": {"why": "it does not hold this Bridge's token", "secondsAgo": 3}});
        check(Facts { bridge: Bridge::Up(h), ..facts() }, "refused: it does not hold", "pcc setup");
    }

    #[test]
    fn extension_reached_the_host_but_did_not_link() {
        check(Facts { bridge: Bridge::Up(json!({"ok": true, "connected": false})), contact: Some(("chrome-extension://x/".into(), 5)), ..facts() }, "reached the native host 5 s ago", "reload the extension");
    }
}
