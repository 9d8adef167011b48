// Whether a redraw brings new legal moves. The same position can arrive twice
// (the page's own read, then the socket's first state): a move half-built
// under the finger must survive that redraw and be dropped only when the moves
// it was built from changed.

export function sameLegal(a, b) {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
