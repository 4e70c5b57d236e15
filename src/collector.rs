//! The stateful collector one extension runtime holds: it numbers observations, keeps the
//! ref registry, and answers ref lookups and rebinds. Everything else is a pure function.
//!
//! Owns: snapshot ids (`snapshot-<runtime>-<n>`), registry lifetime. Must never: read a
//! clock or draw random numbers (the runtime id comes from the host).

use crate::budget::Budget;
use crate::error::Result;
use crate::identity;
use crate::input::decode_observation;
use crate::refs::{RefTarget, Registry, TabKey};
use crate::render::RefLabels;
use crate::snapshot::{build_tree, snapshot, SnapshotResult};
use serde::Deserialize;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SnapshotOptions {
    pub max_chars: Option<u64>,
    pub max_nodes: Option<u64>,
    pub tab: TabKey,
}

pub struct Collector {
    runtime: String,
    counter: u64,
    registry: Registry,
}

impl Collector {
    /// `runtime` identifies this extension runtime; ids from another runtime never resolve.
    pub fn new(runtime: &str) -> Collector {
        let runtime: String = runtime.chars().filter(|c| c.is_ascii_alphanumeric()).take(12).collect();
        Collector { runtime, counter: 0, registry: Registry::default() }
    }

    pub fn snapshot(&mut self, observation_json: &str, opts: &SnapshotOptions) -> Result<SnapshotResult> {
        let obs = decode_observation(observation_json)?;
        let tree = build_tree(&obs)?;
        let out = snapshot(&tree, Budget::clamped(opts.max_chars, opts.max_nodes), RefLabels { prefix: 'e', first: 1 });
        let mut result = out.result;
        self.counter += 1;
        result.snapshot_id = format!("snapshot-{}-{}", self.runtime, self.counter);
        self.registry.insert(result.snapshot_id.clone(), opts.tab.clone(), out.refs);
        Ok(result)
    }

    pub fn resolve(&self, snapshot_id: &str, ref_label: &str, tab: &TabKey) -> Result<RefTarget> {
        self.registry.resolve(snapshot_id, ref_label, tab).cloned()
    }

    /// The original node is gone: find its unique strong equivalent in a fresh observation.
    pub fn rebind(&self, snapshot_id: &str, ref_label: &str, tab: &TabKey, observation_json: &str) -> Result<RefTarget> {
        let old = self.registry.resolve(snapshot_id, ref_label, tab)?;
        let obs = decode_observation(observation_json)?;
        let tree = build_tree(&obs)?;
        identity::rebind(old, &tree, ref_label)
    }

    pub fn clear_tab(&mut self, tab_id: i64) {
        self.registry.clear_tab(tab_id);
    }
}
