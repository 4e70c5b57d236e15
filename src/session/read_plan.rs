//! The read plan: every decision of a tracked page read (`browser_snapshot`,
//! `browser_accessibility_snapshot`), taken here as data. The extension asks `begin` for the
//! first step of a read, executes it (asks the pages' change trackers, walks, captures) and
//! `offer`s what it saw; the plan answers the next step, until a step is the answer. The
//! per-read page state it goes by (every frame's tracker answer, by frame and document; what
//! the last read of each key gave; documents that stay silent or are error pages) is part of
//! the collector's saved state, so a worker restart keeps a held repeat.
//!
//! A page state is the tab's URL and each frame's `frameId:documentId:answer`: when it equals
//! the state taken before a key's last read, nothing the read shows has changed, and that
//! read's result is given again (a snapshot: the same result, its refs checked; an AX read:
//! `unchanged` from its revision). Otherwise the cheapest way that still reads the page whole:
//! one round trip to the one frame's document (through its port, else injected), a patch of
//! the AX tree when only the main frame changed, every frame walked in one injection, or the
//! normal capture.
//!
//! Owns: the order of those ways and when each may be taken; the page states, what each
//! key's last read gave, silent documents and error pages. Must never: touch the browser or
//! a clock, answer a held result without a proof that the page is the same (every frame
//! answered, the same documents), or hold anything for a read that failed.

use crate::budget::{READS_UNDER_WAY, READ_KEYS_KEPT, SESSIONS_KEPT, SILENT_FRAMES_KEPT};
use crate::session::follow::LastRead;
use crate::session::refs::TabKey;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A frame as the browser lists it (ordered by frame id).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Frame {
    pub frame_id: i64,
    pub document_id: String,
}

/// One frame's part of a page state: frame id, document id, tracker answer (`ERROR_PAGE` for
/// Chrome's static error document).
pub type FrameState = (i64, String, String);

/// The answer that stands for Chrome's error page (nothing there changes but its document).
pub const ERROR_PAGE: &str = "error page";

/// What a page showed at one moment: compared as `text`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageState {
    pub text: String,
    pub frames: Vec<FrameState>,
}

impl PageState {
    fn new(url: &str, frames: Vec<FrameState>) -> PageState {
        let joined: Vec<String> = frames.iter().map(|(f, d, a)| format!("{f}:{d}:{a}")).collect();
        PageState { text: format!("{url}\n{}", joined.join("|")), frames }
    }
}

/// What a read gave, kept for giving it again: a snapshot's whole result, an AX read's
/// revision id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Kept {
    Snapshot(Value),
    Ax(String),
}

/// What the last read of a key gave, and under which handle (`walk_id`: the walk it rendered,
/// when it walked every frame in one injection).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Held {
    pub kept: Kept,
    pub handle: TabKey,
    pub walk_id: Option<String>,
}

/// Which tool reads, with what shapes its result besides the page.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Request {
    pub tab_id: i64,
    /// `snapshot` (browser_snapshot) or `ax` (browser_accessibility_snapshot).
    pub tool: String,
    pub source: Option<String>,
    pub selector: Option<String>,
    #[serde(rename = "ref")]
    pub ref_label: Option<String>,
    pub snapshot_id: Option<String>,
    pub session_id: Option<String>,
    pub max_chars: Option<u64>,
    pub max_nodes: Option<u64>,
    pub page: Option<u64>,
    pub disable_diffing: bool,
    /// The AX revision the client holds (not part of the key).
    pub base_snapshot_id: Option<String>,
    /// The tests' switch: an AX read fetches the whole tree (to compare a patch with it).
    pub whole_ax: bool,
}

impl Request {
    fn ax(&self) -> bool {
        self.tool == "ax"
    }
    fn whole_page(&self) -> bool {
        self.selector.is_none() && self.ref_label.is_none()
    }
    /// Whether a repeat may be spared: every snapshot; an AX read from AX with diffing.
    fn tracked(&self) -> bool {
        !self.ax() || (self.source.as_deref() != Some("dom") && !self.disable_diffing)
    }
    /// Whether the page may be walked in one injection (a snapshot of the whole page from
    /// the walk).
    fn walks_in_one(&self) -> bool {
        !self.ax() && matches!(self.source.as_deref(), None | Some("dom")) && self.whole_page()
    }
    /// Whether the main frame's changes may be patched into the AX tree held.
    fn patches(&self) -> bool {
        self.ax() && self.tracked() && !self.whole_ax && self.whole_page()
    }
    /// Everything that shapes the result besides the page.
    pub fn key(&self) -> String {
        let s = |o: &Option<String>| o.clone().unwrap_or_default();
        let kind = if self.ax() { "ax".to_string() } else { format!("snapshot {} {}", self.page.map(|p| p.to_string()).unwrap_or_default(), s(&self.source)) };
        format!("{}|{kind}|{}|{}|{}|{}|{}|{}", self.tab_id, s(&self.session_id), s(&self.selector), s(&self.ref_label), s(&self.snapshot_id), self.max_chars.unwrap_or(0), self.max_nodes.unwrap_or(0))
    }
}

/// What the executor knows of the tab when it offers a fact.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TabFacts {
    pub url: String,
    pub tab_fence: String,
    /// A navigation of the tab is pending (`tab.pendingUrl`).
    pub pending: bool,
}

/// A document asked through its port.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PortAsk {
    pub frame_id: i64,
    pub document_id: String,
    /// The answer its frame gave last, when the tab had this one frame: an answer that differs
    /// brings the form-field facts of the page with it (absent: only the answer is asked).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<String>,
}

/// The next thing the executor does.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "step", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Step {
    /// Ask the one frame's document through its port to answer and, unless it answers
    /// `answer`, walk (showing exactly what walk `same_as` showed: say `same`). Fact: `One`.
    WalkOnePort { document_id: String, answer: String, same_as: Option<String> },
    /// The same, injected into frame 0, with the frames listed (before, with `list_first`).
    /// Fact: `One` (no result: the frame has no tracker).
    WalkOneInjected { answer: Option<String>, same_as: Option<String>, list_first: bool },
    /// Ask these documents' trackers through their ports (`list`: list the frames meanwhile).
    /// Fact: `Ports`.
    AskPorts { documents: Vec<PortAsk>, list: bool },
    /// List the frames (unless `list` is false: the listing offered last holds) and, with
    /// `inject`, ask every frame's tracker in one injection. Fact: `All`.
    AskAll { list: bool, inject: bool },
    /// Make the tracker and walk resident in these frames (documents that started before the
    /// extension did). Fact: `Resident`.
    MakeResident { frames: Vec<i64> },
    /// Ask these frames' trackers one by one. Fact: `Each`.
    AskEach { frames: Vec<Frame> },
    /// Fetch the AX subtrees the main frame changed since its tracker answered `since`, and
    /// render them (as a patch); fact `Failed` when they cannot be placed.
    Patch { since: String },
    /// Walk these frames in one injection (every one showing what walk `same_as` showed:
    /// they say `same`). Fact: `Frames` (then `Render` the walk).
    WalkFrames { frames: Vec<Frame>, same_as: Option<String> },
    /// Render the walk the last step made.
    Render,
    /// Observe the page the normal way and render it.
    Capture,
    /// The read's answer (`reused`: a held result given again).
    Answer { result: Value, handle: TabKey, reused: bool },
}

/// What the one frame answered to `WalkOnePort` / `WalkOneInjected`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct OneAnswer {
    pub answer: Option<String>,
    /// Its child frames.
    pub frames: u32,
    /// It showed what walk `same_as` showed.
    pub same: bool,
    /// It walked (the executor holds the walk for `Render`).
    pub walked: bool,
}

/// One document's answer through its port.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct PortAnswer {
    /// It kept the read waiting past the core's frame answer time.
    pub late: bool,
    pub answer: Option<String>,
    pub frames: u32,
}

/// One frame's answer in an injection into every frame.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct FrameAnswer {
    pub frame_id: i64,
    pub document_id: String,
    pub answer: Option<String>,
    /// It has no tracker (a document that started before the extension did).
    pub bare: bool,
}

/// One frame's answer asked on its own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct EachAnswer {
    pub late: bool,
    pub error_page: bool,
    pub answer: Option<String>,
}

/// What the executor saw doing a step. (It crosses as a flat object, `FactWire`: an
/// internally tagged enum is buffered through serde's `Content` by every deserializer it
/// meets, ~40 KB of the wasm module for this one type.)
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "FactWire")]
pub enum Fact {
    One {
        listed: Option<Vec<Frame>>,
        document_id: Option<String>,
        result: Option<OneAnswer>,
    },
    Ports {
        answers: Vec<PortAnswer>,
        listed: Option<Vec<Frame>>,
    },
    All {
        listed: Option<Vec<Frame>>,
        answers: Option<Vec<FrameAnswer>>,
    },
    Each { answers: Vec<EachAnswer> },
    Resident { done: bool },
    Frames { same: bool },
    /// The step could not be done (an error, a navigation committed meanwhile): `why`.
    Failed {
        why: String,
    },
}

/// Any answer a fact holds, its fields those of every kind (`PortAnswer`, `FrameAnswer`,
/// `EachAnswer`).
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct AnyAnswer {
    late: bool,
    answer: Option<String>,
    frames: u32,
    frame_id: i64,
    document_id: String,
    bare: bool,
    error_page: bool,
}

/// A fact as it crosses: `fact` names its kind, the other fields are that kind's.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
struct FactWire {
    fact: String,
    listed: Option<Vec<Frame>>,
    document_id: Option<String>,
    result: Option<OneAnswer>,
    answers: Option<Vec<AnyAnswer>>,
    done: Option<bool>,
    same: Option<bool>,
    why: String,
}

impl TryFrom<FactWire> for Fact {
    type Error = String;

    fn try_from(w: FactWire) -> std::result::Result<Fact, String> {
        let need = |what: &str| format!("a {} fact needs {what}", w.fact);
        let answers = |w: &FactWire| w.answers.is_some();
        Ok(match w.fact.as_str() {
            "one" => Fact::One { listed: w.listed, document_id: w.document_id, result: w.result },
            "ports" if answers(&w) => Fact::Ports { answers: w.answers.unwrap_or_default().into_iter().map(|a| PortAnswer { late: a.late, answer: a.answer, frames: a.frames }).collect(), listed: w.listed },
            "all" => Fact::All { listed: w.listed, answers: w.answers.map(|list| list.into_iter().map(|a| FrameAnswer { frame_id: a.frame_id, document_id: a.document_id, answer: a.answer, bare: a.bare }).collect()) },
            "each" if answers(&w) => Fact::Each { answers: w.answers.unwrap_or_default().into_iter().map(|a| EachAnswer { late: a.late, error_page: a.error_page, answer: a.answer }).collect() },
            "resident" => Fact::Resident { done: w.done.ok_or_else(|| need("done"))? },
            "frames" => Fact::Frames { same: w.same.ok_or_else(|| need("same"))? },
            "failed" => Fact::Failed { why: w.why },
            "ports" | "each" => return Err(need("answers")),
            other => return Err(format!("unknown fact {other:?}")),
        })
    }
}

/// A step and, when this step formed one, the page state now (its text: the tab's form-field
/// facts of this moment belong to it).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Next {
    pub read: u64,
    #[serde(flatten)]
    pub step: Step,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
}

/// What the core does for the plan: whether it holds the AX trees of a read, and a held
/// result given again (None when it cannot be: refs gone, not the latest revision).
pub trait Core {
    fn holds_ax(&self, request: &Request, handle: &TabKey) -> bool;
    fn reuse(&mut self, request: &Request, held: &Held, handle: &TabKey) -> Option<Value>;
}

/// Where a read is.
#[derive(Debug, Clone, PartialEq)]
enum Phase {
    One { injected: bool, resident: bool, list_first: bool },
    Ports { held: Vec<FrameState> },
    All { resident: bool },
    Each { frames: Vec<Frame>, together: Vec<Option<String>> },
    Patch,
    Frames,
    Render,
    Capture,
}

/// A read under way.
#[derive(Debug, Clone)]
struct Read {
    request: Request,
    key: String,
    phase: Phase,
    /// The page state now, once formed; `frames`: those to walk (no error pages), `reached`
    /// when every one answered through its port or in one injection.
    state: Option<PageState>,
    frames: Vec<Frame>,
    reached: bool,
    /// The last frame listing offered.
    listed: Option<Vec<Frame>>,
    /// The tab as the last fact found it.
    tab: TabFacts,
}

/// Every read's page state and what it gave, per key, and the reads under way.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Plans {
    /// Read key → the state taken before its last read and what that read gave (oldest first).
    keys: Vec<(String, PageState, Held)>,
    /// Tab → its newest page state's frames.
    latest: Vec<(i64, Vec<FrameState>)>,
    /// Documents whose frame did not answer in time once (`tab, frame, document`).
    silent: Vec<(i64, i64, String)>,
    /// Documents that are Chrome's error page.
    error_pages: Vec<(i64, i64, String)>,
    /// Each agent session's last whole-page read (how an action that reached a page shows it:
    /// `follow`), newest last.
    #[serde(default)]
    last_reads: Vec<LastRead>,
    #[serde(skip)]
    reads: Vec<(u64, Read)>,
    #[serde(skip)]
    next: u64,
    /// Why the last AX read that tried a patch read the whole tree instead (None: it patched).
    #[serde(skip)]
    pub last_refusal: Option<String>,
}

impl Plans {
    /// The first step of a read. Pure of the browser: the executor may send a port step
    /// before the call's consent check (the answer is used only once it passed).
    /// `tab`: the tab, when the executor has looked it up (a read begun with the call has not).
    pub fn begin(&mut self, request: Request, tab: Option<TabFacts>) -> Next {
        self.next += 1;
        let id = self.next;
        let key = request.key();
        let pending = tab.as_ref().is_some_and(|t| t.pending);
        self.note_read(&request);
        let mut read = Read { request, key, phase: Phase::Capture, state: None, frames: Vec::new(), reached: false, listed: None, tab: tab.unwrap_or_default() };
        let step = if pending && read.request.tracked() { self.page_state(&mut read) } else { self.first(&mut read) };
        self.reads.push((id, read));
        if self.reads.len() > READS_UNDER_WAY {
            self.reads.remove(0);
        }
        Next { read: id, step, state: None }
    }

    /// How `session` last read a whole page (`None`: it has not).
    pub fn last_read(&self, session: &str) -> Option<&LastRead> {
        self.last_reads.iter().find(|l| l.session_id == session)
    }

    /// An agent session is gone: how it read is forgotten.
    pub fn dispose_session(&mut self, session: &str) {
        self.last_reads.retain(|l| l.session_id != session);
    }

    fn note_read(&mut self, request: &Request) {
        if !request.whole_page() || request.page.is_some() {
            return;
        }
        let session_id = request.session_id.clone().unwrap_or_default();
        self.last_reads.retain(|l| l.session_id != session_id);
        self.last_reads.push(LastRead { session_id, tool: request.tool.clone(), source: request.source.clone(), max_chars: request.max_chars, max_nodes: request.max_nodes });
        if self.last_reads.len() > SESSIONS_KEPT {
            self.last_reads.remove(0);
        }
    }

    /// The read is over (answered, failed or abandoned): forget it.
    pub fn end(&mut self, id: u64) {
        self.reads.retain(|(r, _)| *r != id);
    }

    fn first(&self, read: &mut Read) -> Step {
        let r = &read.request;
        if !r.tracked() {
            return capture(read);
        }
        if r.walks_in_one() && self.held_frames(&read.key) <= 1 {
            return match self.held_main(&read.key) {
                Some((document_id, answer)) => {
                    read.phase = Phase::One { injected: false, resident: false, list_first: false };
                    Step::WalkOnePort { document_id, answer, same_as: self.held(&read.key).and_then(|h| h.walk_id.clone()) }
                }
                None => {
                    read.phase = Phase::One { injected: true, resident: false, list_first: true };
                    Step::WalkOneInjected { answer: None, same_as: None, list_first: true }
                }
            };
        }
        self.page_state(read)
    }

    /// Asks for the tab's page state: its newest state's documents through their ports, else
    /// every frame.
    fn page_state(&self, read: &mut Read) -> Step {
        let tab = read.request.tab_id;
        let held = self.latest.iter().find(|(t, _)| *t == tab).map(|(_, f)| f.clone()).filter(|f| f.first().map(|x| x.0) == Some(0));
        match held {
            Some(held) if !self.silent_in(tab) => {
                let one = held.len() == 1;
                let documents = held.iter().filter(|f| f.2 != ERROR_PAGE).map(|(f, d, a)| PortAsk { frame_id: *f, document_id: d.clone(), answer: one.then(|| a.clone()) }).collect();
                read.phase = Phase::Ports { held };
                Step::AskPorts { documents, list: !one }
            }
            _ => self.ask_all(read, true, false),
        }
    }

    fn ask_all(&self, read: &mut Read, list: bool, resident: bool) -> Step {
        read.phase = Phase::All { resident };
        Step::AskAll { list, inject: !self.silent_in(read.request.tab_id) }
    }

    /// The next step after `fact`. `tab`: the tab now; `core`: the collector's part.
    pub fn offer(&mut self, id: u64, fact: Fact, tab: &TabFacts, core: &mut dyn Core) -> Option<Next> {
        let i = self.reads.iter().position(|(r, _)| *r == id)?;
        let mut read = self.reads[i].1.clone();
        read.tab = tab.clone();
        let had_state = read.state.is_some();
        let step = self.step(&mut read, fact, tab, core);
        let state = (!had_state).then(|| read.state.as_ref().map(|s| s.text.clone())).flatten();
        if let Step::Answer { .. } = step {
            self.end(id);
        } else if let Some(slot) = self.reads.iter_mut().find(|(r, _)| *r == id) {
            slot.1 = read;
        }
        Some(Next { read: id, step, state })
    }

    fn step(&mut self, read: &mut Read, fact: Fact, tab: &TabFacts, core: &mut dyn Core) -> Step {
        match (read.phase.clone(), fact) {
            (Phase::One { injected, resident, list_first }, fact) => self.one(read, fact, tab, core, injected, resident, list_first),
            (Phase::Ports { held }, Fact::Ports { answers, listed }) => self.ports(read, held, answers, listed, tab, core),
            (Phase::All { resident }, Fact::All { listed, answers }) => self.all(read, listed, answers, resident, tab, core),
            (Phase::All { .. }, Fact::Resident { done }) => {
                if done {
                    self.ask_all(read, false, true)
                } else {
                    self.each_or_state(read, None, tab, core)
                }
            }
            (Phase::Each { frames, together }, Fact::Each { answers }) => self.each(read, frames, together, answers, tab, core),
            (Phase::Patch, Fact::Failed { why }) => {
                self.last_refusal = Some(why);
                self.after_patch(read)
            }
            (Phase::Frames, Fact::Frames { same }) => {
                if same {
                    return self.again_held(read, core).unwrap_or_else(|| capture(read));
                }
                read.phase = Phase::Render;
                Step::Render
            }
            // Anything else (a failed step, a fact of another step): the normal capture.
            _ => capture(read),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn one(&mut self, read: &mut Read, fact: Fact, tab: &TabFacts, core: &mut dyn Core, injected: bool, resident: bool, list_first: bool) -> Step {
        let key = read.key.clone();
        let held_main = self.held_main(&key);
        if let Fact::Resident { done } = fact {
            if !done || !injected {
                return self.page_state(read);
            }
            // Resident now: asked once more.
            read.phase = Phase::One { injected, resident: true, list_first: false };
            let same_as = self.held(&key).and_then(|h| h.walk_id.clone());
            return Step::WalkOneInjected { answer: held_main.map(|(_, a)| a), same_as, list_first: false };
        }
        // A navigation pending, or the document cannot be asked: the page state, the usual way.
        let Fact::One { listed, document_id, result } = fact else {
            if !injected && !tab.pending {
                // The port could not ask its document: injected instead.
                read.phase = Phase::One { injected: true, resident, list_first: false };
                let same_as = self.held(&key).and_then(|h| h.walk_id.clone());
                return Step::WalkOneInjected { answer: held_main.map(|(_, a)| a), same_as, list_first: false };
            }
            return self.page_state(read);
        };
        if tab.pending {
            return self.page_state(read);
        }
        let document_id = match (injected, held_main.as_ref(), document_id) {
            (false, Some((d, _)), _) => d.clone(),
            (true, _, Some(d)) => d,
            _ => return self.page_state(read),
        };
        if injected {
            // The frames listed: exactly this one document.
            let one = listed.as_ref().is_some_and(|l| l.len() == 1 && l[0].document_id == document_id);
            if !one {
                return self.page_state(read);
            }
            if result.is_none() && !resident {
                read.phase = Phase::One { injected, resident: true, list_first };
                return Step::MakeResident { frames: vec![0] };
            }
        }
        let Some(got) = result.filter(|g| g.frames == 0) else { return self.page_state(read) };
        let Some(answer) = got.answer else { return self.page_state(read) };
        read.state = Some(self.state_of(read.request.tab_id, &tab.url, vec![(0, document_id, answer)]));
        if got.same {
            // The walk showed what the key's last read's walk did: that read answers.
            return self.again_held(read, core).unwrap_or_else(|| capture(read));
        }
        if got.walked {
            read.phase = Phase::Render;
            return Step::Render;
        }
        self.unchanged(read, core).unwrap_or_else(|| capture(read))
    }

    fn ports(&mut self, read: &mut Read, held: Vec<FrameState>, answers: Vec<PortAnswer>, listed: Option<Vec<Frame>>, tab: &TabFacts, core: &mut dyn Core) -> Step {
        let tab_id = read.request.tab_id;
        let live: Vec<&FrameState> = held.iter().filter(|f| f.2 != ERROR_PAGE).collect();
        if answers.len() != live.len() {
            return self.ask_all(read, true, false);
        }
        // A document that kept the read waiting is not asked again: this read captures.
        let late: Vec<(i64, String)> = live.iter().zip(&answers).filter(|(_, a)| a.late).map(|(f, _)| (f.0, f.1.clone())).collect();
        if !late.is_empty() {
            for (frame, doc) in late {
                keep_doc(&mut self.silent, (tab_id, frame, doc));
            }
            return capture(read);
        }
        let mut k = 0;
        let now: Vec<(i64, String, Option<String>)> = held
            .iter()
            .map(|(f, d, a)| {
                if a == ERROR_PAGE {
                    (*f, d.clone(), Some(a.clone()))
                } else {
                    k += 1;
                    (*f, d.clone(), answers[k - 1].answer.clone())
                }
            })
            .collect();
        let same_frames = if held.len() == 1 { answers.first().is_some_and(|a| a.frames == 0 && a.answer.is_some()) } else { same_frames(listed.as_deref(), &held) };
        read.listed = listed;
        if same_frames && now.iter().all(|f| f.2.is_some()) {
            let frames: Vec<FrameState> = now.into_iter().map(|(f, d, a)| (f, d, a.unwrap_or_default())).collect();
            read.frames = frames.iter().filter(|f| f.2 != ERROR_PAGE).map(|(f, d, _)| Frame { frame_id: *f, document_id: d.clone() }).collect();
            read.reached = true;
            read.state = Some(self.state_of(tab_id, &tab.url, frames));
            return self.with_state(read, core);
        }
        let list = read.listed.is_none();
        self.ask_all(read, list, false)
    }

    fn all(&mut self, read: &mut Read, listed: Option<Vec<Frame>>, answers: Option<Vec<FrameAnswer>>, resident: bool, tab: &TabFacts, core: &mut dyn Core) -> Step {
        if listed.is_some() {
            read.listed = listed;
        }
        let Some(mut frames) = read.listed.clone().filter(|l| !l.is_empty()) else {
            return capture(read);
        };
        crate::order::sort(&mut frames);
        read.listed = Some(frames.clone());
        let answer_of = |f: &Frame| answers.as_ref().and_then(|a| a.iter().find(|x| x.frame_id == f.frame_id && x.document_id == f.document_id));
        // Frames that answered without a tracker get theirs, and every frame is asked again:
        // their first answers are the baseline a read captures after.
        let bare: Vec<i64> = frames.iter().filter(|f| answer_of(f).is_some_and(|a| a.bare)).map(|f| f.frame_id).collect();
        if !bare.is_empty() && !resident {
            read.phase = Phase::All { resident: false };
            return Step::MakeResident { frames: bare };
        }
        let together: Vec<Option<String>> = frames.iter().map(|f| answer_of(f).and_then(|a| a.answer.clone())).collect();
        self.each_or_state(read, Some(together), tab, core)
    }

    /// The frames without an answer in the injection asked on their own (a silent document:
    /// no state; an error page: its static answer).
    fn each_or_state(&mut self, read: &mut Read, together: Option<Vec<Option<String>>>, tab: &TabFacts, core: &mut dyn Core) -> Step {
        let tab_id = read.request.tab_id;
        let frames = read.listed.clone().unwrap_or_default();
        let together = together.unwrap_or_else(|| vec![None; frames.len()]);
        let mut ask = Vec::new();
        for (f, t) in frames.iter().zip(&together) {
            if t.is_none() {
                if self.silent.iter().any(|s| *s == (tab_id, f.frame_id, f.document_id.clone())) {
                    read.phase = Phase::Capture;
                    return Step::Capture;
                }
                if !self.error_pages.iter().any(|s| *s == (tab_id, f.frame_id, f.document_id.clone())) {
                    ask.push(f.clone());
                }
            }
        }
        if !ask.is_empty() {
            read.phase = Phase::Each { frames: frames.clone(), together };
            return Step::AskEach { frames: ask };
        }
        self.form_state(read, frames, together, Vec::new(), Vec::new(), tab, core)
    }

    fn each(&mut self, read: &mut Read, frames: Vec<Frame>, together: Vec<Option<String>>, answers: Vec<EachAnswer>, tab: &TabFacts, core: &mut dyn Core) -> Step {
        let tab_id = read.request.tab_id;
        let asked: Vec<Frame> = frames.iter().zip(&together).filter(|(f, t)| t.is_none() && !self.error_pages.iter().any(|s| *s == (tab_id, f.frame_id, f.document_id.clone()))).map(|(f, _)| f.clone()).collect();
        if asked.len() != answers.len() {
            return capture(read);
        }
        for (f, a) in asked.iter().zip(&answers) {
            let doc = (tab_id, f.frame_id, f.document_id.clone());
            if a.late {
                keep_doc(&mut self.silent, doc);
            } else if a.error_page {
                keep_doc(&mut self.error_pages, doc);
            }
        }
        self.form_state(read, frames, together, asked, answers, tab, core)
    }

    #[allow(clippy::too_many_arguments)]
    fn form_state(&mut self, read: &mut Read, frames: Vec<Frame>, together: Vec<Option<String>>, asked: Vec<Frame>, answers: Vec<EachAnswer>, tab: &TabFacts, core: &mut dyn Core) -> Step {
        let tab_id = read.request.tab_id;
        let mut states = Vec::new();
        for (f, t) in frames.iter().zip(&together) {
            let answer = match t {
                Some(a) => Some(a.clone()),
                None => match asked.iter().position(|x| x == f) {
                    Some(i) => match &answers[i] {
                        a if a.error_page => Some(ERROR_PAGE.to_string()),
                        a if a.late => None,
                        a => a.answer.clone(),
                    },
                    None => self.error_pages.iter().any(|s| *s == (tab_id, f.frame_id, f.document_id.clone())).then(|| ERROR_PAGE.to_string()),
                },
            };
            let Some(answer) = answer else {
                read.phase = Phase::Capture;
                return Step::Capture;
            };
            states.push((f.frame_id, f.document_id.clone(), answer));
        }
        // Walkable in one injection: every frame but error pages answered in that injection.
        read.reached = states.iter().zip(&together).all(|(s, t)| s.2 == ERROR_PAGE || t.is_some());
        read.frames = states.iter().filter(|s| s.2 != ERROR_PAGE).map(|(f, d, _)| Frame { frame_id: *f, document_id: d.clone() }).collect();
        read.state = Some(self.state_of(tab_id, &tab.url, states));
        self.with_state(read, core)
    }

    /// With the page state now: the held read again when the page is unchanged, else a patch,
    /// a walk of every frame in one injection, or the normal capture.
    fn with_state(&mut self, read: &mut Read, core: &mut dyn Core) -> Step {
        if let Some(answer) = self.unchanged(read, core) {
            return answer;
        }
        if read.request.patches() {
            if let (Some(held), Some(since)) = (self.held(&read.key).cloned(), self.patchable(&read.key, read.state.as_ref())) {
                if core.holds_ax(&read.request, &held.handle) {
                    read.phase = Phase::Patch;
                    return Step::Patch { since };
                }
            }
        }
        self.after_patch(read)
    }

    fn after_patch(&self, read: &mut Read) -> Step {
        if read.reached && read.request.walks_in_one() {
            read.phase = Phase::Frames;
            let same_as = self.held_walk(&read.key, &read.frames);
            return Step::WalkFrames { frames: read.frames.clone(), same_as };
        }
        capture(read)
    }

    /// The held read's answer when the page state equals the one taken before it.
    fn unchanged(&mut self, read: &mut Read, core: &mut dyn Core) -> Option<Step> {
        let state = read.state.as_ref()?;
        let same = self.keys.iter().any(|(k, s, _)| *k == read.key && s.text == state.text);
        if !same {
            return None;
        }
        self.again_held(read, core)
    }

    /// The key's last read given again, remembered with the state now (None when it cannot
    /// be: what it gave is gone).
    fn again_held(&mut self, read: &mut Read, core: &mut dyn Core) -> Option<Step> {
        let held = self.held(&read.key)?.clone();
        // The state names every frame's document: the held read's, so its handle (fenced now).
        let handle = TabKey { tab_fence: read.tab.tab_fence.clone(), ..held.handle.clone() };
        let result = core.reuse(&read.request, &held, &handle)?;
        let kept = keep(&read.request, &result)?;
        let held = Held { kept, handle: handle.clone(), walk_id: held.walk_id };
        self.remember(&read.key, read.state.clone(), Some(held));
        Some(Step::Answer { result, handle, reused: true })
    }

    /// A rendered read: remembered with the state taken before it; the answer.
    pub fn rendered(&mut self, id: u64, result: Value, handle: TabKey, walk_id: Option<String>) -> Option<Next> {
        let read = self.reads.iter().find(|(r, _)| *r == id).map(|(_, r)| r.clone())?;
        self.end(id);
        let held = keep(&read.request, &result).map(|kept| Held { kept, handle: handle.clone(), walk_id });
        self.remember(&read.key, read.state.clone(), held);
        if read.phase == Phase::Patch {
            self.last_refusal = None;
        }
        Some(Next { read: id, step: Step::Answer { result, handle, reused: false }, state: None })
    }

    /// The core refused a patch (`why`): the whole tree is captured.
    pub fn refused(&mut self, id: u64, why: String) -> Option<Next> {
        let slot = self.reads.iter_mut().find(|(r, _)| *r == id)?;
        slot.1.phase = Phase::Capture;
        self.last_refusal = Some(why);
        Some(Next { read: id, step: Step::Capture, state: None })
    }

    /// Whether read `id` is rendering a patch.
    pub fn patching(&self, id: u64) -> bool {
        self.reads.iter().any(|(r, read)| *r == id && read.phase == Phase::Patch)
    }

    /// The request of read `id`.
    pub fn request(&self, id: u64) -> Option<&Request> {
        self.reads.iter().find(|(r, _)| *r == id).map(|(_, read)| &read.request)
    }

    /// A closed tab: everything of it forgotten.
    pub fn clear_tab(&mut self, tab_id: i64) {
        let prefix = format!("{tab_id}|");
        self.keys.retain(|(k, _, _)| !k.starts_with(&prefix));
        self.latest.retain(|(t, _)| *t != tab_id);
        self.silent.retain(|d| d.0 != tab_id);
        self.error_pages.retain(|d| d.0 != tab_id);
    }

    // ----- the held state -----

    fn state_of(&mut self, tab_id: i64, url: &str, frames: Vec<FrameState>) -> PageState {
        let state = PageState::new(url, frames);
        self.latest.retain(|(t, _)| *t != tab_id);
        self.latest.push((tab_id, state.frames.clone()));
        if self.latest.len() > READ_KEYS_KEPT {
            self.latest.remove(0);
        }
        state
    }

    fn remember(&mut self, key: &str, state: Option<PageState>, held: Option<Held>) {
        self.keys.retain(|(k, _, _)| k != key);
        if let (Some(state), Some(held)) = (state, held) {
            self.keys.push((key.to_string(), state, held));
            if self.keys.len() > READ_KEYS_KEPT {
                self.keys.remove(0);
            }
        }
    }

    fn held(&self, key: &str) -> Option<&Held> {
        self.keys.iter().find(|(k, _, _)| k == key).map(|(_, _, h)| h)
    }

    fn held_state(&self, key: &str) -> Option<&PageState> {
        self.keys.iter().find(|(k, _, _)| k == key).map(|(_, s, _)| s)
    }

    fn held_frames(&self, key: &str) -> usize {
        self.held_state(key).map_or(0, |s| s.frames.len())
    }

    /// Frame 0's document and answer before the key's last read, when the tab had one frame.
    fn held_main(&self, key: &str) -> Option<(String, String)> {
        let f = &self.held_state(key)?.frames;
        (f.len() == 1 && f[0].0 == 0).then(|| (f[0].1.clone(), f[0].2.clone()))
    }

    /// The walk id of the key's last read when it walked exactly `frames`, each in the same
    /// document.
    fn held_walk(&self, key: &str, frames: &[Frame]) -> Option<String> {
        let (_, state, held) = self.keys.iter().find(|(k, _, _)| k == key)?;
        let walk_id = held.walk_id.clone()?;
        let walked: Vec<(i64, &str)> = state.frames.iter().filter(|f| f.2 != ERROR_PAGE).map(|f| (f.0, f.1.as_str())).collect();
        let now: Vec<(i64, &str)> = frames.iter().map(|f| (f.frame_id, f.document_id.as_str())).collect();
        (walked == now).then_some(walk_id)
    }

    /// The main frame's answer before the key's last read when the page now differs from it
    /// in that answer only (the same frames and documents, every child frame as it was).
    fn patchable(&self, key: &str, now: Option<&PageState>) -> Option<String> {
        let was = &self.held_state(key)?.frames;
        let now = &now?.frames;
        if was.len() != now.len() || now.first()?.0 != 0 {
            return None;
        }
        let same = now.iter().zip(was).all(|(n, w)| n.0 == w.0 && n.1 == w.1 && (n.0 == 0 || n.2 == w.2));
        (same && now[0].2 != was[0].2).then(|| was[0].2.clone())
    }

    fn silent_in(&self, tab_id: i64) -> bool {
        self.silent.iter().any(|d| d.0 == tab_id)
    }
}

/// The normal capture, from here.
fn capture(read: &mut Read) -> Step {
    read.phase = Phase::Capture;
    Step::Capture
}

/// Whether `listed` is exactly the frames of `held`, each in the same document.
fn same_frames(listed: Option<&[Frame]>, held: &[FrameState]) -> bool {
    listed.is_some_and(|l| l.len() == held.len() && l.iter().all(|f| held.iter().any(|h| h.0 == f.frame_id && h.1 == f.document_id)))
}

/// What a read's result keeps for giving it again.
fn keep(request: &Request, result: &Value) -> Option<Kept> {
    if request.ax() {
        result.get("snapshotId").and_then(Value::as_str).map(|s| Kept::Ax(s.to_string()))
    } else {
        Some(Kept::Snapshot(result.clone()))
    }
}

/// Adds a document to a bounded set.
fn keep_doc(set: &mut Vec<(i64, i64, String)>, doc: (i64, i64, String)) {
    if set.contains(&doc) {
        return;
    }
    if set.len() >= SILENT_FRAMES_KEPT {
        set.clear();
    }
    set.push(doc);
}
