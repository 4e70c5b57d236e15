// `browser_evaluate`: runs an expression in the page through CDP (`Runtime.evaluate`, which
// page CSP does not block) and serializes the result in the page with the core's limits, so
// a huge or cyclic value is bounded before it crosses; wasm then applies the same bounds
// again (`projectEvaluate`), scrubs the values of sensitive form fields and reports
// `truncated`.
import { projectEvaluate } from '../wasm/pcc.js';
import { ready } from '../services/core.js';
import { fail } from '../services/errors.js';
import { serializeInPage } from '../page/evaluate.js';
import { fieldFacts } from './walker.js';
import { inject } from './inject.js';
import { limits } from '../services/limits.js';

/** fieldFacts' arguments (the core's caps). */
export const factArgs = () => [limits.evalFormFields, limits.evalSecretChars, limits.evalLabelChars];

/** The form fields of every frame of the tab, or `null` when no frame could be read
 * (`boxes`: the top frame's with their boxes, fieldFacts). */
export async function formFields(tabId, limits, boxes = false) {
  let results;
  try {
    results = await inject(tabId, 'all', fieldFacts, [...factArgs(), 0, boxes]);
  } catch {
    return null;
  }
  // A frame with more filled fields than one answer holds is asked for the rest, answer by
  // answer: every value is checked, however many there are.
  const fields = results.flatMap((r) => r.result?.fields || []);
  for (const r of results) {
    let more = r.result;
    while (more?.overflow && Number.isInteger(more.next)) {
      const [again] = await inject(tabId, [r.frameId], fieldFacts, [...factArgs(), more.next, boxes]).catch(() => [null]);
      // A frame that went away meanwhile has nothing left to show; one that cannot answer
      // fails the check closed (the caller answers with an error, never an unchecked result).
      if (!again) fail('BROWSER_SCRIPT_FAILED', 'a frame stopped answering while its form fields were read', 'try again');
      more = again.result;
      fields.push(...(more?.fields || []));
    }
  }
  return fields;
}

/**
 * Evaluates `expression` in the tab's main frame; returns the bounded projection with the
 * values of sensitive fields (read before and after the expression ran) scrubbed.
 */
/** Page-derived text through the evaluate scrub against the page's sensitive fields (`formFields`). */
export function scrubText(text, fields) {
  return projectEvaluate(JSON.stringify({ type: 'string', value: text, truncated: false }), JSON.stringify(fields)).value;
}

export async function evaluateIn(main, tabId, params, timeout) {
  await ready;
  const before = await formFields(tabId, limits);
  let res;
  try {
    res = await main.send('Runtime.evaluate', { expression: params.expression, awaitPromise: params.awaitPromise !== false, returnByValue: false, timeout, userGesture: true });
  } catch (e) {
    fail('BROWSER_SCRIPT_FAILED', `evaluate failed: ${String(e.message).slice(0, limits.causeChars)}`);
  }
  if (res.exceptionDetails) {
    // The message is the page's and may quote a value (`throw new Error(pw.value)`,
    // `JSON.parse(pw.value)`): scrubbed like a result.
    const d = res.exceptionDetails;
    const text = String(d.exception?.description || d.text || 'exception').split('\n')[0].slice(0, limits.causeChars);
    const after = await formFields(tabId, limits);
    if (!before && !after) fail('BROWSER_SCRIPT_FAILED', 'the expression threw (its message could not be checked for sensitive values)', 'fix the expression; it runs in the page as a script');
    const clean = scrubText(text, [...(before || []), ...(after || [])]);
    fail('BROWSER_SCRIPT_FAILED', `the expression threw: ${clean}`, 'fix the expression; it runs in the page as a script');
  }
  const r = res.result || {};
  let json;
  if (r.objectId) {
    const out = await main.send('Runtime.callFunctionOn', {
      objectId: r.objectId, functionDeclaration: serializeInPage.toString(), arguments: [{ value: limits }], returnByValue: true, timeout,
    }).catch((e) => fail('BROWSER_SCRIPT_FAILED', `could not read the result: ${String(e.message).slice(0, limits.causeChars)}`));
    main.send('Runtime.releaseObject', { objectId: r.objectId }).catch(() => {});
    if (out.exceptionDetails || typeof out.result?.value !== 'string') fail('BROWSER_SCRIPT_FAILED', 'the result could not be serialized');
    json = out.result.value;
  } else {
    // Primitives arrive by value; the core bounds them.
    let value = r.value;
    if (r.type === 'undefined') value = '[undefined]';
    else if (r.unserializableValue) value = `[${r.type} ${r.unserializableValue}]`;
    else if (r.type === 'symbol') value = `[${r.description || 'Symbol()'}]`;
    json = JSON.stringify({ type: r.type, value: value ?? null, truncated: false });
  }
  const after = await formFields(tabId, limits);
  // Which values are secret cannot be known without reading the fields: fail closed.
  if (!before && !after) fail('BROWSER_SCRIPT_FAILED', 'could not check the result for sensitive values', 'retry once the page has loaded');
  return projectEvaluate(json, JSON.stringify([...(before || []), ...(after || [])]));
}
