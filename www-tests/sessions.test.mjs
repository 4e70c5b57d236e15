// Several agents on one browser (issue #54 item 4): each client of the Bridge (an MCP
// connection here; a pi session, a DSH agent, a CLI's PCC_SESSION alike) is its own session —
// its own current tab, tabs, tab group and cleanup. A call without tabId never reaches another
// session's tab.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pccBin, withBridge } from './bridge-harness.mjs';
import { mcpClient } from './mcp-client.mjs';

let b, server, br;
withBridge((c) => ({ server, b, br } = c));

const median = (xs) => [...xs].sort((p, q) => p - q)[Math.floor(xs.length / 2)];

/** An MCP client of its own (`pcc mcp`: one session), initialized. */
async function agent() {
  const c = mcpClient(pccBin, ['mcp', '--tools', 'all'], { env: br.env });
  await c.rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
  c.notify('notifications/initialized');
  const call = async (name, args = {}) => {
    const r = (await c.rpc('tools/call', { name, arguments: args })).result;
    const text = r.content.find((x) => x.type === 'text')?.text ?? '';
    return { error: r.isError ? text : undefined, text };
  };
  return { call, close: c.close };
}

/** The JSON line of a model text (its first line after the fence). */
const head = (text) => JSON.parse(text.split('\n').find((l) => l.startsWith('{')));
const refOf = (text, name) => new RegExp(`"${name}"[^\\n]*\\[ref=(e\\d+)\\]`).exec(text)?.[1];

test("two agents: each one's calls without tabId read its own tab; browser_tabs says whose each tab is; cleanup closes only its own", async () => {
  const [a, c] = [await agent(), await agent()];
  try {
    const ta = head((await a.call('browser_tab_open', { url: server.url('basic.html') })).text).tab.id;
    const tc = head((await c.call('browser_tab_open', { url: server.url('article.html') })).text).tab.id;
    const ra = await a.call('browser_snapshot', {});
    const rc = await c.call('browser_snapshot', {});
    assert.ok(!ra.error && !rc.error, ra.error ?? rc.error);
    assert.equal(head(ra.text).tab?.id, ta);
    assert.equal(head(rc.text).tab?.id, tc);
    assert.ok(ra.text.includes('Orders') && !ra.text.includes('How tides work'), ra.text.slice(0, 300));
    assert.ok(rc.text.includes('tides') && !rc.text.includes('"Orders"'), rc.text.slice(0, 300));
    const tabs = head((await a.call('browser_tabs')).text).tabs;
    const mine = tabs.find((t) => t.id === ta), theirs = tabs.find((t) => t.id === tc);
    assert.equal(mine.mine, true, JSON.stringify(mine));
    assert.ok(/^mcp-/.test(mine.session) && /^mcp-/.test(theirs.session) && mine.session !== theirs.session, JSON.stringify(tabs));
    assert.equal(theirs.mine, undefined);
    const cleaned = head((await a.call('browser_cleanup', {})).text);
    assert.deepEqual(cleaned.closed, [ta], JSON.stringify(cleaned));
    assert.ok(await b.worker.evaluate((id) => chrome.tabs.get(id).then(() => true, () => false), tc), "the other agent's tab stays");
    await c.call('browser_cleanup', {});
  } finally {
    a.close();
    c.close();
  }
});

test('8 agents at once, 50 steps each (a read and a click by ref, no tabId): 0 calls on another agent\'s tab, 0 lost refs', async () => {
  const N = 8, STEPS = 50;
  const agents = await Promise.all(Array.from({ length: N }, agent));
  try {
    const tabs = [];
    for (const [k, a] of agents.entries()) tabs.push(head((await a.call('browser_tab_open', { url: server.url(`agent-work.html?agent=${k}`) })).text).tab.id);
    // One agent alone first: the time of its steps.
    const alone = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      const r = await agents[0].call(i % 2 ? 'browser_click' : 'browser_snapshot', i % 2 ? { ref: agents[0].ref, snapshotId: agents[0].sid } : {});
      alone.push(performance.now() - t0);
      if (!(i % 2)) { agents[0].sid = head(r.text).snapshotId ?? /snapshot-[\w-]+/.exec(r.text)?.[0]; agents[0].ref = refOf(r.text, 'Button one'); }
    }
    const times = [];
    let wrongTab = 0, lostRefs = 0;
    await Promise.all(agents.map(async (a, k) => {
      let sid, ref;
      for (let step = 0; step < STEPS; step++) {
        const t0 = performance.now();
        if (step % 2 === 0) {
          const r = await a.call('browser_snapshot', {});
          assert.ok(!r.error, r.error);
          const h = head(r.text);
          if (h.tab?.id !== tabs[k] || !h.tab.url.endsWith(`?agent=${k}`)) wrongTab++;
          sid = h.snapshotId ?? /snapshot-[\w-]+/.exec(r.text)?.[0];
          ref = refOf(r.text, 'Button one');
        } else {
          const r = await a.call('browser_click', { ref, snapshotId: sid });
          if (r.error) { if (/STALE_REF|TARGET_MISMATCH/.test(r.error)) lostRefs++; else assert.fail(r.error); }

        }
        times.push(performance.now() - t0);
      }
    }));
    const logs = await Promise.all(tabs.map((id) => b.worker.evaluate(async (id) => (await chrome.scripting.executeScript({ target: { tabId: id }, world: 'MAIN', func: () => [...log] }))[0].result, id)));
    const ratio = median(times) / median(alone);
    console.log(`8 agents × ${STEPS} steps: median step ${Math.round(median(times))} ms (alone ${Math.round(median(alone))} ms, ${ratio.toFixed(2)}×), wrong tab ${wrongTab}, lost refs ${lostRefs}`);
    assert.equal(wrongTab, 0);
    assert.equal(lostRefs, 0);
    // Every click landed on the page of the agent that made it (a click on another's page
    // would show up twice there and never here).
    logs.forEach((log, k) => assert.equal(log.filter((e) => e === 'B1').length, STEPS / 2 + (k === 0 ? 5 : 0), `agent ${k}'s clicks all landed on its own page`));
    assert.ok(ratio <= 2, `a step takes ${ratio.toFixed(2)}× its time alone`);
  } finally {
    for (const a of agents) { await a.call('browser_cleanup', {}).catch(() => {}); a.close(); }
  }
});
