//! Search machinery, not rules: the reusable route searches (one per thread, kept between
//! questions) and the least-cost field. The rules come in as cost closures: the chapters
//! price each step (`movement.rs`), this file only walks the map with those prices.

use grognard_hex::search::{Move, Search, Step};
use grognard_hex::{Direction, Hex, MapShape};
use std::cell::RefCell;
use std::rc::Rc;

mod bits;
mod small;

pub(crate) use small::{search_fixed, search_fixed_by_cost, Ends};

thread_local! {
    /// The facing-aware search: its mode is the facing.
    static FACING: RefCell<Option<Search>> = const { RefCell::new(None) };
    /// The search for a fixed facing (one mode).
    static FIXED: RefCell<Option<Search>> = const { RefCell::new(None) };
    /// The buckets of the least-cost fields' queue, kept between questions.
    static BUCKETS: RefCell<Vec<Vec<u32>>> = const { RefCell::new(Vec::new()) };
    /// The last least-cost fields computed, with what they were computed for.
    static MEMO: RefCell<(Vec<Kept>, usize)> = const { RefCell::new((Vec::new(), 0)) };
}

/// A step as the rules price it: its cost, whether the movement stops on entering, and
/// the facing after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entered {
    pub cost: u32,
    pub stop: bool,
    pub facing: Direction,
}

/// A hex a search reached: its least cost and a path to it (its start left out).
#[derive(Clone, Debug)]
pub(crate) struct Found {
    pub hex: Hex,
    pub cost: u32,
    pub path: Vec<Hex>,
}

/// Whether a search's facing changes along the way (its mode is then the facing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Turns {
    /// The facing changes as the step says.
    Yes,
    /// The facing held at the start is held all the way.
    No,
}

/// Whether a search's answer carries the path to each hex.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Paths {
    /// Each hex with its path.
    Yes,
    /// Each hex with an empty path (for the questions that read only where and how dear).
    No,
}

/// Runs a search on `map` from `from` within `budget`. When it turns, the mode of the
/// search is the facing (`step` is asked with the facing held before the step); without,
/// the facing stays `facing` throughout. `keep` chooses the hexes returned.
pub(crate) fn search(
    map: &MapShape,
    from: Hex,
    facing: Direction,
    budget: u32,
    turns: Turns,
    step: impl FnMut(Hex, Direction, Hex) -> Option<Entered>,
    keep: impl Fn(Hex) -> bool,
) -> Vec<Found> {
    search_for(map, from, facing, (budget, turns, Paths::Yes), step, keep)
}

/// [`search`], with or without the paths.
pub(crate) fn search_for(
    map: &MapShape,
    from: Hex,
    facing: Direction,
    opts: (u32, Turns, Paths),
    mut step: impl FnMut(Hex, Direction, Hex) -> Option<Entered>,
    keep: impl Fn(Hex) -> bool,
) -> Vec<Found> {
    search_moves(map, from, facing, opts, |m, f| step(m.from, f, m.to), keep)
}

/// [`search_for`], the step asked with the move's hexes, their indices and its
/// direction, and the facing held before it.
pub(crate) fn search_moves(
    map: &MapShape,
    from: Hex,
    facing: Direction,
    (budget, turns, paths): (u32, Turns, Paths),
    mut step: impl FnMut(&Move, Direction) -> Option<Entered>,
    keep: impl Fn(Hex) -> bool,
) -> Vec<Found> {
    let turns = turns == Turns::Yes;
    let cell = if turns { &FACING } else { &FIXED };
    let modes = if turns { 6 } else { 1 };
    cell.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.as_ref().is_none_or(|s| s.shape() != map) {
            *slot = Some(Search::new(*map, modes));
        }
        let search = slot.as_mut().expect("just set");
        #[expect(clippy::cast_possible_truncation, reason = "six directions")]
        let mode_of = |d: Direction| if turns { d.index() as u8 } else { 0 };
        let reach = search.run_indexed(from, mode_of(facing), budget, |m| {
            let f = if turns {
                Direction::from_index(usize::from(m.from_mode))
            } else {
                facing
            };
            match step(&m, f) {
                Some(e) => Step::Enter {
                    cost: e.cost,
                    stop: e.stop,
                    mode: mode_of(e.facing),
                },
                None => Step::Blocked,
            }
        });
        reach
            .hexes()
            .filter(|&(h, _)| keep(h))
            .map(|(hex, cost)| {
                if paths == Paths::No {
                    return Found {
                        hex,
                        cost,
                        path: Vec::new(),
                    };
                }
                let path = reach.entered(hex).unwrap_or_default();
                Found { hex, cost, path }
            })
            .collect()
    })
}

/// The map by dense index, built once per scenario for the least-cost fields: each
/// hex's neighbours (in `Hex::neighbors` order, off-map ones left out), the points to
/// enter it and whether it may be entered at all.
#[derive(Debug)]
pub(crate) struct Cells {
    /// Neighbour indices; `NONE` off the map.
    nbr: Vec<[u32; 6]>,
    /// Points to enter each hex.
    cost: Vec<u32>,
    /// Whether each hex may be entered at all.
    open: Vec<bool>,
    /// The buckets of the queue: a power of two above the dearest hex's points.
    ring: usize,
    /// The fewest points any hex costs to enter: a route of `n` steps costs at least
    /// `n` times this.
    least: u32,
    /// The neighbours as bit sets, on maps of at most 128 hexes.
    bits: Option<Bits>,
}

/// The neighbours of each hex as bit sets (bit `j` for the hex at index `j`), one set a
/// price: [`reach`] then settles all the hexes of one cost at once and adds their
/// neighbours to the cost each is entered at with a few operations a hex.
#[derive(Debug)]
struct Bits {
    /// The distinct points to enter a hex, cheapest first.
    prices: Vec<u32>,
    /// `nbr[i * prices.len() + k]`: the neighbours of the hex at `i` whose entry costs
    /// `prices[k]`.
    nbr: Vec<u128>,
    /// All the neighbours of each hex.
    all: Vec<u128>,
    /// The hexes that may be entered at all.
    open: u128,
    /// The neighbours of a whole set at once: each group of hexes whose neighbour in
    /// some direction lies the same number of indices away, with that number (a
    /// rectangle of offset rows has eight or so), so that the neighbours of a set are a
    /// few shifts of it: `up` toward higher indices, `down` toward lower ones.
    up: Vec<(u32, u128)>,
    down: Vec<(u32, u128)>,
    /// `entry[k]`: the hexes whose entry costs `prices[k]`.
    entry: Vec<u128>,
    /// `rings[i * (RINGS + 1) + r]`: the hexes at `r` hexes from the hex at `i`.
    rings: Vec<u128>,
    /// `disks[i * (RINGS + 1) + r]`: the hexes within `r` hexes of the hex at `i`.
    disks: Vec<u128>,
    /// The hex at each index.
    hexes: Vec<Hex>,
}

/// The farthest ring around a hex kept in [`Bits`].
const RINGS: usize = 3;

/// An off-map neighbour in [`Cells`].
const NONE: u32 = u32::MAX;

impl Cells {
    /// The cells of `map`, `row(hex)` giving the points to enter a hex and whether it
    /// may be entered.
    pub(crate) fn new(map: &MapShape, row: impl Fn(Hex) -> (u32, bool)) -> Cells {
        let mut cells = Cells {
            nbr: Vec::with_capacity(map.len()),
            cost: Vec::with_capacity(map.len()),
            open: Vec::with_capacity(map.len()),
            ring: 1,
            least: u32::MAX,
            bits: None,
        };
        for h in map.hexes() {
            cells.nbr.push(h.neighbors().map(|n| {
                map.index(n)
                    .and_then(|i| u32::try_from(i).ok())
                    .unwrap_or(NONE)
            }));
            let (cost, open) = row(h);
            cells.cost.push(cost);
            cells.least = cells.least.min(cost);
            cells.open.push(open);
            cells.ring = cells.ring.max(usize::try_from(cost).unwrap_or(1 << 16) + 1);
        }
        cells.ring = cells.ring.next_power_of_two();
        cells.bits = cells.bit_sets(map);
        cells
    }

    /// [`Bits`] of these cells (of `map`), on maps of at most 128 hexes.
    fn bit_sets(&self, map: &MapShape) -> Option<Bits> {
        if self.len() > 128 {
            return None;
        }
        let mut prices = self.cost.clone();
        prices.sort_unstable();
        prices.dedup();
        let mut nbr = vec![0u128; self.len() * prices.len()];
        let mut all = vec![0u128; self.len()];
        for (i, row) in self.nbr.iter().enumerate() {
            for &j in row.iter().filter(|&&j| j != NONE) {
                let j = j as usize;
                let k = prices.binary_search(&self.cost[j]).ok()?;
                nbr[i * prices.len() + k] |= 1u128 << j;
                all[i] |= 1u128 << j;
            }
        }
        let open = (0..self.len())
            .filter(|&i| self.open[i])
            .fold(0u128, |o, i| o | 1u128 << i);
        let mut shifts: Vec<(i32, u128)> = Vec::new();
        for (i, row) in self.nbr.iter().enumerate() {
            for &j in row.iter().filter(|&&j| j != NONE) {
                let by = i32::try_from(j).ok()? - i32::try_from(i).ok()?;
                match shifts.iter_mut().find(|(s, _)| *s == by) {
                    Some((_, group)) => *group |= 1u128 << i,
                    None => shifts.push((by, 1u128 << i)),
                }
            }
        }
        let entry = prices
            .iter()
            .map(|&p| {
                (0..self.len())
                    .filter(|&j| self.cost[j] == p)
                    .fold(0u128, |e, j| e | 1u128 << j)
            })
            .collect();
        let mut rings = vec![0u128; self.len() * (RINGS + 1)];
        for (i, a) in map.hexes().enumerate() {
            for (j, b) in map.hexes().enumerate() {
                let r = a.distance(b) as usize;
                if r <= RINGS {
                    rings[i * (RINGS + 1) + r] |= 1u128 << j;
                }
            }
        }
        let disks = rings
            .chunks(RINGS + 1)
            .flat_map(|ring| {
                ring.iter().scan(0u128, |disk, &r| {
                    *disk |= r;
                    Some(*disk)
                })
            })
            .collect();
        Some(Bits {
            prices,
            nbr,
            all,
            open,
            up: shifts
                .iter()
                .filter(|&&(by, _)| by >= 0)
                .map(|&(by, g)| (by.unsigned_abs(), g))
                .collect(),
            down: shifts
                .iter()
                .filter(|&&(by, _)| by < 0)
                .map(|&(by, g)| (by.unsigned_abs(), g))
                .collect(),
            entry,
            rings,
            disks,
            hexes: map.hexes().collect(),
        })
    }

    /// The hexes within `r` hexes of the hex at `i`, a bit each, on maps of at most 128
    /// hexes and for the nearest rings.
    pub(crate) fn disk_bits(&self, i: usize, r: u32) -> Option<u128> {
        let r = usize::try_from(r).ok().filter(|&r| r <= RINGS)?;
        let b = self.bits.as_ref()?;
        b.disks.get(i * (RINGS + 1) + r).copied()
    }

    /// The hexes at `r` hexes from the hex at `i`, a bit each, on maps of at most 128
    /// hexes and for the nearest rings.
    pub(crate) fn ring_bits(&self, i: usize, r: u32) -> Option<u128> {
        let r = usize::try_from(r).ok().filter(|&r| r <= RINGS)?;
        let b = self.bits.as_ref()?;
        b.rings.get(i * (RINGS + 1) + r).copied()
    }

    /// How many hexes.
    pub(crate) fn len(&self) -> usize {
        self.cost.len()
    }

    /// The least a route of `steps` steps costs, whatever hexes it enters.
    pub(crate) fn least(&self, steps: u32) -> u32 {
        steps.saturating_mul(self.least)
    }

    /// Whether the hex at `i` may be entered at all.
    pub(crate) fn open(&self, i: usize) -> bool {
        self.open[i]
    }

    /// The hexes that may be entered at all, a bit each, on maps of at most 128 hexes.
    pub(crate) fn open_bits(&self) -> Option<u128> {
        self.bits.as_ref().map(|b| b.open)
    }

    /// The neighbour of the hex at `i` toward `dir`, if on the map.
    pub(crate) fn neighbor(&self, i: usize, dir: Direction) -> Option<usize> {
        let j = self.nbr[i][dir.index()];
        (j != NONE).then_some(j as usize)
    }

    /// The neighbours of the hex at `i` that are on the map.
    fn neighbors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.nbr[i]
            .iter()
            .filter(|&&j| j != NONE)
            .map(|&j| j as usize)
    }
}

/// A bucket queue (Dial's): least-cost searches whose steps cost less than `ring` points
/// (a power of two) pop every hex of a cost before the next cost, as a binary heap
/// would, the distances found being the same.
fn with_buckets<T>(ring: usize, f: impl FnOnce(&mut Vec<Vec<u32>>) -> T) -> T {
    BUCKETS.with(|b| {
        let mut b = b.borrow_mut();
        if b.len() < ring {
            b.resize_with(ring, Vec::new);
        }
        for q in b.iter_mut() {
            q.clear();
        }
        f(&mut b)
    })
}

/// Least cost from every hex to the nearest of `goals`, stepping through hexes
/// `through` allows and paying the points to enter each; `u32::MAX` where none. With
/// `settle`, the search stops once every hex costing at most as much as `settle` is
/// known: those are exact, the others hold at least their cost (or `u32::MAX`), which
/// is all a question about the steps from `settle` reads.
pub(crate) fn field(
    cells: &Cells,
    goals: &[usize],
    through: impl Fn(usize) -> bool,
    settle: Option<usize>,
) -> Vec<u32> {
    let mut dist = vec![u32::MAX; cells.len()];
    match cells.bits.as_ref().filter(|_| cells.ring <= bits::LEVELS) {
        Some(b) => bits::field(b, cells, goals, through, settle, &mut dist),
        None => field_buckets(cells, goals, through, settle, &mut dist),
    }
    dist
}

/// [`field`] for the hexes of `through` (a bit each), on bit sets whose neighbours are a
/// few shifts of a whole set: the same costs wherever [`field`] settles them (every hex
/// costing at most as much as `settle`), `u32::MAX` at every other hex (which [`field`]
/// leaves at least its cost: no question about the steps from `settle` tells the two
/// apart). `None` where the map has no bit sets.
pub(crate) fn field_bits(
    cells: &Cells,
    goals: &[usize],
    through: u128,
    settle: Option<usize>,
) -> Option<Vec<u32>> {
    let b = cells.bits.as_ref().filter(|_| cells.ring <= bits::LEVELS)?;
    let mut dist = vec![u32::MAX; cells.len()];
    bits::field_sets(b, cells.ring, goals, through, settle, &mut dist);
    if cfg!(debug_assertions) {
        let slow = field(cells, goals, |i| through >> i & 1 == 1, settle);
        let known = settle.map_or(u32::MAX, |s| slow[s]);
        for (i, (&fast, &slow)) in dist.iter().zip(&slow).enumerate() {
            let expected = if slow <= known { slow } else { u32::MAX };
            assert_eq!(fast, expected, "the field at hex {i}");
        }
    }
    Some(dist)
}

/// [`field`] with a bucket queue, on any map.
fn field_buckets(
    cells: &Cells,
    goals: &[usize],
    through: impl Fn(usize) -> bool,
    settle: Option<usize>,
    dist: &mut [u32],
) {
    let ring = cells.ring;
    let mask = ring - 1;
    with_buckets(ring, |b| {
        let mut pending = 0usize;
        for &g in goals {
            if g < dist.len() && dist[g] != 0 {
                dist[g] = 0;
                b[0].push(u32::try_from(g).unwrap_or(NONE));
                pending += 1;
            }
        }
        let mut d = 0u32;
        while pending > 0 {
            if settle.is_some_and(|s| d > dist[s]) {
                break;
            }
            let slot = d as usize & mask;
            while let Some(i) = b[slot].pop() {
                pending -= 1;
                let i = i as usize;
                if dist[i] != d {
                    continue;
                }
                let nd = d.saturating_add(cells.cost[i]);
                for j in cells.neighbors(i) {
                    if nd < dist[j] && through(j) {
                        dist[j] = nd;
                        b[nd as usize & mask].push(u32::try_from(j).unwrap_or(NONE));
                        pending += 1;
                    }
                }
            }
            d += 1;
        }
    });
}

/// Least cost from `from` to every hex, paying the points to enter each and going on
/// only from hexes `through` allows (any hex may end a route): the same costs as
/// [`field`] read the other way, one search for all goals. Each hex whose least cost
/// is known and at most `limit` is told to `settled`, cheapest first; the search stops
/// when `settled` says so, or above `limit`. The hexes told are exact; the others hold
/// at least their cost (or `u32::MAX`).
pub(crate) fn reach(
    cells: &Cells,
    from: usize,
    limit: u32,
    through: impl Fn(usize) -> bool,
    settled: impl FnMut(usize) -> bool,
) -> Vec<u32> {
    let mut dist = vec![u32::MAX; cells.len()];
    if from >= dist.len() {
        return dist;
    }
    match cells.bits.as_ref().filter(|_| cells.ring <= bits::LEVELS) {
        Some(b) => bits::reach(b, cells.ring, from, limit, through, settled, &mut dist),
        None => reach_buckets(cells, from, limit, through, settled, &mut dist),
    }
    dist
}

/// Which of `goals` (sets of hexes, a bit each) hold a hex whose least cost from `from`
/// is at most `limit`, going on only from the hexes of `through` (and `from`): bit `k`
/// for `goals[k]`, at most 64 of them; what [`reach`] finds when told of each hex
/// settled, the search stopped once every goal set that is not empty is found; and the
/// hexes it settled (whose `through` and `goals` bits alone it read). `None` where the
/// map has no bit sets.
pub(crate) fn reach_goals(
    cells: &Cells,
    from: usize,
    limit: u32,
    through: u128,
    goals: &[u128],
) -> Option<(u64, u128)> {
    let b = cells.bits.as_ref().filter(|_| cells.ring <= bits::LEVELS)?;
    (from < cells.len() && goals.len() <= 64)
        .then(|| bits::reach_goals(b, cells.ring, from, limit, through, goals))
}

/// [`reach`] with a bucket queue, on any map.
fn reach_buckets(
    cells: &Cells,
    from: usize,
    limit: u32,
    through: impl Fn(usize) -> bool,
    mut settled: impl FnMut(usize) -> bool,
    dist: &mut [u32],
) {
    let ring = cells.ring;
    let mask = ring - 1;
    with_buckets(ring, |b| {
        dist[from] = 0;
        b[0].push(u32::try_from(from).unwrap_or(NONE));
        let mut pending = 1usize;
        let mut d = 0u32;
        while pending > 0 && d <= limit {
            let slot = d as usize & mask;
            while let Some(i) = b[slot].pop() {
                pending -= 1;
                let i = i as usize;
                if dist[i] != d {
                    continue;
                }
                if settled(i) {
                    return;
                }
                if i != from && !through(i) {
                    continue;
                }
                for j in cells.neighbors(i) {
                    let nd = d.saturating_add(cells.cost[j]);
                    if nd < dist[j] {
                        dist[j] = nd;
                        b[nd as usize & mask].push(u32::try_from(j).unwrap_or(NONE));
                        pending += 1;
                    }
                }
            }
            d += 1;
        }
    });
}

/// Which least-cost field a [`memo`] holds: each is a function of the scenario, of who
/// stands where and of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A character's flight to its home edge.
    Flight(u16),
}

/// A field kept by [`memo`].
struct Kept {
    rules: u64,
    kind: Kind,
    /// [`fingerprint`] of `standing`, compared first.
    print: u64,
    standing: Vec<Option<Hex>>,
    field: Rc<[u32]>,
}

/// How many fields [`memo`] keeps.
const KEPT: usize = 16;

/// The field `kind` of the scenario bound as `rules` with the characters `standing`
/// where they stand, computed by `make` unless one of the last fields asked for was the
/// same (a state changes who stands where far less often than it is asked about).
pub(crate) fn memo(
    rules: u64,
    kind: Kind,
    standing: impl Iterator<Item = Option<Hex>> + Clone,
    make: impl FnOnce() -> Vec<u32>,
) -> Rc<[u32]> {
    let print = fingerprint(standing.clone());
    let found = MEMO.with(|m| {
        m.borrow()
            .0
            .iter()
            .find(|k| {
                k.print == print
                    && k.rules == rules
                    && k.kind == kind
                    && k.standing.iter().copied().eq(standing.clone())
            })
            .map(|k| Rc::clone(&k.field))
    });
    if let Some(f) = found {
        return f;
    }
    let field: Rc<[u32]> = Rc::from(make());
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        let next = m.1;
        if m.0.len() < KEPT {
            m.0.push(Kept {
                rules,
                kind,
                print,
                standing: standing.collect(),
                field: Rc::clone(&field),
            });
        } else {
            // The oldest field gives way; its list of who stands where is written over
            // in place (no allocation once the memo is full).
            let old = &mut m.0[next];
            old.rules = rules;
            old.kind = kind;
            old.print = print;
            old.standing.clear();
            old.standing.extend(standing);
            old.field = Rc::clone(&field);
        }
        m.1 = (next + 1) % KEPT;
    });
    field
}

/// Who stands where folded into one number, told apart by the kept fields before they
/// compare the whole list (two lists with different prints differ; the same print is
/// then checked hex by hex).
fn fingerprint(standing: impl Iterator<Item = Option<Hex>>) -> u64 {
    let mut print = 0xcbf2_9ce4_8422_2325_u64;
    for h in standing {
        #[expect(clippy::cast_sign_loss, reason = "bits of a coordinate, not its value")]
        let word = h.map_or(u64::MAX, |h| {
            u64::from(h.q as u32) << 32 | u64::from(h.r as u32)
        });
        print = (print ^ word).wrapping_mul(0x0100_0000_01b3);
    }
    print
}

/// Who stands where, counted once for many questions: per hex of the map, how many
/// characters and a bit per side present.
pub(crate) struct Occupancy {
    count: Vec<u8>,
    sides: Vec<u8>,
}

impl Occupancy {
    /// The occupancy of `map` by characters standing at `(hex, side)`.
    pub(crate) fn new(map: &MapShape, standing: impl Iterator<Item = (Hex, u8)>) -> Occupancy {
        let mut o = Occupancy {
            count: vec![0; map.len()],
            sides: vec![0; map.len()],
        };
        for (h, side) in standing {
            if let Some(i) = map.index(h) {
                o.count[i] = o.count[i].saturating_add(1);
                o.sides[i] |= 1 << (side & 7);
            }
        }
        o
    }

    /// Whether the hex at `i` holds fewer than two characters, none of a side other than
    /// `side`.
    pub(crate) fn open_to(&self, i: usize, side: u8) -> bool {
        self.count[i] < 2 && self.sides[i] & !(1 << (side & 7)) == 0
    }
}

/// The [`reach`] of each character, computed when first asked and kept for the rest of
/// one list of legal actions (a state does not change while its list is drawn up).
/// The first [`NEAR_REACHES`] characters' held in place (every list makes one, and an
/// allocation each cost more than the lookups), the others' in a vector.
#[derive(Default)]
pub(crate) struct Reaches {
    near: [Option<Rc<[u32]>>; NEAR_REACHES],
    fields: Vec<Option<Rc<[u32]>>>,
}

/// How many characters' reaches [`Reaches`] holds in place.
const NEAR_REACHES: usize = 16;

impl Reaches {
    /// The reach of character `i`, computed by `make` on first asking.
    pub(crate) fn get(&mut self, i: usize, make: impl FnOnce() -> Rc<[u32]>) -> &[u32] {
        if let Some(slot) = self.near.get_mut(i) {
            return slot.get_or_insert_with(make);
        }
        let i = i - NEAR_REACHES;
        if self.fields.len() <= i {
            self.fields.resize_with(i + 1, || None);
        }
        self.fields[i].get_or_insert_with(make)
    }
}
