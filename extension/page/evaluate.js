// Page-side code of browser_evaluate (injected: `Runtime.callFunctionOn`; never imports,
// never closes over worker state). The form-field facts the scrubs use are the walk's
// (page/domwalk.js `fieldFacts`, resident beside the walk).
// Owns: the first bound of an evaluate result.
// Must never: call a page-overridable method of a value, or decide a value is sensitive
// (the core does).

/**
 * Injected (`Runtime.callFunctionOn` on the result): a bounded, JSON-safe description of
 * `this`. Cycles, DOM nodes, functions, symbols, BigInt, undefined, Map/Set, errors and
 * getters that throw are described, never thrown. Uses only intrinsics captured at entry
 * and never calls page-overridable methods of the value itself.
 */
export function serializeInPage(limits) {
  const { evalDepth, evalArrayItems, evalObjectFields, evalStringChars, evalTotalChars, evalErrorChars, evalKeyChars } = limits;
  // The page may have replaced any built-in method (Array.prototype.map, String.prototype.
  // slice, JSON, Object.keys…). Hot paths use syntax only (index loops, `+`, comparisons);
  // intrinsics still used are probed and have syntax-level fallbacks.
  const forInKeys = (o) => { const ks = []; for (const k in o) ks[ks.length] = k; return ks; };
  let keys = Object.keys;
  try { if (keys({ a: 1 })[0] !== 'a') keys = forInKeys; } catch { keys = forInKeys; }
  let isArray = Array.isArray;
  try { if (isArray([]) !== true || isArray({}) !== false) isArray = (x) => x instanceof Array; } catch { isArray = (x) => x instanceof Array; }
  const isView = (x) => { try { return ArrayBuffer.isView(x) === true; } catch { return false; } };
  const toStr = Object.prototype.toString;
  const iso = Date.prototype.toISOString;
  const safe = (f, fallback) => { try { return f(); } catch { return fallback; } };
  /** The first `n` characters of `s`, without String.prototype. */
  const head = (s, n) => { let out = ''; for (let i = 0; i < n && i < s.length; i++) out += s[i]; return out; };
  let budget = evalTotalChars;
  let truncated = false;
  const path = []; // the objects on the current path (depth ≤ evalDepth): cycles
  const onPath = (v) => { for (let i = 0; i < path.length; i++) if (path[i] === v) return true; return false; };
  const str = (s) => {
    const max = evalStringChars < budget ? evalStringChars : (budget > 0 ? budget : 0);
    if (s.length > max) {
      truncated = true;
      s = `${head(s, max)}…[${s.length - max} more chars]`;
    }
    budget -= s.length + 2;
    return s;
  };
  const describeNode = (n) => {
    // "[object HTMLHeadingElement]" → "[HTMLHeadingElement h1#id]"
    const kind = safe(() => { const t = toStr.call(n); let out = ''; for (let i = 8; i < t.length - 1; i++) out += t[i]; return out; }, 'Node');
    let d = `[${kind}`;
    if (n.nodeType === 1) {
      d += ` ${safe(() => `${n.localName}`, '?')}`;
      const id = safe(() => `${n.id}`, '');
      if (id) d += `#${head(id, 60)}`;
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
      case 'number': return v === v && v !== Infinity && v !== -Infinity ? v : `[number ${v}]`;
      case 'boolean': return v;
      case 'undefined': return '[undefined]';
      case 'bigint': return str(`[BigInt ${v}]`);
      case 'symbol': return str(safe(() => (v.description === undefined ? '[Symbol()]' : `[Symbol(${v.description})]`), '[Symbol]'));
      case 'function': return str(`[Function ${safe(() => `${v.name || 'anonymous'}`, 'anonymous')}]`);
      default: break;
    }
    if (v === null) return null;
    if (onPath(v)) return '[Circular]';
    if (typeof Node === 'function' && v instanceof Node) return describeNode(v);
    if (depth >= evalDepth) {
      truncated = true;
      return isArray(v) ? '[Array]' : '[Object]';
    }
    path[path.length] = v;
    try {
      if (v instanceof Date) return str(`[Date ${safe(() => iso.call(v), 'invalid')}]`);
      if (v instanceof Error) return str(`[${safe(() => `${v.name}: ${head(`${v.message}`, evalErrorChars)}`, 'Error')}]`);
      if (v instanceof Map || v instanceof Set) {
        const items = [];
        for (const e of v) {
          if (items.length >= evalArrayItems) { truncated = true; break; }
          items[items.length] = walk(e, depth + 1);
        }
        return { [`[${v instanceof Map ? 'Map' : 'Set'} ${v.size}]`]: items };
      }
      if (isArray(v) || isView(v)) {
        const n = v.length < evalArrayItems ? v.length : evalArrayItems;
        const out = [];
        for (let i = 0; i < n && budget > 0; i++) out[out.length] = walk(v[i], depth + 1);
        if (out.length < v.length) {
          truncated = true;
          out[out.length] = `[… ${v.length - out.length} more items]`;
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
        out[head(ks[i], evalKeyChars)] = walk(item, depth + 1);
      }
      if (i < ks.length) {
        truncated = true;
        out['…'] = `[${ks.length - i} more fields]`;
      }
      return out;
    } catch {
      return '[unreadable]';
    } finally {
      path.length -= 1;
    }
  };
  // `path` holds the current path only: shared (non-cyclic) references are shown each time.
  const value = walk(this, 0);
  const type = this === null ? 'null' : typeof this;
  // JSON.stringify may be overridden by the page: a minimal encoder of our own instead.
  const HEX = '0123456789abcdef';
  const CONTROL = '\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\u0008\u0009\u000a\u000b\u000c\u000d\u000e\u000f\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f';
  const escape = (c) => {
    if (c === '"' || c === '\\') return `\\${c}`;
    if (c === '\u2028') return '\\u2028';
    if (c === '\u2029') return '\\u2029';
    if (c < ' ') for (let j = 0; j < 32; j++) if (CONTROL[j] === c) return `\\u00${HEX[j >> 4]}${HEX[j & 15]}`;
    return c;
  };
  const enc = (x) => {
    if (x === null) return 'null';
    if (typeof x === 'string') { let o = '"'; for (let i = 0; i < x.length; i++) o += escape(x[i]); return `${o}"`; }
    if (typeof x === 'number' || typeof x === 'boolean') return `${x}`;
    let o = '';
    if (isArray(x)) {
      for (let i = 0; i < x.length; i++) o += (i ? ',' : '') + enc(x[i]);
      return `[${o}]`;
    }
    const ks = keys(x);
    for (let i = 0; i < ks.length; i++) o += `${i ? ',' : ''}${enc(ks[i])}:${enc(x[ks[i]])}`;
    return `{${o}}`;
  };
  return enc({ type, value, truncated });
}


