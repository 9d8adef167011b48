// A refusal from the server in the reader's language. The dictionary has
// words for each error code; some codes have more precise words for a
// context (a move refused because the machine is busy) or for a known wait
// (the server's Retry-After, or `retry_after` on the live socket).

import { t, has } from './i18n.js';

// e: an ApiError ({code, message, retryAfter}) or a socket error message
// ({code, message, retry_after}); context: 'move' for a refused move.
export function errorText(e, context) {
  const code = (e && e.code) || 'internal';
  const wait = Math.ceil(Number(e && (e.retryAfter ?? e.retry_after)) || 0);
  const keys = [context && `error.${code}.${context}`, wait > 0 && `error.${code}.wait`, `error.${code}`];
  for (const key of keys) {
    if (key && has(key)) return t(key, { n: wait });
  }
  return (e && e.message) || t('error.internal');
}

// An imported record's refusal, worded from its `details` (docs/online.md):
// « Tour 3 (c3-e3) : e3 n’est pas voisin de c3 » for a move, a sentence of
// its own for a header; the plain error words when the details are missing
// or unknown to the dictionary.
export function importErrorText(e) {
  const d = e && e.details;
  if (d && d.kind && d.move !== undefined) {
    const key = `import.kind.${d.kind}`;
    if (has(key)) {
      const reason = t(key, d.args || {});
      return t('import.move', { turn: d.turn, move: d.move, reason });
    }
  } else if (d && d.kind && has(`import.header.${d.kind}`)) {
    return t(`import.header.${d.kind}`, d.args || {});
  }
  return errorText(e);
}
