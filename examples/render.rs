//! Renders a captured observation (JSON, or gzipped JSON) with the native core:
//! `cargo run --release --example render -- tests/captures/basic.json`.
mod common;
use pcc::{Collector, SnapshotOptions};

fn main() {
    let path = std::env::args().nth(1).expect("usage: render <observation.json[.gz]>");
    let text = common::read_capture(&path);
    let mut c = Collector::new("demo");
    let t = std::time::Instant::now();
    match c.snapshot(&text, &SnapshotOptions::default()) {
        Ok(r) => {
            println!("{}", r.state.as_deref().unwrap_or(""));
            eprintln!(
                "[{} nodes, {} chars, {} refs, truncated={}, total {} nodes; raw {} bytes; {:?}]",
                r.node_count, r.char_count, r.ref_count, r.truncated, r.total_nodes, text.len(), t.elapsed()
            );
        }
        Err(e) => eprintln!("{e}"),
    }
}
