// A tiny static server on 127.0.0.1 for the test pages (and the same pages on `localhost`,
// which is another site, so an iframe from it is cross-origin and out of process).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const pagesDir = path.join(here, 'pages');

/** Serves `pages/`, and `extraDir` (generated benchmark pages) under `/gen/`. */
export async function startServer(extraDir) {
  const hung = new Set();
  // Every request's Host and path, newest last (the consent tests count what reached an origin).
  const seen = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    seen.push({ host: req.headers.host ?? '', path: req.url });
    if (seen.length > 10000) seen.shift();
    let name = decodeURIComponent(url.pathname).replace(/^\/+/, '') || 'basic.html';
    if (name === 'echo') {
      // A tiny JSON endpoint for network tests (a body the journal must never keep).
      // `ms`: answer that much later (a slow autocomplete backend).
      const ms = Math.min(Number(url.searchParams.get('ms')) || 0, 5000);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ body: 'response-BODY-SECRET', i: url.searchParams.get('i') }));
      }, ms);
      return;
    }
    if (name === 'slow-post') {
      // A login form's POST that the server answers late with a redirect (a real application's
      // "Log in"): `ms` later, 302 to `to`.
      const ms = Math.min(Number(url.searchParams.get('ms')) || 0, 10000);
      req.resume();
      req.on('end', () => setTimeout(() => {
        res.writeHead(302, { location: `/${url.searchParams.get('to') || 'article.html'}`, 'cache-control': 'no-store' });
        res.end();
      }, ms));
      return;
    }
    if (name === 'hang') {
      // A response that never comes (an ad server that holds the connection): closed with the server.
      hung.add(res);
      return;
    }
    const root = extraDir && name.startsWith('gen/') ? extraDir : pagesDir;
    const file = path.join(root, path.normalize(root === pagesDir ? name : name.slice(4)));
    if (!file.startsWith(root) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>Not found</title><h1>Not found: ${name.replace(/[<&]/g, '')}</h1>`);
      return;
    }
    const type = file.endsWith('.html') ? 'text/html; charset=utf-8' : file.endsWith('.css') ? 'text/css' : 'application/octet-stream';
    const headers = { 'content-type': type, 'cache-control': 'no-store' };
    if (name.startsWith('strict-csp')) headers['content-security-policy'] = "script-src 'self'; object-src 'none'";
    res.writeHead(200, headers);
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    crossOrigin: `http://localhost:${port}`,
    url: (p) => `http://127.0.0.1:${port}/${p}`,
    crossUrl: (p) => `http://localhost:${port}/${p}`,
    /** The requests that reached the server through host `host` (e.g. `localhost`). */
    requestsTo: (host) => seen.filter((r) => r.host.split(':')[0] === host),
    close: () => new Promise((r) => {
      for (const res of hung) res.destroy();
      server.close(r);
      // (a browser's kept-alive connection would hold the close for minutes)
      server.closeAllConnections();
    }),
  };
}
