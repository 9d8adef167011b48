// A measurement, not a test: the browser's engine's speed against the native
// one on the same benchmark positions (palabre_ai::bench). Runs the engine
// N times (after one warm-up run) in a Web Worker of headless Chromium,
// loaded as the app loads it (engine-client.js → engine-worker.js →
// /assets/wasm/), and `palabre bench` N times natively; checks that both
// count the same nodes per game and in total (the searches must be the same)
// and prints the medians of nodes/s per game and in total, with the ratio
// wasm/native (of the medians, and the median of each run's ratio).
// Run: PALABRE_BIN=target/release/palabre node tests/browser/engine-bench.mjs [N]
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, newPage, startServer } from './harness.mjs';

const N = Number(process.argv[2]) || 3;
// The same binary serves the page (harness.mjs reads PALABRE_BIN too).
const BIN = process.env.PALABRE_BIN || resolve(dirname(fileURLToPath(import.meta.url)), '../../target/release/palabre');
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const GAMES = ['yote', 'nsolo', 'total'];

/** nodes and ms per game and in total from the wasm bench's list. */
function sum(list) {
  const out = Object.fromEntries(GAMES.map((g) => [g, { nodes: 0, ms: 0 }]));
  for (const p of list) for (const g of [p.game, 'total']) { out[g].nodes += p.nodes; out[g].ms += p.ms; }
  return out;
}

/** `palabre bench`'s lines: "<name> nodes N time T ms nps X". */
function native() {
  const text = execFileSync(BIN, ['bench'], { encoding: 'utf8' });
  const out = {};
  for (const m of text.matchAll(/^(\w+)\s+nodes\s+(\d+)\s+time\s+([\d.]+) ms/gm)) out[m[1]] = { nodes: Number(m[2]), ms: Number(m[3]) };
  if (!GAMES.every((g) => out[g])) throw new Error(`unexpected palabre bench output:\n${text}`);
  return out;
}

// Runs alternate, wasm then native, so that a load from elsewhere on the
// machine weighs on both alike.
const server = await startServer();
const browser = await launch();
const wasmRuns = [];
const nativeRuns = [];
try {
  const page = await newPage(browser);
  await page.goto(server.base + '/');
  // One worker for all runs, as the app keeps one: the module compiles once
  // (the bench makes a fresh table per position anyway).
  const bench = async () => {
    const list = await page.evaluate(async () => {
      const { call } = await import('/assets/js/engine-client.js');
      return call('bench');
    });
    if (!Array.isArray(list)) throw new Error(`bench answered ${JSON.stringify(list)}`);
    return list;
  };
  // V8 first runs the module with its quick baseline compiler and swaps in
  // the optimised code later: a first run is slower and is left out.
  const first = sum(await bench()).total;
  console.error(`warm-up: wasm ${first.ms.toFixed(0)} ms, ${(first.nodes / first.ms * 1000).toFixed(0)} nodes/s`);
  for (let i = 0; i < N; i++) {
    const list = await bench();
    wasmRuns.push(list);
    nativeRuns.push(native());
    console.error(`run ${i + 1}/${N}: wasm ${sum(list).total.ms.toFixed(0)} ms, native ${nativeRuns[i].total.ms.toFixed(0)} ms`);
  }
} finally {
  await browser.close();
  await server.stop();
}

// The node counts are the search's checksum: any difference means the
// browser searches differently, and the speeds would not compare.
const wasm = wasmRuns.map(sum);
let same = wasmRuns.every((l) => JSON.stringify(l.map((p) => p.nodes)) === JSON.stringify(wasmRuns[0].map((p) => p.nodes)));
for (const g of GAMES) same &&= wasm.concat(nativeRuns).every((r) => r[g].nodes === nativeRuns[0][g].nodes);
console.log(`node counts ${same ? 'identical' : 'DIFFER'}: ${GAMES.map((g) => `${g} wasm ${wasm[0][g].nodes} native ${nativeRuns[0][g].nodes}`).join(', ')}`);
console.log(`median of ${N} runs, nodes/s:`);
for (const g of GAMES) {
  const w = median(wasm.map((r) => r[g].nodes / r[g].ms * 1000));
  const n = median(nativeRuns.map((r) => r[g].nodes / r[g].ms * 1000));
  // Each wasm run against the native run just after it: steadier when the
  // machine's load changes between runs.
  const paired = median(wasm.map((r, i) => (r[g].nodes / r[g].ms) / (nativeRuns[i][g].nodes / nativeRuns[i][g].ms)));
  console.log(`${g.padEnd(6)} wasm ${w.toFixed(0).padStart(9)}  native ${n.toFixed(0).padStart(9)}  wasm/native ${(100 * w / n).toFixed(1)}%  paired ${(100 * paired).toFixed(1)}%`);
}
if (!same) process.exitCode = 1;
