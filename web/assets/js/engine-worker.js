// The browser's engine in a Web Worker: the rules and the AI compiled from
// Rust (crates/wasm), so that a search never freezes the page. Messages in:
// {id, op, args}; out: {id, result} with the engine's JSON answer parsed, or
// {id, line} for each analysed ply before the result. The worker holds no
// game: the page sends the record with each call and stores what comes back.

import init, { Engine } from '/assets/wasm/engine.js';

let engine = null;
const ready = init({ module_or_path: '/assets/wasm/engine_bg.wasm' }).then(() => {
  engine = new Engine();
});

const OPS = {
  create: (spec) => engine.create(JSON.stringify(spec)),
  state: (game) => engine.state(JSON.stringify(game)),
  play: (game, move, ply) => engine.play(JSON.stringify(game), move, ply),
  reply: (game) => engine.reply(JSON.stringify(game)),
  hint: (game) => engine.hint(JSON.stringify(game)),
  takeback: (game) => engine.take_back(JSON.stringify(game)),
  resign: (game, side) => engine.resign(JSON.stringify(game), side ?? undefined),
  draw: (game, action) => engine.draw(JSON.stringify(game), action),
  frames: (game) => engine.frames(JSON.stringify(game)),
  bench: () => engine.bench(),
};

self.onmessage = async (e) => {
  const { id, op, args = [] } = e.data;
  try {
    await ready;
    let text;
    if (op === 'analyse') {
      const [game, { depth = 0, movetime = 0 } = {}] = args;
      text = engine.analyse(JSON.stringify(game), depth, movetime, (line) => self.postMessage({ id, line: JSON.parse(line) }));
    } else if (OPS[op]) {
      text = OPS[op](...args);
    } else {
      text = JSON.stringify({ error: { code: 'bad_request', message: `no operation ${op}` } });
    }
    self.postMessage({ id, result: JSON.parse(text) });
  } catch (err) {
    // No engine at all (a server built without it, no WebAssembly) is told
    // apart from a failure of one call.
    const code = engine ? 'engine' : 'engine_missing';
    self.postMessage({ id, result: { error: { code, message: String((err && err.message) || err) } } });
  }
};
