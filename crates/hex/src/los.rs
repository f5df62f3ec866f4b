//! Exact line of sight geometry, in integers only.
//!
//! A line of sight runs from the centre of one hex to the centre of another. Rules
//! differ on what blocks it, but they agree on the geometry: which hexes the line
//! passes through, and where it runs exactly along a hexside, so that a ruleset can
//! say "a line along a hexside is blocked only if the hexes on both sides block".
//! Floating-point interpolation gets exactly those lines wrong (it drops them on an
//! arbitrary side), so this module uses no floats.
//!
//! # Method
//!
//! For a point `p` in cube coordinates take `X = p.q - p.r`, `Y = p.r - p.s`,
//! `Z = p.s - p.q` (so `X + Y + Z = 0`). The cell of hex `h` is the set of points
//! with `|X - X(h)| <= 1`, `|Y - Y(h)| <= 1` and `|Z - Z(h)| <= 1`. The lines on
//! which `X`, `Y` or `Z` is an integer cut the plane into small triangles; each hex
//! is the six triangles around its centre, and each triangle lies in exactly one
//! hex: the one whose centre is the triangle's corner with `X ≡ Y (mod 3)`.
//!
//! Along the segment `X`, `Y` and `Z` change linearly from integer values, so the
//! segment crosses the integer lines of each family at evenly spaced parameters
//! `i / |ΔX|`, `j / |ΔY|`, `k / |ΔZ|`. Merging the three sequences (comparing the
//! fractions by cross-multiplication) visits the triangles in order; naming each
//! triangle's hex and dropping repeats gives the hexes crossed. When one of `ΔX`,
//! `ΔY`, `ΔZ` is zero the segment lies on a grid line and runs alternately through
//! hexes (corner to centre to corner) and along hexsides. A segment through a hex
//! corner goes on into the hex on its side of the corner; a hex it only touches at
//! that corner is never reported.

use crate::{Hex, Hexside};

/// One step of a centre-to-centre line.
///
/// ```
/// use grognard_hex::{line, Hex, LineStep};
/// // Along a hexside: origin, the hexside between (0,1) and (1,0), then (1,1).
/// assert_eq!(
///     line(Hex::ORIGIN, Hex::new(1, 1)),
///     [
///         LineStep::Hex(Hex::ORIGIN),
///         LineStep::Edge(Hex::new(0, 1), Hex::new(1, 0)),
///         LineStep::Hex(Hex::new(1, 1)),
///     ]
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum LineStep {
    /// The line passes through the interior of this hex.
    Hex(Hex),
    /// The line runs exactly along the hexside between these two hexes, for a
    /// stretch of positive length. The pair is in the order of [`Hexside::hexes`],
    /// so it does not depend on which way the line is drawn.
    Edge(Hex, Hex),
}

impl LineStep {
    /// The hexside of an [`LineStep::Edge`] step; `None` for a hex.
    ///
    /// ```
    /// use grognard_hex::{Direction, Hex, Hexside, LineStep};
    /// let step = LineStep::Edge(Hex::new(0, 1), Hex::new(1, 0));
    /// assert_eq!(step.hexside(), Some(Hexside::new(Hex::new(1, 0), Direction::SW)));
    /// assert_eq!(LineStep::Hex(Hex::ORIGIN).hexside(), None);
    /// ```
    #[must_use]
    pub fn hexside(self) -> Option<Hexside> {
        match self {
            LineStep::Hex(_) => None,
            LineStep::Edge(a, b) => Hexside::between(a, b),
        }
    }
}

/// The steps of the centre-to-centre line from `a` to `b`, in order from `a`:
/// first `Hex(a)`, last `Hex(b)` (a single `Hex(a)` when `a == b`).
///
/// Consecutive steps are adjacent: two hexes are neighbours, and a hexside lies
/// between two hexes that both border it. `line(b, a)` is `line(a, b)` reversed.
///
/// ```
/// use grognard_hex::{line, Hex, LineStep};
/// let steps = line(Hex::ORIGIN, Hex::new(3, 0));
/// let hexes: Vec<Hex> = steps
///     .iter()
///     .map(|s| match s {
///         LineStep::Hex(h) => *h,
///         LineStep::Edge(..) => unreachable!("no hexside run along an axis"),
///     })
///     .collect();
/// assert_eq!(hexes, [Hex::new(0, 0), Hex::new(1, 0), Hex::new(2, 0), Hex::new(3, 0)]);
/// ```
#[must_use]
pub fn line(a: Hex, b: Hex) -> Vec<LineStep> {
    let mut out = Vec::new();
    line_into(a, b, &mut out);
    out
}

/// [`line`] into a buffer: clears `out`, then fills it, so that a caller tracing
/// many lines reuses one allocation.
///
/// ```
/// use grognard_hex::{los::line_into, Hex, LineStep};
/// let mut buf = Vec::new();
/// line_into(Hex::ORIGIN, Hex::new(0, 2), &mut buf);
/// assert_eq!(buf.len(), 3);
/// line_into(Hex::ORIGIN, Hex::ORIGIN, &mut buf);
/// assert_eq!(buf, [LineStep::Hex(Hex::ORIGIN)]);
/// ```
pub fn line_into(a: Hex, b: Hex, out: &mut Vec<LineStep>) {
    out.clear();
    out.extend(steps(a, b));
}

/// [`line`] as an iterator, which allocates nothing.
///
/// ```
/// use grognard_hex::{los::steps, Hex};
/// assert_eq!(steps(Hex::ORIGIN, Hex::new(2, -1)).count(), 3);
/// ```
#[must_use]
pub fn steps(a: Hex, b: Hex) -> LineSteps {
    LineSteps::new(a, b)
}

/// Whether `b` can be seen from `a` when `blocks` says which hexes block sight.
///
/// The hexes the line passes through, other than `a` and `b`, block when `blocks`
/// says so; where the line runs along a hexside, it is blocked only if the hexes on
/// both sides block. `blocks` is called at most once per hex, in order from `a`,
/// and not after the first blocking step.
///
/// ```
/// use grognard_hex::{los::visible, Hex};
/// let wood = Hex::new(1, 0);
/// // Straight through the wood: blocked.
/// assert!(!visible(Hex::ORIGIN, Hex::new(2, 0), |h| h == wood));
/// // Along the hexside between the wood and open ground: seen.
/// assert!(visible(Hex::ORIGIN, Hex::new(1, 1), |h| h == wood));
/// // Along the hexside between two woods: blocked.
/// assert!(!visible(Hex::ORIGIN, Hex::new(1, 1), |h| h == wood || h == Hex::new(0, 1)));
/// ```
pub fn visible(a: Hex, b: Hex, mut blocks: impl FnMut(Hex) -> bool) -> bool {
    for step in steps(a, b) {
        let blocked = match step {
            LineStep::Hex(h) => h != a && h != b && blocks(h),
            LineStep::Edge(h1, h2) => blocks(h1) && blocks(h2),
        };
        if blocked {
            return false;
        }
    }
    true
}

/// One family of grid lines (`X`, `Y` or `Z` an integer) as the segment crosses it.
#[derive(Clone, Copy, Debug)]
struct Family {
    /// The value at the start of the segment (an integer: `a` is a hex centre).
    start: i64,
    /// The sign of the change along the segment: -1, 0 or 1.
    sign: i64,
    /// The size of the change, `|Δ|`; the crossings are at `i / span`, `0 < i < span`.
    span: u64,
}

impl Family {
    fn new(start: i64, end: i64) -> Family {
        Family {
            start,
            sign: (end - start).signum(),
            span: end.abs_diff(start),
        }
    }

    /// `floor` of the value on the open interval after `crossed` crossings.
    fn floor(self, crossed: u64) -> i64 {
        let crossed = i64::try_from(crossed).expect("a crossing count fits in i64");
        if self.sign > 0 {
            self.start + crossed
        } else {
            self.start - crossed - 1
        }
    }

    /// Whether a crossing remains after `crossed` of them.
    fn has_next(self, crossed: u64) -> bool {
        crossed + 1 < self.span
    }
}

/// Iterator over the steps of a centre-to-centre line; see [`steps`].
#[derive(Clone, Debug)]
pub struct LineSteps {
    families: [Family; 3],
    /// Crossings passed in each family: the current open interval of the segment
    /// lies between the last of them and the next.
    crossed: [u64; 3],
    /// The family whose value stays constant (the line runs along its grid line).
    constant: Option<usize>,
    last: Option<LineStep>,
    done: bool,
}

/// The lattice point `(X, Y, Z)` as a hex, when it is a hex centre.
fn centre(px: i64, py: i64, pz: i64) -> Option<Hex> {
    if (px - py).rem_euclid(3) != 0 {
        return None;
    }
    let q = (px - pz) / 3;
    let r = (py - px) / 3;
    Some(Hex::new(
        i32::try_from(q).expect("a hex on the line lies between its ends"),
        i32::try_from(r).expect("a hex on the line lies between its ends"),
    ))
}

/// `X`, `Y`, `Z` of a hex centre.
fn xyz(h: Hex) -> [i64; 3] {
    let (q, r, s) = (i64::from(h.q), i64::from(h.r), i64::from(h.s()));
    [q - r, r - s, s - q]
}

impl LineSteps {
    fn new(a: Hex, b: Hex) -> LineSteps {
        let (pa, pb) = (xyz(a), xyz(b));
        let families = [0, 1, 2].map(|i| Family::new(pa[i], pb[i]));
        let constant = if a == b {
            None
        } else {
            families.iter().position(|f| f.sign == 0)
        };
        LineSteps {
            families,
            crossed: [0; 3],
            constant,
            last: None,
            done: false,
        }
    }

    /// The step of the current open interval of the segment.
    fn current(&self) -> LineStep {
        let f = |i: usize| self.families[i].floor(self.crossed[i]);
        match self.constant {
            None => {
                // Inside one small triangle; its hex is the one whose centre is the
                // triangle's corner with X ≡ Y (mod 3).
                let (fx, fy, fz) = (f(0), f(1), f(2));
                let corners = if fx + fy + fz == -1 {
                    [(fx + 1, fy, fz), (fx, fy + 1, fz), (fx, fy, fz + 1)]
                } else {
                    [
                        (fx, fy + 1, fz + 1),
                        (fx + 1, fy, fz + 1),
                        (fx + 1, fy + 1, fz),
                    ]
                };
                let hex = corners
                    .iter()
                    .find_map(|&(x, y, z)| centre(x, y, z))
                    .expect("every triangle has one hex-centre corner");
                LineStep::Hex(hex)
            }
            Some(c) => {
                // On the grid line where family `c` is constant, between two lattice
                // points. Work in the rotated frame (A, B, C) with A constant.
                let (ib, ic) = ((c + 1) % 3, (c + 2) % 3);
                let a = self.families[c].start;
                let (fb, fc) = (f(ib), f(ic));
                let point = |pa: i64, pb: i64, pc: i64| {
                    let mut p = [0; 3];
                    p[c] = pa;
                    p[ib] = pb;
                    p[ic] = pc;
                    centre(p[0], p[1], p[2])
                };
                if let Some(h) = point(a, fb, fc + 1).or_else(|| point(a, fb + 1, fc)) {
                    // A half diagonal of a hex, from its centre to a corner.
                    LineStep::Hex(h)
                } else {
                    // Corner to corner: a hexside, between the hexes on either side.
                    let h1 = point(a + 1, fb, fc).expect("hex beside a hexside");
                    let h2 = point(a - 1, fb + 1, fc + 1).expect("hex beside a hexside");
                    let (h1, h2) = Hexside::between(h1, h2)
                        .expect("the hexes beside a hexside are adjacent")
                        .hexes();
                    LineStep::Edge(h1, h2)
                }
            }
        }
    }

    /// Moves to the next open interval; false when the segment has ended.
    fn advance(&mut self) -> bool {
        // The next crossing is the least of (crossed + 1) / span over the families.
        let mut best: Option<(u64, u64)> = None;
        for i in 0..3 {
            let fam = self.families[i];
            if !fam.has_next(self.crossed[i]) {
                continue;
            }
            let cand = (self.crossed[i] + 1, fam.span);
            best = match best {
                Some(b) if frac_cmp(b, cand).is_le() => Some(b),
                _ => Some(cand),
            };
        }
        let Some(best) = best else {
            return false;
        };
        for i in 0..3 {
            let fam = self.families[i];
            if fam.has_next(self.crossed[i])
                && frac_cmp((self.crossed[i] + 1, fam.span), best).is_eq()
            {
                self.crossed[i] += 1;
            }
        }
        true
    }
}

/// Compares `n1 / d1` with `n2 / d2` for positive denominators, exactly.
fn frac_cmp((n1, d1): (u64, u64), (n2, d2): (u64, u64)) -> std::cmp::Ordering {
    // Spans reach 2^33 for extreme coordinates, so the products need 128 bits.
    (u128::from(n1) * u128::from(d2)).cmp(&(u128::from(n2) * u128::from(d1)))
}

impl Iterator for LineSteps {
    type Item = LineStep;

    fn next(&mut self) -> Option<LineStep> {
        while !self.done {
            let step = self.current();
            if !self.advance() {
                self.done = true;
            }
            if self.last != Some(step) {
                self.last = Some(step);
                return Some(step);
            }
        }
        None
    }
}

impl std::iter::FusedIterator for LineSteps {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Direction;

    fn hexes(steps: &[LineStep]) -> Vec<Hex> {
        steps
            .iter()
            .map(|s| match s {
                LineStep::Hex(h) => *h,
                LineStep::Edge(..) => panic!("unexpected hexside run in {steps:?}"),
            })
            .collect()
    }

    #[test]
    fn same_hex_is_one_step() {
        let h = Hex::new(4, -7);
        assert_eq!(line(h, h), [LineStep::Hex(h)]);
    }

    #[test]
    fn neighbours_are_two_steps() {
        for d in Direction::ALL {
            let b = Hex::ORIGIN.neighbor(d);
            assert_eq!(
                line(Hex::ORIGIN, b),
                [LineStep::Hex(Hex::ORIGIN), LineStep::Hex(b)]
            );
        }
    }

    #[test]
    fn straight_lines_along_the_six_directions() {
        for d in Direction::ALL {
            let mut expect = vec![Hex::new(3, 2)];
            for _ in 0..7 {
                expect.push(expect.last().unwrap().neighbor(d));
            }
            let got = line(expect[0], expect[7]);
            assert_eq!(hexes(&got), expect, "direction {d:?}");
        }
    }

    #[test]
    fn diagonal_lines_alternate_hexes_and_hexsides() {
        // Cube (1, 1, -2): axial (1, 1). Each step crosses a hexside lengthwise.
        let got = line(Hex::ORIGIN, Hex::new(2, 2));
        assert_eq!(
            got,
            [
                LineStep::Hex(Hex::new(0, 0)),
                LineStep::Edge(Hex::new(0, 1), Hex::new(1, 0)),
                LineStep::Hex(Hex::new(1, 1)),
                LineStep::Edge(Hex::new(1, 2), Hex::new(2, 1)),
                LineStep::Hex(Hex::new(2, 2)),
            ]
        );
        // All six diagonal directions, both ways round.
        let diagonals = [(1, 1), (2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2)];
        for (dq, dr) in diagonals {
            let b = Hex::new(3 * dq, 3 * dr);
            let steps = line(Hex::ORIGIN, b);
            assert_eq!(steps.len(), 7, "diagonal ({dq}, {dr}): {steps:?}");
            for (i, s) in steps.iter().enumerate() {
                let step = i32::try_from(i / 2).unwrap();
                match s {
                    LineStep::Hex(h) => {
                        assert_eq!(i % 2, 0);
                        assert_eq!(*h, Hex::new(step * dq, step * dr));
                    }
                    LineStep::Edge(h1, h2) => {
                        assert_eq!(i % 2, 1);
                        let from = Hex::new(step * dq, step * dr);
                        assert_eq!(h1.distance(from), 1);
                        assert_eq!(h2.distance(from), 1);
                        assert_eq!(h1.distance(*h2), 1);
                        assert_eq!(Hexside::between(*h1, *h2).unwrap().hexes(), (*h1, *h2));
                    }
                }
            }
            let mut back = line(b, Hex::ORIGIN);
            back.reverse();
            assert_eq!(back, steps);
        }
    }

    #[test]
    fn line_through_corners_goes_on_into_the_hex_on_its_side() {
        // Axial (5, -1) is cube (5, -1, -4): the line passes exactly through the
        // corners at one third and two thirds of the way, where three hexes meet; the
        // third hex at each corner ((1, -1), then (4, 0)) is touched only there and
        // is not reported.
        let got = hexes(&line(Hex::ORIGIN, Hex::new(5, -1)));
        assert_eq!(
            got,
            [
                Hex::new(0, 0),
                Hex::new(1, 0),
                Hex::new(2, 0),
                Hex::new(3, -1),
                Hex::new(4, -1),
                Hex::new(5, -1),
            ]
        );
        let mut back = hexes(&line(Hex::new(5, -1), Hex::ORIGIN));
        back.reverse();
        assert_eq!(back, got);
    }

    #[test]
    fn line_between_two_hexes_two_apart_off_axis() {
        // (0,0) to (2,-1) runs along a diagonal: a hexside between two hexes.
        assert_eq!(
            line(Hex::ORIGIN, Hex::new(2, -1)),
            [
                LineStep::Hex(Hex::ORIGIN),
                LineStep::Edge(Hex::new(1, -1), Hex::new(1, 0)),
                LineStep::Hex(Hex::new(2, -1)),
            ]
        );
        // (0,0) to (3,-1) is not a diagonal: it crosses interiors only.
        let got = hexes(&line(Hex::ORIGIN, Hex::new(3, -1)));
        assert_eq!(got.len(), 4, "{got:?}");
    }

    #[test]
    fn visible_checks_only_intermediate_hexes() {
        let a = Hex::ORIGIN;
        let b = Hex::new(3, 0);
        assert!(visible(a, b, |h| h == a || h == b));
        assert!(!visible(a, b, |h| h == Hex::new(2, 0)));
        assert!(visible(a, a, |_| true));
    }

    #[test]
    fn extreme_coordinates_do_not_overflow() {
        let a = Hex::new(i32::MIN / 2, i32::MAX / 2);
        let b = Hex::new(i32::MIN / 2 + 7, i32::MAX / 2 - 3);
        let steps = line(a, b);
        assert_eq!(steps.first(), Some(&LineStep::Hex(a)));
        assert_eq!(steps.last(), Some(&LineStep::Hex(b)));
    }
}
