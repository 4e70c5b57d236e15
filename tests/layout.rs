//! The shape of the core, checked: data flows one way (ARCHITECTURE.md, "Data flows one
//! way"), between the pipeline's stages (the folders of `src/`) and between modules. A
//! module's dependencies are the `crate::…` and `super::…` paths its file names, resolved to
//! the longest module path that exists (`crate::tree::Node` is `tree`, the arena;
//! `crate::tree::layout::Rect` is `tree::layout`); a cycle fails with the modules on it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Module path (`tree::layout`, `input`, `budget`) → its source text. A folder's `mod.rs` is
/// the folder's module; `lib.rs` is not a module of the graph.
fn modules() -> BTreeMap<String, String> {
    modules_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

/// `modules` of the crate whose sources are in `src` (`lib.rs` and `main.rs` are its root).
fn modules_in(src: &Path) -> BTreeMap<String, String> {
    let src = src.to_path_buf();
    let mut out = BTreeMap::new();
    let mut stack = vec![(src, String::new())];
    while let Some((dir, prefix)) = stack.pop() {
        for e in fs::read_dir(&dir).expect("a source folder").flatten() {
            let p = e.path();
            let stem = p
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("")
                .to_string();
            let path = if prefix.is_empty() {
                stem.clone()
            } else {
                format!("{prefix}::{stem}")
            };
            if p.is_dir() {
                stack.push((p, path));
            } else if p.extension().is_some_and(|x| x == "rs")
                && !(prefix.is_empty() && (stem == "lib" || stem == "main"))
            {
                let module = if stem == "mod" { prefix.clone() } else { path };
                // Test modules (`use super::*` is the file itself there) are not the shape.
                let code = fs::read_to_string(&p).expect("a source file");
                out.insert(
                    module,
                    code.split("#[cfg(test)]").next().unwrap_or("").to_string(),
                );
            }
        }
    }
    out
}

/// The paths a `use` tree at the start of `s` names, as segments: `a::b::C` of `a::b::C, …`;
/// `a::{b, c::D}` is `a::b` and `a::c::D` (groups nest).
fn paths(s: &str) -> Vec<Vec<String>> {
    let s = s.trim_start();
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
        .unwrap_or(s.len());
    let head: Vec<String> = s[..end]
        .split("::")
        .filter(|x| !x.is_empty())
        .map(str::to_string)
        .collect();
    let Some(group) = s[end..]
        .strip_prefix('{')
        .filter(|_| s[..end].ends_with("::") || end == 0)
    else {
        return vec![head];
    };
    // The group's top-level items (up to its closing brace).
    let (mut depth, mut items, mut from) = (0, Vec::new(), 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[from..i]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    items
        .into_iter()
        .flat_map(paths)
        .map(|tail| head.iter().cloned().chain(tail).collect())
        .collect()
}

/// Module → the other modules it names.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    graph_of(modules())
}

/// `graph` of any crate's modules.
fn graph_of(mods: BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let resolve = |segs: &[String]| {
        (1..=segs.len())
            .rev()
            .map(|k| segs[..k].join("::"))
            .find(|p| mods.contains_key(p))
    };
    mods.iter()
        .map(|(m, text)| {
            let parent: Vec<String> = m
                .split("::")
                .map(str::to_string)
                .collect::<Vec<_>>()
                .split_last()
                .map(|(_, p)| p.to_vec())
                .unwrap_or_default();
            let mut deps = BTreeSet::new();
            for (anchor, base) in [("crate::", Vec::new()), ("super::", parent.clone())] {
                for (at, _) in text.match_indices(anchor) {
                    let rest = &text[at + anchor.len()..];
                    for h in paths(rest) {
                        let mut segs = base.clone();
                        segs.extend(h);
                        if let Some(d) = resolve(&segs).filter(|d| d != m) {
                            deps.insert(d);
                        }
                    }
                }
            }
            (m.clone(), deps)
        })
        .collect()
}

/// The stage of a module: its folder (`tree::layout` → `tree`), or itself at the top.
fn stage(m: &str) -> String {
    m.split("::").next().unwrap_or(m).to_string()
}

/// The modules on some cycle, with one cycle spelled out, or None.
fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first search with colours: a grey module reached again closes a cycle.
    fn visit(
        m: &str,
        g: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(m.to_string(), 1);
        path.push(m.to_string());
        for d in g.get(m).into_iter().flatten() {
            match state.get(d.as_str()).copied().unwrap_or(0) {
                1 => {
                    let at = path.iter().position(|p| p == d).unwrap_or(0);
                    let mut cycle = path[at..].to_vec();
                    cycle.push(d.clone());
                    return Some(cycle);
                }
                0 => {
                    if let Some(c) = visit(d, g, state, path) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        path.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in g.keys() {
        if state.get(m.as_str()).copied().unwrap_or(0) == 0 {
            if let Some(c) = visit(m, g, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn the_module_graph_has_no_cycle() {
    let g = graph();
    assert!(
        g.len() > 30,
        "the core's modules were found: {:?}",
        g.keys()
    );
    assert!(
        g["tools::snapshot"].contains("tree::ax_tree") && g["tree::ax_tree"].contains("tree"),
        "paths resolve to modules: {:?}",
        g["tools::snapshot"]
    );
    if let Some(c) = find_cycle(&g) {
        panic!("modules depend on each other in a cycle: {}", c.join(" → "));
    }
}

#[test]
fn the_bridge_module_graph_has_no_cycle() {
    let g = graph_of(modules_in(&Path::new(env!("CARGO_MANIFEST_DIR")).join("bridge/src")));
    assert!(g.len() > 10 && g["cli"].contains("client"), "the Bridge's modules were found: {g:?}");
    if let Some(c) = find_cycle(&g) {
        panic!("the Bridge's modules depend on each other in a cycle: {}", c.join(" → "));
    }
}

#[test]
fn the_stages_depend_only_on_earlier_stages() {
    let mut stages: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, deps) in graph() {
        let s = stage(&m);
        let entry = stages.entry(s.clone()).or_default();
        entry.extend(deps.iter().map(|d| stage(d)).filter(|d| *d != s));
    }
    for s in ["input", "tree", "view", "session", "tools", "model", "wasm"] {
        assert!(
            stages.contains_key(s),
            "stage {s} exists: {:?}",
            stages.keys()
        );
    }
    if let Some(c) = find_cycle(&stages) {
        panic!("stages depend on each other in a cycle: {}", c.join(" → "));
    }
    // The pipeline's order: no stage names a later one.
    let order = ["input", "tree", "view", "session", "tools", "model", "wasm"];
    for (i, s) in order.iter().enumerate() {
        for later in &order[i + 1..] {
            assert!(
                !stages[*s].contains(*later),
                "stage {s} uses the later stage {later}"
            );
        }
    }
}

#[test]
fn the_cycle_check_finds_a_planted_cycle() {
    let mut g = BTreeMap::new();
    let set = |v: &[&str]| {
        v.iter()
            .map(|s| s.to_string())
            .collect::<BTreeSet<String>>()
    };
    g.insert("input".to_string(), set(&["tools::collector"]));
    g.insert("tools::collector".to_string(), set(&["view::render"]));
    g.insert("view::render".to_string(), set(&["input"]));
    g.insert("text".to_string(), set(&[]));
    assert_eq!(
        find_cycle(&g),
        Some(vec![
            "input".into(),
            "tools::collector".into(),
            "view::render".into(),
            "input".into()
        ])
    );
    g.get_mut("view::render").map(|d| d.clear());
    assert_eq!(find_cycle(&g), None);
}

#[test]
fn paths_resolve_to_the_longest_module() {
    assert_eq!(
        paths(" tree::layout::Rect, x"),
        [["tree", "layout", "Rect"]]
    );
    assert_eq!(
        paths("tree::{ax_tree, layout::{Rect, flow}};"),
        [
            vec!["tree", "ax_tree"],
            vec!["tree", "layout", "Rect"],
            vec!["tree", "layout", "flow"]
        ]
    );
    assert_eq!(paths("{a, b::c}"), [vec!["a"], vec!["b", "c"]]);
    let g = graph();
    assert!(
        g["view::filter"].contains("tree::redact"),
        "{:?}",
        g["view::filter"]
    );
    assert!(
        !g["view::filter"].contains("view"),
        "a module's own stage file is not a dependency unless named"
    );
}

/// The core's code (test modules aside) with comments removed, by module.
fn code() -> BTreeMap<String, String> {
    modules().into_iter().map(|(m, text)| (m, text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n"))).collect()
}

#[test]
fn the_core_is_pure_and_only_the_facade_knows_js() {
    // ARCHITECTURE.md: only `wasm` touches JsValue; the core does no IO, reads no clock,
    // draws no random numbers.
    let impure = ["std::time", "Instant::", "SystemTime", "std::fs", "std::io", "std::env", "std::net", "std::thread", "rand::", "getrandom", "thread_local!", "static mut"];
    let js = ["JsValue", "wasm_bindgen", "js_sys", "web_sys"];
    for (m, text) in code() {
        for word in impure {
            assert!(!text.contains(word), "module {m} uses {word}: the core is pure");
        }
        if m != "wasm" && !m.starts_with("wasm::") {
            for word in js {
                assert!(!text.contains(word), "module {m} names {word}: only the wasm facade touches JS");
            }
        }
    }
}

#[test]
fn no_core_module_keeps_a_limit_of_its_own() {
    // Integer constants outside budget.rs are indices (positions in COMPUTED_STYLES), never caps.
    let indices = ["S_DISPLAY", "S_VISIBILITY", "S_OPACITY", "S_POSITION", "S_POINTER_EVENTS", "S_CURSOR"];
    for (m, text) in code().into_iter().filter(|(m, _)| m != "budget") {
        for line in text.lines() {
            let t = line.trim_start().trim_start_matches("pub ").trim_start_matches("pub(crate) ");
            let Some(rest) = t.strip_prefix("const ") else { continue };
            let (name, ty) = rest.split_once(':').unwrap_or((rest, ""));
            let numeric = ["usize", "u64", "u32", "u16", "u8", "i64", "i32", "f64"].iter().any(|n| ty.trim_start().starts_with(n));
            assert!(!numeric || indices.contains(&name.trim()), "module {m} keeps a limit of its own: {}", line.trim());
        }
    }
}

#[test]
fn no_role_is_compared_as_a_string_outside_its_module() {
    // `role` owns the vocabulary; everywhere else a role is the `Role` enum. (A role
    // attribute's text is read with `Role::from_aria_attribute`, never matched by hand.)
    let by_hand = role_text_spellings();
    for (m, text) in code().into_iter().filter(|(m, _)| m != "role") {
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for pat in &by_hand {
                assert!(!line.contains(pat.as_str()), "module {m} compares a role as text ({pat}): {}", line.trim());
            }
        }
    }
}

/// The spellings of a role held as text: `role == "…"`, `role.as_str()`, `ROLES.contains`, a
/// role string constructed by name.
fn role_text_spellings() -> Vec<String> {
    let mut v: Vec<String> = ["role == \"", "role != \"", "role.as_str()", "ROLES.contains", "role: \"", "role: String", ".name() == \"", ".display() == \"", "display().eq_ignore_ascii_case"].map(String::from).to_vec();
    v.push("matches!(role, \"".into());
    v
}
