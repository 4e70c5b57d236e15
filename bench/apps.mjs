// ./build.sh apps: real web applications installed from Debian and served on loopback
// (bench/apps/*.mjs: Fossil, Adminer, phpLiteAdmin), each driven through the same scripted plan
// by our `pcc mcp` and by `@playwright/mcp`, each on an instance of its own. A task is judged
// from the application's own state (its database), never from what a tool answered; what
// is counted is every character of every tool result a model would read.
//
// Writes bench/apps.json and prints a table. `node bench/apps.mjs [--app NAME]`;
// BENCH_TASK=regex runs matching tasks only (and those marked `always`: the logins),
// BENCH_SIDE=pcc|playwright-mcp one side only, BENCH_VERBOSE=1|2 prints the results.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../www-tests/harness.mjs';
import { startBridge, pccBin, freePort } from '../www-tests/bridge-harness.mjs';
import { mcpServer, playwrightServer, ours, playwright, runTask } from './mcp-sides.mjs';
import * as fossil from './apps/fossil.mjs';
import * as adminer from './apps/adminer.mjs';
import * as phpliteadmin from './apps/phpliteadmin.mjs';



const here = path.dirname(fileURLToPath(import.meta.url));
const APPS = [fossil, adminer, phpliteadmin];

/** Runs `app`'s tasks on `side` against an instance of its own; one row per task. */
async function runApp(app, makeSide) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `app-${app.name}-`));
  const instance = await app.start(dir, await freePort());
  const rows = [];
  try {
    const only = process.env.BENCH_TASK;
    for (const task of app.tasks(instance)) {
      if (only && !new RegExp(only).test(task.name) && !task.always) continue;
      const side = makeSide();
      const r = await runTask(side, { ...task, url: task.url !== undefined && instance.url(task.url) });
      let done = false;
      try { done = await task.check(instance); } catch (e) { r.checkError = String(e.message || e).slice(0, 160); }
      rows.push({ task: task.name, done, ...r });
    }
  } finally {
    instance.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { version: instance.version, rows };
}

async function main() {
  const pick = process.argv.includes('--app') ? process.argv[process.argv.indexOf('--app') + 1] : null;
  const apps = APPS.filter((a) => !pick || a.name === pick);
  const b = await launch({ offline: true });
  const br = await startBridge(b);
  const pcc = await mcpServer(pccBin, ['mcp'], { env: { ...process.env, ...br.env } });
  const pw = await playwrightServer({ blocked: null });
  const report = { date: new Date().toISOString(), apps: [] };
  try {
    for (const app of apps) {
      const skip = { rows: [] };
      const a = process.env.BENCH_SIDE === 'playwright-mcp' ? skip : await runApp(app, () => ours(pcc));
      const p = process.env.BENCH_SIDE === 'pcc' ? skip : await runApp(app, () => playwright(pw));
      if (process.env.BENCH_SIDE) { for (const r of [...a.rows, ...p.rows]) console.log(r.task, r.done ? 'done' : 'NOT DONE', r.chars, r.failed || ''); continue; }
      const tasks = a.rows.map((r, i) => ({ task: r.task, ours: r, playwright: p.rows[i], ratio: r.chars / p.rows[i].chars }));
      for (const t of tasks) {
        const side = (r) => `${r.done ? 'done' : 'NOT DONE'} ${String(r.chars).padStart(7)} chars / ${String(r.calls).padStart(2)} calls${r.failed ? ` (${r.failed})` : ''}${r.checkError ? ` [check: ${r.checkError}]` : ''}`;
        console.log(`${app.name.padEnd(12)} ${t.task.padEnd(44)} ours ${side(t.ours)}   playwright-mcp ${side(t.playwright)}   ratio ${t.ratio.toFixed(2)}`);
      }
      const sum = (k) => tasks.reduce((n, t) => n + t[k].chars, 0);
      const summary = { app: app.name, version: a.version, tasks: tasks.length,
        oursDone: tasks.filter((t) => t.ours.done).length, playwrightDone: tasks.filter((t) => t.playwright.done).length,
        oursChars: sum('ours'), playwrightChars: sum('playwright'), totalRatio: sum('ours') / sum('playwright'),
        worstRatio: Math.max(...tasks.map((t) => t.ratio)) };
      console.log(JSON.stringify(summary));
      report.apps.push({ summary, tasks });
    }
  } finally {
    pcc.close();
    pw.close();
    await br.close();
    await b.close();
  }
  if (!process.env.BENCH_TASK) fs.writeFileSync(path.join(here, 'apps.json'), `${JSON.stringify(report, null, 1)}\n`);
}

await main();
