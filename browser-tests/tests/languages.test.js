// The pages in French and in Hausa, in real Chromium: the language comes from the browser's
// languages or from the switch in the header (remembered), `<html lang>` follows, and the game
// page words what the server sends as codes (the turn, the closed cells, an illegal move, the end).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useArcade, keepScreenshotsOnFailure, createGame } from '../harness.js';

const { server, newPage, pages } = useArcade(['--instant-computer']);

const text = (page, selector) => page.locator(selector).innerText();
const movesShown = (page, n) => page.waitForFunction((k) => document.querySelectorAll('#moves button.move').length >= k, n);

test('a browser set to French gets the pages in French, and plays a game in French', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('french', pages, async () => {
    const page = await newPage({ width: 1280, height: 860 }, { locale: 'fr-FR' });
    await page.goto(server.url);
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    assert.equal(await page.inputValue('#lang'), 'fr');
    assert.equal(await page.title(), 'Dara — jouer dans le navigateur');
    assert.equal(await text(page, '#play-computer button[type=submit]'), "Jouer contre l'ordinateur");
    // Level 1, pale, from the home page's own form.
    await page.selectOption('#level', '1');
    await page.click('#play-computer button[type=submit]');
    // Played in the page: the refusals below are worded from the page's own table's codes.
    await page.waitForURL(/\/computer\//);
    assert.equal(await page.getAttribute('html', 'lang'), 'fr');
    await page.waitForFunction(() => document.querySelector('#turn').textContent === 'À vous : posez un pion.');
    assert.equal(await text(page, '#player-white .name'), 'Vous');
    assert.equal(await text(page, '#player-black .name'), 'Ordinateur, niveau 1');
    assert.equal(await text(page, '#player-white .hand'), '12 en main');
    assert.equal(await text(page, '#phase'), 'Phase de pose');
    assert.equal(await text(page, '#flip'), 'Retourner le plateau');
    // French puts a (non-breaking) space before a colon.
    // The sound switch says the state it is in.
    assert.equal(await text(page, '#mute'), 'Son\u00a0: activé');
    await page.click('#mute');
    assert.equal(await text(page, '#mute'), 'Son\u00a0: coupé');
    await page.click('#mute');
    assert.equal(await text(page, '#resign'), 'Abandonner');
    assert.equal(await page.getAttribute('#prev', 'aria-label'), 'Position précédente');
    // A few placements by clicks; the computer answers each, and the announcement is French.
    await page.click('[data-cell="a1"]');
    await movesShown(page, 2);
    assert.match(await text(page, '#announce'), /^Foncé a posé en [a-f][1-5]\. À vous : posez un pion\.$/);
    // A second pale stone beside the first, so that the cell after them closes: b1 (then c1
    // closes), or a2 (then a3) if the computer's stone is on b1 or c1. A cell's label says
    // "vide" when it is empty.
    const label = (cell) => page.getAttribute(`[data-cell="${cell}"]`, 'aria-label');
    const empty = async (cell) => /^[a-f][1-5], vide/.test(await label(cell));
    const [second, closed] = (await empty('b1')) && (await empty('c1')) ? ['b1', 'c1'] : ['a2', 'a3'];
    await page.click(`[data-cell="${second}"]`);
    await movesShown(page, 4);
    // The closed cell, unless the computer's second stone took it: the cell's label and the
    // board word the code.
    if (await empty(closed)) {
      assert.match(await label(closed), /fermée : une pose ne peut pas aligner trois pions ou plus/);
      await page.click(`[data-cell="${closed}"]`);
      assert.equal(await text(page, '#status-note'), `Vous ne pouvez pas poser en ${closed} : une pose ne peut pas aligner trois pions ou plus.`);
    }
    // Moves typed that the rules refuse: the reason is worded in French from the rules' code
    // and its cells, not the server's English.
    const typed = async (move) => {
      await page.fill('#typed-input', move);
      await page.press('#typed-input', 'Enter');
      await page.waitForFunction((m) => document.querySelector('#status-note').textContent.startsWith('Coup non joué') && document.querySelector('#typed-input').value === '', move);
      const note = await text(page, '#status-note');
      await page.evaluate(() => { document.querySelector('#status-note').textContent = ''; });
      return note;
    };
    assert.equal(await typed('a1'), "Coup non joué : la case a1 n'est pas vide.");
    assert.equal(await typed('a1-a2'), 'Coup non joué : Clair pose encore ses pions (par exemple c3).');
    assert.equal(await typed('c7'), "Coup non joué : c7 n'est pas sur ce plateau de 6 × 5.");
    if (await empty(closed)) {
      assert.equal(await typed(closed), `Coup non joué : un pion en ${closed} serait dans une ligne de 3 ; une pose ne peut pas aligner 3 pions ou plus.`);
    }
    // Resigning: the dialog and the end, from the end event's code.
    await page.click('#resign');
    assert.equal(await text(page, '#resign-title'), 'Abandonner cette partie ?');
    await page.click('#resign-confirm');
    await page.waitForSelector('#end:not([hidden])');
    // The player (pale) hears the loss as theirs.
    assert.equal(await text(page, '#result'), 'Vous avez perdu (0-1) : Clair a abandonné');
    assert.equal(await text(page, '#turn'), 'Partie terminée : Vous avez perdu (0-1) : Clair a abandonné.');
    assert.equal(await text(page, '#review-start'), 'Faire revoir la partie par le moteur');
  });
});

test('the switch puts the pages in Hausa and is remembered; a friend game in Hausa', { timeout: 60000 }, async () => {
  await keepScreenshotsOnFailure('hausa', pages, async () => {
    const host = await newPage();
    await host.goto(server.url);
    assert.equal(await host.getAttribute('html', 'lang'), 'en');
    // The switch is named, and each language is named in itself.
    assert.equal(await host.getByRole('combobox', { name: 'Language' }).count(), 1);
    assert.deepEqual(await host.$$eval('#lang option', (o) => o.map((x) => `${x.lang}:${x.textContent}`)), ['en:English', 'fr:Français', 'ha:Hausa']);
    await Promise.all([host.waitForEvent('load'), host.selectOption('#lang', 'ha')]);
    assert.equal(await host.getAttribute('html', 'lang'), 'ha');
    assert.equal(await text(host, '#play-friend h2'), 'Yi wasa da aboki');
    assert.equal(await host.evaluate(() => localStorage.getItem('dara.lang')), 'ha');
    // Remembered on the next page of the site.
    await host.goto(`${server.url}/rules`);
    assert.equal(await host.getAttribute('html', 'lang'), 'ha');
    assert.equal(await text(host, 'h1'), 'Yadda ake wasan Dara');

    const created = await createGame(server, { opponent: 'friend', rules: 'arcade', first: 'me' });
    await host.goto(server.url + created.url);
    assert.equal(await text(host, '#invite h2'), 'Aika wannan mahaɗa ga abokinka');
    // The friend's browser asks for Hausa first (as a phone set to Hausa in Niger would).
    const friend = await newPage({ width: 390, height: 844 }, { locale: 'ha-NE' });
    await friend.goto(`${server.url}/g/${created.game}`);
    assert.equal(await friend.getAttribute('html', 'lang'), 'ha');
    await host.waitForSelector('#invite', { state: 'hidden' });
    // The sound switch says the state it is in, in Hausa too.
    await friend.waitForSelector('#player-black.to-move, #player-white.to-move');
    assert.equal(await text(friend, '#mute'), 'Sauti: a kunne');
    await friend.click('#mute');
    assert.equal(await text(friend, '#mute'), 'Sauti: a kashe');
    await friend.click('#mute');
    await host.waitForFunction(() => document.querySelector('#turn').textContent === 'Lokacinka ne: ajiye dutse.');
    await friend.waitForFunction(() => document.querySelector('#turn').textContent === 'Lokacin Fari ne: ajiye dutse.');
    await host.click('[data-cell="c3"]');
    await friend.waitForFunction(() => document.querySelector('#announce').textContent.startsWith('Fari ya ajiye a c3.'));
    await friend.click('[data-cell="d4"]');
    await movesShown(host, 2);
    // c3 and c4 close c5 to pale: the cell says why in Hausa, from the position's code.
    await host.click('[data-cell="c4"]');
    await movesShown(friend, 3);
    await friend.click('[data-cell="f1"]');
    await movesShown(host, 4);
    assert.match(await host.getAttribute('[data-cell="c5"]', 'aria-label'), /a rufe: ajiyewa ba za ta yi uku ko fiye a layi ba/);
    await host.click('[data-cell="c5"]');
    assert.equal(await text(host, '#status-note'), 'Ba za ka iya ajiyewa a c5 ba: ajiyewa ba za ta yi uku ko fiye a layi ba.');
    assert.equal(await text(host, '#player-black .name'), 'Abokin hamayyarka');
    assert.equal(await text(host, '#phase'), 'Lokacin ajiyewa');
    // A draw offered (after the page asks) and the end by agreement, both from codes.
    await host.click('#draw');
    assert.equal(await text(host, '#draw-confirm-text'), 'Ka nemi kunnen doki daga abokin hamayyarka?');
    await host.click('#draw-yes');
    await friend.waitForFunction(() => document.querySelector('#offer-note').textContent === 'Abokin hamayyarka yana neman kunnen doki.');
    assert.equal(await text(friend, '#draw'), 'Amince da kunnen doki');
    await friend.click('#draw');
    await host.waitForSelector('#end:not([hidden])');
    assert.equal(await text(host, '#result'), 'Kunnen doki (1/2-1/2): kunnen doki da yarjejeniya');
  });
});
