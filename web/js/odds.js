// What the odds tables of the panels share: the die faces behind a result, a chance in
// words, and a line of the table. The numbers come from the rules' `preview`; this only
// writes them out.

import { esc } from './api.js';

/**
 * The faces of a die as a person reads them: a run of three or more is "3-5", a pair
 * "1, 2", each face by itself otherwise ("1, 3, 6").
 */
export function facesText(faces) {
  const list = [...new Set((faces || []).map(Number).filter(Number.isFinite))].sort((a, b) => a - b);
  const runs = [];
  for (const f of list) {
    const last = runs[runs.length - 1];
    if (last && f === last[1] + 1) last[1] = f;
    else runs.push([f, f]);
  }
  return runs
    .flatMap(([a, b]) => (b - a >= 2 ? [`${a}-${b}`] : a === b ? [`${a}`] : [`${a}`, `${b}`]))
    .join(', ');
}

/** The table cell with the die faces of a previewed result (MP-CMB-29), or none. */
export function facesCell(result) {
  const faces = result && Array.isArray(result.dice) ? result.dice : null;
  if (!faces) return '';
  const text = facesText(faces);
  return `<td class="faces" data-faces="${esc(faces.join(','))}" title="die faces ${esc(text)}"><span class="muted">${faces.length === 1 ? 'die' : 'dice'}</span> ${esc(text)}</td>`;
}

/** A probability as a percentage, a decimal below 10%. */
export function pct(p) {
  return `${(100 * p).toFixed(p > 0 && p < 0.1 ? 1 : 0)}%`;
}

/** A probability as a person says it. */
export function chanceWords(p) {
  if (p >= 0.999) return 'certain';
  if (p <= 0.001) return 'never';
  if (p >= 0.85) return 'almost certain';
  if (p >= 0.6) return 'likely';
  if (p >= 0.4) return 'even chance';
  if (p >= 0.15) return 'unlikely';
  return 'a long shot';
}

/** A bar and a percentage with the exact fraction, as the Morne Plaine table shows them. */
export function chanceCell(o) {
  const frac = o.num != null && o.den != null ? ` <span class="muted">${esc(o.num)}/${esc(o.den)}</span>` : '';
  return `<td class="p"><span class="bar" style="width:${Math.max(2, o.p * 60).toFixed(0)}px"></span> ${pct(o.p)}${frac}</td>`;
}
