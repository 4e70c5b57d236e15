//! The tool catalogue, read from `extension/catalogue.json` (the one source: the extension's
//! router imports the same file): each browser tool's name, description, parameters (as JSON
//! Schema), annotations and whether it has a compact projection; the profiles (`core`, the
//! everyday loop a host offers by default; `all`); the shared parameters described once.
//!
//! Owns: reading the catalogue, the profiles and the definitions hosts see. Must never:
//! describe a tool or a parameter the catalogue does not hold, or list a profile's tool twice.

use serde_json::{json, Map, Value};
use std::sync::LazyLock;

#[derive(Debug)]
pub struct Tool {
    pub name: String,
    pub description: String,
    /// Parameter names in catalogue order, with their JSON Schemas.
    pub params: Vec<(String, Value)>,
    /// The parameters whose meaning is described once for every tool (the catalogue's
    /// `describedOnce`: the MCP instructions, pi's guidelines): bare in this tool's schema.
    pub once: Vec<String>,
    pub required: Vec<String>,
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
    /// A compact, model-facing projection exists (`responseMode: "compact"`).
    pub compact: bool,
}

pub const CATALOGUE_JSON: &str = include_str!("../../extension/catalogue.json");

static TOOLS: LazyLock<Vec<Tool>> = LazyLock::new(|| parse(CATALOGUE_JSON).expect("extension/catalogue.json is valid (tested)"));

pub fn tools() -> &'static [Tool] {
    &TOOLS
}

pub fn find(name: &str) -> Option<&'static Tool> {
    tools().iter().find(|t| t.name == name)
}

fn parse(text: &str) -> Result<Vec<Tool>, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let shared = v["shared"].as_object().ok_or("no shared parameters")?;
    let strs = |v: &Value| -> Vec<String> { v.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_string).collect() };
    let described_once = strs(&v["describedOnce"]);
    v["tools"]
        .as_array()
        .ok_or("no tools")?
        .iter()
        .map(|t| {
            let name = t["name"].as_str().ok_or("a tool without a name")?.to_string();
            let mut params = Vec::new();
            let mut once = Vec::new();
            for (p, s) in t["params"].as_object().ok_or(format!("{name}: no params"))? {
                let schema = match s {
                    Value::String(key) => {
                        if described_once.contains(key) {
                            once.push(p.clone());
                        }
                        shared.get(key).cloned().ok_or(format!("{name}.{p}: no shared {key}"))?
                    }
                    s => s.clone(),
                };
                params.push((p.clone(), schema));
            }
            let flag = |k: &str| t["annotations"][k].as_bool().ok_or(format!("{name}: annotation {k}"));
            Ok(Tool {
                description: t["description"].as_str().ok_or(format!("{name}: no description"))?.to_string(),
                required: strs(&t["required"]),
                read_only: flag("readOnly")?,
                destructive: flag("destructive")?,
                idempotent: flag("idempotent")?,
                compact: t["compact"].as_bool().unwrap_or(false),
                params,
                once,
                name,
            })
        })
        .collect()
}

/// The JSON Schema of a tool's parameters as a host shows it: a parameter described once
/// (`shared_text`) carries its type alone. (Unknown parameters are refused by the
/// extension's router, so the schema does not spend `additionalProperties` on it.)
pub fn input_schema(t: &Tool) -> Map<String, Value> {
    let props: Map<String, Value> = t
        .params
        .iter()
        .map(|(n, s)| {
            let mut s = s.clone();
            if t.once.contains(n) {
                if let Some(o) = s.as_object_mut() {
                    o.remove("description");
                }
            }
            (n.clone(), s)
        })
        .collect();
    let mut schema = Map::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(props));
    if !t.required.is_empty() {
        schema.insert("required".into(), json!(t.required));
    }
    schema
}

/// The parameters described once, as one sentence a host puts before the tools (MCP's
/// instructions, pi's guidelines): `tabId`: …; `ref`: ….
pub fn shared_text() -> String {
    let v: Value = serde_json::from_str(CATALOGUE_JSON).unwrap_or_default();
    let names: Vec<&str> = v["describedOnce"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let parts: Vec<String> = names.iter().filter_map(|k| v["shared"][*k]["description"].as_str().map(|d| format!("{k}: {d}"))).collect();
    format!("Parameters every tool shares: {}.", parts.join("; "))
}

/// The tools of a profile: `core` (the everyday loop; the default), `all`, or a comma-separated
/// list of tool names (`browser_` may be left off). An unknown name is an error.
pub fn profile(spec: &str) -> Result<Vec<&'static Tool>, String> {
    let v: Value = serde_json::from_str(CATALOGUE_JSON).map_err(|e| e.to_string())?;
    let spec = spec.trim();
    if spec == "all" {
        return Ok(tools().iter().collect());
    }
    let names: Vec<String> = match v["profiles"][spec].as_array() {
        Some(list) => list.iter().filter_map(Value::as_str).map(str::to_string).collect(),
        None => spec.split(',').map(str::trim).filter(|s| !s.is_empty()).map(|s| if s.starts_with("browser_") { s.to_string() } else { format!("browser_{s}") }).collect(),
    };
    let known: Vec<&str> = v["profiles"].as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
    let mut out: Vec<&'static Tool> = Vec::new();
    for n in &names {
        let t = find(n).ok_or_else(|| format!("no tool {n} (a profile is all, {}, or a list of tool names)", known.join(", ")))?;
        if !out.iter().any(|o| o.name == t.name) {
            out.push(t);
        }
    }
    if out.is_empty() {
        return Err("the profile names no tool".into());
    }
    // Catalogue order, whatever order the list gave.
    out.sort_by_key(|t| tools().iter().position(|o| o.name == t.name));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_parses_names_are_unique_and_required_params_exist() {
        assert!(tools().len() >= 28);
        for (i, t) in tools().iter().enumerate() {
            assert!(t.name.starts_with("browser_") && tools()[..i].iter().all(|o| o.name != t.name), "{}", t.name);
            for r in &t.required {
                assert!(t.params.iter().any(|(n, _)| n == r), "{}: {r}", t.name);
            }
            // Every parameter is described: in its schema, or once for all tools (shared_text).
            for (p, s) in &t.params {
                assert!(s["type"].is_string() && s["description"].as_str().is_some_and(|d| !d.is_empty()), "{}.{p}", t.name);
            }
            for p in &t.once {
                assert!(shared_text().contains(&format!("{p}: ")), "{}.{p} is described nowhere", t.name);
            }
            // A parameter that is required never claims to default.
            for r in &t.required {
                let d = t.params.iter().find(|(n, _)| n == r).unwrap().1["description"].as_str().unwrap();
                assert!(!d.contains("default"), "{}.{r} is required but says: {d}", t.name);
            }
            assert!(!(t.read_only && t.destructive), "{}", t.name);
        }
    }

    #[test]
    fn profiles_are_catalogue_tools_in_catalogue_order() {
        let core = profile("core").unwrap();
        assert!(core.len() >= 15 && core.len() < tools().len(), "{}", core.len());
        assert_eq!(profile("all").unwrap().len(), tools().len());
        let picked: Vec<&str> = profile("click, browser_snapshot,click").unwrap().iter().map(|t| t.name.as_str()).collect();
        assert_eq!(picked, ["browser_snapshot", "browser_click"]);
        assert!(profile("snapshot,nope").unwrap_err().contains("no tool browser_nope"));
        assert!(profile(" , ").is_err());
    }

    #[test]
    fn a_described_once_parameter_is_bare_in_the_schema_and_named_in_the_shared_text() {
        let click = find("browser_click").unwrap();
        let schema = Value::Object(input_schema(click));
        assert_eq!(schema["properties"]["tabId"], json!({"type": "integer"}));
        assert!(schema["properties"]["button"]["description"].is_string());
        assert!(schema.get("additionalProperties").is_none());
        let text = shared_text();
        assert!(text.starts_with("Parameters every tool shares: tabId: "), "{text}");
    }

    #[test]
    fn compact_tools_are_exactly_those_the_core_projects() {
        let compact: Vec<&str> = tools().iter().filter(|t| t.compact).map(|t| t.name.as_str()).collect();
        let mut core: Vec<&str> = pcc::model::projection::COMPACT_METHODS.to_vec();
        core.sort_unstable();
        let mut ours = compact.clone();
        ours.sort_unstable();
        assert_eq!(ours, core);
        for t in tools() {
            assert_eq!(t.compact, pcc::model::projection::has_compact(&t.name), "{}", t.name);
        }
    }

    #[test]
    fn every_cli_method_is_a_catalogue_tool() {
        let cli = include_str!("cli.rs");
        let named: Vec<&str> = cli.split("(\"browser_").skip(1).filter_map(|s| s.split('"').next()).collect();
        assert!(named.len() > 20);
        for n in named {
            assert!(find(&format!("browser_{n}")).is_some(), "pcc's browser_{n} is not in the catalogue");
        }
    }

    #[test]
    fn the_readme_says_how_many_tools_mcp_and_pi_get() {
        let readme = include_str!("../../README.md");
        let (core, all) = (profile("core").unwrap().len(), profile("all").unwrap().len());
        assert!(readme.contains(&format!("serves the `core` profile ({core} tools")), "the README's MCP line names the core profile's {core} tools");
        assert!(readme.contains(&format!("profile ({core} tools; `PCC_TOOLS=all` for all {all})")), "the README's pi line names the core profile's {core} tools and all {all}");
    }

    #[test]
    fn the_readme_tool_table_lists_every_tool_and_its_parameters() {
        let readme = include_str!("../../README.md");
        let rows: Vec<&str> = readme.lines().filter(|l| l.starts_with("| `browser_")).collect();
        let mut problems = Vec::new();
        for t in tools() {
            let Some(row) = rows.iter().find(|r| r.split('|').nth(1).is_some_and(|c| c.contains(&format!("`{}`", t.name)))) else {
                problems.push(format!("README has no row for {}", t.name));
                continue;
            };
            let params = row.split('|').nth(2).unwrap_or("");
            for (p, _) in &t.params {
                let listed = params.contains(&format!("`{p}")) || (params.contains("as `browser_snapshot`") && find("browser_snapshot").unwrap().params.iter().any(|(q, _)| q == p));
                if !listed {
                    problems.push(format!("README row of {} does not list {p}", t.name));
                }
            }
        }
        for r in rows {
            for name in r.split('|').nth(1).unwrap_or("").split('`').filter(|s| s.starts_with("browser_")) {
                if find(name).is_none() {
                    problems.push(format!("README lists {name}, which is not in the catalogue"));
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }

    #[test]
    fn the_tools_doc_describes_every_tools_result_and_no_other() {
        let doc = include_str!("../../docs/tools.md");
        let named: Vec<&str> = doc.lines().filter(|l| l.starts_with("| `browser_")).flat_map(|r| r.split('|').nth(1).unwrap_or("").split('`').filter(|s| s.starts_with("browser_"))).collect();
        for t in tools() {
            assert!(named.contains(&t.name.as_str()), "docs/tools.md has no row for {}", t.name);
        }
        for n in named {
            assert!(find(n).is_some(), "docs/tools.md lists {n}, which is not in the catalogue");
        }
    }
}
