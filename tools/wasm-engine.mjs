#!/usr/bin/env node
// The browser's engine (crates/wasm, as the server serves it) behind the
// line protocol of `palabre engine` (docs/engine-protocol.md), so that
// `palabre arena` can pit it against the native engine:
//
//   palabre arena yote --a expert --b 'engine:node tools/wasm-engine.mjs' --movetime 200
//
// Options: --dir DIR, the folder holding engine.js and engine_bg.wasm
// (default: the newest target/*/build/palabre-server-*/out/wasm that has
// them, i.e. the last server build); --level NAME, the level `go` plays
// without one (default expert). Only what arena sends is implemented:
// isready, newgame, position (fen, yote startpos, nsolo size), go, quit.
// A search blocks Node's only thread, so `stop` cannot cut one short; go
// ends by its own movetime or depth.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** The newest built engine: any profile's server build step leaves one. */
function newestDir() {
  const found = [];
  for (const profile of readdirSync(join(root, 'target'), { withFileTypes: true })) {
    const build = join(root, 'target', profile.name, 'build');
    if (!profile.isDirectory() || !existsSync(build)) continue;
    for (const d of readdirSync(build)) {
      const wasm = join(build, d, 'out/wasm/engine_bg.wasm');
      if (d.startsWith('palabre-server-') && existsSync(wasm)) found.push([statSync(wasm).mtimeMs, dirname(wasm)]);
    }
  }
  if (!found.length) throw new Error('no built engine: cargo build -p palabre first, or give --dir');
  return found.sort((a, b) => b[0] - a[0])[0][1];
}

const dir = resolve(option('--dir', '') || newestDir());
const defaultLevel = option('--level', 'expert');
const { default: init, Engine } = await import(pathToFileURL(join(dir, 'engine.js')).href);
await init({ module_or_path: readFileSync(join(dir, 'engine_bg.wasm')) });
const engine = new Engine();

// The starting positions the protocol names without a position string.
const YOTE_START = '5/5/5/5/5 12 12 r 0';
function nsoloStart(n) {
  const row = (hole) => Array.from({ length: n }, (_, i) => (i === hole ? 0 : 2)).join(',');
  return `${row(-1)}/${row(0)}/${row(n - 1)}/${row(-1)} s`;
}

const say = (line) => process.stdout.write(line + '\n');
let position = null; // { game, start, moves }

function setPosition(words) {
  const [game, how, ...rest] = words;
  if (game !== 'yote' && game !== 'nsolo') throw new Error(`no game ${game}`);
  const at = rest.indexOf('moves');
  const head = at >= 0 ? rest.slice(0, at) : rest;
  const moves = at >= 0 ? rest.slice(at + 1) : [];
  let start;
  if (how === 'fen') start = head.join(' ');
  else if (how === 'startpos' && game === 'yote') start = YOTE_START;
  else if (how === 'size' && game === 'nsolo') start = nsoloStart(Number(head[0]));
  else throw new Error(`malformed position for ${game}`);
  position = { game, start, moves };
}

function go(words) {
  if (!position) throw new Error('no position');
  const arg = (k, d) => (words.includes(k) ? words[words.indexOf(k) + 1] : d);
  const level = arg('level', defaultLevel);
  const movetime = Number(arg('movetime', 0));
  const depth = Number(arg('depth', 0));
  const { game, start, moves } = position;
  const t = JSON.parse(engine.think(game, start, JSON.stringify(moves), level, movetime, depth));
  if (t.error) throw new Error(`${t.error.code}: ${t.error.message}`);
  const nps = Math.round(t.nodes / Math.max(t.ms, 1e-3) * 1000);
  say(`info depth ${t.depth} score ${t.score} nodes ${t.nodes} nps ${nps}`);
  say(`bestmove ${t.move ?? 'none'}`);
}

for await (const line of createInterface({ input: process.stdin })) {
  const [command, ...words] = line.trim().split(/\s+/);
  try {
    if (command === 'isready') say('readyok');
    else if (command === 'newgame') position = null;
    else if (command === 'position') setPosition(words);
    else if (command === 'go') go(words);
    else if (command === 'quit') break;
    else if (command) throw new Error(`unknown command ${command}`);
  } catch (e) {
    say(`error ${e.message}`);
  }
}
process.exit(0);
