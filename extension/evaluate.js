// `browser_evaluate`: runs an expression in the page through CDP (`Runtime.evaluate`, which
// page CSP does not block) and serializes the result in the page with the core's limits, so
// a huge or cyclic value is bounded before it crosses; wasm then applies the same bounds
// again (`projectEvaluate`) and reports `truncated`.
import { projectEvaluate } from './wasm/pcc.js';
import { ready } from './core.js';
import { fail } from './errors.js';

/**
 * Injected (`Runtime.callFunctionOn` on the result): a bounded, JSON-safe description of
 * `this`. Cycles, DOM nodes, functions, symbols, BigInt, undefined, Map/Set, errors and
 * getters that throw are described, never thrown. Uses only intrinsics captured at entry
 * and never calls page-overridable methods of the value itself.
 */
export function serializeInPage(limits) {
  const { evalDepth, evalArrayItems, evalObjectFields, evalStringChars, evalTotalChars } = limits;
  // Intrinsics as found; when the page replaced them (they fail a probe), syntax-level
  // fallbacks that no page script can override.
  const forInKeys = (o) => { const ks = []; for (const k in o) ks.push(k); return ks; };
  let keys = Object.keys;
  try { if (keys({ a: 1 })[0] !== 'a') keys = forInKeys; } catch { keys = forInKeys; }
  let isArray = Array.isArray;
  try { if (isArray([]) !== true || isArray({}) !== false) isArray = (x) => x instanceof Array; } catch { isArray = (x) => x instanceof Array; }
  const toStr = Object.prototype.toString;
  const iso = Date.prototype.toISOString;
  let budget = evalTotalChars;
  let truncated = false;
  const seen = new WeakSet();
  const str = (s) => {
    const max = Math.min(evalStringChars, Math.max(budget, 0));
    if (s.length > max) {
      truncated = true;
      s = `${s.slice(0, max)}…[${s.length - max} more chars]`;
    }
    budget -= s.length + 2;
    return s;
  };
  const describeNode = (n) => {
    let d = `[${toStr.call(n).slice(8, -1)}`;
    if (n.nodeType === 1) {
      d += ` ${n.localName}`;
      if (n.id) d += `#${String(n.id).slice(0, 60)}`;
    }
    return `${d}]`;
  };
  const walk = (v, depth) => {
    if (budget <= 0) {
      truncated = true;
      return '[budget exhausted]';
    }
    switch (typeof v) {
      case 'string': return str(v);
      case 'number': return Number.isFinite(v) ? v : `[number ${String(v)}]`;
      case 'boolean': return v;
      case 'undefined': return '[undefined]';
      case 'bigint': return str(`[BigInt ${v}]`);
      case 'symbol': return str(`[${String(v.description === undefined ? 'Symbol()' : `Symbol(${v.description})`)}]`);
      case 'function': return str(`[Function ${v.name || 'anonymous'}]`);
      default: break;
    }
    if (v === null) return null;
    if (seen.has(v)) return '[Circular]';
    if (typeof Node === 'function' && v instanceof Node) return describeNode(v);
    if (depth >= evalDepth) {
      truncated = true;
      return isArray(v) ? '[Array]' : '[Object]';
    }
    seen.add(v);
    try {
      if (v instanceof Date) return str(`[Date ${Number.isNaN(v.getTime()) ? 'invalid' : iso.call(v)}]`);
      if (v instanceof Error) return str(`[${v.name}: ${String(v.message).slice(0, 500)}]`);
      if (v instanceof Map || v instanceof Set) {
        const items = [];
        for (const e of v) {
          if (items.length >= evalArrayItems) { truncated = true; break; }
          items.push(walk(e, depth + 1));
        }
        return { [`[${v instanceof Map ? 'Map' : 'Set'} ${v.size}]`]: items };
      }
      if (isArray(v) || ArrayBuffer.isView(v)) {
        const n = Math.min(v.length, evalArrayItems);
        const out = [];
        for (let i = 0; i < n && budget > 0; i++) out.push(walk(v[i], depth + 1));
        if (out.length < v.length) {
          truncated = true;
          out.push(`[… ${v.length - out.length} more items]`);
        }
        return out;
      }
      const out = {};
      const ks = keys(v);
      let i = 0;
      for (; i < ks.length && i < evalObjectFields && budget > 0; i++) {
        let item;
        try {
          item = v[ks[i]];
        } catch (e) {
          item = `[getter threw]`;
        }
        budget -= ks[i].length + 4;
        out[ks[i].slice(0, 200)] = walk(item, depth + 1);
      }
      if (i < ks.length) {
        truncated = true;
        out['…'] = `[${ks.length - i} more fields]`;
      }
      return out;
    } catch {
      return '[unreadable]';
    } finally {
      seen.delete(v);
    }
  };
  // `seen` holds the current path only: shared (non-cyclic) references are shown each time.
  const value = walk(this, 0);
  const type = this === null ? 'null' : typeof this;
  // JSON.stringify may be overridden by the page: a minimal encoder of our own instead.
  const enc = (x) => {
    if (x === null) return 'null';
    if (typeof x === 'string') return `"${x.replace(/[\\"\u0000-\u001f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
    if (typeof x === 'number' || typeof x === 'boolean') return String(x);
    if (isArray(x)) return `[${x.map(enc).join(',')}]`;
    return `{${keys(x).map((k) => `${enc(k)}:${enc(x[k])}`).join(',')}}`;
  };
  return enc({ type, value, truncated });
}

/** Evaluates `expression` in the tab's main frame; returns the bounded projection. */
export async function evaluateIn(main, params, timeout) {
  const { limits } = await ready;
  let res;
  try {
    res = await main.send('Runtime.evaluate', { expression: params.expression, awaitPromise: params.awaitPromise !== false, returnByValue: false, timeout, userGesture: true });
  } catch (e) {
    fail('BROWSER_SCRIPT_FAILED', `evaluate failed: ${String(e.message).slice(0, 160)}`);
  }
  if (res.exceptionDetails) {
    const d = res.exceptionDetails;
    const text = d.exception?.description || d.text || 'exception';
    fail('BROWSER_SCRIPT_FAILED', `the expression threw: ${String(text).split('\n')[0].slice(0, 200)}`, 'fix the expression; it runs in the page as a script');
  }
  const r = res.result || {};
  let json;
  if (r.objectId) {
    const out = await main.send('Runtime.callFunctionOn', {
      objectId: r.objectId, functionDeclaration: serializeInPage.toString(), arguments: [{ value: limits }], returnByValue: true, timeout,
    }).catch((e) => fail('BROWSER_SCRIPT_FAILED', `could not read the result: ${String(e.message).slice(0, 160)}`));
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
  return projectEvaluate(json);
}
