// Where a game lives, as the game page sees it: one interface for a game kept
// on the server (transport-server.js) and for a game played in this browser
// against the engine in a Web Worker (transport-local.js). The controller
// (controller.js) talks to nothing else, so the board and the panels never
// know which kind of game they show. This module holds no code: only the
// contract, for the readers of both implementations.
//
// Every request resolves to a whole state (docs/api.md's game view: `ply`,
// `legal`, `last`, `result`…) or rejects with an error carrying a `code`
// (errors.js words it). Online play exists only on the server: the methods
// marked « online » may be absent from a local transport, and the controller
// calls them only when the state says the game is online
// (`state.opponent === 'online'`), or when it has an online move pending.
//
// The page picks the transport from its address (game.js, makeTransport):
// /partie/{id} is a server game; /partie-locale?id={id} is a local one.

/**
 * @typedef {object} Seat  what this browser holds in a game; null for a spectator
 * @property {string} seat  the secret that lets it play
 * @property {string} [side]
 * @property {number} [index]  online: its place in the side's team
 * @property {string} [name]  online: its display name
 */

/**
 * @typedef {object} Handlers  given to connect(); called by the transport
 * @property {(state: object, source: 'event' | 'reset') => void} onState
 *   a state the page did not ask for: 'event' for a pushed state (a move,
 *   the machine's reply, an online change), 'reset' for a state read again
 *   (the polling while the push channel is down)
 * @property {(status: 'open' | 'lost') => void} onStatus  the push channel came up or went down
 * @property {(msg: {type: string, ply?: number, code?: string, id?: string, seat?: string}) => void} onMessage
 *   online: the answers to send(): 'ok', 'ack' {ply}, 'error' {code, message}, 'rematch' {id, seat}
 * @property {() => number} ply  the last ply the page has (said again on reconnection)
 * @property {() => boolean} waiting  whether the page waits for someone else and a read would disturb nothing
 */

/**
 * @typedef {object} Links  the addresses the page shows; a missing one hides what uses it
 * @property {string} [page]  this game's page (« Partager »)
 * @property {string} [invite]  online: the invitation to join
 * @property {string} [replay]  the replay page (« Revoir la partie »)
 * @property {string} [export]  the record as text (« Exporter la partie »)
 * @property {string} [exportName]  the file name of the record
 * @property {(id: string) => string} [gamePage]  online: another game's page (the rematch)
 */

/**
 * @typedef {object} Transport
 * @property {'server' | 'local'} kind
 * @property {string} id
 * @property {() => Seat | null} me
 * @property {() => Promise<void>} [claim]  server: without a seat in this browser, finds the
 *   signed-in account's own place in the game (then `me()` has `account: true` and requests
 *   go with the session instead of a seat); called once, before the controller is made
 * @property {() => Promise<object>} read  the whole state, now
 * @property {(handlers: Handlers) => void} connect  start following the game (once, after the first read)
 * @property {(seat: string, move: string, ply: number) => Promise<object>} play  not online: the move, at the ply on screen
 * @property {(seat: string) => Promise<{move: string}>} hint
 * @property {(seat: string) => Promise<object>} takeback
 * @property {(seat: string, action: 'offer' | 'accept' | 'decline') => Promise<object>} draw
 * @property {(seat: string, body: {side?: string}) => Promise<object>} resign  body.side: on one screen, the side giving up
 * @property {() => Promise<{frames: object[]}>} replay  the position after each ply, for the move list
 * @property {(body: {game: string, opponent: string, level: string, side: string, size?: number}) => Promise<string>} newGame
 *   « Rejouer »: creates the game, keeps its seat, resolves to its page's address
 * @property {() => Links | null} links
 * @property {(msg: object) => boolean} [send]  online: a message ({type: 'move' | 'draw' | 'takeback' | 'resign' | 'abort' | 'rematch' | 'start', …}); false when it could not leave
 * @property {boolean} [up]  online: whether send() can succeed now
 * @property {(msg: {id: string, seat: string}, more: {side?: string, name?: string}) => string} [takeRematch]
 *   online: keeps the seat the server gave in the rematch; returns its page's address
 */

export {};
