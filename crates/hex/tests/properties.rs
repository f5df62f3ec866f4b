//! Property tests of the hex geometry: each property checked against an independent
//! statement of it (brute force where there is one).

#[path = "support/splitmix.rs"]
mod splitmix;

use grognard_hex::los::{line, visible};
use grognard_hex::search::{Search, Step};
use grognard_hex::{
    Direction, Grid, Hex, Hexside, LabelError, LineStep, MapShape, Orientation, Shove, SideGrid,
};
use proptest::prelude::*;
use splitmix::SplitMix;
use std::cmp::Ordering;

fn hex_in(span: i32) -> impl Strategy<Value = Hex> {
    (-span..=span, -span..=span).prop_map(|(q, r)| Hex::new(q, r))
}

fn direction() -> impl Strategy<Value = Direction> {
    (0usize..6).prop_map(Direction::from_index)
}

fn layout() -> impl Strategy<Value = (Orientation, Shove)> {
    (
        prop_oneof![Just(Orientation::FlatTop), Just(Orientation::PointyTop)],
        prop_oneof![Just(Shove::Even), Just(Shove::Odd)],
    )
}

// ---------------------------------------------------------------------------------
// Distance, rings, ranges
// ---------------------------------------------------------------------------------

proptest! {
    #[test]
    fn distance_is_a_metric(a in hex_in(1000), b in hex_in(1000), c in hex_in(1000)) {
        prop_assert_eq!(a.distance(a), 0);
        prop_assert_eq!(a.distance(b) == 0, a == b);
        prop_assert_eq!(a.distance(b), b.distance(a));
        prop_assert!(a.distance(c) <= a.distance(b) + b.distance(c));
    }

    #[test]
    fn distance_is_the_length_of_a_shortest_walk(a in hex_in(40), b in hex_in(40)) {
        // One step changes the distance to b by at most one, and some step always
        // brings it one closer: so the distance is the fewest steps from a to b.
        let mut here = a;
        let mut steps = 0;
        while here != b {
            let d = here.distance(b);
            for n in here.neighbors() {
                prop_assert!(n.distance(b).abs_diff(d) <= 1);
            }
            here = here
                .neighbors()
                .into_iter()
                .find(|n| n.distance(b) + 1 == d)
                .expect("some neighbour is closer");
            steps += 1;
        }
        prop_assert_eq!(steps, a.distance(b));
    }

    #[test]
    fn rings_and_ranges_have_the_right_sizes(centre in hex_in(1000), radius in 0u32..25) {
        let ring = centre.ring(radius);
        prop_assert_eq!(ring.len(), if radius == 0 { 1 } else { 6 * radius as usize });
        prop_assert!(ring.iter().all(|h| h.distance(centre) == radius));
        let mut distinct = ring.clone();
        distinct.sort();
        distinct.dedup();
        prop_assert_eq!(distinct.len(), ring.len());
        // Consecutive ring hexes are adjacent, all the way round.
        if radius > 0 {
            for (i, h) in ring.iter().enumerate() {
                prop_assert_eq!(h.distance(ring[(i + 1) % ring.len()]), 1);
            }
        }

        let range = centre.range(radius);
        prop_assert_eq!(range.len(), (3 * radius * (radius + 1) + 1) as usize);
        prop_assert!(range.iter().all(|h| h.distance(centre) <= radius));
        let mut range_sorted = range.clone();
        range_sorted.sort();
        range_sorted.dedup();
        prop_assert_eq!(range_sorted.len(), range.len());
        let mut rings: Vec<Hex> = (0..=radius).flat_map(|r| centre.ring(r)).collect();
        rings.sort();
        prop_assert_eq!(rings, range_sorted);
    }
}

// ---------------------------------------------------------------------------------
// Labels
// ---------------------------------------------------------------------------------

proptest! {
    #[test]
    fn labels_round_trip(
        (orientation, shove) in layout(),
        cols in 1u32..=150,
        rows in 1u32..=150,
        pick in any::<(u32, u32)>(),
    ) {
        let map = MapShape::new(orientation, shove, cols, rows).unwrap();
        let w = map.label_digits();
        prop_assert_eq!(w, if cols > 99 || rows > 99 { 3 } else { 2 });
        let (c, r) = (pick.0 % cols, pick.1 % rows);

        // label -> hex -> label
        let label = format!("{:0w$}{:0w$}", c + 1, r + 1);
        let hex = map.parse_label(&label).unwrap();
        prop_assert_eq!(map.label(hex), Some(label.clone()));
        // hex -> label -> hex, and the dense index agrees.
        prop_assert_eq!(map.parse_label(&map.label(hex).unwrap()), Ok(hex));
        let i = map.index(hex).unwrap();
        prop_assert_eq!(i, (r * cols + c) as usize);
        prop_assert_eq!(map.hex_at(i), hex);
        prop_assert_eq!(map.to_offset(hex), (c as i32, r as i32));

        // Off the map: one past each edge.
        for (oc, or) in [(-1, r as i32), (c as i32, -1), (cols as i32, r as i32), (c as i32, rows as i32)] {
            let off = map.from_offset(oc, or);
            prop_assert!(!map.contains(off));
            prop_assert_eq!(map.label(off), None);
        }
        let past = format!("{:0w$}{:0w$}", cols + 1, r + 1);
        if past.len() == 2 * w {
            let is_off_map = matches!(map.parse_label(&past), Err(LabelError::OffMap { .. }));
            prop_assert!(is_off_map);
        }
        let zero = format!("{:0w$}{:0w$}", 0, r + 1);
        let is_off_map = matches!(map.parse_label(&zero), Err(LabelError::OffMap { .. }));
        prop_assert!(is_off_map);
        let short = &label[1..];
        let is_malformed = matches!(map.parse_label(short), Err(LabelError::Malformed { .. }));
        prop_assert!(is_malformed);
    }

    #[test]
    fn every_hex_of_a_map_has_one_label((orientation, shove) in layout(), cols in 1u32..=30, rows in 1u32..=30) {
        let map = MapShape::new(orientation, shove, cols, rows).unwrap();
        let mut labels: Vec<String> = map.hexes().map(|h| map.label(h).unwrap()).collect();
        labels.sort();
        labels.dedup();
        prop_assert_eq!(labels.len(), map.len());
        // Neighbours on the map are neighbours on the printed map: one column apart
        // at most, and one row apart at most.
        for h in map.hexes() {
            let (c, r) = map.to_offset(h);
            for n in h.neighbors() {
                let (nc, nr) = map.to_offset(n);
                prop_assert!((nc - c).abs() <= 1 && (nr - r).abs() <= 1);
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// Hexsides
// ---------------------------------------------------------------------------------

proptest! {
    #[test]
    fn hexsides_agree_from_both_sides(h in hex_in(1000), d in direction()) {
        let n = h.neighbor(d);
        let side = Hexside::new(h, d);
        prop_assert_eq!(side, Hexside::new(n, d.opposite()));
        prop_assert_eq!(Hexside::between(h, n), Some(side));
        prop_assert_eq!(Hexside::between(n, h), Some(side));
        prop_assert!(side.direction().index() < 3);
        let (a, b) = side.hexes();
        prop_assert!((a, b) == (h, n) || (a, b) == (n, h));
        prop_assert_eq!(side.across(h), Some(n));
        prop_assert_eq!(side.across(n), Some(h));
    }

    #[test]
    fn side_grid_reads_the_same_from_both_sides(
        (orientation, shove) in layout(),
        cols in 1u32..=12,
        rows in 1u32..=12,
        seed in any::<u64>(),
    ) {
        let map = MapShape::new(orientation, shove, cols, rows).unwrap();
        let mut rng = SplitMix(seed);
        let mut sides = SideGrid::new(map, 0u32);
        for h in map.hexes() {
            for d in Direction::ALL {
                if rng.chance(30) {
                    sides.set(Hexside::new(h, d), rng.below(1000) + 1);
                }
            }
        }
        for h in map.hexes() {
            let i = map.index(h).unwrap();
            for d in Direction::ALL {
                let v = sides.get(h, d);
                prop_assert_eq!(*sides.get_at(i, d), v);
                prop_assert_eq!(sides.side(Hexside::new(h, d)), v);
                let n = h.neighbor(d);
                if map.contains(n) {
                    prop_assert_eq!(sides.get(n, d.opposite()), v);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// Line of sight
// ---------------------------------------------------------------------------------

/// An exact rational `num / den`, `den > 0`.
#[derive(Clone, Copy, Debug)]
struct Ratio {
    num: i128,
    den: i128,
}

impl Ratio {
    fn new(num: i128, den: i128) -> Ratio {
        if den < 0 {
            Ratio {
                num: -num,
                den: -den,
            }
        } else {
            Ratio { num, den }
        }
    }

    fn int(n: i128) -> Ratio {
        Ratio { num: n, den: 1 }
    }

    fn cmp(self, other: Ratio) -> Ordering {
        (self.num * other.den).cmp(&(other.num * self.den))
    }

    fn max(self, other: Ratio) -> Ratio {
        if self.cmp(other).is_ge() {
            self
        } else {
            other
        }
    }

    fn min(self, other: Ratio) -> Ratio {
        if self.cmp(other).is_le() {
            self
        } else {
            other
        }
    }
}

/// `q - r`, `r - s`, `s - q` of a hex centre.
fn xyz(h: Hex) -> [i128; 3] {
    let (q, r, s) = (i128::from(h.q), i128::from(h.r), i128::from(h.s()));
    [q - r, r - s, s - q]
}

/// The parameters `t` in `[0, 1]` at which the point of segment `a`-`b` lies in the
/// cell of `h` (`|v| <= 1` for each of the three values, or `< 1` when `open`), as
/// `(lo, hi)`; `None` when empty. For an open cell the range found is open, for a
/// closed one closed; the caller only needs its ends.
fn cell_range(a: Hex, b: Hex, h: Hex, open: bool) -> Option<(Ratio, Ratio)> {
    let (pa, pb, ph) = (xyz(a), xyz(b), xyz(h));
    let mut lo = Ratio::int(0);
    let mut hi = Ratio::int(1);
    for i in 0..3 {
        let v0 = pa[i] - ph[i];
        let dv = pb[i] - pa[i];
        if dv == 0 {
            let inside = if open { v0.abs() < 1 } else { v0.abs() <= 1 };
            if !inside {
                return None;
            }
            continue;
        }
        let e1 = Ratio::new(-1 - v0, dv);
        let e2 = Ratio::new(1 - v0, dv);
        let (l, u) = if e1.cmp(e2).is_le() {
            (e1, e2)
        } else {
            (e2, e1)
        };
        lo = lo.max(l);
        hi = hi.min(u);
    }
    Some((lo, hi))
}

/// The line by brute force: every hex whose open cell the closed segment meets, and
/// every hexside the segment runs along for a positive length, ordered by where
/// the segment enters them.
fn brute_line(a: Hex, b: Hex) -> Vec<LineStep> {
    let (q0, q1) = (a.q.min(b.q) - 1, a.q.max(b.q) + 1);
    let (r0, r1) = (a.r.min(b.r) - 1, a.r.max(b.r) + 1);
    let mut found: Vec<(Ratio, LineStep)> = Vec::new();
    for q in q0..=q1 {
        for r in r0..=r1 {
            let h = Hex::new(q, r);
            // Open cell: the range (lo, hi) of the three open conditions, met by
            // the closed [0, 1] when lo < hi (the ends 0 and 1 are hex centres,
            // inside their open cells, so closing [0, 1] changes nothing).
            if let Some((lo, hi)) = cell_range(a, b, h, true) {
                if lo.cmp(hi).is_lt() {
                    found.push((lo, LineStep::Hex(h)));
                }
            }
            for d in [Direction::NE, Direction::SE, Direction::S] {
                let n = h.neighbor(d);
                let (Some((l1, u1)), Some((l2, u2))) =
                    (cell_range(a, b, h, false), cell_range(a, b, n, false))
                else {
                    continue;
                };
                let (lo, hi) = (l1.max(l2), u1.min(u2));
                if lo.cmp(hi).is_lt() {
                    found.push((lo, LineStep::Edge(h, n)));
                }
            }
        }
    }
    found.sort_by(|x, y| x.0.cmp(y.0));
    for w in found.windows(2) {
        assert!(
            w[0].0.cmp(w[1].0).is_lt(),
            "two steps enter together: {found:?}"
        );
    }
    found.into_iter().map(|(_, s)| s).collect()
}

fn touches(h: Hex, step: LineStep) -> bool {
    match step {
        LineStep::Hex(g) => g.distance(h) == 1,
        LineStep::Edge(x, y) => x.distance(h) == 1 && y.distance(h) == 1,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn line_equals_brute_force(a in hex_in(12), b in hex_in(12)) {
        prop_assert_eq!(line(a, b), brute_line(a, b));
    }

    #[test]
    fn diagonal_and_vertex_lines_equal_brute_force(
        a in hex_in(50),
        k in 1i32..12,
        which in 0usize..12,
    ) {
        // The six hexside-parallel directions and six through-corner ones (cube
        // (2, -1, -1) and (5, -1, -4) and their rotations and reflections).
        let dirs = [
            (1, 1), (2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2),
            (5, -1), (-1, 5), (4, 1), (1, -5), (-5, 4), (-4, -1),
        ];
        let (dq, dr) = dirs[which];
        let b = Hex::new(a.q + k * dq, a.r + k * dr);
        prop_assert_eq!(line(a, b), brute_line(a, b));
    }

    #[test]
    fn line_is_contiguous_symmetric_and_ends_at_its_ends(a in hex_in(10_000), d in hex_in(60)) {
        let b = a + d;
        let steps = line(a, b);
        prop_assert_eq!(steps.first(), Some(&LineStep::Hex(a)));
        prop_assert_eq!(steps.last(), Some(&LineStep::Hex(b)));
        for w in steps.windows(2) {
            let ok = match (w[0], w[1]) {
                (LineStep::Hex(x), s) | (s, LineStep::Hex(x)) => touches(x, s),
                (LineStep::Edge(..), LineStep::Edge(..)) => false,
            };
            prop_assert!(ok, "{:?} then {:?}", w[0], w[1]);
        }
        for s in &steps {
            if let LineStep::Edge(x, y) = *s {
                prop_assert_eq!(Hexside::between(x, y).map(Hexside::hexes), Some((x, y)));
            }
        }
        let mut back = line(b, a);
        back.reverse();
        prop_assert_eq!(back, steps);
    }

    #[test]
    fn visible_applies_the_hexside_rule(a in hex_in(8), b in hex_in(8), seed in any::<u64>()) {
        let mut rng = SplitMix(seed);
        let blocking: Vec<Hex> = (0..6)
            .map(|_| {
                let q = i32::try_from(rng.below(17)).unwrap() - 8;
                let r = i32::try_from(rng.below(17)).unwrap() - 8;
                Hex::new(q, r)
            })
            .collect();
        let blocks = |h: Hex| blocking.contains(&h);
        let expect = line(a, b).iter().all(|s| match *s {
            LineStep::Hex(h) => h == a || h == b || !blocks(h),
            LineStep::Edge(x, y) => !(blocks(x) && blocks(y)),
        });
        prop_assert_eq!(visible(a, b, blocks), expect);
    }
}

// ---------------------------------------------------------------------------------
// Movement search
// ---------------------------------------------------------------------------------

/// A random small ruleset: terrain costs (0 impassable), hexside extra costs, roads
/// that cost nothing when followed on from a road, stop hexes (an enemy zone of
/// control) and stop hexsides (an unbridged river, which stops a unit only when
/// crossed, so the stop depends on where the unit comes from).
struct World {
    map: MapShape,
    /// 2 with the road mode; 1 without, and then every road step is free.
    modes: u8,
    terrain: Grid<u32>,
    extra: SideGrid<u32>,
    road: SideGrid<bool>,
    river: SideGrid<bool>,
    zoc: Grid<bool>,
}

/// Mode 1: arrived along a road.
const ROAD: u8 = 1;

impl World {
    fn new(map: MapShape, modes: u8, seed: u64) -> World {
        let mut rng = SplitMix(seed);
        let terrain = Grid::from_fn(map, |_| if rng.chance(15) { 0 } else { 1 + rng.below(3) });
        let mut extra = SideGrid::new(map, 0);
        let mut road = SideGrid::new(map, false);
        let mut river = SideGrid::new(map, false);
        for h in map.hexes() {
            for d in [Direction::NE, Direction::SE, Direction::S] {
                let side = Hexside::new(h, d);
                if rng.chance(20) {
                    extra.set(side, 1 + rng.below(2));
                }
                if rng.chance(30) {
                    road.set(side, true);
                }
                if rng.chance(6) {
                    river.set(side, true);
                }
            }
        }
        let zoc = Grid::from_fn(map, |_| rng.chance(10));
        World {
            map,
            modes,
            terrain,
            extra,
            road,
            river,
            zoc,
        }
    }

    fn step(&self, from: Hex, mode: u8, to: Hex, dir: Direction) -> Step {
        assert!(
            self.map.contains(from) && self.map.contains(to),
            "off the map"
        );
        assert_eq!(from.neighbor(dir), to);
        let terrain = *self.terrain.get(to).unwrap();
        let road = self.road.get(from, dir);
        if terrain == 0 && !road {
            return Step::Blocked;
        }
        let cost = if road && (mode == ROAD || self.modes == 1) {
            0
        } else {
            terrain.max(1) + self.extra.get(from, dir)
        };
        Step::Enter {
            cost,
            stop: *self.zoc.get(to).unwrap() || self.river.get(from, dir),
            mode: if road && self.modes > 1 { ROAD } else { 0 },
        }
    }
}

/// Least cost per (hex index, mode, stopped) by Bellman-Ford relaxation to a fixed
/// point.
fn bellman_ford(world: &World, start: Hex, start_mode: u8, budget: u32) -> Vec<Option<u32>> {
    let map = world.map;
    let modes = usize::from(world.modes);
    let slot =
        |i: usize, m: u8, stopped: bool| (i * modes + usize::from(m)) * 2 + usize::from(stopped);
    let mut dist = vec![None; map.len() * modes * 2];
    dist[slot(map.index(start).unwrap(), start_mode, false)] = Some(0u32);
    loop {
        let mut changed = false;
        for i in 0..map.len() {
            let from = map.hex_at(i);
            for m in 0..world.modes {
                let Some(d) = dist[slot(i, m, false)] else {
                    continue;
                };
                for dir in Direction::ALL {
                    let to = from.neighbor(dir);
                    let Some(j) = map.index(to) else { continue };
                    if let Step::Enter { cost, stop, mode } = world.step(from, m, to, dir) {
                        let nd = d + cost;
                        let s = slot(j, mode, stop);
                        if nd <= budget && dist[s].is_none_or(|old| nd < old) {
                            dist[s] = Some(nd);
                            changed = true;
                        }
                    }
                }
            }
        }
        if !changed {
            return dist;
        }
    }
}

fn min_opt(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn movement_search_equals_bellman_ford(
        (orientation, shove) in layout(),
        cols in 6u32..=10,
        rows in 6u32..=10,
        seed in any::<u64>(),
        start_pick in any::<u32>(),
        modes in 1u8..=2,
        start_mode in 0u8..2,
        budget in 0u32..=12,
    ) {
        let map = MapShape::new(orientation, shove, cols, rows).unwrap();
        let world = World::new(map, modes, seed);
        let start_mode = start_mode % modes;
        let m_count = usize::from(modes);
        let start = map.hex_at(start_pick as usize % map.len());
        let expect = bellman_ford(&world, start, start_mode, budget);

        let mut search = Search::new(map, modes);
        // A first run elsewhere, so that the real one runs on used buffers.
        search.run(map.hex_at(0), 0, 5, |f, m, t, d| world.step(f, m, t, d));
        let reach = search.run(start, start_mode, budget, |f, m, t, d| world.step(f, m, t, d));

        let mut reached = 0;
        for i in 0..map.len() {
            let hex = map.hex_at(i);
            let mut per_hex = None;
            for m in 0..modes {
                let free = expect[(i * m_count + usize::from(m)) * 2];
                let state = min_opt(free, expect[(i * m_count + usize::from(m)) * 2 + 1]);
                prop_assert_eq!(reach.state_cost(hex, m), state, "{:?} mode {}", hex, m);
                prop_assert_eq!(reach.can_go_on(hex, m), free.is_some());
                per_hex = min_opt(per_hex, state);

                if let Some(cost) = state {
                    let path = reach.state_path(hex, m).unwrap();
                    prop_assert_eq!(replay(&world, &path, budget), Ok(cost));
                    prop_assert_eq!(path.last(), Some(&(hex, m)));
                }
            }
            prop_assert_eq!(reach.cost(hex), per_hex, "{:?}", hex);
            prop_assert_eq!(reach.reached(hex), per_hex.is_some());
            if let Some(cost) = per_hex {
                reached += 1;
                let states = reach.path_states(hex).unwrap();
                prop_assert_eq!(states[0], (start, start_mode));
                prop_assert_eq!(replay(&world, &states, budget), Ok(cost));
                let hexes = reach.path(hex).unwrap();
                prop_assert_eq!(hexes, states.iter().map(|s| s.0).collect::<Vec<_>>());
            } else {
                prop_assert!(reach.path(hex).is_none());
            }
        }
        prop_assert_eq!(reach.len(), reached);
        let mut listed: Vec<(Hex, u32)> = reach.hexes().collect();
        listed.sort_unstable();
        let mut want: Vec<(Hex, u32)> = map
            .hexes()
            .filter_map(|h| reach.cost(h).map(|c| (h, c)))
            .collect();
        want.sort_unstable();
        prop_assert_eq!(listed, want);
        let states = reach.states().count();
        let want_states = (0..map.len() * m_count)
            .filter(|k| min_opt(expect[k * 2], expect[k * 2 + 1]).is_some())
            .count();
        prop_assert_eq!(states, want_states);

        // The indexed entry point answers the same, with the right indices.
        let costs: Vec<Option<u32>> = map.hexes().map(|h| reach.cost(h)).collect();
        let mut other = Search::new(map, modes);
        let indexed = other.run_indexed(start, start_mode, budget, |m| {
            assert_eq!(map.index(m.from), Some(m.from_index));
            assert_eq!(map.index(m.to), Some(m.to_index));
            world.step(m.from, m.from_mode, m.to, m.dir)
        });
        let indexed_costs: Vec<Option<u32>> = map.hexes().map(|h| indexed.cost(h)).collect();
        prop_assert_eq!(indexed_costs, costs);
    }
}

/// Replays a path of states through the ruleset: each step must be allowed, arrive
/// in the recorded mode, and not follow a step that ended movement; returns the
/// total cost, which must be within the budget.
fn replay(world: &World, path: &[(Hex, u8)], budget: u32) -> Result<u32, String> {
    let mut total = 0;
    for (k, w) in path.windows(2).enumerate() {
        let ((from, m), (to, m2)) = (w[0], w[1]);
        let dir = from
            .direction_to(to)
            .ok_or_else(|| format!("{from:?} and {to:?} are not adjacent"))?;
        match world.step(from, m, to, dir) {
            Step::Blocked => return Err(format!("step {k} is blocked")),
            Step::Enter { cost, stop, mode } => {
                if mode != m2 {
                    return Err(format!("step {k} arrives in mode {mode}, path says {m2}"));
                }
                if stop && k + 2 != path.len() {
                    return Err(format!("step {k} ends movement but the path goes on"));
                }
                total += cost;
            }
        }
    }
    if total > budget {
        return Err(format!("path costs {total}, over the budget {budget}"));
    }
    Ok(total)
}
