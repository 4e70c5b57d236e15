//! Local files a call names, on the machine whose files they are: `browser_upload`'s `paths`
//! (checked before the call reaches the browser: each an absolute path to an existing regular
//! file, passed on canonical — symlinks and `..` resolved — so the browser reads exactly the
//! file that was checked), and `browser_screenshot`'s `path` (an absolute path in an existing
//! directory ending as its format does — `.png`, `.jpg`, `.webp` —, never a directory or
//! special file; taken out of the call and written here from the result's attachment, so the
//! browser never sees a local path).
//!
//! Owns: those checks and the screenshot write. Must never: read a file's content, pass on a
//! path it did not check, or write anything but a screenshot's image to a checked path.

use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// Files one upload may name.
pub const UPLOAD_FILES_MAX: usize = 20;

/// Checks and canonicalizes the local paths of `method`'s params; `Err` says which is wrong.
pub fn check(method: &str, params: &mut Map<String, Value>) -> Result<(), String> {
    if method != "browser_upload" {
        return Ok(());
    }
    let Some(Value::Array(paths)) = params.get("paths") else {
        return Err("upload needs paths: a list of absolute file paths".into());
    };
    if paths.is_empty() || paths.len() > UPLOAD_FILES_MAX {
        return Err(format!("paths lists 1 to {UPLOAD_FILES_MAX} files"));
    }
    let mut checked = Vec::with_capacity(paths.len());
    for p in paths {
        let Some(s) = p.as_str() else { return Err("each path is a string".into()) };
        let path = Path::new(s);
        if !path.is_absolute() {
            return Err(format!("{s:?} is not an absolute path"));
        }
        let real = path.canonicalize().map_err(|_| format!("{s:?} does not exist"))?;
        if !real.is_file() {
            return Err(format!("{s:?} is not a regular file"));
        }
        checked.push(Value::String(real.to_string_lossy().into_owned()));
    }
    params.insert("paths".into(), Value::Array(checked));
    Ok(())
}

/// Takes `browser_screenshot`'s `path` out of the params, checked; `Err` says what is wrong.
pub fn screenshot_path(method: &str, params: &mut Map<String, Value>) -> Result<Option<PathBuf>, String> {
    if method != "browser_screenshot" {
        return Ok(None);
    }
    let Some(v) = params.remove("path") else { return Ok(None) };
    let Some(s) = v.as_str() else { return Err("path is a string".into()) };
    let path = Path::new(s);
    if !path.is_absolute() {
        return Err(format!("{s:?} is not an absolute path"));
    }
    // The file's name says what it holds: the format asked for (png unless said).
    let format = params.get("format").and_then(Value::as_str).unwrap_or("png");
    let names: &[&str] = match format {
        "jpeg" => &["jpg", "jpeg"],
        "webp" => &["webp"],
        _ => &["png"],
    };
    if !path.extension().is_some_and(|e| names.iter().any(|n| e.eq_ignore_ascii_case(n))) {
        return Err(format!("{s:?} does not end in .{} (the format asked for: {format})", names[0]));
    }
    let dir = path.parent().and_then(|d| d.canonicalize().ok()).filter(|d| d.is_dir()).ok_or_else(|| format!("the directory of {s:?} does not exist"))?;
    let file = dir.join(path.file_name().ok_or_else(|| format!("{s:?} names no file"))?);
    if std::fs::symlink_metadata(&file).is_ok_and(|m| !m.is_file()) {
        return Err(format!("{s:?} exists and is not a regular file"));
    }
    Ok(Some(file))
}

/// Writes the result's image attachment to `path`, and says so in the result (`path`); a write
/// that fails turns the result into an error naming the path.
pub fn write_screenshot(path: &Path, result: &mut Value) {
    use base64::Engine;
    let Some(data) = result.pointer("/attachment/data").and_then(Value::as_str) else { return };
    let written = base64::engine::general_purpose::STANDARD.decode(data).map_err(|e| e.to_string()).and_then(|png| std::fs::write(path, png).map_err(|e| e.to_string()));
    match written {
        Ok(()) => result["path"] = path.to_string_lossy().into_owned().into(),
        Err(e) => {
            *result = serde_json::json!({"error": {"code": "INVALID_REQUEST", "message": format!("the screenshot was taken but not written to {}: {e}", path.display()), "hint": "pass a writable absolute path ending as the format does (.png, .jpg, .webp)"}});
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check_shot(path: Value) -> Result<Option<PathBuf>, String> {
        let mut p = json!({"path": path, "fullPage": true}).as_object().unwrap().clone();
        let r = screenshot_path("browser_screenshot", &mut p);
        assert!(!p.contains_key("path"), "the browser never sees the path");
        r
    }

    #[test]
    fn a_screenshot_path_is_an_absolute_png_in_an_existing_directory() {
        let dir = std::env::temp_dir().canonicalize().unwrap();
        assert_eq!(check_shot(json!(dir.join("a.png").to_string_lossy())).unwrap(), Some(dir.join("a.png")));
        assert!(check_shot(json!("a.png")).unwrap_err().contains("absolute"));
        assert!(check_shot(json!(dir.join("a.txt").to_string_lossy())).unwrap_err().contains(".png"));
        // A JPEG is written to a .jpg, never to a .png (the bytes would not be what the name says).
        let shot = |path: &str, format: &str| {
            let mut p = json!({"path": dir.join(path).to_string_lossy(), "format": format}).as_object().unwrap().clone();
            screenshot_path("browser_screenshot", &mut p)
        };
        assert!(shot("a.png", "jpeg").unwrap_err().contains(".jpg"));
        assert_eq!(shot("a.JPG", "jpeg").unwrap(), Some(dir.join("a.JPG")));
        assert_eq!(shot("a.webp", "webp").unwrap(), Some(dir.join("a.webp")));
        assert!(check_shot(json!(dir.join("no-such-dir-pcc/a.png").to_string_lossy())).unwrap_err().contains("directory"));
        assert!(check_shot(json!(7)).is_err());
        let sub = dir.join(format!("pcc-shot-{}.png", std::process::id()));
        std::fs::create_dir_all(&sub).unwrap();
        assert!(check_shot(json!(sub.to_string_lossy())).unwrap_err().contains("not a regular file"), "a directory named .png");
        std::fs::remove_dir_all(&sub).unwrap();
        let mut other = json!({"path": "x"}).as_object().unwrap().clone();
        assert_eq!(screenshot_path("browser_snapshot", &mut other), Ok(None));
        assert!(other.contains_key("path"), "other tools keep their params");
    }

    #[test]
    fn the_screenshot_is_written_and_the_result_names_the_file() {
        let file = std::env::temp_dir().join(format!("pcc-shot-{}.png", std::process::id() + 1));
        let mut r = json!({"text": "Screenshot captured for tab 3.", "attachment": {"mimeType": "image/png", "data": "iVBORw0KGgo="}});
        write_screenshot(&file, &mut r);
        assert_eq!(std::fs::read(&file).unwrap(), b"\x89PNG\r\n\x1a\n");
        assert_eq!(r["path"], json!(file.to_string_lossy()));
        assert_eq!(r["text"], "Screenshot captured for tab 3.", "the text stays the sentence");
        std::fs::remove_file(&file).unwrap();
        let mut r = json!({"attachment": {"data": "iVBORw0KGgo="}});
        write_screenshot(Path::new("/proc/pcc-no-such/x.png"), &mut r);
        assert_eq!(r["error"]["code"], "INVALID_REQUEST");
    }

    fn check_paths(paths: Value) -> Result<Value, String> {
        let mut p = json!({"paths": paths}).as_object().unwrap().clone();
        check("browser_upload", &mut p).map(|()| p["paths"].clone())
    }

    #[test]
    fn an_existing_file_passes_canonical() {
        let dir = std::env::temp_dir().join(format!("pcc-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.txt");
        std::fs::write(&f, "x").unwrap();
        let dotted = format!("{}/../{}/a.txt", dir.display(), dir.file_name().unwrap().to_string_lossy());
        assert_eq!(check_paths(json!([dotted])).unwrap(), json!([f.canonicalize().unwrap().to_string_lossy()]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn relative_missing_directories_and_odd_values_are_refused() {
        assert!(check_paths(json!(["a.txt"])).unwrap_err().contains("absolute"));
        assert!(check_paths(json!(["/no/such/file-pcc"])).unwrap_err().contains("does not exist"));
        assert!(check_paths(json!(["/tmp"])).unwrap_err().contains("regular file"));
        assert!(check_paths(json!([])).is_err());
        assert!(check_paths(json!([5])).is_err());
        assert!(check_paths(json!("/etc/hostname")).is_err());
    }

    #[test]
    fn other_methods_pass_untouched() {
        let mut p = json!({"paths": "whatever"}).as_object().unwrap().clone();
        assert!(check("browser_click", &mut p).is_ok());
    }
}
