//! Renders a captured observation (JSON, or gzipped JSON) with the native core:
//! `cargo run --release --example render -- tests/captures/basic.json`. With a count after
//! the path, renders it that many times more and prints the median time of one render
//! instead (for profiling: `perf record` on that loop).
mod common;
use pcc::{Collector, SnapshotOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: render <observation.json[.gz]> [repeats]");
    let repeats: usize = args.next().map(|n| n.parse().expect("repeats: a number")).unwrap_or(0);
    let text = common::read_capture(&path);
    let mut c = Collector::new("demo");
    let t = std::time::Instant::now();
    match c.snapshot(&text, &SnapshotOptions::default()) {
        Ok(r) => {
            if repeats == 0 {
                println!("{}", r.state.as_deref().unwrap_or(""));
            }
            eprintln!(
                "[{} nodes, {} chars, {} refs, truncated={}, total {} nodes; raw {} bytes; {:?}]",
                r.node_count, r.char_count, r.ref_count, r.truncated, r.total_nodes, text.len(), t.elapsed()
            );
        }
        Err(e) => eprintln!("{e}"),
    }
    if repeats > 0 {
        let mut times: Vec<_> = (0..repeats)
            .map(|_| {
                let t = std::time::Instant::now();
                let _ = c.snapshot(&text, &SnapshotOptions::default());
                t.elapsed()
            })
            .collect();
        times.sort();
        eprintln!("median of {repeats}: {:?}", times[repeats / 2]);
    }
}
