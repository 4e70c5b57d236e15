// Generated benchmark pages: scaled synthetic pages (nested generic wrappers, forms, tables,
// lists, an iframe) and three realistic ones (a data grid, a docs article, a settings form).
// Deterministic: the same page every run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { corpusServer, pagesOf, fullDir } from '../www-tests/corpus.mjs';
import { startServer } from '../www-tests/server.mjs';
function rng(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}
const WORDS = 'budget snapshot order table filter revision iframe search token layout worker query render model page node diff'.split(' ');
const words = (r, n) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
const wrap = (depth, inner) => { for (let i = 0; i < depth; i++) inner = `<div class="w${i}">${inner}</div>`; return inner; };
const shell = (title, body) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** About `n` DOM elements of mixed content. */
export function scaled(n) {
  const r = rng(n);
  const parts = [`<nav aria-label="Menu"><ul>${Array.from({ length: 20 }, (_, i) => `<li><a href="/m/${i}">${words(r, 2)}</a></li>`).join('')}</ul></nav><main><h1>Scaled ${n}</h1>`];
  let count = 30;
  let k = 0;
  while (count < n) {
    const kind = k++ % 4;
    if (kind === 0) { parts.push(wrap(6, `<p>${words(r, 12)}</p><button>Action ${k}</button>`)); count += 8; }
    else if (kind === 1) { parts.push(`<form aria-label="Form ${k}"><label>Name ${k} <input name="n${k}"></label><label><input type="checkbox"> Opt ${k}</label><select aria-label="Pick ${k}"><option>a</option><option>b</option></select><button>Save ${k}</button></form>`); count += 9; }
    else if (kind === 2) { parts.push(`<table><tr><th>Col A</th><th>Col B</th></tr>${Array.from({ length: 5 }, () => `<tr><td>${words(r, 2)}</td><td>${Math.floor(r() * 1000)}</td></tr>`).join('')}</table>`); count += 19; }
    else { parts.push(`<ul>${Array.from({ length: 8 }, (_, i) => `<li>${wrap(2, `<a href="/l/${k}/${i}">${words(r, 3)}</a>`)}</li>`).join('')}</ul>`); count += 33; }
  }
  parts.push(`<iframe title="Embedded" width="400" height="200" srcdoc="<h2>Embedded</h2><button>Inner</button>"></iframe></main>`);
  return shell(`Scaled ${n}`, parts.join(''));
}

export function dataGrid() {
  const r = rng(7);
  const head = ['Order', 'Customer', 'Status', 'Total', 'Date', 'Region', 'Owner', ''].map((h) => `<th>${h}</th>`).join('');
  const rows = Array.from({ length: 250 }, (_, i) => `<tr><td>#${1000 + i}</td><td>${words(r, 2)}</td><td>${['open', 'paid', 'late'][i % 3]}</td><td>${(r() * 900).toFixed(2)}</td><td>2026-11-${(i % 28) + 1}</td><td>${words(r, 1)}</td><td>${words(r, 1)}</td><td><button>Edit</button><button>Delete</button></td></tr>`).join('');
  return shell('Orders grid', `<h1>Orders</h1><input type="search" aria-label="Filter orders"><button>Export</button><table role="grid"><tr>${head}</tr>${rows}</table><nav aria-label="Pages"><a href="?p=2">Next</a></nav>`);
}

export function docsArticle() {
  const r = rng(11);
  const toc = Array.from({ length: 60 }, (_, i) => `<li><a href="#s${i}">Section ${i}: ${words(r, 2)}</a></li>`).join('');
  const body = Array.from({ length: 40 }, (_, i) => `<h2 id="s${i}">Section ${i}</h2>${Array.from({ length: 4 }, () => `<p>${words(r, 40)}</p>`).join('')}<pre><code>${words(r, 10)}\n${words(r, 10)}</code></pre>`).join('');
  return shell('Docs', `<header><a href="/">Docs home</a><input type="search" aria-label="Search docs"></header><aside><nav aria-label="Table of contents"><ul>${toc}</ul></nav></aside><main><article><h1>Guide</h1>${body}</article></main><footer>© docs</footer>`);
}

export function settingsForm() {
  const sections = Array.from({ length: 12 }, (_, s) => `<fieldset><legend>Section ${s}</legend>${Array.from({ length: 8 }, (_, i) => {
    const k = s * 8 + i;
    return i % 3 === 0 ? `<label><input type="checkbox" name="c${k}"${k % 2 ? ' checked' : ''}> Toggle ${k}</label>`
      : i % 3 === 1 ? `<label>Value ${k} <input name="v${k}" value="v${k}"></label>` : `<label>Choice ${k} <select name="s${k}"><option>one</option><option>two</option></select></label>`;
  }).join('')}</fieldset>`).join('');
  return shell('Settings', `<h1>Settings</h1><form aria-label="Settings">${sections}<label>Password <input type="password" value="bench-SECRET"></label><button>Save</button></form>`);
}

/**
 * The corpus pages the bench reads: an even spread of `count` of them (`corpus`: every page
 * name, in order), the corpus's median page (the middle of all its pages by the elements of
 * its source) and the pages with 20+ frames (news sites' ad slots: every read of them once
 * waited out the frame-answer limit). `{spread, medianPage}`.
 */
export function corpusSpread(corpus, count, dir = fullDir) {
  if (!corpus.length || count <= 0) return { spread: [], medianPage: null };
  const spread = corpus.filter((_, i) => i % Math.max(1, Math.floor(corpus.length / count)) === 0).slice(0, count);
  const tags = (name) => (fs.readFileSync(path.join(dir, name, 'source.html'), 'utf8').match(/<[a-zA-Z]/g) || []).length;
  const medianPage = corpus.map((name) => [name, tags(name)]).sort((a, b) => a[1] - b[1])[Math.floor(corpus.length / 2)][0];
  for (const name of [medianPage, 'cnn', 'breitbart', 'gmw']) if (corpus.includes(name) && !spread.includes(name)) spread.push(name);
  return { spread, medianPage };
}

/** The middle value of `xs` (the upper one of an even count). */
export const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

/**
 * The pages a bench script reads, `{pages: [{label, url, corpus}], medianPage, server, close}`:
 * corpusSpread's corpus pages, then the long-session page and `generated` (`{file: html}`,
 * served under `gen/` from a temporary directory), in that order.
 */
export async function benchPages(generated, count) {
  const genDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pcc-bench-'));
  for (const [name, html] of Object.entries(generated)) fs.writeFileSync(path.join(genDir, name), html);
  const server = await startServer(genDir);
  const corpus = fs.existsSync(fullDir) ? pagesOf(fullDir) : [];
  const corpusSrv = corpus.length ? await corpusServer(fullDir) : null;
  const { spread, medianPage } = corpusSpread(corpus, count);
  const pages = [
    ...spread.map((name) => ({ label: name, url: corpusSrv.url(name), corpus: true })),
    ...['long-session.html', ...Object.keys(generated).map((n) => `gen/${n}`)].map((p) => ({ label: p.replace(/^gen\//, '').replace(/\.html$/, ''), url: server.url(p), corpus: false })),
  ];
  const close = async () => {
    await server.close();
    await corpusSrv?.close();
    fs.rmSync(genDir, { recursive: true, force: true });
  };
  return { pages, medianPage, server, close };
}
