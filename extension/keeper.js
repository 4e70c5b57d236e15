// Offscreen document: wakes the service worker once a second. Chrome may stop the worker at
// any time (an update, a long task, DevTools); without this, nothing would start it again
// before the next alarm (30 s), and the Bridge link would stay down that long. A runtime
// message starts a stopped worker, which reconnects at once (bridge.js).
//
// Owns: that wake-up. Must never: hold state or talk to anything but the worker (the only
// extension API an offscreen document has is chrome.runtime).
setInterval(() => chrome.runtime.sendMessage({ type: 'pcc-wake' }).catch(() => {}), 1000);
