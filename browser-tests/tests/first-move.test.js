// A game whose side never makes its first move is aborted without a result, as on lichess
// (PROTOCOL.md, clocks). The server is told to wait 3 s instead of 30 for that move.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame } from '../harness.js';

const { server, newPage, pages } = useArcade(['--first-move-within', '3']);

test('a side that makes no first move aborts the game, said on both pages, in their languages', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('aborted', pages, async () => {
    const created = await createGame(server, { opponent: 'friend', first: 'me', clock: { initial: 60, increment: 0 } });
    const host = await newPage();
    await host.goto(server.url + created.url);
    const friend = await newPage({ width: 390, height: 844 }, { locale: 'fr-FR' });
    await friend.goto(`${server.url}/g/${created.game}`);
    await host.waitForSelector('#invite', { state: 'hidden' });
    await host.click('[data-cell="c3"]');

    // Dark never answers pale's first placement.
    await host.waitForSelector('#end:not([hidden])', { timeout: 20000 });
    assert.equal(await host.locator('#result').innerText(), 'No result (*): Dark made no first move in time: the game is aborted');
    assert.equal(await host.locator('#player-white .clock').innerText(), '1:00');
    assert.equal(await host.locator('#player-black .clock').innerText(), '1:00');
    assert.equal(await host.locator('#player-black .first-move').innerText(), '');
    await friend.waitForSelector('#end:not([hidden])');
    assert.equal(await friend.locator('#result').innerText(), "Sans résultat (*) : Foncé n'a pas joué son premier coup à temps : la partie est annulée");
  });
});
