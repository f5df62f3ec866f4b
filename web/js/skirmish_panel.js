// What the skirmish panel shows at the level of Morne Plaine's: counters that print the
// character's weapon (or missile) as their symbol with its values; the characters who
// share a hex (SK Close Quarters) drawn side by side, each picked by a click on its own
// counter or by its button in the sidebar; the odds of a charge (the strike at its end,
// SK-CHG-10, from the rules' `preview` of the declaration, which runs the charge to its
// target, and of the step that reaches the target); the flee prompt (SK-STA-2); and the
// rules' reasons on hover and click for what is not listed (`explain`).

import { esc, reasonsHtml, ruleBadge, sideColour } from './api.js';
import { chanceCell, chanceWords, pct } from './odds.js';

/** What a character's counter prints: its missile or weapon as the symbol, its values. */
export function counterFace(u) {
  const weapon = (u.weapon && u.weapon.name) || null;
  const missile = (u.missile && u.missile.name) || null;
  const left = Math.max(0, (u.health ?? 0) - (u.damage ?? 0));
  return {
    kind: missile || weapon || 'character',
    // The given name ("Hrolf" of "Hrolf the Wild"), not the epithet.
    top: String(u.name || u.id).split(' ')[0].slice(0, 11),
    // Weapon skill, vigor and finesse, as the character's card prints them; health left in the corner.
    values: `${u.weapon_skill ?? '?'}-${u.vigor ?? '?'}-${u.finesse ?? '?'}`,
    badge: `${left}`,
  };
}

/** The words of a counter's values for its tooltip. */
export function valuesWords(u) {
  const words = (name) => (name === 'two_handed' ? 'two-handed weapon' : String(name).replace(/_/g, ' '));
  const w = u.weapon ? `${words(u.weapon.name)} (reach ${u.weapon.reach}, damage ${u.weapon.damage})` : 'no weapon';
  const m = u.missile ? `, ${words(u.missile.name)} (range ${u.missile.range}, damage ${u.missile.damage})` : '';
  return `weapon skill ${u.weapon_skill}, vigor ${u.vigor}, finesse ${u.finesse}; ${w}${m}`;
}

/**
 * Of the characters in `hex`, the one whose counter is under the pointer (the board draws
 * those who share a hex side by side), else the first of `list`.
 */
export function pickInHex(board, list, ev) {
  if (!list.length) return null;
  if (list.length === 1 || !ev || !board.unitPos) return list[0];
  const [x, y] = board.toSvg(ev.clientX, ev.clientY);
  let best = list[0];
  let bd = Infinity;
  for (const u of list) {
    const p = board.unitPos.get(u.id);
    if (!p) continue;
    const d = Math.hypot(p[0] - x, p[1] - y);
    if (d < bd) {
      bd = d;
      best = u;
    }
  }
  return best;
}

/** The characters sharing the hex of the selection or the pointer, each a button to select it. */
export function rosterHtml(hex, list, sel, canPick) {
  if (list.length < 2) return '';
  const rows = list
    .map((u) => `<button class="sk-pick ${u.id === sel ? 'on' : ''} ${canPick(u) ? '' : 'idle'}" data-pick="${esc(u.id)}" title="${esc(valuesWords(u))}"><span class="side-chip" style="background:${sideColour(u.side)}"></span> ${esc(u.name || u.id)}</button>`)
    .join('');
  return `<section id="sk-roster"><h3>In ${esc(hex)}<span class="sr-gap">: </span><span class="muted">${list.length} characters, close quarters ${ruleBadge('SK-MEL-4')}</span></h3><div class="bc-choices">${rows}</div></section>`;
}

/** The flee prompt: who is panicked and must flee toward the home edge first (SK-STA-2). */
export function fleeHtml(acts, who) {
  const flee = acts.filter((a) => a.type === 'flee');
  if (!flee.length) return '';
  return `<section class="sk-prompt" id="sk-flee"><h3>Flee ${ruleBadge('SK-STA-2')}</h3><div>${flee.map((a) => esc(who(a.unit))).join(' and ')} ${flee.length === 1 ? 'is' : 'are'} panicked: ${flee.length === 1 ? 'it' : 'each'} must flee toward the home edge before anyone else moves.</div>
    <div class="bc-choices">${flee.map((a, i) => `<button data-flee="${i}">${esc(who(a.unit))} flees</button>`).join('')}</div></section>`;
}

/** Whether a preview's outcomes come from dice at all. */
export function rolls(p) {
  return !!p && !p.error && (p.outcomes || []).length > 0;
}

/**
 * The odds of a charge's strike (SK-CHG-10, SK-CHG-11), in words and as a table: the
 * target's harm, the charger's from the counter, each chance with its exact fraction.
 */
export function chargeOddsHtml(title, p, target, charger, outcomeText) {
  const harm = (id, f) => (p.outcomes || []).filter((o) => o.result && typeof o.result === 'object' && o.result[id] && f(o.result[id])).reduce((n, o) => n + o.p, 0);
  const lines = [
    [`${target.name || target.id} is hit`, harm(target.id, (r) => r.damage || r.out)],
    [`${target.name || target.id} is put out of action`, harm(target.id, (r) => r.out)],
    [`${charger.name || charger.id} is hurt by the counter`, harm(charger.id, (r) => r.damage || r.out)],
  ];
  const rows = [...(p.outcomes || [])]
    .sort((x, y) => y.p - x.p)
    .slice(0, 8)
    .map((o) => `<tr><td>${esc(o.text || outcomeText(o.result))}</td>${chanceCell(o)}</tr>`)
    .join('');
  return `<div class="sk-odds sk-charge-odds"><div class="odds">${title}</div><div class="muted">${esc(p.roll || '')} ${ruleBadge('SK-CHG-10')} ${ruleBadge('SK-CHG-11')}</div>
    <ul class="jo-chances">${lines.map(([w, q]) => `<li>${esc(w)}: <b>${esc(chanceWords(q))}</b> (${pct(q)})</li>`).join('')}</ul>
    <table class="prob-table"><tbody>${rows}</tbody></table>${reasonsHtml(p.reasons || [])}</div>`;
}

/** Why an action is refused, in the rules' words. */
export function refusedHtml(title, x) {
  const reasons = (x && (x.reasons || (x.error && x.error.reasons))) || [];
  return `<b>${esc(title)}</b>${reasons.length ? reasonsHtml(reasons) : '<div class="muted">the rules list no such action now</div>'}`;
}
