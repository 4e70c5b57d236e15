//! The stateful collector one extension runtime holds: it numbers observations, keeps the
//! ref registry, and answers ref lookups and rebinds. Everything else is a pure function.
//!
//! Owns: snapshot ids (`snapshot-<runtime>-<n>`), registry lifetime. Must never: read a
//! clock or draw random numbers (the runtime id comes from the host).

use crate::budget::Budget;
use serde::{Deserialize, Serialize};
use crate::session::diff;
use crate::session::policy;
use crate::session::mode::Mode;
use crate::session::revision::{Revision, RevisionKey, Store};
use crate::tree::Tree;
use crate::budget::{AX_PATCH_ROOTS, HELD_AX_MIN_NODES, HELD_AX_NODES, HELD_AX_READS};
use crate::error::{Code, Error, Result};
use crate::tree::ax_patch::{self, Held};
use crate::tree::layout;
use crate::session::identity;
use crate::session::follow::{self, FollowRead};
use crate::session::read_plan::{self, Fact, Kept, Next, Plans, Request, TabFacts};
use crate::tools::journal::Journal;
use crate::input::{Observation, ObservationText};
use crate::session::refs::{RefTarget, Registry, TabKey};
use crate::view::render::RefLabels;
use crate::tools::snapshot::{build_tree, build_tree_keeping, snapshot, SnapshotResult};

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SnapshotOptions {
    pub max_chars: Option<u64>,
    pub max_nodes: Option<u64>,
    pub tab: TabKey,
    /// A page of the state in document order (1-based), instead of the budgeted selection.
    pub page: Option<u64>,
}

/// Options of `browser_accessibility_snapshot`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct AxOptions {
    pub max_chars: Option<u64>,
    pub max_nodes: Option<u64>,
    pub tab: TabKey,
    /// The agent session reading (revisions are per session).
    pub session_id: String,
    /// The selector the read was narrowed with ("" for the whole page): part of the key.
    pub scope: String,
    /// Force `full`.
    pub disable_diffing: bool,
    /// The revision the client holds; when it is not the latest, the result is `full`.
    pub base_snapshot_id: Option<String>,
    /// The extension's change tracker proved the page unchanged since this read: no
    /// observation is passed (see `Collector::accessibility`).
    pub unchanged_since: Option<String>,
}

/// How a refused AX patch's error message begins (the extension then observes the whole tree).
pub const PATCH_REFUSED: &str = "AX patch refused";

#[derive(Default, Serialize, Deserialize)]
pub struct Collector {
    runtime: String,
    counter: u64,
    ax_counter: u64,
    /// AX ref labels are never reused within a runtime.
    ax_refs: usize,
    registry: Registry,
    revisions: Store,
    /// Console and network ring buffers per tab (filled from CDP events by the host).
    pub journal: Journal,
    /// The AX trees of the last reads, per key, for patching the next (`tree/ax_patch`). Not
    /// saved: a renewed instance fetches its first AX read of each key whole.
    #[serde(skip)]
    held: Vec<(RevisionKey, Held)>,
    /// The read plan's page states and held results (`session/read_plan`).
    plans: Plans,
}

/// Why an AX read did not render: a patch the held tree cannot take (the whole tree is
/// observed next), or an error.
enum AxFailure {
    Refused(String),
    Failed(Error),
}

impl From<Error> for AxFailure {
    fn from(e: Error) -> AxFailure {
        AxFailure::Failed(e)
    }
}


impl Collector {
    /// The whole state as text (`restore` reads it back): a host renewing the wasm instance
    /// carries refs, revisions, id counters and journals over with it.
    pub fn save(&self) -> String {
        crate::saved::write(self)
    }

    /// The collector `save` wrote as `state` (an error when it is not one).
    pub fn restore(state: &str) -> Result<Collector> {
        crate::saved::read(state)
    }

    /// `runtime` identifies this extension runtime; ids from another runtime never resolve.
    pub fn new(runtime: &str) -> Collector {
        let runtime: String = runtime.chars().filter(|c| c.is_ascii_alphanumeric()).take(crate::budget::RUNTIME_ID_CHARS).collect();
        Collector { runtime, counter: 0, ax_counter: 0, ax_refs: 0, registry: Registry::default(), revisions: Store::default(), journal: Journal::default(), held: Vec::new(), plans: Plans::default() }
    }

    pub fn snapshot<'a>(&mut self, observation_json: impl Into<ObservationText<'a>>, opts: &SnapshotOptions) -> Result<SnapshotResult> {
        let (tree, _, walk_id) = read_tree(observation_json)?;
        let out = snapshot(&tree, Budget::clamped(opts.max_chars, opts.max_nodes), RefLabels { prefix: 'e', first: 1 }, opts.page.filter(|&p| p > 0).map(|p| p as usize))?;
        let mut result = out.result;
        self.counter += 1;
        result.snapshot_id = format!("snapshot-{}-{}", self.runtime, self.counter);
        let mut refs = out.refs;
        stamp_walk(&mut refs, walk_id.as_deref());
        self.registry.insert(result.snapshot_id.clone(), opts.tab.clone(), refs, false, false);
        Ok(result)
    }

    /// `browser_find`: the matches of `q` in the whole view, their refs under a new snapshot id.
    pub fn find<'a>(&mut self, observation_json: impl Into<ObservationText<'a>>, q: &crate::tools::find::Query, tab: &TabKey, pred: &dyn Fn(&str) -> bool) -> Result<crate::tools::find::FindResult> {
        let (tree, _, walk_id) = read_tree(observation_json)?;
        let view = crate::view::filter::filter(&tree);
        let found = crate::tools::find::find(&view, &tree, q, pred);
        let mut result = found.result;
        self.counter += 1;
        result.snapshot_id = format!("snapshot-{}-{}", self.runtime, self.counter);
        let mut refs = found.refs;
        stamp_walk(&mut refs, walk_id.as_deref());
        // A target's resolution (`elements`) is used at once and never shown to the model.
        self.registry.insert(result.snapshot_id.clone(), tab.clone(), refs, q.elements, false);
        Ok(result)
    }

    pub fn resolve(&self, snapshot_id: &str, ref_label: &str, tab: &TabKey) -> Result<RefTarget> {
        self.registry.resolve(snapshot_id, ref_label, tab).cloned()
    }

    /// The refs of `snapshot_id` and their targets, for `tab` (`browser_screenshot` marks a
    /// state the model holds); `BROWSER_STALE_REF` or `BROWSER_TARGET_MISMATCH` when it cannot.
    pub fn refs_of(&self, snapshot_id: &str, tab: &TabKey) -> Result<Vec<(String, RefTarget)>> {
        self.registry.refs_of(snapshot_id, tab).map(<[_]>::to_vec)
    }

    /// Whether the refs of `snapshot_id` still resolve for `tab` (a held result given again
    /// must keep its refs usable): `BROWSER_STALE_REF` or `BROWSER_TARGET_MISMATCH` when not.
    pub fn holds(&self, snapshot_id: &str, tab: &TabKey) -> Result<()> {
        self.registry.holds(snapshot_id, tab)
    }

    /// The original node is gone: find its unique strong equivalent in a fresh observation.
    pub fn rebind<'a>(&self, snapshot_id: &str, ref_label: &str, tab: &TabKey, observation_json: impl Into<ObservationText<'a>>) -> Result<RefTarget> {
        let old = self.registry.resolve(snapshot_id, ref_label, tab)?;
        let (tree, _, _) = read_tree(observation_json)?;
        identity::rebind(old, &tree, ref_label)
    }

    pub fn clear_tab(&mut self, tab_id: i64) {
        self.registry.clear_tab(tab_id);
        self.revisions.clear_tab(tab_id);
        self.journal.clear_tab(tab_id);
        self.held.retain(|(k, _)| k.tab_id != tab_id);
        self.plans.clear_tab(tab_id);
    }

    /// Drops every AX revision of an agent session.
    pub fn dispose_session(&mut self, session_id: &str) {
        self.revisions.dispose_session(session_id);
        self.held.retain(|(k, _)| k.session_id != session_id);
        self.plans.dispose_session(session_id);
    }

    /// The read that follows `method`'s `result` for agent session `session` (`session/follow`):
    /// the page an action reached, read the way the session last read one.
    pub fn follow_read(&self, method: &str, result: &serde_json::Value, session: &str) -> Option<FollowRead> {
        follow::follow(method, result, session, self.plans.last_read(session))
    }

    /// `browser_accessibility_snapshot`: `full`, `diff` against the latest revision of the
    /// same document, or `unchanged`. See ARCHITECTURE.md, "AX revisions".
    pub fn accessibility<'a>(&mut self, observation_json: impl Into<ObservationText<'a>>, opts: &AxOptions) -> Result<SnapshotResult> {
        self.ax_read(observation_json, opts).map_err(|e| match e {
            AxFailure::Refused(why) => Error::new(Code::InvalidRequest, format!("{PATCH_REFUSED}: {why}"), "observe the whole AX tree of every frame (no axPatch)"),
            AxFailure::Failed(e) => e,
        })
    }

    fn ax_read<'a>(&mut self, observation_json: impl Into<ObservationText<'a>>, opts: &AxOptions) -> std::result::Result<SnapshotResult, AxFailure> {
        let key = ax_key(opts);
        if let Some(since) = &opts.unchanged_since {
            return self.unchanged_since(key, since, opts).ok_or_else(|| Error::malformed("unchangedSince", "not the latest revision").into());
        }
        let (tree, held) = match self.ax_tree(&key, observation_json) {
            Ok(t) => t,
            // A refused patch leaves everything as it was (the whole tree is observed next).
            Err(AxFailure::Refused(why)) => return Err(AxFailure::Refused(why)),
            Err(AxFailure::Failed(e)) => {
                // After any other error the next read starts over with `full`.
                self.revisions.forget(&key);
                self.held.retain(|(k, _)| *k != key);
                return Err(e.into());
            }
        };
        let (tree, url, walk_id) = tree;
        self.held.retain(|(k, _)| *k != key);
        if let Some(h) = held {
            self.held.push((key.clone(), h));
            if self.held.len() > HELD_AX_READS {
                self.held.remove(0);
            }
        }
        let budget = Budget::clamped(opts.max_chars, opts.max_nodes);
        let mut out = snapshot(&tree, budget, RefLabels { prefix: 'a', first: self.ax_refs + 1 }, None)?;
        stamp_walk(&mut out.refs, walk_id.as_deref());
        let entries = diff::entries(&out.view, &tree);
        self.ax_counter += 1;
        let snapshot_id = format!("ax-{}-{}", self.runtime, self.ax_counter);

        let base = self.revisions.choose_base(&key, &opts.tab, &url, opts.disable_diffing, opts.base_snapshot_id.as_deref(), entries.temporary);
        let (base_id, base_nodes) = match &base {
            Ok(Some(b)) => (Some(b.snapshot_id.clone()), b.node_count),
            _ => (None, 0),
        };
        let read = policy::Read {
            tree: &tree,
            view: &out.view,
            entries: &entries,
            full_chars: out.result.char_count,
            full_refs: &out.refs,
            ref_nodes: &out.ref_nodes,
            budget,
            last_label: self.ax_refs,
        };
        let answer = policy::answer(base, &read);
        let (result, refs, listed) = match answer {
            policy::Answer::Full { reason, refs } => {
                // Fresh labels, continuing the runtime's counter (never reusing one).
                let mut result = out.result.clone();
                result.snapshot_id = snapshot_id.clone();
                result.full_reason = reason;
                self.ax_refs += out.refs.len();
                (result, refs, out.refs.clone())
            }
            policy::Answer::Unchanged { refs } => {
                let result = SnapshotResult { ref_count: refs.len(), ..relative(&snapshot_id, base_id, Mode::Unchanged, out.result.source, out.result.total_nodes, base_nodes) };
                self.ax_refs = self.ax_refs.max(policy::max_label(&refs));
                let listed = policy::by_label(&refs);
                (result, refs, listed)
            }
            policy::Answer::Diff { lines, chars, refs } => {
                let diff::Lines { state, count, omitted } = lines;
                let result = SnapshotResult {
                    state: Some(state),
                    char_count: chars,
                    node_count: count,
                    truncated: omitted > 0,
                    omitted_nodes: omitted,
                    ref_count: refs.len(),
                    ..relative(&snapshot_id, base_id, Mode::Diff, out.result.source, out.result.total_nodes, base_nodes)
                };
                self.ax_refs = self.ax_refs.max(policy::max_label(&refs));
                let listed = policy::by_label(&refs);
                (result, refs, listed)
            }
        };
        self.registry.insert(snapshot_id.clone(), opts.tab.clone(), listed, false, true);
        // The node count of the state the client holds: the full read's, carried through diffs.
        let node_count = if result.mode == Mode::Full { result.node_count } else { base_nodes };
        self.revisions.put(key, Revision { snapshot_id, tab: opts.tab.clone(), url, entries, refs, node_count, source: result.source, total_nodes: result.total_nodes });
        Ok(result)
    }

    /// Whether an AX read with `opts` may send a patch: the key's last read left its trees
    /// held (a renewed instance holds none, nor a read of a larger or a tiny page).
    pub fn holds_ax_tree(&self, opts: &AxOptions) -> bool {
        let key = ax_key(opts);
        self.held.iter().any(|(k, _)| *k == key)
    }

    /// The tree of an AX read's observation, patched into the key's held read when it is a
    /// patch (or refused), and what this read leaves held for the next.
    fn ax_tree<'a>(&self, key: &RevisionKey, observation_json: impl Into<ObservationText<'a>>) -> std::result::Result<((Tree, String, Option<String>), Option<Held>), AxFailure> {
        let mut obs = observation_json.into().decode()?;
        // The main session's layout shapes, read before the build digests the snapshot.
        let main_shapes = |obs: &Observation| obs.snapshots.iter().find(|s| s.session.is_empty()).map(|s| layout::shapes(&s.snapshot));
        let mut shapes = None;
        if obs.ax_patch.is_some() {
            let refused = |why: &str| AxFailure::Refused(why.to_string());
            let held = self.held.iter().find(|(k, _)| k == key).map(|(_, h)| h).ok_or_else(|| refused("no held tree of this read"))?;
            let fresh = main_shapes(&obs).ok_or_else(|| refused("no snapshot of the tab's own session"))?;
            ax_patch::apply(held, &mut obs, &fresh, AX_PATCH_ROOTS).map_err(refused)?;
            shapes = Some(fresh);
        }
        // Held for the next read: a patched tree as a fetched one, within the same bound.
        let shapes = if ax_patch::holdable(&obs, HELD_AX_MIN_NODES..=HELD_AX_NODES) { shapes.or_else(|| main_shapes(&obs)) } else { None };
        let tree = build_tree_keeping(&mut obs, shapes.is_some())?;
        let held = shapes.map(|s| ax_patch::hold(&mut obs, s));
        Ok(((tree, obs.url, obs.dom_walk.map(|w| w.walk_id)), held))
    }

    /// `unchanged` against the read `since` without an observation, when the extension's
    /// change tracker proved that nothing on the page changed since it: the same result, refs
    /// and revision an observation with no change gives. `None` when `since` is not this
    /// key's latest revision of this document (the caller then observes).
    fn unchanged_since(&mut self, key: RevisionKey, since: &str, opts: &AxOptions) -> Option<SnapshotResult> {
        let mut rev = self.revisions.take_unchanged(&key, since, &opts.tab, opts.disable_diffing, opts.base_snapshot_id.as_deref())?;
        self.ax_counter += 1;
        let snapshot_id = format!("ax-{}-{}", self.runtime, self.ax_counter);
        let result = SnapshotResult {
            ref_count: rev.refs.len(),
            ..relative(&snapshot_id, Some(rev.snapshot_id.clone()), Mode::Unchanged, rev.source, rev.total_nodes, rev.node_count)
        };
        rev.snapshot_id = snapshot_id.clone();
        rev.tab = opts.tab.clone();
        self.registry.insert(snapshot_id, opts.tab.clone(), policy::by_label(&rev.refs), false, true);
        self.revisions.put(key, rev);
        Some(result)
    }
}

impl Collector {
    /// The first step of a tracked read (`session/read_plan`).
    pub fn read_begin(&mut self, request: Request, tab: Option<TabFacts>) -> Next {
        self.plans.begin(request, tab)
    }

    /// The step after `fact` of read `id` (an error when no such read is under way).
    pub fn read_offer(&mut self, id: u64, fact: Fact, tab: &TabFacts) -> Result<Next> {
        let mut plans = std::mem::take(&mut self.plans);
        let next = plans.offer(id, fact, tab, self);
        self.plans = plans;
        next.ok_or_else(no_read)
    }

    /// Read `id`'s observation rendered under `handle` (`walk_id`: the walk it came from, when
    /// it walked every frame in one injection): the answer, or `Capture` when the core refused
    /// the patch it was.
    pub fn read_render<'a>(&mut self, id: u64, observation_json: impl Into<ObservationText<'a>>, handle: TabKey, walk_id: Option<String>) -> Result<Next> {
        let request = self.plans.request(id).cloned().ok_or_else(no_read)?;
        let result = if request.tool == "ax" {
            match self.ax_read(observation_json, &ax_options(&request, handle.clone(), None)) {
                Ok(r) => r,
                Err(AxFailure::Refused(why)) => return self.plans.refused(id, why).ok_or_else(no_read),
                Err(AxFailure::Failed(e)) => {
                    self.plans.end(id);
                    return Err(e);
                }
            }
        } else {
            let opts = SnapshotOptions { max_chars: request.max_chars, max_nodes: request.max_nodes, tab: handle.clone(), page: request.page };
            self.snapshot(observation_json, &opts).inspect_err(|_| self.plans.end(id))?
        };
        let value = serde_json::to_value(&result).map_err(|e| Error::json("snapshot result", &e))?;
        self.plans.rendered(id, value, handle, walk_id).ok_or_else(no_read)
    }

    /// Read `id` is over without an answer (failed, abandoned).
    pub fn read_end(&mut self, id: u64) {
        self.plans.end(id);
    }

    /// Why the last AX read that tried a patch observed the whole tree (None: it patched).
    pub fn last_patch_refusal(&self) -> Option<String> {
        self.plans.last_refusal.clone()
    }
}

impl read_plan::Core for Collector {
    fn holds_ax(&self, request: &Request, handle: &TabKey) -> bool {
        self.holds_ax_tree(&ax_options(request, handle.clone(), None))
    }

    fn reuse(&mut self, request: &Request, held: &read_plan::Held, handle: &TabKey) -> Option<serde_json::Value> {
        match &held.kept {
            Kept::Snapshot(result) => {
                let refs = result.get("refCount").and_then(serde_json::Value::as_u64).unwrap_or(0);
                let id = result.get("snapshotId").and_then(serde_json::Value::as_str).unwrap_or("");
                // Its refs must still resolve (the registry keeps a bounded number of snapshots).
                (refs == 0 || self.registry.holds(id, handle).is_ok()).then(|| result.clone())
            }
            Kept::Ax(since) => {
                let opts = ax_options(request, handle.clone(), Some(since.clone()));
                let r = self.unchanged_since(ax_key(&opts), since, &opts)?;
                serde_json::to_value(&r).ok()
            }
        }
    }
}

/// What `browser_screenshot` asks of the core: the tab, whether to mark refs, the captured
/// region (viewport coordinates, CSS px) and the secrets the session saw.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ScreenshotOptions {
    pub tab: TabKey,
    pub marks: bool,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    pub secrets: Vec<String>,
    /// The top frame's filled fields where the page paints them, tree or not.
    pub fields: Vec<crate::tools::screenshot::PaintedField>,
    /// The texts the top frame paints over the region, with their glyphs' boxes.
    pub texts: Vec<crate::tools::screenshot::PaintedText>,
    /// With `marks`: the state whose refs to mark (one the model holds) instead of a fresh one,
    /// and where the extension found each ref's element now (viewport coordinates; a ref
    /// without a box was not found in the top frame — gone, or in a frame).
    pub snapshot_id: Option<String>,
    pub boxes: Vec<HeldBox>,
}

/// Where a ref of a held state is now: its element's border box.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct HeldBox {
    #[serde(rename = "ref")]
    pub label: String,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

/// The boxes the worker draws on the captured image, and the state its marks name.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScreenshotPlan {
    pub masks: Vec<crate::tools::screenshot::Region>,
    pub marks: Vec<crate::tools::screenshot::Mark>,
    /// The state whose refs the marks are (with `marks`): a fresh snapshot, its refs usable,
    /// or the one asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot_id: Option<String>,
    /// Refs of the state asked for whose element was not found in the top frame (gone, or
    /// inside a frame): not marked, and said so.
    #[serde(skip_serializing_if = "crate::tools::snapshot::is_zero")]
    pub unmarked: usize,
}

impl Collector {
    /// `browser_screenshot`'s boxes from a walk of the page (`tools/screenshot`): masks over
    /// what the text state redacts; with `marks`, a fresh snapshot's refs marked where they show.
    pub fn screenshot_plan<'a>(&mut self, observation_json: impl Into<ObservationText<'a>>, opts: &ScreenshotOptions) -> Result<ScreenshotPlan> {
        use crate::tools::screenshot::{marks, masks, Capture};
        let (tree, _, walk_id) = read_tree(observation_json)?;
        let capture = Capture { x: opts.x, y: opts.y, width: opts.width, height: opts.height };
        let view = crate::view::filter::filter(&tree);
        let masks = masks(&tree, &view, &opts.secrets, &opts.fields, &opts.texts, capture);
        if !opts.marks {
            return Ok(ScreenshotPlan { masks, marks: Vec::new(), snapshot_id: None, unmarked: 0 });
        }
        if let Some(id) = &opts.snapshot_id {
            // A state the model holds: its refs as the extension found them now.
            let held = self.registry.refs_of(id, &opts.tab)?;
            let found: std::collections::HashMap<&str, &HeldBox> = opts.boxes.iter().map(|b| (b.label.as_str(), b)).collect();
            let at: Vec<(String, Option<crate::tree::layout::Rect>)> = held
                .iter()
                .map(|(label, _)| (label.clone(), found.get(label.as_str()).map(|b| crate::tree::layout::Rect { x: b.x, y: b.y, w: b.width, h: b.height })))
                .collect();
            let unmarked = at.iter().filter(|(_, r)| r.is_none()).count();
            return Ok(ScreenshotPlan { masks, marks: crate::tools::screenshot::marks_at(&at, capture), snapshot_id: Some(id.clone()), unmarked });
        }
        let out = snapshot(&tree, Budget::clamped(None, None), RefLabels { prefix: 'e', first: 1 }, None)?;
        let labelled: Vec<(String, usize)> = out.refs.iter().map(|(l, _)| l.clone()).zip(out.ref_nodes.iter().copied()).collect();
        let marks = marks(&tree, &out.view, &labelled, capture);
        self.counter += 1;
        let snapshot_id = format!("snapshot-{}-{}", self.runtime, self.counter);
        let mut refs = out.refs;
        stamp_walk(&mut refs, walk_id.as_deref());
        self.registry.insert(snapshot_id.clone(), opts.tab.clone(), refs, false, false);
        Ok(ScreenshotPlan { masks, marks, snapshot_id: Some(snapshot_id), unmarked: 0 })
    }
}

/// The error of an offer to a read that is not under way.
fn no_read() -> Error {
    Error::malformed("read", "no such read under way")
}

/// An AX read's options, from its request.
fn ax_options(r: &Request, tab: TabKey, unchanged_since: Option<String>) -> AxOptions {
    let scope = match (&r.selector, &r.ref_label) {
        (Some(s), _) if !s.is_empty() => s.clone(),
        (_, Some(label)) => format!("ref {} {label}", r.snapshot_id.clone().unwrap_or_default()),
        _ => String::new(),
    };
    AxOptions { max_chars: r.max_chars, max_nodes: r.max_nodes, tab, session_id: r.session_id.clone().unwrap_or_default(), scope, disable_diffing: r.disable_diffing, base_snapshot_id: r.base_snapshot_id.clone(), unchanged_since }
}

/// The revision (and held tree) key of an AX read.
fn ax_key(opts: &AxOptions) -> RevisionKey {
    RevisionKey { browser_id: opts.tab.browser_id.clone(), session_id: opts.session_id.clone(), tab_id: opts.tab.tab_id, scope: opts.scope.clone() }
}

/// A result relative to the base revision `base_id` (`diff` / `unchanged`): its fields that
/// do not depend on what changed (the page's `source` and `total_nodes` of this read, the
/// node count of the state the client holds).
fn relative(snapshot_id: &str, base_id: Option<String>, mode: Mode, source: crate::tree::Source, total_nodes: usize, base_nodes: usize) -> SnapshotResult {
    SnapshotResult {
        snapshot_id: snapshot_id.to_string(),
        base_snapshot_id: base_id,
        mode,
        source,
        state: None,
        node_count: base_nodes,
        char_count: 0,
        truncated: false,
        ref_count: 0,
        total_nodes,
        omitted_nodes: 0,
        full_reason: None,
    }
}

/// The tree of an observation, its URL and its walk id. The observation is freed here,
/// before anything is rendered from the tree (on a 50k-node page it is half the peak).
fn read_tree<'a>(observation_json: impl Into<ObservationText<'a>>) -> Result<(Tree, String, Option<String>)> {
    let mut obs = observation_json.into().decode()?;
    let tree = build_tree(&mut obs)?;
    Ok((tree, obs.url, obs.dom_walk.map(|w| w.walk_id)))
}

/// DOM-source refs name the walk their index counts in.
fn stamp_walk(refs: &mut [(String, RefTarget)], walk_id: Option<&str>) {
    let Some(id) = walk_id.filter(|id| !id.is_empty()) else { return };
    for (_, t) in refs.iter_mut().filter(|(_, t)| t.walk_index.is_some()) {
        t.walk_id = Some(id.to_string());
    }
}
