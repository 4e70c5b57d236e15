//! "Every limit is a named constant of `budget.rs`" (ARCHITECTURE.md), checked on the
//! extension's sources: no module-level numeric constant and no literal cap in a
//! `slice(0, N)`; every `limits.<name>` the extension reads is one of `SOURCE_LIMITS`, and
//! every one of `SOURCE_LIMITS` is read somewhere (no dead limit).

use pcc::budget::SOURCE_LIMITS;
use std::fs;
use std::path::{Path, PathBuf};

/// The extension's own JavaScript (not the generated wasm glue, not vendored code).
fn sources() -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("extension");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).expect("extension/ readable").flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if p.is_dir() {
                if name != "wasm" && name != "vendor" {
                    stack.push(p);
                }
            } else if name.ends_with(".js") {
                let text = fs::read_to_string(&p).expect("a source file");
                out.push((p, text));
            }
        }
    }
    assert!(out.len() > 30, "the extension's sources were found");
    out
}

/// Numeric literals that are caps: `slice(0, 80)`, `const CAP = 500;` at a line's start.
fn literal_caps(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(at) = rest.find("slice(0, ") {
            let after = &rest[at + 9..];
            let digits: String = after.chars().take_while(|c| c.is_ascii_digit()).collect();
            if digits.len() >= 2 && after[digits.len()..].starts_with(')') {
                found.push(line.trim().to_string());
            }
            rest = after;
        }
        let t = line.trim_start();
        let decl = ["const ", "export const ", "let "].iter().find_map(|k| line.strip_prefix(k));
        if let Some(d) = decl.filter(|_| t.len() == line.len()) {
            if let Some((name, value)) = d.split_once(" = ") {
                let v = value.trim_end_matches(';').replace('_', "");
                if name.chars().all(|c| c.is_ascii_uppercase() || c == '_') && v.parse::<f64>().is_ok() && name != "DEFAULT_PORT" {
                    found.push(line.trim().to_string());
                }
            }
        }
    }
    found
}

#[test]
fn the_extension_keeps_no_limit_of_its_own() {
    let bad: Vec<String> = sources().iter().flat_map(|(p, t)| literal_caps(t).into_iter().map(move |l| format!("{}: {l}", p.display()))).collect();
    assert!(bad.is_empty(), "limits outside budget.rs:\n{}", bad.join("\n"));
}

#[test]
fn the_extension_reads_only_budget_limits_and_all_of_them() {
    let all: String = sources().into_iter().map(|(_, t)| t).collect();
    let mut read = std::collections::BTreeSet::new();
    for (at, _) in all.match_indices("limits.") {
        let name: String = all[at + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let before = all[..at].chars().last().unwrap_or(' ');
        if !name.is_empty() && !before.is_ascii_alphanumeric() && !matches!(before, '_' | '/' | '.') {
            read.insert(name);
        }
    }
    let known: Vec<&str> = SOURCE_LIMITS.iter().map(|(k, _)| *k).collect();
    let unknown: Vec<&String> = read.iter().filter(|n| !known.contains(&n.as_str())).collect();
    assert!(unknown.is_empty(), "the extension reads limits budget.rs does not define: {unknown:?}");
    // Read as `limits.name`, `….limits.name`, or destructured (`const { name } = limits`).
    let named = |k: &str| all.match_indices(k).any(|(at, _)| {
        let (b, a) = (all[..at].chars().last().unwrap_or(' '), all[at + k.len()..].chars().next().unwrap_or(' '));
        !(b.is_ascii_alphanumeric() || b == '_' || a.is_ascii_alphanumeric() || a == '_') && b != '`'
    });
    let dead: Vec<&&str> = known.iter().filter(|k| !read.contains(**k) && !named(k)).collect();
    assert!(dead.is_empty(), "budget.rs passes limits the extension never reads: {dead:?}");
}

#[test]
fn a_literal_cap_is_found() {
    assert_eq!(literal_caps("  x = s.slice(0, 80);\nconst CAP = 1_000;\nconst ok = 'a';\n  const LOCAL = 5;"), ["x = s.slice(0, 80);", "const CAP = 1_000;"]);
    assert!(literal_caps("s.slice(0, n); a.slice(0, 2); s.slice(0, limits.echoChars)").is_empty());
}
