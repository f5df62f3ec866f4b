// What decides the game, as a player at the table sees it, and what this seat must do now:
// the score in the top bar, the holder of each objective on the map, and the prompt line at
// the top of the sidebar. Every ruleset's view carries the same three keys (`objectives`,
// `score`, `turns_left`; docs/ENGINE-PROTOCOL.md, "The score"), so one module serves all.

import { esc, nice, sideColour, sideToAct } from './api.js';
import { S } from './board.js';
import { tip } from './tooltip.js';

const NS = 'http://www.w3.org/2000/svg';

// What the score counts, by ruleset; a ruleset not named here shows "Score".
const COUNTS = {
  battle_cry: 'Flags',
  jomini: 'Points',
  morne_plaine: 'Points',
  skirmish: 'Enemies down',
};

// What a decision asks, by its kind (the phase, or a window in the other side's turn):
// what to do, and what the side deciding is doing, in words.
const KINDS = {
  deal: ['deal the cards', 'dealing the cards'],
  bombardment: ['bombard with your artillery', 'bombarding'],
  movement: ['move your units', 'moving'],
  combat: ['attack with your units', 'attacking'],
  rally: ['rally your units', 'rallying'],
  command: ['give your commands', 'giving commands'],
  orders: ['order the units your card allows', 'ordering units'],
  battle: ['battle with your ordered units', 'battling'],
  missile: ['shoot with your missiles', 'shooting'],
  melee: ['fight in melee', 'fighting in melee'],
  retreat: ['choose where your unit retreats', 'choosing where a unit retreats'],
  embolden: ['choose whether your unit holds its ground', 'choosing whether a unit holds its ground'],
  take_ground: ['choose whether to take the ground', 'choosing whether to take the ground'],
  fight_back: ['choose whether to fight back', 'choosing whether to fight back'],
  opportunity: ['choose whether to strike at the enemy passing by', 'choosing whether to strike at a passing enemy'],
  reaction: ['choose whether to react', 'choosing whether to react'],
};

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/** Who holds an objective and its worth, in words: "held by Orange corps, worth 2". */
function holding(o, sideName) {
  return `${o.holder ? `held by ${sideName(o.holder)}` : 'held by nobody'}, worth ${o.value}`;
}

/** One objective in words: "Morne: held by Orange corps, worth 2". */
export function objectiveWords(o, sideName) {
  return `${o.name || `Hex ${o.hex}`}: ${holding(o, sideName)}`;
}

/**
 * The score in words, side names not ids: "Points: Orange corps 3 · Blue corps 1 (needs 4)
 * · 2 turns left", and a longer `title` saying how the game is won.
 */
export function scoreWords(g, sideName, order = []) {
  const v = (g && g.view) || {};
  const score = v.score && typeof v.score === 'object' ? v.score : null;
  if (!score) return { text: '', title: '' };
  const parts = [];
  const notes = [];
  // In the scenario's order of sides (the view's object has its own order).
  const rank = (s) => (order.includes(s) ? order.indexOf(s) : order.length);
  const entries = Object.entries(score).sort(([a], [b]) => rank(a) - rank(b));
  for (const [side, t] of entries) {
    const name = sideName(side);
    parts.push({ side, text: `${name} ${t.have}${t.need != null ? ` (needs ${t.need})` : ''}` });
    if (t.need != null) notes.push(`${name} wins at once with ${t.need}`);
    if (t.sudden_death) notes.push(`${name} wins at once holding every objective`);
  }
  const margin = Object.values(score).map((t) => t.margin).find((m) => m != null);
  const tail = [];
  if (margin != null) {
    tail.push(`a lead of ${margin} wins`);
    notes.push(`after the last turn, a lead of ${margin} wins; less is a draw`);
  }
  const left = v.turns_left;
  if (g.outcome) tail.push('game over');
  else if (left === 1) tail.push('last turn');
  else if (left != null) tail.push(`${plural(left, 'turn', 'turns')} left`);
  const count = COUNTS[g.ruleset] || 'Score';
  const text = `${count}: ${parts.map((p) => p.text).join(' · ')}${tail.length ? ` · ${tail.join(' · ')}` : ''}`;
  return { text, parts, tail, count, title: `${text}. ${notes.join('; ')}${notes.length ? '.' : ''}` };
}

/**
 * The prompt line: what this seat must do now and, when its End button is disabled, why;
 * in the other side's turn, whose turn it is and what they are doing.
 * `end` is what `endButton` answered; `mine` whether this page holds the side to act.
 */
export function promptWords(g, { end, mine, watching, sideName }) {
  if (!g) return 'The game is loading.';
  if (g.outcome) {
    const o = g.outcome;
    return `The game is over: ${o.winner ? `${sideName(o.winner)} wins` : 'a draw'}${o.reason ? ` (${o.reason})` : ''}.`;
  }
  const side = sideToAct(g);
  if (!side) return 'Nobody is to act.';
  const t = typeof g.to_act === 'object' && g.to_act ? g.to_act : {};
  const sentence = t.text ? String(t.text).replace(/_/g, ' ') : '';
  const kind = KINDS[t.kind];
  const v = g.view || {};
  const during = t.reaction && v.active && v.active !== side ? `, in ${sideName(v.active)}'s turn` : '';
  const name = sideName(side);
  if (mine) {
    const todo = kind ? kind[0] : sentence || nice(t.kind).toLowerCase();
    const pending = v.pending && typeof v.pending === 'object' && typeof v.pending.hexes === 'number' ? ` (${plural(v.pending.hexes, 'hex', 'hexes')})` : '';
    const next = end && end.action ? `Then ${end.label} (Enter).` : (end && end.reason) || '';
    return `Your move, ${name}${during}: ${todo}${pending}. ${next}`.trim();
  }
  const who = g.seats && g.seats[side] === 'ai' ? `${name} (the computer)` : name;
  const doing = kind ? kind[1] : sentence ? `deciding (${sentence})` : 'deciding';
  return `${who} is ${doing}${during}; ${watching ? 'you are watching.' : 'End waits for your turn.'}`;
}

// ---- drawing ------------------------------------------------------------------------------

function layerOf(board) {
  if (board.scoreLayer && board.scoreLayer.isConnected) return board.scoreLayer;
  const g = document.createElementNS(NS, 'g');
  g.setAttribute('class', 'layer layer-holders');
  // Above the hexes' hit areas, so that the pointer finds the marker; a click still
  // reaches the hex under it (the board falls back on geometry).
  board.root.insertBefore(g, board.overlay);
  board.scoreLayer = g;
  return g;
}

function svg(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

/** A small flag in the holder's colour on each objective hex (a hollow ring when nobody holds it). */
export function drawHolders(board, g, sideName) {
  if (!board || !board.root) return;
  const layer = layerOf(board);
  layer.replaceChildren();
  const list = (g && g.view && Array.isArray(g.view.objectives) && g.view.objectives) || [];
  const words = new Map();
  for (const o of list) {
    const h = board.hex(o.hex);
    if (!h) continue;
    const said = objectiveWords(o, sideName);
    words.set(o.hex, holding(o, sideName));
    const m = svg('g', { class: `holder${o.holder ? '' : ' nobody'}`, 'data-hex': o.hex, 'data-holder': o.holder || '', role: 'img', 'aria-label': said, 'data-tip': said }, layer);
    // Left of the counter (which spans half of 0.98 S each way), clear of the hex's
    // label above and the elevation below: a pole at x, its flag flying away from the
    // counter.
    const x = h.x - 0.54 * S;
    const y = h.y - 0.38 * S;
    const w = 0.26 * S;
    svg('rect', { x: x - w - 0.06 * S, y: y - 0.06 * S, width: w + 0.12 * S, height: 0.48 * S, class: 'holder-hit' }, m);
    if (o.holder) {
      svg('line', { x1: x, y1: y, x2: x, y2: y + 0.38 * S, class: 'holder-pole' }, m);
      svg('path', { d: `M${x} ${y}h${-w}l${0.07 * S} ${0.12 * S}l${-0.07 * S} ${0.12 * S}h${w}z`, fill: sideColour(o.holder), class: 'holder-flag' }, m);
    } else {
      svg('circle', { cx: x - 0.12 * S, cy: y + 0.12 * S, r: 0.1 * S, class: 'holder-ring' }, m);
    }
    // The marker's own tooltip: the panel's hover (a unit's tip, say) waits until the
    // pointer leaves the marker.
    const show = (ev) => {
      ev.stopPropagation();
      tip.show(esc(said), ev, 'holder-tip');
    };
    m.addEventListener('pointerenter', show);
    m.addEventListener('pointermove', show);
    m.addEventListener('pointerleave', () => tip.hide());
  }
  // The board's word on a hex (beside the map) adds who holds it.
  board.noteOf = (label) => words.get(label) || '';
}

/**
 * Shows the score in the top bar (`#score`), the holders on the map and the prompt line
 * (`#prompt`): game.js calls it after each new view. `order` lists the side ids in the
 * scenario's order.
 */
export function showScore({ g, board, sideName, end, mine, watching, order }) {
  const s = scoreWords(g, sideName, order);
  const box = document.getElementById('score');
  if (box) {
    box.innerHTML = s.text
      ? `<span class="score-count">${esc(s.count)}:</span> ${s.parts
          .map((p) => `<span class="score-side" data-side="${esc(p.side)}"><span class="side-chip" style="background:${sideColour(p.side)}"></span> ${esc(p.text)}</span>`)
          .join(' · ')}${s.tail.length ? ` · <span class="score-tail">${esc(s.tail.join(' · '))}</span>` : ''}`
      : '';
    box.title = s.title;
    box.setAttribute('aria-label', s.text);
  }
  drawHolders(board, g, sideName);
  const line = document.getElementById('prompt');
  if (line) {
    const said = promptWords(g, { end, mine, watching, sideName });
    line.textContent = said;
    line.classList.toggle('yours', !!mine && !(g && g.outcome));
  }
}
