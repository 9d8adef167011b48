// Two people on two screens: one creates an online Yoté game, the other opens
// the invite link, they play by clicks (never offered a hint), and both see
// the end screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, browserMissing, launch, shot, startServer, until } from './harness.mjs';

const skip = browserMissing();

async function clickMove(page, entry, opponent) {
  if (entry.from) await page.click(`[data-cell="${entry.from}"]`);
  await page.click(`[data-cell="${entry.to}"]`);
  if (entry.kind === 'capture' && entry.second) {
    await page.click(entry.second === 'reserve' ? `[data-reserve="${opponent}"]` : `[data-cell="${entry.second}"]`);
  }
}

test('two browsers play each other through the invite link to the end screen', { skip }, async () => {
  const server = await startServer();
  const browser = await launch();
  try {
    const awa = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', locale: 'fr-FR' })).newPage();
    const kofi = await (await browser.newContext({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce', locale: 'fr-FR' })).newPage();
    const asked = [];
    for (const page of [awa, kofi]) page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await awa.goto(`${server.base}/nouvelle?jeu=yote`);
    await awa.check('input[name="opponent"][value="online"]');
    await awa.fill('#name', 'Awa');
    await awa.check('input[name="side"][value="first"]');
    await Promise.all([awa.waitForURL(/\/partie\//), awa.click('#start')]);
    const id = awa.url().split('/').pop();
    await awa.waitForSelector('[data-invite][href*="/rejoindre"]');
    const invite = await awa.getAttribute('[data-invite]', 'href');
    assert.match(invite, new RegExp(`/partie/${id}/rejoindre$`));
    await shot(awa, 'online-waiting-invite');

    await kofi.goto(new URL(invite, server.base).href);
    await kofi.fill('#name', 'Kofi');
    await Promise.all([kofi.waitForURL(new RegExp(`/partie/${id}$`)), kofi.click('#join-buttons button')]);
    let s = await until(server.base, id, (n) => n.status === 'playing');
    assert.deepEqual([s.teams.red[0].name, s.teams.black[0].name], ['Awa', 'Kofi']);

    const pages = { red: awa, black: kofi };
    for (let i = 0; i < 6; i++) {
      const page = pages[s.turn];
      await page.waitForSelector(`body[data-ply="${s.ply}"][data-ready="1"]`, { timeout: 30000 });
      assert.equal(await page.locator('#act-hint').isVisible(), false, 'no hint between people');
      const entry = s.legal.find((m) => m.kind === 'capture') || s.legal[(i * 7) % s.legal.length];
      await clickMove(page, entry, s.turn === 'red' ? 'black' : 'red');
      s = await until(server.base, id, (n) => n.ply === s.ply + 1);
    }
    await awa.waitForSelector(`body[data-ply="${s.ply}"]`);
    await kofi.waitForSelector(`body[data-ply="${s.ply}"]`);
    for (const page of [awa, kofi]) assert.equal(await page.locator('#act-hint').count(), 1);
    assert.equal(await awa.locator('#act-hint').isVisible(), false);
    assert.equal(await kofi.locator('#act-hint').isVisible(), false);
    assert.ok(!asked.some((p) => p.endsWith('/hint') || p.endsWith('/events')), 'neither hints nor an event stream asked for');
    await shot(awa, 'online-awa-playing');
    await shot(kofi, 'online-kofi-playing');

    await kofi.click('#act-resign');
    await kofi.click('#act-resign');
    s = await until(server.base, id, (n) => n.result);
    assert.deepEqual(s.result, { winner: 'red', reason: 'resignation' });
    for (const [name, page] of [['awa', awa], ['kofi', kofi]]) {
      await page.waitForSelector('#end[data-result="red"]:not([hidden])', { timeout: 30000 });
      await shot(page, `online-end-${name}`);
    }
    const watcher = await (await browser.newContext({ locale: 'fr-FR' })).newPage();
    await watcher.goto(`${server.base}/partie/${id}`);
    await watcher.waitForSelector('#end[data-result="red"]');
  } finally {
    await browser.close();
    server.stop();
  }
});
