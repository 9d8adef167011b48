// People challenge bots from the bot's profile: an account « robot » signed
// up through the API, given a bot:play token and run by a real `palabre bot`
// process (with `palabre engine`), upgraded by it. A guest on its profile is
// asked to sign in; a person signed up through the sign-up page challenges a
// silent bot (upgraded through the API, no program behind it) and cancels,
// then is declined; then challenges « robot » (Yoté, rated, Red), lands on
// the game, plays a few moves by clicks against the bot's replies and
// resigns from the page. The game is over, the bot shown with its BOT badge
// and offered no rematch, and the rated game counts on its profile. In English the challenge leads
// to /game/{id}.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { binary, browserMissing, launch, shot, startServer, until } from './harness.mjs';

const skip = browserMissing();
const PASSWORD = 'sous-le-baobab';

/** The API as one account: the session cookie kept from a response, or a token. */
class Jar {
  constructor(base, { cookie = '', token = '' } = {}) {
    this.base = base;
    this.cookie = cookie;
    this.token = token;
  }

  async call(method, path, body) {
    const headers = { 'content-type': 'application/json' };
    if (this.cookie) headers.cookie = this.cookie;
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const res = await fetch(this.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    for (const c of res.headers.getSetCookie()) {
      const pair = c.split(';')[0];
      if (pair.startsWith('palabre_session=')) this.cookie = pair;
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  }
}

/** An account signed up through the API, with a bot:play token. */
async function botAccount(base, username) {
  const jar = new Jar(base);
  assert.equal((await jar.call('POST', '/api/account/signup', { username, password: PASSWORD })).username, username);
  assert.ok(jar.cookie, 'the sign-up set the session cookie');
  const { token, scopes } = await jar.call('POST', '/api/account/tokens', { description: `${username} plays`, scopes: ['bot:play'] });
  assert.deepEqual(scopes, ['bot:play']);
  return { jar, token };
}

async function profile(base, name) {
  return (await fetch(`${base}/api/users/${encodeURIComponent(name)}`)).json();
}

async function eventually(what, check, ms = 30000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`never: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function context(browser, width = 1280, height = 800, locale = 'fr-FR') {
  return browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce', locale });
}

/** Signs up on the sign-up page; resolves to the session cookie it was given. */
async function signUp(page, base, name) {
  await page.goto(`${base}/inscription`);
  await page.waitForSelector('[data-account=""]');
  await page.fill('#username', name);
  await page.fill('#password', PASSWORD);
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/account/signup')),
    page.click('#submit'),
  ]);
  assert.equal(res.status(), 201);
  const set = (await res.headerValue('set-cookie')) || '';
  const cookie = set.split(/\n|,(?=\s*palabre_session=)/).map((c) => c.split(';')[0].trim()).find((c) => c.startsWith('palabre_session='));
  assert.ok(cookie, 'the sign-up set the session cookie');
  await page.waitForURL(new RegExp(`/joueur/${name}$`));
  await page.waitForSelector(`[data-account="${name}"]`);
  return cookie;
}

/** Opens a profile and waits until it is drawn. */
async function openProfile(page, base, name, prefix = '/joueur/') {
  await page.goto(`${base}${prefix}${name}`);
  await page.waitForSelector('body[data-ready="1"]');
}

/** Clicks the holes (and the reserve) that make up a legal Yoté move. */
async function clickMove(page, entry, opponent) {
  if (entry.from) await page.click(`[data-cell="${entry.from}"]`);
  await page.click(`[data-cell="${entry.to}"]`);
  if (entry.kind === 'capture' && entry.second) {
    await page.click(entry.second === 'reserve' ? `[data-reserve="${opponent}"]` : `[data-cell="${entry.second}"]`);
  }
}

/** Sends the challenge the form holds; resolves to the request's body and the created challenge. */
async function sendChallenge(page, name) {
  const isIt = (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/api/challenge/${name}`;
  const [res] = await Promise.all([page.waitForResponse(isIt), page.click('#challenge-send')]);
  assert.equal(res.status(), 201, await res.text());
  return { body: res.request().postDataJSON(), created: await res.json() };
}

test('a person challenges a bot from its profile and plays it', { skip }, async () => {
  const server = await startServer();
  const base = server.base;
  const browser = await launch();
  let bot = null;
  let botLog = '';
  const errors = [];
  try {
    // « robot »: an account, a token, and `palabre bot --upgrade` behind it.
    const robot = await botAccount(base, 'robot');
    const bin = resolve(binary());
    bot = spawn(bin, ['bot', '--server', base, '--token', robot.token, '--engine', `${bin} engine`, '--movetime', '50', '--upgrade'],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    for (const s of [bot.stdout, bot.stderr]) s.on('data', (d) => { botLog += d; });
    bot.once('exit', (code) => { botLog += `\n[palabre bot exited: ${code}]`; });
    await eventually(`robot is a bot (palabre bot said: ${botLog})`, async () => (await profile(base, 'robot')).bot === true);

    // « muet »: a bot with no program behind it, which never answers by itself.
    const muet = await botAccount(base, 'muet');
    await new Jar(base, { token: muet.token }).call('POST', '/api/bot/account/upgrade');
    assert.equal((await profile(base, 'muet')).bot, true);

    // A guest on the bot's profile is asked to sign in, and comes back here.
    const guest = await (await context(browser, 390, 844)).newPage();
    guest.on('pageerror', (e) => errors.push(e.message));
    await openProfile(guest, base, 'robot');
    await guest.waitForSelector('#challenge:not([hidden]) #challenge-guest:not([hidden])');
    assert.equal(await guest.locator('#challenge-form').isVisible(), false, 'no form for a guest');
    assert.match(await guest.locator('#challenge-guest').innerText(), /^Connectez-vous pour défier ce bot$/);
    assert.equal(await guest.getAttribute('#challenge-login', 'href'), `/connexion?retour=${encodeURIComponent('/joueur/robot')}`);
    await shot(guest, 'bot-challenge-guest-390');
    await guest.context().close();

    // A person signs up through the sign-up page: no panel on their own profile.
    const ctx = await context(browser);
    const page = await ctx.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    const ama = new Jar(base, { cookie: await signUp(page, base, 'Ama') });
    await page.waitForSelector('body[data-ready="1"]');
    assert.equal(await page.locator('#challenge').isVisible(), false, 'not on a person’s profile');
    // Nor for the bot on its own profile.
    const robotPage = await (await context(browser)).newPage();
    await robotPage.context().addCookies([{ name: 'palabre_session', value: robot.jar.cookie.slice('palabre_session='.length), url: base }]);
    await openProfile(robotPage, base, 'robot');
    await robotPage.waitForSelector('[data-account="robot"]');
    assert.equal(await robotPage.locator('#challenge').isVisible(), false, 'not on the bot’s own profile');
    await robotPage.context().close();

    // The silent bot: the page waits for its answer; « Annuler » withdraws.
    await openProfile(page, base, 'muet');
    await page.waitForSelector('#challenge-form:not([hidden])');
    let sent = await sendChallenge(page, 'muet');
    assert.deepEqual(sent.body, { game: 'yote', size: 5, rated: false, time_control: 'none', side: 'random' });
    assert.equal(sent.created.status, 'created');
    await page.waitForSelector('#challenge-wait:not([hidden])');
    assert.match(await page.locator('#challenge-wait').innerText(), /En attente de la réponse du bot…/);
    assert.equal(await page.locator('#challenge-form').isVisible(), false);
    await shot(page, 'bot-challenge-waiting-1280');
    // It keeps reading the challenge while it waits.
    const reads = [];
    const onReq = (r) => { if (r.url().endsWith(`/api/challenge/${sent.created.id}/show`)) reads.push(r.url()); };
    page.on('request', onReq);
    await page.waitForRequest((r) => r.url().endsWith(`/api/challenge/${sent.created.id}/show`));
    await page.waitForRequest((r) => r.url().endsWith(`/api/challenge/${sent.created.id}/show`));
    page.off('request', onReq);
    assert.ok(reads.length >= 2, `${reads.length} reads`);
    await page.click('#challenge-cancel');
    await page.waitForSelector('#challenge-form:not([hidden])');
    assert.match(await page.locator('#challenge-note').innerText(), /Défi annulé/);
    assert.equal((await ama.call('GET', `/api/challenge/${sent.created.id}/show`)).status, 'canceled');

    // Declined by the bot (through its token): the page says so.
    await page.check('input[name="ch-game"][value="nsolo"]');
    await page.waitForSelector('#ch-size-set:not([hidden])');
    assert.deepEqual(await page.locator('input[name="ch-side"]').evaluateAll((l) => l.map((i) => i.value)), ['random', 'south', 'north']);
    assert.match(await page.locator('#challenge-form').innerText(), /Sud[\s\S]*Nord/);
    await page.locator('#ch-size').fill('12');
    assert.equal(await page.textContent('#ch-size-out'), '4\u00a0×\u00a012');
    await page.check('input[name="ch-side"][value="north"]');
    await page.check('input[name="ch-tc"][value="10+5"]');
    sent = await sendChallenge(page, 'muet');
    assert.deepEqual(sent.body, { game: 'nsolo', size: 12, rated: false, time_control: '10+5', side: 'north' });
    await page.waitForSelector('#challenge-wait:not([hidden])');
    await new Jar(base, { token: muet.token }).call('POST', `/api/challenge/${sent.created.id}/decline`);
    await page.waitForSelector('#challenge-note.form-error:not([hidden])');
    assert.equal(await page.locator('#challenge-note').innerText(), 'Le bot a décliné le défi.');
    await page.waitForSelector('#challenge-form:not([hidden])');
    await shot(page, 'bot-challenge-declined-1280');

    // « robot »: the panel at both widths.
    await openProfile(page, base, 'robot');
    await page.waitForSelector('#challenge-form:not([hidden])');
    assert.match(await page.locator('#player-name').innerText(), /robot\s*BOT/);
    assert.match(await page.locator('#challenge-h').innerText(), /^Défier ce bot$/);
    assert.deepEqual(await page.locator('input[name="ch-side"]').evaluateAll((l) => l.map((i) => i.value)), ['random', 'red', 'black']);
    assert.deepEqual(await page.locator('input[name="ch-tc"]').evaluateAll((l) => l.map((i) => i.value)), ['none', '5+3', '10+5', '1d', '3d']);
    assert.equal(await page.locator('#ch-size-set').isVisible(), false, 'Yoté has one board');
    await shot(page, 'bot-challenge-profile-1280');
    await page.check('input[name="ch-game"][value="nsolo"]');
    await shot(page, 'bot-challenge-nsolo-1280');
    await page.check('input[name="ch-game"][value="yote"]');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'bot-challenge-profile-390');
    await page.check('input[name="ch-game"][value="nsolo"]');
    await shot(page, 'bot-challenge-nsolo-390');
    await page.check('input[name="ch-game"][value="yote"]');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Yoté, rated, Red: the bot accepts and the page goes to the game.
    await page.check('#ch-rated');
    await page.check('input[name="ch-side"][value="red"]');
    await page.check('input[name="ch-tc"][value="none"]');
    const moved = page.waitForURL(/\/partie\/[^/]+$/, { timeout: 30000 });
    sent = await sendChallenge(page, 'robot');
    assert.deepEqual(sent.body, { game: 'yote', size: 5, rated: true, time_control: 'none', side: 'red' });
    await moved;
    const id = page.url().split('/').pop();
    assert.equal(id, sent.created.id, 'the game takes the challenge’s id');
    assert.equal((await ama.call('GET', `/api/challenge/${id}/show`)).game_id, id);
    let s = await until(base, id, (n) => n.status === 'playing');
    assert.equal(s.rated, true);
    assert.deepEqual(s.teams.red.map((m) => [m.name, m.account, m.bot]), [['Ama', true, false]]);
    assert.deepEqual(s.teams.black.map((m) => [m.name, m.account, m.bot]), [['robot', true, true]]);
    // Ama plays with her account: no seat in this browser.
    assert.equal(await page.evaluate((gid) => localStorage.getItem(`palabre.seat.${gid}`), id), null);
    await page.waitForSelector('.member.me');
    assert.match(await page.locator('.member.me').innerText(), /Ama/);
    assert.equal(await page.locator('#rated-line').isVisible(), true);

    // A few moves by clicks, the bot answering each.
    for (let i = 0; i < 3; i++) {
      s = await until(base, id, (n) => n.turn === 'red' || n.result, 30000);
      if (s.result) break;
      await page.waitForSelector(`body[data-ply="${s.ply}"][data-ready="1"]`, { timeout: 30000 });
      const entry = s.legal.find((m) => m.kind === 'capture') || s.legal[(i * 7) % s.legal.length];
      await clickMove(page, entry, 'black');
      const ply = s.ply;
      s = await until(base, id, (n) => n.ply > ply + 1 || n.result, 30000);
    }
    assert.ok(s.ply >= 5, `the bot answered: ply ${s.ply}\n${botLog}`);
    await page.waitForSelector(`body[data-ply="${s.ply}"][data-ready="1"]`, { timeout: 30000 });
    await shot(page, 'bot-challenge-game-1280');

    // Ama resigns from the page.
    await page.click('#act-resign');
    await page.click('#act-resign');
    s = await until(base, id, (n) => n.result);
    assert.equal(s.status, 'finished');
    assert.deepEqual(s.result, { winner: 'black', reason: 'resignation' });
    await page.waitForSelector('#end[data-result="black"]:not([hidden])', { timeout: 30000 });
    const robotChip = page.locator('.member', { hasText: 'robot' });
    assert.equal(await robotChip.locator('.bot-badge').innerText(), 'BOT');
    assert.equal(await page.locator('.member.me .bot-badge').count(), 0, 'Ama is no bot');
    // No rematch against a bot: it joins only the games it is challenged to.
    assert.equal(await page.locator('#end-rematch').isVisible(), false);
    assert.equal(await page.locator('#act-rematch').isVisible(), false);
    await shot(page, 'bot-challenge-end-1280');

    // The rated game counts for both.
    const after = await eventually('the rated game counted', async () => {
      const p = await profile(base, 'robot');
      return p.ratings.yote.games === 1 && p;
    });
    assert.deepEqual(after.results.yote, { wins: 1, draws: 0, losses: 0 });
    assert.equal((await profile(base, 'Ama')).ratings.yote.games, 1);
    await openProfile(page, base, 'robot');
    assert.equal(await page.locator(`.player-games tr[data-id="${id}"]`).count(), 1, 'on the bot’s recent games');

    // In English, the challenge leads to /game/{id}.
    await page.evaluate(() => localStorage.setItem('palabre.lang', 'en'));
    await openProfile(page, base, 'robot', '/player/');
    await page.waitForSelector('#challenge-form:not([hidden])');
    assert.match(await page.locator('#challenge-h').innerText(), /^Challenge this bot$/);
    const movedEn = page.waitForURL(/\/game\/[^/]+$/, { timeout: 30000 });
    sent = await sendChallenge(page, 'robot');
    await movedEn;
    assert.equal(page.url().split('/').pop(), sent.created.id);
    await page.waitForSelector('.member.me', { timeout: 30000 });
    assert.match(await page.locator('.member', { hasText: 'robot' }).innerText(), /BOT/);
    // Back on the profile, the form again, ready for another challenge.
    await page.goBack();
    await page.waitForSelector('#challenge-form:not([hidden]) #challenge-send:not([disabled])');
    assert.equal(await page.locator('#challenge-wait').isVisible(), false);

    assert.deepEqual(errors, []);
  } finally {
    if (bot && bot.exitCode === null) bot.kill();
    await browser.close();
    await server.stop();
  }
});
