// Quick messages between a French page and a Hausa page, in real Chromium: each phrase is sent as
// a code and read in the reader's own language, a watcher reads both players' and sends none, and
// a player who hides the opponent's sees none of them, those shown already included, across a
// reload; nothing said comes back with a reload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame } from '../harness.js';

const { server, newPage, pages } = useArcade();

const said = (page) => page.$$eval('#said li', (lines) => lines.map((l) => l.textContent));
const saidSoon = (page, expected) => page.waitForFunction(
  (lines) => JSON.stringify([...document.querySelectorAll('#said li')].map((l) => l.textContent)) === JSON.stringify(lines),
  expected,
).catch(async () => assert.deepEqual(await said(page), expected));

// Every text the page's live region is given, from now on.
const listen = (page) => page.evaluate(() => {
  window.announced = [];
  new MutationObserver(() => window.announced.push(document.getElementById('announce').textContent))
    .observe(document.getElementById('announce'), { childList: true, characterData: true, subtree: true });
});
const announced = (page) => page.evaluate(() => window.announced);

test('a French page and a Hausa page greet each other, each in its own words; hiding works', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('quick-messages', pages, async () => {
    const created = await createGame(server, { opponent: 'friend', first: 'me' });
    // French from the browser's languages (Accept-Language), Hausa from the `lang` cookie.
    const host = await newPage({ width: 390, height: 844 }, { locale: 'fr-FR' });
    await host.goto(server.url + created.url);
    const friend = await newPage({ width: 390, height: 844 }, { locale: 'en-GB' });
    await friend.context().addCookies([{ name: 'lang', value: 'ha', url: server.url }]);
    await friend.goto(`${server.url}/g/${created.game}`);
    assert.equal(await friend.getAttribute('html', 'lang'), 'ha');
    for (const page of [host, friend]) await page.waitForSelector('#phrases button', { state: 'visible' });
    const watcher = await newPage({ width: 1280, height: 800 }, { locale: 'en-GB' });
    await watcher.goto(`${server.url}/g/${created.game}`);
    await watcher.waitForSelector('#watch-note', { state: 'visible' });

    // The phrases are buttons named in the reader's language, in a group that says what they do.
    const group = host.getByRole('group', { name: 'Envoyer un message rapide' });
    assert.equal(await group.getByRole('button').count(), 10);
    assert.equal(await friend.getByRole('group', { name: 'Aika gajeren saƙo' }).getByRole('button', { name: 'Sannu!' }).count(), 1);
    // A watcher reads the players' phrases, and has none to send.
    assert.equal(await watcher.isVisible('#quick'), true);
    assert.equal(await watcher.isVisible('#phrases'), false);
    assert.equal(await watcher.isVisible('#hide-said'), false);

    await listen(host);
    await listen(friend);
    await group.getByRole('button', { name: 'Bonjour\u00a0!' }).click();
    await saidSoon(friend, ['Abokin hamayyarka: Sannu!']);
    await saidSoon(host, ['Vous\u00a0: Bonjour\u00a0!']);
    await saidSoon(watcher, ['Pale: Hello!']);
    await friend.getByRole('button', { name: 'Wasa mai kyau!' }).click();
    await saidSoon(host, ['Vous\u00a0: Bonjour\u00a0!', 'Votre adversaire\u00a0: Belle partie\u00a0!']);
    await saidSoon(friend, ['Abokin hamayyarka: Sannu!', 'Kai: Wasa mai kyau!']);
    await saidSoon(watcher, ['Pale: Hello!', 'Dark: Good game!']);
    // Each screen reader is told each phrase once: the opponent's as said to it, its own as
    // "you said" (pressing the button said nothing more).
    assert.deepEqual((await announced(host)).filter((text) => text), ['Vous avez dit\u00a0: Bonjour\u00a0!', 'Votre adversaire\u00a0: Belle partie\u00a0!']);
    assert.deepEqual((await announced(friend)).filter((text) => text), ['Abokin hamayyarka: Sannu!', 'Ka ce: Wasa mai kyau!']);

    // The Hausa player hides the opponent's messages: the one shown goes, and the next never comes.
    await friend.click('#hide-said');
    assert.equal(await friend.getAttribute('#hide-said', 'aria-pressed'), 'true');
    assert.equal(await friend.innerText('#hide-said'), 'Ɓoye saƙonnin abokin hamayya: a kunne');
    await saidSoon(friend, ['Kai: Wasa mai kyau!']);
    await host.getByRole('button', { name: 'Merci\u00a0!' }).click();
    await saidSoon(watcher, ['Pale: Hello!', 'Dark: Good game!', 'Pale: Thank you!']);
    await saidSoon(host, ['Vous\u00a0: Bonjour\u00a0!', 'Votre adversaire\u00a0: Belle partie\u00a0!', 'Vous\u00a0: Merci\u00a0!']);
    await friend.waitForTimeout(500);
    assert.deepEqual(await said(friend), ['Kai: Wasa mai kyau!']);
    assert.ok(!(await announced(friend)).some((text) => text.includes('Na gode')));

    // A reload: the switch is remembered, and nothing said before comes back.
    await friend.reload();
    await friend.waitForSelector('#phrases button', { state: 'visible' });
    assert.equal(await friend.getAttribute('#hide-said', 'aria-pressed'), 'true');
    assert.deepEqual(await said(friend), []);
    // Shown again: the opponent's next phrase arrives, in Hausa.
    await friend.click('#hide-said');
    assert.equal(await friend.getAttribute('#hide-said', 'aria-pressed'), 'false');
    await host.getByRole('button', { name: 'Au revoir\u00a0!' }).click();
    await saidSoon(friend, ['Abokin hamayyarka: Sai an jima!']);

    // Too many at once: the refusal is worded in the sender's language.
    // (Three were said: one more refills each 15 s, so a few presses in a row find the limit.)
    const refused = /^Vous avez envoyé autant de messages rapides que permis pour l'instant\u00a0: envoyez-en un autre dans \d+ s$/;
    let note = '';
    for (let press = 0; press < 4 && !refused.test(note); press += 1) {
      await host.getByRole('button', { name: 'Pardon\u00a0!' }).click();
      await host.waitForTimeout(300);
      note = await host.textContent('#status-note');
    }
    assert.match(note, refused);
  });
});
