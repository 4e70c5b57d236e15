//! Renders a captured observation (JSON, or gzipped JSON) with the native core:
//! `cargo run --release --example render -- tests/captures/basic.json`.
use pcc::{Collector, SnapshotOptions};
use std::io::Read;

fn main() {
    let path = std::env::args().nth(1).expect("usage: render <observation.json[.gz]>");
    let bytes = std::fs::read(&path).expect("readable file");
    let text = if path.ends_with(".gz") {
        let mut s = String::new();
        flate2::read::GzDecoder::new(&bytes[..]).read_to_string(&mut s).expect("gzip");
        s
    } else {
        String::from_utf8(bytes).expect("utf-8")
    };
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
