// The wasm collector, loaded once per worker life. Every module that needs the core awaits
// `ready`; nothing else holds core state.
import init, { Collector, computedStyles, limits } from './wasm/pcc.js';
import { runtimeId } from './handles.js';
import { hintsLoaded } from './errors.js';
import { setLimits } from './limits.js';

export const ready = (async () => {
  await Promise.all([init({ module_or_path: new URL('./wasm/pcc_bg.wasm', import.meta.url) }), hintsLoaded]);
  const l = limits();
  setLimits(l);
  return { collector: new Collector(runtimeId), styles: computedStyles(), limits: l };
})();

const encoder = new TextEncoder();
const TOKEN = `pcc-raw-${crypto.randomUUID()}:`;
let spliced = null; // the texts of the RawJson values of the observation being written

/**
 * JSON text a page made (a walk's nodes, stringified in the page: one string crosses to the
 * worker instead of a structured clone of every node), kept as it is in an observation.
 */
export class RawJson {
  constructor(text) {
    this.text = text;
  }
  toJSON() {
    spliced.push(this.text);
    return `${TOKEN}${spliced.length - 1}`;
  }
}

/** An observation as the core takes it: the UTF-8 bytes of its JSON (copied into wasm at
 * their exact size; a string would be copied at up to 3× its length), RawJson spliced in. */
export function utf8(obs) {
  spliced = [];
  try {
    let json = JSON.stringify(obs);
    if (spliced.length) json = json.replace(new RegExp(`"${TOKEN}(\\d+)"`, 'g'), (_, i) => spliced[i]);
    return encoder.encode(json);
  } finally {
    spliced = null;
  }
}
