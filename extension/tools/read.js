// Read tools: browser_snapshot, browser_accessibility_snapshot, browser_find, browser_dom_cua,
// browser_extract, browser_console, browser_network. Any readable tab; no ownership needed.
// Owns: their parameter checks. Must never: act on the page.
import { ready } from '../services/core.js';
import { fail } from '../services/errors.js';
import { formFields } from '../read/evaluate.js';
import { assertReadable, callTab } from '../services/handles.js';
import { journal } from '../services/journal.js';
import { domCua, extractContent } from '../read/reads.js';
import { tabInfo } from './common.js';
import { limits } from '../services/limits.js';
import { readTab, trackedRead } from './observe.js';
import { beginEarly } from '../read/steps.js';

async function browserSnapshot(params, signal) {
  const { result, tab, timing } = await trackedRead(params, signal, 'snapshot');
  const out = { tab, snapshot: result };
  if (timing) out.timing = timing;
  return out;
}

/**
 * `browser_find`: the page's whole semantic view searched by text, RegExp (case-insensitive)
 * and/or role + name; matching lines with refs under a new snapshotId.
 */
async function browserFind(params, signal) {
  for (const k of ['text', 'regex', 'role', 'name']) {
    if (params[k] === '') fail('INVALID_REQUEST', `${k} must not be empty`);
  }
  if (![params.text, params.regex, params.role, params.name].some(Boolean)) fail('INVALID_REQUEST', 'find needs text, regex, role or name');
  let regex;
  if (params.regex) {
    if (params.regex.length > limits.regexMaxChars) fail('INVALID_REQUEST', `regex is longer than ${limits.regexMaxChars} characters`);
    try {
      regex = new RegExp(params.regex, 'i');
    } catch (e) {
      fail('INVALID_REQUEST', `invalid regex: ${String(e.message).slice(0, limits.causeChars)}`, 'pass a JavaScript regular expression source, without slashes');
    }
  }
  const asked = params.maxResults; // default and cap: budget.rs
  const maxResults = asked === undefined ? undefined : Math.min(asked, 1e9);
  const { result, tab } = await readTab(params, signal, (c, json, budget, handle) =>
    c.find(json, { text: params.text, role: params.role, name: params.name, exact: params.exact === true, maxResults, maxChars: budget.maxChars }, handle, regex));
  return { tab, ...result };
}

async function browserAccessibilitySnapshot(params, signal) {
  const { result, tab, timing } = await trackedRead(params, signal, 'ax');
  const out = { ...result, tab };
  if (timing) out.timing = timing;
  return out;
}

/** A read-only tool on a readable tab: `{tab, ...result}`. No ownership needed. */
async function readOnly(params, read) {
  const tab = await callTab(params);
  assertReadable(tab);
  const result = await read(tab, params);
  return { tab: tabInfo(tab), ...result };
}

async function journalRead(params, kind) {
  return readOnly(params, async (tab) => {
    await journal(tab.id).catch((e) => fail('BROWSER_PAGE_UNAVAILABLE', `cannot collect on tab ${tab.id}: ${String(e.message).slice(0, limits.causeChars)}`, 'close DevTools on this tab, or use a tab from browser_tab_open'));
    const { collector } = await ready;
    const opts = { maxEntries: params.maxEntries, maxChars: params.maxChars, filter: params.filter || undefined };
    if (kind === 'network') return collector.network(tab.id, opts);
    // What the page logged may quote a field's value: the sensitive ones are scrubbed.
    const fields = await formFields(tab.id, limits);
    if (fields) opts.fields = JSON.stringify(fields);
    return collector.console(tab.id, opts);
  });
}

/**
 * Reads begun as their call begins, before the call's consent check is done (read/steps.js
 * beginEarly: a first step that asks a document the tool's last read of the tab was answered
 * from is sent at once; the answer is used only once the check passed). `method → (params) →
 * {drop} | null`; a malformed call begins nothing (the tool says what is wrong).
 */
export const earlyAsks = {
  browser_snapshot: (params) => early(() => beginEarly(params, 'snapshot')),
  browser_accessibility_snapshot: (params) => early(() => beginEarly(params, 'ax')),
};
const early = (ask) => {
  try {
    return ask();
  } catch {
    return null;
  }
};

export const readTools = {
  browser_snapshot: browserSnapshot,
  browser_accessibility_snapshot: browserAccessibilitySnapshot,
  browser_find: browserFind,
  browser_dom_cua: (p, signal) => readOnly(p, (tab, q) => domCua(tab, q, signal)),
  browser_extract: (p, signal) => readOnly(p, (tab, q) => extractContent(tab, q, signal)),
  browser_console: (p) => journalRead(p, 'console'),
  browser_network: (p) => journalRead(p, 'network'),
};
