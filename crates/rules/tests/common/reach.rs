//! `Ruleset::reachable` against the steps themselves: every hex it lists is reached by
//! following its path with listed actions, and every hex the listed steps reach is
//! listed, at the same least cost where the cost is the movement points spent.

use grognard_engine::{Ctx, Dice, Game, Reached, Refusal, Ruleset, UnitId};
use grognard_hex::Hex;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// The movement points a unit has left.
pub type Points<R> = fn(&R, &<R as Ruleset>::State, UnitId) -> u32;

/// States met, by hex, with their least cost.
type Seen<S> = BTreeMap<(i32, i32), Vec<(S, u32)>>;

/// How a ruleset moves its units, as far as the checks need to know.
pub struct Mover<R: Ruleset> {
    /// Where a unit stands.
    pub hex: fn(&R, &R::State, UnitId) -> Option<Hex>,
    /// The unit a listed action moves and the hex it enters: one step, or (with
    /// `whole`) the whole move to its destination.
    pub step: fn(&R::Action) -> Option<(UnitId, Hex)>,
    /// The action [`Mover::step`] reads back, to ask `explain` why it is refused.
    pub action: fn(UnitId, Hex) -> R::Action,
    /// True when a move is one action to its destination.
    pub whole: bool,
    /// The movement points a unit has left, when `reachable`'s cost is the points
    /// spent; `None` when the cost is counted otherwise (e.g. in hexes).
    pub points: Option<Points<R>>,
    /// Dice results forced before each step, so that chance never cuts a move short
    /// (`reachable` assumes every test passed).
    pub lucky: &'static [u32],
    /// Forgets, in a copy of the state, what cannot change where the unit's steps lead
    /// or at what least cost: at least its points left (states are explored cheapest
    /// first, and more points never reach less), so that equal states are met once.
    pub forget: fn(&R, &mut R::State, UnitId),
    /// The action that lets a window of the other side pass after a step (its reaction,
    /// which `reachable` assumes declined), when the legal list offers one.
    pub pass: fn(&[R::Action]) -> Option<R::Action>,
    /// True when `reachable` lists only the unit's next steps (e.g. a charge's run).
    pub next_only: fn(&R, &R::State, UnitId) -> bool,
    /// Whether the unit's move may end where it stands (it may only pass through some
    /// hexes); `reachable` lists only the hexes where a move may end, save when it
    /// lists the next steps only.
    pub may_end: fn(&R, &R::State, UnitId) -> bool,
}

impl<R: Ruleset> Mover<R> {
    /// Whether `legal` holds a move of `u`.
    fn moves(&self, legal: &[R::Action], u: UnitId) -> bool {
        legal
            .iter()
            .any(|a| (self.step)(a).is_some_and(|(v, _)| v == u))
    }

    /// Lets the other side's windows pass after a step of `u`, until `u` may step on or
    /// no window is left.
    fn settle(&self, rules: &R, state: &mut R::State, u: UnitId, at: &str) {
        for _ in 0..8 {
            let legal = super::legal(rules, state);
            if self.moves(&legal, u) {
                return;
            }
            let Some(p) = (self.pass)(&legal) else {
                return;
            };
            if let Err(e) = apply(rules, state, &p, self.lucky) {
                panic!("{at}: listed {p:?} refused: {e}");
            }
        }
    }
}

/// Applies `a` with the lucky dice; the refusal when `a` is illegal.
fn apply<R: Ruleset>(
    rules: &R,
    state: &mut R::State,
    a: &R::Action,
    lucky: &[u32],
) -> Result<(), Refusal> {
    let mut dice = Dice::new(0);
    dice.force(lucky.iter().copied());
    let mut events = Vec::new();
    let mut ctx = Ctx::new(&mut dice, &mut events);
    rules.apply(state, a, &mut ctx)
}

/// The listed action that moves `u` into `to`.
fn listed<R: Ruleset>(m: &Mover<R>, legal: &[R::Action], u: UnitId, to: Hex) -> Option<R::Action> {
    legal.iter().find(|a| (m.step)(a) == Some((u, to))).cloned()
}

/// (a) Follows `r`'s path from `state`, a listed step at a time (or the one listed
/// action to its end); the unit must end on `r.hex` having spent `r.cost`.
fn follow<R: Ruleset>(rules: &R, state: &R::State, m: &Mover<R>, u: UnitId, r: &Reached, at: &str) {
    // A unit off the map (a reinforcement coming on) has no hex to start from.
    let start = (m.hex)(rules, state, u);
    assert_eq!(
        r.path.last(),
        Some(&r.hex),
        "{at}: {u:?} path to {:?} ends elsewhere: {r:?}",
        r.hex
    );
    let mut prev = start;
    for &h in &r.path {
        if let Some(p) = prev {
            assert!(
                p.direction_to(h).is_some(),
                "{at}: {u:?} path {r:?} jumps from {p:?} to {h:?}"
            );
        }
        prev = Some(h);
    }
    let mut s = state.clone();
    let hexes: Vec<Hex> = if m.whole { vec![r.hex] } else { r.path.clone() };
    for (k, &h) in hexes.iter().enumerate() {
        let legal = super::legal(rules, &s);
        let Some(a) = listed(m, &legal, u, h) else {
            let e = rules.explain(&s, &(m.action)(u, h));
            panic!(
                "{at}: {u:?} reaching {:?}: step {k} into {h:?} is not listed ({:?}); {r:?}",
                r.hex, e.reasons
            );
        };
        if let Err(e) = apply(rules, &mut s, &a, m.lucky) {
            panic!(
                "{at}: {u:?} reaching {:?}: step {k} {a:?} refused: {e}; {r:?}",
                r.hex
            );
        }
        // A window the step opens (e.g. for an attack of opportunity) comes first.
        m.settle(rules, &mut s, u, at);
        assert_eq!(
            (m.hex)(rules, &s, u),
            Some(h),
            "{at}: {a:?} left {u:?} elsewhere; {r:?}; now {s:?}"
        );
    }
    if let Some(points) = m.points {
        let spent = points(rules, state, u) - points(rules, &s, u);
        assert_eq!(
            spent, r.cost,
            "{at}: {u:?} reached {:?} for {spent}, listed at {}",
            r.hex, r.cost
        );
    } else {
        assert_eq!(
            r.cost as usize,
            r.path.len(),
            "{at}: {u:?}: a cost in hexes is the path's length: {r:?}"
        );
    }
}

/// (b) The least cost of every hex the listed steps of `u` reach from `state` (all the
/// states they lead to, cheapest first, until the unit may step no more), by hex.
fn explore<R: Ruleset>(
    rules: &R,
    state: &R::State,
    m: &Mover<R>,
    u: UnitId,
    at: &str,
) -> BTreeMap<(i32, i32), (u32, Vec<Hex>)> {
    let start = (m.hex)(rules, state, u);
    let points = |s: &R::State| m.points.map_or(0, |p| p(rules, s, u));
    let full = points(state);
    let next_only = (m.next_only)(rules, state, u);
    let mut best = BTreeMap::new();
    // The states met, forgotten as `m.forget` says, by hex, with their least cost.
    let mut seen: Seen<R::State> = BTreeMap::new();
    let mut queue = BinaryHeap::new();
    let mut states = vec![(state.clone(), Vec::new())];
    queue.push((Reverse(0), 0));
    while let Some((_, i)) = queue.pop() {
        let (s, path) = states[i].clone();
        let legal = super::legal(rules, &s);
        for a in legal {
            if (m.step)(&a).is_none_or(|(v, _)| v != u) {
                continue;
            }
            let mut t = s.clone();
            if let Err(e) = apply(rules, &mut t, &a, m.lucky) {
                panic!("{at}: listed {a:?} refused: {e}");
            }
            m.settle(rules, &mut t, u, at);
            let h = (m.hex)(rules, &t, u)
                .unwrap_or_else(|| panic!("{at}: {a:?} took {u:?} off the map"));
            let cost = full - points(&t);
            let mut path = path.clone();
            path.push(h);
            if Some(h) != start && (next_only || (m.may_end)(rules, &t, u)) {
                let e = best.entry((h.q, h.r)).or_insert((cost, path.clone()));
                if cost < e.0 {
                    *e = (cost, path.clone());
                }
            }
            if m.whole || next_only {
                continue;
            }
            let mut key = t.clone();
            (m.forget)(rules, &mut key, u);
            let bucket = seen.entry((h.q, h.r)).or_default();
            match bucket.iter_mut().find(|(k, _)| *k == key) {
                Some((_, c)) if *c <= cost => continue,
                Some((_, c)) => *c = cost,
                None => bucket.push((key, cost)),
            }
            states.push((t, path));
            queue.push((Reverse(cost), states.len() - 1));
        }
    }
    best
}

/// Checks `reachable` for every unit with a listed move at one position; returns how
/// many hexes were checked.
///
/// # Panics
/// At the first mismatch.
pub fn assert_reachable<R: Ruleset>(rules: &R, state: &R::State, m: &Mover<R>, at: &str) -> usize {
    let mut units: Vec<UnitId> = super::legal(rules, state)
        .iter()
        .filter_map(|a| (m.step)(a).map(|(u, _)| u))
        .collect();
    units.sort_by_key(|u| u.0);
    units.dedup();
    let mut n = 0;
    for u in units {
        let reach = rules.reachable(state, u).unwrap_or_else(|e| {
            panic!("{at}: {u:?} has a listed move, but reachable refuses: {e}")
        });
        for r in &reach {
            follow(rules, state, m, u, r, at);
        }
        let found = explore(rules, state, m, u, at);
        for (&(q, r), (cost, path)) in &found {
            let cost = *cost;
            let listed = reach.iter().find(|x| (x.hex.q, x.hex.r) == (q, r));
            let Some(listed) = listed else {
                panic!("{at}: {u:?} reaches ({q}, {r}) for {cost} by its steps along {path:?}, but reachable omits it; it lists {reach:?}");
            };
            if m.points.is_some() {
                assert_eq!(
                    listed.cost, cost,
                    "{at}: {u:?} reaches ({q}, {r}) for {cost} by its steps along {path:?}, listed at {}",
                    listed.cost
                );
            }
        }
        assert_eq!(
            found.len(),
            reach.len(),
            "{at}: {u:?}: steps reach {} hexes ({found:?}), reachable lists {} ({reach:?})",
            found.len(),
            reach.len()
        );
        n += reach.len();
    }
    n
}

/// [`assert_reachable`] on the states of random games, one from `start(seed)` for each
/// seed, at every `every`-th action; returns how many hexes were checked.
///
/// # Panics
/// As [`assert_reachable`] and [`super::playout::play`].
pub fn assert_reachable_in_play<R: Ruleset>(
    seeds: std::ops::Range<u64>,
    start: impl Fn(u64) -> Game<R>,
    every: usize,
    max: usize,
    m: &Mover<R>,
) -> usize {
    let mut hexes = 0;
    for seed in seeds {
        let mut g = start(seed);
        let mut pick = Dice::new(seed ^ 0x7eac);
        let check = |g: &Game<R>, legal: &[R::Action], n: usize, _: &mut Dice| {
            if !legal.is_empty() && n % every == 0 {
                let at = format!("seed {seed}, action {n}");
                hexes += assert_reachable(g.rules(), g.state(), m, &at);
            }
        };
        super::playout::play(&mut g, &mut pick, max, check, |_, _| {});
    }
    hexes
}
