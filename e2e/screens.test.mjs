// The screenshots of docs/screenshots/, taken with stable names for each ruleset: the map
// (`<ruleset>-map.png`), the odds before the dice beside the cursor (`<ruleset>-odds.png`),
// the log (`<ruleset>-log.png`), the panel with its prompt (`<ruleset>-prompt.png`), and
// the game on a phone (`<ruleset>-phone.png`). Each position is found by seeded play, so
// the pictures are the same from run to run.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { api, clickHex, hoverHex, seekPosition, session, shot, SHOTS } from './harness.mjs';

const { server, browser, page, close } = await session();
after(close);

const scenarios = await api(server.base, 'GET', '/api/scenarios');
const units = (g) => g.view.pieces || g.view.units || [];
const hexOf = (g, id) => units(g).find((u) => u.id === id)?.hex;

// For each ruleset: the action whose odds are shown, and the hex of its target.
const ODDS = {
  morne_plaine: { want: (g) => g.view.phase === 'combat', types: ['attack'] },
  jomini: { want: (g) => g.view.phase === 'combat', types: ['attack'] },
  battle_cry: { want: (g) => g.view.phase === 'battle', types: ['battle'] },
  skirmish: { want: (g) => !(g.to_act && g.to_act.reaction), types: ['shoot', 'attack'] },
};

describe('screenshots of every ruleset', () => {
  for (const [ruleset, spec] of Object.entries(ODDS)) {
    test(`${ruleset}: map, odds, log, prompt and phone`, async (t) => {
      const scenario = scenarios.find((s) => s.ruleset === ruleset);
      if (!scenario) return t.skip(`no ${ruleset} scenario is built in`);
      const pick = (g) => g.actions.find((a) => spec.types.includes(a.type) && units(g).filter((u) => u.hex === hexOf(g, a.unit)).length === 1);
      const found = await seekPosition(page, server.base, scenario, (g) => spec.want(g) && !!pick(g));
      assert.ok(found, `a position with ${spec.types.join(' or ')}`);
      const a = pick(found.g);
      await shot(page, `${ruleset}-map.png`);
      await clickHex(page, hexOf(found.g, a.unit));
      await page.locator(`.counter.is-selected[data-unit="${a.unit}"]`).waitFor({ timeout: 5000 }).catch(() => {});
      await hoverHex(page, hexOf(found.g, a.target));
      await page.locator('.tooltip:not([hidden])').waitFor({ timeout: 10_000 });
      await shot(page, `${ruleset}-odds.png`);
      await page.locator('.sidebar').screenshot({ path: path.join(SHOTS, `${ruleset}-prompt.png`) });
      await page.locator('#log').screenshot({ path: path.join(SHOTS, `${ruleset}-log.png`) });
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      const small = await phone.newPage();
      await small.goto(`${server.base}/play/${found.id}?token=${found.token}`);
      await small.waitForSelector('.counter');
      await small.screenshot({ path: path.join(SHOTS, `${ruleset}-phone.png`) });
      await phone.close();
      assert.deepEqual(page.errors, []);
    });
  }
});
