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

/// The per-install token, created (32 random bytes, hex) with mode 0600 when missing. A
/// token file is used only when it is a regular file (not a link), the user's own, readable
/// by no one else and of full strength (64 hex digits, as made here); any other is replaced,
/// and the person told why on stderr (never the token).
pub fn token() -> std::io::Result<String> {
    token_in(&ensure_home()?)
}

fn token_in(dir: &std::path::Path) -> std::io::Result<String> {
    let path = dir.join("token");
    match checked_token(dir, &path) {
        Ok(t) => return Ok(t),
        Err(TokenRefused::Missing) => {}
        Err(TokenRefused::Because(why)) => {
            eprintln!("pcc: the token file {} was {why}: replaced with a new one (the extension pairs again by itself)", path.display());
            fs::remove_file(&path)?; // (a link is removed, never what it points at)
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

/// The token for clients: it must already exist (the Bridge creates it) and pass the
/// Bridge's own checks (`token`); a client never replaces it.
pub fn read_token() -> Option<String> {
    let dir = home();
    checked_token(&dir, &dir.join("token")).ok()
}

/// Why a token file is not used.
#[derive(Debug, PartialEq)]
enum TokenRefused {
    Missing,
    Because(&'static str),
}

/// The token in `path` when the file may be trusted (see `token`).
fn checked_token(dir: &std::path::Path, path: &std::path::Path) -> Result<String, TokenRefused> {
    use std::io::Read;
    let link = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(TokenRefused::Missing),
        Err(_) => return Err(TokenRefused::Because("unreadable")),
    };
    if link.file_type().is_symlink() {
        return Err(TokenRefused::Because("a link"));
    }
    if !link.is_file() {
        return Err(TokenRefused::Because("not a regular file"));
    }
    let mut f = fs::File::open(path).map_err(|_| TokenRefused::Because("unreadable"))?;
    let opened = f.metadata().map_err(|_| TokenRefused::Because("unreadable"))?;
    owned_and_private(dir, &link, &opened)?;
    let mut t = String::new();
    f.take(256).read_to_string(&mut t).map_err(|_| TokenRefused::Because("not text"))?;
    let t = t.trim();
    if !is_full_strength(t) {
        return Err(TokenRefused::Because("too weak (not 64 random hex digits)"));
    }
    Ok(t.to_string())
}

/// Unix: the file opened is the one checked (no swap between the two), it belongs to the
/// owner of the state directory (the user: `ensure_home` could set its mode) and its mode
/// lets no one else read or write it.
#[cfg(unix)]
fn owned_and_private(dir: &std::path::Path, link: &fs::Metadata, opened: &fs::Metadata) -> Result<(), TokenRefused> {
    use std::os::unix::fs::MetadataExt;
    if (link.dev(), link.ino()) != (opened.dev(), opened.ino()) {
        return Err(TokenRefused::Because("replaced while read"));
    }
    let owner = fs::metadata(dir).map_err(|_| TokenRefused::Because("in an unreadable directory"))?.uid();
    if opened.uid() != owner {
        return Err(TokenRefused::Because("owned by another user"));
    }
    if opened.mode() & 0o077 != 0 {
        return Err(TokenRefused::Because("readable or writable by other users"));
    }
    Ok(())
}

#[cfg(not(unix))]
fn owned_and_private(_dir: &std::path::Path, _link: &fs::Metadata, _opened: &fs::Metadata) -> Result<(), TokenRefused> {
    Ok(())
}

/// 64 hex digits that look random: not a repeated or short-alphabet pattern (`aaaa…`,
/// `0123…` repeated). 32 random bytes give ~15 distinct digits; fewer than 10 happens about
/// once in 10^12 tokens.
fn is_full_strength(t: &str) -> bool {
    let mut seen = [false; 16];
    for c in t.chars() {
        match c.to_digit(16) {
            Some(d) => seen[d as usize] = true,
            None => return false,
        }
    }
    t.len() == 64 && seen.iter().filter(|&&s| s).count() >= 10
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh state directory of the test's own.
    fn dir() -> PathBuf {
        let d = std::env::temp_dir().join(format!("pcc-token-{}", random_id()));
        fs::create_dir_all(&d).unwrap();
        private(&d, 0o700).unwrap();
        d
    }

    fn write(path: &std::path::Path, text: &str, mode: u32) {
        let mut f = create_private(path).unwrap();
        f.write_all(text.as_bytes()).unwrap();
        private(path, mode).unwrap();
    }

    const GOOD: &str = "3f9a0c51d7e24b86a1c09e7f52d3b6480e1f2a9c7d5b3e61f0a48c2d9b7e5a13";

    #[test]
    fn a_good_token_file_is_used_as_it_is() {
        let d = dir();
        write(&d.join("token"), GOOD, 0o600);
        assert_eq!(token_in(&d).unwrap(), GOOD);
        assert_eq!(checked_token(&d, &d.join("token")), Ok(GOOD.to_string()));
    }

    #[test]
    fn a_weak_token_is_replaced() {
        let d = dir();
        write(&d.join("token"), &"a".repeat(32), 0o600);
        assert_eq!(checked_token(&d, &d.join("token")), Err(TokenRefused::Because("too weak (not 64 random hex digits)")));
        let t = token_in(&d).unwrap();
        assert!(is_full_strength(&t) && t != "a".repeat(32));
        write(&d.join("token"), &"0123456789abcdef".repeat(4).replace(|c: char| c > '7', "0"), 0o600);
        assert_ne!(token_in(&d).unwrap().len(), 0);
        assert!(!is_full_strength(&"0123".repeat(16)));
        assert!(!is_full_strength(&GOOD[..63]));
        assert!(!is_full_strength(&format!("{}g", &GOOD[..63])));
    }

    #[cfg(unix)]
    #[test]
    fn a_token_others_may_read_is_replaced() {
        let d = dir();
        write(&d.join("token"), GOOD, 0o644);
        assert_eq!(checked_token(&d, &d.join("token")), Err(TokenRefused::Because("readable or writable by other users")));
        assert_eq!(read_token_for_test(&d), None, "a client does not use it either");
        let t = token_in(&d).unwrap();
        assert_ne!(t, GOOD);
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(fs::metadata(d.join("token")).unwrap().permissions().mode() & 0o777, 0o600);
    }

    #[cfg(unix)]
    #[test]
    fn a_token_that_is_a_link_is_replaced_and_its_target_left_alone() {
        let d = dir();
        let elsewhere = d.join("elsewhere");
        write(&elsewhere, GOOD, 0o600);
        std::os::unix::fs::symlink(&elsewhere, d.join("token")).unwrap();
        assert_eq!(checked_token(&d, &d.join("token")), Err(TokenRefused::Because("a link")));
        let t = token_in(&d).unwrap();
        assert_ne!(t, GOOD);
        assert_eq!(fs::read_to_string(&elsewhere).unwrap(), GOOD, "the link's target is untouched");
        assert!(!fs::symlink_metadata(d.join("token")).unwrap().file_type().is_symlink());
    }

    #[test]
    fn a_missing_token_is_made_once() {
        let d = dir();
        assert_eq!(checked_token(&d, &d.join("token")), Err(TokenRefused::Missing));
        let t = token_in(&d).unwrap();
        assert_eq!(token_in(&d).unwrap(), t);
    }

    fn read_token_for_test(d: &std::path::Path) -> Option<String> {
        checked_token(d, &d.join("token")).ok()
    }
}
