//! Peak heap of each stage of the pipeline on one capture:
//! `cargo run --release --example memory -- tests/captures/x.json[.gz]`.
mod common;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

struct Counting;
static NOW: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let n = NOW.fetch_add(l.size(), Relaxed) + l.size();
        PEAK.fetch_max(n, Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        NOW.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
}
#[global_allocator]
static A: Counting = Counting;

fn mib(n: usize) -> String {
    format!("{:.1} MiB", n as f64 / 1048576.0)
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: memory <observation.json[.gz]>");
    let text = common::read_capture(&path);
    let base = NOW.load(Relaxed);
    PEAK.store(base, Relaxed);
    let mut obs = pcc::input::decode_observation(&text).expect("decodes");
    println!("input {} ; decoded: now +{} peak +{}", mib(text.len()), mib(NOW.load(Relaxed) - base), mib(PEAK.load(Relaxed) - base));
    let tree = pcc::tools::snapshot::build_tree(&mut obs).expect("tree");
    println!("tree: now +{} peak +{}", mib(NOW.load(Relaxed) - base), mib(PEAK.load(Relaxed) - base));
    drop(obs);
    let out = pcc::tools::snapshot::snapshot(&tree, pcc::budget::Budget::clamped(None, None), pcc::view::render::RefLabels { prefix: 'e', first: 1 }, None).expect("state");
    println!("snapshot ({} chars): now +{} peak +{}", out.result.char_count, mib(NOW.load(Relaxed) - base), mib(PEAK.load(Relaxed) - base));
}

