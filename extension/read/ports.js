// Long-lived ports to the documents of a tab (issue #37 item 3): a read asks a document's
// content script (page/domwalk.js portListen) what it would otherwise inject, so that a repeat
// costs one message each way instead of a frame listing and an injection (each a browser
// round trip): the main frame's document of a tab that had one frame at its last read, or
// every frame's document of a tab whose last page state had several (src/session/read_plan.rs,
// page_state). A port is opened to one document by its id: Chrome delivers its messages to that
// document only, and closes it when the document goes (unloaded or put in the back-forward
// cache).
//
// Owns: the ports of a tab, one per document asked, their pending asks. Must never: answer
// for another document than the one asked for, or wait on a port that closed (its asks then
// answer null at once, and the read goes the injected way). (No time limit of its own: as an
// injection's, a walk's answer is waited for within the call's deadline, however large the page.)

const open = new Map(); // tabId → Map<documentId, {port, pending: Map<id, resolve>, next}>

/** A closed tab (background.js's one tabs.onRemoved listener calls every module's). */
export function forgetTab(tabId) {
  const ports = open.get(tabId);
  open.delete(tabId);
  for (const p of ports?.values() ?? []) close(p);
}

/** Closes port `p` and answers its pending asks with null. */
function close(p) {
  p.port.disconnect();
  unanswered(p);
}

/** Answers port `p`'s pending asks with null (it closed: they go the injected way). */
function unanswered(p) {
  for (const resolve of p.pending.values()) resolve(null);
  p.pending.clear();
}

/** The port to document `documentId` of tab `tabId`, opened when there is none. */
function portTo(tabId, documentId) {
  const ports = open.get(tabId) ?? new Map();
  const had = ports.get(documentId);
  if (had) return had;
  let port;
  try {
    port = chrome.tabs.connect(tabId, { documentId, name: 'pcc-read' });
  } catch {
    return null; // no such document any more
  }
  const p = { port, pending: new Map(), next: 0 };
  ports.set(documentId, p);
  open.set(tabId, ports);
  const drop = () => {
    if (ports.get(documentId) === p) ports.delete(documentId);
    if (!ports.size && open.get(tabId) === ports) open.delete(tabId);
  };
  port.onMessage.addListener((m) => {
    const resolve = p.pending.get(m?.id);
    p.pending.delete(m?.id);
    if (resolve && m.result) answers++;
    resolve?.(m.result ?? null);
  });
  port.onDisconnect.addListener(() => {
    void chrome.runtime.lastError;
    drop();
    unanswered(p);
  });
  p.drop = drop;
  return p;
}

let answers = 0;
/** How many asks a document answered through a port since the worker started
 * (`pcc.portAnswers()`: the tests hold a repeat read to this way). */
export const portAnswers = () => answers;

/**
 * `fn(...args)` of page/domwalk.js portListen (`answerThenWalk`, `check`) run in document
 * `documentId` of tab `tabId`, through its port (the message is sent before this returns): a
 * promise of its answer, or of null when the document cannot be asked (gone, or no listener
 * there: a page the content scripts did not reach).
 */
export function askDocument(tabId, documentId, fn, args) {
  const p = portTo(tabId, documentId);
  if (!p) return Promise.resolve(null);
  const id = ++p.next;
  const answered = new Promise((resolve) => p.pending.set(id, resolve));
  try {
    p.port.postMessage({ id, fn, args });
  } catch {
    p.pending.delete(id);
    p.drop();
    return Promise.resolve(null); // closed meanwhile
  }
  return answered;
}
