// The holes or pits a move's notation names (« c3xc5/b5 », « B5/C2:1 »),
// to light them on a board as a hint: reading the places, not the rules.

export function cellsOf(game, move) {
  return game === 'yote' ? move.match(/[a-e][1-5]/g) || [] : move.match(/[A-D]\d{1,2}/g) || [];
}
