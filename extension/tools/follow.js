// The page an action reached, read into its result: the core decides whether and how
// (src/session/follow.rs: after a navigation, the way the agent session last read a page),
// here it is run within its own limit.
// Owns: running that read. Must never: withhold, delay past its limit or fail the action's
// result (the action's outcome is known either way), or wait on a tab a dialog blocks.
import { ready } from '../services/core.js';
import { limits } from '../services/limits.js';
import { trackedRead } from './observe.js';

/**
 * `out` (method's result) with `snapshot`: the state of the page it reached, when the core
 * asks for one and it is read within `ms` (at most followReadMaxMs); else `out` as it is, or
 * with `dialog` when the page reached opened one meanwhile (the read is abandoned at once).
 * `session`: the call's agent session (`''`: none); `dialogs`: act/dialogs.js (`openDialog`,
 * `dialogOpens`).
 */
export async function withReachedState(method, out, session, dialogs, ms) {
  if (!out || out.error) return out;
  const { collector } = await ready;
  let follow;
  try {
    follow = collector.followRead(method, factsOf(out), session);
  } catch {
    return out;
  }
  const wait = Math.min(limits.followReadMaxMs, ms);
  if (!follow || !(wait > 0) || dialogs.openDialog(follow.tabId)) return out;
  const { tool, ...params } = follow;
  const ctl = new AbortController();
  let timer;
  const late = new Promise((resolve) => {
    timer = setTimeout(() => resolve({}), wait);
  });
  const opens = dialogs.dialogOpens(follow.tabId);
  try {
    const read = trackedRead(params, ctl.signal, tool).then(({ result }) => ({ snapshot: result }), () => ({}));
    const got = await Promise.race([read, late, opens.promise.then((d) => ({ dialog: d }))]);
    return { ...out, ...got }; // without a state, the model reads it itself
  } finally {
    clearTimeout(timer);
    opens.cancel();
    ctl.abort(new Error('the read of the page reached is over'));
  }
}

/** What the core's decision looks at (the fields session/follow.rs names), not the whole
 * result: a read's result can be large, and crossing into wasm costs by the byte. */
function factsOf(out) {
  const facts = {};
  for (const k of ['ok', 'navigated', 'routed', 'navigating', 'snapshotId']) if (out[k] !== undefined) facts[k] = out[k];
  for (const k of ['error', 'dialog', 'snapshot']) if (out[k] !== undefined) facts[k] = true;
  if (out.tab) facts.tab = { id: out.tab.id, ...(out.tab.url !== undefined ? { url: out.tab.url } : {}) };
  return facts;
}
