// What every tool handler shares: the model-facing tab descriptor, the integer and timeout
// checks (against budget.rs's limits), the tab a side effect may act on.
// Owns: those checks. Must never: read or act on a page.
import { sessions } from '../read/debugger.js';
import { assertReadable, callTab, handleOf } from '../services/handles.js';
import { assertMayAct } from '../services/ownership.js';
import { fail } from '../services/errors.js';
import { projectTab } from '../wasm/pcc.js';
import { limits } from '../services/limits.js';

/** The model-facing tab descriptor (wasm projection: capped, no favicon) plus its handle. */
export function tabInfo(tab, handle) {
  const t = projectTab(JSON.stringify(tab));
  if (handle) t.handle = handle;
  return t;
}

/** Timeouts of waiting tools: `timeoutDefaultMs` unless given, at most `timeoutMaxMs`. */
export function timeoutOf(params) {
  return Math.min(params.timeout ?? limits.timeoutDefaultMs, limits.timeoutMaxMs);
}

/**
 * The tab of a side effect that needs no debugger of its own (navigation, tab selection,
 * marks; `readable`: a page the extension may read, for navigation, `crashedOk` even when its
 * renderer crashed): refused unless agent-owned, or claimed with its handle (the handle's fence is
 * checked; a tab the debugger cannot attach to has none to check against).
 */
export async function tabToAct(params, { readable = false, crashedOk = false } = {}) {
  const tab = await callTab(params);
  if (readable) assertReadable(tab, crashedOk);
  const all = await sessions(tab.id).catch(() => null);
  await assertMayAct(tab, params, await handleOf(tab, all?.[0]).catch(() => ({})));
  return tab;
}
