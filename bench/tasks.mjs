// ./build.sh bench (part 2): scripted multi-step tasks driven over MCP, our `pcc mcp`
// against `@playwright/mcp` (npm, same Chromium binary), same pages, same run. The policy
// is the same for both: open the page, find each step's target in the state the tool has
// shown so far (reading again when it is not there, or after an action that did not show
// the page), act on its ref. What is counted is every character of every tool result a
// model would read (MCP text content), per task and per side.
//
// Writes bench/tasks.json and prints a table. `node bench/tasks.mjs [--corpus N]`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch } from '../www-tests/harness.mjs';
import { startServer } from '../www-tests/server.mjs';
import { startBridge, pccBin } from '../www-tests/bridge-harness.mjs';
import { corpusServer, pagesOf, fullDir } from '../www-tests/corpus.mjs';
import { mcpServer, playwrightServer, ours, playwright, runTask, has, after } from './mcp-sides.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

function localTasks(server) {
  return [
    { name: 'search form', url: server.url('basic.html'), steps: [
      ['browser_type', has(/textbox "Search"/), { text: 'orders' }],
      ['browser_click', has(/button "Query"/)],
      ['browser_click', has(/checkbox "Remember me"/)],
    ] },
    { name: 'date picker + autocomplete', url: server.url('settle.html'), steps: [
      ['browser_click', has(/button "Pick a date"/)],
      ['browser_click', has(/button "Submit date"/)],
      ['browser_type', has(/textbox "City"/), { text: 'Lis' }],
      ['browser_click', has(/button "Suggest"/)],
      ['browser_click', has(/link "Lisbon"/)],
    ] },
    { name: 'long chat page', url: server.url('long-session.html'), steps: [
      ['browser_type', has(/(textbox|searchbox) "Search chats"/), { text: 'fence' }],
      ['browser_click', has(/button "New chat"/)],
      ['browser_click', has(/button "Like"/)],
    ] },
    { name: 'smooth-scrolling rows', url: server.url('smooth-rows.html'), steps: [
      ['browser_click', after(/Order 3\b/, /button "Delete"/)],
      ['browser_click', after(/Order 5\b/, /button "Delete"/)],
    ] },
  ];
}

/** Real pages: read, look again (nothing changed), then press the first named button if
 * there is one (an optional step: a page without one skips it on both sides). */
function corpusTasks(cserver, names) {
  return names.map((n) => ({ name: `corpus ${n}`, url: cserver.url(n), steps: [
    ['read'],
    ['read'],
    ['browser_click', has(/button "[^"]+"/), undefined, { optional: true }],
  ] }));
}

async function main() {
  const corpusN = Number(process.argv[process.argv.indexOf('--corpus') + 1]) || 6;
  const server = await startServer();
  const names = fs.existsSync(fullDir) ? pagesOf(fullDir).slice(0, corpusN) : [];
  const cserver = names.length ? await corpusServer(fullDir) : null;
  const b = await launch({ offline: true });
  const br = await startBridge(b);
  const pcc = await mcpServer(pccBin, ['mcp'], { env: { ...process.env, ...br.env } });
  const pw = await playwrightServer();
  const only = process.env.BENCH_TASK;
  const tasks = [...localTasks(server), ...(cserver ? corpusTasks(cserver, names) : [])].filter((t) => !only || t.name.includes(only));
  const rows = [];
  try {
    for (const task of tasks) {
      const a = await runTask(ours(pcc), task);
      const p = await runTask(playwright(pw), task);
      rows.push({ task: task.name, ours: a, playwright: p, ratio: a.chars / p.chars });
      console.log(`${task.name.padEnd(40)} ours ${String(a.chars).padStart(7)} chars / ${a.calls} calls${a.failed ? ` FAILED (${a.failed})` : ''}   playwright-mcp ${String(p.chars).padStart(7)} / ${p.calls}${p.failed ? ` FAILED (${p.failed})` : ''}   ratio ${(a.chars / p.chars).toFixed(2)}`);
    }
  } finally {
    pcc.close();
    pw.close();
    await br.close();
    await b.close();
    await server.close();
    await cserver?.close();
  }
  const both = rows.filter((r) => !r.ours.failed && !r.playwright.failed);
  const total = (k) => both.reduce((n, r) => n + r[k].chars, 0);
  const median = (xs) => { const s = [...xs].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
  const summary = { tasks: rows.length, completedByBoth: both.length, oursChars: total('ours'), playwrightChars: total('playwright'),
    totalRatio: total('ours') / total('playwright'), medianRatio: median(both.map((r) => r.ratio)) };
  console.log(JSON.stringify(summary));
  fs.writeFileSync(path.join(here, 'tasks.json'), `${JSON.stringify({ date: new Date().toISOString(), summary, rows }, null, 1)}\n`);
}

await main();
