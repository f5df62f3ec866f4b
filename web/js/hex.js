// Hex geometry as the API's board describes it (docs/HTTP-API.md).
//
// Axial coordinates (q, r). Direction numbering 0..5 = (+1,-1), (+1,0), (0,+1), (-1,+1),
// (-1,0), (0,-1): on a flat-top map NE, SE, S, SW, NW, N.

export const SQRT3 = Math.sqrt(3);
export const DIRS = [
  [1, -1],
  [1, 0],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [0, -1],
];
export const FLAT_NAMES = ['NE', 'SE', 'S', 'SW', 'NW', 'N'];
export const POINTY_NAMES = ['NE', 'E', 'SE', 'SW', 'W', 'NW'];

/** The centre of a hex of circumradius `s`. */
export function center(q, r, s, orientation) {
  if (orientation === 'pointy_top') return [SQRT3 * s * (q + r / 2), 1.5 * s * r];
  return [1.5 * s * q, SQRT3 * s * (r + q / 2)];
}

/** The six corners of a hex around (x, y). */
export function corners(x, y, s, orientation) {
  const off = orientation === 'pointy_top' ? -30 : 0;
  const out = [];
  for (let i = 0; i < 6; i++) {
    const a = ((60 * i + off) * Math.PI) / 180;
    out.push([x + s * Math.cos(a), y + s * Math.sin(a)]);
  }
  return out;
}

export function distance(a, b) {
  const dq = a.q - b.q;
  const dr = a.r - b.r;
  return (Math.abs(dq) + Math.abs(dr) + Math.abs(dq + dr)) / 2;
}

/** The direction index from `a` to its neighbour `b`, or -1. */
export function direction(a, b) {
  const dq = b.q - a.q;
  const dr = b.r - a.r;
  return DIRS.findIndex(([x, y]) => x === dq && y === dr);
}

export const pts = (ps) => ps.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');
