// Headless Debian Chromium with the unpacked extension loaded, and a `call()` into the
// service worker's `pcc.call` entry point.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The extension under test: extension/, or $PCC_EXTENSION_DIR (./build.sh test: the store zip, unpacked). */
export const extensionDir = process.env.PCC_EXTENSION_DIR || path.join(here, '..', 'extension');

/**
 * The next page a test waits for: a page of the web, not one of the extension's own (the
 * agent window's placeholder, ui/agent-window.html, comes with that window).
 */
export const nextPage = (context) => context.waitForEvent('page', { predicate: (p) => !p.url().startsWith('chrome-extension://') });

/**
 * Opens `path` of the test server in a new agent-owned tab (browser_tab_open); returns the
 * Playwright page and the extension's tab id.
 */
export async function openTab(b, server, path) {
  const [page, r] = await Promise.all([nextPage(b.context), b.call('browser_tab_open', { url: server.url(path) })]);
  if (r.error) throw new Error(`${r.error.code}: ${r.error.message}`);
  await page.waitForLoadState('load');
  return { page, tabId: r.tab.id, handle: r.tab.handle };
}

/** Opens `path` the way a user would (not owned by the agent) and, unless `grant: false`,
 * lets the agent read it as the person does from the toolbar popup (consent.js). */
export async function openUserTab(b, server, path, { grant = true } = {}) {
  const page = await b.context.newPage();
  await page.goto(server.url(path), { waitUntil: 'load' });
  const tabId = await b.tabIdOf(page);
  if (grant) await b.grant(tabId);
  return { page, tabId };
}

/** Playwright's options for headless Debian Chromium, with `extension` loaded (none: null). */
export function browserOptions({ extension = extensionDir, args = [], env } = {}) {
  return {
    ...(env ? { env } : {}),
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 720 },
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      ...(extension ? [`--disable-extensions-except=${extension}`, `--load-extension=${extension}`] : []), ...args,
    ],
  };
}

/**
 * `offline`: every request but to the local test servers fails at once (real pages' ads,
 * fonts, trackers). `policy`: consent and origin policy fields set as the person would in the
 * options page (consent.js), e.g. `{readUserTabs: 'all'}` for a harness that reads the pages
 * it opens itself. `extension`, `userDataDir`, `env`: another extension directory, a profile
 * prepared beforehand, the browser's environment (the onboarding test's fresh HOME).
 */
export async function launch({ offline = false, args = [], policy = null, extension = extensionDir, userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-profile-')), env } = {}) {
  if (!fs.existsSync(path.join(extension, 'wasm', 'pcc_bg.wasm'))) throw new Error('run ./build.sh build first');
  const context = await chromium.launchPersistentContext(userDataDir, browserOptions({ extension, args, env }));
  if (offline) await context.route(/^(?!https?:\/\/(127\.0\.0\.1|localhost)[:/])[a-z]+:\/\//, (r) => r.abort());
  let [worker] = context.serviceWorkers();
  if (!worker) worker = await context.waitForEvent('serviceworker', { timeout: 15000 });
  await worker.evaluate(() => new Promise((r) => { const t = () => (globalThis.pcc ? r() : setTimeout(t, 20)); t(); }));
  // The answer crosses as JSON text, as it does to the Bridge (extension/services/bridge.js): Playwright's
  // own object serializer took 2–3 ms of a 10 KB answer, a cost no real caller pays.
  const call = async (method, params = {}) => JSON.parse(await worker.evaluate(async ([m, p]) => JSON.stringify(await globalThis.pcc.call(m, p)), [method, params]));
  /** The extension's tab id for a Playwright page (matched by URL). */
  const tabIdOf = async (page) => worker.evaluate(async (url) => {
    const tabs = await chrome.tabs.query({});
    const t = tabs.find((t) => t.url === url) || tabs.find((t) => t.active);
    return t.id;
  }, page.url());
  if (policy) await worker.evaluate((p) => globalThis.pcc.consent.setPolicy(p), policy);
  /** The person lets the agent read tab `tabId` (the popup's "Let the agent read this tab"). */
  const grant = (tabId) => worker.evaluate(async (tabId) => globalThis.pcc.consent.grantTab(tabId, (await chrome.tabs.get(tabId)).url), tabId);
  const close = async () => {
    await context.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  };
  return { context, worker, call, tabIdOf, grant, close };
}

/** Closes an agent tab through the extension and waits until Playwright saw it go. */
export async function closeTab(b, page, tabId) {
  const r = await b.call('browser_tab_close', { tabId });
  if (r.error) throw new Error(`${r.error.code}: ${r.error.message}`);
  for (let i = 0; i < 100 && !page.isClosed(); i++) await new Promise((res) => setTimeout(res, 50));
}

/**
 * The RGB of each of `points` (CSS px of the captured region, `width` CSS px wide) in a PNG
 * (Base64 `data`), decoded in a page of `context`: what a screenshot shows there.
 */
export async function pixelsOf(context, data, width, points) {
  const probe = await context.newPage();
  try {
    return await probe.evaluate(async ([data, width, points]) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const g = new OffscreenCanvas(img.naturalWidth, img.naturalHeight).getContext('2d');
      g.drawImage(img, 0, 0);
      const k = img.naturalWidth / width;
      return points.map(([x, y]) => [...g.getImageData(Math.round(x * k), Math.round(y * k), 1, 1).data.slice(0, 3)]);
    }, [data, width, points]);
  } finally {
    await probe.close();
  }
}
