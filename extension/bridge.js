// The link to the local Bridge (SPEC §7): one WebSocket from the service worker to
// ws://127.0.0.1:<port>/extension. The Bridge sends `{type:"call", id, method, params}`;
// the worker answers `{type:"result", id, result}` with exactly what `pcc.call` returns.
// Glue only: the Bridge projects, this module ferries.
//
// The worker may be evicted at any moment: it reconnects with backoff while alive, an alarm
// wakes it to try again, and a message every 20 s keeps an open link (and the worker) alive.
// The port lives in chrome.storage.local (`bridgePort`), default 17373.
import { browserId, runtimeId } from './handles.js';

export const DEFAULT_PORT = 17373;
const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 5000;
const KEEPALIVE_MS = 20000;

let socket = null;
let backoff = BACKOFF_MIN_MS;
let retryTimer = null;
let handler = null;
const state = { connected: false, connectionId: undefined, connectionGeneration: undefined, port: undefined };

async function port() {
  const { bridgePort } = await chrome.storage.local.get('bridgePort');
  return Number.isInteger(bridgePort) ? bridgePort : DEFAULT_PORT;
}

function scheduleRetry() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, backoff);
  backoff = Math.min(backoff * 2, BACKOFF_MAX_MS);
}

async function connect() {
  clearTimeout(retryTimer);
  if (socket && socket.readyState <= WebSocket.OPEN) return;
  state.port = await port();
  let ws;
  try {
    ws = new WebSocket(`ws://127.0.0.1:${state.port}/extension`);
  } catch {
    scheduleRetry();
    return;
  }
  socket = ws;
  let keepalive;
  ws.onopen = async () => {
    ws.send(JSON.stringify({ type: 'hello', browserId: await browserId(), runtimeId, version: chrome.runtime.getManifest().version }));
    keepalive = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"ping"}'), KEEPALIVE_MS);
  };
  ws.onmessage = async (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    if (msg.type === 'welcome') {
      backoff = BACKOFF_MIN_MS;
      Object.assign(state, { connected: true, connectionId: msg.connectionId, connectionGeneration: msg.connectionGeneration });
    } else if (msg.type === 'call' && handler) {
      const result = await handler(msg.method, msg.params ?? {});
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'result', id: msg.id, result }));
    }
  };
  ws.onclose = () => {
    clearInterval(keepalive);
    if (socket !== ws) return; // replaced by configureBridge
    socket = null;
    Object.assign(state, { connected: false, connectionId: undefined, connectionGeneration: undefined });
    scheduleRetry();
  };
  ws.onerror = () => {}; // onclose follows
}

/** Starts the link; `call(method, params)` serves the Bridge's calls. */
export function startBridge(call) {
  handler = call;
  chrome.alarms?.create('pcc-bridge', { periodInMinutes: 0.5 });
  chrome.alarms?.onAlarm.addListener((a) => a.name === 'pcc-bridge' && connect());
  connect();
}

/** Points the link at another port (stored) and reconnects now. */
export async function configureBridge({ port: p }) {
  if (!Number.isInteger(p) || p < 1 || p > 65535) throw new Error('port must be an integer 1–65535');
  await chrome.storage.local.set({ bridgePort: p });
  backoff = BACKOFF_MIN_MS;
  socket?.close();
  socket = null;
  await connect();
}

export function bridgeState() {
  return { ...state };
}
