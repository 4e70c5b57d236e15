//! `pcc mcp`: an MCP server on stdio (rmcp) that exposes the browser tools over the Bridge.
//! Page reads ask for compact results; every result reaches the model as the core's model
//! text, page text fenced as untrusted content; a screenshot is an image content block and
//! its text is only the tool's sentence.
//!
//! Owns: the MCP surface. Must never: retry a call, or put Base64 into text content.

use crate::client::Client;
use crate::output::show;
use crate::tools;
use pcc::model::model_text::{TextOptions, FENCE_NOTE};
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServiceExt};
use serde_json::Value;
use std::sync::Arc;

const INSTRUCTIONS: &str = "Browser tools of pi-control-chrome. Read a page with browser_snapshot (or browser_accessibility_snapshot for diffs), then act with the refs it shows plus its snapshotId. An action that reaches another page, browser_navigate and browser_tab_open answer with that page's state (read as you last read one). Open your own tabs with browser_tab_open; the person's tabs are read only as they grant, and acted on after browser_claim_tab. A call with side effects is never retried automatically.";

#[derive(Clone)]
struct Browser {
    client: Arc<Client>,
    /// The profile's tools (`pcc mcp --tools`): what `tools/list` offers. Any catalogue tool
    /// may still be called.
    tools: Arc<Vec<&'static tools::Tool>>,
}

/// `profile`: `core` (default), `all`, or a list of tool names (tools::profile).
pub async fn serve(port: u16, profile: &str) -> Result<(), String> {
    // One MCP connection, one agent session: its own current tab, tabs, tab group and
    // revisions in the browser (`PCC_SESSION` names it instead).
    let session = format!("mcp-{}", &crate::config::random_id()[..6]);
    let server = Browser { client: Arc::new(Client::new(port).with_session(session)), tools: Arc::new(tools::profile(profile)?) };
    let running = server.serve(rmcp::transport::stdio()).await.map_err(|e| e.to_string())?;
    running.waiting().await.map_err(|e| e.to_string())?;
    Ok(())
}

/// The MCP definitions of `list`. Annotations say only what differs from MCP's defaults
/// (not read-only, destructive, not idempotent, open world): `readOnlyHint: true` on a read,
/// `destructiveHint: false` and `idempotentHint: true` where they hold on a side effect.
pub fn tool_list(list: &[&'static tools::Tool]) -> Vec<Tool> {
    list.iter()
        .map(|t| {
            let tool = Tool::new(t.name.clone(), t.description.clone(), tools::input_schema(t));
            let mut a = ToolAnnotations::new();
            let mut any = false;
            if t.read_only {
                a = a.read_only(true);
                any = true;
            } else {
                if !t.destructive {
                    a = a.destructive(false);
                    any = true;
                }
                if t.idempotent {
                    a = a.idempotent(true);
                    any = true;
                }
            }
            if any { tool.with_annotations(a) } else { tool }
        })
        .collect()
}

impl ServerHandler for Browser {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("pi-control-chrome", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!("{INSTRUCTIONS} {} {FENCE_NOTE}", tools::shared_text()))
    }

    async fn list_tools(&self, _request: Option<PaginatedRequestParams>, _context: RequestContext<RoleServer>) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tool_list(&self.tools)))
    }

    async fn call_tool(&self, request: CallToolRequestParams, _context: RequestContext<RoleServer>) -> Result<CallToolResponse, McpError> {
        let name = request.name.to_string();
        let Some(tool) = tools::find(&name) else {
            return Err(McpError::invalid_params(format!("unknown tool {name}"), None));
        };
        let params = request.arguments.unwrap_or_default();
        let mode = tool.compact.then_some("compact");
        let client = self.client.clone();
        let method = name.clone();
        let answer = tokio::task::spawn_blocking(move || crate::launch::call_tool(&client, &method, params, mode))
            .await
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        let result = match answer {
            Ok(r) => r,
            Err(e) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())]).into());
            }
        };
        let shown = show(&name, &result, TextOptions { pretty: false, fence: true });
        let mut content = vec![ContentBlock::text(shown.text)];
        if let Some(image) = shown.image {
            content.push(ContentBlock::image(image, shown.mime));
        }
        let failed = result.get("error").is_some_and(|e| !matches!(e, Value::Null));
        Ok(if failed { CallToolResult::error(content) } else { CallToolResult::success(content) }.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The characters of `tools/list`'s tool array for a profile, as a client receives it.
    fn listed_chars(profile: &str) -> usize {
        serde_json::to_string(&tool_list(&tools::profile(profile).unwrap())).unwrap().len()
    }

    #[test]
    fn the_default_profile_costs_half_of_playwright_mcps_definitions_and_all_of_them_stay_under_24k() {
        // @playwright/mcp 0.0.86's default tools/list: 21,199 characters (bench/definitions.mjs
        // measures both side by side in every bench run).
        let (core, all) = (listed_chars("core"), listed_chars("all"));
        assert!(core <= 10_600, "core profile: {core} characters");
        assert!(all <= 24_000, "all tools: {all} characters");
    }

    #[test]
    fn annotations_say_only_what_differs_from_mcps_defaults() {
        let list = tool_list(&tools::profile("all").unwrap());
        let json = serde_json::to_value(&list).unwrap();
        for t in json.as_array().unwrap() {
            let a = &t["annotations"];
            assert!(a.get("openWorldHint").is_none(), "{t}");
            if a["readOnlyHint"] == true {
                assert!(a.get("destructiveHint").is_none() && a.get("idempotentHint").is_none(), "{t}");
            }
            assert_ne!(a["destructiveHint"], true, "{t}");
            assert_ne!(a["idempotentHint"], false, "{t}");
        }
        let click = json.as_array().unwrap().iter().find(|t| t["name"] == "browser_click").unwrap();
        assert!(click.get("annotations").is_none(), "a click is MCP's default: {click}");
    }

    /// Every tool name an error's fix names (errors.json's hints, and the extension's own
    /// hints in its sources) is in the default profile: no dead ends.
    #[test]
    fn no_hint_names_a_tool_outside_the_default_profile() {
        let core: Vec<&str> = tools::profile("core").unwrap().iter().map(|t| t.name.as_str()).collect();
        let mut texts: Vec<(String, String)> = serde_json::from_str::<serde_json::Map<String, Value>>(crate::wire::ERRORS_JSON)
            .unwrap()
            .into_iter()
            .map(|(k, v)| (format!("errors.json {k}"), v.as_str().unwrap_or("").to_string()))
            .collect();
        // The glue's own fail(code, message, hint) calls: their hint strings.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../extension");
        let mut files = vec![dir.clone(), dir.join("tools")];
        let mut sources = Vec::new();
        while let Some(d) = files.pop() {
            for e in std::fs::read_dir(&d).unwrap().flatten() {
                let p = e.path();
                if p.extension().is_some_and(|x| x == "js") {
                    sources.push(p);
                }
            }
        }
        for p in sources {
            let text = std::fs::read_to_string(&p).unwrap();
            for line in text.lines().filter(|l| l.contains("fail('")) {
                texts.push((format!("{}: {}", p.display(), line.trim()), line.to_string()));
            }
        }
        let mut problems = Vec::new();
        for (where_, text) in &texts {
            for part in text.split("browser_").skip(1) {
                let name: String = part.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect();
                let name = format!("browser_{}", name.trim_end_matches('_'));
                if tools::find(&name).is_some() && !core.contains(&name.as_str()) {
                    problems.push(format!("{where_} names {name}"));
                }
            }
        }
        assert!(problems.is_empty(), "hints naming tools outside the default profile:\n{}", problems.join("\n"));
    }
}
