//! Peak heap of each stage of the pipeline on one capture:
//! `cargo run --release --example memory -- tests/captures/x.json[.gz]`.
mod common;
#[path = "../tests/common/counting.rs"]
mod counting;

fn mib(n: usize) -> String {
    format!("{:.1} MiB", n as f64 / 1048576.0)
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: memory <observation.json[.gz]>");
    let text = common::read_capture(&path);
    let base = counting::reset();
    let mut obs = pcc::input::decode_observation(&text).expect("decodes");
    println!("input {} ; decoded: now +{} peak +{}", mib(text.len()), mib(counting::now() - base), mib(counting::peak() - base));
    let tree = pcc::tools::snapshot::build_tree(&mut obs).expect("tree");
    println!("tree: now +{} peak +{}", mib(counting::now() - base), mib(counting::peak() - base));
    drop(obs);
    let out = pcc::tools::snapshot::snapshot(&tree, pcc::budget::Budget::clamped(None, None), pcc::view::render::RefLabels { prefix: 'e', first: 1 }, None).expect("state");
    println!("snapshot ({} chars): now +{} peak +{}", out.result.char_count, mib(counting::now() - base), mib(counting::peak() - base));
}

