// The replay viewer: steps through a game's action log. The server rebuilds the game as
// it was after any number of actions (GET /api/games/{id}/replay?at=N); the ruleset's
// panel draws it with nothing to act on.

import { api, esc, nice, reasonsHtml, ruleBadge, sideColour, takeLinkToken, tokens } from './api.js';
import { Board } from './board.js';
import { loadRuleset, rulesetTitle } from './rulesets.js';
import { entryHtml, setSideNames } from './log.js';
import { tip } from './tooltip.js';
import { showScore } from './score.js';

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
const token = takeLinkToken(gameId) || Object.values(tokens.of(gameId))[0] || null;

let replay = null;
let rules = null;
let board = null;
let at = 0;
let sideName = (id) => id;
let order = [];
let timer = null;
const frames = new Map();

function frame(n) {
  if (!frames.has(n)) {
    const url = `/api/games/${encodeURIComponent(gameId)}/replay?at=${n}`;
    const p = fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} }).then(async (r) => {
      const body = await r.json();
      if (!r.ok) throw Object.assign(new Error((body.error && body.error.message) || r.status), { reasons: body.error && [body.error] });
      return body;
    });
    p.catch(() => frames.delete(n));
    frames.set(n, p);
  }
  return frames.get(n);
}

async function go(n) {
  n = Math.max(0, Math.min(replay.n, n));
  at = n;
  $('slider').value = n;
  $('step').textContent = `${n} / ${replay.n}`;
  const g = await frame(n);
  if (at !== n) return;
  rules.update(g);
  // The score as it stood after this action: objectives held, have and need, turns left.
  showScore({ g, board, sideName, order });
  document.body.dataset.at = n;
  const st = rules.status ? rules.status(g) : {};
  const phases = st.phases || [];
  const cur = phases.indexOf(st.phase);
  $('phasebar').innerHTML =
    (st.turn != null ? `<span class="turn">Turn ${st.turn}${st.turns ? ` / ${st.turns}` : ''}</span>${phases.length ? '<span class="sr-gap">: </span>' : ''}` : '') +
    (phases.length ? `<div class="phases">${phases.map((p, i) => `<span class="phase ${i === cur ? 'current' : i < cur ? 'done' : ''}">${esc(nice(p))}</span>`).join('<span class="sr-gap">, </span>')}</div>` : '');
  for (const e of $('log').querySelectorAll('.entry')) {
    const k = +e.dataset.n;
    e.style.opacity = k <= n ? '1' : '0.35';
    e.style.background = k === n ? '#fff1c9' : '';
  }
  const cur2 = $('log').querySelector(`.entry[data-n="${n}"]`);
  if (cur2) cur2.scrollIntoView({ block: 'nearest' });
  // Prefetch the next frames so that playing is smooth.
  for (let k = n + 1; k <= Math.min(replay.n, n + 3); k++) frame(k);
}

function play() {
  if (timer) {
    clearInterval(timer);
    timer = null;
    $('play').textContent = '▶ Play';
    return;
  }
  if (at >= replay.n) go(0);
  $('play').innerHTML = '<svg class="glyph" viewBox="0 0 16 16" aria-hidden="true"><rect x="3" y="3" width="3.5" height="10"/><rect x="9.5" y="3" width="3.5" height="10"/></svg> Pause';
  timer = setInterval(() => {
    if (at >= replay.n) return play();
    go(at + 1);
  }, 700);
}

async function boot() {
  replay = await api.replay(gameId, token);
  const boardData = await api.board(replay.scenario);
  board = new Board($('board'), boardData);
  rules = await loadRuleset(replay.ruleset);
  sideName = (id) => (boardData.sides || []).find((s) => s.id === id)?.name || id;
  order = (boardData.sides || []).map((s) => s.id);
  setSideNames(sideName);
  rules.init({
    board,
    boardData,
    game: () => null,
    gameId,
    act: async () => ({ error: new Error('a replay cannot be played') }),
    canAct: () => false,
    mySides: () => [],
    token: () => token,
    explain: async () => ({ legal: false, reasons: [] }),
    preview: async () => ({ error: true }),
    reachable: async () => [],
    panel: $('ruleset-panel'),
    tip,
    notice: () => {},
    refusal: () => {},
    hexInfo: (html) => ($('hexinfo').innerHTML = html),
    sideName,
    replay: true,
  });
  document.title = `Replay: ${replay.title} · grognard`;
  $('title').textContent = `Replay: ${replay.title}`;
  $('title').title = rulesetTitle(replay.ruleset);
  $('game-link').href = `/play/${encodeURIComponent(gameId)}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  $('slider').max = replay.n;
  // The dice's commitment from the start; the seed once the game is over, which
  // `grognard verify` checks against it.
  // A game against a person rolls ChaCha20 dice, whose key is revealed with the seed.
  const key = replay.generator && replay.generator.kind === 'chacha20' && replay.generator.key ? ` · ChaCha20 key ${String(replay.generator.key).slice(0, 12)}…` : '';
  const dice = replay.seed != null ? ` · seed ${replay.seed}${key}` : replay.commitment ? ` · dice committed ${replay.commitment.slice(0, 12)}…` : '';
  $('log-count').textContent = `${replay.n} actions${dice}`;
  if (replay.commitment) $('log-count').title = `commitment to the dice (the seed, and the key of ChaCha20 dice): SHA-256 ${replay.commitment}`;
  const g0 = { view: {}, log: replay.log };
  $('log').innerHTML = replay.log.map((e) => entryHtml(e, rules, g0)).join('') || '<div class="muted">No action.</div>';
  $('log').addEventListener('click', (ev) => {
    const e = ev.target.closest('.entry');
    if (e) go(+e.dataset.n);
  });
  const o = replay.outcome;
  $('outcome').innerHTML = o
    ? `<h3>Result</h3><div><b>${o.winner ? `<span class="side-chip" style="background:${sideColour(o.winner)}"></span> ${esc(sideName(o.winner))} won the day` : 'A draw'}</b></div><div>${ruleBadge(o.rule)} ${esc(o.reason || '')}</div>`
    : '<h3>Result</h3><div class="muted">The game is still going on: the replay shows what this seat may see.</div>';
  await go(Number(new URLSearchParams(location.search).get('at') ?? 0));
}

$('first').onclick = () => go(0);
$('prev').onclick = () => go(at - 1);
$('next').onclick = () => go(at + 1);
$('last').onclick = () => go(replay.n);
$('play').onclick = play;
$('slider').oninput = (ev) => go(+ev.target.value);
document.addEventListener('keydown', (ev) => {
  if (!replay || ev.target.tagName === 'INPUT') return;
  const k = ev.key;
  if (k === 'ArrowRight') go(at + 1);
  else if (k === 'ArrowLeft') go(at - 1);
  else if (k === 'Home') go(0);
  else if (k === 'End') go(replay.n);
  else if (k === ' ') play();
  else if (k === '+' || k === '=') board.zoom(1.25);
  else if (k === '-') board.zoom(1 / 1.25);
  else if (k === '0') board.fit();
  else return;
  ev.preventDefault();
});

boot().catch((e) => {
  console.error(e);
  document.querySelector('.main').innerHTML = `<div style="padding:30px"><h2>This replay cannot be shown</h2>${reasonsHtml(e.reasons || [{ rule: String(e.status || 'client'), message: e.message }])}<p><a href="/">Back to the lobby</a></p></div>`;
});
