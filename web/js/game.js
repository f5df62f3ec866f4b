// The game page: loads a game, keeps it live over the WebSocket, acts with the token of
// the side to act, and hands the board and the sidebar to the ruleset's panel.

import { choices, choose, enableNotifications, signalTurn } from './signals.js';
import { api, ApiError, esc, reasonsHtml, ruleBadge, sideColour, sideToAct, takeLinkToken, tokens, nice } from './api.js';
import { Board } from './board.js';
import { loadRuleset, rulesetTitle } from './rulesets.js';
import { actionHtml, entryHtml, renderLog, setSideNames } from './log.js';
import { endButton } from './panel_kit.js';
import { tip } from './tooltip.js';
import { compareVersions, initUndo, renderUndo } from './undo.js';
import { showScore } from './score.js';
import { initStudy, renderStudy } from './study.js';
import { leanQuery, SOCKET_QUERY, whole } from './lean.js';

const $ = (id) => document.getElementById(id);

const gameId = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() || '');
const urlToken = takeLinkToken(gameId);

let g = null; // the latest GET /api/games/{id} object, for the seat we act or look as
let board = null;
let rules = null;
let socket = null;
let busy = 0;
let seen = -1; // log length already rendered

function held() {
  return tokens.of(gameId);
}

/** The token to look at the game with: the side to act's if we hold it, else any we hold. */
/**
 * The answer to a question about the position shown; a question about a position the
 * game has left (the other side acted meanwhile) never settles: the new view is on its
 * way and will ask again.
 */
async function current(asked) {
  const answer = await asked;
  if (answer && answer.stale) return new Promise(() => {});
  return answer;
}

function tokenFor(side) {
  const t = held();
  if (side && t[side]) return t[side];
  if (urlToken) return urlToken;
  const any = Object.values(t);
  return any.length ? any[0] : null;
}

function mySides() {
  return Object.keys(held());
}

function canAct() {
  return !!(g && !g.outcome && g.actions && g.actions.length && g.seat === sideToAct(g) && held()[g.seat]);
}

// ---- notices ---------------------------------------------------------------------------------

let noticeTimer = null;
function notice(html, kind = 'refused', ms = 9000) {
  const box = $('refusal');
  box.className = `refusal ${kind === 'info' ? 'info' : ''}`;
  box.innerHTML = `<button class="close" aria-label="close">×</button>${html}`;
  box.hidden = false;
  box.querySelector('.close').onclick = () => (box.hidden = true);
  clearTimeout(noticeTimer);
  if (ms) noticeTimer = setTimeout(() => (box.hidden = true), ms);
}

function refusal(err, what = '') {
  const reasons = err instanceof ApiError ? err.reasons : [{ rule: 'client', message: String(err && err.message ? err.message : err) }];
  notice(`<b>${esc(what || 'Refused')}</b>${reasonsHtml(reasons)}`, 'refused');
}

// ---- loading and live updates ----------------------------------------------------------------

async function fetchAs(side) {
  // Only the new entries when the page holds this token's object (lean.js).
  const token = tokenFor(side);
  const base = g && token && tokenFor(g.seat) === token ? g : null;
  const next = whole(await api.game(gameId, token, leanQuery(base)), base);
  return next && next.gap ? whole(await api.game(gameId, token, leanQuery(null)), null) : next;
}

/** Takes a newer view of the game; in hotseat, switches to the token of the side to act. */
async function accept(next, { force = false } = {}) {
  next = whole(next, g);
  if (!next) return;
  if (next.gap) next = await fetchAs(next.seat);
  // An undo lowers `n` but raises `undos`: older is by both.
  const order = compareVersions(next, g);
  if (g && !force && order < 0) return;
  if (g && !force && order === 0 && next.seat !== g.seat && g.actions && g.actions.length) return;
  if (g && next.undos !== g.undos) hintAsk = null;
  const toAct = sideToAct(next);
  if (toAct && toAct !== next.seat && held()[toAct]) {
    // Hotseat: we hold the other seat too; look with its token to get its actions.
    try {
      next = await fetchAs(toAct);
    } catch (e) {
      console.warn(e);
    }
  }
  if (next.seat && next.seat !== 'spectator' && tokenFor(next.seat) && !held()[next.seat] && urlToken) {
    tokens.set(gameId, next.seat, urlToken);
  }
  // A hotseat link's one token plays every seat.
  if (next.hotseat && urlToken) for (const s of Object.keys(next.seats || {})) if (!held()[s]) tokens.set(gameId, s, urlToken);
  const before = g ? g.n : null;
  const old = g;
  g = next;
  render();
  if (before != null) {
    announceOthers(before);
    trailOthers(old, before);
  }
}

/** Where each unit of a view stands, by id. */
function standing(view) {
  const out = new Map();
  for (const u of (view && (view.units || view.pieces)) || []) if (typeof u.hex === 'string') out.set(u.id, u.hex);
  return out;
}

/**
 * Marks on the board what the other side did since action `before` (not this page's own
 * actions, and never in hotseat): each unit that moved, from where to where, and each unit
 * or hex its actions aimed at. The marks stay until this page acts.
 */
function trailOthers(old, before) {
  if (mySides().length !== 1 || !board || !board.setTrail) return;
  const fresh = (g.log || []).filter((e) => e.n > before && e.n !== ownPending);
  if (!fresh.length) return;
  const was = standing(old && old.view);
  const now = standing(g.view);
  const items = [];
  for (const [id, hex] of now) if (was.has(id) && was.get(id) !== hex) items.push({ from: was.get(id), to: hex });
  for (const e of fresh) {
    const t = e.action && e.action.target;
    if (typeof t !== 'string') continue;
    const hex = now.get(t) || was.get(t) || (/^\d{3,}$/.test(t) ? t : null);
    if (hex && !items.some((x) => x.hex === hex)) items.push({ hex });
  }
  if (items.length) board.setTrail(items);
}

// The action this page has sent and not yet seen come back (its entry is not announced).
let ownPending = null;

/**
 * Announces in the notice what the other side did since action `before` when dice were
 * rolled (the computer's or the opponent's attacks): the page's own results are shown by
 * the panels, and in hotseat both sides are this page's.
 */
function announceOthers(before) {
  if (mySides().length !== 1) return;
  const fresh = (g.log || []).filter((e) => e.n > before && e.n !== ownPending && (e.events || []).some((ev) => ev.type === 'roll'));
  if (!fresh.length) return;
  const other = Object.entries(g.seats || {}).find(([s]) => s !== mySides()[0]);
  const who = other ? `${other[1] === 'ai' ? 'The computer' : esc(sideName(other[0]))}` : 'The other side';
  const shown = fresh.slice(-3).map((e) => `<div class="log announced">${entryHtml(e, rules, g)}</div>`).join('');
  notice(`<b>${who} rolled the dice</b>${fresh.length > 3 ? ` <span class="muted">(the last 3 of ${fresh.length})</span>` : ''}${shown}`, 'info', 12000);
}

async function reload() {
  const next = await fetchAs(sideToAct(g));
  await accept(next, { force: true });
}

function connect() {
  const token = urlToken || tokenFor(null);
  let backoff = 500;
  const open = () => {
    socket = new WebSocket(api.socketUrl(gameId, token, SOCKET_QUERY));
    socket.onopen = () => {
      backoff = 500;
      $('ws-dot').classList.add('on');
      $('ws-dot').title = 'live: moves arrive as they are made';
    };
    socket.onmessage = (m) => {
      try {
        const next = JSON.parse(m.data);
        if (next && next.id === gameId) accept(next);
        else if (next && next.view) accept(next);
      } catch (e) {
        console.warn('bad message', e);
      }
    };
    socket.onclose = () => {
      $('ws-dot').classList.remove('on');
      $('ws-dot').title = 'reconnecting…';
      setTimeout(open, backoff);
      backoff = Math.min(backoff * 2, 8000);
    };
  };
  open();
}

// ---- acting -------------------------------------------------------------------------------

/**
 * Sends one of the listed actions with the token of the side to act. Resolves to
 * `{events}` or, when refused, `{error}` (the refusal is shown unless `quiet`).
 */
async function act(action, { quiet = false } = {}) {
  const side = sideToAct(g);
  const token = held()[side];
  if (!token) {
    const e = new ApiError(403, { error: { rule: 'seat', message: `it is ${side}'s decision and this browser does not hold that seat` } });
    if (!quiet) refusal(e);
    return { error: e };
  }
  busy++;
  document.body.classList.add('busy');
  try {
    ownPending = g.n + 1;
    if (board && board.setTrail) board.setTrail([]);
    const res = await api.act(gameId, action, g.n, token, leanQuery(g.seat === side ? g : null));
    await accept(res.view);
    return { events: res.events || [] };
  } catch (e) {
    if (e instanceof ApiError && (e.status === 409 || e.status === 403)) {
      await reload();
      if (!quiet) notice(`${ruleBadge(e.rule)} ${esc(e.message)}: the board has been brought up to date.`, 'info');
    } else if (!quiet) {
      refusal(e);
    }
    return { error: e };
  } finally {
    busy--;
    if (!busy) document.body.classList.remove('busy');
  }
}

function endPhase() {
  const a = endButton(rules, g, canAct(), sideName).action;
  if (a) act(a);
}

// ---- the computer's hint and the win-chance bar ---------------------------------------------

// One search a game at a time on the server: the button and the bar share the answer for
// the view they were asked at.
let hintAsk = null; // {n, side, promise}
let hintShown = null; // the n whose hint is on the map
let winTimer = null;

function hintSide() {
  const side = sideToAct(g);
  return g && !g.outcome && side && held()[side] ? side : null;
}

function askHint() {
  const side = hintSide();
  if (!side) return null;
  if (hintAsk && hintAsk.n === g.n && hintAsk.side === side) return hintAsk.promise;
  const ask = { n: g.n, side };
  ask.promise = api.hint(gameId, held()[side]).catch((e) => {
    if (hintAsk === ask) hintAsk = null;
    throw e;
  });
  hintAsk = ask;
  return ask.promise;
}

/** The hexes an action names (any field whose value is a hex of the map, or a list of them). */
function hexesOf(action) {
  const out = [];
  for (const [k, v] of Object.entries(action || {})) {
    if (k === 'type' || k === 'unit') continue;
    for (const x of Array.isArray(v) ? v : [v]) if (typeof x === 'string' && board.hex(x)) out.push(x);
  }
  return out;
}

function unitHex(id) {
  const units = (g.view && (g.view.units || g.view.pieces)) || [];
  const u = units.find((x) => x.id === id);
  return u && typeof u.hex === 'string' ? u.hex : null;
}

/** Where a candidate goes on the map: `{hex, from}`, or null. */
function placeOf(c) {
  const plan = c.plan && c.plan.length ? c.plan : [c.action];
  const unit = plan.map((a) => a && a.unit).find(Boolean);
  const from = unit ? unitHex(unit) : null;
  let hex = null;
  for (const a of plan) {
    const hs = hexesOf(a);
    if (hs.length) hex = hs[hs.length - 1];
  }
  return hex || from ? { hex: hex || from, from } : null;
}

function words(c) {
  const plan = c.plan && c.plan.length ? c.plan : [c.action];
  const say = (a) => {
    const w = rules.describeAction ? rules.describeAction(a, [], g) : null;
    return w == null ? actionHtml(a) : w;
  };
  const place = placeOf(c);
  if (plan.length > 1 && place && place.hex) return `${say(plan[0])} <span class="muted">→ ${esc(place.hex)} (${plan.length} steps)</span>`;
  // A plan that goes nowhere (an officer and the units joining him): every step, so
  // that two such plans never read alike.
  return plan.map(say).join(', then ');
}

function pct(w) {
  return w == null ? '?' : `${Math.round(w * 100)}%`;
}

function clearHint() {
  hintShown = null;
  if (board) board.setHints([]);
  $('hint-section').hidden = true;
  $('hint-body').innerHTML = '';
}

async function showHint() {
  const btn = $('hint');
  if (btn.classList.contains('running')) return;
  const n = g.n;
  btn.classList.add('running');
  btn.setAttribute('aria-busy', 'true');
  try {
    const h = await askHint();
    if (!h || !g || g.n !== n) return;
    hintShown = n;
    const cs = h.candidates || [];
    const marks = [];
    cs.forEach((c, i) => {
      const p = placeOf(c);
      if (p) marks.push({ rank: i + 1, hex: p.hex, from: p.from, win: c.win, title: `${i + 1}: ${pct(c.win)}` });
    });
    board.setHints(marks);
    $('hint-body').innerHTML = cs.length
      ? `<ol class="hint-list">${cs
          .map(
            (c, i) =>
              `<li data-rank="${i + 1}"><span class="rank">${i + 1}</span><span>${words(c)}${c.description ? `<span class="why">${esc(c.description)}</span>` : ''}</span><span class="win" title="${esc(c.visits)} simulations">${pct(c.win)}</span></li>`,
          )
          .join('')}</ol><div class="muted">Estimated chance to win after each plan; ${esc(h.simulations)} simulations.</div>`
      : '<div class="muted">Nothing to advise: no decision to make.</div>';
    $('hint-section').hidden = false;
    setWin(h.win, n);
  } catch (e) {
    if (e instanceof ApiError && e.status === 429) notice(`${ruleBadge(e.rule)} The computer is still thinking about a hint; try again in a moment.`, 'info', 4000);
    else if (e instanceof ApiError) refusal(e, 'No hint');
    else refusal(e, 'No hint');
  } finally {
    btn.classList.remove('running');
    btn.removeAttribute('aria-busy');
  }
}

function winKey() {
  return `grognard.winbar.${gameId}`;
}

function winDefault() {
  // On against the computer; off when any opponent seat is a person.
  const mine = new Set(mySides());
  const others = Object.entries(g.seats || {}).filter(([s]) => !mine.has(s));
  return others.length > 0 && others.every(([, k]) => k === 'ai');
}

function winOn() {
  const v = localStorage.getItem(winKey());
  return v == null ? winDefault() : v === 'on';
}

let winAt = null;
function setWin(w, n) {
  if (w == null) return;
  winAt = n;
  $('winbar-fill').style.width = `${Math.round(w * 100)}%`;
  $('winbar-text').textContent = pct(w);
  $('winbar').dataset.win = String(w);
  $('winbar').classList.toggle('stale', n !== g.n);
}

/** After each new view: the bar asks again (debounced) when it is this seat's decision. */
function refreshWin() {
  const on = winOn() && mySides().length > 0;
  $('winbar-on').checked = on;
  $('winbar').hidden = !on;
  if (!on) return;
  $('winbar').classList.toggle('stale', winAt !== g.n);
  clearTimeout(winTimer);
  if (!hintSide()) return;
  const n = g.n;
  winTimer = setTimeout(() => {
    if (!g || g.n !== n || !winOn()) return;
    const p = askHint();
    if (p) p.then((h) => g && g.n === n && setWin(h.win, n)).catch(() => {});
  }, 600);
}

// ---- rendering -----------------------------------------------------------------------------

function render() {
  if (!g) return;
  signalTurn(canAct(), g.title, { hotseat: mySides().length > 1 });
  $('title').textContent = `${g.title}`;
  $('title').title = `${rulesetTitle(g.ruleset)} · game ${g.id}`;
  const toAct = sideToAct(g);
  const status = rules.status ? rules.status(g) : {};
  const phases = status.phases || [];
  const cur = phases.indexOf(status.phase);
  $('phasebar').innerHTML =
    (status.turn != null ? `<span class="turn">Turn ${status.turn}${status.turns ? ` / ${status.turns}` : ''}</span>${phases.length || status.phase ? '<span class="sr-gap">: </span>' : ''}` : '') +
    (phases.length
      ? `<div class="phases">${phases.map((p, i) => `<span class="phase ${i === cur ? 'current' : i < cur ? 'done' : ''}" data-phase="${esc(p)}">${esc(nice(p))}</span>`).join('<span class="sr-gap">, </span>')}</div>`
      : status.phase
        ? `<span class="phase current">${esc(nice(status.phase))}</span>`
        : '');
  const mine = toAct && held()[toAct];
  if (g.outcome) {
    $('to-act').innerHTML = '<b>Game over</b>';
    $('to-act').className = 'to-act';
  } else if (toAct) {
    const kind = g.to_act && g.to_act.kind && g.to_act.kind !== status.phase ? ` · ${esc(nice(g.to_act.kind))}` : '';
    $('to-act').innerHTML = `<span class="side-chip" style="background:${sideColour(toAct)}"></span> ${esc(sideName(toAct))} to act${kind}${mine ? ' (you)' : ''}`;
    $('to-act').className = `to-act ${mine ? 'yours' : ''}`;
  }
  const sides = mySides();
  $('seat').textContent = sides.length > 1 ? 'hotseat: both sides' : sides.length ? `you: ${sideName(sides[0])}` : 'spectator';
  const end = endButton(rules, g, canAct(), sideName);
  const endBtn = $('end-phase');
  endBtn.textContent = end.label;
  endBtn.disabled = !end.action;
  endBtn.title = end.action ? `${end.label} (Enter)` : end.reason;
  endBtn.dataset.reason = end.reason;
  $('end-reason').textContent = end.reason;
  renderUndo();
  renderStudy();
  rules.update(g);
  showScore({ g, board, sideName, end, mine: !!mine, watching: sides.length === 0, order: ((boardData && boardData.sides) || []).map((s) => s.id) });
  if (hintShown != null && hintShown !== g.n) clearHint();
  $('hint').hidden = !hintSide() || mySides().length === 0;
  refreshWin();
  // For tests and tools: the state the page shows.
  document.body.dataset.n = g.n;
  document.body.dataset.seat = g.seat;
  document.body.dataset.toAct = toAct || '';
  document.body.dataset.phase = (g.view && g.view.phase) || '';
  document.body.dataset.over = g.outcome ? 'yes' : '';
  const log = g.log || [];
  const last = log.length ? `${log[log.length - 1].n}/${g.undos || 0}` : null;
  if (log.length !== seen || (log.length && last !== renderedLast)) {
    renderLog($('log'), log, rules, g);
    seen = log.length;
    renderedLast = last;
    $('log-count').textContent = `${g.n} actions`;
  }
  gameOver();
}
let renderedLast = null;

setSideNames((id) => sideName(id));

function sideName(id) {
  return (rules && rules.sideName && rules.sideName(id)) || (boardData && (boardData.sides || []).find((s) => s.id === id)?.name) || id;
}

let shownOver = false;
function gameOver() {
  if (!g.outcome || shownOver) return;
  shownOver = true;
  const o = g.outcome;
  $('go-winner').innerHTML = o.winner
    ? `Victory: <span class="side-chip" style="background:${sideColour(o.winner)}"></span> ${esc(sideName(o.winner))}`
    : 'A draw';
  $('go-reason').innerHTML = `${ruleBadge(o.rule)} ${esc(o.reason || '')}`;
  $('go-replay').href = `/replay/${gameId}`;
  $('gameover').hidden = false;
}

// ---- keyboard -------------------------------------------------------------------------------

function keys(ev) {
  if (ev.target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(ev.target.tagName)) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  if (rules.key && rules.key(ev)) {
    ev.preventDefault();
    return;
  }
  const k = ev.key;
  if (k === '+' || k === '=') board.zoom(1.25);
  else if (k === '-' || k === '_') board.zoom(1 / 1.25);
  else if (k === '0') board.fit();
  else if (k === 'ArrowLeft') board.pan(-60, 0);
  else if (k === 'ArrowRight') board.pan(60, 0);
  else if (k === 'ArrowUp') board.pan(0, -60);
  else if (k === 'ArrowDown') board.pan(0, 60);
  else if ((k === 'h' || k === 'H') && !$('hint').hidden) showHint();
  else if ((k === 'Enter' || k === ' ') && !(ev.target && ev.target.tagName === 'BUTTON')) endPhase();
  else if (k === 'Escape') {
    $('refusal').hidden = true;
    $('gameover').hidden = true;
    tip.hide();
  } else return;
  ev.preventDefault();
}

// ---- boot -----------------------------------------------------------------------------------

let boardData = null;

async function boot() {
  if (urlToken) {
    // Remember the seat this link gives, so that a reload (or the lobby) finds it again.
    try {
      const first = await api.game(gameId, urlToken);
      if (first.seat && first.seat !== 'spectator') tokens.set(gameId, first.seat, urlToken);
    } catch (e) {
      if (e.status === 403) notice(`${ruleBadge(e.rule)} This link's token is not valid for this game; you are watching.`, 'refused', 0);
      else throw e;
    }
  }
  let first;
  try {
    first = await api.game(gameId, tokenFor(null));
  } catch (e) {
    if (e.status === 403) first = await api.game(gameId, null);
    else throw e;
  }
  const toAct = sideToAct(first);
  if (toAct && held()[toAct] && first.seat !== toAct) first = await fetchAs(toAct);
  boardData = await api.board(first.scenario);
  board = new Board($('board'), boardData);
  rules = await loadRuleset(first.ruleset);
  rules.init({
    board,
    boardData,
    game: () => g,
    gameId,
    act,
    canAct,
    mySides,
    token: () => tokenFor(sideToAct(g)),
    explain: (a) => current(api.explain(gameId, a, tokenFor(sideToAct(g)), g.n)),
    preview: (a) => current(api.preview(gameId, a, tokenFor(sideToAct(g)), g.n)),
    previewIfRolls: (a) => current(api.previewIfRolls(gameId, a, tokenFor(sideToAct(g)), g.n)),
    reachable: (u) => api.reachable(gameId, u, tokenFor(sideToAct(g))),
    panel: $('ruleset-panel'),
    tip,
    notice,
    refusal,
    hexInfo: (html) => ($('hexinfo').innerHTML = html),
    sideName,
  });
  $('keys').innerHTML = (rules.keysHelp || '') + ' <kbd>+</kbd><kbd>−</kbd> zoom · <kbd>0</kbd> whole map · arrows pan · drag to pan, wheel to zoom';
  $('replay-link').href = `/replay/${gameId}`;
  const others = Object.entries(held());
  if (urlToken == null && others.length === 1) $('invite').textContent = '';
  g = first;
  initUndo({ gameId, game: () => g, held, accept, reload, notice, refusal });
  initStudy({ gameId, game: () => g, token: () => tokenFor(sideToAct(g)), notice });
  render();
  connect();
}

$('end-phase').addEventListener('click', endPhase);
// Your-turn signals, each the player's choice (kept in this browser).
$('sig-sound').checked = choices().sound;
$('sig-notify').checked = choices().notify && 'Notification' in window && Notification.permission === 'granted';
$('sig-sound').addEventListener('change', (e) => choose({ sound: e.target.checked }));
$('sig-notify').addEventListener('change', async (e) => {
  if (!e.target.checked) return choose({ notify: false });
  e.target.checked = await enableNotifications();
  if (!e.target.checked) notice('This browser does not allow notifications for this page.', 'info', 5000);
});
$('hint').addEventListener('click', () => showHint());
$('hint-close').addEventListener('click', clearHint);
$('winbar-on').addEventListener('change', (ev) => {
  localStorage.setItem(winKey(), ev.target.checked ? 'on' : 'off');
  refreshWin();
});
$('go-close').addEventListener('click', () => ($('gameover').hidden = true));
$('go-rematch').addEventListener('click', rematch);

/**
 * The same scenario again with the seats swapped: each side's kind of seat goes to the
 * other side, and this browser plays the side it did not (every side in hotseat). A
 * friend's seat gets an invitation link to send.
 */
async function rematch() {
  const btn = $('go-rematch');
  btn.disabled = true;
  const sides = Object.keys(g.seats || {});
  const mine = mySides();
  const hotseat = mine.length > 1;
  const other = (s) => sides.find((x) => x !== s) || s;
  const seats = {};
  for (const s of sides) seats[s] = hotseat ? 'human' : g.seats[other(s)];
  const me = hotseat ? sides : mine.map(other);
  try {
    const res = await api.create(g.scenario, seats, null, null, hotseat);
    for (const s of me) if (res.seats[s] && res.seats[s].token) tokens.set(res.id, s, res.seats[s].token);
    const myLink = `/play/${res.id}?token=${res.seats[me[0]].token}`;
    const friend = sides.find((s) => !me.includes(s) && seats[s] === 'human');
    if (friend) {
      const link = new URL(res.seats[friend].link || `/play/${res.id}?token=${res.seats[friend].token}`, location.href).href;
      $('go-invite').innerHTML = `<p>Send your opponent, who now plays <b>${esc(sideName(friend))}</b>, this link:</p><input readonly class="invite-link" id="go-invite-link" aria-label="invitation link for the rematch" value="${esc(link)}"> <a href="${esc(myLink)}"><button class="primary">Go to the rematch</button></a>`;
      $('go-invite-link').select();
    } else {
      location.href = myLink;
    }
  } catch (e) {
    refusal(e, 'No rematch');
    btn.disabled = false;
  }
}
document.addEventListener('keydown', keys);
document.addEventListener('pointermove', (ev) => tip.move(ev));

boot().catch((e) => {
  console.error(e);
  document.querySelector('.main').innerHTML = `<div style="padding:30px"><h2>This game cannot be shown</h2>${reasonsHtml(e.reasons || [{ rule: String(e.status || 'client'), message: e.message }])}<p><a href="/">Back to the lobby</a></p></div>`;
});
