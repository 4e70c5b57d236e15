// The person's own headed browser, shared with the agent (issue #54): a real X display with a
// window manager, nothing attached to any page, the person typing with real keys in their
// window while the agent works in its own, in the background of theirs, in a minimized and in
// a covered window. Every page fact is read through the extension (harness.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startDisplay, launchHeaded, xInput } from './harness.mjs';
import { startServer } from '../server.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const PERSON_TITLE = "Person's notes - Chromium";

let display, server, b, x, person;
/** What each test measured, printed at the end (the closing note's figures). */
const figures = {};

before(async () => {
  display = await startDisplay();
  server = await startServer();
  b = await launchHeaded(display);
  x = xInput(display);
  // The person's window: their notes page, the caret in its text area (a real click).
  const [first] = await b.inWorker(async () => chrome.tabs.query({}));
  await b.inWorker(async (id, url) => { await chrome.tabs.update(id, { url }); }, first.id, server.url('person.html'));
  for (let i = 0; i < 100 && (await b.inWorker(async (id) => (await chrome.tabs.get(id)).status, first.id)) !== 'complete'; i++) await sleep(50);
  person = { tabId: first.id, windowId: first.windowId };
  await personClicksIn();
});
after(async () => {
  if (Object.keys(figures).length) console.log(`headed figures: ${JSON.stringify(figures)}`);
  await b?.close();
  await server?.close();
  await display?.stop();
});

/** The person clicks into their text area (their window comes to the front, as a click does). */
async function personClicksIn() {
  await b.inWorker(async (w) => chrome.windows.update(w, { focused: true }), person.windowId);
  await sleep(200);
  const [px, py] = await b.pageFact(person.tabId, () => {
    const r = document.getElementById('t').getBoundingClientRect();
    return [screenX + (outerWidth - innerWidth) / 2 + r.x + 30, screenY + (outerHeight - innerHeight) + r.y + 15];
  });
  x.click(Math.round(px), Math.round(py));
  await sleep(150);
  assert.equal(x.activeTitle(), PERSON_TITLE);
  const f = await personFacts();
  assert.ok(f.hasFocus && f.active === 't', JSON.stringify(f));
  await b.pageFact(person.tabId, () => { focusLog.length = 0; keyLog = ''; document.getElementById('t').value = ''; });
}

const personFacts = () => b.pageFact(person.tabId, () => ({ keys: keyLog, focusLog: focusLog.join(','), hasFocus: document.hasFocus(), active: document.activeElement?.id }));

async function openAgentTab(params = {}) {
  const t0 = Date.now();
  const r = await b.call('browser_tab_open', { url: server.url('agent-work.html'), ...params });
  assert.ok(!r.error, JSON.stringify(r.error));
  // It answers with the page it opened, in the person's window's background too.
  assert.match(r.snapshot?.state ?? '', /\[ref=e\d+\]/, `browser_tab_open ${JSON.stringify(params)} answers with the page's state`);
  (figures.tabOpenMs ??= []).push(Date.now() - t0);
  for (let i = 0; i < 100 && (await b.inWorker(async (id) => (await chrome.tabs.get(id)).status, r.tab.id)) !== 'complete'; i++) await sleep(50);
  const tab = await b.inWorker(async (id) => chrome.tabs.get(id), r.tab.id);
  return { tabId: r.tab.id, windowId: tab.windowId };
}

const refOf = (state, name) => {
  const m = new RegExp(`"${name}"[^\\n]*\\[ref=(e\\d+)\\]`).exec(state);
  assert.ok(m, `no ref for ${name} in ${state}`);
  return m[1];
};

/** One of each of the agent's steps on tab `tabId`, timed: read, click, type, screenshot. */
async function timedSteps(tabId, rounds) {
  const t = { read: [], click: [], type: [], screenshot: [] };
  const time = async (k, fn) => {
    const t0 = performance.now();
    const r = await fn();
    t[k].push(performance.now() - t0);
    assert.ok(!r.error, `${k}: ${JSON.stringify(r.error)}`);
    return r;
  };
  for (let i = 0; i < rounds; i++) {
    const snap = await time('read', () => b.call('browser_snapshot', { tabId }));
    const { snapshotId, state } = snap.snapshot;
    await time('click', () => b.call('browser_click', { tabId, snapshotId, ref: refOf(state, 'Button two') }));
    await time('type', () => b.call('browser_type', { tabId, snapshotId, ref: refOf(state, 'Search'), text: 'xy', submit: true }));
    const shot = await time('screenshot', () => b.call('browser_screenshot', { tabId }));
    assert.ok(shot.attachment?.data?.length > 1000, 'an image');
  }
  return Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(median(v))]));
}

/** The agent page's own record: clicks and Enters, and the keys that reached it. */
const agentLog = (tabId) => b.pageFact(tabId, () => ({ log: [...log], keys: keyLog, focusLog: focusLog.join(',') }));

test('the person types in their window while the agent works 50 steps in its own: no focus change, no key in the other tab', async () => {
  await personClicksIn();
  const agent = await openAgentTab();
  assert.notEqual(agent.windowId, person.windowId, "the agent's own window");
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let typed = '';
  let wrongWindow = 0;
  let snapshot;
  const times = [];
  for (let step = 0; step < 50; step++) {
    const kind = step % 5;
    const t0 = performance.now();
    let r;
    if (kind === 0) {
      r = await b.call('browser_snapshot', { tabId: agent.tabId });
      snapshot = r.snapshot;
    } else if (kind === 1) {
      r = await b.call('browser_click', { tabId: agent.tabId, snapshotId: snapshot.snapshotId, ref: refOf(snapshot.state, 'Button one') });
    } else if (kind === 2) {
      r = await b.call('browser_type', { tabId: agent.tabId, snapshotId: snapshot.snapshotId, ref: refOf(snapshot.state, 'Search'), text: 'ag' });
    } else if (kind === 3) {
      r = await b.call('browser_press', { tabId: agent.tabId, snapshotId: snapshot.snapshotId, ref: refOf(snapshot.state, 'Search'), key: 'Enter' });
    } else {
      r = await b.call('browser_screenshot', { tabId: agent.tabId });
    }
    times.push(performance.now() - t0);
    assert.ok(!r.error, `step ${step}: ${JSON.stringify(r.error)}`);
    // The person goes on typing, with real keys, into whatever has the focus.
    const ch = letters[step % letters.length];
    x.type(ch);
    typed += ch;
    if (x.activeTitle() !== PERSON_TITLE) wrongWindow++;
  }
  await sleep(300);
  const mine = await personFacts();
  const theirs = await agentLog(agent.tabId);
  figures.fiftySteps = { focusChanges: wrongWindow, personBlurs: (mine.focusLog.match(/blur/g) || []).length, medianStepMs: Math.round(median(times)) };
  assert.equal(wrongWindow, 0, 'the X focus stayed in the person window after every step');
  assert.equal(mine.focusLog, '', "the person's document never lost the focus");
  assert.equal(mine.keys, typed, "every key of the person's reached their text area");
  assert.equal(theirs.keys, 'ag[Enter]'.repeat(10), "only the agent's keys reached its page");
  assert.deepEqual(theirs.log, Array.from({ length: 10 }, () => ['B1', 'enter:ag']).flat(), 'every click and Enter of the agent landed');
});

test('every other tool the agent uses keeps the person\'s focus too: hover, select, scroll, fill, a click at a point, navigate, a new tab', async () => {
  await personClicksIn();
  const agent = await openAgentTab();
  const snap = (await b.call('browser_snapshot', { tabId: agent.tabId })).snapshot;
  const on = { tabId: agent.tabId, snapshotId: snap.snapshotId };
  const steps = [
    ['browser_hover', { ...on, ref: refOf(snap.state, 'Hover here') }],
    ['browser_select_option', { ...on, ref: refOf(snap.state, 'Size'), value: 'l' }],
    ['browser_scroll', { tabId: agent.tabId, direction: 'down' }],
    ['browser_fill', { ...on, ref: refOf(snap.state, 'Search'), text: 'tides' }],
    ['browser_click', { tabId: agent.tabId, x: 5, y: 5 }],
    ['browser_navigate', { tabId: agent.tabId, url: server.url('agent-work.html?again') }],
    ['browser_tab_open', { url: server.url('basic.html') }],
  ];
  let typed = '';
  for (const [tool, params] of steps) {
    const r = await b.call(tool, params);
    assert.ok(!r.error, `${tool}: ${JSON.stringify(r.error)}`);
    x.type('q');
    typed += 'q';
    assert.equal(x.activeTitle(), PERSON_TITLE, `after ${tool}`);
  }
  await sleep(200);
  const mine = await personFacts();
  assert.equal(mine.focusLog, '');
  assert.equal(mine.keys, typed);
});

test("an agent tab in the background of the person's window, in a minimized window and in a covered one: as fast as in its own, the person's focus kept", async () => {
  await personClicksIn();
  const own = await openAgentTab();
  const ownTimes = await timedSteps(own.tabId, 5);
  const background = await openAgentTab({ active: false });
  assert.equal(background.windowId, person.windowId);
  const bgTimes = await timedSteps(background.tabId, 5);
  const shown = await b.inWorker(async (w) => (await chrome.tabs.query({ windowId: w, active: true }))[0].id, person.windowId);
  assert.equal(shown, person.tabId, "the person's tab stays the shown one");
  // The agent's window minimized by the person: it stays minimized.
  await b.inWorker(async (w) => chrome.windows.update(w, { state: 'minimized' }), own.windowId);
  await sleep(300);
  const minTimes = await timedSteps(own.tabId, 5);
  assert.equal(await b.inWorker(async (w) => (await chrome.windows.get(w)).state, own.windowId), 'minimized');
  // Covered: the agent's window under the person's, at the same place.
  await b.inWorker(async (w, p) => {
    const pw = await chrome.windows.get(p);
    await chrome.windows.update(w, { state: 'normal', left: pw.left, top: pw.top, width: pw.width, height: pw.height, focused: false });
  }, own.windowId, person.windowId);
  await personClicksIn();
  const coveredTimes = await timedSteps(own.tabId, 5);
  await sleep(200);
  const mine = await personFacts();
  figures.placements = { ownWindow: ownTimes, personWindowBackground: bgTimes, minimized: minTimes, covered: coveredTimes };
  assert.equal(x.activeTitle(), PERSON_TITLE);
  assert.equal(mine.focusLog, '', "the person's document never lost the focus");
  for (const [where, t] of [['background', bgTimes], ['minimized', minTimes], ['covered', coveredTimes]]) {
    for (const k of ['read', 'click', 'type', 'screenshot']) {
      // 1.5× the own window's median, and 50 ms for a median of a few milliseconds.
      assert.ok(t[k] <= ownTimes[k] * 1.5 + 50, `${where} ${k}: ${t[k]} ms vs ${ownTimes[k]} ms in the agent's own window`);
    }
  }
  for (const t of [own, background]) {
    const { log } = await agentLog(t.tabId);
    assert.equal(log.filter((e) => e === 'B2').length, t === own ? 15 : 5, 'every click landed');
  }
});

test("the debugger's infobar appears and goes: clicks by ref land before and after", async () => {
  const agent = await openAgentTab();
  const detachAll = () => b.inWorker(async () => {
    for (const t of await chrome.debugger.getTargets()) {
      if (t.attached && t.tabId !== undefined) await new Promise((r) => chrome.debugger.detach({ tabId: t.tabId }, () => { void chrome.runtime.lastError; r(); }));
    }
  });
  const height = () => b.pageFact(agent.tabId, () => innerHeight);
  /** The page's height once it moves past `from` (the bar came: lower; went: higher), or at the end. */
  const moves = async (from, lower, ms) => {
    let h = await height();
    for (const end = Date.now() + ms; Date.now() < end && (lower ? h >= from : h <= from); await sleep(100)) h = await height();
    return h;
  };
  // The bar shows once the debugger attaches (the tab's open did), and goes ~5 s after the
  // last detach.
  assert.ok(!(await b.call('browser_snapshot', { tabId: agent.tabId })).error);
  const shown = await moves(await height(), true, 2000);
  await detachAll();
  const full = await moves(shown, false, 10000);
  assert.ok(full > shown, `the infobar went (${full} vs ${shown})`);
  const snap = (await b.call('browser_snapshot', { tabId: agent.tabId })).snapshot;
  const r1 = await b.call('browser_click', { tabId: agent.tabId, snapshotId: snap.snapshotId, ref: refOf(snap.state, 'Button two') });
  assert.ok(!r1.error, JSON.stringify(r1.error));
  const withBar = await moves(full, true, 3000);
  assert.ok(withBar < full, `the infobar came back (${withBar} vs ${full})`);
  const r2 = await b.call('browser_click', { tabId: agent.tabId, snapshotId: snap.snapshotId, ref: refOf(snap.state, 'Button three') });
  assert.ok(!r2.error, JSON.stringify(r2.error));
  await detachAll();
  assert.ok(await moves(withBar, false, 10000) > withBar, 'the infobar went again');
  const r3 = await b.call('browser_click', { tabId: agent.tabId, snapshotId: snap.snapshotId, ref: refOf(snap.state, 'Button one') });
  assert.ok(!r3.error, JSON.stringify(r3.error));
  assert.deepEqual((await agentLog(agent.tabId)).log, ['B2', 'B3', 'B1'], 'each click landed on its own button');
});

test('a dialog in a background tab: the click says so, the dialog is answered, the person keeps their tab and focus', async () => {
  await personClicksIn();
  const agent = await openAgentTab({ active: false });
  const snap = (await b.call('browser_snapshot', { tabId: agent.tabId })).snapshot;
  const t0 = performance.now();
  const r = await b.call('browser_click', { tabId: agent.tabId, snapshotId: snap.snapshotId, ref: refOf(snap.state, 'Alert') });
  figures.backgroundDialogClickMs = Math.round(performance.now() - t0);
  assert.deepEqual([r.ok, r.dialog], [true, { type: 'alert', message: 'Saved' }], JSON.stringify(r));
  assert.equal((await b.call('browser_snapshot', { tabId: agent.tabId })).error?.code, 'BROWSER_DIALOG_OPEN');
  const ok = await b.call('browser_dialog', { tabId: agent.tabId, accept: true });
  assert.equal(ok.ok, true, JSON.stringify(ok));
  for (let i = 0; i < 20 && !(await agentLog(agent.tabId)).log.includes('after alert'); i++) await sleep(50);
  assert.deepEqual((await agentLog(agent.tabId)).log, ['after alert']);
  assert.equal(x.activeTitle(), PERSON_TITLE);
  assert.equal((await personFacts()).focusLog, '');
  const shown = await b.inWorker(async (w) => (await chrome.tabs.query({ windowId: w, active: true }))[0].id, person.windowId);
  assert.equal(shown, person.tabId);
});

test("a press in a window without the focus never shows one of the person's own tabs there", async () => {
  await personClicksIn();
  // The person's second window, unfocused: the tab it shows (which the person let the agent
  // read, and the agent claimed) and one of their own behind it.
  const second = await b.inWorker(async (url) => (await chrome.windows.create({ url, focused: false })).id, server.url('person.html?shown'));
  const [shownTab] = await b.inWorker(async (w) => chrome.tabs.query({ windowId: w }), second);
  const hidden = await b.inWorker(async (w, url) => (await chrome.tabs.create({ windowId: w, url, active: false, index: 0 })).id, second, server.url('person.html?behind'));
  for (const id of [shownTab.id, hidden]) {
    for (let i = 0; i < 100 && (await b.inWorker(async (t) => (await chrome.tabs.get(t)).status, id)) !== 'complete'; i++) await sleep(50);
  }
  await personClicksIn();
  // (Beside the person's window, not under it: a covered window's tabs are hidden whatever it shows.)
  await b.inWorker(async (w) => chrome.windows.update(w, { left: 1205, top: 40, width: 390, height: 500 }), second);
  await sleep(300);
  const where = await b.inWorker(async (w) => { const x = await chrome.windows.get(w); return [x.left, x.top, x.width, x.height, x.state]; }, second);
  assert.equal(await b.pageFact(shownTab.id, () => document.visibilityState), 'visible', `the second window is on screen: ${where}`);
  await b.inWorker(async (t) => globalThis.pcc.consent.grantTab(t, (await chrome.tabs.get(t)).url), shownTab.id);
  const claim = await b.call('browser_claim_tab', { tabId: shownTab.id });
  assert.ok(!claim.error, JSON.stringify(claim.error));
  const snap = (await b.call('browser_snapshot', { tabId: shownTab.id })).snapshot;
  const ref = refOf(snap.state, 'Notes');
  for (let i = 0; i < 3; i++) {
    const click = await b.call('browser_click', { tabId: shownTab.id, snapshotId: snap.snapshotId, ref, handle: claim.tab.handle });
    assert.ok(!click.error, JSON.stringify(click.error));
  }
  const behind = await b.pageFact(hidden, () => ({ vis: visLog.join(','), focus: focusLog.join(',') }));
  assert.deepEqual(behind, { vis: '', focus: '' }, "the person's tab behind was never shown");
  const tabs = await b.inWorker(async (w) => (await chrome.tabs.query({ windowId: w })).map((t) => t.url), second);
  assert.ok(!tabs.some((u) => u.startsWith('chrome-extension://')), `no placeholder left in the person's window: ${tabs}`);
  assert.equal(x.activeTitle(), PERSON_TITLE, "the person's window keeps the focus");
  await b.call('browser_release_tab', { tabId: shownTab.id, handle: claim.tab.handle });
  await b.inWorker(async (w) => chrome.windows.remove(w), second);
});

test("a window a page opens on the agent's click never keeps the person's focus", async () => {
  const opened = await b.call('browser_tab_open', { url: server.url('popup-opener.html') });
  assert.ok(!opened.error, JSON.stringify(opened.error));
  const agent = { tabId: opened.tab.id };
  await personClicksIn();
  const read = await b.call('browser_snapshot', { tabId: agent.tabId });
  assert.ok(!read.error, JSON.stringify(read.error));
  const snap = read.snapshot;
  const click = await b.call('browser_click', { tabId: agent.tabId, snapshotId: snap.snapshotId, ref: refOf(snap.state, 'Open popup') });
  assert.ok(!click.error, JSON.stringify(click.error));
  await sleep(400);
  const popup = (await b.inWorker(async () => (await chrome.tabs.query({})).map((t) => ({ id: t.id, url: t.url, windowId: t.windowId })))).find((t) => /person\.html\?popup/.test(t.url));
  assert.ok(popup, 'the page opened its window');
  assert.equal(x.activeTitle(), PERSON_TITLE, "the person's window has the focus again");
  x.type('kept');
  await sleep(200);
  const popupKeys = await b.pageFact(popup.id, () => keyLog);
  const facts = await personFacts();
  assert.match(facts.keys, /kept$/, `the person's keys reach their own page: ${JSON.stringify(facts)}, popup ${JSON.stringify(popupKeys)}`);
  assert.equal(popupKeys, '', 'no key of the person reached the popup');
  assert.ok((click.opened ?? []).some((t) => t.id === popup.id) || (await b.call('browser_tabs')).tabs.find((t) => t.id === popup.id)?.owner === 'agent', 'the popup is the agent\'s');
  await b.inWorker(async (w) => chrome.windows.remove(w), popup.windowId);
});
