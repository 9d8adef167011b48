// The boards from the keyboard: each board is one Tab stop however many
// holes or pits it has (a 4×36 Nsolo board has 144), the arrows go from
// one to the next as they are drawn, Enter or space plays the focused one,
// and the focus ring shows where the focus is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, browserMissing, launch, newPage, openGame, shot, startServer, until } from './harness.mjs';

const skip = browserMissing();

/** Presses Tab from the top of the page until the focus has gone past the
 * board: how many presses stopped inside it. */
async function tabStopsIn(page, selector) {
  await page.evaluate(() => document.activeElement?.blur());
  let inside = 0;
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press('Tab');
    const here = await page.evaluate((sel) => !!document.activeElement?.closest(sel), selector);
    if (here) inside++;
    else if (inside) return inside;
  }
  throw new Error(`the focus never left ${selector} (${inside} stops inside)`);
}

const focused = (page, attr) => page.evaluate((a) => document.activeElement?.getAttribute(a), attr);

/** The arrows that go from `from` to `to`, both [row, column] on screen. */
function arrows(from, to) {
  const keys = [];
  for (let r = from[0]; r !== to[0]; r += Math.sign(to[0] - from[0])) keys.push(to[0] > from[0] ? 'ArrowDown' : 'ArrowUp');
  for (let c = from[1]; c !== to[1]; c += Math.sign(to[1] - from[1])) keys.push(to[1] > from[1] ? 'ArrowRight' : 'ArrowLeft');
  return keys;
}

/** Whether the focused cell shows the focus ring (board.css). */
async function ringShown(page) {
  return page.evaluate(() => {
    const g = document.activeElement;
    const ring = getComputedStyle(g.querySelector('.ring'));
    return g.matches(':focus-visible') && ring.stroke === 'rgb(11, 93, 115)' && parseFloat(ring.strokeWidth) >= 7;
  });
}

test('the Nsolo 4×36 board is one Tab stop; the arrows reach a pit and Enter plays it', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', { game: 'nsolo', size: 36, opponent: 'local' });
    const page = await newPage(browser);
    await openGame(page, server.base, created);
    await page.waitForSelector('body[data-ply="0"][data-ready="1"]');
    assert.equal(await page.locator('[data-pit]').count(), 144);
    assert.equal(await tabStopsIn(page, 'svg.board'), 1, 'Tab goes past the board in one press');

    // Back in, on the first pit that can be played.
    await page.keyboard.press('Shift+Tab');
    const first = await focused(page, 'data-pit');
    assert.ok(created.state.legal.some((o) => o.pit === first), `the stop is a playable pit (${first})`);
    assert.ok(await ringShown(page), 'the focused pit has its ring');

    // South plays from below: A is the bottom row, column 1 on the left.
    const place = (pit) => [3 - 'ABCD'.indexOf(pit[0]), +pit.slice(1) - 1];
    await page.keyboard.press('End');
    assert.equal(await focused(page, 'data-pit'), `${first[0]}36`, 'End: the row\'s last pit');
    await page.keyboard.press('Home');
    assert.equal(await focused(page, 'data-pit'), `${first[0]}1`, 'Home: the row\'s first pit');
    const entry = created.state.legal.filter((o) => !o.bonus).at(-1);
    assert.ok(entry, 'an origin without a bonus');
    for (const key of arrows(place(`${first[0]}1`), place(entry.pit))) await page.keyboard.press(key);
    assert.equal(await focused(page, 'data-pit'), entry.pit, 'the arrows reached the pit');
    assert.ok(await ringShown(page), 'the ring follows the focus');
    await shot(page, 'keyboard-nsolo-4x36');
    await page.keyboard.press('Enter');
    const s = await until(server.base, created.id, (n) => n.ply >= 1);
    assert.equal(s.moves[0], entry.pit);
    // The focus stays where it was: still one stop, on that pit.
    await page.waitForSelector('body[data-ply="1"]');
    assert.equal(await page.locator('svg.board [tabindex="0"]').count(), 1);
  } finally {
    await browser.close();
    server.stop();
  }
});

test('the Yoté board is one Tab stop; the arrows reach a hole and space plays it', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const created = await api(server.base, 'POST', '/api/games', { game: 'yote', opponent: 'local' });
    const page = await newPage(browser);
    await openGame(page, server.base, created);
    await page.waitForSelector('body[data-ply="0"][data-ready="1"]');
    assert.equal(await tabStopsIn(page, 'svg.board'), 1, 'Tab goes past the 25 holes in one press');

    await page.keyboard.press('Shift+Tab');
    // Red plays from below: row 5 on top, file a on the left.
    assert.equal(await focused(page, 'data-cell'), 'a5', 'the first hole on screen');
    assert.ok(await ringShown(page));
    for (const key of ['ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight']) await page.keyboard.press(key);
    assert.equal(await focused(page, 'data-cell'), 'c3');
    assert.ok(await ringShown(page));
    await page.keyboard.press(' ');
    const s = await until(server.base, created.id, (n) => n.ply >= 1);
    assert.equal(s.moves[0], 'c3');
  } finally {
    await browser.close();
    server.stop();
  }
});
