// Console and network collection: CDP events of journaled tabs go straight into the wasm
// ring buffers (`consoleEvent`, `requestEvent`, …), which cap every entry and the totals.
// Only event fields the core keeps are passed; bodies are never fetched. Console text is
// cut here as well, so a 10 MB log line does not even cross into wasm.
import { ready } from './core.js';
import { sessions, enableRuntime } from '../read/debugger.js';
import { limits } from './limits.js';

const journaled = new Set(); // tabIds with Runtime + Network enabled
/** tabId → (requestId → Date.now() at start) of the page's fetch/XHR requests in flight. */
const inflight = new Map();
const PAGE_REQUESTS = new Set(['XHR', 'Fetch']);

function settled(tabId, requestId) {
  inflight.get(tabId)?.delete(requestId);
}

/** How many of the tab's fetch/XHR requests that started at or after `since` are in flight. */
export function requestsSince(tabId, since) {
  let n = 0;
  for (const t of inflight.get(tabId)?.values() ?? []) if (t >= since) n++;
  return n;
}

chrome.debugger.onDetach.addListener((source) => { journaled.delete(source.tabId); inflight.delete(source.tabId); });
/** A closed tab (background.js's one tabs.onRemoved listener calls every module's). */
export function forgetTab(tabId) {
  inflight.delete(tabId);
}

function argText(a, cap) {
  if (!a) return '';
  if (a.type === 'string') return String(a.value).slice(0, cap);
  if (a.value !== undefined && a.type !== 'object') return String(a.value).slice(0, cap);
  if (a.unserializableValue) return a.unserializableValue;
  return String(a.description ?? a.type ?? '').slice(0, cap);
}

chrome.debugger.onEvent.addListener(async (source, method, params) => {
  const tabId = source.tabId;
  if (!journaled.has(tabId)) return;
  const { collector } = await ready;
  const cap = limits.journalEntryChars;
  switch (method) {
    case 'Runtime.consoleAPICalled': {
      let text = '';
      for (const a of params.args || []) {
        if (text.length >= cap) break;
        text += (text ? ' ' : '') + argText(a, cap);
      }
      const f = params.stackTrace?.callFrames?.[0];
      collector.consoleEvent(tabId, String(params.type || 'log'), text, f ? `${String(f.url).slice(0, limits.journalSourceChars)}:${f.lineNumber + 1}` : '');
      break;
    }
    case 'Runtime.exceptionThrown': {
      const d = params.exceptionDetails || {};
      const text = String(d.exception?.description || d.text || 'exception').slice(0, cap);
      collector.consoleEvent(tabId, 'error', text, d.url ? `${String(d.url).slice(0, limits.journalSourceChars)}:${(d.lineNumber ?? 0) + 1}` : '');
      break;
    }
    case 'Network.requestWillBeSent':
      if (PAGE_REQUESTS.has(params.type)) {
        if (!inflight.has(tabId)) inflight.set(tabId, new Map());
        const m = inflight.get(tabId);
        if (m.size < limits.journalPendingRequests) m.set(params.requestId, Date.now());
      }
      collector.requestEvent(tabId, params.requestId, params.request?.method || '', String(params.request?.url || '').slice(0, limits.journalRequestUrlChars), params.type || '');
      break;
    case 'Network.responseReceived':
      collector.responseEvent(tabId, params.requestId, params.response?.status ?? 0, params.response?.mimeType || '');
      break;
    case 'Network.loadingFinished':
      settled(tabId, params.requestId);
      collector.finishedEvent(tabId, params.requestId, params.encodedDataLength ?? -1, '');
      break;
    case 'Network.loadingFailed':
      settled(tabId, params.requestId);
      collector.finishedEvent(tabId, params.requestId, -1, params.errorText || 'failed');
      break;
    default:
      break;
  }
});

/**
 * Starts collecting on a tab (idempotent). `Runtime.enable` also replays the console
 * messages the page logged before (Chromium keeps the recent ones), so a first
 * browser_console call still sees them; network requests are seen from here on.
 */
export async function journal(tabId) {
  if (journaled.has(tabId)) return;
  const [main] = await sessions(tabId);
  journaled.add(tabId);
  try {
    await enableRuntime(tabId, main, true); // replays what the page logged before
    await main.send('Network.enable', { maxTotalBufferSize: limits.networkBufferBytes, maxResourceBufferSize: limits.networkResourceBufferBytes });
  } catch (e) {
    journaled.delete(tabId);
    throw e;
  }
}

export function isJournaled(tabId) {
  return journaled.has(tabId);
}
