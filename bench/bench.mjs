// ./build.sh bench: our extension vs Playwright's AI aria snapshot, same browser, same run.
// Writes bench/results.json and bench/report.html and prints a table. Figures are medians
// of REPS runs (3 × REPS on the corpus's median page); ratios are ours ÷ Playwright measured back to back on the same page. Pages:
// CORPUS_PAGES real pages of the corpus (../shared/corpus/readability, or PCC_CORPUS: an even
// spread, when it is there) first, then the bench's own pages from small to the 50k-node one;
// wasm linear memory is read after each (it only grows: each figure is the peak so far).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { launch } from '../www-tests/harness.mjs';
import { scaled, dataGrid, docsArticle, settingsForm, benchPages, median } from './pages.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPS = Number(process.env.BENCH_REPS || 5);
// Unchanged repeats take milliseconds and move by as much between reads: their medians are
// taken over more reads (a median of 15 moved 3.9 -> 5.8 ms between two runs of the same code).
const REPEAT_REPS = Number(process.env.BENCH_REPEAT_REPS || 41);
const generated = { 'scaled-1k.html': scaled(1000), 'scaled-5k.html': scaled(5000), 'scaled-20k.html': scaled(20000), 'scaled-50k.html': scaled(50000),
  'data-grid.html': dataGrid(), 'docs-article.html': docsArticle(), 'settings-form.html': settingsForm() };
const CORPUS_PAGES = Number(process.env.CORPUS_PAGES ?? 12);

// The change before a read that must not be a repeat: an attribute of <body> that every walk
// reads (so the page-side walk cannot find its last result again) and no style rule matches.
const change = () => document.body.toggleAttribute('title');
// A change no walk shows: an attribute nothing reads (the page-side walk then finds its last
// result again, domwalk.js sameWalk).
const unseen = () => document.body.toggleAttribute('data-bench');
// {label, url, corpus}: the corpus pages, then ours (the 50k-node page last: memory only grows).
const { pages: PAGES, medianPage, server, close: closePages } = await benchPages(generated, CORPUS_PAGES);
PAGES.push(...PAGES.splice(PAGES.findIndex((p) => p.label === 'scaled-50k'), 1));
// Offline: a real page's ads, fonts and trackers fail at once (local servers answer).
const b = await launch({ offline: true, policy: { readUserTabs: 'all' } }); // it reads the pages it opens itself
/** The worker's wasm linear memory now (it only grows within one instance). */
const memory = () => b.worker.evaluate(() => globalThis.pcc.memoryBytes());
const rows = [];
try {
  for (const { label, url, corpus: real } of PAGES) {
    const p = label;
    const page = await b.context.newPage();
    await page.goto(url, { waitUntil: 'load' }).catch(() => {});
    await page.waitForTimeout(200);
    const tabId = await b.tabIdOf(page);
    const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    const cdp = await b.context.newCDPSession(page);
    const ours = [], pw = [], raw = [], axSource = [];
    let snap, aria, axSnap, rawBytes = 0;
    // The corpus's median page carries the issue's figures: three times the runs there (the
    // peer's own time on one page moved 22–57 ms between runs of the same day).
    const reps = p === medianPage ? 3 * REPS : REPS;
    for (let i = 0; i < reps; i++) {
      // A first read each time: one attribute changes, so neither the change tracker nor the
      // walk can give the last result again (the repeat columns measure that).
      await page.evaluate(change);
      let t0 = performance.now();
      snap = await b.call('browser_snapshot', { tabId, timing: true });
      if (snap.error) throw new Error(`${p}: ${snap.error.code} ${snap.error.message}`);
      ours.push({ total: performance.now() - t0, capture: snap.timing.captureMs, wasm: snap.timing.wasmMs });
      await page.evaluate(change);
      t0 = performance.now();
      axSnap = await b.call('browser_snapshot', { tabId, source: 'chromium_ax' });
      axSource.push(performance.now() - t0);
      // Each tool reads a page that has just changed (style and layout to redo), as ours did.
      await page.evaluate(change);
      t0 = performance.now();
      aria = await page.ariaSnapshot({ mode: 'ai' });
      pw.push(performance.now() - t0);
      t0 = performance.now();
      const tree = await cdp.send('Accessibility.getFullAXTree');
      raw.push(performance.now() - t0);
      rawBytes = JSON.stringify(tree).length;
    }
    // browser_snapshot again on the unchanged page: the change tracker gives the last result.
    const snapRepeats = [];
    for (let i = 0; i < REPEAT_REPS; i++) {
      const t0 = performance.now();
      await b.call('browser_snapshot', { tabId });
      snapRepeats.push(performance.now() - t0);
    }
    // AX: full; repeats of the unchanged page (after one read that leaves the page state
    // with the revision); then a diff after one scripted change.
    const axFull = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'bench', disableDiffing: true });
    await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'bench' });
    const repeats = [];
    let repeatMode;
    for (let i = 0; i < REPEAT_REPS; i++) {
      const t0 = performance.now();
      repeatMode = (await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'bench' })).mode;
      repeats.push(performance.now() - t0);
    }
    await page.evaluate(() => { const btn = document.createElement('button'); btn.textContent = 'Added by bench'; (document.querySelector('main') || document.body).appendChild(btn); });
    const t0 = performance.now();
    const axDiff = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'bench' });
    const changeMs = performance.now() - t0;
    /** The median time of `reps` browser_snapshot calls, each after `what` changed the page. */
    const afterEach = async (what) => {
      const ms = [];
      for (let i = 0; i < reps; i++) {
        await page.evaluate(what);
        const t = performance.now();
        await b.call('browser_snapshot', { tabId });
        ms.push(performance.now() - t);
      }
      return median(ms);
    };
    // browser_snapshot after one more change (the first one's tracker state was taken before
    // the AX reads), and after a change no walk shows (the frame walks, the last result answers).
    const snapChangeMs = await afterEach(change);
    const snapUnseenMs = await afterEach(unseen);
    const s = snap.snapshot;
    const memoryBytes = await memory();
    rows.push({
      page: label, corpus: real, domNodes, memoryBytes,
      ours: { repeatMs: median(snapRepeats), changeMs: snapChangeMs, unseenMs: snapUnseenMs, source: snap.snapshot.source, chars: s.charCount, nodes: s.nodeCount, refs: s.refCount, truncated: s.truncated, ms: median(ours.map((o) => o.total)), captureMs: median(ours.map((o) => o.capture)), wasmMs: median(ours.map((o) => o.wasm)), rawObservationBytes: snap.timing.rawBytes },
      axSource: { chars: axSnap.snapshot?.charCount, ms: median(axSource) },
      ax: { fullChars: axFull.charCount, diffMode: axDiff.mode, diffChars: axDiff.charCount, repeatMode, repeatMs: median(repeats), changeMs },
      playwright: { chars: aria.length, refs: (aria.match(/\[ref=/g) || []).length, ms: median(pw) },
      rawAx: { bytes: rawBytes, ms: median(raw) },
    });
    await cdp.detach();
    await page.close();
    console.error(`measured ${p}`);
  }
  // Memory after the largest page (linear memory only grows: this is the peak), and what the
  // worker keeps after 30 s without a call (it renews the instance when idle: core.js), the
  // 50k-node page read again and its tab left open: its refs and AX revision held.
  const wasmMemoryBytes = await memory();
  const held = await b.context.newPage();
  await held.goto(PAGES.at(-1).url, { waitUntil: 'load' });
  const heldTab = await b.tabIdOf(held);
  await b.call('browser_snapshot', { tabId: heldTab });
  await b.call('browser_accessibility_snapshot', { tabId: heldTab, sessionId: 'bench' });
  await new Promise((r) => setTimeout(r, 30000));
  const wasmRetainedBytes = await memory();
  // The peak of one read of the 50k-node page after the page changed, per read kind, each
  // from a renewed instance (linear memory only grows, so memory after the call is its peak).
  const peakBytes = {};
  const renewals = () => b.worker.evaluate(() => globalThis.pcc.renewals());
  await b.worker.evaluate(() => { globalThis.pcc.renewIdleMs = 300; });
  for (const [kind, method, params] of [['snapshot', 'browser_snapshot', {}], ['snapshot chromium_ax', 'browser_snapshot', { source: 'chromium_ax' }], ['accessibility', 'browser_accessibility_snapshot', { sessionId: 'bench' }]]) {
    await held.evaluate(change);
    const r = await b.call(method, { tabId: heldTab, ...params });
    if (r.error) throw new Error(`peak ${kind}: ${r.error.code}`);
    peakBytes[kind] = await memory();
    // Renewed before the next read (at most 10 s).
    const n = await renewals();
    for (let i = 0; i < 100 && (await renewals()) === n; i++) await new Promise((res) => setTimeout(res, 100));
  }
  await b.worker.evaluate(() => { delete globalThis.pcc.renewIdleMs; });
  await held.close();
  const economy = await sessionEconomy();
  const wasmFile = path.join(here, '..', 'extension', 'wasm', 'pcc_bg.wasm');
  const wasmBytes = fs.statSync(wasmFile).size;
  const wasmGzip = zlib.gzipSync(fs.readFileSync(wasmFile), { level: 9 }).length;
  const results = { date: new Date().toISOString(), reps: REPS, chromium: await b.context.browser()?.version?.() ?? null, pages: rows, medianPage, economy, wasmMemoryBytes, wasmRetainedBytes, peakBytes, wasmBytes, wasmGzip };
  fs.writeFileSync(path.join(here, 'results.json'), JSON.stringify(results, null, 2));
  fs.writeFileSync(path.join(here, 'report.html'), report(results));
  printTable(results);
} finally {
  await b.close();
  await closePages();
}

/** 20 steps on the long-session page: our snapshot + AX diff flow vs a full Playwright AI snapshot per step. */
async function sessionEconomy() {
  const page = await b.context.newPage();
  await page.goto(server.url('long-session.html'), { waitUntil: 'load' });
  const tabId = await b.tabIdOf(page);
  const steps = [
    ['read', null],
    ['type a draft', () => { document.querySelector('textarea').value = 'Draft question about budgets'; }],
    ['send', () => { const m = document.createElement('div'); m.innerHTML = '<div><span>user</span></div><p>Draft question about budgets</p>'; document.querySelector('.msg:last-of-type').after(m); document.querySelector('textarea').value = ''; }],
    ['reply arrives', () => { const m = document.createElement('div'); m.innerHTML = '<div><span>assistant</span></div><p>Here is the answer about budgets.</p><button aria-label="Copy message">⧉</button><button>Like</button>'; [...document.querySelectorAll('.msg, main p')].pop().after(m); }],
    ['read again', null],
    ['open tools menu', () => { document.querySelector('[aria-haspopup=menu]').setAttribute('aria-expanded', 'true'); }],
    ['close tools menu', () => { document.querySelector('[aria-haspopup=menu]').setAttribute('aria-expanded', 'false'); }],
    ['toggle beta', () => { const c = document.querySelector('input[name=beta]'); c.checked = !c.checked; }],
    ['pick model', () => { document.querySelector('select[name=model]').value = 'fast'; }],
    ['edit email', () => { document.querySelector('input[name=email]').value = 'other@example.test'; }],
    ['type a password', () => { document.querySelector('input[name=password]').value = 'changed-secret'; }],
    ['read', null],
    ['like reply', () => { const b = [...document.querySelectorAll('button')].filter((x) => x.textContent === 'Like').pop(); b.textContent = 'Liked'; }],
    ['search chats', () => { document.querySelector('input[name=q]').value = 'budget'; }],
    ['second question', () => { const m = document.createElement('div'); m.innerHTML = '<p>And the diff?</p>'; [...document.querySelectorAll('main p')].pop().after(m); }],
    ['second reply', () => { const m = document.createElement('div'); m.innerHTML = '<p>The diff is small.</p><button aria-label="Copy message">⧉</button>'; [...document.querySelectorAll('main p')].pop().after(m); }],
    ['read', null],
    ['rename chat', () => { document.querySelector('h1').textContent = 'Budget session'; }],
    ['retitle first link', () => { document.querySelector('nav a').textContent = 'Pinned chat'; }],
    ['final read', null],
  ];
  let ours = 0, peer = 0;
  const perStep = [];
  for (const [name, fn] of steps) {
    if (fn) await page.evaluate(fn);
    const r = await b.call('browser_accessibility_snapshot', { tabId, sessionId: 'economy' });
    const aria = await page.ariaSnapshot({ mode: 'ai' });
    ours += r.charCount;
    peer += aria.length;
    perStep.push({ step: name, mode: r.mode, ours: r.charCount, playwright: aria.length });
  }
  await page.close();
  return { steps: perStep, oursTotal: ours, playwrightTotal: peer, ratio: ours / peer };
}

function printTable(r) {
  const f = (x, d = 0) => (typeof x === 'number' ? x.toFixed(d) : String(x));
  const head = ['page', 'DOM', 'ours chars', 'nodes', 'refs', 'ours ms', 'capture', 'wasm', 'wasm÷capt', 'AX full', 'AX diff', 'PW chars', 'PW refs', 'PW ms', 'chars÷PW', 'time÷PW', 'AX-source ms', 'AX-source÷PW', 'rawAX KB', 'rawAX ms', 'snapshot repeat ÷PW', 'AX repeat ms', 'repeat÷PW', 'AX 1-change ms', 'change÷PW'];
  const lines = r.pages.map((p) => [p.page, p.domNodes, p.ours.chars, p.ours.nodes, p.ours.refs, f(p.ours.ms), f(p.ours.captureMs), f(p.ours.wasmMs), f(p.ours.wasmMs / p.ours.captureMs, 2),
    p.ax.fullChars, `${p.ax.diffChars} (${p.ax.diffMode})`, p.playwright.chars, p.playwright.refs, f(p.playwright.ms), f(p.ours.chars / p.playwright.chars, 3), f(p.ours.ms / p.playwright.ms, 2), f(p.axSource.ms), f(p.axSource.ms / p.playwright.ms, 2), f(p.rawAx.bytes / 1024), f(p.rawAx.ms),
    f(p.ours.repeatMs / p.playwright.ms, 2), `${f(p.ax.repeatMs)} (${p.ax.repeatMode})`, f(p.ax.repeatMs / p.playwright.ms, 2), f(p.ax.changeMs), f(p.ax.changeMs / p.playwright.ms, 2)]);
  const all = [head, ...lines].map((l) => l.map(String));
  const w = head.map((_, i) => Math.max(...all.map((l) => l[i].length)));
  const out = all.map((l) => '| ' + l.map((c, i) => c.padEnd(w[i])).join(' | ') + ' |');
  out.splice(1, 0, '|' + w.map((x) => '-'.repeat(x + 2)).join('|') + '|');
  console.log(out.join('\n'));
  // The issue's figures, per page: each ÷ Playwright's AI snapshot of the same page.
  const ratio = (p) => ({ first: p.ours.ms / p.playwright.ms, axSource: p.axSource.ms / p.playwright.ms, snapshotRepeat: p.ours.repeatMs / p.playwright.ms, snapshotOneChange: p.ours.changeMs / p.playwright.ms, snapshotUnseen: p.ours.unseenMs / p.playwright.ms, axUnchanged: p.ax.repeatMs / p.playwright.ms, axOneChange: p.ax.changeMs / p.playwright.ms });
  const rh = ['page', 'first read', 'AX source', 'snapshot repeat', 'snapshot one-change', 'snapshot unseen change', 'AX unchanged', 'AX one-change', 'memory after (MiB)'];
  const rl = r.pages.map((p) => { const q = ratio(p); return [p.page + (p.corpus ? ' *' : ''), f(q.first, 2), f(q.axSource, 2), f(q.snapshotRepeat, 2), f(q.snapshotOneChange, 2), f(q.snapshotUnseen, 2), f(q.axUnchanged, 2), f(q.axOneChange, 2), f(p.memoryBytes / 1048576, 1)]; });
  const real = r.pages.filter((p) => p.corpus).map(ratio);
  const kinds = ['first', 'axSource', 'snapshotRepeat', 'snapshotOneChange', 'snapshotUnseen', 'axUnchanged', 'axOneChange'];
  if (real.length) rl.push(['median of * (corpus)', ...kinds.map((k) => f(median(real.map((q) => q[k])), 2)), '']);
  const mid = r.pages.find((p) => p.page === r.medianPage);
  if (mid) rl.push([`corpus's median page (${mid.page})`, ...kinds.map((k) => f(ratio(mid)[k], 2)), '']);
  const ra = [rh, ...rl];
  const rw = rh.map((_, i) => Math.max(...ra.map((l) => String(l[i]).length)));
  console.log('\n÷ Playwright AI snapshot, same page, same run (* = corpus page):\n' + ra.map((l) => '| ' + l.map((c, i) => String(c).padEnd(rw[i])).join(' | ') + ' |').join('\n'));
  console.log(`\nsession economy (20 steps, long-session): ours ${r.economy.oursTotal} chars vs Playwright AI snapshot per step ${r.economy.playwrightTotal} chars = ${r.economy.ratio.toFixed(3)}×`);
  console.log(`wasm: ${r.wasmBytes} bytes (${r.wasmGzip} gzipped); linear memory after every page (the 50k page last): ${(r.wasmMemoryBytes / 1048576).toFixed(1)} MiB, after 30 s idle with the 50k page's tab open: ${(r.wasmRetainedBytes / 1048576).toFixed(1)} MiB`);
  console.log(`50k page, peak of one read from a renewed instance: ${Object.entries(r.peakBytes ?? {}).map(([k, v]) => `${k} ${(v / 1048576).toFixed(1)} MiB`).join(', ')}`);
  const s = r.pages.filter((p) => p.page.startsWith('scaled-'));
  console.log('growth (ours ms per 1k DOM nodes): ' + s.map((p) => `${p.page} ${(p.ours.ms / (p.domNodes / 1000)).toFixed(2)}`).join(', '));
}

function report(r) {
  const esc = (s) => String(s).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' }[c]));
  const bars = (title, series, unit, log) => {
    const max = Math.max(...r.pages.flatMap((p) => series.map((s) => s.get(p))));
    const scale = (v) => (log ? Math.log10(1 + v) / Math.log10(1 + max) : v / max) * 360;
    const rowH = 16 * series.length + 10;
    const g = r.pages.map((p, i) => `<text x="0" y="${i * rowH + 14}" font-size="12">${esc(p.page)}</text>` + series.map((s, k) => {
      const v = s.get(p);
      return `<rect x="130" y="${i * rowH + k * 16}" width="${Math.max(1, scale(v))}" height="13" fill="${s.color}"/><text x="${135 + scale(v)}" y="${i * rowH + k * 16 + 11}" font-size="11">${esc(Math.round(v))} ${unit}</text>`;
    }).join('')).join('');
    const legend = series.map((s, k) => `<rect x="${130 + k * 160}" y="0" width="12" height="12" fill="${s.color}"/><text x="${146 + k * 160}" y="11" font-size="12">${esc(s.name)}</text>`).join('');
    return `<h2>${esc(title)}</h2><svg width="640" height="${r.pages.length * rowH + 30}"><g>${legend}</g><g transform="translate(0,24)">${g}</g></svg>`;
  };
  const ours = '#2a7', pw = '#c55', raw = '#888';
  return `<!doctype html><html><head><meta charset="utf-8"><title>pi-control-chrome benchmark</title>
<style>body{font-family:sans-serif;margin:24px;max-width:960px}table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:3px 6px;text-align:right}</style></head><body>
<h1>pi-control-chrome vs Playwright AI aria snapshot</h1><p>${esc(r.date)} · median of ${r.reps} runs · same browser, same run.</p>
${bars('Model-visible characters (log scale)', [{ name: 'ours browser_snapshot', color: ours, get: (p) => p.ours.chars }, { name: 'Playwright ai', color: pw, get: (p) => p.playwright.chars }], 'chars', true)}
${bars('End-to-end time', [{ name: 'ours', color: ours, get: (p) => p.ours.ms }, { name: 'Playwright ai', color: pw, get: (p) => p.playwright.ms }, { name: 'raw getFullAXTree', color: raw, get: (p) => p.rawAx.ms }, { name: 'ours, source chromium_ax', color: '#27a', get: (p) => p.axSource.ms }], 'ms', false)}
${bars('Our time split', [{ name: 'CDP capture', color: raw, get: (p) => p.ours.captureMs }, { name: 'wasm', color: ours, get: (p) => p.ours.wasmMs }], 'ms', false)}
<h2>Session economy (20 steps on the long-session page)</h2><p>ours ${r.economy.oursTotal} chars vs ${r.economy.playwrightTotal} chars: <b>${r.economy.ratio.toFixed(3)}×</b></p>
<table><tr><th>step</th><th>our mode</th><th>ours</th><th>Playwright</th></tr>${r.economy.steps.map((s) => `<tr><td>${esc(s.step)}</td><td>${s.mode}</td><td>${s.ours}</td><td>${s.playwright}</td></tr>`).join('')}</table>
<h2>Build</h2><p>wasm ${r.wasmBytes} bytes (${r.wasmGzip} gzipped); wasm linear memory after the 50k-node page ${(r.wasmMemoryBytes / 1048576).toFixed(1)} MiB, after 30 s idle with its tab open ${(r.wasmRetainedBytes / 1048576).toFixed(1)} MiB.</p>
<h2>Raw figures</h2><pre>${esc(JSON.stringify(r.pages, null, 1))}</pre></body></html>`;
}
