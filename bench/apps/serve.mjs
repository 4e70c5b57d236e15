// Owns: what every real application of the suite needs to be served: waiting for its HTTP
// port, its Debian package's version, `php -S` for the PHP ones.
// Must never: install anything (./build.sh apps does, from Debian).
import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';

/** Resolves once `url` answers any HTTP status (at most `ms`). */
export async function waitForHttp(url, ms = 20000) {
  const start = Date.now();
  for (;;) {
    const ok = await new Promise((resolve) => {
      http.get(url, (res) => { res.resume(); resolve(true); }).on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() - start > ms) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The installed version of Debian package `pkg`. */
export const debVersion = (pkg) => execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' });

/** `php -S 127.0.0.1:port router` in `cwd`; resolves once it answers. */
export async function phpServer(port, router, { cwd, env } = {}) {
  const proc = spawn('php', ['-S', `127.0.0.1:${port}`, router], { cwd, env: { ...process.env, ...env }, stdio: 'ignore' });
  await waitForHttp(`http://127.0.0.1:${port}/`);
  return { stop: () => proc.kill() };
}
