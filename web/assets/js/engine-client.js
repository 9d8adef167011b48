// The page's side of the engine's worker (engine-worker.js): one worker,
// started on first use; each call is a promise of the engine's answer, and
// an answer with `error` rejects like a refused API call, with the same
// codes, so the page's messages fit both.

import { ApiError } from './api.js';

let worker = null;
let next = 1;
const calls = new Map();

function start() {
  worker = new Worker('/assets/js/engine-worker.js', { type: 'module' });
  worker.onmessage = (e) => {
    const { id, line, result } = e.data;
    const call = calls.get(id);
    if (!call) return;
    if (line) {
      call.onLine?.(line);
      return;
    }
    calls.delete(id);
    if (result && result.error) call.reject(new ApiError(result.error.code, result.error.message, 0));
    else call.resolve(result);
  };
  worker.onerror = (e) => {
    // The engine could not load (no WebAssembly, a missing module): every
    // waiting call fails, and the next one starts a new worker.
    for (const call of calls.values()) call.reject(new ApiError('engine_missing', e.message || '', 0));
    calls.clear();
    worker = null;
  };
}

/** Calls the engine's `op` with `args`; `onLine` gets analysis lines. */
export function call(op, args = [], onLine = undefined) {
  if (!worker) start();
  const id = next++;
  return new Promise((resolve, reject) => {
    calls.set(id, { resolve, reject, onLine });
    worker.postMessage({ id, op, args });
  });
}

/** Whether this server was built with the engine (HEAD of its module). */
export async function available() {
  try {
    const r = await fetch('/assets/wasm/engine_bg.wasm', { method: 'HEAD' });
    return r.ok;
  } catch {
    // Offline: the service worker has it if it was ever installed.
    const cached = await globalThis.caches?.match('/assets/wasm/engine_bg.wasm');
    return !!cached;
  }
}
