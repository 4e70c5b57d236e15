// Semantic targets (`{role, name, label, …}`) resolved by the core against the page now,
// and browser_locator (one fact of a target or ref).
// Owns: the target's shape and its not-found / ambiguous errors. Must never: guess among
// several matches without an index.
import { readFact } from '../act/actions.js';
import { ready, jsonText } from '../services/core.js';
import { sessions } from '../read/debugger.js';
import { fail } from '../services/errors.js';
import { formFields, scrubText } from '../read/evaluate.js';
import { assertReadable, handleOf, resolveTab } from '../services/handles.js';
import { tabInfo } from './common.js';
import { captureAx, refNode } from './observe.js';
import { limits } from '../services/limits.js';

const TARGET_KEYS = ['role', 'name', 'label', 'placeholder', 'text', 'testId', 'exact', 'index'];

/** A semantic `target` ({role, name, label, placeholder, text, testId, exact, index}), checked. */
export function targetOf(params) {
  const t = params.target;
  if (t === null || typeof t !== 'object' || Array.isArray(t)) fail('INVALID_REQUEST', 'target must be an object such as {"role": "button", "name": "Save"}');
  for (const k of Object.keys(t)) if (!TARGET_KEYS.includes(k)) fail('INVALID_REQUEST', `unknown target key ${k.slice(0, limits.echoChars)}`, `use ${TARGET_KEYS.join(', ')}`);
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
  return collector.find(jsonText(obs), { text: t.text, role: t.role, name: t.name ?? t.label, exact: t.exact === true, placeholder: t.placeholder, testId: t.testId, elements: true, maxResults: max }, handle);
}

/**
 * Resolves a semantic target against the current document (the core matches; elements the
 * page hides never count): `{snapshotId, ref}` of the `index`-th match, BROWSER_TARGET_NOT_FOUND,
 * or BROWSER_TARGET_AMBIGUOUS listing the candidates when several match and no index says which.
 */
export async function resolveTarget(tab, t, signal) {
  const f = await matchTarget(tab, t, 1e9, signal);
  const what = JSON.stringify(t).slice(0, limits.echoChars);
  if (!f.matches) fail('BROWSER_TARGET_NOT_FOUND', `no visible element matches ${what}`, 'check the role and name with browser_find or a snapshot');
  if (t.index === undefined && f.matches > 1) {
    const lines = (f.lines ?? []).slice(0, 5);
    fail('BROWSER_TARGET_AMBIGUOUS', `${f.matches} elements match ${what}: ${lines.join(' | ')}${f.matches > 5 ? ' | …' : ''}`, 'add index (0 is the first, in document order) or narrow the target');
  }
  const i = t.index ?? 0;
  if (i >= (f.refs?.length ?? 0)) fail('BROWSER_TARGET_NOT_FOUND', `index ${i} is past the ${f.matches} elements matching ${what}`);
  return { snapshotId: f.snapshotId, ref: f.refs[i] };
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
  await ready;
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

export const targetTools = { browser_locator: browserLocator };
