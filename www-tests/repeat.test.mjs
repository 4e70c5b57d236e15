// The change tracker (issue #20 item 2): a repeat AX read of a page where nothing happened
// answers `unchanged` without a capture (timing.captureMs 0), and every kind of change the
// tracker must see — including those no mutation or event reports — makes the next read
// capture again (never a false `unchanged`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { launch, openTab, closeTab } from './harness.mjs';
import { startServer } from './server.mjs';

let b, server;
before(async () => { server = await startServer(); b = await launch(); });
after(async () => { await b?.close(); await server?.close(); });

const read = (tabId, extra = {}) => b.call('browser_accessibility_snapshot', { tabId, sessionId: 'repeat', timing: true, ...extra });

/**
 * Records the worker's injections from here on, by function (or file) name, `*` marking one
 * into all frames when `markAll`: `injected()` takes those made since the last look,
 * `restore()` puts the worker's own executeScript back.
 */
async function watchInjections(markAll = false) {
  await b.worker.evaluate((markAll) => {
    globalThis.__injected = [];
    const inject = chrome.scripting.executeScript.bind(chrome.scripting);
    globalThis.__inject = inject;
    chrome.scripting.executeScript = (o) => { globalThis.__injected.push(`${o.func?.name ?? o.files?.join()}${markAll && o.target.allFrames ? '*' : ''}`); return inject(o); };
  }, markAll);
  return {
    injected: () => b.worker.evaluate(() => globalThis.__injected.splice(0)),
    restore: () => b.worker.evaluate(() => { chrome.scripting.executeScript = globalThis.__inject; }),
  };
}

test('an unchanged page repeats without a capture; every change is seen by the next read', async () => {
  const { page, tabId } = await openTab(b, server, `changes.html?xo=${encodeURIComponent(`${server.crossOrigin}/changes-child.html`)}`);
  await page.waitForFunction(() => document.getElementById('xo').contentWindow && document.readyState === 'complete');
  await page.waitForTimeout(300);
  const first = await read(tabId);
  assert.equal(first.mode, 'full', JSON.stringify(first).slice(0, 300));
  assert.match(first.state, /Child button/, 'the cross-origin frame is read');

  /** After `change`, the read must capture (the tracker saw it), and a repeat must not. */
  const seen = [];
  async function expectSeen(what, change, shows) {
    await change();
    const r = await read(tabId);
    assert.ok(!r.error, `${what}: ${JSON.stringify(r.error)}`);
    assert.ok(r.timing.captureMs > 0, `${what}: answered without a capture (${r.mode})`);
    if (shows) assert.match(r.state ?? '', shows, `${what}: ${r.mode} ${r.state}`);
    // Then the page is quiet again: a repeat answers without a capture (the events the change
    // queued, such as a popover's toggle or a scroll's `scroll` then `scrollend`, may still
    // arrive after the read, each a frame or more late: a capture each).
    let again = await read(tabId);
    for (let late = 0; late < 3 && again.timing.captureMs > 0; late++) again = await read(tabId);
    assert.equal(again.mode, 'unchanged', `${what}: the repeat after it`);
    assert.equal(again.timing.captureMs, 0, `${what}: the repeat after it captured`);
    seen.push(what);
  }

  const repeat = await read(tabId);
  assert.equal(repeat.mode, 'unchanged');
  assert.equal(repeat.timing.captureMs, 0, 'a repeat of an unchanged page captures nothing');
  assert.equal(repeat.baseSnapshotId, first.snapshotId);
  // Its refs act: a ref from the first read resolves through the repeat's snapshotId.
  const ref = first.state.split('\n').find((l) => l.includes('button "Open shadow button"'))?.match(/\[ref=(\w+)\]/)?.[1];
  assert.ok(ref, first.state);
  const clicked = await b.call('browser_click', { tabId, snapshotId: repeat.snapshotId, ref });
  assert.ok(!clicked.error, JSON.stringify(clicked.error));

  await expectSeen('text', () => page.evaluate(() => { document.getElementById('status').textContent = 'Status: busy'; }), /Status: busy/);
  await expectSeen('a value set by script', () => page.evaluate(() => { document.getElementById('name').value = 'Grace'; }), /Grace/);
  await expectSeen('a checkbox set by script', () => page.evaluate(() => { document.getElementById('agree').checked = true; }), /checked/);
  await expectSeen('a select set by script', () => page.evaluate(() => { document.getElementById('size').selectedIndex = 1; }), /Large/);
  await expectSeen('an open shadow root', () => page.evaluate(() => { document.getElementById('open-card').shadowRoot.querySelector('button').textContent = 'Renamed shadow button'; }), /Renamed shadow button/);
  await expectSeen('a closed shadow root attached after insertion', () => page.evaluate(() => window.defineClosed()), /Closed shadow button/);
  await expectSeen('inside that closed shadow root', () => page.evaluate(() => { window.closedRoot.querySelector('button').textContent = 'Closed renamed'; }), /Closed renamed/);
  await expectSeen('a popover shown', () => page.evaluate(() => document.getElementById('pop').showPopover()), /Popover text/);
  await expectSeen('a style rule added through the CSSOM', () => page.evaluate(() => { const s = new CSSStyleSheet(); s.replaceSync('#styled { display: none }'); document.adoptedStyleSheets = [...document.adoptedStyleSheets, s]; }));
  await expectSeen('a scroll', () => page.evaluate(() => window.scrollTo(0, 2500)));
  await expectSeen('a scroll back', () => page.evaluate(() => window.scrollTo(0, 0)), /Child button/);
  await expectSeen('an inner scroller scrolled by script', () => page.evaluate(() => { document.getElementById('box').scrollTop = 400; }));
  const frame = page.frames().find((f) => f !== page.mainFrame() && f.url().includes('changes-child'));
  await expectSeen('the cross-origin frame', () => frame.evaluate(() => { document.getElementById('child').textContent = 'Child renamed'; }), /Child renamed/);
  // Another key (other limits) and disableDiffing capture on their own.
  assert.ok((await read(tabId, { maxChars: 5000 })).timing.captureMs > 0);
  assert.ok((await read(tabId, { disableDiffing: true })).timing.captureMs > 0);
  // A reload is a new document: full.
  await page.reload({ waitUntil: 'load' });
  const reloaded = await read(tabId);
  assert.equal(reloaded.mode, 'full');
  console.log(`change tracker: ${seen.length} kinds of change seen (${seen.join(', ')}); repeats without a capture`);
  await closeTab(b, page, tabId);
});

test('an animation that repeats (a spinner) is no change at each of its turns; one that starts is', async () => {
  const { page, tabId } = await openTab(b, server, 'changes.html');
  await page.evaluate(() => {
    const s = document.createElement('style');
    s.textContent = '@keyframes pcc-spin { to { transform: rotate(360deg) } } .pcc-spinner { width: 10px; height: 10px; animation: pcc-spin 50ms linear infinite } .pcc-pulse { animation: pcc-spin 50ms linear }';
    document.head.append(s);
    const d = document.createElement('div');
    d.className = 'pcc-spinner';
    document.body.append(d);
  });
  await page.waitForTimeout(300);
  await read(tabId);
  // Several turns pass between the reads (each fires animationiteration).
  await page.evaluate(() => new Promise((r) => { let n = 0; addEventListener('animationiteration', () => { if (++n === 4) r(); }); }));
  const repeat = await read(tabId);
  assert.equal(repeat.mode, 'unchanged');
  assert.equal(repeat.timing.captureMs, 0, 'the spinner\'s turns are not a change');
  // An animation that starts is one.
  await page.evaluate(() => new Promise((r) => { const el = document.getElementById('status'); el.addEventListener('animationstart', r, { once: true }); el.classList.add('pcc-pulse'); }));
  assert.ok((await read(tabId)).timing.captureMs > 0, 'an animation that starts is a change');
  await closeTab(b, page, tabId);
});

// A page of up to `offsetElements` elements (budget.rs: 3,000) has its offsets read in every
// check; a larger one has its scroll containers found in idle time (changes.js): both must
// see the scroll at once.
const offsetElements = 3000;
for (const [size, filler] of [['a small page', 0], ['a page of 5,000 elements', 5000]]) test(`${size}: a scroll container scrolled just before a check is seen before its scroll event (the check waits no frame then)`, async () => {
  const { page, tabId } = await openTab(b, server, 'changes.html');
  await page.evaluate((n) => { const d = document.createElement('div'); d.innerHTML = '<i></i>'.repeat(n); document.body.append(d); }, filler);
  await page.waitForTimeout(300);
  // Straight to the tracker, in its own world: a scroll and a check in one task, so the
  // scroll event (sent with the next frame) cannot have come.
  const check = (scrollTop) => b.worker.evaluate(async ([tabId, scrollTop, offsetElements]) => (await chrome.scripting.executeScript({
    target: { tabId },
    func: (top, limit) => {
      if (top !== null) document.getElementById('box').scrollTop = top;
      return globalThis.__pccChanges.check(limit);
    },
    args: [scrollTop, offsetElements],
  }))[0].result, [tabId, scrollTop, offsetElements]);
  // (The tracker runs in a document once a read has reached it.)
  assert.ok(!(await b.call('browser_snapshot', { tabId })).error);
  await check(null);
  await page.waitForTimeout(300); // the page is still: the scroll containers are found meanwhile
  let quiet = await check(null);
  assert.equal(await check(null), quiet, 'nothing happened: the same answer');
  for (const top of [300, 0]) {
    assert.notEqual(await check(top), quiet, `scrolled to ${top}: the check saw it`);
    await page.waitForTimeout(300);
    quiet = await check(null);
    assert.equal(await check(null), quiet, 'quiet again');
  }
  await closeTab(b, page, tabId);
});

test('a data-* attribute no style rule names and no read shows is not a change; one a rule names (a selector, attr(), a shadow root\'s :host, an imported sheet, a sheet replaced), data-testid, or any attribute while a sheet cannot be read, is', async () => {
  // Every data-* attribute the walk or the core reads counts (changes.js UNREAD spares the rest).
  const source = (f) => fs.readFileSync(new URL(f, import.meta.url), 'utf8');
  const unread = new RegExp(source('../extension/page/changes.js').match(/const UNREAD = \/(.+)\/;/)[1]);
  const readers = [source('../extension/page/domwalk.js').match(/const ATTRS = new Set\(\[([^\]]+)\]/)[1], source('../src/tree/mod.rs'), source('../src/tools/find.rs')];
  const named = readers.flatMap((t) => t.match(/"data-[\w-]+"|'data-[\w-]+'/g) ?? []).map((q) => q.slice(1, -1));
  assert.ok(named.includes('data-testid'));
  for (const name of named) assert.ok(!unread.test(name), `${name} is read, so it counts`);
  const { page, tabId } = await openTab(b, server, 'data-attributes.html');
  await page.waitForTimeout(300);
  /** The read after `change`: whether it captured, then quiet again (late events read once more). */
  async function captures(change) {
    await page.evaluate(change);
    const r = await read(tabId);
    assert.ok(!r.error, JSON.stringify(r.error));
    let again = await read(tabId);
    for (let late = 0; late < 3 && again.timing.captureMs > 0; late++) again = await read(tabId);
    assert.equal(again.timing.captureMs, 0, 'quiet again');
    return { captured: r.timing.captureMs > 0, state: r.state ?? '' };
  }
  await captures(() => {});
  assert.deepEqual(await captures(() => { document.getElementById('tracked').dataset.track = '1'; document.body.dataset.seen = 'yes'; }), { captured: false, state: '' }, 'no rule names data-track or data-seen');
  const opened = await captures(() => { document.getElementById('menu').dataset.open = ''; });
  assert.ok(opened.captured && /Panel link/.test(opened.state), 'a selector names data-open');
  const noted = await captures(() => { document.getElementById('note').dataset.note = ' with attr text'; });
  assert.ok(noted.captured && /with attr text/.test(noted.state), 'attr(data-note) shows it');
  assert.ok((await captures(() => { document.getElementById('host').dataset.lit = ''; })).captured, 'the shadow root\'s :host rule names data-lit');
  const imported = await captures(() => { document.getElementById('note').dataset.imported = ''; });
  assert.ok(imported.captured, 'an imported sheet names data-imported');
  assert.doesNotMatch((await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'whole', disableDiffing: true })).state, /Note/, 'and hides the note');
  assert.ok((await captures(() => { document.getElementById('tracked').dataset.testid = 'tracked'; })).captured, 'the core reads data-testid');
  // A sheet whose text is replaced by as many rules, one of them naming data-track now.
  assert.ok((await captures(() => { document.getElementById('swapped').textContent = '#tracked[data-track="9"] { display: none }'; })).captured);
  assert.ok((await captures(() => { document.getElementById('tracked').dataset.track = '9'; })).captured, 'the new rule names data-track');
  // A sheet from another origin cannot be read: any data-* attribute may be named there.
  await page.evaluate((href) => new Promise((resolve) => {
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href, onload: resolve, onerror: resolve });
    document.head.append(link);
  }), `${server.crossOrigin}/plain.css`);
  await captures(() => {});
  assert.ok((await captures(() => { document.getElementById('tracked').dataset.track = '2'; })).captured, 'a sheet no one can read may name data-track');
  await closeTab(b, page, tabId);
});

test('browser_snapshot of a tab whose child frame shows an error page: a change is seen, the working frame is shown, and an unchanged repeat is the last result (the plan\'s steps: tests/read_plan.rs)', async () => {
  const { page, tabId } = await openTab(b, server, 'basic.html');
  await page.evaluate(() => {
    for (const src of ['http://127.0.0.1:1/', null]) {
      const f = document.createElement('iframe');
      if (src) f.src = src; else f.srcdoc = '<button>Framed button</button>';
      document.body.append(f);
    }
  });
  await page.waitForFunction(() => [...document.querySelectorAll('iframe')].every((f) => f.contentDocument === null || f.contentDocument.readyState === 'complete'));
  await page.waitForTimeout(500);
  const snap = () => b.call('browser_snapshot', { tabId, timing: true });
  await snap();
  await page.evaluate(() => { document.querySelector('h1').textContent = 'Renamed heading'; });
  const r = await snap();
  assert.match(r.snapshot.state, /Renamed heading/);
  assert.match(r.snapshot.state, /- iframe[^\n]*\n\s+- button "Framed button"/, 'the working frame is verified and shown');
  let again = await snap();
  for (let late = 0; late < 3 && again.timing.captureMs > 0; late++) again = await snap();
  assert.equal(again.timing.captureMs, 0, 'an unchanged page with an error-page frame is answered without a capture');
  const ref = again.snapshot.state.match(/button "Framed button" \[ref=(e\d+)\]/)?.[1];
  const click = await b.call('browser_click', { tabId, ref, snapshotId: again.snapshot.snapshotId });
  assert.ok(!click.error, `a ref of the held result acts: ${JSON.stringify(click.error)}`);
  await closeTab(b, page, tabId);
});

test('a check that leaves the scroll containers to the walk after it: the walk\'s containers are the state\'s, and a container scrolled just before the next check is seen before its scroll event', async () => {
  const { page, tabId } = await openTab(b, server, 'changes.html');
  await page.waitForTimeout(300);
  // (The tracker and the walk run in a document once a read has reached it.)
  assert.ok(!(await b.call('browser_snapshot', { tabId })).error);
  // In the frame's own world, one task each: a change, then the check and the walk of a
  // read (the check defers; the walk hands over what scrolls), then a scroll and a check.
  const run = (scrollTop) => b.worker.evaluate(async ([tabId, scrollTop]) => (await chrome.scripting.executeScript({
    target: { tabId },
    func: async (top) => {
      const changes = globalThis.__pccChanges;
      if (top === null) {
        document.getElementById('status').textContent = `Status ${Math.random()}`;
        const answer = await changes.check(3000, true);
        await globalThis.__pccWalker.domWalk(null, 60000, 2000, null, null, true, { attrChars: 200, pseudoChars: 200, tagWaitMs: 50, hitTests: 0, onScrollers: (els) => changes.adopt(els) });
        return answer;
      }
      document.getElementById('box').scrollTop = top;
      return changes.check(3000, false);
    },
    args: [scrollTop],
  }))[0].result, [tabId, scrollTop]);
  for (const top of [300, 0]) {
    const read = await run(null);
    assert.notEqual(await run(top), read, `scrolled to ${top} right after a read whose walk found the containers: seen`);
  }
  // Nothing in between: the same answer (the walk's containers were taken as this state's).
  await page.waitForTimeout(300); // (the last scroll's event comes a frame late)
  const read = await run(null);
  const again = await b.worker.evaluate(async (tabId) => (await chrome.scripting.executeScript({ target: { tabId }, func: () => globalThis.__pccChanges.check(3000, false) }))[0].result, tabId);
  assert.equal(again, read, 'nothing happened since the read: the same answer');
  await closeTab(b, page, tabId);
});

test('a frame whose tracker cannot answer makes every read a normal one (never a proof it did not give)', async () => {
  const { page, tabId } = await openTab(b, server, 'data-frame.html');
  await page.waitForTimeout(300);
  // A tracker that cannot answer (a document whose tracker is an older version's, left by an
  // extension update, without the check this one asks): the child frame's is made one (after
  // a read, which makes the trackers resident: one that is there stays).
  const first = await read(tabId);
  assert.ok(!first.error, JSON.stringify(first.error));
  const gone = await b.worker.evaluate(async (tabId) => {
    const frames = await chrome.webNavigation.getAllFrames({ tabId });
    const child = frames.find((f) => f.frameId !== 0);
    const [r] = await chrome.scripting.executeScript({ target: { tabId, frameIds: [child.frameId] }, func: () => { globalThis.__pccChanges = { check() { throw new Error('no such check'); } }; return true; } });
    return r.result;
  }, tabId);
  assert.equal(gone, true);
  assert.match(first.state, /Inside a data URL/, 'the frame is read');
  for (let i = 0; i < 2; i++) {
    const again = await read(tabId);
    assert.equal(again.mode, 'unchanged');
    assert.ok(again.timing.captureMs > 0, 'answered without a capture though a frame did not answer');
  }
  await closeTab(b, page, tabId);
});

test('browser_snapshot: an unchanged page gives its last result again (refs still resolve); a change, or refs pushed out of the registry, read anew', async () => {
  const { page, tabId } = await openTab(b, server, 'basic.html');
  const snap = (extra = {}) => b.call('browser_snapshot', { tabId, timing: true, ...extra });
  const first = await snap();
  const again = await snap();
  assert.equal(again.timing.captureMs, 0, 'an unchanged page is not captured again');
  assert.deepEqual(again.snapshot, first.snapshot, 'the same result, the same snapshotId');
  const ref = first.snapshot.state.split('\n').find((l) => l.includes('button "Click me"')).match(/\[ref=(\w+)\]/)[1];
  assert.ok((await b.call('browser_click', { tabId, snapshotId: again.snapshot.snapshotId, ref })).ok);
  const after = await snap();
  assert.ok(after.timing.captureMs > 0 && after.snapshot.snapshotId !== first.snapshot.snapshotId);
  assert.match(after.snapshot.state, /Clicked 1 times/);
  // Other parameters are other reads.
  assert.ok((await snap({ maxChars: 2000 })).timing.captureMs > 0);
  // Five finds push the held snapshot out of the ref registry (4 per tab): read anew.
  const held = await snap();
  assert.equal(held.timing.captureMs, 0);
  for (let i = 0; i < 5; i++) await b.call('browser_find', { tabId, text: 'Click' });
  const fresh = await snap();
  assert.ok(fresh.timing.captureMs > 0, 'a snapshot whose refs are gone is not given again');
  const ref2 = fresh.snapshot.state.split('\n').find((l) => l.includes('button "Clicked 1 times"')).match(/\[ref=(\w+)\]/)[1];
  assert.ok((await b.call('browser_click', { tabId, snapshotId: fresh.snapshot.snapshotId, ref: ref2 })).ok);
  await closeTab(b, page, tabId);
});

test('browser_snapshot after a change no walk shows (a class no rule matches, an attribute no one reads): the frame walks, the last result answers and its refs act; a node replaced by its copy is read anew', async () => {
  const { page, tabId } = await openTab(b, server, 'basic.html');
  const snap = () => b.call('browser_snapshot', { tabId, timing: true });
  const refOf = (r, re) => r.snapshot.state.split('\n').find((l) => re.test(l)).match(/\[ref=(\w+)\]/)[1];
  let first = await snap();
  for (let late = 0; late < 3 && first.timing.captureMs > 0; late++) first = await snap();
  assert.equal(first.timing.captureMs, 0, 'quiet');
  await page.evaluate(() => { document.body.classList.add('no-rule-matches'); document.body.setAttribute('data-unread', '1'); document.getElementById('q').setAttribute('data-state', 'idle'); });
  const same = await snap();
  assert.equal(same.timing.captureMs, 0, 'the walk showed nothing new: the last result, no read');
  assert.equal(same.snapshot.snapshotId, first.snapshot.snapshotId);
  assert.ok((await b.call('browser_click', { tabId, snapshotId: same.snapshot.snapshotId, ref: refOf(same, /button "Click me"/) })).ok, 'its refs act');
  const clicked = await snap();
  assert.ok(clicked.timing.captureMs > 0 && /Clicked 1 times/.test(clicked.snapshot.state), 'a change the walk shows is read');
  // The same text over another node: the last refs hold the old one, so this is a new read
  // (the click focused the button: unfocused first, and read).
  await page.evaluate(() => document.activeElement.blur());
  const blurred = await snap();
  assert.ok(blurred.timing.captureMs > 0);
  await page.evaluate(() => { const c = document.getElementById('counter'); c.replaceWith(c.cloneNode(true)); });
  const copied = await snap();
  assert.ok(copied.timing.captureMs > 0 && copied.snapshot.snapshotId !== blurred.snapshot.snapshotId, 'a copy of a node is not the node the last refs hold');
  assert.ok((await b.call('browser_click', { tabId, snapshotId: copied.snapshot.snapshotId, ref: refOf(copied, /button "Clicked 1 times"/) })).ok);
  assert.match((await snap()).snapshot.state, /Clicked 2 times/, 'the new ref acts on the copy');
  await closeTab(b, page, tabId);
});

test('browser_snapshot after a rule for generated text comes, changes or is replaced (a rule inserted, a sheet rewritten, an adopted sheet replaced): the next read walks and reads it (the tracker tells a sheet replaced with as many rules; the walk asks only elements some such rule matches, and its list of them follows every sheet)', async () => {
  const { page, tabId } = await openTab(b, server, 'basic.html');
  const name = async () => (await b.call('browser_snapshot', { tabId })).snapshot.state.match(/button "([^"]*Go[^"]*)"/)?.[1];
  await page.evaluate(() => {
    const host = document.createElement('div');
    host.innerHTML = '<style id=gen>.x{color:#111} .y{color:#222}</style><button class=x>Go</button>';
    document.body.append(host);
  });
  assert.equal(await name(), 'Go');
  await page.evaluate(() => document.getElementById('gen').sheet.insertRule('.x::before{content:"Let us "}', 1));
  assert.equal(await name(), 'Let us Go', 'a rule inserted between two');
  await page.evaluate(() => { document.getElementById('gen').textContent = '.x::after{content:" now"}'; });
  assert.equal(await name(), 'Go now', 'the sheet rewritten');
  await page.evaluate(() => { const s = new CSSStyleSheet(); s.replaceSync('.x::before{content:"Adopted "}'); document.adoptedStyleSheets = [s]; globalThis.adopted = s; });
  assert.equal(await name(), 'Adopted Go now', 'an adopted sheet');
  await page.evaluate(() => globalThis.adopted.replaceSync('.x::before{content:"Replaced "}'));
  assert.equal(await name(), 'Replaced Go now', 'the adopted sheet replaced');
  await page.evaluate(() => { document.querySelector('button.x').className = 'z'; });
  assert.equal(await name(), 'Go', 'the element no rule matches any more');
  await closeTab(b, page, tabId);
});

test('browser_snapshot of a tab with two frames after changes no walk shows: every frame walks and the last result answers; a change in one frame reads the tab, the other frame\'s walk kept too, and refs in both act', async () => {
  const { page, tabId } = await openTab(b, server, 'basic.html');
  await page.evaluate(() => new Promise((resolve) => {
    const f = Object.assign(document.createElement('iframe'), { srcdoc: '<p id="inner">Inner idle</p><button onclick="this.textContent = \'Inner pressed\'">Inner button</button>', onload: resolve });
    document.body.append(f);
  }));
  await page.waitForTimeout(300);
  const child = page.frames().find((f) => f !== page.mainFrame());
  const snap = () => b.call('browser_snapshot', { tabId, timing: true });
  const refOf = (r, re) => r.snapshot.state.split('\n').find((l) => re.test(l)).match(/\[ref=(\w+)\]/)[1];
  const quiet = async () => {
    let r = await snap();
    for (let late = 0; late < 3 && r.timing.captureMs > 0; late++) r = await snap();
    assert.equal(r.timing.captureMs, 0, 'quiet');
    return r;
  };
  // Two reads walk both frames in one injection each (the first lists the frames).
  await snap();
  const first = await quiet();
  assert.match(first.snapshot.state, /button "Inner button"/);
  await page.evaluate(() => document.body.classList.add('no-rule-matches'));
  await child.evaluate(() => document.body.classList.add('no-rule-here'));
  const same = await snap();
  assert.equal(same.timing.captureMs, 0, 'both frames showed what they showed: the last result');
  assert.equal(same.snapshot.snapshotId, first.snapshot.snapshotId);
  // Only the child frame shows something new: the main frame's walk, the same, is read with it.
  await page.evaluate(() => document.body.classList.remove('no-rule-matches'));
  await child.evaluate(() => { document.getElementById('inner').textContent = 'Inner busy'; });
  const changed = await snap();
  assert.ok(changed.timing.captureMs > 0 && changed.snapshot.snapshotId !== first.snapshot.snapshotId);
  assert.match(changed.snapshot.state, /Inner busy/);
  assert.match(changed.snapshot.state, /button "Click me"/, 'the main frame is in the read');
  assert.ok((await b.call('browser_click', { tabId, snapshotId: changed.snapshot.snapshotId, ref: refOf(changed, /button "Click me"/) })).ok, 'a ref of the walk that showed the same acts');
  assert.ok((await b.call('browser_click', { tabId, snapshotId: changed.snapshot.snapshotId, ref: refOf(changed, /button "Inner button"/) })).ok);
  const after = await snap();
  assert.match(after.snapshot.state, /Clicked 1 times/);
  assert.match(after.snapshot.state, /Inner pressed/);
  await closeTab(b, page, tabId);
});

test('browser_snapshot of a one-frame page, then two frames, then another document: every change is seen by the next read, an unchanged repeat is the last result and its refs act (the plan\'s steps: tests/read_plan.rs)', async () => {
  const { page, tabId } = await openTab(b, server, 'changes.html');
  await page.evaluate(() => document.getElementById('xo').remove());
  await page.waitForFunction(() => !document.querySelector('iframe'));
  await page.waitForTimeout(300);
  const snap = () => b.call('browser_snapshot', { tabId, timing: true });
  /** An unchanged page's repeat: the last result, without a capture (events a change queued may come late). */
  const held = async () => {
    let r = await snap();
    for (let late = 0; late < 3 && r.timing.captureMs > 0; late++) r = await snap();
    assert.equal(r.timing.captureMs, 0, 'an unchanged page is answered without a capture');
    return r;
  };
  {
    const first = await snap();
    assert.ok(!first.error && first.timing.captureMs > 0, JSON.stringify(first).slice(0, 300));
    const seen = [];
    async function expectSeen(what, change, shows) {
      await change();
      let r = await snap();
      assert.ok(!r.error, `${what}: ${JSON.stringify(r.error)}`);
      assert.ok(r.timing.captureMs > 0, `${what}: the last result given again`);
      if (shows) assert.match(r.snapshot.state, shows, `${what}: ${r.snapshot.state}`);
      // Quiet again: a repeat gives that result. The events the change queued may still come,
      // each a frame or more late (a script's scroll sends `scroll`, then `scrollend`).
      let again = await snap();
      for (let late = 0; late < 3 && again.timing.captureMs > 0; late++) [r, again] = [again, await snap()];
      assert.equal(again.timing.captureMs, 0, `${what}: the repeat after it walked`);
      assert.equal(again.snapshot.snapshotId, r.snapshot.snapshotId, `${what}: the repeat is the last result`);
      seen.push(what);
    }
    const repeat = await snap();
    assert.equal(repeat.timing.captureMs, 0);
    assert.equal(repeat.snapshot.snapshotId, first.snapshot.snapshotId, 'a repeat is the last result');
    await expectSeen('text', () => page.evaluate(() => { document.getElementById('status').textContent = 'Status: busy'; }), /Status: busy/);
    await expectSeen('a value set by script', () => page.evaluate(() => { document.getElementById('name').value = 'Grace'; }), /Grace/);
    await expectSeen('a checkbox set by script', () => page.evaluate(() => { document.getElementById('agree').checked = true; }));
    await expectSeen('a select set by script', () => page.evaluate(() => { document.getElementById('size').selectedIndex = 1; }), /Large/);
    await expectSeen('an open shadow root', () => page.evaluate(() => { document.getElementById('open-card').shadowRoot.querySelector('button').textContent = 'Renamed shadow button'; }), /Renamed shadow button/);
    await expectSeen('a closed shadow root attached after insertion', () => page.evaluate(() => window.defineClosed()));
    await expectSeen('a popover shown', () => page.evaluate(() => document.getElementById('pop').showPopover()), /Popover text/);
    await expectSeen('a style rule added through the CSSOM', () => page.evaluate(() => { const s = new CSSStyleSheet(); s.replaceSync('#styled { display: none }'); document.adoptedStyleSheets = [...document.adoptedStyleSheets, s]; }));
    await expectSeen('a scroll', () => page.evaluate(() => window.scrollTo(0, 2500)));
    await expectSeen('an inner scroller scrolled by script', () => page.evaluate(() => { document.getElementById('box').scrollTop = 400; }));
    // A frame added: the tab has two frames now (the frame is shown under its element: the
    // handshake held).
    await page.evaluate(() => { const f = document.createElement('iframe'); f.srcdoc = '<button>Framed button</button>'; document.body.prepend(f); });
    await page.waitForTimeout(300);
    const framed = await snap();
    assert.match(framed.snapshot.state, /- iframe[^\n]*\n\s+- button "Framed button"/);
    await page.evaluate(() => { document.getElementById('status').textContent = 'Status: framed'; });
    assert.match((await snap()).snapshot.state, /Status: framed/);
    const twoFrames = await held();
    const framedRef = twoFrames.snapshot.state.match(/button "Framed button" \[ref=(e\d+)\]/)?.[1];
    const click = await b.call('browser_click', { tabId, ref: framedRef, snapshotId: twoFrames.snapshot.snapshotId });
    assert.ok(!click.error, `a ref in the child frame of the held result acts: ${JSON.stringify(click.error)}`);
    // One frame again; then another document in the tab: the new page is read.
    await page.evaluate(() => document.querySelector('iframe').remove());
    assert.doesNotMatch((await snap()).snapshot.state, /Framed button/);
    await held();
    await page.goto(server.url('changes.html?again'), { waitUntil: 'load' });
    await page.evaluate(() => { document.getElementById('xo').remove(); document.getElementById('status').textContent = 'Status: new document'; });
    const moved = await snap();
    assert.match(moved.snapshot.state, /Status: new document/);
    assert.ok(moved.timing.captureMs > 0, 'a new document is read anew');
    console.log(`one-injection snapshot: ${seen.length} kinds of change seen (${seen.join(', ')}); repeats without a walk`);
  }
  await closeTab(b, page, tabId);
});

test('an AX read after a change on a one-frame page: the document answers through its port with the form-field facts of its new state, so the result\'s last scrub injects nothing and still scrubs a secret typed since', async () => {
  const { page, tabId } = await openTab(b, server, 'changes.html');
  await page.evaluate(() => {
    document.getElementById('xo').remove();
    document.body.insertAdjacentHTML('beforeend', '<label>Password <input type="password" id="pw"></label><p id="copy">Nothing typed</p>');
  });
  await page.waitForTimeout(300);
  await read(tabId);
  await read(tabId);
  const { injected, restore } = await watchInjections();
  try {
    // The page copies what was typed into its text (a live preview).
    await page.evaluate(() => { document.getElementById('pw').value = 'Zq-SECRET-778899'; document.getElementById('copy').textContent = 'You typed Zq-SECRET-778899'; });
    const r = await read(tabId);
    assert.ok(!r.error && r.timing.captureMs > 0, JSON.stringify(r).slice(0, 300));
    assert.match(r.state, /You typed/);
    assert.doesNotMatch(JSON.stringify(r), /Zq-SECRET-778899/, 'the secret typed since the last read is scrubbed');
    assert.deepEqual((await injected()).filter((f) => f === 'fieldFacts'), [], 'the scrub took the facts the port answer brought');
    const again = await read(tabId);
    assert.equal(again.mode, 'unchanged');
    assert.doesNotMatch(JSON.stringify(again), /Zq-SECRET-778899/);
  } finally {
    await restore();
  }
  await closeTab(b, page, tabId);
});
