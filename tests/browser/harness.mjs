// Shared set-up for the browser tests: a Palabre server on a free port with
// a fresh database, and headless Chromium driven by playwright-core.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
export const artifacts = join(here, 'artifacts');
mkdirSync(artifacts, { recursive: true });

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** Whether the browser is missing; in CI that is a failure, never a skip. */
export function browserMissing() {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.CI === 'true') throw new Error(`Chromium not found at ${CHROMIUM} (CI=true)`);
  return `Chromium not found at ${CHROMIUM}`;
}

function freePort() {
  return new Promise((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => ok(port)); });
  });
}

/** PALABRE_BIN, else the most recently built of the release and debug binaries. */
export function binary() {
  if (process.env.PALABRE_BIN) return process.env.PALABRE_BIN;
  const built = ['target/release/palabre', 'target/debug/palabre']
    .map((p) => join(root, p))
    .filter((p) => existsSync(p))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!built.length) throw new Error('build palabre first (cargo build -p palabre)');
  return built[0];
}

/**
 * Starts a server; resolves once it answers. `db` reuses a database file (to
 * restart on the same games), `args` adds flags to `palabre serve`. `stop()`
 * asks it to stop (SIGTERM: a graceful stop that closes the database) and
 * resolves once it has exited.
 */
export async function startServer({ db, args = [] } = {}) {
  const port = await freePort();
  db ??= join(mkdtempSync(join(tmpdir(), 'palabre-')), 'games.db');
  // No ponders after Expert's moves: a minute of search each would load the
  // machine under the browser (the server's own tests cover them). No
  // build of the endgame tables at each start either.
  const env = { PALABRE_PONDER: '0', PALABRE_BUILD_TABLES: '0', ...process.env };
  const proc = spawn(binary(), ['serve', '--addr', `127.0.0.1:${port}`, '--db', db, ...args], { stdio: 'ignore', env });
  const exited = new Promise((ok) => proc.once('exit', ok));
  const stop = () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill();
    return exited;
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try { if ((await fetch(base + '/')).ok) return { base, db, stop }; } catch {}
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error('the server did not start');
}

export async function launch() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A page with no motion (animations off) at the given size, for a reader
 * whose browser asks for `locale` first (French unless told). */
export async function newPage(browser, width = 1280, height = 800, locale = 'fr-FR') {
  const context = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce', locale });
  return context.newPage();
}

/** Every error the page logs to its console from now on (a failed
 * request's status among them) and every uncaught exception, as text. */
export function consoleErrors(page) {
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`${m.text()} (${m.location().url})`); });
  page.on('pageerror', (e) => errors.push(String(e)));
  return errors;
}

export async function shot(page, name) {
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

export async function api(base, method, path, body, seat) {
  const headers = { 'content-type': 'application/json' };
  if (seat) headers.authorization = `Bearer ${seat}`;
  const res = await fetch(base + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return res.json();
}

/** Waits until the game's state satisfies `done`. */
export async function until(base, id, done, ms = 60000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const s = await api(base, 'GET', `/api/games/${id}`);
    if (done(s)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`game ${id} never reached the expected state`);
}

/** Opens a game created through the API in the page, with its seat. */
export async function openGame(page, base, created) {
  await page.goto(base + '/');
  await page.evaluate(([id, seat, side]) => {
    localStorage.setItem(`palabre.seat.${id}`, JSON.stringify({ seat, side }));
  }, [created.id, created.seat, created.side]);
  await page.goto(`${base}/partie/${created.id}`);
}
