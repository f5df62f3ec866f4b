// The computer's hint and the win-chance bar in a Morne Plaine game against the computer:
// Hint shows three numbered markers on the map and the plans in words, and the bar can be
// switched off and on.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { api, newPage, shownN, waitForN, session } from './harness.mjs';

const { server, browser, page, close } = await session();
after(close);

describe('the hint in the browser', () => {
  test('Hint shows the three best plans on the map and in words; the bar switches', async () => {
    const made = await api(server.base, 'POST', '/api/games', {
      body: { scenario: 'bridge-at-morne', seats: { blue: 'human', orange: 'ai' } },
    });
    await page.goto(server.base + made.seats.blue.link);
    await page.waitForSelector('.counter');
    await page.waitForFunction(() => document.body.dataset.toAct === 'blue', null, { timeout: 30_000 });
    // Into the movement phase, where every unit has plans.
    if ((await page.locator('body').getAttribute('data-phase')) === 'bombardment') {
      const n = await shownN(page);
      await page.locator('#end-phase').click();
      await waitForN(page, n + 1);
    }
    assert.equal(await page.locator('body').getAttribute('data-phase'), 'movement');

    // The bar is on by default against the computer, and fills in.
    assert.equal(await page.locator('#winbar-on').isChecked(), true);
    await page.waitForFunction(() => document.getElementById('winbar').dataset.win != null, null, { timeout: 20_000 });
    assert.match(await page.locator('#winbar-text').innerText(), /^\d+%$/);

    const hint = page.locator('#hint');
    assert.equal(await hint.isVisible(), true);
    await hint.click();
    await page.waitForFunction(() => document.querySelectorAll('.hint-list li').length === 3, null, { timeout: 20_000 });
    assert.equal(await hint.getAttribute('aria-busy'), null, 'the spinner stops');
    assert.equal(await page.locator('.hint-marker').count(), 3, 'three markers on the map');
    const ranks = await page.locator('.hint-marker .hint-rank').allTextContents();
    assert.deepEqual(ranks.sort(), ['1', '2', '3']);
    for (const w of await page.locator('.hint-marker .hint-win').allTextContents()) assert.match(w, /^\d+%$/);
    const text = await page.locator('#hint-section').innerText();
    assert.doesNotMatch(text, /[{}"]/, 'no raw JSON');
    for (const li of await page.locator('.hint-list li').all()) assert.match(await li.innerText(), /\d+%/);

    // A move clears the markers.
    const n = await shownN(page);
    await page.locator('#end-phase').click();
    await waitForN(page, n + 1);
    assert.equal(await page.locator('.hint-marker').count(), 0);

    // The bar switches off, and on again.
    await page.locator('#winbar-on').uncheck();
    assert.equal(await page.locator('#winbar').isVisible(), false);
    await page.locator('#winbar-on').check();
    assert.equal(await page.locator('#winbar').isVisible(), true);
    assert.deepEqual(page.errors, []);
  });

  test('the bar is off by default against a person, and a spectator gets no hint', async () => {
    const made = await api(server.base, 'POST', '/api/games', {
      body: { scenario: 'bridge-at-morne', seats: { blue: 'human', orange: 'human' } },
    });
    const p = await newPage(browser);
    await p.goto(server.base + made.seats.blue.link);
    await p.waitForSelector('.counter');
    await p.waitForFunction(() => document.body.dataset.toAct === 'blue');
    assert.equal(await p.locator('#winbar-on').isChecked(), false);
    assert.equal(await p.locator('#winbar').isVisible(), false);
    assert.equal(await p.locator('#hint').isVisible(), true);
    const watcher = await newPage(browser);
    await watcher.goto(`${server.base}/play/${made.id}`);
    await watcher.waitForSelector('.counter');
    assert.equal(await watcher.locator('#hint').isVisible(), false);
    assert.equal(await watcher.locator('#winbar').isVisible(), false);
    await p.close();
    await watcher.close();
  });
});
