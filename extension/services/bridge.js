// The link to the local Bridge: one WebSocket from the service worker to
// ws://127.0.0.1:<port>/extension. The Bridge sends `{type:"call", id, method, params}`;
// the worker answers `{type:"result", id, result}` with exactly what `pcc.call` returns (the
// messages both ways: bridge/src/link.rs; here one handler per message type, `LINK`).
// Glue only: the Bridge projects, this module ferries.
//
// Pairing: both sides prove they hold the Bridge's per-install token (HMAC-SHA256 of a
// fresh nonce, bridge/src/pairing.rs); the worker serves no call before that, and never
// talks to a Bridge that cannot prove it (a process squatting the port). The port and token
// come from the native-messaging host (`pcc setup` registers `pcc` as it): asked when the
// worker has no token, or when the stored port and token reach no Bridge that proves them, it
// starts a Bridge if none runs and answers {port, token}. Pasting the token that `pcc pair`
// prints into the options page is the fallback where no host is registered.
//
// The worker may be evicted at any moment: it reconnects with backoff while alive, the
// keeper document (keeper.js) starts it again within a second (the alarm is the fallback),
// and a message every 20 s keeps an open link (and the worker) alive.
// Port and token live in chrome.storage.local (`bridgePort`, default 17373; `bridgeToken`).
import { setBridgePolicy } from './consent.js';
import { browserId, runtimeId, runtimeLoaded } from './handles.js';
import { limits, limitsLoaded } from './limits.js';

/** The native-messaging host `pcc setup` registers (bridge/src/setup.rs HOST_NAME). */
const NATIVE_HOST = 'com.pi_control_chrome.pcc';
/** The Bridge's per-install token (bridge/src/config.rs: 32 random bytes, hex). */
const TOKEN = /^[0-9a-f]{32,128}$/;

let socket = null;
let backoff = 0; // ms before the next attempt: budget.rs's bridgeBackoffMinMs, doubling to its max
let retryTimer = null;
let handler = null;
const state = { connected: false, connectionId: undefined, connectionGeneration: undefined, port: undefined, paired: false, problem: undefined, native: undefined };
let nativeAskedAt = -Infinity;

async function settings() {
  const { bridgePort, bridgeToken } = await chrome.storage.local.get(['bridgePort', 'bridgeToken']);
  return { port: Number.isInteger(bridgePort) ? bridgePort : limits.bridgeDefaultPort, token: typeof bridgeToken === 'string' ? bridgeToken : '' };
}

const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** HMAC-SHA256(token, "<role>:<nonce>") as hex, as bridge/src/pairing.rs computes it. */
async function proof(token, role, nonce) {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(token), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${role}:${nonce}`)));
}

/**
 * Asks the native host for the Bridge's port and token (it starts a Bridge when none runs), at
 * most once per longest backoff. True when the link should be tried again now; a changed port
 * or token is stored, and the storage listener reconnects.
 */
async function askNative() {
  if (!chrome.runtime.sendNativeMessage || Date.now() - nativeAskedAt < limits.bridgeBackoffMaxMs) return false;
  nativeAskedAt = Date.now();
  let answer;
  try {
    answer = await chrome.runtime.sendNativeMessage(NATIVE_HOST, { type: 'hello' });
  } catch (e) {
    state.native = String(e?.message ?? e); // e.g. not registered: `pcc setup`
    return false;
  }
  if (answer?.type !== 'bridge' || !Number.isInteger(answer.port) || typeof answer.token !== 'string' || !TOKEN.test(answer.token)) {
    state.native = answer?.error ? `${answer.error.code}: ${answer.error.message}` : 'an answer that is not {port, token}';
    return false;
  }
  state.native = 'ok';
  const { port, token } = await settings();
  if (port !== answer.port || token !== answer.token) {
    await chrome.storage.local.set({ bridgePort: answer.port, bridgeToken: answer.token });
    return false; // the storage listener reconnects
  }
  return answer.started === true;
}

function scheduleRetry() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, backoff);
  backoff = Math.min(backoff * 2, limits.bridgeBackoffMaxMs);
}

async function connect() {
  clearTimeout(retryTimer);
  await limitsLoaded;
  backoff ||= limits.bridgeBackoffMinMs;
  if (socket && socket.readyState <= WebSocket.OPEN) return;
  const { port, token } = await settings();
  state.port = port;
  state.paired = !!token;
  if (!token) {
    state.problem = 'not paired: run `pcc setup` once (or paste the token `pcc pair` prints into the extension options)';
    if (await askNative()) connect();
    return; // the native host's answer, the alarm or a stored token (storage listener) try again
  }
  let ws;
  try {
    ws = new WebSocket(`ws://127.0.0.1:${port}/extension`);
  } catch {
    scheduleRetry();
    return;
  }
  socket = ws;
  let keepalive;
  const nonce = hex(crypto.getRandomValues(new Uint8Array(16)));
  let authenticated = false;
  let proven = false; // the Bridge proved it holds our token
  ws.onopen = async () => {
    await runtimeLoaded;
    ws.send(JSON.stringify({ type: 'hello', browserId: await browserId(), runtimeId, version: chrome.runtime.getManifest().version, nonce }));
    keepalive = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"ping"}'), limits.bridgeKeepaliveMs);
  };
  // The Bridge's messages (bridge/src/link.rs ToExtension), one handler each.
  const LINK = {
    challenge: async (msg) => {
      if (typeof msg.proof !== 'string' || msg.proof !== (await proof(token, 'bridge', nonce))) {
        state.problem = `the program on port ${port} is not a Bridge holding this token`;
        ws.close();
        return;
      }
      proven = true;
      ws.send(JSON.stringify({ type: 'auth', proof: await proof(token, 'extension', String(msg.nonce)) }));
      authenticated = true;
    },
    welcome: async (msg) => {
      if (!authenticated) return;
      backoff = limits.bridgeBackoffMinMs;
      // The Bridge's configuration for unattended use (`pcc bridge --read-user-tabs …`).
      await setBridgePolicy(msg.policy ?? null);
      Object.assign(state, { connected: true, problem: undefined, connectionId: msg.connectionId, connectionGeneration: msg.connectionGeneration });
      for (const w of linkWaiters.splice(0)) w();
    },
    call: async (msg) => {
      if (!handler || !state.connected || socket !== ws) return;
      const result = await handler(msg.method, msg.params ?? {}, typeof msg.session === 'string' ? msg.session : undefined);
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'result', id: msg.id, result }));
    },
  };
  ws.onmessage = async (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (Object.hasOwn(LINK, msg?.type)) await LINK[msg.type](msg);
  };
  ws.onclose = () => {
    clearInterval(keepalive);
    if (socket !== ws) return; // replaced by configureBridge
    socket = null;
    void setBridgePolicy(null);
    Object.assign(state, { connected: false, connectionId: undefined, connectionGeneration: undefined });
    // No Bridge there, or not ours: the native host knows where ours is (and starts it).
    if (proven) scheduleRetry();
    else void askNative().then((now) => (now ? connect() : scheduleRetry()));
  };
  ws.onerror = () => {}; // onclose follows
}

/** The keeper (keeper.js) that restarts a stopped worker within a second (and reaches the clipboard). */
export async function keepWorker() {
  try {
    if ((await chrome.runtime.getContexts({ contextTypes: ['OFFSCREEN_DOCUMENT'] })).length) return;
    await chrome.offscreen.createDocument({ url: 'services/keeper.html', reasons: ['WORKERS', 'CLIPBOARD'], justification: 'restarts the service worker so that the local Bridge link is back within a second; reads and writes the clipboard for the agent' });
  } catch {
    // Another start created it meanwhile, or no offscreen API: the alarm still wakes us.
  }
}

const keeperPorts = new Set();

/** Starts the link; `call(method, params)` serves the Bridge's calls. */
export function startBridge(call) {
  handler = call;
  // The keeper's message is what starts a stopped worker; the listener only has to exist. The
  // popup asks how the link stands.
  // The keeper's port (keeper.js): held open for this worker's life; its closing is how the
  // keeper learns that the worker stopped.
  chrome.runtime.onConnect.addListener((port) => {
    if (port.name === 'pcc-keeper') keeperPorts.add(port) && port.onDisconnect.addListener(() => keeperPorts.delete(port));
  });
  chrome.runtime.onMessage.addListener((msg, _sender, reply) => {
    if (msg?.type !== 'pcc-link') return undefined;
    // The person opened the popup: a link that is down is tried again now (the native host
    // asked at once: `pcc setup` may just have run), and the answer waits for it a moment.
    if (state.connected) reply(linkSummary());
    else retryNow().then(() => reply(linkSummary()), () => reply(linkSummary()));
    return true;
  });
  keepWorker();
  chrome.alarms?.create('pcc-bridge', { periodInMinutes: 0.5 });
  chrome.alarms?.onAlarm.addListener((a) => a.name === 'pcc-bridge' && connect());
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && (changes.bridgePort || changes.bridgeToken)) reconnect();
  });
  connect();
}

/** Stores the port and/or the pairing token (from `pcc pair`) and reconnects now. */
export async function configureBridge({ port: p, token } = {}) {
  if (p !== undefined && (!Number.isInteger(p) || p < 1 || p > 65535)) throw new Error('port must be an integer 1–65535');
  if (token !== undefined && (typeof token !== 'string' || !TOKEN.test(token))) throw new Error('token must be the hex token printed by `pcc pair`');
  // The storage listener reconnects (the options page writes the same keys).
  await chrome.storage.local.set({ ...(p !== undefined ? { bridgePort: p } : {}), ...(token !== undefined ? { bridgeToken: token } : {}) });
}

/** A link that is down, tried again at once (the native host too); resolves once linked or
 * after `popupLinkWaitMs`. */
async function retryNow() {
  nativeAskedAt = 0;
  backoff = limits.bridgeBackoffMinMs;
  if (!socket || socket.readyState > WebSocket.OPEN) {
    socket = null;
    void connect();
  }
  if (state.connected) return;
  await new Promise((resolve) => {
    const timer = setTimeout(resolve, limits.popupLinkWaitMs);
    linkWaiters.push(() => { clearTimeout(timer); resolve(); });
  });
}
let linkWaiters = []; // retryNow's, resolved when the link comes up

function reconnect() {
  backoff = limits.bridgeBackoffMinMs;
  socket?.close();
  socket = null;
  connect();
}

export function bridgeState() {
  return { ...state };
}

/** One line for the person (the toolbar popup): linked, or what is missing and its fix. */
export function linkSummary() {
  if (state.connected) return { linked: true, text: 'Linked to the local Bridge: your agent reaches this browser.' };
  if (state.native && state.native !== 'ok' && /not found|forbidden/i.test(state.native)) {
    // The unpacked dist/extension carries the ID `pcc setup` allows by itself; a store install
    // has its own, named then.
    const setup = chrome.runtime.getManifest().key ? 'pcc setup' : `pcc setup --extension-id ${chrome.runtime.id}`;
    return { linked: false, text: `Not linked: pcc is not set up for this browser (${state.native}). On this computer run ./build.sh install, or ${setup}; a browser started with --user-data-dir DIR reads its own: ${setup} --user-data-dir DIR. Then open this popup again.` };
  }
  return { linked: false, text: `Not linked: ${state.problem ?? `no Bridge answers on port ${state.port ?? limits.bridgeDefaultPort}`}. pcc doctor names what is missing.` };
}
