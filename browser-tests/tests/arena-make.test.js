// A private arena made from /arenas, in real Chromium, as a club night's organiser would: the
// form (in French, on a phone) makes it and goes to its page, which shows its maker the link to
// send and Start; a friend opens the link and joins, the maker joins and presses Start, and both
// are paired and sent to their game. Another browser sees neither the link nor Start. One
// address may hold three private arenas at once: the fourth is refused, in the page's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure } from '../harness.js';

const { server, newPage, pages } = useArcade();

// Makes an arena from the /arenas form of `page`; gives the answer's status.
async function submitForm(page, { clock = '1+1', minutes = '5', at = '' } = {}) {
  await page.goto(`${server.url}/arenas`);
  // Folded above the list (which then fills in below it without moving it); ready once its
  // script has taken the form over.
  await page.click('#make-card summary');
  await page.waitForSelector('#make:not([disabled])');
  await page.selectOption('#make-clock', clock);
  await page.fill('#make-minutes', minutes);
  await page.fill('#make-at', at);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/arenas') && r.request().method() === 'POST');
  await page.click('#make');
  const status = (await answer).status();
  // Made: the page goes to the arena's page.
  if (status === 201) await page.waitForURL(/\/arena\/[0-9a-f]+$/);
  return status;
}

async function join(page, name) {
  await page.waitForFunction(() => document.querySelector('#arena-time').textContent.trim() !== '');
  await page.fill('#arena-name', name);
  await page.click('#join');
  await page.locator('#arena-joined').filter({ hasText: name }).waitFor();
}

test('a private arena is made from /arenas, shared by its link and started by its maker', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('arena-make', pages, async () => {
    const maker = await newPage({ width: 390, height: 844 }, { locale: 'fr-FR' });
    assert.equal(await submitForm(maker), 201);
    const link = maker.url();
    // Its maker sees the link to send, and Start, in French; it waits for them.
    await maker.locator('#maker-card').waitFor();
    assert.equal(await maker.inputValue('#arena-link'), link);
    await maker.locator('#start-now').filter({ hasText: 'Commencer maintenant' }).waitFor();
    await maker.locator('#arena-time').filter({ hasText: /lance|commence|créateur/i }).waitFor();
    assert.match(await maker.locator('#arena-about').innerText(), /1\+1, 5 minutes/);
    // The secret stays in this browser only.
    const made = await maker.evaluate(() => JSON.parse(localStorage.getItem('dara.arena.made')));
    const id = new URL(link).pathname.split('/')[2];
    assert.match(made[id].secret, /^[0-9a-f]{32}$/);

    // A friend opens the link: no Start, no link card; joins.
    const friend = await newPage({ width: 1280, height: 800 }, { locale: 'ha' });
    await friend.goto(link);
    await join(friend, 'Ɗanƙwali');
    assert.equal(await friend.locator('#maker-card').isVisible(), false);
    // The arena is not listed: private arenas are reached by their link.
    const listed = await (await fetch(`${server.url}/api/arenas`)).json();
    assert.ok(!listed.some((a) => a.id === id), 'a private arena is not listed');

    await join(maker, 'Hélène');
    await maker.click('#start-now');
    // Started: both are paired and go to their game, each with their seat.
    for (const page of [maker, friend]) await page.waitForURL(/\/g\/[0-9a-f]{16}#seat=[0-9a-f]{32}$/, { timeout: 20000 });
    assert.equal(new URL(maker.url()).pathname, new URL(friend.url()).pathname);
    // Back to the arena from the game (as its link does, naming the game, or the page would go
    // straight back to it): running, so Start is gone.
    await maker.goto(`${link}#from=${new URL(maker.url()).pathname.split('/')[2]}`);
    await maker.locator('#arena-time').filter({ hasText: /\d:\d\d/ }).waitFor();
    assert.equal(await maker.locator('#start-now').isVisible(), false, 'a running arena has no Start');

    // Two more from this address are taken; the fourth held at once is refused, in French.
    const again = await maker.context().newPage();
    assert.equal(await submitForm(again, { at: '23:59' }), 201);
    assert.equal(await submitForm(again), 201);
    assert.equal(await submitForm(again), 429);
    await again.locator('#make-error').filter({ hasText: /3 tournois créés depuis votre connexion/ }).waitFor();
    assert.equal(await again.locator('#make').isDisabled(), false, 'the form can be sent again');
  });
});
