//! The ref registry: each ref (`e3`, `a7`) maps to the DOM node it was rendered for,
//! within the observation (`snapshotId`) and document that produced it. Lookups fail
//! closed: an unknown, evicted or foreign snapshot, another tab, a replaced tab or a
//! navigated document is an error, never a guess.
//!
//! Owns: ref → target records and their eviction. Must never: resolve a ref from model
//! text, or outlive the extension runtime (a restart starts an empty registry).

use crate::budget::{REF_SNAPSHOTS_PER_TAB, REF_SNAPSHOTS_TOTAL};
use crate::error::{Code, Error, Result};
use serde::{Deserialize, Serialize};

/// The tab handle a snapshot was taken under.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TabKey {
    pub tab_id: i64,
    pub browser_id: String,
    pub tab_fence: String,
    pub incarnation: String,
}

/// Where a ref points, and what the node looked like (for a provable rebind).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefTarget {
    pub frame_id: String,
    pub session: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend_node_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walk_index: Option<i64>,
    /// The DOM walk `walk_index` counts in (see `DomWalk::walk_id`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub walk_id: Option<String>,
    pub role: crate::role::Role,
    pub name: String,
    pub tag: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id_attr: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name_attr: Option<String>,
}

#[derive(Default, Serialize, Deserialize)]
struct Record {
    snapshot_id: String,
    tab: TabKey,
    refs: Vec<(String, RefTarget)>,
    /// A semantic target's resolution: only the newest one per tab is kept, and it never
    /// pushes a snapshot the model holds out of the per-tab limit.
    ephemeral: bool,
    /// Its labels name the same nodes in every later record of its tab's document that is
    /// also `stable` (AX revisions: a diff shows only what changed, so the model acts on refs
    /// of the full read it holds, however many revisions later).
    #[serde(default)]
    stable: bool,
}

#[derive(Default, Serialize, Deserialize)]
pub struct Registry {
    records: Vec<Record>,
    /// Snapshots dropped because their tab moved to another document: (snapshot id, tab id).
    /// Kept (bounded) only to say precisely why their refs fail.
    superseded: Vec<(String, i64)>,
    /// Stable snapshots dropped by the per-tab or total limit: (snapshot id, its tab handle).
    /// Their refs resolve in the newest stable record of the same document.
    #[serde(default)]
    evicted: Vec<(String, TabKey)>,
}






impl Registry {
    /// Records a snapshot's refs (`stable`: see `Record::stable`).
    pub fn insert(&mut self, snapshot_id: String, tab: TabKey, refs: Vec<(String, RefTarget)>, ephemeral: bool, stable: bool) {
        // A new document on the tab makes every older record of it useless: drop them now.
        let (old, keep): (Vec<Record>, Vec<Record>) = std::mem::take(&mut self.records)
            .into_iter()
            .partition(|r| r.tab.tab_id == tab.tab_id && (r.tab.incarnation != tab.incarnation || r.tab.tab_fence != tab.tab_fence));
        self.records = keep;
        for r in old {
            self.superseded.push((r.snapshot_id, r.tab.tab_id));
            if self.superseded.len() > crate::budget::REF_SUPERSEDED_KEPT {
                self.superseded.remove(0);
            }
        }
        if ephemeral {
            self.records.retain(|r| !(r.ephemeral && r.tab.tab_id == tab.tab_id));
        }
        self.evicted.retain(|(_, t)| t.tab_id != tab.tab_id || (t.incarnation == tab.incarnation && t.tab_fence == tab.tab_fence));
        self.records.push(Record { snapshot_id, tab: tab.clone(), refs, ephemeral, stable });
        let held = |r: &Record| r.tab.tab_id == tab.tab_id && !r.ephemeral;
        if self.records.iter().filter(|r| held(r)).count() > REF_SNAPSHOTS_PER_TAB {
            if let Some(pos) = self.records.iter().position(held) {
                let r = self.records.remove(pos);
                self.evict(r);
            }
        }
        while self.records.len() > REF_SNAPSHOTS_TOTAL {
            let r = self.records.remove(0);
            self.evict(r);
        }
    }

    fn evict(&mut self, r: Record) {
        if r.stable {
            self.evicted.push((r.snapshot_id, r.tab));
            if self.evicted.len() > crate::budget::REF_SUPERSEDED_KEPT {
                self.evicted.remove(0);
            }
        }
    }

    /// Forgets a tab (closed, replaced, navigated, session disposed).
    pub fn clear_tab(&mut self, tab_id: i64) {
        self.records.retain(|r| r.tab.tab_id != tab_id);
        self.evicted.retain(|(_, t)| t.tab_id != tab_id);
    }

    pub fn resolve(&self, snapshot_id: &str, ref_label: &str, current: &TabKey) -> Result<&RefTarget> {
        self.record(snapshot_id, ref_label, current)?
            .refs
            .iter()
            .find(|(l, _)| l == ref_label)
            .map(|(_, t)| t)
            .ok_or_else(|| Error::stale_ref(format!("ref {} is not in snapshot {snapshot_id}", crate::text::capped(ref_label, crate::budget::REF_LABEL_CHARS))))
    }

    /// Every ref of `snapshot_id` with its target, if the snapshot still serves the tab handle
    /// `current` (the same errors as `resolve`).
    pub fn refs_of(&self, snapshot_id: &str, current: &TabKey) -> Result<&[(String, RefTarget)]> {
        self.record(snapshot_id, "its refs", current).map(|r| r.refs.as_slice())
    }

    /// Whether the refs of `snapshot_id` still resolve for the tab handle `current` (the same
    /// errors as `resolve`, for no ref in particular).
    pub fn holds(&self, snapshot_id: &str, current: &TabKey) -> Result<()> {
        self.record(snapshot_id, "its refs", current).map(|_| ())
    }

    /// The record of `snapshot_id` if it still serves the tab handle `current`.
    fn record(&self, snapshot_id: &str, ref_label: &str, current: &TabKey) -> Result<&Record> {
        // An evicted stable snapshot answers through the newest stable record of its document.
        let successor = || {
            let (_, t) = self.evicted.iter().find(|(id, _)| id == snapshot_id)?;
            self.records.iter().rev().find(|r| r.stable && r.tab == *t)
        };
        let Some(rec) = self.records.iter().find(|r| r.snapshot_id == snapshot_id).or_else(successor) else {
            if let Some((_, tab_id)) = self.superseded.iter().find(|(id, _)| id == snapshot_id) {
                let latest = self.records.iter().rev().find(|r| r.tab.tab_id == *tab_id).map(|r| r.snapshot_id.as_str());
                return Err(Error::stale_ref(match latest {
                    Some(latest) => format!("{} of {snapshot_id} belongs to an earlier document of tab {tab_id}; the current document was read as {latest}", crate::text::capped(ref_label, crate::budget::REF_LABEL_CHARS)),
                    None => format!("{} of {snapshot_id} belongs to an earlier document of tab {tab_id}", crate::text::capped(ref_label, crate::budget::REF_LABEL_CHARS)),
                }));
            }
            return Err(Error::stale_ref(format!("snapshot {snapshot_id} is not known here (expired, or from an earlier extension runtime)")));
        };
        if rec.tab.tab_id != current.tab_id || (!current.browser_id.is_empty() && rec.tab.browser_id != current.browser_id) {
            return Err(Error::new(
                Code::TargetMismatch,
                format!("snapshot {snapshot_id} belongs to tab {}, not tab {}", rec.tab.tab_id, current.tab_id),
                "act on the tab the snapshot was taken from, or snapshot this tab first",
            ));
        }
        if rec.tab.tab_fence != current.tab_fence {
            return Err(Error::stale_ref(format!("tab {} was replaced since {snapshot_id}", current.tab_id)));
        }
        if rec.tab.incarnation != current.incarnation {
            let latest = self.records.iter().rev().find(|r| r.tab.tab_id == current.tab_id && r.tab.incarnation == current.incarnation);
            return Err(Error::stale_ref(match latest {
                Some(l) => format!("the page navigated or reloaded since {snapshot_id}; the current document was read as {}", l.snapshot_id),
                None => format!("the page navigated or reloaded since {snapshot_id}"),
            }));
        }
        Ok(rec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tab(id: i64, inc: &str) -> TabKey {
        TabKey { tab_id: id, browser_id: "b".into(), tab_fence: "f".into(), incarnation: inc.into() }
    }

    fn target(b: i64) -> RefTarget {
        RefTarget { backend_node_id: Some(b), role: crate::role::Role::Button, ..RefTarget::default() }
    }

    #[test]
    fn resolves_only_within_its_snapshot_and_document() {
        let mut r = Registry::default();
        r.insert("s-1".into(), tab(1, "d1"), vec![("e1".into(), target(10))], false, false);
        assert_eq!(r.resolve("s-1", "e1", &tab(1, "d1")).unwrap().backend_node_id, Some(10));
        assert_eq!(r.resolve("s-1", "e2", &tab(1, "d1")).unwrap_err().code, Code::StaleRef);
        assert_eq!(r.resolve("s-9", "e1", &tab(1, "d1")).unwrap_err().code, Code::StaleRef);
        assert_eq!(r.resolve("s-1", "e1", &tab(2, "d1")).unwrap_err().code, Code::TargetMismatch);
        assert_eq!(r.resolve("s-1", "e1", &tab(1, "d2")).unwrap_err().code, Code::StaleRef);
        let mut fenced = tab(1, "d1");
        fenced.tab_fence = "g".into();
        assert_eq!(r.resolve("s-1", "e1", &fenced).unwrap_err().code, Code::StaleRef);
    }

    #[test]
    fn a_snapshot_holds_while_its_refs_would_resolve() {
        let mut r = Registry::default();
        r.insert("s-1".into(), tab(1, "d1"), vec![("e1".into(), target(10))], false, false);
        assert!(r.holds("s-1", &tab(1, "d1")).is_ok());
        assert_eq!(r.holds("s-1", &tab(1, "d2")).unwrap_err().code, Code::StaleRef);
        assert_eq!(r.holds("s-1", &tab(2, "d1")).unwrap_err().code, Code::TargetMismatch);
        assert_eq!(r.holds("s-9", &tab(1, "d1")).unwrap_err().code, Code::StaleRef);
    }

    #[test]
    fn navigation_drops_old_records_and_eviction_is_bounded() {
        let mut r = Registry::default();
        r.insert("s-1".into(), tab(1, "d1"), vec![("e1".into(), target(10))], false, false);
        r.insert("s-2".into(), tab(1, "d2"), vec![("e1".into(), target(11))], false, false);
        assert!(r.resolve("s-1", "e1", &tab(1, "d1")).is_err());
        for i in 0..10 {
            r.insert(format!("t-{i}"), tab(1, "d2"), vec![], false, false);
        }
        assert_eq!(r.records.len(), REF_SNAPSHOTS_PER_TAB);
    }

    #[test]
    fn target_resolutions_never_push_out_a_snapshot_the_model_holds() {
        let mut r = Registry::default();
        r.insert("s-1".into(), tab(1, "d1"), vec![("e1".into(), target(10))], false, false);
        for i in 0..50 {
            r.insert(format!("t-{i}"), tab(1, "d1"), vec![("e1".into(), target(20 + i))], true, false);
        }
        assert_eq!(r.resolve("s-1", "e1", &tab(1, "d1")).unwrap().backend_node_id, Some(10));
        // Only the newest resolution is kept.
        assert_eq!(r.resolve("t-49", "e1", &tab(1, "d1")).unwrap().backend_node_id, Some(69));
        assert!(r.resolve("t-48", "e1", &tab(1, "d1")).is_err());
        assert_eq!(r.records.len(), 2);
    }

    #[test]
    fn a_ref_of_an_ax_revision_acts_however_many_revisions_later() {
        // The model holds the full read (a-1) and the diffs after it; a52 was shown only in a-1.
        let mut r = Registry::default();
        r.insert("a-1".into(), tab(1, "d1"), vec![("a52".into(), target(52)), ("a53".into(), target(53))], false, true);
        for i in 2..=9 {
            r.insert(format!("a-{i}"), tab(1, "d1"), vec![("a52".into(), target(52))], false, true);
        }
        assert_eq!(r.resolve("a-1", "a52", &tab(1, "d1")).unwrap().backend_node_id, Some(52));
        // A node gone from the page since is gone for its old revision too.
        assert!(r.resolve("a-1", "a53", &tab(1, "d1")).is_err());
        // Another document: the old revision's refs never follow it.
        r.insert("a-10".into(), tab(1, "d2"), vec![("a52".into(), target(99))], false, true);
        assert!(r.resolve("a-1", "a52", &tab(1, "d2")).is_err());
    }

    #[test]
    fn an_evicted_snapshot_of_labels_per_read_stays_expired() {
        // browser_snapshot numbers its refs from e1 in each read: e1 of an old one is not e1 now.
        let mut r = Registry::default();
        r.insert("s-1".into(), tab(1, "d1"), vec![("e1".into(), target(10))], false, false);
        for i in 2..=9 {
            r.insert(format!("s-{i}"), tab(1, "d1"), vec![("e1".into(), target(10 + i))], false, false);
        }
        assert!(r.resolve("s-1", "e1", &tab(1, "d1")).is_err());
    }
}
