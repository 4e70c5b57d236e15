//! `pcc setup`: registers `pcc` as the extension's native-messaging host, so that the
//! extension learns the Bridge's port and token (and has the Bridge started) with nothing
//! pasted. Chrome, Chromium and Edge each look for a host manifest in a per-user place of
//! their own: a directory on Linux and macOS (or `<user-data-dir>/NativeMessagingHosts` for a
//! profile started with `--user-data-dir`), a registry key naming the manifest on Windows.
//! The manifest allows only our extension: the ID the manifest's `key` pins for unpacked
//! installs, plus any `--extension-id` (a store install has the store's ID).
//!
//! Owns: where host manifests go and what they say. Must never: allow an origin that is not
//! a chrome-extension ID, or write outside those places.

use base64::Engine;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The native-messaging host's name (the extension's `sendNativeMessage` names it too).
pub const HOST_NAME: &str = "com.pi_control_chrome.pcc";

/// The extension's manifest: its `key` pins the ID of an unpacked install.
const EXTENSION_MANIFEST: &str = include_str!("../../extension/manifest.json");

/// The ID Chrome gives an extension whose manifest carries `key` (base64 of its public key,
/// DER): the first 128 bits of SHA-256 of the key, each hex digit written a–p.
pub fn id_of_key(key_b64: &str) -> Option<String> {
    let der = base64::engine::general_purpose::STANDARD.decode(key_b64.trim()).ok()?;
    let digest = Sha256::digest(&der);
    Some(digest[..16].iter().flat_map(|b| [b >> 4, b & 15]).map(|n| (b'a' + n) as char).collect())
}

/// The pinned ID of our extension (from `extension/manifest.json`'s `key`).
pub fn pinned_extension_id() -> String {
    serde_json::from_str::<Value>(EXTENSION_MANIFEST).ok().and_then(|m| id_of_key(m.get("key")?.as_str()?)).unwrap_or_default()
}

/// An extension ID: 32 letters a–p.
pub fn is_extension_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| (b'a'..=b'p').contains(&b))
}

/// The host manifest: `pcc` at `exe`, reachable by these extension IDs only.
pub fn host_manifest(exe: &Path, ids: &[String]) -> Value {
    let origins: Vec<String> = ids.iter().map(|id| format!("chrome-extension://{id}/")).collect();
    json!({
        "name": HOST_NAME,
        "description": "pi-control-chrome: tells the extension where the local Bridge listens (and starts it)",
        "path": exe.to_string_lossy(),
        "type": "stdio",
        "allowed_origins": origins,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Linux,
    Mac,
    Windows,
}

impl Os {
    pub fn current() -> Os {
        if cfg!(target_os = "macos") {
            Os::Mac
        } else if cfg!(windows) {
            Os::Windows
        } else {
            Os::Linux
        }
    }
}

/// The browsers `pcc setup` knows: (name, Linux config dir, macOS Application Support dir,
/// Windows registry key under HKCU). Chrome's channels share one registry key on Windows.
pub const BROWSERS: &[(&str, &str, &str, &str)] = &[
    ("chrome", "google-chrome", "Google/Chrome", r"Software\Google\Chrome"),
    ("chrome-beta", "google-chrome-beta", "Google/Chrome Beta", r"Software\Google\Chrome"),
    ("chrome-dev", "google-chrome-unstable", "Google/Chrome Dev", r"Software\Google\Chrome"),
    ("chrome-canary", "", "Google/Chrome Canary", r"Software\Google\Chrome"),
    ("chromium", "chromium", "Chromium", r"Software\Chromium"),
    ("edge", "microsoft-edge", "Microsoft Edge", r"Software\Microsoft\Edge"),
    ("edge-beta", "microsoft-edge-beta", "Microsoft Edge Beta", r"Software\Microsoft\Edge"),
    ("edge-dev", "microsoft-edge-dev", "Microsoft Edge Dev", r"Software\Microsoft\Edge"),
];

/// The browsers registered when none is named and none is installed yet.
pub const DEFAULT_BROWSERS: &[&str] = &["chrome", "chromium", "edge"];

/// The per-user places of one machine.
pub struct Places {
    pub os: Os,
    pub home: PathBuf,
    /// `$XDG_CONFIG_HOME` (Linux), when set.
    pub xdg_config: Option<PathBuf>,
    /// `%LOCALAPPDATA%` (Windows), when set.
    pub local_app_data: Option<PathBuf>,
}

impl Places {
    pub fn of_this_machine() -> Places {
        let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
        Places { os: Os::current(), home: var("HOME").or_else(|| var("USERPROFILE")).unwrap_or_else(|| PathBuf::from(".")), xdg_config: var("XDG_CONFIG_HOME"), local_app_data: var("LOCALAPPDATA") }
    }

    /// A browser's user data directory (None: not on this OS).
    pub fn browser_dir(&self, browser: &str) -> Option<PathBuf> {
        let &(_, linux, mac, _) = BROWSERS.iter().find(|b| b.0 == browser)?;
        match self.os {
            Os::Linux if !linux.is_empty() => Some(self.xdg_config.clone().unwrap_or_else(|| self.home.join(".config")).join(linux)),
            Os::Mac => Some(self.home.join("Library/Application Support").join(mac)),
            _ => None,
        }
    }

    /// Where Windows' host manifest lives (the registry names it).
    pub fn windows_manifest(&self) -> PathBuf {
        self.local_app_data.clone().unwrap_or_else(|| self.home.join("AppData").join("Local")).join("pi-control-chrome").join(format!("{HOST_NAME}.json"))
    }
}

/// One place a host manifest is written to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// What it is for ("chromium", "profile /tmp/x", …).
    pub label: String,
    pub manifest: PathBuf,
    /// Windows: the HKCU key whose default value names the manifest.
    pub registry_key: Option<String>,
}

/// The targets of `pcc setup`: the given profiles' `NativeMessagingHosts`, else the named
/// browsers, else every known browser installed (its directory exists), else the defaults.
pub fn targets(places: &Places, browsers: &[String], user_data_dirs: &[PathBuf], exists: impl Fn(&Path) -> bool) -> Result<Vec<Target>, String> {
    let file = format!("{HOST_NAME}.json");
    let mut out: Vec<Target> = user_data_dirs.iter().map(|d| Target { label: format!("profile {}", d.display()), manifest: d.join("NativeMessagingHosts").join(&file), registry_key: None }).collect();
    if !user_data_dirs.is_empty() && browsers.is_empty() {
        return Ok(out);
    }
    for b in browsers {
        if !BROWSERS.iter().any(|k| k.0 == b) {
            return Err(format!("unknown browser {b:?}: one of {}", BROWSERS.iter().map(|k| k.0).collect::<Vec<_>>().join(", ")));
        }
    }
    let chosen: Vec<&str> = if !browsers.is_empty() {
        browsers.iter().map(String::as_str).collect()
    } else if places.os == Os::Windows {
        DEFAULT_BROWSERS.to_vec()
    } else {
        let installed: Vec<&str> = BROWSERS.iter().map(|b| b.0).filter(|b| places.browser_dir(b).is_some_and(|d| exists(&d))).collect();
        if installed.is_empty() {
            DEFAULT_BROWSERS.to_vec()
        } else {
            installed
        }
    };
    for b in chosen {
        if places.os == Os::Windows {
            let key = BROWSERS.iter().find(|k| k.0 == b).map(|k| format!(r"HKCU\{}\NativeMessagingHosts\{HOST_NAME}", k.3));
            if !out.iter().any(|t| t.registry_key == key) {
                out.push(Target { label: b.to_string(), manifest: places.windows_manifest(), registry_key: key });
            }
        } else if let Some(dir) = places.browser_dir(b) {
            out.push(Target { label: b.to_string(), manifest: dir.join("NativeMessagingHosts").join(&file), registry_key: None });
        }
    }
    Ok(out)
}

/// `reg.exe` arguments that point a registry key at the manifest (or delete it).
pub fn registry_command(key: &str, manifest: Option<&Path>) -> Vec<String> {
    match manifest {
        Some(m) => vec!["add".into(), key.into(), "/ve".into(), "/t".into(), "REG_SZ".into(), "/d".into(), m.to_string_lossy().into_owned(), "/f".into()],
        None => vec!["delete".into(), key.into(), "/f".into()],
    }
}

/// The IDs a manifest allows: the pinned one and the given ones (each checked).
pub fn allowed_ids(extra: &[String]) -> Result<Vec<String>, String> {
    let mut ids = vec![pinned_extension_id()];
    for id in extra {
        if !is_extension_id(id) {
            return Err(format!("{id:?} is not an extension ID (32 letters a–p, as chrome://extensions shows it)"));
        }
        if !ids.contains(id) {
            ids.push(id.clone());
        }
    }
    Ok(ids)
}

fn write_target(t: &Target, manifest: &Value) -> Result<(), String> {
    let dir = t.manifest.parent().ok_or("no directory")?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let text = serde_json::to_string_pretty(manifest).unwrap_or_default();
    std::fs::write(&t.manifest, text + "\n").map_err(|e| format!("{}: {e}", t.manifest.display()))?;
    if let Some(key) = &t.registry_key {
        run_reg(&registry_command(key, Some(&t.manifest)))?;
    }
    Ok(())
}

fn remove_target(t: &Target) -> Result<(), String> {
    if let Some(key) = &t.registry_key {
        let _ = run_reg(&registry_command(key, None));
    }
    match std::fs::remove_file(&t.manifest) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(format!("{}: {e}", t.manifest.display())),
        _ => Ok(()),
    }
}

fn run_reg(args: &[String]) -> Result<(), String> {
    let status = std::process::Command::new("reg").args(args).stdout(std::process::Stdio::null()).status().map_err(|e| format!("reg: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("reg {} failed ({status})", args.join(" ")))
    }
}

/// What `pcc setup` was asked.
pub struct Request {
    pub browsers: Vec<String>,
    pub user_data_dirs: Vec<PathBuf>,
    pub extension_ids: Vec<String>,
    pub remove: bool,
}

/// Registers (or removes) the host; lines for the person on stdout. Exit code.
pub fn run(req: Request) -> i32 {
    let fail = |m: String| {
        eprintln!("SETUP_FAILED: {m}");
        crate::exit::EXIT_USAGE
    };
    let ids = match allowed_ids(&req.extension_ids) {
        Ok(ids) => ids,
        Err(m) => return fail(m),
    };
    let places = Places::of_this_machine();
    let mut targets = match targets(&places, &req.browsers, &req.user_data_dirs, |p| p.is_dir()) {
        Ok(t) => t,
        Err(m) => return fail(m),
    };
    if req.remove {
        // What setup made: the profiles it registered too, unless some are named.
        if req.user_data_dirs.is_empty() {
            let file = format!("{HOST_NAME}.json");
            targets.extend(recorded_profiles().into_iter().map(|d| Target { label: format!("profile {}", d.display()), manifest: d.join("NativeMessagingHosts").join(&file), registry_key: None }));
        }
        for t in &targets {
            if let Err(m) = remove_target(t) {
                return fail(m);
            }
            println!("removed the native-messaging host for {} ({})", t.label, t.manifest.display());
        }
        let gone: Vec<PathBuf> = if req.user_data_dirs.is_empty() { recorded_profiles() } else { req.user_data_dirs.clone() };
        record_profiles(recorded_profiles().into_iter().filter(|d| !gone.iter().any(|g| same_dir(g, d))).collect());
        return crate::exit::EXIT_OK;
    }
    let exe = match std::env::current_exe().and_then(|p| p.canonicalize()) {
        Ok(p) => p,
        Err(e) => return fail(format!("cannot find this program's path: {e}")),
    };
    if let Err(e) = crate::config::token() {
        return fail(format!("cannot create the token in {}: {e}", crate::config::home().display()));
    }
    let manifest = host_manifest(&exe, &ids);
    for t in &targets {
        if let Err(m) = write_target(t, &manifest) {
            return fail(m);
        }
        println!("registered the native-messaging host for {} ({})", t.label, t.manifest.display());
    }
    let mut profiles = recorded_profiles();
    for d in &req.user_data_dirs {
        let d = d.canonicalize().unwrap_or_else(|_| d.clone());
        if !profiles.iter().any(|p| same_dir(p, &d)) {
            profiles.push(d);
        }
    }
    record_profiles(profiles);
    println!("The extension ({}) now pairs with the Bridge by itself and starts it when it is not running.", ids.join(", "));
    println!("Next: load the extension (chrome://extensions → Developer mode → Load unpacked → dist/extension), then `pcc doctor`.");
    // An MCP client may start without the shell's PATH: the absolute path always works.
    println!("MCP config: {}", serde_json::json!({"command": exe.to_string_lossy(), "args": ["mcp"]}));
    crate::exit::EXIT_OK
}

/// The browser profiles (`--user-data-dir`) `pcc setup` registered the host in, kept in the
/// state directory so that `pcc setup --remove` removes what setup made and `pcc doctor` looks
/// there too.
pub fn recorded_profiles() -> Vec<PathBuf> {
    let text = std::fs::read_to_string(crate::config::home().join("profiles.json")).unwrap_or_default();
    serde_json::from_str::<Vec<PathBuf>>(&text).unwrap_or_default()
}

fn record_profiles(profiles: Vec<PathBuf>) {
    let path = crate::config::home().join("profiles.json");
    if profiles.is_empty() {
        let _ = std::fs::remove_file(path);
    } else if let Ok(text) = serde_json::to_string(&profiles) {
        let _ = std::fs::write(path, text);
    }
}

fn same_dir(a: &Path, b: &Path) -> bool {
    a == b || (a.canonicalize().ok().is_some() && a.canonicalize().ok() == b.canonicalize().ok())
}

/// The host manifests this machine has for us (for `pcc doctor`): (label, path, manifest).
pub fn installed(user_data_dirs: &[PathBuf]) -> Vec<(String, PathBuf, Option<Value>)> {
    let places = Places::of_this_machine();
    let all: Vec<String> = BROWSERS.iter().map(|b| b.0.to_string()).collect();
    let mut seen = Vec::new();
    for t in targets(&places, &all, user_data_dirs, |_| true).unwrap_or_default() {
        if seen.iter().any(|(_, p, _): &(String, PathBuf, Option<Value>)| *p == t.manifest) || !t.manifest.exists() {
            continue;
        }
        let v = std::fs::read_to_string(&t.manifest).ok().and_then(|s| serde_json::from_str(&s).ok());
        seen.push((t.label, t.manifest, v));
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places(os: Os) -> Places {
        Places { os, home: PathBuf::from("/h"), xdg_config: None, local_app_data: Some(PathBuf::from(r"C:\Users\u\AppData\Local")) }
    }

    fn check(os: Os, browsers: &[&str], dirs: &[&str], installed: &[&str], expect: &[&str]) {
        let browsers: Vec<String> = browsers.iter().map(|s| s.to_string()).collect();
        let dirs: Vec<PathBuf> = dirs.iter().map(PathBuf::from).collect();
        let got = targets(&places(os), &browsers, &dirs, |p| installed.iter().any(|i| p == Path::new(i))).unwrap();
        let got: Vec<String> = got.iter().map(|t| t.registry_key.clone().unwrap_or_else(|| t.manifest.to_string_lossy().into_owned())).collect();
        assert_eq!(got, expect);
    }

    #[test]
    fn the_pinned_id_is_the_one_chrome_derives_from_the_manifests_key() {
        // The ID headless Chromium gave the unpacked extension with this key (the onboarding
        // test checks the loaded extension's ID against this function too).
        assert_eq!(pinned_extension_id(), "fkdodadinipmkododhlcdcpkijgbfape");
        assert_eq!(id_of_key("not base64!"), None);
    }

    #[test]
    fn linux_registers_the_installed_browsers() {
        check(Os::Linux, &[], &[], &["/h/.config/chromium"], &["/h/.config/chromium/NativeMessagingHosts/com.pi_control_chrome.pcc.json"]);
    }

    #[test]
    fn linux_with_no_browser_yet_registers_chrome_chromium_and_edge() {
        check(
            Os::Linux,
            &[],
            &[],
            &[],
            &[
                "/h/.config/google-chrome/NativeMessagingHosts/com.pi_control_chrome.pcc.json",
                "/h/.config/chromium/NativeMessagingHosts/com.pi_control_chrome.pcc.json",
                "/h/.config/microsoft-edge/NativeMessagingHosts/com.pi_control_chrome.pcc.json",
            ],
        );
    }

    #[test]
    fn linux_honours_xdg_config_home() {
        let p = Places { xdg_config: Some(PathBuf::from("/x")), ..places(Os::Linux) };
        assert_eq!(p.browser_dir("edge-beta"), Some(PathBuf::from("/x/microsoft-edge-beta")));
        assert_eq!(p.browser_dir("chrome-canary"), None, "no Canary on Linux");
    }

    #[test]
    fn a_profile_dir_gets_its_own_native_messaging_hosts_only() {
        check(Os::Linux, &[], &["/tmp/prof"], &["/h/.config/chromium"], &["/tmp/prof/NativeMessagingHosts/com.pi_control_chrome.pcc.json"]);
    }

    #[test]
    fn macos_uses_application_support() {
        check(Os::Mac, &["chrome", "edge"], &[], &[], &[
            "/h/Library/Application Support/Google/Chrome/NativeMessagingHosts/com.pi_control_chrome.pcc.json",
            "/h/Library/Application Support/Microsoft Edge/NativeMessagingHosts/com.pi_control_chrome.pcc.json",
        ]);
    }

    #[test]
    fn windows_names_the_manifest_in_the_registry_once_per_key() {
        check(Os::Windows, &["chrome", "chrome-beta", "chromium", "edge"], &[], &[], &[
            r"HKCU\Software\Google\Chrome\NativeMessagingHosts\com.pi_control_chrome.pcc",
            r"HKCU\Software\Chromium\NativeMessagingHosts\com.pi_control_chrome.pcc",
            r"HKCU\Software\Microsoft\Edge\NativeMessagingHosts\com.pi_control_chrome.pcc",
        ]);
        let t = targets(&places(Os::Windows), &[], &[], |_| false).unwrap();
        assert!(t.iter().all(|t| t.manifest == Path::new(r"C:\Users\u\AppData\Local").join("pi-control-chrome").join("com.pi_control_chrome.pcc.json")));
        assert_eq!(registry_command(r"HKCU\K", Some(Path::new("m.json"))), ["add", r"HKCU\K", "/ve", "/t", "REG_SZ", "/d", "m.json", "/f"]);
        assert_eq!(registry_command(r"HKCU\K", None), ["delete", r"HKCU\K", "/f"]);
    }

    #[test]
    fn an_unknown_browser_is_refused() {
        assert!(targets(&places(Os::Linux), &["firefox".into()], &[], |_| true).is_err());
    }

    #[test]
    fn the_manifest_allows_only_extension_ids() {
        let ids = allowed_ids(&["abcdefghijklmnopabcdefghijklmnop".into()]).unwrap();
        let m = host_manifest(Path::new("/usr/bin/pcc"), &ids);
        assert_eq!(m["name"], HOST_NAME);
        assert_eq!(m["type"], "stdio");
        assert_eq!(m["path"], "/usr/bin/pcc");
        assert_eq!(m["allowed_origins"][1], "chrome-extension://abcdefghijklmnopabcdefghijklmnop/");
        assert_eq!(m["allowed_origins"].as_array().unwrap().len(), 2);
        assert!(allowed_ids(&["*".into()]).is_err());
        assert!(allowed_ids(&["chrome-extension://abcdefghijklmnopabcdefghijklmnop/".into()]).is_err());
    }
}
