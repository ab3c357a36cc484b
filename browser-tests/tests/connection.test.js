// A link that dies without closing: the page notices within seconds, says it is reconnecting,
// holds a turn clicked meanwhile as "sending", and sends it once when the link is back.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame, startProxy } from '../harness.js';

let proxy;
const { server, newPage, pages } = useArcade(['--instant-computer'], async (started) => { proxy = await startProxy(started.url); });
after(() => proxy?.close());

test('a cut link shows reconnecting, a turn waits as sending, and is played once', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('cut-link', pages, async () => {
    const created = await createGame(server, { opponent: 'computer', level: 1, first: 'me' });
    const page = await newPage();
    await page.goto(proxy.url + created.url);
    await page.click('[data-cell="c3"].put');
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 2);
    await page.waitForSelector('[data-cell].put');

    proxy.cut();
    const cutAt = Date.now();
    await page.waitForSelector('#connection:not([hidden])', { timeout: 15000 });
    assert.equal(await page.locator('#connection-text').innerText(), 'Connection lost: reconnecting…');
    assert.ok(await page.locator('#retry-now').isVisible(), 'a "Retry now" button while reconnecting');
    const noticed = Date.now() - cutAt;
    assert.ok(noticed <= 12000, `noticed after ${noticed} ms`);

    // A turn clicked meanwhile waits, and the board offers nothing more. (a1, unless the
    // computer, which plays at random at level 1, took it.)
    const cell = await page.locator('[data-cell="a1"].put').count() ? 'a1' : await page.locator('[data-cell].put').first().getAttribute('data-cell');
    await page.click(`[data-cell="${cell}"].put`);
    assert.equal(await page.locator('#status-note').innerText(), `Sending ${cell}…`);
    assert.equal(await page.locator('[data-cell].put').count(), 0);

    // Back: "Retry now" does not wait for the attempt stuck on the dead link to time out.
    proxy.restore();
    // The page's own back-off may come round between the restore and the click, and then it is
    // back before the button can be pressed: that is no failure, as long as it is back.
    await page.locator('#retry-now').click({ timeout: 2000 }).catch(async (error) => {
      if (await page.locator('#connection').isVisible()) throw error;
    });
    await page.waitForSelector('#connection', { state: 'hidden', timeout: 3000 });
    // Played once: the computer answers it, and the list has four moves, that one once.
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 4);
    const moves = await page.$$eval('#moves button.move', (buttons) => buttons.map((b) => b.textContent));
    assert.equal(moves.filter((m) => m === cell).length, 1);
    assert.equal(moves[2], cell);
  });
});

test('a page in play reports its lag with its turns, and pings only when it has sent nothing for a while', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('pings', pages, async () => {
    const created = await createGame(server, { opponent: 'computer', level: 1, first: 'me' });
    const page = await newPage();
    const sent = [];
    page.on('websocket', (ws) => ws.on('framesent', (frame) => {
      sent.push({ at: Date.now(), msg: JSON.parse(frame.payload) });
    }));
    await page.goto(server.url + created.url);
    await page.click('[data-cell="c3"].put');
    await page.waitForFunction(() => document.querySelectorAll('#moves button.move').length === 2);

    const turns = sent.filter((f) => f.msg.t === 'move');
    assert.equal(turns.length, 1);
    assert.equal(typeof turns[0].msg.d.lag, 'number', JSON.stringify(turns[0].msg));

    // Then nothing to send: a ping follows about two seconds after the turn (the page looks
    // once a second), carrying the lag measured from the turn's answer.
    await page.waitForTimeout(4500);
    const pings = sent.filter((f) => f.msg.t === 'ping');
    assert.ok(pings.length >= 1, 'a quiet page pings');
    const after = pings[0].at - turns[0].at;
    assert.ok(after >= 1500 && after <= 4500, `first ping ${after} ms after the turn`);
    assert.equal(typeof pings[0].msg.d.lag, 'number');
  });
});
