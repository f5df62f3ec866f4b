// The symbol printed in the middle of a counter, by kind: NATO-like boxes for the arms of
// an army (infantry's cross, cavalry's slash, artillery's dot, and their mounted,
// camel and elephant kinds), a general's flag, and for a skirmish character the weapon it
// fights with (sword, spear, axe, two-handed weapon, dagger) or the missile it shoots
// (bow, sling). For people, never for rules.

const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

// The weapon and missile glyphs, drawn in the 22 x 14 box around (0, 0).
const WEAPONS = {
  sword: 'M0 -6V4M-4 2.5h8M0 4v3',
  two_handed: 'M-8 6L7 -6M-5 0.5l4 4M-8 6l-1.5 1.5M2.5 -4.5l4 1',
  spear: 'M-9 6L8 -5M8 -5l-4.5 0.3M8 -5l-0.3 4.5',
  axe: 'M-6 7L5 -5M2 -7q7 1 5 7z',
  dagger: 'M0 -3V4M-3 2h6M0 4v2.5',
  bow: 'M-4 -7q10 7 0 14M-4 -7V7M-7 0h10',
  sling: 'M-8 -5L0 3L8 -5M-1.5 3a1.5 1.5 0 1 0 3 0a1.5 1.5 0 1 0 -3 0',
};

/** The names this module draws a glyph of its own for (the rest get their first letters). */
export const KINDS = ['infantry', 'cavalry', 'artillery', 'foot_artillery', 'horse_artillery', 'camelry', 'camel_artillery', 'elephants', 'elephant_artillery', 'leader', 'general', 'officer', 'unit', 'character', 'figure', 'armour', 'armor', 'tank', ...Object.keys(WEAPONS)];

/** Draws the symbol of `kind` into `g`; a leader's command `stripes` below its flag. */
export function symbol(g, kind, stripes) {
  const box = () => el('rect', { x: -11, y: -7, width: 22, height: 14, class: 'sym-box' }, g);
  const line = (d) => el('path', { d, class: 'sym-line' }, g);
  const dot = (cx = 0, cy = 0) => el('circle', { cx, cy, r: 3.2, class: 'sym-fill' }, g);
  // A camel's hump and an elephant's trunk, under the arm's sign.
  const hump = () => line('M-7 6q3.5 -6 7 0q3.5 -6 7 0');
  const trunk = () => line('M-6 -4q5 -3 8 1q2 4 -2 9');
  g.setAttribute('data-glyph', kind || '');
  switch (kind) {
    case 'infantry':
      box();
      line('M-11 -7L11 7M-11 7L11 -7');
      break;
    case 'cavalry':
      box();
      line('M-11 7L11 -7');
      break;
    case 'artillery':
    case 'foot_artillery':
      box();
      dot();
      break;
    case 'horse_artillery':
      box();
      line('M-11 7L11 -7');
      dot();
      break;
    case 'camelry':
      box();
      line('M-11 7L11 -7');
      hump();
      break;
    case 'camel_artillery':
      box();
      hump();
      dot(0, -2);
      break;
    case 'elephants':
      box();
      trunk();
      break;
    case 'elephant_artillery':
      box();
      trunk();
      dot(-5, 3);
      break;
    case 'leader':
    case 'general':
    case 'officer':
      // A general's flag on a staff, with the command stripes beneath.
      line('M-6 8V-8');
      el('path', { d: 'M-6 -8h12l-3 4l3 4h-12z', class: 'sym-flag' }, g);
      for (let i = 0; i < (stripes || 0); i++) el('rect', { x: -2 + i * 5, y: 3, width: 3.2, height: 6, class: 'sym-fill' }, g);
      break;
    case 'unit':
    case 'character':
    case 'figure':
      // A skirmisher: head and shoulders.
      box();
      el('circle', { cx: 0, cy: -2, r: 2.6, class: 'sym-fill' }, g);
      el('path', { d: 'M-6 7q6 -9 12 0z', class: 'sym-fill' }, g);
      break;
    case 'armour':
    case 'armor':
    case 'tank':
      box();
      el('rect', { x: -7, y: -4, width: 14, height: 8, rx: 4, class: 'sym-line', fill: 'none' }, g);
      break;
    default: {
      box();
      if (WEAPONS[kind]) {
        line(WEAPONS[kind]);
        break;
      }
      const t = el('text', { x: 0, y: 3, class: 'sym-text' }, g);
      t.textContent = String(kind || '?').slice(0, 3).toUpperCase();
    }
  }
}
