// The wasm collector, loaded once per worker life, and its instance renewed when idle after
// a large page (wasm linear memory never shrinks). Every module that needs the core awaits
// `ready` and reads `collector` from it at the start of each use; nothing else holds core
// state.
// Owns: the module instance and when it is renewed. Must never: renew while a call runs, or
// let a renewal lose refs, revisions or journals (the state crosses as text, `saved.rs`).
import init, { Collector, computedStyles, limits, memoryBytes, renewInstance, ToolSchemas } from '../wasm/pcc.js';
import { runtimeId, runtimeLoaded } from './handles.js';
import { hintsLoaded } from './errors.js';
import { setLimits } from './limits.js';

const encoder = new TextEncoder();

/** The loaded core. `collector` and `schemas` (every tool's parameter schemas, from
 * catalogue.json: src/tools/params.rs) live in the instance and are replaced when it is
 * renewed: never keep them beyond one call. */
const core = { collector: null, schemas: null, styles: null, limits: null, renewals: 0 };
// Fetched, not imported: a restarted service worker cannot load a JSON module it did not
// cache at install.
const catalogueText = fetch(chrome.runtime.getURL('catalogue.json')).then((r) => r.text());
let catalogueJson = null; // its text, once fetched (a renewed instance reads it again)
// Linear memory right after the last renewal: what the state itself takes. Another renewal
// waits until memory has grown to twice that (it could not give more back).
let floor = 0;

/** When this worker's core became ready (`readyMs`, since the worker started) and how long
 * fetching, compiling and instantiating the module took (`instantiateMs`): the bench's cold start. */
export const startup = {};

export const ready = (async () => {
  const t0 = performance.now();
  const [, , , saved, catalogue] = await Promise.all([init({ module_or_path: new URL('../wasm/pcc_bg.wasm', import.meta.url) }), hintsLoaded, runtimeLoaded, savedState(), catalogueText]);
  startup.instantiateMs = performance.now() - t0;
  const l = limits();
  setLimits(l);
  core.limits = l;
  const opened = saved && await unsealSaved(saved);
  let collector = null;
  if (opened) {
    try {
      collector = Collector.restore(opened);
      startup.restored = true;
    } catch (e) {
      console.error('pcc: the saved collector state could not be restored; refs of the last worker fail closed', e);
    }
  }
  catalogueJson = catalogue;
  const loaded = Object.assign(core, { collector: collector ?? new Collector(runtimeId), schemas: new ToolSchemas(catalogue), styles: computedStyles(), limits: l });
  startup.readyMs = performance.now();
  return loaded;
})();

// The core's state outlives the worker: written after the calls that may change it (one write
// for calls that end together), read when the next worker starts. Cache Storage, not
// chrome.storage: a write there hands the whole text to every storage listener. Keyed by the
// runtime (handles.js), which chrome.storage.session keeps for the browser session only: a
// state of an earlier session is never read, and is deleted.
// The state holds page text (held results, names, values), and Cache Storage is the profile's
// disk: it is written sealed with AES-GCM under a key kept only in chrome.storage.session
// (memory; gone with the browser), so what reaches the disk reads as noise without it.
const STATE_CACHE = 'pcc-core-state';
const stateUrl = () => `https://pcc.invalid/state/${runtimeId}`;
const KEY_ITEM = 'pcc.stateKey';
let stateKey = null; // Promise<CryptoKey>

/** The browser session's state key: the one kept in session storage, else a new one. */
function keyOfSession() {
  stateKey ??= (async () => {
    const { [KEY_ITEM]: kept } = await chrome.storage.session.get(KEY_ITEM);
    if (Array.isArray(kept) && kept.length === core.limits.stateKeyBytes) return crypto.subtle.importKey('raw', new Uint8Array(kept), 'AES-GCM', false, ['encrypt', 'decrypt']);
    const raw = crypto.getRandomValues(new Uint8Array(core.limits.stateKeyBytes));
    await chrome.storage.session.set({ [KEY_ITEM]: [...raw] });
    return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  })();
  stateKey.catch(() => { stateKey = null; });
  return stateKey;
}

/** `bytes` sealed: a fresh IV, then the ciphertext with its tag. */
async function seal(bytes) {
  const iv = crypto.getRandomValues(new Uint8Array(core.limits.stateIvBytes));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await keyOfSession(), bytes));
  const out = new Uint8Array(core.limits.stateIvBytes + sealed.length);
  out.set(iv);
  out.set(sealed, core.limits.stateIvBytes);
  return out;
}

/** What `seal` sealed, or a throw (another key, a torn or altered write). */
async function unseal(bytes) {
  const iv = bytes.subarray(0, core.limits.stateIvBytes);
  return new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, await keyOfSession(), bytes.subarray(core.limits.stateIvBytes)));
}

async function savedState() {
  try {
    await runtimeLoaded;
    const cache = await caches.open(STATE_CACHE);
    for (const req of await cache.keys()) if (req.url !== stateUrl()) await cache.delete(req);
    const hit = await cache.match(stateUrl());
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

/** The saved state's text, opened; null (and the entry gone) when it cannot be: a state
 * written before states were sealed, a torn write, another session's key. */
async function unsealSaved(sealed) {
  try {
    return await unseal(sealed);
  } catch {
    await caches.open(STATE_CACHE).then((c) => c.delete(stateUrl())).catch(() => {});
    return null;
  }
}

let saving = null;
let lastWrite = -Infinity;
/** The last write's cost: `{ms}` to save the state as text and seal it, its `chars` (the bench reads it). */
export const stateWrites = { count: 0, ms: 0, chars: 0 };
/** Writes the core's state once the calls running now have answered, at most once every
 * `stateWriteEveryMs` (a write asked meanwhile is made at the end of the interval). */
export function keepState() {
  const wait = Math.max(0, lastWrite + core.limits.stateWriteEveryMs - performance.now());
  saving ??= new Promise((r) => setTimeout(r, wait)).then(async () => {
    saving = null;
    lastWrite = performance.now();
    if (!core.collector) return;
    try {
      const t0 = performance.now();
      const text = core.collector.saveState();
      const sealed = await seal(encoder.encode(text));
      Object.assign(stateWrites, { count: stateWrites.count + 1, ms: performance.now() - t0, chars: text.length });
      await (await caches.open(STATE_CACHE)).put(stateUrl(), new Response(sealed));
    } catch (e) {
      console.error('pcc: the collector state could not be kept for the next worker', e);
    }
  });
}

let running = 0;
let idle = null;

/**
 * A tool call's `result` (a promise, or a value) counted as running until it settles: the
 * instance is renewed only once no call has run for `renewIdleMs` and linear memory is above
 * `renewAboveBytes` and twice what the last renewal kept (tests may shorten both limits
 * through `globalThis.pcc`).
 */
export function whileRunning(result) {
  const work = Promise.resolve(result);
  running += 1;
  clearTimeout(idle);
  const done = () => {
    running -= 1;
    if (running || !core.collector) return;
    const { renewAboveBytes = core.limits.renewAboveBytes, renewIdleMs = core.limits.renewIdleMs } = globalThis.pcc ?? {};
    if (memoryBytes() > Math.max(renewAboveBytes, 2 * floor)) idle = setTimeout(renew, renewIdleMs);
  };
  work.then(done, done);
  return work;
}

/** A fresh instance of the module holding the old one's state (refs, revisions, ids, journals). */
function renew() {
  if (running) return;
  let state;
  try {
    state = core.collector.saveState();
  } catch (e) {
    console.error('pcc: the collector state could not be saved; the instance is kept', e);
    return;
  }
  core.collector.free();
  core.schemas.free();
  renewInstance();
  try {
    core.collector = Collector.restore(encoder.encode(state));
  } catch (e) {
    // A bug (tests/saved_state.rs guards the round trip): start empty, refs fail closed.
    console.error('pcc: the collector state could not be restored', e);
    core.collector = new Collector(runtimeId);
  }
  core.schemas = new ToolSchemas(catalogueJson);
  core.renewals += 1;
  floor = memoryBytes();
}

const TOKEN = `pcc-raw-${crypto.randomUUID()}:`;
let spliced = null; // the texts of the RawJson values of the observation being written

/**
 * JSON text a page made (a walk's nodes, stringified in the page: one string crosses to the
 * worker instead of a structured clone of every node), kept as it is in an observation.
 */
export class RawJson {
  constructor(text) {
    this.text = text;
  }
  toJSON() {
    spliced.push(this.text);
    return `${TOKEN}${spliced.length - 1}`;
  }
}

/** An observation as the core takes it: its JSON text, RawJson spliced in (the core encodes
 * the string straight into its memory with the engine's TextEncoder: no byte copy here). */
export function jsonText(obs) {
  spliced = [];
  try {
    const json = JSON.stringify(obs);
    return spliced.length ? json.replace(new RegExp(`"${TOKEN}(\\d+)"`, 'g'), (_, i) => spliced[i]) : json;
  } finally {
    spliced = null;
  }
}
