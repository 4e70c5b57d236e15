// Every result's last scrub (issue #40): before any tool's answer leaves the worker, the
// secrets of its tab — the values of the sensitive form fields read now, in every frame, and
// the sensitive values seen earlier in this browser session (a password sent with a GET form
// is gone from its field but sits in the URL, the network journal and the page's log) — are
// redacted from it wherever they stand, by the core (src/tools/scrub.rs: long values
// anywhere, short ones only where they stand for their field, secret-named parameters and PEM
// bodies always).
// Owns: the remembered sensitive values (chrome.storage.session: gone with the browser) and
// which fields a result is scrubbed against. Must never: read the fields of a tab the agent
// may not read, or let a result out unscrubbed when the scrub itself fails.
import { scrubResult, secretValues } from '../wasm/pcc.js';
import { formFields } from '../read/evaluate.js';
import { openDialog } from '../act/dialogs.js';
import { answerOf, LATE } from '../read/inject.js';
import { limits } from './limits.js';

const KEY = 'pcc.secrets';
let remembered = null; // string[], newest last

async function load() {
  if (!remembered) {
    const { [KEY]: saved } = await chrome.storage.session.get(KEY);
    remembered = Array.isArray(saved) ? saved.filter((s) => typeof s === 'string') : [];
  }
  return remembered;
}

/** The sensitive values this browser session saw (what a screenshot must not show either). */
export const rememberedSecrets = async () => [...(await load())];

/** Remembers the sensitive values among form-field facts (the core decides which). */
async function remember(fields) {
  const values = secretValues(JSON.stringify(fields));
  if (!values.length) return;
  const list = await load();
  let changed = false;
  for (const v of values) {
    if (list.includes(v)) continue;
    list.push(v);
    changed = true;
  }
  if (!changed) return;
  list.splice(0, Math.max(0, list.length - limits.secretsRemembered));
  await chrome.storage.session.set({ [KEY]: list });
}

/** The fields read last per tab, with the page state they were read in: a read whose every
 * frame's tracker proved the page the same (field values included) reuses them. */
const read = new Map(); // tabId → {state, fields}

/** The form-field facts of tab `tabId` now (`t0`: when the call began): those this call's own
 * read gathered in the page state it took (the agent could read the tab then; they can only
 * scrub more), else, when `readable()` says the agent may read the tab, read now. A page
 * blocked by its dialog answers no script: the facts read last stand in (and the remembered
 * values). A page with more filled fields than can be checked fails the scrub (formFields):
 * closed. */
async function fieldsOf(tabId, t0, readable) {
  const state = stateSince(tabId, t0);
  const held = read.get(tabId);
  if (state && held?.state === state) return held.fields;
  if (!(await readable())) return [];
  if (openDialog(tabId)) return held?.fields ?? [];
  const asked = await answerOf(formFields(tabId, limits));
  if (asked === LATE) return held?.fields ?? [];
  const fields = asked ?? [];
  // (The state, taken before the fields were read, names them only if nothing moved since:
  // the next read takes a newer state and reads them again if anything did.)
  noteFacts(tabId, state, fields);
  return fields;
}

const states = new Map(); // tabId → {text, at}: the newest page state the read plan formed

/** A page state the core's read plan formed of tab `tabId` (read/steps.js), now. */
export function noteState(tabId, text) {
  states.delete(tabId);
  states.set(tabId, { text, at: performance.now() });
  if (states.size > limits.readKeysKept) states.delete(states.keys().next().value);
}

/** The text of tab `tabId`'s page state when one was formed at or after `t0`, else null:
 * what is on the page now, as every frame's tracker answered (field values too). */
function stateSince(tabId, t0) {
  const s = states.get(tabId);
  return s && s.at >= t0 ? s.text : null;
}

/** The form-field facts a read's own injection gathered in page state `state` of tab `tabId`
 * (tools/observe.js): the result's scrub takes them instead of asking the page again. */
export function noteFacts(tabId, state, fields) {
  read.set(tabId, { state, fields });
  if (read.size > limits.readKeysKept) read.delete(read.keys().next().value);
  if (fields.length) remember(fields).catch(() => {});
}

/** A closed tab (background.js's one tabs.onRemoved listener calls every module's). */
export function forgetTab(tabId) {
  read.delete(tabId);
  states.delete(tabId);
}

/** The core's scrub of a result's JSON against facts' JSON, the last one kept: a repeat that
 * answers exactly what the call before it did, against the same facts (an unchanged page read
 * again), gets the same scrub back without the core reading it again. */
let last = { result: '', facts: '', out: '' };
function scrubbed(result, facts) {
  if (result !== last.result || facts !== last.facts) last = { result, facts, out: scrubResult(result, facts) };
  return last.out;
}

/**
 * `result` scrubbed of the secrets of tab `tabId` (a promise; its fields when `readable()`
 * resolves true, or when this call's read gathered them) and of every remembered one (`t0`:
 * when the call began). A scrub that fails answers with an error: never the raw result.
 */
export async function scrubbedResult(result, tabId, readable, t0) {
  try {
    const id = await tabId;
    const fields = Number.isInteger(id) ? await fieldsOf(id, t0, readable) : [];
    const facts = [...fields, ...(await load()).map((value) => ({ value }))];
    return JSON.parse(scrubbed(JSON.stringify(result), JSON.stringify(facts)));
  } catch {
    // (An error keeps its code and hint; its message, which may quote the page, does not.)
    const e = result?.error;
    return { error: { code: e?.code ?? 'BROWSER_SCRIPT_FAILED', message: 'the result could not be checked for secrets', hint: e?.hint ?? 'read what you need with another tool' } };
  }
}
