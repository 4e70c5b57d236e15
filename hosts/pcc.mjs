// Running `pcc` from a JavaScript host (the pi extension, the DSH plugin, the Skill's script):
// where the binary is, and what a host says when it cannot run it.
//
// Owns: finding `pcc` and the words for a missing one. Must never: retry a call (a side effect
// is never replayed), or start the Bridge itself (`pcc` does, when none answers).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { root } from './catalogue.mjs';

const exe = process.platform === 'win32' ? 'pcc.exe' : 'pcc';

/**
 * The `pcc` binary: `override` (a host setting), $PCC_BIN, this checkout's build, `pcc` on the
 * PATH, or where `./build.sh install` puts it (~/.local/bin) when that is not on the PATH.
 */
export function pccBin(override) {
  if (override) return override;
  if (process.env.PCC_BIN) return process.env.PCC_BIN;
  for (const profile of ['release', 'debug']) {
    const p = join(root, 'target', profile, exe);
    if (existsSync(p)) return p;
  }
  const dirs = (process.env.PATH ?? '').split(process.platform === 'win32' ? ';' : ':').filter(Boolean);
  if (dirs.some((d) => existsSync(join(d, exe)))) return 'pcc';
  const installed = join(homedir(), '.local', 'bin', exe);
  return existsSync(installed) ? installed : 'pcc';
}

/** What to say when `bin` cannot run: the fix, not an exit code. */
export function notFound(bin, cause) {
  return `BRIDGE_UNREACHABLE: \`pcc\` not found (${bin}: ${cause}) (hint: run ./build.sh install in the pi-control-chrome checkout, then \`pcc setup\` once; or set PCC_BIN to the binary)`;
}

/** An agent session id as the Bridge takes it (1 to 64 of `A-Z a-z 0-9 . _ : -`): other
 * characters become `-`. */
export function sessionId(raw) {
  const id = String(raw ?? '').replace(/[^A-Za-z0-9._:-]/g, '-').slice(0, 64);
  return id || undefined;
}

/** `pcc ARGS` → `{code, stdout, stderr}`; code 3 with `notFound`'s words when it cannot run.
 * `session`: the agent session the call belongs to (`PCC_SESSION`: its own current tab, tabs,
 * tab group and revisions in the browser). */
export function runPcc(bin, args, { signal, session } = {}) {
  const env = session ? { ...process.env, PCC_SESSION: session } : process.env;
  return new Promise((resolve) => {
    execFile(bin, args, { signal, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') {
        const aborted = err.name === 'AbortError';
        resolve({ code: 3, stdout: String(stdout ?? ''), stderr: aborted ? 'aborted' : notFound(bin, err.code ?? err.message) });
        return;
      }
      resolve({ code: err ? err.code : 0, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/** For the person (`/chrome …`) when a call ends with exit code 3. */
export const SETUP_HINT = 'run `pcc doctor`: it names what is missing (pcc on the PATH, `pcc setup`, the extension loaded from dist/extension) and the command that fixes it';
