// "Study this position" in a real headless Chromium against the real server (issue 19,
// item 4): a player of a Morne Plaine game (nothing hidden) downloads the scenario file
// that starts where the game stands (without a seed); a spectator of the
// running game is not offered it; a Battle Cry player is not offered it once the hands are
// dealt.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, test } from 'node:test';
import { api, newPage, session, waitForN } from './harness.mjs';

const { server, browser, page, close } = await session();
after(close);

describe('Study this position', () => {
  test('a player of a running Morne Plaine game downloads its position as a scenario file without a seed', async () => {
    const made = await api(server.base, 'POST', '/api/games', { body: { scenario: 'bridge-at-morne', seats: { blue: 'human', orange: 'human' } } });
    const token = made.seats.blue.token;
    await api(server.base, 'POST', `/api/games/${made.id}/actions`, { token, body: { action: { type: 'end_phase' }, expect: 0 } });
    await page.goto(`${server.base}/play/${made.id}?token=${token}`);
    await page.waitForSelector('.counter');
    await waitForN(page, 1);
    const link = page.locator('#study');
    await link.waitFor({ state: 'visible' });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.equal(download.suggestedFilename(), `bridge-at-morne-${made.id}-1.toml`);
    const text = fs.readFileSync(await download.path(), 'utf8');
    assert.match(text, /\[position\]\nactive = "blue"\n/);
    assert.match(text, /phase = "movement"/);
    assert.doesNotMatch(text, /^seed =/m, 'a position holds no seed');
    assert.deepEqual(page.errors, []);

    const watcher = await newPage(browser);
    await watcher.goto(`${server.base}/play/${made.id}`);
    await watcher.waitForSelector('.counter');
    assert.ok(await watcher.locator('#study').isHidden(), 'a spectator of a running game is not offered it');
    await watcher.context().close();
  });

  test('a Battle Cry player is not offered the position once the hands are dealt', async () => {
    const made = await api(server.base, 'POST', '/api/games', { body: { scenario: 'crossing-at-hollins-ford', seats: { blue: 'human', grey: 'human' } } });
    const token = made.seats.blue.token;
    const g = await api(server.base, 'GET', `/api/games/${made.id}`, { token });
    await api(server.base, 'POST', `/api/games/${made.id}/actions`, { token, body: { action: g.actions[0], expect: 0 } });
    const player = await newPage(browser);
    await player.goto(`${server.base}/play/${made.id}?token=${token}`);
    await player.waitForSelector('.counter');
    await waitForN(player, 1);
    assert.ok(await player.locator('#study').isHidden(), 'hidden hands: no position while the game runs');
    assert.deepEqual(player.errors, []);
    await player.context().close();
  });
});
