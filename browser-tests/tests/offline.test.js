// The Arcade without a connection, in real Chromium on a phone's screen: the service worker
// takes control on the first visit; then, with the network cut and the server stopped, a
// reload shows the home page, the rules, /learn, /puzzles and /analysis open (their moves judged
// by the page's module, /analysis's empty board read by it too), /watch says it is offline, a
// game against the computer at level 8 is played to its end by clicking (the computer, in the
// page, answering every move), and a friend's link says that it needs a connection.
// DARA_SHOTS=<folder> keeps screenshots of the offline game to look at.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { useArcade, keepScreenshotsOnFailure, createGame, clickTurn, myTurnOrEnd, playComputerFromHome } from '../harness.js';

const { server, newPage, pages } = useArcade();
const shots = process.env.DARA_SHOTS;
const shoot = async (page, name) => {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: join(shots, `${name}.png`) });
};

test('offline: the service worker keeps the Arcade, and a level-8 game against the computer is played to its end', { timeout: 420000 }, async () => {
  await keepScreenshotsOnFailure('offline', pages, async () => {
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(server.url + '/');
    // The first visit installs the worker, which takes control of the page once it keeps all.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60000 });
    const friendGame = await createGame(server, { opponent: 'friend', first: 'me' });

    await server.kill('SIGKILL');
    await page.context().setOffline(true);
    await page.reload();
    assert.ok(await page.locator('#play-computer').isVisible(), 'the home page, from the kept copy');
    // A page of an older release, asking late for a file by the name its release gave it, gets
    // this release's copy of the same file from the worker (assets are kept by hashed names).
    const late = await page.evaluate(async () => {
      const answer = await fetch('/assets/engine-worker.000000000000.js');
      return [answer.status, (await answer.text()).includes('fetchModule')];
    });
    assert.deepEqual(late, [200, true], 'an older name, offline');
    // The pages that teach judge moves with the page's own module: they work offline too.
    for (const [path, ready] of [['/rules', 'h1'], ['/privacy', 'h1'], ['/learn', '#board [data-cell].put'], ['/puzzles', '#board [data-cell].put, #board [data-cell].select'], ['/analysis', '#board [data-cell].put'], ['/watch', '#watch-offline:not([hidden])']]) {
      await page.goto(server.url + path);
      await page.locator(ready).first().waitFor({ timeout: 10000 });
    }

    await playComputerFromHome(page, server.url, { level: 8 });
    let turns = 0;
    while (!(await myTurnOrEnd(page, 60000))) {
      const before = await page.locator('#moves button.move').count();
      await clickTurn(page);
      // The person's turn is shown, then the computer's answer (unless the turn ended it).
      await page.waitForFunction((n) => document.querySelectorAll('#moves button.move').length > n, before);
      turns += 1;
      if (turns === 6) await shoot(page, 'offline-game-390');
      assert.ok(turns < 300, 'the game ends');
    }
    await shoot(page, 'offline-game-390-end');
    assert.match(await page.locator('#result').innerText(), /(You won|You lost|Draw) \((1-0|0-1|1\/2-1\/2)\): /);
    assert.match(await page.locator('#record').inputValue(), /\[Black "Computer level 8"\]/);
    const moves = await page.locator('#moves button.move').count();
    assert.ok(moves >= 24, `${moves} turns: the computer answered every one`);

    // A friend's game needs the server: its page says so, and keeps trying.
    await page.goto(server.url + friendGame.url);
    await page.waitForFunction(() => document.querySelector('#connection-text').textContent.startsWith('No connection'));
    await shoot(page, 'offline-friend-390');
    assert.match(await page.locator('#connection-text').innerText(), /needs one\. Trying again by itself/);
  });
});
