// Offscreen document: starts the service worker again as soon as it stops. Chrome may stop
// the worker at any time (idle, memory pressure, a crash); without this, nothing would start
// it again before the next alarm (30 s), and the Bridge link would stay down that long. The
// keeper holds a port to the worker: the port closes when the worker stops, and connecting
// again starts it (bridge.js reconnects at once). A message once a second is the fallback.
//
// It is also where the clipboard is reached (an offscreen document is the only extension
// context with a DOM a worker can use): `{type: 'pcc-clipboard', op: 'read'}` answers
// `{ok, text}`, `{op: 'write', text}` answers `{ok}`, through a textarea and the copy/paste
// commands (clipboardRead/clipboardWrite permissions).
//
// Owns: that wake-up and the clipboard commands. Must never: hold state, keep clipboard text
// after answering, or talk to anything but the worker (the only extension API an offscreen
// document has is chrome.runtime).
setInterval(() => chrome.runtime.sendMessage({ type: 'pcc-wake' }).catch(() => {}), 1000);

let lastHold = 0;
function hold() {
  lastHold = Date.now();
  const port = chrome.runtime.connect({ name: 'pcc-keeper' });
  // (A worker that closes the port at once, e.g. while it is being updated, is asked again
  // at most every 200 ms.)
  port.onDisconnect.addListener(() => setTimeout(hold, Math.max(0, 200 - (Date.now() - lastHold))));
}
hold();

chrome.runtime.onMessage.addListener((msg, _sender, reply) => {
  if (msg?.type !== 'pcc-clipboard') return undefined;
  const area = document.createElement('textarea');
  document.body.append(area);
  try {
    if (msg.op === 'write') {
      area.value = String(msg.text);
      area.select();
      reply({ ok: document.execCommand('copy') });
    } else {
      area.focus();
      const ok = document.execCommand('paste');
      reply({ ok, text: area.value });
    }
  } catch (e) {
    reply({ ok: false, error: String(e?.message || e) });
  } finally {
    area.remove();
  }
  return undefined;
});
