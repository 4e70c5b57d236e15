//! The peak heap of one read, natively: one test in its own binary, so that the counting
//! allocator (`common/counting.rs`) sees this read only (ARCHITECTURE.md, invariant on memory).
//!
//! A read holds its observation's text until it is decoded, then the decoded observation
//! and the tree, never two copies of an array grown by doubling. Before the arrays were
//! sized once and the layout packed (issue #20), this read peaked at 3.7× its text; it is 1.7×.

mod common;
use pcc::session::mode::Mode;
use common::*;
use pcc::{AxOptions, Collector};

#[path = "common/counting.rs"]
mod counting;

/// Peak bytes above what was allocated before `f` ran.
fn peak_of(f: impl FnOnce()) -> usize {
    let base = counting::reset();
    f();
    counting::peak() - base
}

#[test]
fn an_ax_read_peaks_under_twice_its_text() {
    let text = capture("long-session");
    let len = text.len();
    let mut c = Collector::new("m");
    let peak = peak_of(|| {
        // The text is handed over (as the wasm facade hands it) and counted from here.
        let owned = String::from(text.as_str());
        let r = c.accessibility(owned, &AxOptions { tab: tab(), session_id: "m".into(), ..AxOptions::default() }).expect("read");
        assert_eq!(r.mode, Mode::Full);
    });
    let ratio = peak as f64 / len as f64;
    assert!(ratio < 2.0, "peak {peak} bytes = {ratio:.2}× the {len}-byte observation");
}
