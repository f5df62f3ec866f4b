// An automated accessibility check (axe-core) of the lobby, the four game pages and a
// rules page: no violation of serious or critical impact.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, describe, test } from 'node:test';
import { api, startBrowser, startServer, newPage } from './harness.mjs';

const require = createRequire(import.meta.url);
const AXE = require.resolve('axe-core/axe.min.js');

const server = await startServer();
const browser = await startBrowser();
after(async () => {
  await browser.close();
  await server.stop();
});

/** The serious and critical violations axe finds on the page, in words. */
async function violations(page) {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.length} element(s), e.g. ${v.nodes[0]?.target?.join(' ')}`);
  });
  return found;
}

describe('accessibility (axe-core)', () => {
  test('the lobby', async () => {
    const page = await newPage(browser);
    await page.goto(server.base + '/');
    await page.waitForSelector('.scenario-card');
    assert.deepEqual(await violations(page), []);
    await page.context().close();
  });

  for (const ruleset of ['morne_plaine', 'battle_cry', 'jomini', 'skirmish']) {
    test(`the ${ruleset} game page`, async () => {
      const scenario = (await api(server.base, 'GET', '/api/scenarios')).find((s) => s.ruleset === ruleset);
      const seats = Object.fromEntries(scenario.sides.map((s) => [s.id, 'human']));
      const made = await api(server.base, 'POST', '/api/games', { body: { scenario: scenario.id, seats, hotseat: true } });
      const page = await newPage(browser);
      await page.goto(`${server.base}/play/${made.id}?token=${Object.values(made.seats)[0].token}`);
      await page.waitForSelector('.counter');
      await page.waitForTimeout(300);
      assert.deepEqual(await violations(page), []);
      await page.context().close();
    });
  }

  test('a rules page', async () => {
    const page = await newPage(browser);
    await page.goto(server.base + '/rules/morne-plaine');
    await page.waitForSelector('.rules-table');
    assert.deepEqual(await violations(page), []);
    await page.context().close();
  });
});
