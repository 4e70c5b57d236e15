// Service worker: the composition root. It loads the wasm collector once, registers the
// tool router and ferries raw observations in and compact state out. It never filters,
// budgets, redacts or renders: all of that is in wasm (src/).
//
// Entry point for tests and the Bridge: `globalThis.pcc.call(method, params)` resolves to
// the tool's result, or to `{error: {code, message, hint}}`.
import { memoryBytes, projectTabs, projectTab, screenshotText } from './wasm/pcc.js';
import { ready, utf8, RawJson } from './core.js';
import { captureObservation } from './capture.js';
import { applyPasswordMemory } from './worlds.js';
import { sessions } from './debugger.js';
import { resolveTab, assertReadable, handleOf, tabFence } from './handles.js';
import { act, isConnected, scroll, reveal, clickAt, readFact, pointOf, dragBetween } from './actions.js';
import { domAct } from './domwalk.js';
import { walkNode } from './walknode.js';
import { fail, toWire, ToolError, HINTS } from './errors.js';
import { assertMayAct, markOwned, ownerOf, release, markTab, ownedTabs } from './ownership.js';
import { domCua, extractContent, stableRead, isNavigationError, walkFrames, selectorOf } from './reads.js';
import { evaluateIn, formFields, scrubText } from './evaluate.js';
import { journal, requestsSince } from './journal.js';
import { settle } from './settle.js';
import { status, doctor, recordEvent } from './status.js';
import { startBridge, configureBridge, bridgeState, keepWorker } from './bridge.js';
import { openDialog, dialogOpens, answered, setDialogMessageChars } from './dialogs.js';
import { pageState, readKey, heldSince, remember } from './repeat.js';
import { groupOf, joinGroup } from './groups.js';


chrome.tabs.onRemoved.addListener(async (tabId) => (await ready).collector.clearTab(tabId));
chrome.tabs.onReplaced.addListener(async (_added, removed) => (await ready).collector.clearTab(removed));

/** The model-facing tab descriptor (wasm projection: capped, no favicon) plus its handle. */
function tabInfo(tab, handle) {
  const t = projectTab(JSON.stringify(tab));
  if (handle) t.handle = handle;
  return t;
}

/** budget.rs's limits, set before any call runs (call() awaits `ready` after this reaction). */
let limits;
ready.then((r) => {
  limits = r.limits;
  setDialogMessageChars(limits.dialogMessageChars);
}, () => {}); // call() reports a failed load

/** Timeouts of waiting tools: `timeoutDefaultMs` unless given, at most `timeoutMaxMs`. */
function timeoutOf(params) {
  const t = optionalInt(params, 'timeout');
  return Math.min(t ?? limits.timeoutDefaultMs, limits.timeoutMaxMs);
}

async function captureAx(tab, signal) {
  const all = await sessions(tab.id, signal);
  const { styles } = await ready;
  const t0 = performance.now();
  const obs = await captureObservation(all, styles);
  await applyPasswordMemory(tab.id, all, obs);
  return { all, obs, captureMs: performance.now() - t0 };
}

/** The DOM-walk observation of every frame: frame 0 as `domWalk`, child frames as `domFrames`. */
async function captureDom(tab, selector) {
  const t0 = performance.now();
  const { limits } = await ready;
  const { page, main } = await walkFrames(tab, selector || null, true, limits.walkTextChars, { id: crypto.randomUUID(), kept: limits.walksKept });
  const domFrames = page.frames.filter((f) => f.frameId !== 0);
  const obs = { url: main.url, title: main.title, viewport: main.viewport, frames: [], snapshots: [], domWalk: { ...main.walk, nodes: new RawJson(main.walk.nodes) }, domFrames };
  if (main.scopeIndex !== undefined) obs.scope = { walkIndex: main.scopeIndex };
  return { obs, captureMs: performance.now() - t0, documentId: main.documentId };
}

async function scopeOf(main, selector) {
  let doc;
  try {
    doc = await main.send('DOM.getDocument', { depth: 0 });
  } catch (e) {
    fail('BROWSER_SCRIPT_FAILED', 'could not read the document');
  }
  let nodeId;
  try {
    ({ nodeId } = await main.send('DOM.querySelector', { nodeId: doc.root.nodeId, selector }));
  } catch {
    fail('INVALID_REQUEST', `invalid selector ${JSON.stringify(selector).slice(0, 80)}`, 'pass a CSS selector');
  }
  if (!nodeId) fail('BROWSER_SELECTOR_NOT_FOUND', `no element matches ${JSON.stringify(selector).slice(0, 80)}`);
  const { node } = await main.send('DOM.describeNode', { nodeId });
  return { session: '', backendNodeId: node.backendNodeId };
}

/**
 * The live DOM node of a ref: `{session, backendNodeId}` (its debugger session object), or
 * INVALID_REQUEST (no snapshotId; a DOM-walk ref no world of ours can find) /
 * BROWSER_STALE_REF. A walk ref is found through the isolated world that keeps its walk.
 */
async function refNode(all, handle, snapshotId, ref) {
  if (typeof ref !== 'string' || typeof snapshotId !== 'string') fail('INVALID_REQUEST', 'a ref needs the snapshotId that produced it');
  const target = (await ready).collector.resolve(snapshotId, ref, handle);
  const node = target.walkIndex !== undefined
    ? await walkNode(handle.tabId, all, target)
    : { session: all.find((s) => s.session === target.session), backendNodeId: target.backendNodeId };
  if (!node) fail('INVALID_REQUEST', 'the walk of this ref cannot be reached through the debugger', 'take browser_find or browser_snapshot again');
  if (node.gone || !node.session || !(await isConnected(node.session, node.backendNodeId))) fail('BROWSER_STALE_REF', `the element of ref ${ref} is gone`);
  return node;
}

/** A ref-scoped read (`{ref, snapshotId}`): that element's subtree, in its own session. */
async function refScope(tab, all, params) {
  const { session, backendNodeId } = await refNode(all, await handleOf(tab, all[0]), params.snapshotId, params.ref);
  return { session: session.session, backendNodeId };
}

function optionalInt(params, key) {
  const v = params[key];
  if (v === undefined || v === null) return undefined;
  if (!Number.isInteger(v) || v < 0) fail('INVALID_REQUEST', `${key} must be a non-negative integer`);
  return v;
}

/** One observation of a tab: AX through the debugger, or the DOM walk as the fallback. */
async function observe(tab, params, signal) {
  const forceDom = params.source === 'dom';
  if (params.source !== undefined && !['dom', 'chromium_ax'].includes(params.source)) fail('INVALID_REQUEST', 'source is "chromium_ax" or "dom"');
  selectorOf(params);
  if (!forceDom) {
    try {
      const { all, obs, captureMs } = await captureAx(tab, signal);
      if (!obs.frames.some((f) => f.ax)) throw new Error('AX domain unavailable');
      if (params.selector) obs.scope = await scopeOf(all[0], params.selector);
      else if (params.ref !== undefined) obs.scope = await refScope(tab, all, params);
      return { obs, all, captureMs, handle: await handleOf(tab, all[0]) };
    } catch (e) {
      if (e && e.code && e.code !== 'BROWSER_SCRIPT_FAILED') throw e; // selector errors are the caller's
      // Debugger unavailable (another debugger attached, policy…): fall back to the DOM walk.
    }
  }
  signal?.throwIfAborted();
  if (params.ref !== undefined) fail('BROWSER_PAGE_UNAVAILABLE', 'a ref-scoped read needs the debugger on this tab', 'close DevTools on this tab, or read with a selector');
  const { obs, captureMs, documentId } = await captureDom(tab, params.selector);
  // Key the handle like the AX path when the debugger works, so refs survive a source switch.
  const all = await sessions(tab.id).catch(() => null);
  return { obs, all, captureMs, handle: await handleOf(tab, all?.[0], documentId) };
}

/**
 * One page read: validate, observe (AX or DOM walk), hand the JSON observation to
 * `render(collector, json, limits, handle)` (a wasm call) and time both halves.
 */
async function readTab(params, signal, render, resolved) {
  const limits = { maxChars: optionalInt(params, 'maxChars'), maxNodes: optionalInt(params, 'maxNodes') };
  const tab = resolved ?? await resolveTab(params.tabId);
  assertReadable(tab);
  const { collector } = await ready;
  // One document from start to end, or BROWSER_PAGE_CHANGING (one re-observation). Attach
  // first, so that the document is identified the same way before and after.
  if (params.source !== 'dom') await sessions(tab.id).catch(() => {});
  const { obs, captureMs, handle } = await stableRead(tab.id, () => observe(tab, params, signal));
  // Abandoned: render nothing (a revision the model never sees must not become the base).
  signal?.throwIfAborted();
  const t0 = performance.now();
  const json = utf8(obs);
  const result = render(collector, json, limits, handle);
  const timing = { captureMs, wasmMs: performance.now() - t0, rawBytes: json.length };
  return { result, tab: tabInfo(tab, handle), timing: params.timing ? timing : undefined };
}

async function browserSnapshot(params, signal) {
  const page = optionalInt(params, 'page');
  const { result, tab, timing } = await trackedRead(params, signal, `snapshot ${page ?? ''}`, {
    tracked: params.source !== 'dom',
    // The held result while its refs are still in the registry (a first ref resolves).
    reuse: (held, handle, collector) => {
      const ref = held.state?.match(/\[(?:ref|more)=(\w+)\]/)?.[1];
      if (ref) collector.resolve(held.snapshotId, ref, handle);
      return held;
    },
    keep: (result) => result,
    render: (c, json, limits, handle) => c.snapshot(json, { ...limits, tab: handle, page }),
  });
  const out = { tab, snapshot: result };
  if (timing) out.timing = timing;
  return out;
}

/**
 * A read the change tracker may spare (repeat.js). With `tracked` and the page unchanged since
 * this key's last read, `reuse(held, handle, collector)` answers from what `keep` kept of that
 * read (it throws when it cannot: the document changed, the revision or refs are gone, and the
 * read then captures); otherwise `readTab` with `render`. `{result, tab, timing}` either way.
 */
async function trackedRead(params, signal, kind, { tracked, reuse, keep, render }) {
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const { collector, limits } = await ready;
  const key = readKey(tab.id, kind, params);
  const state = tracked ? await pageState(tab, limits.frameAnswerMs) : null;
  const held = heldSince(key, state);
  if (held) {
    const t0 = performance.now();
    try {
      const handle = await handleOf(tab, (await sessions(tab.id, signal))[0]);
      signal?.throwIfAborted();
      const result = reuse(held, handle, collector);
      remember(key, state, keep(result));
      return { result, tab: tabInfo(tab, handle), timing: params.timing ? { captureMs: 0, wasmMs: performance.now() - t0, rawBytes: 0 } : undefined };
    } catch (e) {
      if (signal?.aborted) throw e;
    }
  }
  const read = await readTab(params, signal, render, tab);
  remember(key, read.result.source === 'chromium_ax' ? state : null, keep(read.result));
  return read;
}

/**
 * `browser_find`: the page's whole semantic view searched by text, RegExp (case-insensitive)
 * and/or role + name; matching lines with refs under a new snapshotId.
 */
async function browserFind(params, signal) {
  for (const k of ['text', 'regex', 'role', 'name']) {
    if (params[k] !== undefined && (typeof params[k] !== 'string' || !params[k])) fail('INVALID_REQUEST', `${k} must be a non-empty string`);
  }
  if (params.exact !== undefined && typeof params.exact !== 'boolean') fail('INVALID_REQUEST', 'exact must be a boolean');
  if (![params.text, params.regex, params.role, params.name].some(Boolean)) fail('INVALID_REQUEST', 'find needs text, regex, role or name');
  let regex;
  if (params.regex) {
    if (params.regex.length > limits.regexMaxChars) fail('INVALID_REQUEST', `regex is longer than ${limits.regexMaxChars} characters`);
    try {
      regex = new RegExp(params.regex, 'i');
    } catch (e) {
      fail('INVALID_REQUEST', `invalid regex: ${String(e.message).slice(0, 120)}`, 'pass a JavaScript regular expression source, without slashes');
    }
  }
  const asked = optionalInt(params, 'maxResults'); // default and cap: budget.rs
  const maxResults = asked === undefined ? undefined : Math.min(asked, 1e9);
  const { result, tab } = await readTab(params, signal, (c, json, limits, handle) =>
    c.find(json, params.text, params.role, params.name, params.exact === true, undefined, undefined, false, maxResults, limits.maxChars === undefined ? undefined : Math.min(limits.maxChars, 1e9), handle, regex));
  return { tab, ...result };
}

const TARGET_KEYS = ['role', 'name', 'label', 'placeholder', 'text', 'testId', 'exact', 'index'];

/** A semantic `target` ({role, name, label, placeholder, text, testId, exact, index}), checked. */
function targetOf(params) {
  const t = params.target;
  if (t === null || typeof t !== 'object' || Array.isArray(t)) fail('INVALID_REQUEST', 'target must be an object such as {"role": "button", "name": "Save"}');
  for (const k of Object.keys(t)) if (!TARGET_KEYS.includes(k)) fail('INVALID_REQUEST', `unknown target key ${k.slice(0, 40)}`, `use ${TARGET_KEYS.join(', ')}`);
  for (const k of ['role', 'name', 'label', 'placeholder', 'text', 'testId']) {
    if (t[k] !== undefined && (typeof t[k] !== 'string' || !t[k])) fail('INVALID_REQUEST', `target.${k} must be a non-empty string`);
  }
  if (t.name !== undefined && t.label !== undefined) fail('INVALID_REQUEST', 'target takes name or label (a field is named by its label), not both');
  if (t.exact !== undefined && typeof t.exact !== 'boolean') fail('INVALID_REQUEST', 'target.exact must be a boolean');
  if (t.index !== undefined && !(Number.isInteger(t.index) && t.index >= 0)) fail('INVALID_REQUEST', 'target.index must be a non-negative integer (0 is the first match)');
  if (!['role', 'name', 'label', 'placeholder', 'text', 'testId'].some((k) => t[k])) fail('INVALID_REQUEST', 'target needs role, name, label, placeholder, text or testId');
  return t;
}

/**
 * The core's matches of a target on the page now (target mode: elements with a DOM node,
 * each line's ref in order); at most `max` shown, all counted (the core caps `max`).
 */
async function matchTarget(tab, t, max, signal) {
  const { collector } = await ready;
  const { obs, all } = await captureAx(tab, signal);
  signal?.throwIfAborted();
  const handle = await handleOf(tab, all[0]);
  return collector.find(utf8(obs), t.text, t.role, t.name ?? t.label, t.exact === true, t.placeholder, t.testId, true, max, undefined, handle, undefined);
}

/**
 * Resolves a semantic target against the current document (the core matches; elements the
 * page hides never count): `{snapshotId, ref}` of the `index`-th match, BROWSER_TARGET_NOT_FOUND,
 * or BROWSER_TARGET_AMBIGUOUS listing the candidates when several match and no index says which.
 */
async function resolveTarget(tab, t, signal) {
  const f = await matchTarget(tab, t, 1e9, signal);
  const what = JSON.stringify(t).slice(0, 120);
  if (!f.matches) fail('BROWSER_TARGET_NOT_FOUND', `no visible element matches ${what}`, 'check the role and name with browser_find or a snapshot');
  if (t.index === undefined && f.matches > 1) {
    const lines = f.state.split('\n').slice(0, 5).map((l) => l.replace(/ \[ref=\w+\]/, ''));
    fail('BROWSER_TARGET_AMBIGUOUS', `${f.matches} elements match ${what}: ${lines.join(' | ')}${f.matches > 5 ? ' | …' : ''}`, 'add index (0 is the first, in document order) or narrow the target');
  }
  const i = t.index ?? 0;
  if (i >= f.shown) fail('BROWSER_TARGET_NOT_FOUND', `index ${i} is past the ${f.matches} elements matching ${what}`);
  return { snapshotId: f.snapshotId, ref: `e${i + 1}` };
}

const LOCATOR_READS = ['count', 'text', 'value', 'attribute', 'visible', 'enabled'];

/**
 * `browser_locator`: one fact of a target or ref, read now. Read-only (any readable tab);
 * every string passes the evaluate scrub, so a sensitive field's value is `[redacted]`.
 */
async function browserLocator(params, signal) {
  if (!LOCATOR_READS.includes(params.read)) fail('INVALID_REQUEST', `read is one of ${LOCATOR_READS.join(', ')}`);
  if (params.read === 'attribute' && (typeof params.attribute !== 'string' || !params.attribute)) fail('INVALID_REQUEST', 'read: attribute needs attribute (its name)');
  if (params.target !== undefined && params.ref !== undefined) fail('INVALID_REQUEST', 'pass a target or a ref with its snapshotId, not both');
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const { limits } = await ready;
  if (params.read === 'count') {
    if (params.target === undefined) fail('INVALID_REQUEST', 'count needs a target');
    return { tab: tabInfo(tab), read: 'count', value: (await matchTarget(tab, targetOf(params), 1, signal)).matches };
  }
  let { snapshotId, ref } = params;
  if (params.target !== undefined) ({ snapshotId, ref } = await resolveTarget(tab, targetOf(params), signal));
  else if (ref === undefined) fail('INVALID_REQUEST', 'locator needs a target, or a ref with its snapshotId');
  const all = await sessions(tab.id, signal);
  const handle = await handleOf(tab, all[0]);
  const { session, backendNodeId } = await refNode(all, handle, snapshotId, ref);
  let value = await readFact(session, backendNodeId, params.read, params.attribute);
  if (typeof value === 'string') {
    const fields = await formFields(tab.id, limits);
    if (!fields) fail('BROWSER_SCRIPT_FAILED', 'could not check the value for sensitive content', 'retry once the page has loaded');
    value = scrubText(value, fields);
  }
  return { tab: tabInfo(tab, handle), read: params.read, value };
}

async function browserAccessibilitySnapshot(params, signal) {
  for (const k of ['sessionId', 'baseSnapshotId']) {
    if (params[k] !== undefined && typeof params[k] !== 'string') fail('INVALID_REQUEST', `${k} must be a string`);
  }
  if (params.disableDiffing !== undefined && typeof params.disableDiffing !== 'boolean') fail('INVALID_REQUEST', 'disableDiffing must be a boolean');
  const options = (limits, handle, unchangedSince) => ({
    ...limits,
    tab: handle,
    sessionId: params.sessionId || '',
    scope: params.selector || (params.ref !== undefined ? `ref ${params.snapshotId} ${params.ref}` : ''),
    disableDiffing: params.disableDiffing === true,
    baseSnapshotId: params.baseSnapshotId,
    unchangedSince,
  });
  const { result, tab, timing } = await trackedRead(params, signal, 'ax', {
    tracked: params.source !== 'dom' && !params.disableDiffing,
    // `unchanged` from the held revision (the core refuses one that is not the latest).
    reuse: (since, handle, collector) => collector.accessibility(new Uint8Array(0), options({ maxChars: optionalInt(params, 'maxChars'), maxNodes: optionalInt(params, 'maxNodes') }, handle, since)),
    keep: (result) => result.snapshotId,
    render: (c, json, limits, handle) => c.accessibility(json, options(limits, handle)),
  });
  const out = { ...result, tab };
  if (timing) out.timing = timing;
  return out;
}

/** A read-only tool on a readable tab: `{tab, ...result}`. No ownership needed. */
async function readOnly(params, read) {
  for (const k of ['maxChars', 'maxNodes', 'maxEntries']) optionalInt(params, k);
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const result = await read(tab, params);
  return { tab: tabInfo(tab), ...result };
}

async function journalRead(params, kind) {
  if (params.filter !== undefined && typeof params.filter !== 'string') fail('INVALID_REQUEST', 'filter must be a string');
  return readOnly(params, async (tab) => {
    await journal(tab.id).catch((e) => fail('BROWSER_PAGE_UNAVAILABLE', `cannot collect on tab ${tab.id}: ${String(e.message).slice(0, 120)}`, 'close DevTools on this tab, or use a tab from browser_tab_open'));
    const { collector, limits } = await ready;
    const opts = { maxEntries: params.maxEntries, maxChars: params.maxChars, filter: params.filter || undefined };
    if (kind === 'network') return collector.network(tab.id, opts);
    // What the page logged may quote a field's value: the sensitive ones are scrubbed.
    const fields = await formFields(tab.id, limits);
    if (fields) opts.fields = JSON.stringify(fields);
    return collector.console(tab.id, opts);
  });
}

async function browserEvaluate(params, signal) {
  if (typeof params.expression !== 'string' || !params.expression.trim()) fail('INVALID_REQUEST', 'expression must be a non-empty string');
  if (params.expression.length > limits.expressionMaxChars) fail('INVALID_REQUEST', `expression is longer than ${limits.expressionMaxChars} characters`);
  if (params.awaitPromise !== undefined && typeof params.awaitPromise !== 'boolean') fail('INVALID_REQUEST', 'awaitPromise must be a boolean');
  const timeout = timeoutOf(params);
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const all = await sessions(tab.id, signal).catch((e) => (signal?.aborted ? Promise.reject(e) : fail('BROWSER_PAGE_UNAVAILABLE', 'the debugger is not available on this tab', 'close DevTools on this tab')));
  const handle = await handleOf(tab, all[0]);
  await assertMayAct(tab, params, handle);
  let result;
  try {
    result = await evaluateIn(all[0], tab.id, params, timeout);
  } catch (e) {
    // The script ran (or started): its effects are unknown when the document went away.
    if (!e.code && isNavigationError(e)) fail('BROWSER_OPERATION_UNCERTAIN', 'the page navigated while the expression ran');
    if (e.code === 'BROWSER_SCRIPT_FAILED' && isNavigationError(e.message)) fail('BROWSER_OPERATION_UNCERTAIN', 'the page navigated while the expression ran');
    throw e;
  }
  return { tab: tabInfo(tab, handle), ...result };
}

/**
 * `browser_cdp`: the CDP methods an expert may send (agent-owned or claimed tabs only). Each
 * can only change how the page is emulated, throttled or loaded, or read layout and
 * metrics: nothing that reads the DOM, storage, cookies, network bodies or field values,
 * runs script or dispatches input (those have their own guarded tools).
 */
const CDP_ALLOWED = [
  /^Emulation\.(setDeviceMetricsOverride|clearDeviceMetricsOverride|setGeolocationOverride|clearGeolocationOverride|setEmulatedMedia|setTimezoneOverride|setLocaleOverride|setUserAgentOverride|setTouchEmulationEnabled|setCPUThrottlingRate|setIdleOverride|clearIdleOverride|setEmulatedVisionDeficiency)$/,
  /^Network\.(emulateNetworkConditions|setCacheDisabled|setBlockedURLs)$/,
  /^Page\.(getLayoutMetrics|getNavigationHistory|reload|stopLoading|bringToFront)$/,
  /^Performance\.(enable|disable|getMetrics)$/,
];

async function browserCdp(params, signal) {
  if (typeof params.method !== 'string' || !CDP_ALLOWED.some((re) => re.test(params.method))) {
    fail('INVALID_REQUEST', `CDP method ${String(params.method).slice(0, 80)} is not allowed`, 'allowed: Emulation overrides, Network.emulateNetworkConditions/setCacheDisabled/setBlockedURLs, Page.getLayoutMetrics/getNavigationHistory/reload/stopLoading/bringToFront, Performance metrics');
  }
  if (params.params !== undefined && (typeof params.params !== 'object' || params.params === null || Array.isArray(params.params))) fail('INVALID_REQUEST', 'params must be an object');
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const all = await sessions(tab.id, signal);
  await assertMayAct(tab, params, await handleOf(tab, all[0]));
  const result = await all[0].send(params.method, params.params ?? {}).catch((e) => fail('INVALID_REQUEST', `CDP said: ${String(e.message).slice(0, 200)}`, 'check the method parameters'));
  // The answer is bounded and passes the evaluate scrub like any page value.
  const text = JSON.stringify(result ?? {});
  const { limits } = await ready;
  const fields = await formFields(tab.id, limits);
  if (!fields) fail('BROWSER_SCRIPT_FAILED', 'could not check the result for sensitive values', 'retry once the page has loaded');
  return { ok: true, tab: tabInfo(tab), result: scrubText(text.slice(0, limits.cdpResultChars), fields), ...(text.length > limits.cdpResultChars ? { truncated: true } : {}) };
}


/** One download as the model sees it: the file's name and path, its state, the URL redacted. */
function downloadRow(d) {
  const url = projectTab(JSON.stringify({ id: 0, title: '', url: d.finalUrl || d.url })).url;
  const name = String(d.filename || '').split(/[\\/]/).pop().slice(0, 200);
  return {
    id: d.id, name, state: d.state, bytes: d.bytesReceived, ...(d.totalBytes > 0 ? { totalBytes: d.totalBytes } : {}),
    ...(d.error ? { error: d.error } : {}), ...(d.filename ? { path: d.filename.slice(0, 500) } : {}), url,
  };
}

/**
 * Downloads `url` to `filename` under the browser's download directory (its own name when
 * absent; a taken name gets a number), and waits up to `timeout` for it to finish: the row of
 * `browser_downloads`, `in_progress` when it is still running.
 */
async function browserDownload(params, signal) {
  let url;
  try {
    url = new URL(params.url);
  } catch {
    fail('INVALID_REQUEST', 'url must be an absolute URL');
  }
  if (!['http:', 'https:'].includes(url.protocol)) fail('INVALID_REQUEST', 'only http(s) URLs are downloaded');
  const name = params.filename;
  if (name !== undefined && (typeof name !== 'string' || !name || name.startsWith('/') || /^[a-z]:/i.test(name) || name.split(/[\\/]/).some((p) => p === '..' || p === '.' || !p))) {
    fail('INVALID_REQUEST', 'filename is a relative path under the download directory (no "..", no absolute path)');
  }
  let id;
  try {
    id = await chrome.downloads.download({ url: url.href, ...(name ? { filename: name } : {}), conflictAction: 'uniquify', saveAs: false });
  } catch (e) {
    fail('INVALID_REQUEST', `the download was refused: ${String(e.message).slice(0, 120)}`);
  }
  const until = Date.now() + timeoutOf(params);
  let [d] = await chrome.downloads.search({ id });
  while (d?.state === 'in_progress' && Date.now() < until && !signal?.aborted) {
    await new Promise((r) => setTimeout(r, 100));
    [d] = await chrome.downloads.search({ id });
  }
  return d ? downloadRow(d) : { id, state: 'interrupted' };
}

/**
 * `browser_downloads`: the newest downloads (at most 20; `tabId` narrows to those a tab's
 * page started, by its URL's origin): name, bytes, state, where the file is; URLs pass the
 * core's URL redaction. A clicked download goes where Chrome decides (its download
 * directory); `browser_download` names the file under it.
 */
async function browserDownloads(params) {
  if (params.maxEntries !== undefined && (!Number.isInteger(params.maxEntries) || params.maxEntries < 1)) fail('INVALID_REQUEST', 'maxEntries is a positive integer');
  const limit = Math.min(params.maxEntries ?? limits.downloadsMax, limits.downloadsMax);
  const items = await chrome.downloads.search({ orderBy: ['-startTime'], limit });
  const downloads = items.map(downloadRow);
  return { downloads, count: downloads.length };
}

/** The clipboard through the keeper document (keeper.js). */
async function clipboard(message) {
  await keepWorker();
  const r = await chrome.runtime.sendMessage({ type: 'pcc-clipboard', ...message }).catch(() => null);
  if (!r?.ok) fail('BROWSER_PAGE_UNAVAILABLE', 'the clipboard could not be reached', 'retry; the browser may not allow clipboard access right now');
  return r;
}

/** The clipboard's text: page-derived, bounded, scrubbed of the active tab's sensitive field values. */
async function browserClipboardRead() {
  const { limits } = await ready;
  const { text } = await clipboard({ op: 'read' });
  const active = await resolveTab(undefined).catch(() => null);
  const fields = active ? await formFields(active.id, limits).catch(() => null) : null;
  const cut = String(text ?? '').slice(0, limits.clipboardChars);
  const content = fields ? scrubText(cut, fields) : cut;
  return { content, ...(String(text ?? '').length > cut.length ? { truncated: true } : {}) };
}

async function browserClipboardWrite(params) {
  const { limits } = await ready;
  if (typeof params.text !== 'string') fail('INVALID_REQUEST', 'text must be a string');
  if (params.text.length > limits.clipboardChars) fail('INVALID_REQUEST', `text is longer than ${limits.clipboardChars} characters`);
  await clipboard({ op: 'write', text: params.text });
  return { ok: true };
}

/**
 * Every tab, each with its owner (`pccOwner`: agent or claimed; the core says `user`
 * otherwise); a claimed tab's row carries the handle its side effects need (its fence).
 */
async function browserTabs() {
  const owners = new Map((await ownedTabs()).map((t) => [t.tabId, t.owner]));
  const tabs = (await chrome.tabs.query({})).map((t) => (owners.has(t.id) ? { ...t, pccOwner: owners.get(t.id) } : t));
  const list = projectTabs(JSON.stringify(tabs));
  for (const row of list.tabs) if (row.owner === 'claimed') row.handle = { tabFence: tabFence(row.id) };
  return list;
}

/**
 * The tab of a side effect that needs no debugger of its own (navigation, tab selection,
 * marks; `readable`: a page the extension may read, for navigation): refused unless agent-owned, or claimed with its handle (the handle's fence is
 * checked; a tab the debugger cannot attach to has none to check against).
 */
async function tabToAct(params, { readable = false } = {}) {
  const tab = await resolveTab(params.tabId);
  if (readable) assertReadable(tab);
  const all = await sessions(tab.id).catch(() => null);
  await assertMayAct(tab, params, await handleOf(tab, all?.[0]).catch(() => ({})));
  return tab;
}

/** `browser_select_tab`: makes a tab the active one of its window (agent-owned or claimed tabs). */
async function browserSelectTab(params) {
  if (!Number.isInteger(params.tabId)) fail('INVALID_REQUEST', 'select_tab needs tabId');
  const tab = await tabToAct(params);
  const now = await chrome.tabs.update(tab.id, { active: true });
  await chrome.windows.update(now.windowId, { focused: true }).catch(() => {});
  return { ok: true, tab: tabInfo(now) };
}

async function browserSelectedTab(params) {
  const tab = await resolveTab(params.tabId);
  let handle;
  try {
    assertReadable(tab);
    handle = await handleOf(tab, (await sessions(tab.id))[0]);
  } catch {
    handle = undefined; // a browser page: described, but not controllable
  }
  return { tab: tabInfo(tab, handle) };
}

const NAVIGABLE = ['http:', 'https:', 'file:'];

/**
 * History moves of `browser_navigate {action}`. Back and forward go to the neighbouring
 * entry of the tab's own history over CDP (chrome.tabs.goBack skips entries Chrome marks as
 * added without a user gesture: an agent's navigations are such entries).
 */
const HISTORY = {
  back: (id) => historyStep(id, -1),
  forward: (id) => historyStep(id, 1),
  reload: (id) => chrome.tabs.reload(id),
};

async function historyStep(tabId, by) {
  const [main] = await sessions(tabId);
  const { currentIndex, entries } = await main.send('Page.getNavigationHistory');
  const to = entries[currentIndex + by];
  if (!to) throw new Error(`no page ${by < 0 ? 'back' : 'forward'} in this tab's history`);
  await main.send('Page.navigateToHistoryEntry', { entryId: to.id });
}

async function browserNavigate(params) {
  let url;
  if (params.action !== undefined) {
    if (params.url !== undefined) fail('INVALID_REQUEST', 'pass url or action, not both');
    if (!Object.hasOwn(HISTORY, params.action)) fail('INVALID_REQUEST', 'action is back, forward or reload');
  } else {
    try {
      url = new URL(params.url);
    } catch {
      fail('INVALID_REQUEST', 'url must be an absolute URL', 'pass e.g. https://example.com/, or action: back, forward or reload');
    }
    if (!NAVIGABLE.includes(url.protocol) && url.href !== 'about:blank') fail('INVALID_REQUEST', `cannot navigate to a ${url.protocol} URL`, 'use an http(s) or file URL');
  }
  const timeout = timeoutOf(params);
  const tab = await tabToAct(params, { readable: true });
  if (url) await chrome.tabs.update(tab.id, { url: url.href });
  else {
    try {
      await HISTORY[params.action](tab.id);
    } catch (e) {
      // Nothing happened: no page in that direction.
      fail('INVALID_REQUEST', `cannot go ${params.action}: ${String(e.message).slice(0, 100)}`, 'read browser_tabs, or navigate to a URL');
    }
  }
  return waitLoaded(tab, timeout);
}

/** Polls until the tab has loaded, then returns its descriptor and fresh handle. */
async function waitLoaded(tab, timeout) {
  const start = Date.now();
  let now;
  let seenLoading = false;
  // Loaded: Chrome went through `loading` (or a fast load was missed for 500 ms) and is
  // `complete` with nothing pending.
  for (;;) {
    now = await chrome.tabs.get(tab.id);
    if (now.status === 'loading') seenLoading = true;
    if (now.status === 'complete' && !now.pendingUrl && (seenLoading || Date.now() - start > 500)) break;
    if (Date.now() - start > timeout) return { ok: true, loading: true, tab: tabInfo(now) };
    await new Promise((r) => setTimeout(r, 50));
  }
  const all = await sessions(tab.id).catch(() => null);
  return { ok: true, tab: tabInfo(now, await handleOf(now, all?.[0]).catch(() => undefined)) };
}

/** Injected: the page's side of a wait — its load state, the text and the selector. */
function pageCheck(text, selector, textGone) {
  const body = text !== null || textGone !== null ? document.body?.innerText || '' : '';
  let rendered = true;
  if (selector) {
    const el = document.querySelector(selector);
    rendered = !!el && el.getClientRects().length > 0;
  }
  return {
    readyState: document.readyState,
    ok: rendered && (text === null || body.includes(text)) && (textGone === null || !body.includes(textGone)),
  };
}

const LOAD_STATES = ['load', 'domcontentloaded', 'networkidle'];
const ELEMENT_STATES = ['visible', 'hidden', 'enabled', 'attached', 'detached'];
/** No fetch/XHR in flight for this long: the network is idle. */
const NETWORK_IDLE_MS = 500;

/** A URL glob (`*` any run of characters, `?` one) as a RegExp over the whole URL. */
function globRegExp(glob) {
  return new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

/**
 * `browser_wait_for`: until every condition given holds — `text` shown, `textGone` no longer
 * shown, `selector` rendered, the tab's `url` matching a glob, its `load` state reached
 * (`networkidle`: loaded and no fetch/XHR for 500 ms), and a `target` or `ref` in a `state`.
 */
async function browserWaitFor(params, signal) {
  const { text, selector, textGone, url, load, state } = params;
  const element = params.target !== undefined || params.ref !== undefined;
  if (![text, selector, textGone, url, load].some((v) => v !== undefined) && !element) fail('INVALID_REQUEST', 'wait_for needs text, textGone, selector, url, load, or a target or ref');
  for (const [k, v] of Object.entries({ text, selector, textGone, url })) if (v !== undefined && typeof v !== 'string') fail('INVALID_REQUEST', `${k} must be a string`);
  if (load !== undefined && !LOAD_STATES.includes(load)) fail('INVALID_REQUEST', `load is one of ${LOAD_STATES.join(', ')}`);
  if (state !== undefined && (!element || !ELEMENT_STATES.includes(state))) fail('INVALID_REQUEST', `state (with a target or ref) is one of ${ELEMENT_STATES.join(', ')}`);
  if (params.target !== undefined && params.ref !== undefined) fail('INVALID_REQUEST', 'pass a target or a ref with its snapshotId, not both');
  if (selector !== undefined) selectorOf(params);
  const timeout = timeoutOf(params);
  let tab = await resolveTab(params.tabId);
  assertReadable(tab);
  if (load === 'networkidle') await journal(tab.id).catch(() => {}); // fetch/XHR in flight are seen from here on
  const urlRe = url === undefined ? null : globRegExp(url);
  const pageSide = [text, selector, textGone, load].some((v) => v !== undefined);
  const start = Date.now();
  let idleSince = null;
  for (;;) {
    signal?.throwIfAborted();
    tab = await chrome.tabs.get(tab.id);
    let ok = !urlRe || urlRe.test(tab.url || '');
    if (ok && pageSide) {
      let page = null;
      try {
        [{ result: page }] = await chrome.scripting.executeScript({ target: { tabId: tab.id }, func: pageCheck, args: [text ?? null, selector ?? null, textGone ?? null] });
      } catch (e) {
        if (/selector/i.test(String(e.message))) fail('INVALID_REQUEST', 'invalid selector', 'pass a CSS selector');
        // The page is between documents: try again until the timeout.
      }
      ok = !!page?.ok;
      if (ok && load !== undefined) {
        ok = load === 'domcontentloaded' ? page.readyState !== 'loading' : page.readyState === 'complete' && tab.status === 'complete';
        if (ok && load === 'networkidle') {
          if (requestsSince(tab.id, 0) > 0) idleSince = null;
          else idleSince ??= Date.now();
          ok = idleSince !== null && Date.now() - idleSince >= NETWORK_IDLE_MS;
        }
      }
    }
    if (ok && element) ok = await elementIn(tab, params, state ?? 'visible', signal);
    if (ok) return { ok: true, waitedMs: Date.now() - start };
    if (Date.now() - start > timeout) fail('BROWSER_WAIT_TIMEOUT', `the condition did not hold within ${timeout} ms`, 'check it (browser_find, a snapshot), or wait longer with timeout');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Whether a target or ref is in `state` now. A target matches visible elements only, so for
 * a target `attached` is `visible` and `hidden` is `detached` (no visible match).
 */
async function elementIn(tab, params, state, signal) {
  let { snapshotId, ref } = params;
  if (params.target !== undefined) {
    try {
      ({ snapshotId, ref } = await resolveTarget(tab, { ...targetOf(params), index: params.target.index ?? 0 }, signal));
    } catch (e) {
      if (e.code !== 'BROWSER_TARGET_NOT_FOUND' && !isNavigationError(e)) throw e;
      return state === 'hidden' || state === 'detached';
    }
    if (state === 'visible' || state === 'attached') return true;
  }
  let node;
  try {
    const all = await sessions(tab.id, signal);
    node = await refNode(all, await handleOf(tab, all[0]), snapshotId, ref);
  } catch (e) {
    if (e.code !== 'BROWSER_STALE_REF') throw e;
    return state === 'detached' || state === 'hidden';
  }
  if (state === 'attached') return true;
  if (state === 'detached') return false;
  const fact = await readFact(node.session, node.backendNodeId, state === 'enabled' ? 'enabled' : 'visible');
  return state === 'hidden' ? fact === false : fact === true;
}

/**
 * `browser_screenshot`: the viewport; `fullPage` the whole document (from its top, at most
 * `screenshotMaxPx` tall: beyond, `truncated`); `ref` + `snapshotId` one element's border box.
 */
async function browserScreenshot(params, signal) {
  // A local file is the caller's machine's business: pcc, its MCP server and the pi tools
  // write it (bridge/src/files.rs); the worker only returns the image.
  if (params.path !== undefined) fail('INVALID_REQUEST', 'path is written by pcc, its MCP server and the pi tools, not by the extension', 'call through the Bridge, or save the attachment yourself');
  if (params.fullPage !== undefined && typeof params.fullPage !== 'boolean') fail('INVALID_REQUEST', 'fullPage is true or false');
  if (params.fullPage && params.ref !== undefined) fail('INVALID_REQUEST', 'pass fullPage or ref, not both');
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const all = await sessions(tab.id, signal);
  const [main] = all;
  let clip;
  let truncated = false;
  if (params.ref !== undefined) {
    const { session, backendNodeId } = await refNode(all, await handleOf(tab, main), params.snapshotId, params.ref);
    if (session !== main) fail('INVALID_REQUEST', 'that element is inside a cross-origin frame', 'take a screenshot of the viewport instead');
    await main.send('DOM.scrollIntoViewIfNeeded', { backendNodeId }).catch(() => {});
    const box = await main.send('DOM.getBoxModel', { backendNodeId }).catch(() => null);
    const q = box?.model?.border;
    if (!q) fail('BROWSER_STALE_REF', `the element of ref ${params.ref} has no box (hidden or gone)`, HINTS.BROWSER_STALE_REF);
    const xs = [q[0], q[2], q[4], q[6]], ys = [q[1], q[3], q[5], q[7]];
    const { cssVisualViewport: v } = await main.send('Page.getLayoutMetrics');
    clip = { x: Math.min(...xs) + v.pageX, y: Math.min(...ys) + v.pageY, width: Math.max(...xs) - Math.min(...xs), height: Math.max(...ys) - Math.min(...ys), scale: 1 };
    if (clip.width < 1 || clip.height < 1) fail('BROWSER_STALE_REF', `the element of ref ${params.ref} has no box (hidden or gone)`, HINTS.BROWSER_STALE_REF);
  } else if (params.fullPage) {
    const { cssContentSize: c } = await main.send('Page.getLayoutMetrics');
    const max = (await ready).limits.screenshotMaxPx;
    truncated = c.height > max;
    clip = { x: 0, y: 0, width: Math.min(c.width, max), height: Math.min(c.height, max), scale: 1 };
  }
  const { data } = await main.send('Page.captureScreenshot', { format: 'png', ...(clip ? { clip, captureBeyondViewport: true } : {}) });
  // The image is an attachment; the model text never carries it.
  return { text: screenshotText(tab.id), attachment: { mimeType: 'image/png', data }, tab: tabInfo(tab), ...(truncated ? { truncated } : {}) };
}

async function browserTabOpen(params) {
  let url = 'about:blank';
  if (params.url !== undefined) {
    try {
      url = new URL(params.url).href;
    } catch {
      fail('INVALID_REQUEST', 'url must be an absolute URL');
    }
    if (!NAVIGABLE.includes(new URL(url).protocol) && url !== 'about:blank') fail('INVALID_REQUEST', 'cannot open that URL', 'use an http(s) or file URL');
  }
  // Open blank, start console/network collection, then load: the journal sees the page's
  // first request and first log line.
  if (params.sessionId !== undefined && (typeof params.sessionId !== 'string' || !params.sessionId)) fail('INVALID_REQUEST', 'sessionId must be a non-empty string');
  const group = groupOf(params);
  const tab = await chrome.tabs.create({ url: 'about:blank', active: params.active !== false });
  await markOwned(tab.id, 'agent');
  if (params.sessionId) await markTab(tab.id, { session: params.sessionId });
  await joinGroup(tab, group);
  if (url !== 'about:blank') {
    await journal(tab.id).catch(() => {}); // no debugger: the tab still opens
    await chrome.tabs.update(tab.id, { url });
  }
  return waitLoaded(tab, timeoutOf(params));
}

async function browserTabClose(params) {
  const tab = await resolveTab(params.tabId);
  if ((await ownerOf(tab.id)) !== 'agent') fail('BROWSER_TAB_NOT_OWNED', `tab ${tab.id} was not opened by the agent`, 'only tabs from browser_tab_open can be closed');
  await chrome.tabs.remove(tab.id);
  await release(tab.id);
  return { ok: true };
}

const MARKS = ['handoff', 'deliverable', 'none'];

/** `browser_mark_tab`: an agent-owned or claimed tab marked `handoff` or `deliverable` (or `none`). */
async function browserMarkTab(params) {
  if (!Number.isInteger(params.tabId)) fail('INVALID_REQUEST', 'mark_tab needs tabId');
  if (!MARKS.includes(params.as)) fail('INVALID_REQUEST', `as is one of ${MARKS.join(', ')}`);
  const tab = await tabToAct(params);
  await markTab(tab.id, { as: params.as === 'none' ? undefined : params.as });
  return { ok: true, tab: tabInfo(tab), ...(params.as === 'none' ? {} : { as: params.as }) };
}

/**
 * `browser_cleanup`: closes the agent's own tabs that are not marked (only those opened with
 * `sessionId`, when given) and gives claimed tabs back; user, handoff and deliverable tabs
 * stay. `preview: true` only says what it would do.
 */
async function browserCleanup(params) {
  if (params.sessionId !== undefined && typeof params.sessionId !== 'string') fail('INVALID_REQUEST', 'sessionId must be a string');
  if (params.preview !== undefined && typeof params.preview !== 'boolean') fail('INVALID_REQUEST', 'preview is true or false');
  const mine = (await ownedTabs()).filter((t) => params.sessionId === undefined || t.session === params.sessionId);
  const close = mine.filter((t) => t.owner === 'agent' && !t.as).map((t) => t.tabId);
  const giveBack = mine.filter((t) => t.owner === 'claimed' && !t.as).map((t) => t.tabId);
  const kept = mine.filter((t) => t.as).map((t) => ({ id: t.tabId, as: t.as }));
  if (params.preview) return { preview: true, close, release: giveBack, kept };
  for (const id of close) {
    await chrome.tabs.remove(id).catch(() => {}); // already gone: nothing to close
    await release(id);
  }
  for (const id of giveBack) await release(id);
  return { ok: true, closed: close, released: giveBack, kept };
}

async function browserClaimTab(params) {
  if (!Number.isInteger(params.tabId)) fail('INVALID_REQUEST', 'claim needs the tabId of the user tab');
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  if ((await ownerOf(tab.id)) !== 'agent') await markOwned(tab.id, 'claimed');
  const all = await sessions(tab.id).catch(() => null);
  return { ok: true, tab: tabInfo(tab, await handleOf(tab, all?.[0])) };
}

async function browserReleaseTab(params) {
  const tab = await resolveTab(params.tabId);
  if ((await ownerOf(tab.id)) === 'claimed') await release(tab.id);
  return { ok: true };
}

async function browserDisposeSession(params) {
  if (typeof params.sessionId !== 'string') fail('INVALID_REQUEST', 'sessionId must be a string');
  (await ready).collector.disposeSession(params.sessionId);
  return { ok: true };
}

const ACTIONS = { browser_click: 'click', browser_fill: 'fill', browser_type: 'type', browser_press: 'press', browser_hover: 'hover', browser_select_option: 'select_option', browser_upload: 'upload' };

/**
 * `browser_drag`: from an element (`ref` + `snapshotId`, or `target`) to another element
 * (`toRef` under the same snapshotId, or `toTarget`) or a point (`toX`, `toY`: viewport CSS
 * pixels). The source is found before the destination, so a target resolution never
 * replaces the other's.
 */
async function browserDrag(params, signal) {
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const toPoint = params.toX !== undefined || params.toY !== undefined;
  if ([params.toRef !== undefined, params.toTarget !== undefined, toPoint].filter(Boolean).length !== 1) fail('INVALID_REQUEST', 'drag needs one destination: toRef, toTarget, or toX + toY');
  if (toPoint && (!Number.isFinite(params.toX) || !Number.isFinite(params.toY))) fail('INVALID_REQUEST', 'toX and toY are numbers (viewport CSS pixels)');
  const all = await sessions(tab.id, signal);
  const handle = await handleOf(tab, all[0]);
  await assertMayAct(tab, params, handle);
  const nodeOf = async (target, snapshotId, ref) => {
    if (target !== undefined) ({ snapshotId, ref } = await resolveTarget(tab, targetOf({ target }), signal));
    else if (typeof ref !== 'string' || typeof snapshotId !== 'string') fail('INVALID_REQUEST', 'drag needs ref and snapshotId, or a target');
    const n = await refNode(all, handle, snapshotId, ref);
    return pointOf(all, n.session, n.backendNodeId);
  };
  const from = await nodeOf(params.target, params.snapshotId, params.ref);
  let to;
  if (toPoint) {
    const { cssLayoutViewport: vp } = await all[0].send('Page.getLayoutMetrics');
    if (!(params.toX >= 0 && params.toY >= 0 && params.toX < vp.clientWidth && params.toY < vp.clientHeight)) fail('INVALID_REQUEST', `(${params.toX}, ${params.toY}) is outside the viewport`);
    to = [params.toX, params.toY];
  } else {
    to = await nodeOf(params.toTarget, params.snapshotId, params.toRef);
  }
  const started = Date.now();
  const { html5 } = await dragBetween(all, tab.id, from.slice(0, 2), to.slice(0, 2));
  return outcome(tab, handle, all[0], started, { ok: true, ...(html5 ? { html5 } : {}) });
}


/**
 * `browser_fill_form`: each field (`{ref, value}` under the call's snapshotId, or
 * `{target, value}`) filled in order as `browser_fill` would, with a result per field. A field
 * whose outcome is unknown stops the form there: the rest are `notTried`.
 */
async function browserFillForm(params, signal) {
  const fields = params.fields;
  if (!Array.isArray(fields) || !fields.length || fields.length > limits.formFieldsMax) fail('INVALID_REQUEST', `fields is a list of 1 to ${limits.formFieldsMax} {ref or target, value}`);
  fields.forEach((f, i) => {
    const ok = f && typeof f === 'object' && typeof f.value === 'string' && (f.target !== undefined) !== (f.ref !== undefined)
      && Object.keys(f).every((k) => ['ref', 'target', 'value'].includes(k));
    if (!ok) fail('INVALID_REQUEST', `fields[${i}] is {ref, value} or {target, value} (value a string)`);
  });
  if (fields.some((f) => f.ref !== undefined) && typeof params.snapshotId !== 'string') fail('INVALID_REQUEST', 'fields with a ref need the snapshotId that produced them');
  const results = [];
  for (const f of fields) {
    if (results.some((r) => r.error?.code === 'BROWSER_OPERATION_UNCERTAIN')) {
      results.push({ notTried: true });
      continue;
    }
    const one = { tabId: params.tabId, handle: params.handle, text: f.value, ...(f.target !== undefined ? { target: f.target } : { ref: f.ref, snapshotId: params.snapshotId }) };
    try {
      const r = await browserAction('fill', one, signal);
      results.push(r.invalid ? { ok: true, invalid: true } : { ok: true });
    } catch (e) {
      if (signal?.aborted) throw e;
      results.push({ error: toWire(e) });
    }
  }
  return { ok: results.every((r) => r.ok), fields: results };
}

async function browserAction(action, params, signal) {
  if (params.target !== undefined) {
    if (params.ref !== undefined || params.snapshotId !== undefined) fail('INVALID_REQUEST', 'pass a target or a ref with its snapshotId, not both');
    const tab = await resolveTab(params.tabId);
    assertReadable(tab);
    params = { ...params, ...(await resolveTarget(tab, targetOf(params), signal)) };
  }
  if (typeof params.snapshotId !== 'string' || typeof params.ref !== 'string') {
    if (action === 'press' && params.ref === undefined) return pressWithoutRef(params, signal);
    if (action === 'click' && params.ref === undefined && (params.x !== undefined || params.y !== undefined)) return clickAtPoint(params, signal);
    fail('INVALID_REQUEST', `${action} needs ref and snapshotId from a browser_snapshot or browser_accessibility_snapshot`);
  }
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const { collector } = await ready;
  const all = await sessions(tab.id, signal).catch(() => null);
  signal?.throwIfAborted();
  const handle = await handleOf(tab, all?.[0]);
  if (params.handle) {
    const h = params.handle;
    if (h.tabFence && h.tabFence !== handle.tabFence) fail('BROWSER_STALE_REF', `tab ${tab.id} was replaced since that handle was issued`);
    if (h.incarnation && h.incarnation !== handle.incarnation) fail('BROWSER_STALE_REF', 'the page navigated or reloaded since that handle was issued');
  }
  await assertMayAct(tab, params, handle);
  let target = collector.resolve(params.snapshotId, params.ref, handle);
  let rebound = false;
  let session;
  if (target.walkIndex !== undefined) {
    // A DOM-source ref: through the debugger, the element its walk kept acts like an AX ref
    // (trusted input, the hit check); without one, page events in the frame it was walked in.
    const node = all && await walkNode(tab.id, all, target);
    if (!node || node.gone) return domRefAct(tab, handle, all, target, action, params);
    if (!(await isConnected(node.session, node.backendNodeId))) fail('BROWSER_STALE_REF', `the element of ref ${params.ref} is gone`);
    ({ session } = node);
    target = { backendNodeId: node.backendNodeId };
  } else {
    if (!all) fail('BROWSER_PAGE_UNAVAILABLE', 'the debugger is not available on this tab');
    session = all.find((s) => s.session === target.session);
    if (!session || !(await isConnected(session, target.backendNodeId))) {
      // Rebind at most once, to a unique strong equivalent in the same document.
      const { obs } = await captureAx(tab, signal);
      signal?.throwIfAborted();
      target = collector.rebind(params.snapshotId, params.ref, handle, utf8(obs));
      session = all.find((s) => s.session === target.session);
      if (!session || !(await isConnected(session, target.backendNodeId))) fail('BROWSER_STALE_REF', `the element of ref ${params.ref} is gone`);
      rebound = true;
    }
  }
  const started = Date.now();
  const extra = await act(all, session, target.backendNodeId, action, params);
  const out = { ok: true, action, ref: params.ref, ...extra };
  if (rebound) out.rebound = true;
  return outcome(tab, handle, all[0], started, out);
}

/** A DOM-source ref without the debugger: synthetic events in the frame it was walked in. */
async function domRefAct(tab, handle, all, target, action, params) {
  const frameIds = [Number(target.frameId) || 0];
  const started = Date.now();
  const [res] = await chrome.scripting.executeScript({ target: { tabId: tab.id, frameIds }, func: domAct, args: [target.walkId ?? null, target.walkIndex, action, params.text ?? params.value ?? params.key ?? ''] });
  if (res?.result?.stale) fail('BROWSER_STALE_REF', `the element of ref ${params.ref} is gone`);
  if (res?.result?.noOption) fail('INVALID_REQUEST', 'no such option', 'use an option value or label shown in the snapshot');
  return outcome(tab, handle, all?.[0], started, { ok: true, action, ref: params.ref });
}

/**
 * An action's result, once the page settled (`settledMs`, from the action's start: what it
 * started, a fetch included, is waited for): the tab as it is now, and `navigated` when its
 * document changed (the caller's refs just became invalid).
 */
async function outcome(tab, handle, mainSession, started, out) {
  out.settledMs = await settle(tab.id, started);
  const now = await chrome.tabs.get(tab.id).catch(() => tab);
  // A cross-process navigation detaches the old session: ask the tab's current one.
  const after = await handleOf(now, mainSession).catch(() => sessions(tab.id).then((a) => handleOf(now, a[0]))).catch(() => null);
  if (after && after.incarnation !== handle.incarnation) out.navigated = true;
  out.tab = tabInfo(now, after || handle);
  return out;
}

const DIRECTIONS = ['up', 'down', 'left', 'right'];

/**
 * `browser_scroll`: the page (what is under the middle of the viewport), the scroll
 * container of `ref`, or `toRef` into view. A side effect (agent-owned or claimed tab).
 * The result says how far it moved and what the viewport shows now (a small state).
 */
async function browserScroll(params, signal) {
  const { direction, pages, deltaX, deltaY } = params;
  if (params.toRef === undefined) {
    if (direction !== undefined && !DIRECTIONS.includes(direction)) fail('INVALID_REQUEST', `direction is one of ${DIRECTIONS.join(', ')}`);
    if (pages !== undefined && !(typeof pages === 'number' && pages > 0 && pages <= 20)) fail('INVALID_REQUEST', 'pages must be a number in (0, 20]');
    for (const [k, v] of [['deltaX', deltaX], ['deltaY', deltaY]]) {
      if (v !== undefined && !(Number.isFinite(v) && Math.abs(v) <= 100000)) fail('INVALID_REQUEST', `${k} must be a number of CSS pixels (|${k}| ≤ 100,000)`);
    }
    if (!direction && !deltaX && !deltaY) fail('INVALID_REQUEST', 'scroll needs direction, deltaX/deltaY or toRef');
  }
  const out = await onTab(params, signal, async (all, handle) => {
    const ref = params.toRef ?? params.ref;
    const { session, backendNodeId } = ref === undefined ? { session: all[0], backendNodeId: null } : await refNode(all, handle, params.snapshotId, ref);
    const moved = params.toRef !== undefined ? await reveal(session, backendNodeId) : await scroll(all, session, backendNodeId, { direction, pages, dx: deltaX, dy: deltaY });
    return { ok: true, action: 'scroll', ...moved };
  });
  if (out.navigated) return out;
  // What the viewport shows now: a small state (the budget keeps what is in view first),
  // with refs under its own snapshotId. (An AX revision would say `unchanged`: scrolling
  // changes what is seen, not the page.)
  const { result } = await readTab({ tabId: out.tab.id, maxChars: (await ready).limits.scrollViewChars }, signal, (c, json, limits, h) => c.snapshot(json, { ...limits, tab: h }));
  const { snapshotId, state, truncated } = result;
  return { ...out, snapshotId, state, truncated };
}

/**
 * A side effect on the tab itself (no ref of an earlier read): an agent-owned or claimed tab,
 * `run(all, handle)` → the outcome fields, reported once the page settled.
 */
async function onTab(params, signal, run) {
  const tab = await resolveTab(params.tabId);
  assertReadable(tab);
  const all = await sessions(tab.id, signal);
  const handle = await handleOf(tab, all[0]);
  await assertMayAct(tab, params, handle);
  const started = Date.now();
  return outcome(tab, handle, all[0], started, await run(all, handle));
}

async function clickAtPoint(params, signal) {
  if (!Number.isFinite(params.x) || !Number.isFinite(params.y)) fail('INVALID_REQUEST', 'a click at a point needs x and y (viewport CSS pixels)');
  return onTab(params, signal, async (all) => ({ ok: true, action: 'click', hit: (await clickAt(all, params.x, params.y, params)).hit }));
}

async function pressWithoutRef(params, signal) {
  return onTab(params, signal, async (all) => {
    await act(all, all[0], undefined, 'press', params);
    return { ok: true, action: 'press' };
  });
}

/**
 * `browser_dialog`: without `accept`, the open dialog `{type, message, defaultPrompt?}`; with
 * it, the answer (a side effect: agent-owned or claimed tabs), `promptText` for a prompt.
 */
async function browserDialog(params) {
  const tab = await resolveTab(params.tabId);
  const d = openDialog(tab.id);
  if (!d) fail('INVALID_REQUEST', `no dialog is open on tab ${tab.id}`, 'a result says dialog when one opens');
  if (params.accept === undefined) return { tab: tabInfo(tab), dialog: d };
  if (typeof params.accept !== 'boolean') fail('INVALID_REQUEST', 'accept is true or false');
  if (params.promptText !== undefined && typeof params.promptText !== 'string') fail('INVALID_REQUEST', 'promptText is a string');
  const [main] = await sessions(tab.id);
  await assertMayAct(tab, params, await handleOf(tab, main));
  await main.send('Page.handleJavaScriptDialog', { accept: params.accept, ...(params.promptText !== undefined ? { promptText: params.promptText } : {}) });
  answered(tab.id);
  return { ok: true, dialog: { type: d.type, accepted: params.accept } };
}

const TOOLS = {
  browser_dialog: browserDialog,
  browser_fill_form: browserFillForm,
  browser_drag: browserDrag,
  browser_select_tab: browserSelectTab,
  browser_mark_tab: browserMarkTab,
  browser_cdp: browserCdp,
  browser_downloads: browserDownloads,
  browser_cleanup: browserCleanup,
  browser_snapshot: browserSnapshot,
  browser_accessibility_snapshot: browserAccessibilitySnapshot,
  browser_find: browserFind,
  browser_scroll: browserScroll,
  browser_locator: browserLocator,
  browser_dispose_session: browserDisposeSession,
  browser_tabs: browserTabs,
  browser_download: browserDownload,
  browser_clipboard_read: browserClipboardRead,
  browser_clipboard_write: browserClipboardWrite,
  browser_tab_open: browserTabOpen,
  browser_tab_close: browserTabClose,
  browser_claim_tab: browserClaimTab,
  browser_release_tab: browserReleaseTab,
  browser_selected_tab: browserSelectedTab,
  browser_navigate: browserNavigate,
  browser_wait_for: browserWaitFor,
  browser_screenshot: browserScreenshot,
  browser_dom_cua: (p, signal) => readOnly(p, (tab, q) => domCua(tab, q, signal)),
  browser_extract: (p, signal) => readOnly(p, (tab, q) => extractContent(tab, q, signal)),
  browser_evaluate: browserEvaluate,
  browser_console: (p) => journalRead(p, 'console'),
  browser_network: (p) => journalRead(p, 'network'),
  browser_status: (p) => status(p, (t) => tabInfo(t)),
  browser_doctor: (p) => doctor(p, (t) => tabInfo(t)),
  ...Object.fromEntries(Object.entries(ACTIONS).map(([name, action]) => [name, (p, signal) => browserAction(action, p, signal)])),
};

/**
 * The catalogue (the one source of tool names and parameters; a test checks TOOLS against
 * it): each tool's parameters, and the tools whose effects are unknown when they do not
 * finish (all but the readers). Fetched, not imported: a restarted service worker cannot
 * load a JSON module it did not cache at install.
 */
const catalogue = fetch(chrome.runtime.getURL('catalogue.json')).then((r) => r.json()).then((c) => ({
  c,
  params: new Map(c.tools.map((t) => [t.name, new Set(Object.keys(t.params))])),
  sideEffects: new Set(c.tools.filter((t) => !t.annotations.readOnly).map((t) => t.name)),
}));

/**
 * The call's deadline: past it the call answers with a stable code and its `signal` aborts,
 * so the abandoned work sends no further command, renders nothing and acts on nothing.
 */
function deadline(method, params, sideEffects, limits) {
  // No call outlives budget.rs's callDeadlineMs plus its own `timeout`: a hung page or
  // browser API yields a stable code, and the worker keeps serving the next call.
  const base = globalThis.pcc?.callDeadlineMs ?? limits.callDeadlineMs; // tests shorten it
  const ms = base + (Number.isInteger(params.timeout) ? Math.min(params.timeout, limits.timeoutMaxMs) : 0);
  const ctl = new AbortController();
  let timer;
  const promise = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const err = sideEffects.has(method)
        ? new ToolError('BROWSER_OPERATION_UNCERTAIN', `${method} did not finish within ${ms / 1000} s`, HINTS.BROWSER_OPERATION_UNCERTAIN)
        : new ToolError('BROWSER_PAGE_UNAVAILABLE', `the tab did not answer within ${ms / 1000} s`, 'the page may be hung or crashed; reload it or open a new tab');
      ctl.abort(err);
      reject(err);
    }, ms);
  });
  return { promise, signal: ctl.signal, cancel: () => clearTimeout(timer), abort: (reason) => { clearTimeout(timer); ctl.abort(reason); } };
}

/** Tools that work while a tab's dialog blocks its page (they never wait on the page). */
const DIALOG_FREE = new Set(['browser_dialog', 'browser_tabs', 'browser_selected_tab', 'browser_select_tab', 'browser_tab_open', 'browser_tab_close',
  'browser_claim_tab', 'browser_release_tab', 'browser_mark_tab', 'browser_cleanup', 'browser_dispose_session', 'browser_status', 'browser_doctor',
  'browser_console', 'browser_network', 'browser_downloads', 'browser_download', 'browser_clipboard_read', 'browser_clipboard_write']);

/**
 * A call on a tab whose page is blocked by a dialog never waits for it: refused at once when
 * the dialog is already open; when one opens during the call, a side effect answers
 * `{ok: true, dialog}` (the page ran it: the dialog is its doing) and a read
 * BROWSER_DIALOG_OPEN; the abandoned rest of the call is aborted.
 */
async function guardDialog(method, params, start, limit, sideEffects) {
  const tab = await resolveTab(params.tabId).catch(() => null);
  if (!tab) return Promise.race([start(), limit.promise]); // the tool says what is wrong
  const blocked = (d) => new ToolError('BROWSER_DIALOG_OPEN', `a ${d.type} dialog is open on tab ${tab.id}`, HINTS.BROWSER_DIALOG_OPEN);
  const already = openDialog(tab.id);
  if (already) throw blocked(already);
  const opens = dialogOpens(tab.id);
  const run = start();
  run.catch(() => {}); // may settle after we answered
  try {
    const first = await Promise.race([run.then((r) => ({ r })), limit.promise, opens.promise.then((d) => ({ d }))]);
    if (!first.d) return first.r;
    limit.abort(blocked(first.d));
    if (!sideEffects.has(method)) throw blocked(first.d);
    return { ok: true, tab: tabInfo(tab), dialog: first.d };
  } finally {
    opens.cancel();
  }
}

async function call(method, params = {}) {
  const t0 = performance.now();
  let out;
  let limit;
  try {
    const { limits } = await ready;
    if (typeof method !== 'string' || !Object.hasOwn(TOOLS, method)) fail('INVALID_REQUEST', `unknown method ${String(method).slice(0, 60)}`, `use one of ${Object.keys(TOOLS).join(', ')}`);
    if (params === null || typeof params !== 'object' || Array.isArray(params)) fail('INVALID_REQUEST', 'params must be an object');
    const { params: known, sideEffects } = await catalogue;
    for (const k of Object.keys(params)) {
      if (!known.get(method)?.has(k)) fail('INVALID_REQUEST', `${method} has no parameter ${k.slice(0, 60)}`, `its parameters: ${[...(known.get(method) ?? [])].join(', ')}`);
    }
    limit = deadline(method, params, sideEffects, limits);
    const start = () => TOOLS[method](params, limit.signal);
    out = await (DIALOG_FREE.has(method) ? Promise.race([start(), limit.promise]) : guardDialog(method, params, start, limit, sideEffects));
  } catch (e) {
    out = { error: toWire(e) };
  } finally {
    limit?.cancel();
  }
  if (Object.hasOwn(TOOLS, method)) recordEvent(method, out.error, performance.now() - t0).catch(() => {});
  return out;
}

globalThis.pcc = { call, tools: Object.keys(TOOLS), catalogue: () => catalogue.then(({ c }) => c), memoryBytes: () => memoryBytes(), bridge: { configure: configureBridge, state: bridgeState } };
startBridge(call);
