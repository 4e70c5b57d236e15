// The page an action reached, read into its result: the core decides whether and how
// (src/session/follow.rs: after a navigation, the way the agent session last read a page),
// here it is run within its own limit.
// Owns: running that read. Must never: withhold, delay past its limit or fail the action's
// result (the action's outcome is known either way), or read a tab a dialog blocks.
import { ready } from '../services/core.js';
import { limits } from '../services/limits.js';
import { trackedRead } from './observe.js';

/**
 * `out` (method's result) with `snapshot`: the state of the page it reached, when the core
 * asks for one and it is read within `ms` (at most followReadMaxMs); else `out` as it is.
 * `session`: the call's agent session (`''`: none); `blocked(tabId)`: a dialog is open there.
 */
export async function withReachedState(method, out, session, blocked, ms) {
  if (!out || out.error) return out;
  const { collector } = await ready;
  let follow;
  try {
    follow = collector.followRead(method, out, session);
  } catch {
    return out;
  }
  const wait = Math.min(limits.followReadMaxMs, ms);
  if (!follow || !(wait > 0) || blocked(follow.tabId)) return out;
  const { tool, ...params } = follow;
  const ctl = new AbortController();
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const e = new Error('the page reached was not read in time');
      ctl.abort(e);
      reject(e);
    }, wait);
  });
  try {
    const { result } = await Promise.race([trackedRead(params, ctl.signal, tool), late]);
    return { ...out, snapshot: result };
  } catch {
    return out; // the model reads it itself
  } finally {
    clearTimeout(timer);
  }
}
