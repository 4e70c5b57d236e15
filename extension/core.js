// The wasm collector, loaded once per worker life. Every module that needs the core awaits
// `ready`; nothing else holds core state.
import init, { Collector, computedStyles, limits } from './wasm/pcc.js';
import { runtimeId } from './handles.js';

export const ready = (async () => {
  await init({ module_or_path: new URL('./wasm/pcc_bg.wasm', import.meta.url) });
  return { collector: new Collector(runtimeId), styles: computedStyles(), limits: limits() };
})();

const encoder = new TextEncoder();
/** An observation as the core takes it: the UTF-8 bytes of its JSON (copied into wasm at
 * their exact size; a string would be copied at up to 3× its length). */
export const utf8 = (obs) => encoder.encode(JSON.stringify(obs));
