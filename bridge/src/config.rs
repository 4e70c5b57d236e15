//! Where the Bridge keeps its per-install state: the state directory (`$PCC_HOME`, else
//! `$XDG_CONFIG_HOME/pcc`, else `~/.config/pcc` (Windows: `%APPDATA%\pcc`, private to the user
//! by the profile's own permissions), mode 0700), the token every HTTP call must
//! carry (`token`, mode 0600, created on first use), the connection generation counter
//! (`generation`, so it keeps increasing across Bridge restarts) and the port.
//!
//! Owns: file locations and permissions. Must never: print or log the token.

use std::fs;
use std::io::Write;
use std::path::PathBuf;

/// The Bridge's default port; the extension connects to the same one unless configured.
pub const DEFAULT_PORT: u16 = pcc::budget::BRIDGE_DEFAULT_PORT as u16;

pub fn home() -> PathBuf {
    if let Some(h) = std::env::var_os("PCC_HOME").filter(|h| !h.is_empty()) {
        return PathBuf::from(h);
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(|| if cfg!(windows) { std::env::var_os("APPDATA").map(PathBuf::from) } else { None })
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .unwrap_or_else(|| PathBuf::from("."));
    config.join("pcc")
}

/// The port: `--port`, else `$PCC_PORT`, else the default.
pub fn port(flag: Option<u16>) -> u16 {
    flag.or_else(|| std::env::var("PCC_PORT").ok()?.parse().ok()).unwrap_or(DEFAULT_PORT)
}

fn ensure_home() -> std::io::Result<PathBuf> {
    let dir = home();
    fs::create_dir_all(&dir)?;
    private(&dir, 0o700)?;
    Ok(dir)
}

/// Only the user may read it (Unix modes; Windows keeps the profile's own permissions).
#[cfg(unix)]
fn private(path: &std::path::Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn private(_path: &std::path::Path, _mode: u32) -> std::io::Result<()> {
    Ok(())
}

/// A new file only the user may read, from its first byte.
fn create_private(path: &std::path::Path) -> std::io::Result<fs::File> {
    let mut o = fs::OpenOptions::new();
    o.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    o.open(path)
}

/// The per-install token, created (32 random bytes, hex) with mode 0600 when missing.
pub fn token() -> std::io::Result<String> {
    let path = ensure_home()?.join("token");
    if let Ok(t) = fs::read_to_string(&path) {
        let t = t.trim().to_string();
        if t.len() >= 32 {
            private(&path, 0o600)?;
            return Ok(t);
        }
    }
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| std::io::Error::other(e.to_string()))?;
    let t: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let mut f = create_private(&path)?;
    f.write_all(t.as_bytes())?;
    private(&path, 0o600)?;
    Ok(t)
}

/// The token for clients: it must already exist (the Bridge creates it).
pub fn read_token() -> Option<String> {
    let t = fs::read_to_string(home().join("token")).ok()?;
    let t = t.trim().to_string();
    (!t.is_empty()).then_some(t)
}

/// The next connection generation: one more than any this install handed out before.
pub fn next_generation() -> u64 {
    let Ok(dir) = ensure_home() else { return 1 };
    let path = dir.join("generation");
    let next = fs::read_to_string(&path).ok().and_then(|s| s.trim().parse::<u64>().ok()).unwrap_or(0) + 1;
    let _ = fs::write(&path, next.to_string());
    next
}

/// A random id (hex) for connections.
pub fn random_id() -> String {
    let mut bytes = [0u8; 8];
    let _ = getrandom::fill(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
