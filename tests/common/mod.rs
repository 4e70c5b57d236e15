//! Shared helpers of the native suites: load a checked-in capture, run the collector.
#![allow(dead_code)]

pub mod page;

use pcc::{Collector, SnapshotOptions, SnapshotResult, TabKey};
use std::io::Read;
use std::path::PathBuf;

pub fn capture(name: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/captures");
    let plain = dir.join(format!("{name}.json"));
    if plain.exists() {
        return std::fs::read_to_string(plain).expect("capture readable");
    }
    let gz = std::fs::read(dir.join(format!("{name}.json.gz"))).unwrap_or_else(|_| panic!("no capture named {name}"));
    let mut s = String::new();
    flate2::read::GzDecoder::new(&gz[..]).read_to_string(&mut s).expect("gzip capture");
    s
}

pub fn tab() -> TabKey {
    TabKey { tab_id: 7, browser_id: "chrome:test".into(), tab_fence: "tab:7:1".into(), incarnation: "doc-1".into() }
}

pub fn opts(max_chars: Option<u64>, max_nodes: Option<u64>) -> SnapshotOptions {
    SnapshotOptions { max_chars, max_nodes, tab: tab(), page: None }
}

/// A result whose `state` is always present (full snapshots), other fields by deref.
#[derive(Debug)]
pub struct Snap {
    pub state: String,
    pub result: SnapshotResult,
}

impl std::ops::Deref for Snap {
    type Target = SnapshotResult;
    fn deref(&self) -> &SnapshotResult {
        &self.result
    }
}

impl From<SnapshotResult> for Snap {
    fn from(result: SnapshotResult) -> Snap {
        Snap { state: result.state.clone().unwrap_or_default(), result }
    }
}

pub fn snap(name: &str) -> Snap {
    snap_with(name, opts(None, None))
}

pub fn snap_with(name: &str, o: SnapshotOptions) -> Snap {
    let mut c = Collector::new("t");
    c.snapshot(&capture(name), &o).expect("snapshot succeeds").into()
}

/// The line of the state that contains `needle`, for focused assertions.
pub fn line_with<'a>(state: &'a str, needle: &str) -> &'a str {
    state.lines().find(|l| l.contains(needle)).unwrap_or_else(|| panic!("no line with {needle:?} in:\n{state}"))
}

/// The ref label on the line of `state` that contains `needle`.
pub fn ref_on(state: &str, needle: &str) -> String {
    let line = line_with(state, needle);
    line.split("[ref=").nth(1).and_then(|r| r.split(']').next()).unwrap_or_else(|| panic!("no ref on {line:?}")).to_string()
}

pub fn count(state: &str, needle: &str) -> usize {
    state.matches(needle).count()
}
