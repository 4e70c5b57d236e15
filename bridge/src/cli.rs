//! The command line: one subcommand per tool, plus `bridge`, `mcp`, `health` and `call`.
//! Page reads ask the Bridge for compact results; `--raw` shows the Bridge's raw result for
//! diagnostics; `--pretty` indents for people. Page text is fenced as untrusted content
//! unless `--no-fence`. Those three go before the subcommand (`pcc --raw tabs`): `bridge`
//! and `mcp` have no use for them and do not list them.
//!
//! Owns: argument parsing, exit codes and what goes to stdout / stderr. Must never: retry
//! a call, or print Base64 (a screenshot goes to a file).

use crate::client::{Client, ClientError};
use crate::output::{error_line, show};
use crate::{config, mcp, server};
use base64::Engine;
use clap::{Parser, Subcommand};
use pcc::model::model_text::TextOptions;
use pcc::model::projection;
use serde_json::{Map, Value};

use crate::exit::{EXIT_BRIDGE, EXIT_OK, EXIT_TOOL_ERROR, EXIT_USAGE};

/// The subcommand of each tool the CLI has (a test holds it to `tool_call`): an error's message
/// and hint name these, not the MCP tool names (`pcc open`, not browser_tab_open).
const SUBCOMMANDS: &[(&str, &str)] = &[
    ("browser_accessibility_snapshot", "ax"),
    ("browser_claim_tab", "claim"),
    ("browser_click", "click"),
    ("browser_console", "console"),
    ("browser_dispose_session", "dispose"),
    ("browser_doctor", "doctor"),
    ("browser_dom_cua", "dom"),
    ("browser_evaluate", "eval"),
    ("browser_extract", "extract"),
    ("browser_fill", "fill"),
    ("browser_find", "find"),
    ("browser_hover", "hover"),
    ("browser_locator", "locator"),
    ("browser_navigate", "navigate"),
    ("browser_network", "network"),
    ("browser_press", "press"),
    ("browser_release_tab", "release"),
    ("browser_screenshot", "screenshot"),
    ("browser_scroll", "scroll"),
    ("browser_select_option", "select"),
    ("browser_selected_tab", "tab"),
    ("browser_snapshot", "snapshot"),
    ("browser_status", "status"),
    ("browser_tab_close", "close"),
    ("browser_tab_open", "open"),
    ("browser_tabs", "tabs"),
    ("browser_type", "type"),
    ("browser_wait_for", "wait-for"),
];

/// `text` with every tool name it mentions as the CLI spells it: `pcc <subcommand>`, or
/// `pcc call <tool>` for a tool without one.
pub fn in_cli_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    const PREFIX: &str = "browser_";
    while let Some(at) = rest.find(PREFIX) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = tail.find(|c: char| !(c.is_ascii_lowercase() || c == '_')).unwrap_or(tail.len());
        let name = tail[..end].trim_end_matches('_');
        match SUBCOMMANDS.iter().find(|(m, _)| *m == name) {
            Some((_, sub)) => out.push_str(&format!("pcc {sub}")),
            None if crate::tools::find(name).is_some() => out.push_str(&format!("pcc call {name}")),
            None => out.push_str(name),
        }
        rest = &tail[name.len()..];
    }
    out.push_str(rest);
    out
}

#[derive(Parser)]
#[command(name = "pcc", version, about = "pi-control-chrome: the local Bridge, a CLI over it, and an MCP server.", after_help = "Exit codes: 0 ok, 1 tool error, 2 usage, 3 Bridge unreachable / refused / no extension.")]
struct Cli {
    /// Bridge port (default $PCC_PORT or 17373).
    #[arg(long, global = true)]
    port: Option<u16>,
    /// Show the Bridge's raw result (diagnostics only).
    #[arg(long)]
    raw: bool,
    /// Indent JSON for people.
    #[arg(long)]
    pretty: bool,
    /// Do not fence page text as untrusted content.
    #[arg(long)]
    no_fence: bool,
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(clap::Args)]
struct Tab {
    /// Tab id (default: the active tab).
    #[arg(long)]
    tab: Option<i64>,
}

#[derive(clap::Args)]
struct Scope {
    /// CSS selector narrowing the read.
    #[arg(long)]
    selector: Option<String>,
    /// Character budget (capped).
    #[arg(long)]
    max_chars: Option<u64>,
    /// Node budget (capped).
    #[arg(long)]
    max_nodes: Option<u64>,
}

#[derive(clap::Args)]
struct Target {
    /// A ref (eN or aN) from the latest snapshot.
    r#ref: String,
    /// The snapshotId that produced the ref.
    #[arg(long)]
    snapshot: String,
    /// The tab handle (JSON) of a claimed user tab.
    #[arg(long)]
    handle: Option<String>,
    #[command(flatten)]
    tab: Tab,
}

#[derive(clap::Args)]
struct Journal {
    #[command(flatten)]
    tab: Tab,
    /// Console: a level (log, error, warning…); network: a URL substring.
    #[arg(long)]
    filter: Option<String>,
    /// Entries (default 100, max 1000).
    #[arg(long)]
    max_entries: Option<u64>,
}

/// The consent and origin policy the Bridge hands the extension for unattended use: each flag
/// given overrides the person's own setting (extension/services/consent.js) while this Bridge is linked.
#[derive(clap::Args, Debug, Default)]
struct PolicyArgs {
    /// Which of the person's tabs the agent may read besides its own: none, granted (the tabs and
    /// sites the person granted; the extension's default) or all.
    #[arg(long, value_parser = ["none", "granted", "all"])]
    read_user_tabs: Option<String>,
    /// Sites whose tabs the agent may read (repeatable), e.g. https://docs.example.com.
    #[arg(long = "grant-site")]
    grant_sites: Vec<String>,
    /// Origins the agent's tabs may open and request (repeatable; none given: any), e.g.
    /// example.com (and its subdomains) or https://app.example.com:8443.
    #[arg(long = "allow-origin")]
    allowed_origins: Vec<String>,
    /// Origins the agent's tabs may never open or request (repeatable).
    #[arg(long = "block-origin")]
    blocked_origins: Vec<String>,
    /// Let the agent open file: URLs (off unless given).
    #[arg(long)]
    allow_local: bool,
}

impl PolicyArgs {
    /// The policy fields given, as the extension's welcome carries them; None when none is.
    fn to_json(&self) -> Option<serde_json::Value> {
        let mut p = serde_json::Map::new();
        if let Some(r) = &self.read_user_tabs {
            p.insert("readUserTabs".into(), r.clone().into());
        }
        for (key, list) in [("sites", &self.grant_sites), ("allowedOrigins", &self.allowed_origins), ("blockedOrigins", &self.blocked_origins)] {
            if !list.is_empty() {
                p.insert(key.into(), list.clone().into());
            }
        }
        if self.allow_local {
            p.insert("allowLocal".into(), true.into());
        }
        (!p.is_empty()).then_some(serde_json::Value::Object(p))
    }
}

#[derive(Subcommand)]
enum Cmd {
    /// Run the Bridge in the foreground (127.0.0.1 only).
    Bridge {
        /// Accept only this extension id (default: any chrome-extension:// origin).
        #[arg(long)]
        extension_id: Option<String>,
        /// Exit after this many seconds with no extension linked and no call (a Bridge that
        /// pcc starts by itself sets it; default: run until stopped).
        #[arg(long, value_name = "SECS")]
        idle_exit: Option<u64>,
        #[command(flatten)]
        policy: PolicyArgs,
    },
    /// Run the MCP server on stdio (talks to the Bridge).
    Mcp {
        /// The tools it offers: core (the everyday loop, the default), all, or a comma-separated
        /// list of tool names (default: $PCC_TOOLS, else core).
        #[arg(long)]
        tools: Option<String>,
    },
    /// Register pcc as the extension's native-messaging host (Chrome, Chromium, Edge): the
    /// extension then pairs with the Bridge and starts it by itself. Run once after install.
    Setup {
        /// A browser to register for (repeatable): chrome, chrome-beta, chrome-dev,
        /// chrome-canary, chromium, edge, edge-beta, edge-dev (default: those installed).
        #[arg(long = "browser")]
        browsers: Vec<String>,
        /// A profile started with --user-data-dir DIR (repeatable): its own host directory.
        #[arg(long = "user-data-dir", value_name = "DIR")]
        user_data_dirs: Vec<std::path::PathBuf>,
        /// Also allow this extension ID (repeatable): a store install has the store's ID.
        #[arg(long = "extension-id", value_name = "ID")]
        extension_ids: Vec<String>,
        /// Remove the registration instead.
        #[arg(long)]
        remove: bool,
    },
    /// Print the token to paste into the extension's options by hand (the fallback when the
    /// native-messaging host cannot be registered).
    Pair,
    /// Bridge health and capabilities.
    Health,
    /// Any tool by name: `pcc call browser_snapshot '{"maxChars":5000}'`.
    Call {
        method: String,
        params: Option<String>,
        /// Write an image the result carries (a screenshot) to this PNG file.
        #[arg(long)]
        image: Option<std::path::PathBuf>,
    },
    /// The page as a compact semantic state with refs.
    Snapshot {
        #[command(flatten)]
        tab: Tab,
        #[command(flatten)]
        scope: Scope,
    },
    /// Accessibility tree: full, then diff / unchanged against your last read.
    Ax {
        #[command(flatten)]
        tab: Tab,
        #[command(flatten)]
        scope: Scope,
        /// Force a full state.
        #[arg(long)]
        full: bool,
        /// Your agent session (revisions are kept per session).
        #[arg(long)]
        session: Option<String>,
    },
    /// Visible DOM elements with coordinates.
    Dom {
        #[command(flatten)]
        tab: Tab,
        #[command(flatten)]
        scope: Scope,
    },
    /// The article (or main text) as Markdown (or --format text), one page at a time.
    Extract {
        #[command(flatten)]
        tab: Tab,
        #[arg(long)]
        selector: Option<String>,
        #[arg(long)]
        format: Option<String>,
        #[arg(long)]
        max_chars: Option<u64>,
        /// Where to start: the nextOffset of the previous page.
        #[arg(long)]
        offset: Option<u64>,
    },
    /// Open tabs.
    Tabs,
    /// The active (or given) tab and its handle.
    Tab {
        #[command(flatten)]
        tab: Tab,
    },
    /// Open an agent-owned tab.
    Open { url: String },
    /// Close an agent-owned tab.
    Close { tab: i64 },
    /// Claim a user tab for actions; prints its handle.
    Claim { tab: i64 },
    /// Give a claimed user tab back.
    Release { tab: i64 },
    /// Forget the accessibility revisions of an agent session.
    Dispose { session: String },
    /// Read one fact of a ref: count is for targets (use `pcc call browser_locator`).
    Locator {
        /// text, value, attribute, visible or enabled.
        read: String,
        /// A ref from a snapshot or browser_find.
        r#ref: String,
        /// The snapshotId of the ref.
        #[arg(long)]
        snapshot: String,
        /// The attribute name, for `attribute`.
        #[arg(long)]
        attribute: Option<String>,
        #[command(flatten)]
        tab: Tab,
    },
    /// Load a URL in a tab.
    Navigate {
        url: String,
        #[command(flatten)]
        tab: Tab,
    },
    /// Search the whole page (not only what a snapshot shows): text, a RegExp, or role + name.
    Find {
        /// Text to find (case-insensitive).
        text: Option<String>,
        /// A JavaScript RegExp source (case-insensitive).
        #[arg(long)]
        regex: Option<String>,
        /// An ARIA role (button, link, heading, textbox…).
        #[arg(long)]
        role: Option<String>,
        /// The accessible name (a substring; all of it with --exact).
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        exact: bool,
        #[arg(long)]
        max_results: Option<u64>,
        #[command(flatten)]
        tab: Tab,
        #[arg(long)]
        selector: Option<String>,
    },
    /// Scroll the page (or the container of --ref) up, down, left or right; or --to REF into view.
    Scroll {
        /// up, down, left or right.
        direction: Option<String>,
        /// How many viewports (default 1).
        #[arg(long)]
        pages: Option<f64>,
        /// The element whose scroll container moves.
        #[arg(long)]
        r#ref: Option<String>,
        /// Bring this ref into view instead.
        #[arg(long)]
        to: Option<String>,
        /// The snapshotId of the ref.
        #[arg(long)]
        snapshot: Option<String>,
        #[command(flatten)]
        tab: Tab,
    },
    /// Click the element of a ref.
    Click {
        #[command(flatten)]
        target: Target,
        /// Double click.
        #[arg(long)]
        double: bool,
    },
    /// Replace a field's value.
    Fill {
        #[command(flatten)]
        target: Target,
        text: String,
    },
    /// Type into a field key by key.
    Type {
        #[command(flatten)]
        target: Target,
        text: String,
        /// Press Enter after typing.
        #[arg(long)]
        submit: bool,
    },
    /// Press a key (on a ref, or the focused element).
    Press {
        key: String,
        #[arg(long)]
        r#ref: Option<String>,
        #[arg(long)]
        snapshot: Option<String>,
        #[command(flatten)]
        tab: Tab,
    },
    /// Hover the element of a ref.
    Hover {
        #[command(flatten)]
        target: Target,
    },
    /// Select an option (value or label).
    Select {
        #[command(flatten)]
        target: Target,
        value: String,
    },
    /// Wait for text or a selector.
    WaitFor {
        #[arg(long)]
        text: Option<String>,
        #[arg(long)]
        selector: Option<String>,
        #[arg(long)]
        timeout: Option<u64>,
        #[command(flatten)]
        tab: Tab,
    },
    /// Screenshot to a PNG file.
    Screenshot {
        #[command(flatten)]
        tab: Tab,
        /// Where to write the PNG.
        #[arg(long, default_value = "screenshot.png")]
        path: std::path::PathBuf,
        /// The whole page, not only the viewport.
        #[arg(long)]
        full_page: bool,
    },
    /// Evaluate a JavaScript expression (agent or claimed tabs).
    Eval {
        expression: String,
        #[command(flatten)]
        tab: Tab,
    },
    /// Recent console messages (--filter: a level).
    Console(Journal),
    /// Recent requests (--filter: a URL substring).
    Network(Journal),
    /// Connection and target summary.
    Status {
        #[command(flatten)]
        tab: Tab,
    },
    /// What is missing between you and the browser (pcc on the PATH, the native host, the
    /// Bridge, the extension, pairing) and the command that fixes it; then the extension's own
    /// checks when it is linked.
    Doctor {
        #[command(flatten)]
        tab: Tab,
        /// A profile started with --user-data-dir DIR whose host registration to check too.
        #[arg(long = "user-data-dir", value_name = "DIR")]
        user_data_dirs: Vec<std::path::PathBuf>,
    },
}

/// Builds a params object, leaving out absent options.
struct Params(Map<String, Value>);

impl Params {
    fn new() -> Params {
        Params(Map::new())
    }
    fn set(mut self, key: &str, v: Option<impl Into<Value>>) -> Params {
        if let Some(v) = v {
            self.0.insert(key.to_string(), v.into());
        }
        self
    }
    fn flag(self, key: &str, on: bool) -> Params {
        self.set(key, on.then_some(true))
    }
    fn tab(self, t: &Tab) -> Params {
        self.set("tabId", t.tab)
    }
    fn scope(self, s: Scope) -> Params {
        self.set("selector", s.selector).set("maxChars", s.max_chars).set("maxNodes", s.max_nodes)
    }
    fn journal(self, j: Journal) -> Params {
        self.tab(&j.tab).set("filter", j.filter).set("maxEntries", j.max_entries)
    }
    fn target(self, t: Target) -> Result<Params, String> {
        let handle = match t.handle {
            Some(h) => Some(serde_json::from_str::<Value>(&h).map_err(|_| "--handle must be the JSON handle object".to_string())?),
            None => None,
        };
        Ok(self.tab(&t.tab).set("ref", Some(t.r#ref)).set("snapshotId", Some(t.snapshot)).set("handle", handle))
    }
}

pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
        }
    };
    // A given port, else $PCC_PORT, else the port of the Bridge this state directory runs.
    let port = match (&cli.cmd, cli.port) {
        (_, Some(p)) => p,
        (Cmd::Bridge { .. } | Cmd::Setup { .. } | Cmd::Pair, None) => config::port(None),
        (_, None) => crate::launch::port(),
    };
    let opts = TextOptions { pretty: cli.pretty, fence: !cli.no_fence };
    let (method, params) = match cli.cmd {
        Cmd::Bridge { extension_id, idle_exit, policy } => {
            return serve(server::serve(port, extension_id, policy.to_json(), idle_exit.map(std::time::Duration::from_secs)), |e| format!("BRIDGE_UNAVAILABLE: {e} (hint: is another Bridge on port {port}? pass --port)"));
        }
        Cmd::Mcp { tools } => {
            let profile = tools.or_else(|| std::env::var("PCC_TOOLS").ok().filter(|s| !s.trim().is_empty())).unwrap_or_else(|| "core".into());
            if let Err(e) = crate::tools::profile(&profile) {
                eprintln!("INVALID_REQUEST: --tools: {e}");
                return EXIT_USAGE;
            }
            return serve(mcp::serve(port, &profile), |e| format!("MCP_FAILED: {e}"));
        }
        Cmd::Health => return health(port, cli.pretty),
        Cmd::Pair => return pair(),
        Cmd::Setup { browsers, user_data_dirs, extension_ids, remove } => return crate::setup::run(crate::setup::Request { browsers, user_data_dirs, extension_ids, remove }),
        Cmd::Doctor { ref user_data_dirs, .. } if let Some(code) = crate::doctor::run(port, user_data_dirs) => return code,
        cmd => match tool_call(cmd) {
            Ok(call) => call,
            Err(message) => {
                eprintln!("INVALID_REQUEST: {message}");
                return EXIT_USAGE;
            }
        },
    };
    let image_file = params.1.clone();
    let mode = if cli.raw {
        Some("raw")
    } else if projection::has_compact(&method) {
        Some("compact")
    } else {
        None
    };
    let result = match crate::launch::call_tool(&Client::new(port), &method, params.0, mode) {
        Ok(r) => r,
        Err(e @ ClientError::Uncertain(_)) => {
            // The tool's outcome is unknown, not the Bridge's state: a tool error.
            eprintln!("{e}");
            return EXIT_TOOL_ERROR;
        }
        Err(e) => {
            eprintln!("{e}");
            return EXIT_BRIDGE;
        }
    };
    let shown = if cli.raw {
        let text = if cli.pretty { serde_json::to_string_pretty(&result) } else { serde_json::to_string(&result) }.unwrap_or_default();
        crate::output::Shown { text, image: None, mime: String::new() }
    } else {
        show(&method, &result, opts)
    };
    if let (Some(image), Some(path)) = (&shown.image, &image_file) {
        let written = base64::engine::general_purpose::STANDARD.decode(image).map_err(|e| e.to_string()).and_then(|png| std::fs::write(path, png).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("SCREENSHOT_NOT_WRITTEN: {e} (hint: check --image)");
            return EXIT_TOOL_ERROR;
        }
    }
    println!("{}", shown.text);
    match error_line(&result).map(|l| in_cli_words(&l)) {
        // The extension's doctor found a problem: not a success.
        None if method == "browser_doctor" && result.get("ok") == Some(&Value::Bool(false)) => EXIT_TOOL_ERROR,
        None => EXIT_OK,
        Some(line) => {
            eprintln!("{line}");
            let code = result["error"]["code"].as_str().unwrap_or("");
            if code.starts_with("BRIDGE_") {
                EXIT_BRIDGE
            } else {
                EXIT_TOOL_ERROR
            }
        }
    }
}

/// Runs a long-lived service (Bridge, MCP) to its end; `fail` words its error for stderr.
fn serve<E: std::fmt::Display>(service: impl std::future::Future<Output = Result<(), E>>, fail: impl Fn(String) -> String) -> i32 {
    let outcome = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().map_err(|e| e.to_string()).and_then(|rt| rt.block_on(service).map_err(|e| e.to_string()));
    match outcome {
        Ok(()) => EXIT_OK,
        Err(e) => {
            eprintln!("{}", fail(e));
            EXIT_BRIDGE
        }
    }
}

fn pair() -> i32 {
    match config::token() {
        Ok(token) => {
            eprintln!("Paste this token into the extension's options (chrome://extensions → pi-control-chrome → Details → Extension options):");
            println!("{token}");
            EXIT_OK
        }
        Err(e) => {
            eprintln!("BRIDGE_UNAVAILABLE: cannot create the token in {}: {e}", config::home().display());
            EXIT_BRIDGE
        }
    }
}

fn health(port: u16, pretty: bool) -> i32 {
    match Client::new(port).health() {
        Ok(h) => {
            println!("{}", if pretty { serde_json::to_string_pretty(&h) } else { serde_json::to_string(&h) }.unwrap_or_default());
            if h.get("ok").and_then(Value::as_bool) == Some(true) {
                EXIT_OK
            } else {
                if let Some(line) = error_line(&h) {
                    eprintln!("{line}");
                }
                EXIT_BRIDGE
            }
        }
        Err(e) => {
            eprintln!("{e}");
            EXIT_BRIDGE
        }
    }
}

/// (method, (params, `pcc call --image` file)) of a tool subcommand.
#[allow(clippy::type_complexity)]
fn tool_call(cmd: Cmd) -> Result<(String, (Map<String, Value>, Option<std::path::PathBuf>)), String> {
    let p = Params::new();
    let (method, params) = match cmd {
        Cmd::Call { method, params, image } => {
            let params = match params {
                None => Map::new(),
                Some(s) => match serde_json::from_str::<Value>(&s) {
                    Ok(Value::Object(o)) => o,
                    _ => return Err("params must be a JSON object".into()),
                },
            };
            return Ok((method, (params, image)));
        }
        Cmd::Snapshot { tab, scope } => ("browser_snapshot", p.tab(&tab).scope(scope)),
        Cmd::Ax { tab, scope, full, session } => ("browser_accessibility_snapshot", p.tab(&tab).scope(scope).flag("disableDiffing", full).set("sessionId", session)),
        Cmd::Dom { tab, scope } => ("browser_dom_cua", p.tab(&tab).scope(scope)),
        Cmd::Extract { tab, selector, format, max_chars, offset } => ("browser_extract", p.tab(&tab).set("selector", selector).set("format", format).set("maxChars", max_chars).set("offset", offset)),
        Cmd::Tabs => ("browser_tabs", p),
        Cmd::Tab { tab } => ("browser_selected_tab", p.tab(&tab)),
        Cmd::Open { url } => ("browser_tab_open", p.set("url", Some(url))),
        Cmd::Close { tab } => ("browser_tab_close", p.set("tabId", Some(tab))),
        Cmd::Claim { tab } => ("browser_claim_tab", p.set("tabId", Some(tab))),
        Cmd::Release { tab } => ("browser_release_tab", p.set("tabId", Some(tab))),
        Cmd::Dispose { session } => ("browser_dispose_session", p.set("sessionId", Some(session))),
        Cmd::Locator { read, r#ref, snapshot, attribute, tab } => ("browser_locator", p.tab(&tab).set("read", Some(read)).set("ref", Some(r#ref)).set("snapshotId", Some(snapshot)).set("attribute", attribute)),
        Cmd::Navigate { url, tab } => ("browser_navigate", p.tab(&tab).set("url", Some(url))),
        Cmd::Find { text, regex, role, name, exact, max_results, tab, selector } => ("browser_find", p.tab(&tab).set("text", text).set("regex", regex).set("role", role).set("name", name).flag("exact", exact).set("maxResults", max_results).set("selector", selector)),
        Cmd::Scroll { direction, pages, r#ref, to, snapshot, tab } => ("browser_scroll", p.tab(&tab).set("direction", direction).set("pages", pages).set("ref", r#ref).set("toRef", to).set("snapshotId", snapshot)),
        Cmd::Click { target, double } => ("browser_click", p.target(target)?.flag("doubleClick", double)),
        Cmd::Fill { target, text } => ("browser_fill", p.target(target)?.set("text", Some(text))),
        Cmd::Type { target, text, submit } => ("browser_type", p.target(target)?.set("text", Some(text)).flag("submit", submit)),
        Cmd::Press { key, r#ref, snapshot, tab } => ("browser_press", p.tab(&tab).set("key", Some(key)).set("ref", r#ref).set("snapshotId", snapshot)),
        Cmd::Hover { target } => ("browser_hover", p.target(target)?),
        Cmd::Select { target, value } => ("browser_select_option", p.target(target)?.set("value", Some(value))),
        Cmd::WaitFor { text, selector, timeout, tab } => ("browser_wait_for", p.tab(&tab).set("text", text).set("selector", selector).set("timeout", timeout)),
        Cmd::Screenshot { tab, path: file, full_page } => {
            // Written by the client (files.rs), which needs an absolute path.
            let file = std::path::absolute(&file).map_err(|e| format!("--path: {e}"))?;
            ("browser_screenshot", p.tab(&tab).flag("fullPage", full_page).set("path", Some(file.to_string_lossy().into_owned())))
        }
        Cmd::Eval { expression, tab } => ("browser_evaluate", p.tab(&tab).set("expression", Some(expression))),
        Cmd::Console(j) => ("browser_console", p.journal(j)),
        Cmd::Network(j) => ("browser_network", p.journal(j)),
        Cmd::Status { tab } => ("browser_status", p.tab(&tab)),
        Cmd::Doctor { tab, .. } => ("browser_doctor", p.tab(&tab)),
        Cmd::Bridge { .. } | Cmd::Mcp { .. } | Cmd::Health | Cmd::Pair | Cmd::Setup { .. } => return Err("not a tool command".into()),
    };
    Ok((method.to_string(), (params.0, None)))
}

#[cfg(test)]
mod help_tests {
    use super::{in_cli_words, SUBCOMMANDS};

    #[test]
    fn every_tool_the_cli_calls_has_its_subcommand_in_the_table() {
        let src = include_str!("cli.rs");
        let body = &src[src.find("fn tool_call").expect("tool_call")..];
        let called: Vec<&str> = body.split("(\"browser_").skip(1).filter_map(|s| s.split('"').next()).collect();
        assert!(called.len() > 20);
        let cli = Cli::command();
        for n in called {
            let method = ["browser_", n].concat();
            let sub = SUBCOMMANDS.iter().find(|(m, _)| *m == method).map(|(_, s)| *s);
            assert!(sub.is_some_and(|s| cli.find_subcommand(s).is_some()), "{method}: no subcommand in SUBCOMMANDS");
        }
    }

    #[test]
    fn errors_name_cli_commands() {
        assert_eq!(in_cli_words("open a tab with browser_tab_open or pass tabId"), "open a tab with pcc open or pass tabId");
        assert_eq!(in_cli_words("read browser_tabs, or browser_find_nothing"), "read pcc tabs, or browser_find_nothing");
        assert_eq!(in_cli_words("use browser_mark_tab."), "use pcc call browser_mark_tab.");
    }

    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn services_do_not_list_output_flags_they_ignore() {
        let mut cmd = Cli::command();
        for service in ["mcp", "bridge"] {
            let help = cmd.find_subcommand_mut(service).unwrap().render_help().to_string();
            for flag in ["--raw", "--pretty", "--no-fence"] {
                assert!(!help.contains(flag), "pcc {service} --help lists {flag}:\n{help}");
            }
        }
        let top = Cli::command().render_help().to_string();
        assert!(top.contains("--raw") && top.contains("--no-fence"));
    }
}
