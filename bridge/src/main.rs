//! `pcc`: the local Bridge (`pcc bridge`), a CLI over it (`pcc snapshot`, `pcc click`, …)
//! and an MCP server on stdio (`pcc mcp`). See README "Bridge, CLI and MCP".
//!
//! Exit codes: 0 the call succeeded; 1 the tool answered with an error (its JSON on stdout,
//! `CODE: message (hint: …)` on stderr); 2 bad usage; 3 the Bridge is unreachable, refused
//! the call, or no extension is connected.

mod cli;
mod client;
mod config;
mod files;
mod mcp;
mod output;
mod pairing;
mod server;
mod tools;
mod wire;

fn main() {
    std::process::exit(cli::run());
}
