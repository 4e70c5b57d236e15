// Captures the literal HTML cases of tests/rules.rs in real Chromium, both sources: the CDP
// observation the extension takes (AX + DOMSnapshot, via extension/read/capture.js) and the
// content-script DOM walk (extension/domwalk.js). Writes tests/captures/rules.json.gz,
// keyed by case name, with each case's HTML so the native suite can tell a stale capture.
//
//   node www-tests/capture-rules.mjs          (./build.sh capture-rules)
//
// A case in tests/rules.rs is written `rule("name", r#"<html…>"#, …)` (optionally with a
// selector: `scoped("name", "css", r#"<html…>"#, …)`).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { captureObservation } from '../extension/read/capture.js';
import { domWalk } from '../extension/read/walker.js';
import { limits } from '../pkg/node/pcc.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
// Must match `COMPUTED_STYLES` in src/tree/layout.rs (the extension asks wasm for it).
const STYLES = ['display', 'visibility', 'opacity', 'position', 'pointer-events', 'cursor'];

/** The cases of tests/rules.rs: [{name, selector?, html}]. */
export function ruleCases() {
  const src = fs.readFileSync(path.join(root, 'tests', 'rules.rs'), 'utf8');
  const out = [];
  const re = /\b(rule2?|walk_rule|scoped|sample)\(\s*"([a-z0-9_]+)",\s*(?:"((?:[^"\\]|\\.)*)",\s*)?r#"([\s\S]*?)"#/g;
  for (const m of src.matchAll(re)) out.push({ name: m[2], selector: m[1] === 'scoped' ? JSON.parse(`"${m[3]}"`) : null, html: m[4] });
  return out;
}

const cases = ruleCases();
// The walk's caps from budget.rs, as the extension passes them (the JS-host build of the core).
const L = limits();
const caps = { attrChars: L.walkAttrChars, pseudoChars: L.walkPseudoChars };
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const out = {};
try {
  const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
  // Served from a (routed, never reached) localhost origin: a secure context like real pages.
  let current = '';
  await page.route('http://localhost:9/**', (r) => r.fulfill({ contentType: 'text/html', body: current }));
  for (const c of cases) {
    current = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${c.name}</title></head><body>${c.html}</body></html>`;
    await page.goto(`http://localhost:9/${c.name}`, { waitUntil: 'load' });
    await page.waitForTimeout(30);
    const cdp = await page.context().newCDPSession(page);
    const ax = await captureObservation([{ session: '', send: (m, p) => cdp.send(m, p) }], STYLES);
    if (c.selector) {
      // What the extension does for a selector: DOM.querySelector → backend node id.
      const { root: doc } = await cdp.send('DOM.getDocument', { depth: 0 });
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: doc.nodeId, selector: c.selector });
      if (nodeId) {
        const { node } = await cdp.send('DOM.describeNode', { nodeId });
        ax.scope = { session: '', backendNodeId: node.backendNodeId };
      }
    }
    await cdp.detach();
    const r = await page.evaluate(`(${domWalk.toString()})(${JSON.stringify(c.selector)}, ${L.walkMaxNodes}, ${L.walkTextChars}, null, null, true, ${JSON.stringify(caps)})`);
    const dom = { url: r.url, title: r.title, viewport: r.viewport, frames: [], snapshots: [], domWalk: { ...r.walk, nodes: JSON.parse(r.walk.nodes) } };
    if (r.scopeIndex !== undefined) dom.scope = { walkIndex: r.scopeIndex };
    out[c.name] = { html: c.html, selector: c.selector, ax, dom };
  }
} finally {
  await browser.close();
}
const file = path.join(root, 'tests', 'captures', 'rules.json.gz');
fs.writeFileSync(file, zlib.gzipSync(JSON.stringify(out), { level: 9 }));
console.log(`${cases.length} rule cases → ${path.relative(root, file)} (${fs.statSync(file).size} bytes)`);
