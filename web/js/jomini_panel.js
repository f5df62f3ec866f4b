// What JOMINI's panel shows at the level of Morne Plaine's: the odds of an attack as a
// table in words before the dice (each result with its bar, percentage and exact
// fraction, the chances that matter said plainly, the dice and what set them with their
// rule badges), the reasons an attack or a move is refused (the engine's `explain`) on
// hover and on click, the retreat prompt, and the counters' symbols and printed values.
// Every number comes from the rules (`preview`, `explain`); this only writes them out.

import { esc, nice, reasonsHtml, ruleBadge } from './api.js';
import { chanceCell, chanceWords, pct } from './odds.js';

/** The counter's symbol for each JOMINI unit type (web/js/glyphs.js draws them). */
export const GLYPH = {
  officer: 'general',
  infantry: 'infantry',
  cavalry: 'cavalry',
  camelry: 'camelry',
  elephants: 'elephants',
  foot_artillery: 'artillery',
  horse_artillery: 'horse_artillery',
  elephant_artillery: 'elephant_artillery',
  camel_artillery: 'camel_artillery',
};

/** What a counter prints: its symbol, its name, its stands left of its full strength. */
export function counterFace(p, name) {
  return {
    kind: GLYPH[p.type] || p.type || 'unit',
    top: name(p.id).slice(0, 12),
    values: p.officer ? '' : `${p.strength}/${p.full}`,
    small: p.officer,
    badge: p.mounted ? 'M' : p.dice != null && !p.officer ? p.dice : undefined,
  };
}

/** One result of an attack (JO-DIE-1, JO-RET-1, JO-ORD-2) in words. */
export function outcomeText(r, target) {
  if (typeof r === 'string') return r;
  if (!r || typeof r !== 'object') return 'no effect';
  const tokens = (n) => `${n} order token${n === 1 ? '' : 's'} won`;
  if (r.eliminated) return `${target} is destroyed${r.tokens ? `; ${tokens(r.tokens)}` : ''}`;
  const bits = [];
  if (r.lost) bits.push(`${target} loses ${r.lost} stand${r.lost === 1 ? '' : 's'}`);
  if (r.flags) bits.push(`${r.flags} flag${r.flags === 1 ? '' : 's'}: ${r.retreat ? `retreats ${r.retreat} hex${r.retreat === 1 ? '' : 'es'}` : 'no retreat'}`);
  if (r.tokens) bits.push(tokens(r.tokens));
  return bits.join('; ') || 'no effect';
}

/** The chances a player weighs, in words: the target destroyed, hurt, sent back. */
function summary(p, target) {
  const sum = (f) => (p.outcomes || []).filter((o) => o.result && f(o.result)).reduce((n, o) => n + o.p, 0);
  const lines = [
    ['destroyed', sum((r) => r.eliminated)],
    ['loses at least a stand', sum((r) => r.lost > 0)],
    ['retreats', sum((r) => r.retreat > 0)],
    ['nothing happens', sum((r) => !r.lost && !r.flags && !r.tokens)],
  ];
  return `<ul class="jo-chances">${lines
    .filter(([, q]) => q > 0)
    .map(([what, q]) => `<li data-chance="${esc(what)}">${esc(target)} ${esc(what)}: <b>${esc(chanceWords(q))}</b> (${pct(q)})</li>`)
    .join('')}</ul>`;
}

/** What set the dice: how many, at what distance, the target's shelter and support. */
function inputsLine(i) {
  const bits = [];
  if (i.dice != null) bits.push(`<b>${esc(i.dice)}</b> ${i.dice === 1 ? 'die' : 'dice'}`);
  if (i.distance != null) bits.push(`${i.distance === 1 ? 'adjacent' : `${esc(i.distance)} hexes away`}`);
  if (i.range_dice != null && i.distance > 1) bits.push(`${esc(i.range_dice)} at this range`);
  if (i.terrain) bits.push(`terrain ${esc(i.terrain)}`);
  if (i.moved) bits.push('moved this turn');
  if (i.supported) bits.push('the target is supported: one flag ignored');
  return bits.length ? `<div class="jo-inputs">${bits.join(' · ')}</div>` : '';
}

/**
 * The odds of an attack before the dice (JO-DIE-1): a heading, the chances in words, the
 * table of results (most likely first) and the rules behind it. `name` writes a piece.
 */
export function oddsHtml(a, p, name, cls = 'jo-odds', limit = Infinity) {
  const target = name(a.target);
  const all = [...(p.outcomes || [])].sort((x, y) => y.p - x.p);
  const more = all.length > limit ? `<tr class="muted"><td colspan="2">${all.length - limit} less likely results: the full table is beside the map</td></tr>` : '';
  const rows = all
    .slice(0, limit)
    .map((o) => `<tr><td>${esc(outcomeText(o.result, target))}</td>${chanceCell(o)}</tr>`)
    .join('') + more;
  const why = (p.reasons || []).map((r) => `<div class="reason">${ruleBadge(r.rule)} ${esc(r.message)}</div>`).join('');
  return `<div class="${cls}"><div class="odds">${esc(name(a.unit))} attacks ${esc(target)}</div><div class="muted">${esc(p.roll || '')}</div>${inputsLine(p.inputs || {})}${summary(p, target)}<table class="prob-table"><tbody>${rows}</tbody></table>${why}</div>`;
}

/** Why an action is refused, from the engine's `explain` (or the error it answered). */
export function refusedHtml(title, x) {
  const reasons = (x && (x.reasons || (x.error && x.error.reasons))) || [];
  return `<b>${title}</b>${reasons.length ? reasonsHtml(reasons) : '<div class="muted">the rules list no such action now</div>'}`;
}

/**
 * The retreat prompt (JO-RET-1, JO-RET-2): who must go back, how far, and a button for
 * each hex the rules list where it may end.
 */
export function retreatHtml(pending, acts, name, canAct) {
  const ends = acts.filter((x) => x.type === 'retreat');
  const buttons = ends.map((a, i) => `<button data-retreat="${i}" title="retreat to ${esc(a.to)}">${esc(a.to)}</button>`).join('');
  return `<section class="jo-pending" id="jo-retreat"><h3>Retreat ${ruleBadge('JO-RET-1')}</h3><b>${esc(name(pending.unit))}</b> must retreat ${esc(pending.hexes)} hex${pending.hexes === 1 ? '' : 'es'}, away from the enemy${canAct ? ': click a lit hex or a button.' : '.'}
    ${canAct && ends.length ? `<div class="bc-choices">${buttons}</div>` : ''}
    <div class="muted">${ruleBadge('JO-RET-2')} each hex it cannot retreat costs a stand.</div></section>`;
}

/** The action a click or a hover over an enemy would take, were it listed: for `explain`. */
export function wouldBe(phase, sel, hex, target) {
  if (phase === 'combat' && target) return { type: 'attack', unit: sel, target };
  if (phase === 'movement') return { type: 'move', unit: sel, to: hex };
  return null;
}

export { nice };

/**
 * The reinforcements waiting off the table (JO-MOV-26, JO-MOV-27): not on the map, they
 * cannot be clicked there, so each with something listed has a button: an officer to
 * activate, the order being given (`picking`), or a piece to select before its lit entry
 * hex is clicked. `sel` is the selected piece.
 */
export function waitingHtml(pieces, acts, { name, sel, picking }) {
  const rows = pieces
    .filter((p) => !p.hex)
    .map((p) => {
      const own = acts.filter((a) => a.unit === p.id);
      const now = own.find((a) => a.type === 'activate') || (picking && own.find((a) => a.type === 'order' && a.order === picking));
      if (now) return `<button data-waiting="${esc(p.id)}" data-do="act">${now.type === 'activate' ? 'Activate' : `${esc(nice(picking))}:`} ${esc(name(p.id))}</button>`;
      if (own.some((a) => a.type === 'move')) return `<button data-waiting="${esc(p.id)}" data-do="select" class="${p.id === sel ? 'on' : ''}">${esc(name(p.id))}${p.enters && p.enters.hex ? ` <span class="muted">enters at ${esc(p.enters.hex)}</span>` : ''}</button>`;
      return '';
    })
    .filter(Boolean);
  if (!rows.length) return '';
  return `<section id="jo-waiting"><h3>Waiting to enter ${ruleBadge('JO-MOV-27')}</h3><div class="muted">Off the table: click one, then its lit entry hex.</div><div class="bc-choices">${rows.join('')}</div></section>`;
}

/** What a waiting piece's button does: the listed action it names, else `null` (select it). */
export function waitingAction(id, acts, picking) {
  const own = acts.filter((a) => a.unit === id);
  return own.find((a) => a.type === 'activate') || (picking && own.find((a) => a.type === 'order' && a.order === picking)) || null;
}
