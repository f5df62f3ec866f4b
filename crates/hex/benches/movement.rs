//! Movement search and line of sight, with hexx's `field_of_movement` on the same map
//! for comparison. Figures and what each side computes: docs/PERFORMANCE.md.
//!
//! The map is a hexagon of radius 50 around its centre (7,651 hexes) stored in its
//! bounding rectangle; hexes outside the hexagon are impassable to both searches.
//! Terrain costs 1 to 3, 5% of hexes impassable, about 10% of hexsides cost 1 more,
//! 40 enemy units (impassable) each with a zone of control on its six neighbours
//! (entering ends movement). A unit at the centre moves with 10 movement points.
#![warn(clippy::pedantic)]

#[path = "../tests/support/splitmix.rs"]
mod splitmix;

use criterion::{criterion_group, criterion_main, Criterion};
use grognard_hex::los::{line_into, LineStep};
use grognard_hex::search::{Move, Search, Step};
use grognard_hex::{Direction, Hex, Hexside, MapShape, Orientation, Shove, SideGrid};
use splitmix::SplitMix;
use std::hint::black_box;
use std::time::Duration;

const RADIUS: u32 = 50;
const BUDGET: u32 = 10;
const ENEMIES: usize = 40;
/// Terrain byte: movement cost in the low bits, 0 for impassable.
const IMPASSABLE: u8 = 0;
/// Terrain byte flag: entering ends movement (an enemy zone of control).
const ZOC: u8 = 0x80;

struct Map {
    shape: MapShape,
    centre: Hex,
    /// Per hex: cost 1 to 3 (plus [`ZOC`]) or [`IMPASSABLE`].
    terrain: Vec<u8>,
    /// Extra cost of crossing each hexside.
    sides: SideGrid<u32>,
}

impl Map {
    fn new() -> Map {
        let (shape, centre) = bounding_rectangle();
        let mut rng = SplitMix(0x6772_6f67_6e61_7264);
        let mut terrain = vec![IMPASSABLE; shape.len()];
        for h in centre.range(RADIUS) {
            let i = shape.index(h).expect("the hexagon fits its rectangle");
            terrain[i] = if rng.chance(5) {
                IMPASSABLE
            } else {
                1 + u8::try_from(rng.below(3)).unwrap()
            };
        }
        let mut sides = SideGrid::new(shape, 0);
        for h in centre.range(RADIUS) {
            for d in [Direction::NE, Direction::SE, Direction::S] {
                if rng.chance(10) {
                    sides.set(Hexside::new(h, d), 1);
                }
            }
        }
        let hexagon = centre.range(RADIUS);
        let mut placed = 0;
        let hexes = u32::try_from(hexagon.len()).unwrap();
        while placed < ENEMIES {
            let h = hexagon[usize::try_from(rng.below(hexes)).unwrap()];
            let i = shape.index(h).unwrap();
            if h.distance(centre) < 2 || terrain[i] == IMPASSABLE {
                continue;
            }
            terrain[i] = IMPASSABLE;
            for n in h.neighbors() {
                let j = shape.index(n).unwrap();
                if terrain[j] != IMPASSABLE {
                    terrain[j] |= ZOC;
                }
            }
            placed += 1;
        }
        Map {
            shape,
            centre,
            terrain,
            sides,
        }
    }

    /// The full rule: terrain, hexside extras, zones of control.
    #[inline]
    fn step(&self, from: Hex, to: Hex, dir: Direction) -> Step {
        let t = self.terrain[self.shape.index(to).expect("search asks only on the map")];
        if t == IMPASSABLE {
            return Step::Blocked;
        }
        Step::Enter {
            cost: u32::from(t & !ZOC) + self.sides.get(from, dir),
            stop: t & ZOC != 0,
            mode: 0,
        }
    }

    /// [`Map::step`] from dense indices.
    #[inline]
    fn step_indexed(&self, m: Move) -> Step {
        let t = self.terrain[m.to_index];
        if t == IMPASSABLE {
            return Step::Blocked;
        }
        Step::Enter {
            cost: u32::from(t & !ZOC) + self.sides.get_at(m.from_index, m.dir),
            stop: t & ZOC != 0,
            mode: 0,
        }
    }

    /// The rule hexx can express: a cost per hex entered.
    #[inline]
    fn hex_cost(&self, to: Hex) -> Option<u32> {
        let t = self.terrain[self.shape.index(to)?];
        (t != IMPASSABLE).then_some(u32::from(t & !ZOC))
    }
}

/// The smallest flat-top rectangle holding the radius-50 hexagon, and its centre.
fn bounding_rectangle() -> (MapShape, Hex) {
    let cols = 2 * RADIUS + 1;
    for rows in cols..cols + 4 {
        let shape = MapShape::new(Orientation::FlatTop, Shove::Even, cols, rows).unwrap();
        for row in 0..i32::try_from(rows).unwrap() {
            let centre = shape.from_offset(i32::try_from(RADIUS).unwrap(), row);
            if centre.range(RADIUS).iter().all(|&h| shape.contains(h)) {
                return (shape, centre);
            }
        }
    }
    unreachable!("a radius-50 hexagon fits in 101 by 104")
}

fn to_hexx(h: Hex) -> hexx::Hex {
    hexx::Hex::new(h.q, h.r)
}

fn from_hexx(h: hexx::Hex) -> Hex {
    Hex::new(h.x, h.y)
}

/// Both searches agree where the rule is the same (a cost per hex entered); returns
/// how many hexes they reach.
fn check_same_answer(map: &Map, search: &mut Search) -> usize {
    let reach = search.run(map.centre, 0, BUDGET, |_, _, to, _| {
        map.hex_cost(to)
            .map_or(Step::Blocked, |c| Step::enter(c, 0))
    });
    let mut ours: Vec<Hex> = reach.hexes().map(|(h, _)| h).collect();
    let field = hexx::algorithms::field_of_movement(to_hexx(map.centre), BUDGET, |h| {
        map.hex_cost(from_hexx(h)).map(|c| c - 1) // hexx adds 1 to every step
    });
    let mut theirs: Vec<Hex> = field.into_iter().map(from_hexx).collect();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert_eq!(
        ours, theirs,
        "the two searches disagree on the per-hex rule"
    );
    ours.len()
}

fn movement(c: &mut Criterion) {
    let map = Map::new();
    let mut search = Search::new(map.shape, 1);
    let per_hex = check_same_answer(&map, &mut search);
    let full: Vec<(Hex, u32)> = search
        .run(map.centre, 0, BUDGET, |f, _, t, d| map.step(f, t, d))
        .hexes()
        .collect();
    let indexed: Vec<(Hex, u32)> = search
        .run_indexed(map.centre, 0, BUDGET, |m| map.step_indexed(m))
        .hexes()
        .collect();
    assert_eq!(full, indexed);
    let full = full.len();
    let near = map
        .centre
        .range(BUDGET + 1)
        .iter()
        .filter(|&&h| map.terrain[map.shape.index(h).unwrap()] & ZOC != 0)
        .count();
    eprintln!(
        "map {}x{} ({} hexes in the hexagon); full rule reaches {full} hexes, \
         per-hex rule {per_hex}; {near} zone-of-control hexes within {} of the centre",
        map.shape.cols(),
        map.shape.rows(),
        map.centre.range(RADIUS).len(),
        BUDGET + 1
    );

    let mut g = c.benchmark_group("movement");
    g.sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("grognard_full_rule", |b| {
        b.iter(|| {
            let reach = search.run(black_box(map.centre), 0, BUDGET, |f, _, t, d| {
                map.step(f, t, d)
            });
            black_box(reach.len())
        });
    });
    g.bench_function("grognard_full_rule_indexed", |b| {
        b.iter(|| {
            let reach =
                search.run_indexed(black_box(map.centre), 0, BUDGET, |m| map.step_indexed(m));
            black_box(reach.len())
        });
    });
    g.bench_function("grognard_per_hex_cost", |b| {
        b.iter(|| {
            let reach = search.run(black_box(map.centre), 0, BUDGET, |_, _, to, _| {
                map.hex_cost(to)
                    .map_or(Step::Blocked, |c| Step::enter(c, 0))
            });
            black_box(reach.len())
        });
    });
    g.bench_function("hexx_field_of_movement", |b| {
        b.iter(|| {
            let field =
                hexx::algorithms::field_of_movement(to_hexx(black_box(map.centre)), BUDGET, |h| {
                    map.hex_cost(from_hexx(h)).map(|c| c - 1)
                });
            black_box(field.len())
        });
    });
    g.finish();
}

fn line_of_sight(c: &mut Criterion) {
    let a = Hex::new(-40, 17);
    // 100 hexes apart, in a direction that is neither an axis nor a hexside diagonal.
    let off_axis = a + Hex::new(100, -37);
    // 100 hexes apart along a hexside diagonal (cube (2, -1, -1)): half of the line
    // runs along hexsides.
    let diagonal = a + Hex::new(100, -50);
    assert_eq!(a.distance(off_axis), 100);
    assert_eq!(a.distance(diagonal), 100);
    let mut buf: Vec<LineStep> = Vec::new();
    line_into(a, diagonal, &mut buf);
    let edges = buf
        .iter()
        .filter(|s| matches!(s, LineStep::Edge(..)))
        .count();
    assert_eq!(edges, 50);

    let mut g = c.benchmark_group("line_of_sight");
    g.sample_size(30)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    g.bench_function("line_100_off_axis", |b| {
        b.iter(|| {
            line_into(black_box(a), black_box(off_axis), &mut buf);
            black_box(buf.len())
        });
    });
    g.bench_function("line_100_diagonal", |b| {
        b.iter(|| {
            line_into(black_box(a), black_box(diagonal), &mut buf);
            black_box(buf.len())
        });
    });
    g.finish();
}

criterion_group!(benches, movement, line_of_sight);
criterion_main!(benches);
