//! The AX revision store: the latest revision of each (browser, agent session, tab,
//! selector), valid only for the tab fence, document incarnation and URL it was taken under.
//! One revision is kept per key and `REVISIONS_TOTAL` in all (least recently used evicted).
//! A new runtime starts empty; navigation, reload and tab replacement make a revision
//! unusable (and the next read replaces it); `dispose_session` and `clear_tab` drop them.
//!
//! Owns: revision lifetime. Must never: hand out a revision whose fence, incarnation or URL
//! differ from the caller's.

use crate::budget::REVISIONS_TOTAL;
use crate::session::diff::{Entries, Key};
use crate::session::mode::FullReason;
use crate::session::refs::{RefTarget, TabKey};
use rustc_hash::FxHashMap as HashMap;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevisionKey {
    pub browser_id: String,
    pub session_id: String,
    pub tab_id: i64,
    pub scope: String,
}

#[derive(Default, Serialize, Deserialize)]
pub struct Revision {
    pub snapshot_id: String,
    pub tab: TabKey,
    pub url: String,
    pub entries: Entries,
    /// The ref label and target of every node that currently has one.
    #[serde(with = "crate::saved::pairs")]
    pub refs: HashMap<Key, (String, RefTarget)>,
    pub node_count: usize,
    /// The source and page node count of the read (an `unchanged` answer repeats them).
    pub source: crate::tree::Source,
    pub total_nodes: usize,
}

#[derive(Default, Serialize, Deserialize)]
pub struct Store {
    revisions: Vec<(RevisionKey, Revision)>,
}




impl Store {
    /// The revision to diff against, if it is of the same document.
    pub fn base(&self, key: &RevisionKey, tab: &TabKey, url: &str) -> Option<&Revision> {
        self.revisions
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, r)| r)
            .filter(|r| r.tab.tab_fence == tab.tab_fence && r.tab.incarnation == tab.incarnation && r.url == url)
    }

    /// The revision a read diffs against: `Ok(None)` for a first read under `key`, or why the
    /// read is `full` (the caller forces it, holds another revision, or the document or node
    /// identity changed).
    pub fn choose_base(&self, key: &RevisionKey, tab: &TabKey, url: &str, disable_diffing: bool, held: Option<&str>, temporary: bool) -> Result<Option<&Revision>, FullReason> {
        if self.latest(key).is_none() {
            return Ok(None);
        }
        if disable_diffing {
            return Err(FullReason::DisableDiffing);
        }
        let base = self.base(key, tab, url).ok_or(FullReason::Navigation)?;
        if held.is_some_and(|id| id != base.snapshot_id) {
            return Err(FullReason::BaseMismatch);
        }
        if temporary || base.entries.temporary {
            return Err(FullReason::UnprovableIdentity);
        }
        Ok(Some(base))
    }

    /// The latest revision under `key`, whatever document it was of.
    pub fn latest(&self, key: &RevisionKey) -> Option<&Revision> {
        self.revisions.iter().find(|(k, _)| k == key).map(|(_, r)| r)
    }

    pub fn put(&mut self, key: RevisionKey, rev: Revision) {
        self.revisions.retain(|(k, _)| *k != key);
        self.revisions.push((key, rev));
        while self.revisions.len() > REVISIONS_TOTAL {
            self.revisions.remove(0);
        }
    }

    /// The latest revision under `key`, taken out to be `put` back renewed as an
    /// `unchanged` answer, when the read `since` is that revision of the tab's document
    /// (the change tracker proved nothing changed since it), diffing is on, and the client
    /// holds that revision (or says nothing). `None` otherwise: the caller observes.
    pub fn take_unchanged(&mut self, key: &RevisionKey, since: &str, tab: &TabKey, disable_diffing: bool, held: Option<&str>) -> Option<Revision> {
        let holds = |r: &Revision| r.snapshot_id == since && r.tab.tab_fence == tab.tab_fence && r.tab.incarnation == tab.incarnation;
        if disable_diffing || held.is_some_and(|id| id != since) || !self.latest(key).is_some_and(holds) {
            return None;
        }
        self.take(key)
    }

    /// Removes and returns the revision under `key` (to be `put` back renewed).
    pub fn take(&mut self, key: &RevisionKey) -> Option<Revision> {
        let i = self.revisions.iter().position(|(k, _)| k == key)?;
        Some(self.revisions.remove(i).1)
    }

    pub fn forget(&mut self, key: &RevisionKey) {
        self.revisions.retain(|(k, _)| k != key);
    }

    pub fn clear_tab(&mut self, tab_id: i64) {
        self.revisions.retain(|(k, _)| k.tab_id != tab_id);
    }

    pub fn dispose_session(&mut self, session_id: &str) {
        self.revisions.retain(|(k, _)| k.session_id != session_id);
    }

    pub fn len(&self) -> usize {
        self.revisions.len()
    }

    pub fn is_empty(&self) -> bool {
        self.revisions.is_empty()
    }
}
