// What the end-to-end tests share: the real `grognard serve` on a free port with a fresh
// database, Debian's Chromium driven by playwright-core, and helpers that act as a player
// would (click a hex, hover a hex, read the board).

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SHOTS = path.join(ROOT, 'docs', 'screenshots');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Builds the binary once per run (cargo is quick when nothing changed). */
function build() {
  if (process.env.GROGNARD_BIN) return process.env.GROGNARD_BIN;
  const r = spawnSync('cargo', ['build', '--quiet', '-p', 'grognard'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error('cargo build -p grognard failed');
  return path.join(ROOT, 'target', 'debug', 'grognard');
}

/** Starts `grognard serve` on a free port with a new database, and `extra` options; `stop()` ends it. */
export async function startServer(extra = []) {
  const bin = build();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grognard-e2e-'));
  const db = path.join(dir, 'e2e.db');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const args = ['serve', '--addr', `127.0.0.1:${port}`, '--db', db, '--ai-delay-millis', '0', '--ai-millis', '200', '--create-per-minute', '0', ...extra];
  let proc = null;
  let output = '';
  const launch = () => {
    proc = spawn(bin, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    proc.stdout.on('data', (d) => (output += d));
    proc.stderr.on('data', (d) => (output += d));
  };
  launch();
  await waitFor(base);
  return {
    base,
    db,
    log: () => output,
    /** Stops the server and starts it again on the same database, as after a crash. */
    async restart() {
      await stopProc(proc);
      launch();
      await waitFor(base);
    },
    async stop() {
      await stopProc(proc);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };

  async function waitFor(url) {
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      if (proc.exitCode != null) throw new Error(`grognard serve exited (${proc.exitCode}):\n${output}`);
      try {
        const r = await fetch(`${url}/api/scenarios`);
        if (r.ok) return;
      } catch {
        // not up yet
      }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`grognard serve did not answer:\n${output}`);
  }
}

function stopProc(p) {
  return new Promise((resolve) => {
    if (!p || p.exitCode != null) return resolve();
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
    setTimeout(() => p.exitCode == null && p.kill('SIGKILL'), 5000);
  });
}

/** Debian's Chromium, headless, with a fresh profile and nothing that calls out. */
export async function startBrowser() {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** A new browser context (its own storage: another person) with a laptop's screen. */
export async function newPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text() + (m.location().url ? ` (${m.location().url})` : ''));
  });
  page.errors = errors;
  return page;
}

/**
 * What one test file drives: the server, a browser, a page and, when `ruleset` is named,
 * that ruleset's built-in scenario (undefined when none is built in); `close()` ends them.
 */
export async function session({ ruleset, args = [] } = {}) {
  const server = await startServer(args);
  let browser;
  try {
    browser = await startBrowser();
    const page = await newPage(browser);
    const scenario = ruleset ? (await api(server.base, 'GET', '/api/scenarios')).find((s) => s.ruleset === ruleset) : undefined;
    const close = async () => {
      await browser.close();
      await server.stop();
    };
    return { server, browser, page, scenario, close };
  } catch (e) {
    await browser?.close();
    await server.stop();
    throw e;
  }
}

/**
 * Starts a game of `scenario` from its card in the lobby, as a player would: `mode` is
 * the card's mode ('hotseat', 'ai') and `side` the player's side when it asks for one.
 * Answers the game's id once its page shows the counters.
 */
export async function startFromLobby(page, base, scenario, mode, side) {
  await page.goto(base + '/');
  const card = page.locator(`.scenario-card[data-scenario="${scenario}"]`);
  await card.locator('select[name=mode]').selectOption(mode);
  if (side) await card.locator('select[name=side]').selectOption(side);
  await card.locator('button[type=submit]').click();
  await page.waitForURL(/\/play\//);
  const id = new URL(page.url()).pathname.split('/').pop();
  await page.waitForSelector('.counter');
  return id;
}

/** Signs `name` up from the lobby at `base` (its password `NAME-secret-pw`), logged in after. */
export async function signUp(page, base, name) {
  await page.goto(base + '/');
  await page.locator('#acct-name').fill(name);
  await page.locator('#acct-password').fill(`${name}-secret-pw`);
  await page.locator('#acct-signup').click();
  await page.locator('#acct-who').filter({ hasText: name }).waitFor();
}

export async function api(base, method, p, { body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(base + p, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  const data = text ? JSON.parse(text) : null;
  if (!r.ok) throw Object.assign(new Error(`${method} ${p}: ${r.status} ${text}`), { status: r.status, data });
  return data;
}

/** The seat tokens this browser holds for a game, by side (the lobby keeps them in localStorage). */
export function heldTokens(page, gameId) {
  return page.evaluate((g) => JSON.parse(localStorage.getItem('grognard.tokens') || '{}')[g] || {}, gameId);
}

/** The game as the side to act sees it, with that side's token when this browser holds it. */
export async function gameOfSideToAct(page, base, gameId) {
  const held = await heldTokens(page, gameId);
  const any = await api(base, 'GET', `/api/games/${gameId}`, { token: Object.values(held)[0] });
  const side = any.to_act && any.to_act.side;
  return side && held[side] && any.seat !== side ? api(base, 'GET', `/api/games/${gameId}`, { token: held[side] }) : any;
}

/** The centre of a hex on the screen. */
export async function hexPoint(page, label) {
  const box = await page.locator(`.hit[data-hex="${label}"]`).boundingBox();
  if (!box) throw new Error(`hex ${label} is not on the screen`);
  return [box.x + box.width / 2, box.y + box.height / 2];
}

export async function clickHex(page, label) {
  const [x, y] = await hexPoint(page, label);
  await page.mouse.click(x, y);
}

export async function hoverHex(page, label) {
  const [x, y] = await hexPoint(page, label);
  await page.mouse.move(x - 3, y - 3);
  await page.mouse.move(x, y, { steps: 2 });
}

/** The number of actions the page shows the game at. */
export async function shownN(page) {
  return Number(await page.locator('body').getAttribute('data-n'));
}

export async function waitForN(page, n, timeout = 20_000) {
  await page.waitForFunction((k) => Number(document.body.dataset.n) >= k, n, { timeout });
}

/** Where the page draws a unit's counter. */
export async function counterHex(page, unit) {
  return page.locator(`.counter[data-unit="${unit}"]`).getAttribute('data-hex');
}

/** Axial neighbours of a hex on a board (GET /api/scenarios/{id}/board). */
export function neighbours(board, label) {
  const dirs = [[1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0], [0, -1]];
  const h = board.hexes.find((x) => x.label === label);
  return dirs.map(([dq, dr]) => board.hexes.find((x) => x.q === h.q + dq && x.r === h.r + dr)?.label ?? null);
}

export function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  return page.screenshot({ path: path.join(SHOTS, name) });
}

/**
 * A position found by play: hotseat games of `scenario` with fixed seeds (1 to `seeds`),
 * each played through the API by seeded random picks (a phase ended now and then) until
 * `want(game)` holds or `actions` were played; the first found is opened in `page` with
 * its token. Answers `{id, token, g}`, or null when no seed led there.
 */
export async function seekPosition(page, base, scenario, want, { seeds = 40, actions = 800 } = {}) {
  const seats = Object.fromEntries(scenario.sides.map((s) => [s.id, 'human']));
  const END = new Set(['end_phase', 'pass', 'end_turn', 'end_command', 'end_movement', 'done_ordering', 'done_moving']);
  for (let seed = 1; seed <= seeds; seed++) {
    const created = await api(base, 'POST', '/api/games', { body: { scenario: scenario.id, seats, hotseat: true, seed } });
    const token = Object.values(created.seats)[0].token;
    let pick = (seed * 2654435761) >>> 0;
    for (let i = 0; i < actions; i++) {
      const g = await api(base, 'GET', `/api/games/${created.id}`, { token });
      if (g.outcome) break;
      if (want(g)) {
        await page.goto(`${base}/play/${created.id}?token=${token}`);
        await page.waitForFunction((n) => Number(document.body.dataset.n) === n, g.n);
        return { id: created.id, token, g };
      }
      pick = (pick * 1103515245 + 12345) >>> 0;
      const ends = g.actions.filter((a) => END.has(a.type));
      const a = ends.length && pick % 7 === 0 ? ends[0] : g.actions[(pick >>> 8) % g.actions.length];
      await api(base, 'POST', `/api/games/${created.id}/actions`, { token, body: { action: a, expect: g.n } });
    }
  }
  return null;
}
