//! The `#[wasm_bindgen]` facade: the only module that knows about `JsValue`. One stateful
//! handle (`Collector`) whose methods are one-liners into the core, and one error
//! conversion point (`{code, message, hint}` thrown as a JS object).
//!
//! Must never: contain logic beyond decoding arguments and encoding results.

/// The module's allocator: talc (6.7 KB smaller than Rust's default dlmalloc here, the same
/// speed within noise, less linear memory; the module is single-threaded, no atomics).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

use crate::tools::collector::Collector as Core;
use crate::budget::Budget;
use crate::error::{Code, Error};
use crate::tools::extract::Format;

mod options;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(start)]
pub fn start() {
    // A panic is a bug (malformed input is an `Error`): the worker's console shows its
    // message, file and line.
    console_error_panic_hook::set_once();
}

/// A host `RegExp` (browser_find's `regex`): the engine's, through js-sys.
pub use js_sys::RegExp;

/// Results cross as plain JS objects built by `serde-wasm-bindgen` (maps as objects, `None`
/// as `null`, integers as numbers: what `JSON.parse` of the same result gives). Measured in
/// Node against JSON text parsed by the engine: a small snapshot 0.44 vs 0.45 ms, 200
/// console entries 0.19 vs 0.31 ms, the long-session state within the noise.
fn to_js<T: Serialize>(v: &T) -> Result<JsValue, JsValue> {
    // (A result that cannot serialize is a bug: the host sees this text, never a panic.)
    v.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|_| JsValue::from_str("pcc: result not serializable"))
}

/// A JS value as the core's type `T` (a wrong shape: `INVALID_REQUEST`).
fn from_js<T: serde::de::DeserializeOwned>(v: JsValue, what: &str) -> Result<T, JsValue> {
    serde_wasm_bindgen::from_value(v).map_err(|e| err(Error::malformed(what, e)))
}

fn err(e: Error) -> JsValue {
    to_js(&e).unwrap_or_else(|_| JsValue::from_str(e.code.as_str()))
}

/// Observations are passed as their JSON text: `JSON.stringify` of CDP results is
/// native-fast, and one parse beats crossing the boundary once per field. The text is
/// encoded by the engine's `TextEncoder` straight into linear memory (`observation_text`);
/// UTF-8 bytes are taken too (copied in at their exact size).
fn json_text(v: &[u8]) -> Result<&str, JsValue> {
    std::str::from_utf8(v).map_err(|_| err(Error::malformed("observation", "expected UTF-8 JSON bytes")))
}

/// An observation's bytes, taken over: the core frees them once decoded.
fn owned_text(v: Vec<u8>) -> Result<String, JsValue> {
    String::from_utf8(v).map_err(|_| err(Error::malformed("observation", "expected UTF-8 JSON bytes")))
}

#[wasm_bindgen]
extern "C" {
    /// A `web_sys::TextEncoder` seen with `encodeInto` taking the string as it is in the
    /// engine (web-sys has no `encodeInto`, and its `encode` takes a Rust `&str`, which
    /// would copy the text into linear memory at up to 3× its length first).
    #[wasm_bindgen(extends = web_sys::TextEncoder)]
    type Utf8Encoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &Utf8Encoder, source: &js_sys::JsString, destination: &js_sys::Uint8Array) -> EncodeIntoResult;
    type EncodeIntoResult;
    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodeIntoResult) -> f64;
    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeIntoResult) -> f64;
}

/// An observation's JSON text, a string or its UTF-8 bytes, as an owned string the core
/// frees once decoded. A string is encoded by the engine's `TextEncoder` into the buffer
/// itself: one copy, no byte array on the JS heap; the buffer grows, when it must, by what
/// the rest needs at the rate seen so far.
fn observation_text(v: JsValue) -> Result<String, JsValue> {
    if let Some(s) = v.dyn_ref::<js_sys::JsString>() {
        return encode_text(s);
    }
    match v.dyn_into::<js_sys::Uint8Array>() {
        Ok(bytes) => owned_text(bytes.to_vec()),
        Err(_) => Err(err(Error::malformed("observation", "expected JSON text or its UTF-8 bytes"))),
    }
}

fn encode_text(s: &js_sys::JsString) -> Result<String, JsValue> {
    let encoder: Utf8Encoder = web_sys::TextEncoder::new()?.unchecked_into();
    // One byte per UTF-16 unit and a sixteenth more: JSON of pages in Latin scripts fits at
    // once (the long-session capture needs 2.4% more) and the buffer is not copied to grow;
    // text in other scripts takes one or two more rounds below.
    let units = s.length() as usize;
    let mut out: Vec<u8> = Vec::with_capacity(units + units / 16 + 4);
    let mut rest = s.clone();
    loop {
        let spare = out.capacity() - out.len();
        // SAFETY: the view covers the vector's spare capacity and is used only by the
        // `encodeInto` call below, before anything can allocate (and so move or grow memory);
        // `set_len` then covers exactly the bytes the engine reports it wrote.
        let (read, written) = unsafe {
            let view = js_sys::Uint8Array::view_mut_raw(out.as_mut_ptr().add(out.len()), spare);
            let r = encoder.encode_into(&rest, &view);
            let written = (r.written() as usize).min(spare);
            out.set_len(out.len() + written);
            (r.read() as u32, written)
        };
        if read >= rest.length() {
            break;
        }
        rest = rest.slice(read, rest.length());
        // Room for what is left, at the bytes per unit of what was read (at least one byte
        // per UTF-16 unit, and a whole character): mostly one more round, rarely two.
        let left = rest.length() as usize;
        let estimate = (left as u64 * written as u64).div_ceil(u64::from(read.max(1))) as usize;
        out.reserve_exact(estimate.max(left).max(4));
    }
    // The margin left over goes back before decoding (shrinking is in place).
    out.shrink_to_fit();
    owned_text(out)
}

/// The result and option types of this module for TypeScript hosts (the `.d.ts` the build
/// writes declares them and the functions below use them instead of `any`; no wasm cost:
/// wasm-bindgen takes the section out of the module). `tests/ts_types.rs` holds every
/// interface to the keys the core's results serialize.
pub const TS_TYPES: &str = r#"
/** The tab a result belongs to: refs resolve only for the same tab, fence and document. */
export interface TabHandle { tabId: number; browserId?: string; tabFence?: string; incarnation?: string; }
export interface SnapshotOptions { maxChars?: number; maxNodes?: number; tab?: TabHandle; page?: number; }
export interface AccessibilityOptions extends SnapshotOptions { sessionId?: string; scope?: string; disableDiffing?: boolean; baseSnapshotId?: string; unchangedSince?: string; }
export interface SnapshotResult { snapshotId: string; baseSnapshotId?: string; mode: "full" | "diff" | "unchanged"; source: "chromium_ax" | "dom"; state?: string; nodeCount: number; charCount: number; truncated: boolean; refCount: number; totalNodes: number; omittedNodes?: number; fullReason?: string; }
export interface ReadRequest { tabId: number; tool: "snapshot" | "ax"; source?: string; selector?: string; ref?: string; snapshotId?: string; sessionId?: string; maxChars?: number; maxNodes?: number; page?: number; disableDiffing?: boolean; baseSnapshotId?: string; wholeAx?: boolean; }
export interface ReadTab { url: string; tabFence: string; pending?: boolean; }
export interface FollowRead { tabId: number; tool: "snapshot" | "ax"; sessionId?: string; source?: string; maxChars?: number; maxNodes?: number; }
export interface ReadFrame { frameId: number; documentId: string; }
/** A read's next step (session/read_plan.rs Step); `state`: the page state it formed. */
export type ReadStep = { read: number; state?: string } & ({ step: "walkOnePort"; documentId: string; answer: string; sameAs?: string } | { step: "walkOneInjected"; answer?: string; sameAs?: string; listFirst: boolean } | { step: "askPorts"; documents: { frameId: number; documentId: string; answer?: string }[]; list: boolean } | { step: "askAll"; list: boolean; inject: boolean } | { step: "makeResident"; frames: number[] } | { step: "askEach"; frames: ReadFrame[] } | { step: "patch"; since: string } | { step: "walkFrames"; frames: ReadFrame[]; sameAs?: string } | { step: "render" } | { step: "capture" } | { step: "answer"; result: any; handle: TabHandle; reused: boolean });
/** What a read step found (session/read_plan.rs Fact). */
export type ReadFact = { fact: "one"; listed?: ReadFrame[]; documentId?: string; result?: { answer?: string; frames: number; same: boolean; walked: boolean } } | { fact: "ports"; answers: { late?: boolean; answer?: string; frames?: number }[]; listed?: ReadFrame[] } | { fact: "all"; listed?: ReadFrame[]; answers?: { frameId: number; documentId: string; answer?: string; bare?: boolean }[] } | { fact: "each"; answers: { late?: boolean; errorPage?: boolean; answer?: string }[] } | { fact: "resident"; done: boolean } | { fact: "frames"; same: boolean } | { fact: "failed"; why?: string };
export interface ScreenshotOptions { tab?: TabHandle; marks?: boolean; x: number; y: number; width: number; height: number; secrets?: string[]; fields?: PaintedField[]; texts?: [string, number, number, number, number][]; snapshotId?: string; boxes?: { ref: string; x: number; y: number; width: number; height: number }[]; }
export interface PaintedField { tag: string; attrs: Record<string, string>; label: string; near?: string; value: string; x: number; y: number; width: number; height: number; }
export interface ScreenshotPlan { masks: { x: number; y: number; width: number; height: number }[]; marks: { ref: string; x: number; y: number; width: number; height: number; tag: { x: number; y: number; width: number; height: number } }[]; snapshotId?: string; unmarked?: number; }
export interface FindQuery { text?: string; role?: string; name?: string; exact?: boolean; placeholder?: string; testId?: string; elements?: boolean; maxResults?: number; maxChars?: number; }
export interface FindResult { snapshotId: string; matches: number; shown: number; truncated: boolean; state: string; refs?: string[]; lines?: string[]; }
export interface RefTarget { frameId: string; session: string; backendNodeId?: number; walkIndex?: number; walkId?: string; role: string; name: string; tag: string; idAttr?: string; nameAttr?: string; }
export interface VisibleDomResult { state: string; nodeCount: number; charCount: number; totalNodes: number; frameCount?: number; truncated: boolean; }
export interface ExtractOptions { maxChars?: number; format?: "markdown" | "text"; offset?: number; }
export interface ExtractResult { title: string; byline?: string; site?: string; published?: string; lang?: string; url: string; format: "markdown" | "text"; scope: "article" | "selector" | "body"; content: string; charCount: number; totalChars: number; offset?: number; nextOffset?: number; hint?: string; }
export interface JournalOptions { maxEntries?: number; maxChars?: number; filter?: string; fields?: string; }
export interface ConsoleEntry { level: string; text: string; source?: string; }
export interface RequestEntry { method: string; url: string; type?: string; status?: number; mimeType?: string; encodedBytes?: number; failed?: string; pending?: boolean; }
export interface Log<T> { entries: T[]; count: number; total: number; dropped: number; truncated: boolean; }
export interface TabDescriptor { id: number; title: string; url: string; active?: boolean; windowId: number; index?: number; owner?: "agent" | "claimed" | "user"; lifecycle?: string; groupId?: number; opener?: number; session?: string; mine?: true; granted?: false; }
export interface TabList { tabs: TabDescriptor[]; count: number; truncated: boolean; }
export interface Evaluated { value: unknown; type: string; charCount: number; truncated: boolean; }
/** budget.rs's source-side limits, by name. */
export type Limits = Record<string, number>;
/** What every function here throws: a stable code and a next step. */
export interface ToolErrorValue { code: string; message: string; hint?: string; }
"#;

#[wasm_bindgen(typescript_custom_section)]
const TS_SECTION: &'static str = TS_TYPES;

/// The vision tokens an image of `width` × `height` pixels costs (`tools::screenshot::tokens`).
#[wasm_bindgen(js_name = imageTokens, unchecked_return_type = "{ anthropic: number; openai: number }")]
pub fn image_tokens(width: u32, height: u32) -> Result<JsValue, JsValue> {
    to_js(&crate::tools::screenshot::tokens(width, height))
}

/// The masks of what moved between a screenshot's plan and its pixels
/// (`tools::screenshot::moved_masks`): `region` is the captured region (viewport CSS px).
#[wasm_bindgen(js_name = movedMasks, unchecked_return_type = "{ x: number; y: number; width: number; height: number }[]")]
pub fn moved_masks(
    #[wasm_bindgen(unchecked_param_type = "[string, number, number, number, number][]")] before: JsValue,
    #[wasm_bindgen(unchecked_param_type = "[string, number, number, number, number][]")] after: JsValue,
    secrets: Vec<String>,
    x: f64,
    y: f64,
    width: f64,
    height: f64,
) -> Result<JsValue, JsValue> {
    let before: Vec<crate::tools::screenshot::PaintedText> = from_js(before, "texts before")?;
    let after: Vec<crate::tools::screenshot::PaintedText> = from_js(after, "texts after")?;
    to_js(&crate::tools::screenshot::moved_masks(&before, &after, &secrets, crate::tools::screenshot::Capture { x, y, width, height }))
}

/// The JS class `ToolSchemas`: every tool's parameter schemas from catalogue.json
/// (`tools::params`), checked once per call in the router.
#[wasm_bindgen(js_name = ToolSchemas)]
pub struct WasmSchemas {
    schemas: crate::tools::params::Schemas,
}

#[wasm_bindgen(js_class = ToolSchemas)]
impl WasmSchemas {
    /// `catalogue`: the text of catalogue.json. Throws when it is not one.
    #[wasm_bindgen(constructor)]
    pub fn new(catalogue: &str) -> Result<WasmSchemas, JsValue> {
        crate::tools::params::Schemas::new(catalogue).map(|schemas| WasmSchemas { schemas }).map_err(err)
    }

    /// A call's `params`, checked against `method`'s schema: the parameters the tool gets
    /// (nulls left out), or throws `INVALID_REQUEST` naming what is wrong.
    #[wasm_bindgen(unchecked_return_type = "Record<string, unknown>")]
    pub fn check(&self, method: &str, #[wasm_bindgen(unchecked_param_type = "unknown")] params: JsValue) -> Result<JsValue, JsValue> {
        let v: serde_json::Value = if params.is_undefined() || params.is_null() { serde_json::Value::Object(Default::default()) } else { from_js(params, "params")? };
        self.schemas.check(method, &v).map_err(err).and_then(|m| to_js(&m))
    }
}

/// The JS class `Collector`: the core's `tools::collector::Collector` behind JS values.
#[wasm_bindgen(js_name = Collector)]
pub struct WasmCollector {
    core: Core,
}

#[wasm_bindgen(js_class = Collector)]
impl WasmCollector {
    #[wasm_bindgen(constructor)]
    pub fn new(runtime_id: &str) -> WasmCollector {
        WasmCollector { core: Core::new(runtime_id) }
    }

    /// A collector from the UTF-8 bytes of `saveState`'s text (taken from another instance
    /// of this module; bytes, as observations: a string would be copied in at up to 3× its
    /// length): the same refs, revisions, id counters and journals. Throws on a bad state.
    pub fn restore(state: &[u8]) -> Result<WasmCollector, JsValue> {
        Core::restore(json_text(state)?).map(|core| WasmCollector { core }).map_err(err)
    }

    /// The whole state as text, for `Collector.restore` in a renewed instance.
    #[wasm_bindgen(js_name = saveState)]
    pub fn save_state(&mut self) -> String {
        self.core.save()
    }

    /// `observation`: JSON text of the observation envelope; `options`: `{maxChars, maxNodes, tab}`.
    #[wasm_bindgen(unchecked_return_type = "SnapshotResult")]
    pub fn snapshot(&mut self, #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] observation: JsValue, #[wasm_bindgen(unchecked_param_type = "SnapshotOptions")] options: JsValue) -> Result<JsValue, JsValue> {
        let opts = options::read(options, "snapshot options").map_err(err)?;
        let obs = observation_text(observation)?;
        self.core.snapshot(obs, &opts).map_err(err).and_then(|r| to_js(&r))
    }

    /// `browser_find`: `query` says what to look for (`find::Query`), `tab` is the tab handle
    /// and `regex`, when given, a RegExp every match must also pass.
    #[wasm_bindgen(unchecked_return_type = "FindResult")]
    pub fn find(&mut self, #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] observation: JsValue, #[wasm_bindgen(unchecked_param_type = "FindQuery")] query: JsValue, #[wasm_bindgen(unchecked_param_type = "TabHandle")] tab: JsValue, regex: Option<RegExp>) -> Result<JsValue, JsValue> {
        let tab = options::tab_key(tab).map_err(err)?;
        let q = options::read(query, "find query").map_err(err)?;
        let obs = observation_text(observation)?;
        let pred = |s: &str| regex.as_ref().map(|r| r.test(s)).unwrap_or(true);
        self.core.find(obs, &q, &tab, &pred).map_err(err).and_then(|r| to_js(&r))
    }

    /// Resolves `ref` of `snapshotId` for the tab handle `tab`; throws `BROWSER_STALE_REF`.
    #[wasm_bindgen(unchecked_return_type = "RefTarget")]
    pub fn resolve(&self, snapshot_id: &str, ref_label: &str, #[wasm_bindgen(unchecked_param_type = "TabHandle")] tab: JsValue) -> Result<JsValue, JsValue> {
        let tab = options::tab_key(tab).map_err(err)?;
        self.core.resolve(snapshot_id, ref_label, &tab).map_err(err).and_then(|t| to_js(&t))
    }

    /// Every ref of `snapshotId` with its target, for the tab handle `tab` (the marks of a
    /// held state); throws as `resolve` does.
    #[wasm_bindgen(js_name = refsOf, unchecked_return_type = "[string, RefTarget][]")]
    pub fn refs_of(&self, snapshot_id: &str, #[wasm_bindgen(unchecked_param_type = "TabHandle")] tab: JsValue) -> Result<JsValue, JsValue> {
        let tab = options::tab_key(tab).map_err(err)?;
        self.core.refs_of(snapshot_id, &tab).map_err(err).and_then(|t| to_js(&t))
    }

    /// Throws (`BROWSER_STALE_REF`, `BROWSER_TARGET_MISMATCH`) unless the refs of `snapshotId`
    /// still resolve for the tab handle `tab`.
    pub fn holds(&self, snapshot_id: &str, #[wasm_bindgen(unchecked_param_type = "TabHandle")] tab: JsValue) -> Result<(), JsValue> {
        let tab = options::tab_key(tab).map_err(err)?;
        self.core.holds(snapshot_id, &tab).map_err(err)
    }

    /// Rebinds a ref whose node is gone to its unique strong equivalent in `observation`.
    #[wasm_bindgen(unchecked_return_type = "RefTarget")]
    pub fn rebind(&self, snapshot_id: &str, ref_label: &str, #[wasm_bindgen(unchecked_param_type = "TabHandle")] tab: JsValue, #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] observation: JsValue) -> Result<JsValue, JsValue> {
        let tab = options::tab_key(tab).map_err(err)?;
        let obs = observation_text(observation)?;
        self.core.rebind(snapshot_id, ref_label, &tab, obs).map_err(err).and_then(|t| to_js(&t))
    }

    /// `browser_accessibility_snapshot`: options `{maxChars, maxNodes, tab, sessionId, scope,
    /// disableDiffing, baseSnapshotId}`; result mode `full`, `diff` or `unchanged`.
    #[wasm_bindgen(unchecked_return_type = "SnapshotResult")]
    pub fn accessibility(&mut self, #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] observation: JsValue, #[wasm_bindgen(unchecked_param_type = "AccessibilityOptions")] options: JsValue) -> Result<JsValue, JsValue> {
        let opts = options::read(options, "accessibility options").map_err(err)?;
        let obs = observation_text(observation)?;
        self.core.accessibility(obs, &opts).map_err(err).and_then(|r| to_js(&r))
    }

    /// The first step of a tracked read (`session/read_plan`): `request` is the read tool's
    /// parameters with `tabId` and `tool` (`snapshot` / `ax`); `tab`, when looked up already,
    /// `{url, tabFence, pending}`.
    #[wasm_bindgen(js_name = readBegin, unchecked_return_type = "ReadStep")]
    pub fn read_begin(&mut self, #[wasm_bindgen(unchecked_param_type = "ReadRequest")] request: JsValue, #[wasm_bindgen(unchecked_param_type = "ReadTab | undefined")] tab: JsValue) -> Result<JsValue, JsValue> {
        let request = from_js(request, "read request")?;
        let tab = if tab.is_undefined() || tab.is_null() { None } else { Some(from_js(tab, "tab")?) };
        to_js(&self.core.read_begin(request, tab))
    }

    /// The next step of read `read` after what its last step found (`fact`).
    #[wasm_bindgen(js_name = readOffer, unchecked_return_type = "ReadStep")]
    pub fn read_offer(&mut self, read: f64, #[wasm_bindgen(unchecked_param_type = "ReadFact")] fact: JsValue, #[wasm_bindgen(unchecked_param_type = "ReadTab")] tab: JsValue) -> Result<JsValue, JsValue> {
        let fact = from_js(fact, "read fact")?;
        let tab = from_js(tab, "tab")?;
        self.core.read_offer(read as u64, fact, &tab).map_err(err).and_then(|n| to_js(&n))
    }

    /// Read `read`'s observation rendered under `tab`: the answer, or `capture` (a refused patch).
    #[wasm_bindgen(js_name = readRender, unchecked_return_type = "ReadStep")]
    pub fn read_render(&mut self, read: f64, #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] observation: JsValue, #[wasm_bindgen(unchecked_param_type = "TabHandle")] tab: JsValue, walk_id: Option<String>) -> Result<JsValue, JsValue> {
        let tab = options::tab_key(tab).map_err(err)?;
        let obs = observation_text(observation)?;
        self.core.read_render(read as u64, obs, tab, walk_id).map_err(err).and_then(|n| to_js(&n))
    }

    /// Read `read` is over without an answer.
    #[wasm_bindgen(js_name = readEnd)]
    pub fn read_end(&mut self, read: f64) {
        self.core.read_end(read as u64);
    }

    /// Why the last AX read that tried a patch observed the whole tree (undefined: it patched).
    #[wasm_bindgen(js_name = lastPatchRefusal)]
    pub fn last_patch_refusal(&self) -> Option<String> {
        self.core.last_patch_refusal()
    }

    /// `browser_screenshot`'s boxes from a walk of the page: `{masks, marks, snapshotId?}`
    /// (CSS px of the captured region `{x, y, width, height}` in viewport coordinates).
    #[wasm_bindgen(js_name = screenshotPlan, unchecked_return_type = "ScreenshotPlan")]
    pub fn screenshot_plan(&mut self, #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] observation: JsValue, #[wasm_bindgen(unchecked_param_type = "ScreenshotOptions")] options: JsValue) -> Result<JsValue, JsValue> {
        let opts = options::read(options, "screenshot options").map_err(err)?;
        let obs = observation_text(observation)?;
        self.core.screenshot_plan(obs, &opts).map_err(err).and_then(|r| to_js(&r))
    }

    /// The read that follows `method`'s result `result` for agent session `session`
    /// (`session/follow`): `{tabId, tool, sessionId?, source?, maxChars?, maxNodes?}`, or
    /// undefined when the result needs none.
    #[wasm_bindgen(js_name = followRead, unchecked_return_type = "FollowRead | undefined")]
    pub fn follow_read(&self, method: &str, result: JsValue, session: &str) -> Result<JsValue, JsValue> {
        let result: serde_json::Value = from_js(result, "result")?;
        match self.core.follow_read(method, &result, session) {
            Some(f) => to_js(&f),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    #[wasm_bindgen(js_name = disposeSession)]
    pub fn dispose_session(&mut self, session_id: &str) {
        self.core.dispose_session(session_id);
    }

    /// A console message or uncaught exception of `tab_id` (`Runtime.consoleAPICalled` /
    /// `Runtime.exceptionThrown`, flattened by the host).
    #[wasm_bindgen(js_name = consoleEvent)]
    pub fn console_event(&mut self, tab_id: f64, level: &str, text: &str, source: &str) {
        self.core.journal.console(tab_id as i64, level, text, source);
    }

    /// `Network.requestWillBeSent`.
    #[wasm_bindgen(js_name = requestEvent)]
    pub fn request_event(&mut self, tab_id: f64, id: &str, method: &str, url: &str, kind: &str) {
        self.core.journal.request(tab_id as i64, id, method, url, kind);
    }

    /// `Network.responseReceived`.
    #[wasm_bindgen(js_name = responseEvent)]
    pub fn response_event(&mut self, tab_id: f64, id: &str, status: f64, mime_type: &str) {
        self.core.journal.response(tab_id as i64, id, status as i64, mime_type);
    }

    /// `Network.loadingFinished` (`error` "") or `Network.loadingFailed` (its errorText).
    #[wasm_bindgen(js_name = finishedEvent)]
    pub fn finished_event(&mut self, tab_id: f64, id: &str, encoded_bytes: f64, error: &str) {
        self.core.journal.finished(tab_id as i64, id, encoded_bytes, error);
    }

    /// `browser_console`: options `{maxEntries, maxChars, filter}` (filter = a level).
    #[wasm_bindgen(unchecked_return_type = "Log<ConsoleEntry>")]
    pub fn console(&mut self, tab_id: f64, #[wasm_bindgen(unchecked_param_type = "JournalOptions")] options: JsValue) -> Result<JsValue, JsValue> {
        let opts = options::read(options, "console options").map_err(err)?;
        let mut log = self.core.journal.read_console(tab_id as i64, &opts);
        crate::tools::evaluate::scrub_texts(log.entries.iter_mut().map(|e| &mut e.text), opts.fields.as_deref().unwrap_or("")).map_err(err)?;
        to_js(&log)
    }

    /// `browser_network`: options `{maxEntries, maxChars, filter}` (filter = URL substring).
    #[wasm_bindgen(unchecked_return_type = "Log<RequestEntry>")]
    pub fn network(&mut self, tab_id: f64, #[wasm_bindgen(unchecked_param_type = "JournalOptions")] options: JsValue) -> Result<JsValue, JsValue> {
        let opts = options::read(options, "network options").map_err(err)?;
        to_js(&self.core.journal.read_network(tab_id as i64, &opts))
    }

    #[wasm_bindgen(js_name = clearTab)]
    pub fn clear_tab(&mut self, tab_id: f64) {
        self.core.clear_tab(tab_id as i64);
    }
}

/// `browser_dom_cua` over the JSON of the tab's frame walks (UTF-8 bytes); options `{maxChars, maxNodes}`.
#[wasm_bindgen(js_name = visibleDom, unchecked_return_type = "VisibleDomResult")]
pub fn visible_dom(#[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] walk_json: JsValue, #[wasm_bindgen(unchecked_param_type = "SnapshotOptions")] options: JsValue) -> Result<JsValue, JsValue> {
    let opts: crate::tools::visible_dom::CuaOptions = options::read(options, "dom_cua options").map_err(err)?;
    let page = crate::input::decode_page_walk(&observation_text(walk_json)?).map_err(err)?;
    to_js(&crate::tools::visible_dom::visible_dom(&page, Budget::clamped(opts.max_chars, opts.max_nodes)))
}

/// `browser_extract` over the JSON of the tab's walk (UTF-8 bytes); options `{maxChars, format}` with
/// format `markdown` (default) or `text`.
#[wasm_bindgen(unchecked_return_type = "ExtractResult")]
pub fn extract(#[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] walk_json: JsValue, #[wasm_bindgen(unchecked_param_type = "ExtractOptions")] options: JsValue) -> Result<JsValue, JsValue> {
    let opts: crate::tools::extract::ExtractOptions = options::read(options, "extract options").map_err(err)?;
    let format = match opts.format.as_deref() {
        None | Some("markdown") => Format::Markdown,
        Some("text") => Format::Text,
        Some(_) => return Err(err(Error::new(Code::InvalidRequest, "format must be \"markdown\" or \"text\"", "omit format for Markdown"))),
    };
    let page = crate::input::decode_page_walk(&observation_text(walk_json)?).map_err(err)?;
    to_js(&crate::tools::extract::extract(&page, format, crate::tools::extract::budget(opts.max_chars), opts.offset.map_or(0, |o| o as usize)))
}

/// `browser_evaluate`: the bounded result from the page-side serializer's JSON, with the
/// values of the page's sensitive form fields (`fields`: JSON `[{tag, attrs, label, value}]`)
/// scrubbed.
/// Every result's last scrub (tools/scrub.rs): the result's JSON text with the secrets of
/// `fields` (the tab's form-field facts and the remembered sensitive values) redacted.
#[wasm_bindgen(js_name = scrubResult)]
pub fn scrub_result(result_json: &str, fields: &str) -> Result<String, JsValue> {
    crate::tools::scrub::scrub_result(result_json, fields).map_err(err)
}

/// The sensitive values among form-field facts, for the worker to remember.
#[wasm_bindgen(js_name = secretValues, unchecked_return_type = "string[]")]
pub fn secret_values(fields: &str) -> Result<JsValue, JsValue> {
    crate::tools::scrub::secret_values(fields).map_err(err).and_then(|v| to_js(&v))
}

#[wasm_bindgen(js_name = projectEvaluate, unchecked_return_type = "Evaluated")]
pub fn project_evaluate(json: &str, fields: &str) -> Result<JsValue, JsValue> {
    crate::tools::evaluate::project_redacted(json, fields).map_err(err).and_then(|r| to_js(&r))
}

/// The source-side limits (`{evalDepth, walkMaxNodes, …}`) the extension bounds raw data with.
#[wasm_bindgen(unchecked_return_type = "Limits")]
pub fn limits() -> Result<JsValue, JsValue> {
    // Serialized as a map straight from the table (collecting a `serde_json::Map` pulls a
    // BTreeMap bulk build and a stable sort, ~10 KB, into the module).
    struct Limits;
    impl Serialize for Limits {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(crate::budget::SOURCE_LIMITS.iter().map(|(k, v)| (k, v)))
        }
    }
    to_js(&Limits)
}

/// Light tab descriptors from the JSON of a `chrome.tabs.query` result (`browser_tabs`).
#[wasm_bindgen(js_name = projectTabs, unchecked_return_type = "TabList")]
pub fn project_tabs(tabs_json: &str) -> Result<JsValue, JsValue> {
    crate::tools::tabs::project_tabs(tabs_json).map_err(err).and_then(|t| to_js(&t))
}

/// One light tab descriptor from the JSON of a `chrome.tabs.Tab`.
#[wasm_bindgen(js_name = projectTab, unchecked_return_type = "TabDescriptor")]
pub fn project_tab(tab_json: &str) -> Result<JsValue, JsValue> {
    crate::tools::tabs::project_tab(tab_json).map_err(err).and_then(|t| to_js(&t))
}

#[cfg(feature = "host")]
/// Any JS value as a JSON value, read by the core's parser.
fn value_of(v: &JsValue, what: &'static str) -> Result<serde_json::Value, JsValue> {
    serde_wasm_bindgen::from_value(v.clone()).map_err(|e| err(Error::malformed(what, e)))
}

// JS-host exports (`--features host`, the `pkg/` build): the extension's module does not
// project, so it does not carry them.

/// The model projection of a raw `method` result: the compact result the Bridge sends for
/// `responseMode: "compact"` (idempotent). Throws `INVALID_REQUEST` for a method without one.
#[cfg(feature = "host")]
#[wasm_bindgen(unchecked_return_type = "Record<string, unknown>")]
pub fn project(method: &str, #[wasm_bindgen(unchecked_param_type = "unknown")] raw: JsValue) -> Result<JsValue, JsValue> {
    let raw = value_of(&raw, "tool result")?;
    crate::model::projection::project(method, &raw).map_err(err).and_then(|v| to_js(&v))
}

/// Methods that have a compact projection.
#[cfg(feature = "host")]
#[wasm_bindgen(js_name = compactMethods)]
pub fn compact_methods() -> Vec<String> {
    crate::model::projection::COMPACT_METHODS.iter().map(|s| s.to_string()).collect()
}

/// `method`'s result as text: its model view as compact JSON (`pretty` for people), page
/// text below it, fenced as untrusted content unless `fence: false`. Options `{pretty, fence}`.
#[cfg(feature = "host")]
#[wasm_bindgen(js_name = modelText)]
pub fn model_text(method: &str, #[wasm_bindgen(unchecked_param_type = "unknown")] result: JsValue, #[wasm_bindgen(unchecked_param_type = "{ pretty?: boolean; fence?: boolean } | undefined")] options: JsValue) -> Result<String, JsValue> {
    let result = value_of(&result, "tool result")?;
    let opts = if options.is_undefined() || options.is_null() { serde_json::Value::Null } else { value_of(&options, "text options")? };
    let flag = |k: &str, default: bool| opts.get(k).and_then(serde_json::Value::as_bool).unwrap_or(default);
    Ok(crate::model::model_text::model_text(method, &result, crate::model::model_text::TextOptions { pretty: flag("pretty", false), fence: flag("fence", true) }))
}

/// The model text of a screenshot result.
#[wasm_bindgen(js_name = screenshotText)]
pub fn screenshot_text(tab_id: f64, marked: Option<String>, unmarked: Option<f64>) -> String {
    crate::tools::tabs::screenshot_text(tab_id as i64, marked.as_deref(), unmarked.unwrap_or(0.0) as usize)
}

/// Computed styles the extension must ask `DOMSnapshot.captureSnapshot` for, in order.
#[wasm_bindgen(js_name = computedStyles)]
pub fn computed_styles() -> Vec<String> {
    crate::tree::layout::COMPUTED_STYLES.iter().map(|s| s.to_string()).collect()
}

/// Bytes of wasm linear memory now (it only grows, so after a read this is its peak).
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>().buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as f64
}
