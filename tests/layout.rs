//! The shape of the core, checked: data flows one way between its modules (ARCHITECTURE.md,
//! "Data flows one way"). A module's dependencies are the `crate::<module>` paths its files
//! name; a cycle among them fails this test with the modules on it.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Top-level module name → the source text of all its files.
fn modules() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    fn read_all(dir: &Path, into: &mut String) {
        for e in fs::read_dir(dir).expect("a source folder").flatten() {
            let p = e.path();
            if p.is_dir() {
                read_all(&p, into);
            } else if p.extension().is_some_and(|x| x == "rs") {
                into.push_str(&fs::read_to_string(&p).expect("a source file"));
            }
        }
    }
    for e in fs::read_dir(&src).expect("src/").flatten() {
        let p = e.path();
        let name = p.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_string();
        if name == "lib" {
            continue;
        }
        let text = out.entry(name).or_insert_with(String::new);
        if p.is_dir() {
            read_all(&p, text);
        } else {
            text.push_str(&fs::read_to_string(&p).expect("a source file"));
        }
    }
    out
}

/// Module → the other modules it names through `crate::`.
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules();
    let names: BTreeSet<String> = mods.keys().cloned().collect();
    mods.iter()
        .map(|(m, text)| {
            // `crate::x::…` and the items of `crate::{x, y::…}`.
            let ident = |s: &str| s.trim_start()[..s.trim_start().find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.trim_start().len())].to_string();
            let deps = text
                .match_indices("crate::")
                .flat_map(|(at, _)| {
                    let rest = &text[at + 7..];
                    match rest.strip_prefix('{') {
                        Some(list) => list[..list.find('}').unwrap_or(list.len())].split(',').map(ident).collect::<Vec<_>>(),
                        None => vec![ident(rest)],
                    }
                })
                .filter(|dep| dep != m && names.contains(dep))
                .collect();
            (m.clone(), deps)
        })
        .collect()
}

/// The modules on some cycle, with one cycle spelled out, or None.
fn find_cycle(g: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Depth-first search with colours: a grey module reached again closes a cycle.
    fn visit(m: &str, g: &BTreeMap<String, BTreeSet<String>>, state: &mut BTreeMap<String, u8>, path: &mut Vec<String>) -> Option<Vec<String>> {
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
    assert!(g.len() > 20, "the core's modules were found: {:?}", g.keys());
    if let Some(c) = find_cycle(&g) {
        panic!("modules depend on each other in a cycle: {}", c.join(" → "));
    }
}

#[test]
fn the_cycle_check_finds_a_planted_cycle() {
    let mut g = BTreeMap::new();
    let set = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<BTreeSet<String>>();
    g.insert("input".to_string(), set(&["collector"]));
    g.insert("collector".to_string(), set(&["render"]));
    g.insert("render".to_string(), set(&["input"]));
    g.insert("text".to_string(), set(&[]));
    assert_eq!(find_cycle(&g), Some(vec!["collector".into(), "render".into(), "input".into(), "collector".into()]));
    g.get_mut("render").map(|d| d.clear());
    assert_eq!(find_cycle(&g), None);
}
