// The newer pages (/learn, /analysis, /puzzles, and a finished game's review on the game page)
// checked by axe-core for WCAG 2.1 A and AA and axe's best practices, with zero violations, and
// used by keyboard alone: Tab reaches every control on the page, and the review's table (the
// evaluation graph in figures) opens and shows a position by keyboard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { useArcade, keepScreenshotsOnFailure, createGame } from '../harness.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const { server, newPage, pages } = useArcade(['--instant-computer']);

// axe's findings on the page as it stands, one line each ("rule: target").
async function axeViolations(page) {
  await page.evaluate(AXE);
  const result = await page.evaluate(() => window.axe.run(document, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
  }));
  return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary.split('\n').slice(1).join(' ')}`));
}

// Presses Tab until the focus comes round again, and says which of the page's visible, enabled
// controls it never reached.
async function unreachedByTab(page) {
  await page.evaluate(() => {
    document.activeElement?.blur();
    window.__reached = new Set();
    document.addEventListener('focusin', (e) => window.__reached.add(e.target), true);
  });
  for (let i = 0; i < 150; i++) await page.keyboard.press('Tab');
  return page.evaluate(() => {
    const controls = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex="0"]')]
      .filter((el) => !el.disabled && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden');
    return controls.filter((el) => !window.__reached.has(el)).map((el) => el.outerHTML.slice(0, 80));
  });
}

for (const [name, path, ready] of [
  ['the guided first game', '/learn', '#lesson-title:not(:empty)'],
  ['the analysis board', '/analysis', '#evaluation:not(:empty)'],
  ['the puzzles', '/puzzles', '#puzzle-title:not(:empty)'],
]) {
  test(`${name} (${path}): no axe violations, every control reached by Tab`, { timeout: 60000 }, async () => {
    await keepScreenshotsOnFailure(`a11y-${path.slice(1)}`, pages, async () => {
      const page = await newPage();
      await page.goto(server.url + path);
      await page.waitForSelector(ready, { timeout: 20000 });
      assert.deepEqual(await axeViolations(page), []);
      assert.deepEqual(await unreachedByTab(page), []);
    });
  });
}

test('a finished game with its review: no axe violations (English and Hausa), the graph as a table, all by keyboard', { timeout: 90000 }, async () => {
  await keepScreenshotsOnFailure('a11y-review', pages, async () => {
    const created = await createGame(server, { opponent: 'computer', level: 1, first: 'me' });
    const page = await newPage({ width: 390, height: 844 });
    await page.goto(server.url + created.url);
    // Two placements by keyboard alone: into the board, arrows, Enter.
    for (const n of [2, 4]) {
      await page.waitForFunction(() => document.querySelector('#turn').textContent.startsWith('Your turn'));
      await page.locator('[data-cell="a1"]').focus();
      await page.keyboard.press(n === 2 ? 'Enter' : 'ArrowRight');
      if (n === 4) {
        // b1 may be taken by the computer: step right until a cell that can be placed on.
        for (let i = 0; i < 5 && !(await page.evaluate(() => document.activeElement.classList.contains('put'))); i++) await page.keyboard.press('ArrowUp');
        await page.keyboard.press('Enter');
      }
      await page.waitForFunction((k) => document.querySelectorAll('#moves button.move').length >= k, n);
    }
    // Resign by keyboard: the dialog takes the focus; Tab to Resign, Enter.
    await page.locator('#resign').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.activeElement.id === 'resign-cancel');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.id), 'resign-confirm');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#end:not([hidden])');
    await page.locator('#review-start').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('#review-body:not([hidden])', { timeout: 30000 });
    // The graph is hidden from screen readers; the same figures are a table with a caption
    // and column headers, one row a turn.
    assert.equal(await page.getAttribute('#review-graph svg', 'aria-hidden'), 'true');
    await page.locator('#review details summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await page.locator('#review details').evaluate((d) => d.open), true);
    assert.equal(await page.locator('.review-table th[scope="col"]').count(), 6);
    assert.equal(await page.locator('#review-table tr').count(), 4);
    assert.deepEqual(await axeViolations(page), []);
    // Tab from the summary reaches the first row's turn; Enter shows the board after it.
    await page.locator('#review details summary').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.closest('#review-table tr') === document.querySelector('#review-table tr')), true);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#browsing:not([hidden])');
    assert.match(await page.locator('#review-note').innerText(), /^1\. a1 by you: /);
    assert.deepEqual(await unreachedByTab(page), []);

    // The same page in Hausa is as clean.
    await page.evaluate(() => localStorage.setItem('dara.lang', 'ha'));
    await page.reload();
    await page.waitForSelector('#end:not([hidden])');
    assert.equal(await page.getAttribute('html', 'lang'), 'ha');
    await page.locator('#review-start').click();
    await page.waitForSelector('#review-body:not([hidden])', { timeout: 30000 });
    await page.click('#review details summary');
    assert.deepEqual(await axeViolations(page), []);
  });
});
