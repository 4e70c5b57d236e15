//! `pcc mcp`: an MCP server on stdio (rmcp) that exposes the browser tools over the Bridge.
//! Page reads ask for compact results; every result reaches the model as the core's model
//! text, page text fenced as untrusted content; a screenshot is an image content block and
//! its text is only the tool's sentence.
//!
//! Owns: the MCP surface. Must never: retry a call, or put Base64 into text content.

use crate::client::{Client, ClientError};
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

const INSTRUCTIONS: &str = "Browser tools of pi-control-chrome. Read a page with browser_snapshot (or browser_accessibility_snapshot for diffs), then act with the refs it shows plus its snapshotId. Open your own tabs with browser_tab_open; a user's tab needs browser_claim_tab before actions.";

#[derive(Clone)]
struct Browser {
    client: Arc<Client>,
}

pub async fn serve(port: u16) -> Result<(), String> {
    let server = Browser { client: Arc::new(Client::new(port)) };
    let running = server.serve(rmcp::transport::stdio()).await.map_err(|e| e.to_string())?;
    running.waiting().await.map_err(|e| e.to_string())?;
    Ok(())
}

fn tool_list() -> Vec<Tool> {
    tools::tools()
        .iter()
        .map(|t| {
            let description = if t.read_only { t.description.clone() } else { format!("{} Has side effects; never retried automatically.", t.description) };
            Tool::new(t.name.clone(), description, tools::input_schema(t))
                .with_annotations(ToolAnnotations::new().read_only(t.read_only).destructive(t.destructive).idempotent(t.idempotent).open_world(true))
        })
        .collect()
}

impl ServerHandler for Browser {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("pi-control-chrome", env!("CARGO_PKG_VERSION")))
            .with_instructions(format!("{INSTRUCTIONS} {FENCE_NOTE}"))
    }

    async fn list_tools(&self, _request: Option<PaginatedRequestParams>, _context: RequestContext<RoleServer>) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tool_list()))
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
        let answer = tokio::task::spawn_blocking(move || client.call_tool(&method, params, mode))
            .await
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        let result = match answer {
            Ok(r) => r,
            Err(e @ (ClientError::NoToken | ClientError::Unreachable(_) | ClientError::Uncertain(_))) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(e.to_string())]).into());
            }
        };
        let shown = show(&name, &result, TextOptions { pretty: false, fence: true });
        let mut content = vec![ContentBlock::text(shown.text)];
        if let Some(png) = shown.image {
            content.push(ContentBlock::image(png, "image/png"));
        }
        let failed = result.get("error").is_some_and(|e| !matches!(e, Value::Null));
        Ok(if failed { CallToolResult::error(content) } else { CallToolResult::success(content) }.into())
    }
}
