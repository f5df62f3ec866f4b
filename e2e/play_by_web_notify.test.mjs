// Play by web, the rest (issue 16), in a real headless Chromium against the real server:
// two people sign up; the one who will wait asks for notifications in the lobby (an
// email and a webhook); the other opens a rated challenge, which the first joins; when
// the turn passes to the waiting player, the email arrives at this test's SMTP listener
// (written here with `net`) and the webhook at its HTTP listener, both with the game's
// link; then the waiting player resigns from the game page, both pages show the end,
// and both ratings change.

import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { after, describe, test } from 'node:test';
import { api, newPage, session, shot, signUp as signUpAt } from './harness.mjs';

const SCENARIO = 'bridge-at-morne';

/** A little SMTP server on 127.0.0.1: each message's DATA is pushed to `mails`. */
function smtpListener() {
  const mails = [];
  const server = net.createServer((socket) => {
    let buffer = '';
    let inData = false;
    let data = '';
    socket.write('220 e2e ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let i;
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            mails.push(data);
            data = '';
            socket.write('250 queued\r\n');
          } else data += line + '\n';
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'DATA') {
          inData = true;
          socket.write('354 go on\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write(verb === 'EHLO' || verb === 'HELO' ? '250 e2e\r\n' : '250 ok\r\n');
      }
    });
    socket.on('error', () => {});
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port, mails })));
}

/** An HTTP listener on 127.0.0.1: each POST's JSON body is pushed to `bodies`. */
function webhookListener() {
  const bodies = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(JSON.parse(body));
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/hook`, bodies })));
}

/** Waits (a bounded number of short pauses) until `list` holds something that `ok` takes. */
async function arrives(list, ok, what) {
  for (let i = 0; i < 200; i++) {
    const found = list.find(ok);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} never arrived`);
}

const smtp = await smtpListener();
const hook = await webhookListener();
const { server, browser, page: ney, close } = await session({
  args: ['--smtp-host', '127.0.0.1', '--smtp-port', String(smtp.port), '--smtp-tls', 'none', '--smtp-from', 'grognard <games@example.org>', '--webhook-private-targets'],
});
after(async () => {
  await close();
  smtp.server.close();
  hook.server.close();
});

const signUp = (page, name) => signUpAt(page, server.base, name);

describe('Notifications and resignation in the browser', () => {
  let soult;
  let gameId;

  test('the waiting player asks for an email and a webhook in the lobby', async () => {
    soult = await newPage(browser);
    await signUp(ney, 'ney');
    await signUp(soult, 'soult');
    await soult.locator('#nf-email').fill('not an address');
    await soult.locator('#nf-save').click();
    await soult.locator('#nf-status').filter({ hasText: /"email"/ }).waitFor();
    // The browser logs that refusal (a 400) as an error of the page: it was asked for.
    soult.errors.length = 0;
    await soult.locator('#nf-email').fill('soult@example.org');
    await soult.locator('#nf-webhook').fill(hook.url);
    await soult.locator('#nf-save').click();
    await soult.locator('#nf-status').filter({ hasText: 'Saved.' }).waitFor();
    await shot(soult, 'play-by-web-notifications.png');
    const saved = await soult.evaluate(() => fetch('/api/me/notifications').then((r) => r.json()));
    assert.deepEqual(saved, { email: 'soult@example.org', webhook: hook.url, web_push: null, on_turn: true, on_reminder: true });
    // Browser notifications: the toggle, the service worker and the server's VAPID key are
    // there (subscribing needs the browser's push service, out of reach of this test).
    assert.equal(await soult.locator('#nf-push').count(), 1);
    const worker = await soult.evaluate(() => fetch('/sw.js').then(async (r) => [r.status, r.headers.get('content-type'), await r.text()]));
    assert.equal(worker[0], 200);
    assert.match(worker[1], /javascript/);
    assert.match(worker[2], /showNotification/);
    const { public_key: key } = await api(server.base, 'GET', '/api/push/key');
    assert.equal(Buffer.from(key, 'base64url').length, 65);
  });

  test('when the turn passes to the waiting player, the email and the webhook arrive with the game link', async () => {
    await ney.goto(server.base + '/');
    await ney.locator('#ch-scenario').selectOption(SCENARIO);
    await ney.locator('#ch-side').selectOption('blue');
    await ney.locator('#ch-open').click();
    await ney.waitForURL(/\/play\//);
    gameId = new URL(ney.url()).pathname.split('/').pop();
    await soult.goto(server.base + '/');
    const listed = soult.locator('#challenges li', { hasText: 'ney plays blue' });
    await listed.waitFor();
    await listed.locator('button.join').click();
    await soult.waitForURL(new RegExp(`/play/${gameId}`));
    await soult.waitForFunction(() => document.body.dataset.seat === 'orange');
    await ney.waitForFunction(() => document.body.dataset.seat === 'blue');
    // Blue ends its phases until orange is to act.
    for (let i = 0; i < 20; i++) {
      const g = await api(server.base, 'GET', `/api/games/${gameId}`);
      if (g.to_act.side === 'orange') break;
      await ney.waitForFunction((n) => Number(document.body.dataset.n) === n, g.n);
      await ney.locator('#end-phase').click();
      await ney.waitForFunction((n) => Number(document.body.dataset.n) === n + 1, g.n);
    }
    const link = `/play/${gameId}`;
    const mail = await arrives(smtp.mails, (m) => m.replace(/=\n/g, '').includes(link), 'the email');
    assert.match(mail, /To: soult@example\.org/);
    assert.match(mail, /Subject: Your turn in /);
    const body = await arrives(hook.bodies, (b) => b.game === gameId, 'the webhook');
    assert.equal(body.kind, 'turn');
    assert.equal(body.side, 'orange');
    assert.equal(body.scenario, SCENARIO);
    assert.equal(body.content, body.text);
    assert.ok(body.url.endsWith(link), body.url);
  });

  test('the waiting player resigns from the game page; both see the end and both ratings change', async () => {
    await soult.locator('#resign').click();
    await soult.locator('#resign-confirm').waitFor();
    await shot(soult, 'play-by-web-resign.png');
    await soult.locator('#resign-yes').click();
    for (const p of [soult, ney]) {
      await p.locator('#gameover').waitFor({ state: 'visible', timeout: 20_000 });
      assert.match(await p.locator('#go-reason').innerText(), /resigned/);
      assert.equal(await p.locator('#resign-host').isHidden(), true);
    }
    const board = await api(server.base, 'GET', '/api/ratings/morne_plaine');
    const rating = (name) => board.find((e) => e.name === name).rating;
    assert.ok(rating('ney') > 1500, JSON.stringify(board));
    assert.ok(rating('soult') < 1500, JSON.stringify(board));
    assert.deepEqual(ney.errors, []);
    assert.deepEqual(soult.errors, []);
  });
});
