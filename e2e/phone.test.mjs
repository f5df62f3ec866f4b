// The game page on a phone (390x844, touch) in every ruleset: the map takes at least half
// of the screen, the End button and the bar stay on the screen, the panel and the log
// follow below the map, and nothing is wider than the screen.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { api, shot, startBrowser, startServer } from './harness.mjs';

const server = await startServer();
const browser = await startBrowser();
after(async () => {
  await browser.close();
  await server.stop();
});

describe('the game page on a phone', () => {
  for (const ruleset of ['morne_plaine', 'battle_cry', 'jomini', 'skirmish']) {
    test(`${ruleset}: map first, End reachable, panel below`, async () => {
      const scenario = (await api(server.base, 'GET', '/api/scenarios')).find((s) => s.ruleset === ruleset);
      const seats = Object.fromEntries(scenario.sides.map((s) => [s.id, 'human']));
      const made = await api(server.base, 'POST', '/api/games', { body: { scenario: scenario.id, seats, hotseat: true } });
      const token = Object.values(made.seats)[0].token;
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      await page.goto(`${server.base}/play/${made.id}?token=${token}`);
      await page.waitForSelector('.counter');
      const box = async (sel) => page.locator(sel).boundingBox();
      const map = await box('#board-wrap');
      assert.ok(map.height >= 844 / 2, `the map is ${map.height} px high`);
      assert.ok(map.width >= 380, `the map is ${map.width} px wide`);
      const end = await box('#end-phase');
      assert.ok(end && end.x >= 0 && end.x + end.width <= 390 && end.y >= 0 && end.y + end.height <= 844, `the End button is on the screen: ${JSON.stringify(end)}`);
      const side = await box('.sidebar');
      assert.ok(side.y >= map.y + map.height - 1, 'the panel follows the map');
      assert.ok(side.width >= 380, 'the panel is as wide as the screen');
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(wide <= 391, `nothing is wider than the screen (${wide} px)`);
      await shot(page, `phone-${ruleset}.png`);
      // Scrolled down to the log, the bar with its End button stays on top.
      await page.locator('#log').scrollIntoViewIfNeeded();
      const endAfter = await box('#end-phase');
      assert.ok(endAfter.y >= 0 && endAfter.y + endAfter.height <= 844, 'the End button stays on the screen');
      assert.deepEqual(errors, []);
      await context.close();
    });
  }
});
