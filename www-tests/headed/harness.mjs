// The headed track's harness: a real X display (Xvfb) with a window manager (openbox), a
// headed Debian Chromium with the extension loaded, and nothing attached to any page.
//
// Owns: starting and stopping the display, the window manager and the browser; a CDP link to
// the extension's service worker only (`call`, `inWorker`); the person's side (real X input
// with xdotool into whatever window has the X focus).
// Must never: attach to a page target (Playwright's page attach emulates focus and visibility,
// which is what this track exists to see without), or read a page fact other than through
// the extension's own APIs (`chrome.scripting`, `chrome.tabs`, `chrome.windows`).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const here = path.dirname(fileURLToPath(import.meta.url));
export const extensionDir = process.env.PCC_EXTENSION_DIR || path.join(here, '..', '..', 'extension');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, test, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await test();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A free X display number (no lock file, no socket). */
function freeDisplay() {
  for (let n = 90; n < 200; n++) {
    if (!fs.existsSync(`/tmp/.X${n}-lock`) && !fs.existsSync(`/tmp/.X11-unix/X${n}`)) return n;
  }
  throw new Error('no free X display');
}

/** Xvfb and openbox on a display of their own; `stop()` ends both. */
export async function startDisplay({ width = 1600, height = 1000 } = {}) {
  const n = freeDisplay();
  const display = `:${n}`;
  const xvfb = spawn('Xvfb', [display, '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp'], { stdio: 'ignore' });
  const env = { ...process.env, DISPLAY: display };
  const xprop = (...a) => { try { return execFileSync('xprop', ['-root', ...a], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }); } catch { return ''; } };
  // The socket appears before the server takes connections: wait until a client gets in.
  await until('Xvfb', () => xprop('_NET_SUPPORTING_WM_CHECK') !== '' || /no such atom|not found/.test(xprop('CUT_BUFFER0')) || xprop().length > 0);
  // openbox started while the server still sets up can exit at once: started again until it
  // owns the root window (_NET_SUPPORTING_WM_CHECK).
  let wm;
  const startWm = () => { wm = spawn('openbox', ['--sm-disable'], { env, stdio: 'ignore' }); };
  startWm();
  try {
    await until('openbox', () => {
      if (wm.exitCode !== null || wm.signalCode) startWm();
      return /window id/.test(xprop('_NET_SUPPORTING_WM_CHECK'));
    });
  } catch (e) {
    wm.kill('SIGKILL');
    xvfb.kill('SIGKILL');
    throw e;
  }
  const stop = async () => {
    wm.kill('SIGTERM');
    xvfb.kill('SIGTERM');
    await sleep(100);
  };
  return { display, env, stop };
}

/** A CDP connection (browser endpoint) with flat sessions. */
class Cdp {
  constructor(url) {
    this.ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
    this.id = 0;
    this.pending = new Map();
    this.listeners = [];
    this.ws.on('message', (data) => {
      const msg = JSON.parse(data.toString());
      if (msg.id !== undefined) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(`${msg.error.message} ${msg.error.data ?? ''}`));
        else p?.resolve(msg.result);
      } else for (const l of this.listeners) l(msg);
    });
    this.ws.on('close', () => {
      for (const p of this.pending.values()) p.reject(new Error('CDP connection closed'));
      this.pending.clear();
    });
  }
  open() {
    return new Promise((resolve, reject) => { this.ws.once('open', resolve); this.ws.once('error', reject); });
  }
  send(method, params = {}, sessionId) {
    const id = ++this.id;
    this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }
  on(fn) { this.listeners.push(fn); }
  close() { this.ws.close(); }
}

/**
 * Headed Chromium on `display` with the extension; reaches only its service worker.
 * `call(method, params)` is `pcc.call` in the worker; `inWorker(fn, ...args)` runs `fn` there
 * (chrome.* APIs: the page facts the tests read).
 */
export async function launchHeaded(display, { extension = extensionDir, args = [] } = {}) {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-headed-'));
  const proc = spawn(process.env.CHROMIUM || '/usr/bin/chromium', [
    '--no-sandbox', '--disable-dev-shm-usage', '--no-first-run', '--no-default-browser-check',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--password-store=basic',
    '--disable-features=Translate,MediaRouter', `--user-data-dir=${userDataDir}`, '--remote-debugging-port=0',
    `--disable-extensions-except=${extension}`, `--load-extension=${extension}`,
    '--window-position=0,0', '--window-size=1200,900', ...args, 'about:blank',
  ], { env: display.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  const portFile = path.join(userDataDir, 'DevToolsActivePort');
  const [port, wsPath] = (await until('DevToolsActivePort', () => fs.existsSync(portFile) && fs.readFileSync(portFile, 'utf8').trim().split('\n').length === 2 && fs.readFileSync(portFile, 'utf8').trim().split('\n'), 30000));
  const cdp = new Cdp(`ws://127.0.0.1:${port}${wsPath}`);
  await cdp.open();
  let workerSession;
  const attachWorker = async () => {
    const target = await until('the extension worker', async () => {
      const { targetInfos } = await cdp.send('Target.getTargets');
      return targetInfos.find((t) => t.type === 'service_worker' && t.url.startsWith('chrome-extension://') && t.url.endsWith('/background.js'));
    }, 20000);
    const { sessionId } = await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: true });
    workerSession = sessionId;
    await until('pcc in the worker', async () => (await evaluate('!!globalThis.pcc').catch(() => false)) === true, 20000);
    return target;
  };
  const evaluate = async (expression) => {
    const r = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, workerSession);
    if (r.exceptionDetails) throw new Error(`worker threw: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
    return r.result.value;
  };
  const target = await attachWorker();
  const extensionId = new URL(target.url).host;
  /** `fn(...args)` in the service worker (its source text: no closure crosses). */
  const inWorker = (fn, ...args) => evaluate(`(${fn})(...${JSON.stringify(args)})`);
  const call = async (method, params = {}) => JSON.parse(await inWorker(async (m, p) => JSON.stringify(await globalThis.pcc.call(m, p)), method, params));
  /** A fact of tab `tabId`'s page: `fn(...args)` run in its main world by chrome.scripting
   * (the test pages record what they saw in globals of their own). */
  const pageFact = (tabId, fn, ...args) => inWorker(async (tabId, src, args) => {
    const [r] = await chrome.scripting.executeScript({ target: { tabId }, world: 'MAIN', func: (src, args) => (0, eval)(`(${src})`)(...args), args: [src, args] });
    return r?.result;
  }, tabId, String(fn), args);
  const close = async () => {
    cdp.close();
    proc.kill('SIGTERM');
    await Promise.race([new Promise((r) => proc.once('exit', r)), sleep(3000)]);
    if (proc.exitCode === null) proc.kill('SIGKILL');
    // Chromium's helper processes may still write into the profile for a moment.
    for (let i = 0; i < 10; i++) {
      try { fs.rmSync(userDataDir, { recursive: true, force: true }); break; } catch { await sleep(300); }
    }
  };
  return { cdp, call, inWorker, pageFact, extensionId, attachWorker, close, stderr: () => stderr, userDataDir };
}

/** The X side: the window the window manager says is active, and the person's keys. */
export function xInput(display) {
  const x = (...args) => execFileSync('xdotool', args, { env: display.env, encoding: 'utf8' }).trim();
  return {
    /** The title of the window with the X input focus (the active window). */
    activeTitle: () => { try { return x('getactivewindow', 'getwindowname'); } catch { return ''; } },
    /** The person types `text` into whatever has the X focus (real key events). */
    type: (text) => x('type', '--delay', '15', text),
    key: (k) => x('key', k),
    /** The person clicks at screen point (x, y). */
    click: (px, py) => { x('mousemove', String(px), String(py)); x('click', '1'); },
  };
}
