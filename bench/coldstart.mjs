// ./build.sh bench: the worker's cold start (issue #36: a bound users feel, instead of the
// module's bytes). An MV3 worker is stopped after 30 s idle and starts again on the next
// event; measured here: the worker stopped (CDP Target.closeTarget), started again (the
// keeper document wakes it), and from its start until its first `browser_snapshot` of the
// corpus's median page is answered (counted as if the call came at the start: the core's
// readiness plus the call's own time) (the page's own scripts stay warm, as they do for a user),
// with the module's fetch + compile + instantiate time apart. Medians of COLD_REPS (default 7).
// Writes bench/coldstart.json; the module's size (raw, gzip) beside it.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { launch, extensionDir } from '../www-tests/harness.mjs';
import { startServer } from '../www-tests/server.mjs';
import { corpusServer, pagesOf, fullDir } from '../www-tests/corpus.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPS = Number(process.env.COLD_REPS || 7);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const tags = (name) => (fs.readFileSync(path.join(fullDir, name, 'source.html'), 'utf8').match(/<[a-zA-Z]/g) || []).length;

const corpus = fs.existsSync(fullDir) ? pagesOf(fullDir) : [];
const corpusSrv = corpus.length ? await corpusServer(fullDir) : null;
const server = corpus.length ? null : await startServer();
const pageName = corpus.length ? corpus.map((n) => [n, tags(n)]).sort((a, b) => a[1] - b[1])[Math.floor(corpus.length / 2)][0] : 'long-session';
const url = corpusSrv ? corpusSrv.url(pageName) : server.url('long-session.html');

const b = await launch({ offline: true, policy: { readUserTabs: 'all' } });
try {
  const page = await b.context.newPage();
  await page.goto(url, { waitUntil: 'load' }).catch(() => {});
  const tabId = await b.tabIdOf(page);
  const warm = await b.call('browser_snapshot', { tabId });
  if (warm.error) throw new Error(`warm read: ${warm.error.code}`);
  const cdp = await b.context.browser().newBrowserCDPSession();
  const runs = [];
  for (let i = 0; i < REPS; i++) {
    const { targetInfos } = await cdp.send('Target.getTargets');
    const sw = targetInfos.find((t) => t.type === 'service_worker' && t.url.endsWith('/background.js'));
    await cdp.send('Target.closeTarget', { targetId: sw.targetId });
    // Playwright's worker handle follows the restarted worker (the same target id); the first
    // evaluate that reaches it makes the call. Times are the worker's own, from its start.
    let run;
    for (let t = 0; t < 200 && !run; t++) {
      run = await b.worker.evaluate(async (tab) => {
        if (performance.now() > 5000) return null; // still the old worker
        const calledMs = performance.now();
        while (!globalThis.pcc) await new Promise((r) => setTimeout(r, 1));
        const r = await globalThis.pcc.call('browser_snapshot', { tabId: tab });
        return { calledMs, answeredMs: performance.now(), error: r.error && `${r.error.code} ${r.error.message}`, ...(await globalThis.pcc.startup()) };
      }, tabId).catch(() => null);
      if (!run) await new Promise((r) => setTimeout(r, 25));
    }
    if (!run || run.error) throw new Error(`cold read: ${run?.error ?? 'the worker did not start again'}`);
    // Had the call come at the worker's start: the core's readiness, then the call's own time.
    run.firstSnapshotMs = run.calledMs <= run.readyMs ? run.answeredMs : run.readyMs + (run.answeredMs - run.calledMs);
    runs.push(run);
  }
  const wasmFile = path.join(extensionDir, 'wasm', 'pcc_bg.wasm');
  const out = {
    date: new Date().toISOString(),
    page: pageName,
    reps: REPS,
    wasmBytes: fs.statSync(wasmFile).size,
    wasmGzip: zlib.gzipSync(fs.readFileSync(wasmFile), { level: 9 }).length,
    instantiateMs: median(runs.map((r) => r.instantiateMs)),
    readyMs: median(runs.map((r) => r.readyMs)),
    firstSnapshotMs: median(runs.map((r) => r.firstSnapshotMs)),
    runs,
  };
  fs.writeFileSync(path.join(here, 'coldstart.json'), JSON.stringify(out, null, 2));
  const f = (x) => x.toFixed(1);
  console.log(`cold start on ${pageName} (median of ${REPS}): module ${out.wasmBytes.toLocaleString('en')} bytes (${out.wasmGzip.toLocaleString('en')} gzip); instantiate ${f(out.instantiateMs)} ms; core ready ${f(out.readyMs)} ms after the worker started; first browser_snapshot answered at ${f(out.firstSnapshotMs)} ms`);
} finally {
  await b.close();
  await corpusSrv?.close();
  await server?.close();
}
