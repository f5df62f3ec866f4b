// Undo on the game page: the seat to act takes back its own last action, back to the last
// die rolled or hidden information shown and never past it (issue 15). The button beside
// End and the keys Ctrl+Z and U are enabled from the game object; the server stays the
// judge (POST /api/games/{id}/undo), and every other page of the game gets the game
// without the action over its WebSocket.

import { api, ApiError, esc, ruleBadge, sideToAct } from './api.js';
import { actionHtml } from './log.js';

/**
 * Orders two game objects of one game: negative when `a` is older than `b`, 0 when they
 * are the same state, positive when newer. An undo lowers `n` but raises `undos`, so the
 * game after an undo is newer than every object before it.
 */
export function compareVersions(a, b) {
  const ua = (a && a.undos) || 0;
  const ub = (b && b.undos) || 0;
  if (ua !== ub) return ua - ub;
  return ((a && a.n) || 0) - ((b && b.n) || 0);
}

/** The last log entry of a game object, or null. */
function lastEntry(g) {
  const log = (g && g.log) || [];
  return log.length ? log[log.length - 1] : null;
}

/**
 * Whether this page may take back the last action of `g`, and why not: `{ok, reason}`.
 * `held` maps each side this browser plays to its token.
 */
export function undoState(g, held) {
  if (!g) return { ok: false, reason: '' };
  if (g.outcome) return { ok: false, reason: 'the game is over' };
  const side = sideToAct(g);
  if (!side || !held[side] || g.seat !== side) return { ok: false, reason: 'not your turn' };
  const last = lastEntry(g);
  if (!g.n || !last) return { ok: false, reason: 'nothing to take back yet' };
  if ((last.events || []).some((e) => e.type === 'roll')) return { ok: false, reason: 'the dice have rolled: undo stops at the last random result' };
  if (!g.undo) return { ok: false, reason: 'the last action is not yours to take back (another side’s, or it showed hidden information)' };
  return { ok: true, reason: '' };
}

let ctx = null;
let running = false;

const $ = (id) => document.getElementById(id);

/** Draws the button from the game object the page shows. */
export function renderUndo() {
  const btn = $('undo');
  if (!btn || !ctx) return;
  const g = ctx.game();
  const held = ctx.held();
  btn.hidden = Object.keys(held).length === 0;
  const s = undoState(g, held);
  btn.disabled = running || !s.ok;
  btn.title = s.ok ? 'take back your last action (Ctrl+Z or U)' : `Undo: ${s.reason}`;
  btn.dataset.reason = s.reason;
}

/** Takes back the last action, if the game object allows it, and shows the game without it. */
export async function undo() {
  if (!ctx || running) return;
  const g = ctx.game();
  const held = ctx.held();
  if (!undoState(g, held).ok) return;
  running = true;
  renderUndo();
  try {
    const res = await api.undo(ctx.gameId, g.n, held[g.seat]);
    await ctx.accept(res.view);
    const u = res.undone || {};
    ctx.notice(`<b>Taken back</b>: ${u.n != null ? `action ${esc(u.n)}, ` : ''}${u.action ? actionHtml(u.action) : ''}`, 'info', 4000);
  } catch (e) {
    if (e instanceof ApiError && e.status === 409) {
      await ctx.reload();
      ctx.notice(`${ruleBadge(e.rule)} ${esc(e.message)}: the board has been brought up to date.`, 'info');
    } else {
      ctx.refusal(e, 'No undo');
    }
  } finally {
    running = false;
    renderUndo();
  }
}

function key(ev) {
  if (ev.target && ['INPUT', 'TEXTAREA', 'SELECT'].includes(ev.target.tagName)) return;
  const k = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  const ctrlZ = (ev.ctrlKey || ev.metaKey) && !ev.altKey && !ev.shiftKey && k === 'z';
  const u = !ev.ctrlKey && !ev.metaKey && !ev.altKey && k === 'u';
  if (!ctrlZ && !u) return;
  ev.preventDefault();
  undo();
}

/**
 * Starts the button and the keys. `c` gives the page's game (`game()`), the tokens it
 * holds (`held()`), its id, and how it takes a new game object (`accept`), fetches it
 * again (`reload`) and tells the player (`notice`, `refusal`).
 */
export function initUndo(c) {
  ctx = c;
  const btn = $('undo');
  if (btn) btn.addEventListener('click', () => undo());
  document.addEventListener('keydown', key);
  renderUndo();
}
