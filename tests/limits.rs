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

/// Numbers of three digits or more in code (not in comments or strings): a cap, a timeout or
/// a size written in place. A unit conversion (`ms / 1000`) and the port range (65535) are not.
fn literal_numbers(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("//") || t.starts_with('*') || t.starts_with("/*") {
            continue;
        }
        // Code only: strings and regular expressions blanked, a trailing comment cut.
        let mut code = String::new();
        let mut quote: Option<char> = None;
        let mut prev = ' ';
        let chars: Vec<char> = line.chars().collect();
        for (k, &c) in chars.iter().enumerate() {
            let last = code.chars().rev().find(|c| !c.is_whitespace()).unwrap_or('(');
            match quote {
                Some(q) if c == q && prev != '\\' => quote = None,
                Some(_) => {}
                None if matches!(c, '\'' | '"' | '`') => quote = Some(c),
                None if c == '/' && chars.get(k + 1) == Some(&'/') => break,
                // A regular expression starts where an operand is expected.
                None if c == '/' && "(,=:!&|?;{[".contains(last) => quote = Some('/'),
                None => code.push(c),
            }
            prev = c;
        }
        let chars: Vec<char> = code.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let starts = chars[i].is_ascii_digit() && (i == 0 || !(chars[i - 1].is_ascii_alphanumeric() || matches!(chars[i - 1], '_' | '.' | '$')));
            if !starts {
                i += 1;
                continue;
            }
            let from = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let token: String = chars[from..i].iter().collect();
            let before = chars[..from].iter().rev().find(|c| !c.is_whitespace()).copied().unwrap_or(' ');
            let digits = token.chars().filter(char::is_ascii_digit).count();
            if token.chars().all(|c| c.is_ascii_digit() || c == '_') && digits >= 3 && !matches!(before, '/' | '*') && token != "65535" {
                found.push(line.trim().to_string());
            }
        }
    }
    found
}

/// Where the core's limits cannot reach: the content scripts (they run at document_start in
/// every page, before any call) and the keeper document. Their few numbers are their own.
fn reads_limits(path: &Path) -> bool {
    let p = path.to_string_lossy();
    !p.contains("/extension/page/") && !p.ends_with("/keeper.js")
}

#[test]
fn the_worker_writes_no_number_in_place_of_a_limit() {
    let bad: Vec<String> = sources().iter().filter(|(p, _)| reads_limits(p)).flat_map(|(p, t)| literal_numbers(t).into_iter().map(move |l| format!("{}: {l}", p.display()))).collect();
    assert!(bad.is_empty(), "numbers in place of budget.rs limits:\n{}", bad.join("\n"));
}

#[test]
fn a_number_in_place_of_a_limit_is_found() {
    assert_eq!(literal_numbers("  if (Date.now() - start > 500) break;\n  setTimeout(r, 1_000);"), ["if (Date.now() - start > 500) break;", "setTimeout(r, 1_000);"]);
    assert!(literal_numbers("// waits 500 ms\n  x = ms / 1000;\n  s = 'port 17373';\n  p > 65535;\n  a[12]; h ^ 0x1f;\n  y = limits.pollMs; // 100 ms\n  ok = /^[0-9a-f]{32,128}$/.test(t);").is_empty());
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
