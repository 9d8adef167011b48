// A measurement, not a test: the time from a click on a pit to the
// machine's reply standing on the board (its animation over, the board
// ready for the next click), at « Normale » speed with animations on,
// against Débutant on Nsolo 4×8 and 4×36. Prints the median and the
// slowest of N replies per board. Run: node tests/browser/measure.mjs [N]
import { api, launch, openGame, startServer } from './harness.mjs';

const N = Number(process.argv[2]) || 7;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function replies(browser, base, size) {
  const times = [];
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'fr-FR' });
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('palabre.speed', '150'));
  while (times.length < N) {
    const g = await api(base, 'POST', '/api/games', { game: 'nsolo', size, opponent: 'machine', level: 'debutant', side: 'south' });
    await openGame(page, base, g);
    for (let k = 0; k < 3 && times.length < N; k++) {
      await page.waitForSelector('body[data-ready="1"]', { timeout: 120000 });
      const s = await api(base, 'GET', `/api/games/${g.id}`);
      if (s.result) break;
      // A sowing with no capture: one click plays it.
      const quiet = s.legal.filter((m) => !m.capture);
      if (!quiet.length) break;
      const move = quiet[(times.length * 5) % quiet.length];
      const ply = s.ply;
      const t0 = Date.now();
      await page.click(`[data-pit="${move.pit}"]`);
      await page.waitForFunction((p) => Number(document.body.dataset.ply) >= p + 2 && document.body.dataset.ready === '1', ply, { timeout: 120000 });
      times.push(Date.now() - t0);
    }
  }
  await context.close();
  return times;
}

const server = await startServer();
const browser = await launch();
try {
  for (const size of [8, 36]) {
    const t = await replies(browser, server.base, size);
    console.log(`Nsolo 4×${size}: click to reply median ${median(t)} ms, max ${Math.max(...t)} ms over ${t.length} replies`);
  }
} finally {
  await browser.close();
  await server.stop();
}
