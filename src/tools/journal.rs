//! Console and network journals: per-tab ring buffers filled from CDP events
//! (`Runtime.consoleAPICalled`, `Runtime.exceptionThrown`, `Network.*`), and their bounded
//! reads (`browser_console`, `browser_network`).
//!
//! Owns: what an entry keeps (capped text, redacted URLs, no bodies), ring capacities and
//! read budgets. Must never: grow without bound (entries, tabs or characters), or keep a
//! request/response body or a secret-named URL parameter.

use crate::budget::{JOURNAL_CAPACITY, JOURNAL_DEFAULT_CHARS, JOURNAL_DEFAULT_ENTRIES, JOURNAL_ENTRY_CHARS, JOURNAL_MAX_CHARS, JOURNAL_TABS, JOURNAL_URL_CHARS};
use crate::tree::redact;
use crate::text::capped;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct ConsoleEntry {
    pub level: String,
    pub text: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(default, rename_all = "camelCase")]
pub struct Request {
    pub method: String,
    pub url: String,
    #[serde(rename = "type", skip_serializing_if = "String::is_empty")]
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<i64>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub mime_type: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoded_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub pending: bool,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ReadOptions {
    pub max_entries: Option<u64>,
    pub max_chars: Option<u64>,
    /// Console: only this level (`error`, `warning`, `log`…). Network: URL substring.
    pub filter: Option<String>,
    /// Console: the page's form fields (`[{tag, attrs, label, value}]` JSON, as for
    /// evaluate): the values of sensitive ones are scrubbed from what the page logged.
    pub fields: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Log<T> {
    pub entries: Vec<T>,
    pub count: usize,
    /// Entries seen since collection started on this tab (kept or not).
    pub total: u64,
    /// Older entries the ring buffer already let go of.
    pub dropped: u64,
    pub truncated: bool,
}

#[derive(Default, Serialize, Deserialize)]
struct TabJournal {
    console: VecDeque<ConsoleEntry>,
    console_seen: u64,
    /// Each request with CDP's id for it (its response and end find it by that id).
    network: VecDeque<(String, Request)>,
    network_seen: u64,
}

#[derive(Default, Serialize, Deserialize)]
pub struct Journal {
    tabs: VecDeque<(i64, TabJournal)>,
}





fn push_ring<T>(ring: &mut VecDeque<T>, v: T) {
    if ring.len() >= JOURNAL_CAPACITY {
        ring.pop_front();
    }
    ring.push_back(v);
}

impl Journal {
    fn tab(&mut self, tab: i64) -> &mut TabJournal {
        match self.tabs.iter().position(|(t, _)| *t == tab) {
            Some(p) => &mut self.tabs[p].1,
            None => {
                if self.tabs.len() >= JOURNAL_TABS {
                    self.tabs.pop_front();
                }
                self.tabs.push_back((tab, TabJournal::default()));
                &mut self.tabs.back_mut().expect("just pushed").1
            }
        }
    }

    pub fn clear_tab(&mut self, tab: i64) {
        self.tabs.retain(|(t, _)| *t != tab);
    }

    pub fn console(&mut self, tab: i64, level: &str, text: &str, source: &str) {
        let t = self.tab(tab);
        t.console_seen += 1;
        let entry = ConsoleEntry {
            level: capped(level, crate::budget::JOURNAL_LEVEL_CHARS),
            text: capped(text, JOURNAL_ENTRY_CHARS),
            source: capped(&redact::url(crate::text::byte_prefix(source, 4 * JOURNAL_URL_CHARS)), JOURNAL_URL_CHARS),
        };
        push_ring(&mut t.console, entry);
    }

    pub fn request(&mut self, tab: i64, id: &str, method: &str, url: &str, kind: &str) {
        let t = self.tab(tab);
        t.network_seen += 1;
        let req = Request {
            method: capped(method, crate::budget::JOURNAL_METHOD_CHARS),
            url: capped(&redact::url(crate::text::byte_prefix(url, 4 * JOURNAL_URL_CHARS)), JOURNAL_URL_CHARS),
            kind: capped(kind, crate::budget::JOURNAL_KIND_CHARS),
            status: None,
            mime_type: String::new(),
            encoded_bytes: None,
            failed: None,
            pending: true,
        };
        push_ring(&mut t.network, (capped(id, crate::budget::JOURNAL_ID_CHARS), req));
    }

    fn find(&mut self, tab: i64, id: &str) -> Option<&mut Request> {
        self.tab(tab).network.iter_mut().rev().find(|(i, _)| i == id).map(|(_, r)| r)
    }

    pub fn response(&mut self, tab: i64, id: &str, status: i64, mime_type: &str) {
        if let Some(r) = self.find(tab, id) {
            r.status = Some(status);
            r.mime_type = capped(mime_type, crate::budget::JOURNAL_MIME_CHARS);
        }
    }

    /// `error` empty: finished; else the failure text (`net::ERR_…`).
    pub fn finished(&mut self, tab: i64, id: &str, encoded_bytes: f64, error: &str) {
        if let Some(r) = self.find(tab, id) {
            r.pending = false;
            if encoded_bytes.is_finite() && encoded_bytes >= 0.0 {
                r.encoded_bytes = Some(encoded_bytes as u64);
            }
            if !error.is_empty() {
                r.failed = Some(capped(error, crate::budget::JOURNAL_ERROR_CHARS));
            }
        }
    }

    pub fn read_console(&mut self, tab: i64, opts: &ReadOptions) -> Log<ConsoleEntry> {
        let t = self.tab(tab);
        let filter = opts.filter.as_deref().unwrap_or("");
        let (seen, kept) = (t.console_seen, t.console.len() as u64);
        read(&t.console, seen, kept, opts, |e| filter.is_empty() || e.level == filter, |e| e.text.len() + e.source.len() + e.level.len() + 24)
    }

    pub fn read_network(&mut self, tab: i64, opts: &ReadOptions) -> Log<Request> {
        let t = self.tab(tab);
        let filter = opts.filter.as_deref().unwrap_or("");
        let (seen, kept) = (t.network_seen, t.network.len() as u64);
        let log = read(&t.network, seen, kept, opts, |(_, r)| filter.is_empty() || r.url.contains(filter), |(_, r)| r.url.len() + r.mime_type.len() + r.kind.len() + 64);
        Log { entries: log.entries.into_iter().map(|(_, r)| r).collect(), count: log.count, total: log.total, dropped: log.dropped, truncated: log.truncated }
    }
}

/// The newest entries that fit `maxEntries` and `maxChars`, oldest first.
fn read<T: Clone>(ring: &VecDeque<T>, seen: u64, kept: u64, opts: &ReadOptions, keep: impl Fn(&T) -> bool, cost: impl Fn(&T) -> usize) -> Log<T> {
    let max_entries = opts.max_entries.map_or(JOURNAL_DEFAULT_ENTRIES, |v| (v as usize).clamp(1, JOURNAL_CAPACITY));
    let max_chars = opts.max_chars.map_or(JOURNAL_DEFAULT_CHARS, |v| (v as usize).clamp(crate::budget::JOURNAL_MIN_CHARS, JOURNAL_MAX_CHARS));
    let mut out = Vec::new();
    let mut used = 0;
    let mut matching = 0usize;
    for e in ring.iter().rev().filter(|e| keep(e)) {
        matching += 1;
        let c = cost(e);
        if out.len() < max_entries && used + c <= max_chars {
            used += c;
            out.push(e.clone());
        }
    }
    out.reverse();
    Log { count: out.len(), total: seen, dropped: seen - kept, truncated: out.len() < matching || seen > kept, entries: out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_stays_within_the_ring_and_the_read_budget() {
        let mut j = Journal::default();
        let long = "y".repeat(50_000);
        for i in 0..20_000 {
            j.console(1, "log", if i % 2 == 0 { &long } else { "short" }, "https://x.test/app.js?token=abc");
        }
        let log = j.read_console(1, &ReadOptions::default());
        assert_eq!(log.total, 20_000);
        assert_eq!(log.dropped, 20_000 - JOURNAL_CAPACITY as u64);
        assert!(log.truncated && log.count <= JOURNAL_DEFAULT_ENTRIES);
        let chars: usize = log.entries.iter().map(|e| e.text.len() + e.source.len()).sum();
        assert!(chars <= JOURNAL_DEFAULT_CHARS);
        assert!(log.entries.iter().all(|e| crate::text::char_len(&e.text) <= JOURNAL_ENTRY_CHARS && !e.source.contains("abc")));
    }

    #[test]
    fn requests_are_joined_by_id_and_tabs_are_bounded() {
        let mut j = Journal::default();
        j.request(7, "r1", "GET", "https://x.test/api?api_key=k", "Fetch");
        j.response(7, "r1", 200, "application/json");
        j.finished(7, "r1", 120.0, "");
        j.request(7, "r2", "POST", "https://x.test/fail", "XHR");
        j.finished(7, "r2", 0.0, "net::ERR_FAILED");
        let log = j.read_network(7, &ReadOptions::default());
        assert_eq!(log.count, 2);
        assert_eq!((log.entries[0].status, log.entries[0].pending), (Some(200), false));
        assert_eq!(log.entries[0].url, "https://x.test/api?api_key=[redacted]");
        assert_eq!(log.entries[1].failed.as_deref(), Some("net::ERR_FAILED"));
        for t in 0..100 {
            j.console(t, "log", "x", "");
        }
        assert!(j.tabs.len() <= JOURNAL_TABS);
    }
}
