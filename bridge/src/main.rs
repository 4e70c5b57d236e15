//! `pcc`: the local Bridge (`pcc bridge`), a CLI over it (`pcc snapshot`, `pcc click`, …)
//! and an MCP server on stdio (`pcc mcp`). See docs/hosts.md.
//!
//! Started by a browser with a `chrome-extension://…` argument, it is the native-messaging
//! host instead (`native.rs`; `pcc setup` registers it).
//!
//! Exit codes: 0 the call succeeded; 1 the tool answered with an error (its JSON on stdout,
//! `CODE: message (hint: …)` on stderr); 2 bad usage; 3 the Bridge is unreachable, refused
//! the call, or no extension is connected.

mod cli;
mod client;
mod config;
mod doctor;
mod exit;
mod files;
mod launch;
mod link;
mod mcp;
mod native;
mod output;
mod pairing;
mod server;
mod setup;
mod tools;
mod wire;

fn main() {
    // A browser starts the native-messaging host with the caller's origin as the argument.
    if let Some(origin) = std::env::args().nth(1).filter(|a| native::is_invocation(a)) {
        std::process::exit(native::run(&origin));
    }
    std::process::exit(cli::run());
}
