//! Local files a call names (`browser_upload`'s `paths`): checked here, on the machine whose
//! files they are, before the call reaches the browser. Each must be an absolute path to an
//! existing regular file; it is passed on canonical (symlinks and `..` resolved), so the
//! browser reads exactly the file that was checked.
//!
//! Owns: that check. Must never: read a file's content, or pass on a path it did not check.

use serde_json::{Map, Value};
use std::path::Path;

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
