// Lean game objects in the browser (issue 17): the page asks for the log's new entries
// only (`since`), for the legal actions grouped (`legal=compact`) and for a socket of what
// changed (`delta=true`), and puts them back together (web/js/lean.js) into the objects
// the panels read: the full objects the server gives, entry for entry.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { api, session, waitForN } from './harness.mjs';

const { server, page, close } = await session();
after(close);

describe('lean game objects in the browser', () => {
  test('lean.js puts each seat’s lean objects back together as its full objects, action after action', async () => {
    // Battle Cry hides each hand and its draws: each seat's entries are its own.
    const created = await api(server.base, 'POST', '/api/games', {
      body: { scenario: 'crossing-at-hollins-ford', seats: { blue: 'human', grey: 'human' } },
    });
    const tokens = Object.fromEntries(Object.entries(created.seats).map(([s, x]) => [s, x.token]));
    await page.goto(`${server.base}/`);
    const report = await page.evaluate(
      async ({ id, tokens }) => {
        const { whole, leanQuery } = await import('/js/lean.js');
        const get = async (token, query = '') => {
          const r = await fetch(`/api/games/${id}${query}`, { headers: { authorization: `Bearer ${token}` } });
          return r.json();
        };
        // Keys sorted, so that two objects compare by content alone.
        const canon = (v) =>
          Array.isArray(v) ? v.map(canon) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])])) : v;
        const same = (a, b) => JSON.stringify(canon(a)) === JSON.stringify(canon(b));
        const held = {};
        for (const [seat, t] of Object.entries(tokens)) held[seat] = whole(await get(t, leanQuery(null)), null);
        let seed = 7;
        const below = (n) => {
          seed = (seed * 1103515245 + 12345) % 2147483648;
          return seed % n;
        };
        const out = { steps: 0, compared: 0, differ: [], grouped: 0, listed: 0 };
        for (let step = 0; step < 60; step++) {
          const side = held.blue.to_act && held.blue.to_act.side;
          if (!side) break;
          const mine = held[side];
          const actions = mine.actions;
          if (!actions.length) break;
          const action = actions[below(actions.length)];
          const r = await fetch(`/api/games/${id}/actions${leanQuery(mine)}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tokens[side]}`, 'content-type': 'application/json' },
            body: JSON.stringify({ action, expect: mine.n }),
          });
          const answer = await r.json();
          if (!r.ok) return { ...out, error: answer };
          out.steps++;
          for (const [seat, t] of Object.entries(tokens)) {
            const lean = seat === side ? answer.view : await get(t, leanQuery(held[seat]));
            if (Array.isArray(lean.legal)) {
              out.grouped += lean.legal.length;
              out.listed += whole(lean, held[seat]).actions.length;
            }
            const next = whole(lean, held[seat]);
            const full = await get(t);
            out.compared++;
            if (!same(next, full) || next.gap) out.differ.push({ step, seat, next, full });
            held[seat] = next;
          }
        }
        return out;
      },
      { id: created.id, tokens },
    );
    assert.equal(report.error, undefined, JSON.stringify(report.error));
    assert.ok(report.steps >= 30, `the game went on: ${report.steps} actions`);
    assert.equal(report.compared, report.steps * 2);
    assert.deepEqual(report.differ.slice(0, 1), [], 'every object put back together is the full one');
    assert.ok(report.grouped < report.listed, `${report.grouped} groups for ${report.listed} actions`);
  });

  test('the game page asks with since and compact legal actions, listens on a delta socket and shows the log whole', async () => {
    const created = await api(server.base, 'POST', '/api/games', {
      body: { scenario: 'bridge-at-morne', seats: { blue: 'human', orange: 'human' } },
    });
    const id = created.id;
    const blue = created.seats.blue.token;
    const asked = [];
    const sockets = [];
    page.on('request', (r) => r.url().includes(`/api/games/${id}`) && asked.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`));
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto(`${server.base}/play/${id}?token=${blue}`);
    await page.waitForSelector('.counter');
    // Blue ends its bombardment on the page; then blue's moves come from outside, over the socket.
    await page.locator('#end-phase').click();
    await waitForN(page, 1);
    let g = await api(server.base, 'GET', `/api/games/${id}`, { token: blue });
    for (let k = 0; k < 3; k++) {
      const mv = g.actions.find((a) => a.type === 'move');
      await api(server.base, 'POST', `/api/games/${id}/actions`, { token: blue, body: { action: mv, expect: g.n } });
      g = await api(server.base, 'GET', `/api/games/${id}`, { token: blue });
      await waitForN(page, g.n);
    }
    const shown = await page.locator('#log .entry').evaluateAll((es) => es.map((e) => Number(e.dataset.n)));
    assert.deepEqual(shown.slice().sort((a, b) => a - b), g.log.map((e) => e.n), 'the page shows the seat’s whole log');
    assert.ok(sockets.some((u) => /[?&]delta=true/.test(u) && /[?&]legal=compact/.test(u)), sockets.join('\n'));
    assert.ok(asked.some((a) => a.startsWith(`POST /api/games/${id}/actions?`) && /[?&]since=0/.test(a) && /legal=compact/.test(a)), asked.join('\n'));
    assert.ok(asked.filter((a) => a.startsWith(`GET /api/games/${id}`) && !a.includes('/api/games/' + id + '/')).every((a) => /legal=compact/.test(a) || a === `GET /api/games/${id}`), asked.join('\n'));
    assert.deepEqual(page.errors, []);
  });
});
