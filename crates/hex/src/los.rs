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
//! with `|X - X(h)| <= 1`, `|Y - Y(h)| <= 1` and `|Z - Z(h)| <= 1`: each of the
//! three families of parallel hexsides is where one of these bounds is tight.
//!
//! Along the segment `X`, `Y` and `Z` change linearly, so the parameter at which
//! the segment leaves the current hex through each family's hexside is a fraction
//! with the span `|ΔX|` (`|ΔY|`, `|ΔZ|`) as denominator. Scaled by the product of
//! the spans these are integers, and stepping into a neighbour changes each of them
//! by a fixed amount; the walk compares integers and adds, nothing else. Where the
//! segment leaves through a corner (two hexsides at once) it goes on into the hex
//! on its side of the corner: the one across the family whose value moves the
//! other way from the other two; the third hex at that corner, touched only there,
//! is never reported.
//!
//! When one of `ΔX`, `ΔY`, `ΔZ` is zero the segment is parallel to a family of
//! hexsides and runs from centre to corner to corner to centre: through a hex, along
//! a hexside, through the next hex, and so on (the six "diagonal" directions).

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

/// [`line()`] into a buffer: clears `out`, then fills it, so that a caller tracing
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

/// [`line()`] as an iterator, which allocates nothing.
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

/// Iterator over the steps of a centre-to-centre line; see [`steps`].
#[derive(Clone, Debug)]
pub struct LineSteps {
    walk: Walk,
}

#[derive(Clone, Debug)]
enum Walk {
    Done,
    /// The line from a hex to itself.
    Single(Hex),
    /// Parallel to a family of hexsides: hexes `at`, `at + unit`, ... up to `end`,
    /// with the hexside between `h + flank.0` and `h + flank.1` after each `h`.
    Diagonal {
        at: Hex,
        end: Hex,
        unit: Hex,
        flank: (Hex, Hex),
        edge_next: bool,
    },
    /// Hex to hex, keys in 64 bits (any line up to about 200,000 hexes long).
    Cells64(Cells<i64>),
    /// Hex to hex, keys in 128 bits (any line between `i32` coordinates).
    Cells128(Cells<i128>),
}

/// The hex-to-hex walk of a line parallel to no hexside.
#[derive(Clone, Debug)]
struct Cells<K> {
    at: Hex,
    end: Hex,
    /// For each family (`X`, `Y`, `Z`): twice the parameter at which the segment
    /// leaves `at` through that family's hexside, scaled by the product of the
    /// spans, plus 1 for the two families that lose ties (see [`Cells::new`]).
    key: [K; 3],
    /// `delta[f]`: what crossing family `f`'s hexside adds to each key.
    delta: [[K; 3]; 3],
    /// `step[f]`: the neighbour across family `f`'s hexside, as an axial offset.
    step: [Hex; 3],
    started: bool,
}

/// `X`, `Y`, `Z` of a hex centre.
fn xyz(h: Hex) -> [i128; 3] {
    let (q, r, s) = (i128::from(h.q), i128::from(h.r), i128::from(h.s()));
    [q - r, r - s, s - q]
}

impl<K: Copy + Ord + std::ops::AddAssign + TryFrom<i128>> Cells<K> {
    /// The walk from `a` to `b` when `sign` (of `ΔX`, `ΔY`, `ΔZ`) has no zero, or
    /// `None` when the keys do not fit in `K`.
    fn new(a: Hex, b: Hex, sign: [i128; 3], span: [i128; 3]) -> Option<Cells<K>> {
        // Leaving hex h through the hexside of family f (where its value reaches
        // X(h) + sign) happens at t = (u_f + 1) / span_f with u_f = sign_f (X(h) - X(a)),
        // that is at (u_f + 1) * gap_f once scaled by the product of the spans.
        // Crossing family f adds 2 to u_f and -sign_f * sign_g to each other u_g.
        let product = span[0] * span[1] * span[2];
        let gap = [0, 1, 2].map(|f| product / span[f]);
        // At a corner two families tie, with opposite signs; the segment goes on
        // across the one whose sign differs from the third family's, which is the
        // family whose sign differs from both others. Doubling the keys and adding
        // 1 to the other two breaks every tie its way.
        let lonely = if sign[0] == sign[1] {
            2
        } else {
            usize::from(sign[0] == sign[2])
        };
        let tie = |f: usize| i128::from(f != lonely);
        // The largest key reached is below 2 * (product + 3 * max gap) + 1.
        K::try_from(4 * product + 8 * gap.iter().max()?).ok()?;
        let fit = |v: i128| K::try_from(v).ok().expect("within the bound checked above");
        let key = [0, 1, 2].map(|f| fit(2 * gap[f] + tie(f)));
        let delta = [0, 1, 2].map(|f| {
            [0, 1, 2].map(|g| {
                fit(if f == g {
                    4 * gap[g]
                } else {
                    -2 * sign[f] * sign[g] * gap[g]
                })
            })
        });
        let step = [0, 1, 2].map(|f| {
            // Across +X: axial (1, -1); +Y: (0, 1); +Z: (-1, 0); minus: opposite.
            let (q, r) = [(1, -1), (0, 1), (-1, 0)][f];
            if sign[f] > 0 {
                Hex::new(q, r)
            } else {
                Hex::new(-q, -r)
            }
        });
        Some(Cells {
            at: a,
            end: b,
            key,
            delta,
            step,
            started: false,
        })
    }

    #[inline]
    fn next(&mut self) -> Option<Hex> {
        if !self.started {
            self.started = true;
            return Some(self.at);
        }
        if self.at == self.end {
            return None;
        }
        let [k0, k1, k2] = self.key;
        let f = if k0 < k1 {
            if k0 < k2 {
                0
            } else {
                2
            }
        } else if k1 < k2 {
            1
        } else {
            2
        };
        for (k, d) in self.key.iter_mut().zip(self.delta[f]) {
            *k += d;
        }
        self.at = self.at + self.step[f];
        Some(self.at)
    }
}

impl LineSteps {
    fn new(a: Hex, b: Hex) -> LineSteps {
        if a == b {
            return LineSteps {
                walk: Walk::Single(a),
            };
        }
        let (pa, pb) = (xyz(a), xyz(b));
        let delta = [0, 1, 2].map(|i| pb[i] - pa[i]);
        let sign = delta.map(i128::signum);
        let walk = if sign.contains(&0) {
            // Parallel to a family of hexsides: b - a is a multiple of a diagonal,
            // the sum of two neighbouring directions.
            let dq = i64::from(b.q) - i64::from(a.q);
            let dr = i64::from(b.r) - i64::from(a.r);
            let half = dq.abs().max(dr.abs()).max((dq + dr).abs()) / 2;
            let unit = Hex::new(
                i32::try_from(dq / half).expect("a unit step"),
                i32::try_from(dr / half).expect("a unit step"),
            );
            let flank = crate::Direction::ALL
                .iter()
                .map(|d| {
                    let (q, r) = d.delta();
                    Hex::new(q, r)
                })
                .find(|&d1| (unit - d1).distance(Hex::ORIGIN) == 1)
                .map(|d1| (d1, unit - d1))
                .expect("a diagonal is the sum of two neighbouring directions");
            Walk::Diagonal {
                at: a,
                end: b,
                unit,
                flank,
                edge_next: false,
            }
        } else {
            let span = delta.map(i128::abs);
            match Cells::<i64>::new(a, b, sign, span) {
                Some(c) => Walk::Cells64(c),
                None => Walk::Cells128(
                    Cells::new(a, b, sign, span).expect("keys of i32 lines fit in i128"),
                ),
            }
        };
        LineSteps { walk }
    }
}

impl Iterator for LineSteps {
    type Item = LineStep;

    #[inline]
    fn next(&mut self) -> Option<LineStep> {
        match &mut self.walk {
            Walk::Done => None,
            Walk::Single(a) => {
                let a = *a;
                self.walk = Walk::Done;
                Some(LineStep::Hex(a))
            }
            Walk::Cells64(c) => c.next().map(LineStep::Hex),
            Walk::Cells128(c) => c.next().map(LineStep::Hex),
            Walk::Diagonal {
                at,
                end,
                unit,
                flank,
                edge_next,
            } => {
                if *edge_next {
                    *edge_next = false;
                    let (h1, h2) = (*at + flank.0, *at + flank.1);
                    *at = *at + *unit;
                    // `Hexside::hexes` order is `Ord` order: the owner is the hex
                    // from which the other lies in direction 0, 1 or 2.
                    Some(if h1 < h2 {
                        LineStep::Edge(h1, h2)
                    } else {
                        LineStep::Edge(h2, h1)
                    })
                } else {
                    let h = *at;
                    if h == *end {
                        self.walk = Walk::Done;
                    } else {
                        *edge_next = true;
                    }
                    Some(LineStep::Hex(h))
                }
            }
        }
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
    fn narrow_and_wide_keys_walk_alike() {
        for (a, b) in [
            (Hex::new(-40, 17), Hex::new(60, -20)),
            (Hex::new(3, 3), Hex::new(-4, 9)),
            (Hex::ORIGIN, Hex::new(5, -1)),
            (Hex::new(7, -2), Hex::new(-30, -1)),
        ] {
            let (pa, pb) = (xyz(a), xyz(b));
            let delta = [0, 1, 2].map(|i| pb[i] - pa[i]);
            let (sign, span) = (delta.map(i128::signum), delta.map(i128::abs));
            let mut narrow = Cells::<i64>::new(a, b, sign, span).unwrap();
            let mut wide = Cells::<i128>::new(a, b, sign, span).unwrap();
            let narrow: Vec<Hex> = std::iter::from_fn(|| narrow.next()).collect();
            let wide: Vec<Hex> = std::iter::from_fn(|| wide.next()).collect();
            assert_eq!(narrow, wide);
            assert_eq!(hexes(&line(a, b)), narrow);
        }
    }

    #[test]
    fn long_lines_use_wide_keys() {
        let a = Hex::new(-1_000_000, 3);
        let b = Hex::new(1_000_000, -700_001);
        let steps = steps(a, b);
        assert!(matches!(steps.walk, Walk::Cells128(_)));
        let mut prev = None;
        let mut n = 0;
        for s in steps {
            let LineStep::Hex(h) = s else {
                panic!("no hexside run off the diagonals")
            };
            if let Some(p) = prev {
                assert_eq!(h.distance(p), 1);
            } else {
                assert_eq!(h, a);
            }
            prev = Some(h);
            n += 1;
        }
        assert_eq!(prev, Some(b));
        assert!(n > 2_000_000);
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
