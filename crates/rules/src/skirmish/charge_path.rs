//! The charge path (`docs/rules/skirmish.md`, SK-CHG-5 and SK-CHG-9): where a charger
//! stands in optimal reach of its target, and the least cost to get there.

use super::charge_kept::{kept_field, kept_reach};
use super::{board, Skirmish, State};
use grognard_engine::UnitId;
use grognard_hex::Hex;
use std::rc::Rc;

impl Skirmish {
    /// SK-CHG-5: whether `u`, charging `target`, stands where the target is in optimal
    /// reach: a free hex at one of its weapon's reaches, or the target's own hex for
    /// reach 0 (SK-CHG-9).
    pub(crate) fn charge_goal(&self, state: &State, u: UnitId, target: UnitId, h: Hex) -> bool {
        let Some(t) = Self::ch(state, target).hex else {
            return false;
        };
        let d = h.distance(t);
        if !self.weapons[u.index()].reaches().any(|r| u32::from(r) == d) {
            return false;
        }
        // Who stands in `h`, without listing them (this is asked for many hexes).
        let mut here = state
            .chars
            .iter()
            .enumerate()
            .filter(|(_, c)| c.hex == Some(h))
            .map(|(i, _)| i);
        if d == 0 {
            // `h` is the target's own hex: the target stands there.
            return here.all(|o| o == u.index() || o == target.index());
        }
        self.passable(h) && here.all(|o| o == u.index())
    }

    /// SK-CHG-5: each hex's cost by points to the nearest hex where `target` is in `u`'s
    /// optimal reach, through free hexes and friends (never enemies), zones ignored.
    /// Exact for `u`'s own hex and for whatever costs no more than it (all a charger's
    /// steps from there read, see [`board::field`]).
    ///
    /// Kept for the last positions asked about (see [`kept_field`]), and kept too while
    /// only the charger moves along it: the field is a function of where the others
    /// stand, and of the charger's hex only through where the search stopped.
    pub(crate) fn charge_field(&self, state: &State, u: UnitId, target: UnitId) -> Rc<[u32]> {
        kept_field(self, state, u, target)
    }

    /// [`Skirmish::charge_field`], computed.
    pub(super) fn charge_field_now(&self, state: &State, u: UnitId, target: UnitId) -> Vec<u32> {
        self.charge_field_read(state, u, target, self.reach_inputs(state, u))
    }

    /// [`Skirmish::charge_field_now`] with what [`Skirmish::reach_inputs`] reads of where
    /// the others stand already read (`inputs`, its answer for `state` and `u`).
    pub(super) fn charge_field_read(
        &self,
        state: &State,
        u: UnitId,
        target: UnitId,
        inputs: Option<ReachInputs>,
    ) -> Vec<u32> {
        if cfg!(debug_assertions) {
            assert_eq!(inputs, self.reach_inputs(state, u), "{u:?}'s inputs");
        }
        let Some(t) = Self::ch(state, target).hex else {
            return vec![u32::MAX; self.map.len()];
        };
        let longest = u32::from(self.weapons[u.index()].longest());
        let walked = || -> Vec<usize> {
            t.range(longest)
                .into_iter()
                .filter(|&h| self.map.contains(h) && self.charge_goal(state, u, target, h))
                .filter_map(|h| self.idx(h))
                .collect()
        };
        // The same hexes from bit sets, in map order (the field reads them as a set).
        let others = inputs.map_or_else(|| self.others_bits(state, u), |r| r.others);
        let goals = match self.goal_bits(state, u, (target, t), others) {
            Some(mut bits) => {
                let mut goals = Vec::with_capacity(bits.count_ones() as usize);
                while bits != 0 {
                    goals.push(bits.trailing_zeros() as usize);
                    bits &= bits - 1;
                }
                if cfg!(debug_assertions) {
                    let mut slow = walked();
                    slow.sort_unstable();
                    assert_eq!(goals, slow, "the goals of {u:?}'s charge at {target:?}");
                }
                goals
            }
            None => walked(),
        };
        let me = Self::ch(state, u).hex.and_then(|h| self.idx(h));
        match inputs.map(|r| r.through) {
            Some(open) => board::field_bits(&self.cells, &goals, open, me).unwrap_or_else(|| {
                board::field(&self.cells, &goals, move |i| open >> i & 1 == 1, me)
            }),
            None => board::field(&self.cells, &goals, self.charge_through(state, u), me),
        }
    }

    /// [`Skirmish::charge_through`] as a bit a hex, on maps of at most 128 hexes: the
    /// hexes that may be entered at all, less those holding an enemy of `u` or two
    /// characters, and `u`'s own.
    pub(super) fn charge_through_bits(&self, state: &State, u: UnitId) -> Option<u128> {
        self.reach_inputs(state, u).map(|r| r.through)
    }

    /// SK-CHG-5: the hexes (by index) a charge route of `u` goes on from: its own, and
    /// free hexes or hexes of a friend alone (never enemies).
    fn charge_through<'a>(&'a self, state: &State, u: UnitId) -> impl Fn(usize) -> bool + 'a {
        let side = self.side_of(u);
        let me = Self::ch(state, u).hex.and_then(|h| self.idx(h));
        let occupancy = board::Occupancy::new(
            &self.map,
            state
                .chars
                .iter()
                .enumerate()
                .filter_map(|(i, c)| c.hex.map(|h| (h, self.chars[i].side))),
        );
        move |i| Some(i) == me || (self.cells.open(i) && occupancy.open_to(i, side))
    }

    /// SK-CHG-4, SK-CHG-5: whether `u`'s charge route to `target`, an enemy, costs at
    /// most `mp` points: [`Skirmish::charge_cost`] read from one search from `u` for
    /// every enemy (kept in `reaches` for the rest of the list).
    pub(crate) fn charge_within(
        &self,
        state: &State,
        u: UnitId,
        target: UnitId,
        mp: u32,
        reaches: &mut board::Reaches,
    ) -> bool {
        let reached = reaches.get(u.index(), || kept_reach(self, state, u, mp));
        reached.get(target.index()).is_some_and(|&r| r != 0)
    }

    /// For each character, 1 where it is an enemy of `u` in play and `u`'s charge route
    /// to it costs at most `mp` points (some hex where it is in `u`'s optimal reach
    /// costs no more), else 0. One search from `u`, stopped once every enemy is reached.
    /// Also, where the bit sets serve, the hexes near the enemies whose occupants the
    /// answer read (see [`ReachInputs`]); `None` where they do not.
    pub(super) fn charge_reach(
        &self,
        state: &State,
        u: UnitId,
        mp: u32,
    ) -> (Rc<[u32]>, Option<ReachRead>) {
        let none = || Rc::from(vec![0u32; state.chars.len()]);
        let Some(at) = Self::ch(state, u).hex else {
            return (none(), None);
        };
        let Some(from) = self.idx(at) else {
            return (none(), None);
        };
        let side = self.side_of(u);
        let enemies = self
            .ids()
            .filter(|&t| self.side_of(t) != side)
            .filter_map(|t| Self::ch(state, t).hex.map(|h| (t, h)));
        // The enemies held in place where the bit sets may serve (no allocation).
        let mut few = [(UnitId(0), Hex::ORIGIN); GOALS];
        let mut n = 0;
        let mut many = Vec::new();
        for e in enemies {
            if n < GOALS && many.is_empty() {
                few[n] = e;
                n += 1;
            } else {
                if many.is_empty() {
                    many.extend_from_slice(&few[..n]);
                }
                many.push(e);
            }
        }
        let enemies = if many.is_empty() {
            &few[..n]
        } else {
            &many[..]
        };
        if let Some((fast, read)) = self.charge_reach_bits(state, u, mp, (at, from), enemies) {
            if cfg!(debug_assertions) {
                let slow = self.charge_reach_walked(state, u, mp, (at, from), enemies);
                assert_eq!(
                    &fast[..],
                    &slow[..],
                    "the charge reach of {u:?} within {mp}"
                );
            }
            return (fast, Some(read));
        }
        let slow = self.charge_reach_walked(state, u, mp, (at, from), enemies);
        (Rc::from(slow), None)
    }

    /// What [`Skirmish::charge_reach`] on bit sets reads of where the others stand,
    /// besides the hexes of `u` and of its enemies: `None` where the bit sets do not
    /// serve.
    pub(super) fn reach_inputs(&self, state: &State, u: UnitId) -> Option<ReachInputs> {
        let open = self.cells.open_bits()?;
        let side = self.side_of(u);
        let (mut seen, mut barred, mut others, mut crowd) = (0u128, 0u128, 0u128, 0u128);
        let mut me = 0u128;
        for (k, (c, &camp)) in state.chars.iter().zip(&self.side_of_char).enumerate() {
            let Some(i) = c.hex.and_then(|h| self.idx(h)) else {
                continue;
            };
            let bit = 1u128 << i;
            if camp != side || seen & bit != 0 {
                barred |= bit;
            }
            seen |= bit;
            if k == u.index() {
                me = bit;
            } else {
                crowd |= others & bit;
                others |= bit;
            }
        }
        Some(ReachInputs {
            through: open & !barred | me,
            others,
            crowd,
        })
    }

    /// [`Skirmish::charge_reach`] on bit sets of hexes, the search entering every
    /// neighbour of a cost's hexes at once (`board::reach_goals`): `None` with more than
    /// 64 characters or [`GOALS`] enemies, a reach beyond the rings the map keeps, or a
    /// map without bit sets. With the answer, the hexes within the weapon's longest
    /// reach of an enemy it looked for (its goals), whose occupants it read, and all it
    /// read of where the others stand.
    fn charge_reach_bits(
        &self,
        state: &State,
        u: UnitId,
        mp: u32,
        (at, from): (Hex, usize),
        enemies: &[(UnitId, Hex)],
    ) -> Option<(Rc<[u32]>, ReachRead)> {
        if state.chars.len() > 64 || enemies.len() > GOALS {
            return None;
        }
        let inputs = self.reach_inputs(state, u)?;
        let ReachInputs {
            through, others, ..
        } = inputs;
        let longest = u32::from(self.weapons[u.index()].longest());
        let mut goals = [0u128; GOALS];
        let mut near = 0u128;
        for (goal, &(t, th)) in goals.iter_mut().zip(enemies) {
            // Farther than a route of `mp` points goes: never reached.
            if self.cells.least(at.distance(th).saturating_sub(longest)) > mp {
                continue;
            }
            *goal = self.goal_bits(state, u, (t, th), others)?;
            near |= self.cells.disk_bits(self.idx(th)?, longest)?;
        }
        let (found, _) =
            board::reach_goals(&self.cells, from, mp, through, &goals[..enemies.len()])?;
        // The characters reached, a bit each (at most 64 of them), made into the answer
        // with one allocation.
        let mut hit = 0u64;
        for (k, &(t, _)) in enemies.iter().enumerate() {
            hit |= u64::from(found >> k & 1 == 1) << t.index();
        }
        let reached = (0..state.chars.len())
            .map(|i| u32::from(hit >> i & 1 == 1))
            .collect();
        Some((reached, (near, inputs)))
    }

    /// The hexes where someone other than `u` stands, a bit each (on maps of at most 128
    /// hexes; characters off such a map are left out, as no hex of it holds them).
    fn others_bits(&self, state: &State, u: UnitId) -> u128 {
        let mut others = 0u128;
        for (k, c) in state.chars.iter().enumerate() {
            let at = c.hex.and_then(|h| self.idx(h));
            if let Some(i) = at.filter(|&i| k != u.index() && i < 128) {
                others |= 1u128 << i;
            }
        }
        others
    }

    /// SK-CHG-5, SK-CHG-9: the hexes where `target`, standing at `th`, is in `u`'s
    /// optimal reach, as [`Skirmish::charge_goal`] finds them, a bit each: free hexes at
    /// one of the weapon's reaches (`others` holds the hexes someone other than `u`
    /// stands in), or the target's own hex for reach 0 with no one but the charger and
    /// the target in it. `None` where the map keeps no bit sets, or no rings that far.
    fn goal_bits(
        &self,
        state: &State,
        u: UnitId,
        (target, th): (UnitId, Hex),
        others: u128,
    ) -> Option<u128> {
        let open = self.cells.open_bits()?;
        let ti = self.idx(th)?;
        let mut goal = 0u128;
        for r in self.weapons[u.index()].reaches() {
            if r == 0 {
                let crowded = state
                    .chars
                    .iter()
                    .enumerate()
                    .any(|(o, c)| o != u.index() && o != target.index() && c.hex == Some(th));
                if !crowded {
                    goal |= 1u128 << ti;
                }
            } else {
                goal |= self.cells.ring_bits(ti, u32::from(r))? & open & !others;
            }
        }
        Some(goal)
    }

    /// [`Skirmish::charge_reach`] by the search that tells each hex settled, on any map.
    fn charge_reach_walked(
        &self,
        state: &State,
        u: UnitId,
        mp: u32,
        (at, from): (Hex, usize),
        enemies: &[(UnitId, Hex)],
    ) -> Vec<u32> {
        let mut reached = vec![0u32; state.chars.len()];
        let longest = u32::from(self.weapons[u.index()].longest());
        // The hexes where each of the first 64 enemies is in optimal reach, a bit each;
        // the search stops once every one has been reached (with more enemies, never).
        // Who stands in each hex, a bit per character (up to 64 of them), read for every
        // hex near an enemy instead of scanning the characters each time.
        let few = state.chars.len() <= 64;
        // The tables held in place on maps of at most `SMALL` hexes (no allocation).
        let hexes = self.map.len();
        let (mut standing_small, mut standing_big) = ([0u64; SMALL], Vec::new());
        let standing: &mut [u64] = match (few, hexes <= SMALL) {
            (false, _) => &mut [],
            (true, true) => &mut standing_small[..hexes],
            (true, false) => {
                standing_big.resize(hexes, 0);
                &mut standing_big
            }
        };
        if few {
            for (k, c) in state.chars.iter().enumerate() {
                if let Some(i) = c.hex.and_then(|h| self.idx(h)) {
                    standing[i] |= 1 << k;
                }
            }
        }
        let weapon = &self.weapons[u.index()];
        // [`Skirmish::charge_goal`], read from `standing`.
        let goal_at = |t: UnitId, th: Hex, h: Hex, i: usize| {
            if !few {
                return self.charge_goal(state, u, t, h);
            }
            let d = h.distance(th);
            if !weapon.reaches().any(|r| u32::from(r) == d) {
                return false;
            }
            let others = standing[i] & !(1 << u.index());
            if d == 0 {
                return others & !(1 << t.index()) == 0;
            }
            self.passable(h) && others == 0
        };
        let (mut goal_small, mut goal_big) = ([0u64; SMALL], Vec::new());
        let goal: &mut [u64] = if hexes <= SMALL {
            &mut goal_small[..hexes]
        } else {
            goal_big.resize(hexes, 0);
            &mut goal_big
        };
        let mut wanted = 0u64;
        for (k, &(t, th)) in enemies.iter().enumerate().take(64) {
            // An enemy farther than a route of `mp` points goes is never reached: the
            // search need not wait for it (a step enters one hex, each costs at least
            // the cheapest terrain).
            if self.cells.least(at.distance(th).saturating_sub(longest)) > mp {
                continue;
            }
            for h in around(th, longest) {
                if let Some(i) = self.idx(h) {
                    if goal_at(t, th, h, i) {
                        goal[i] |= 1 << k;
                        wanted |= 1 << k;
                    }
                }
            }
        }
        let every = enemies.len() <= 64;
        if every && wanted == 0 {
            return reached;
        }
        let mut found = 0u64;
        let mut settled = |i: usize| {
            found |= goal[i];
            every && found == wanted
        };
        let dist = match self.charge_through_bits(state, u) {
            Some(open) => board::reach(
                &self.cells,
                from,
                mp,
                move |i| open >> i & 1 == 1,
                &mut settled,
            ),
            None => board::reach(
                &self.cells,
                from,
                mp,
                self.charge_through(state, u),
                &mut settled,
            ),
        };
        for (k, &(t, th)) in enemies.iter().enumerate() {
            let within = if k < 64 {
                found >> k & 1 == 1
            } else {
                th.range(longest).into_iter().any(|h| {
                    self.idx(h).is_some_and(|i| dist[i] <= mp) && self.charge_goal(state, u, t, h)
                })
            };
            reached[t.index()] = u32::from(within);
        }
        reached
    }

    /// The distance by points of `u`'s charge route to `target`, if any.
    pub(crate) fn charge_cost(&self, state: &State, u: UnitId, target: UnitId) -> Option<u32> {
        let h = Self::ch(state, u).hex?;
        let f = self.charge_field(state, u, target);
        let d = f[self.idx(h)?];
        (d != u32::MAX).then_some(d)
    }
}

/// What a reach on bit sets read of where the others stand: the hexes near the enemies
/// (its goals' rings), and [`ReachInputs`] (a kept reach holds while they read the same).
pub(super) type ReachRead = (u128, ReachInputs);

/// All that [`Skirmish::charge_reach`] on bit sets reads of where everyone stands,
/// besides the hexes of the charger and of its enemies (SK-CHG-4, SK-CHG-5): the hexes
/// a route goes on from (free hexes and a friend's alone, the charger's own), and near
/// the enemies (where its goals are) the hexes someone other than the charger stands
/// in and those where two or more do. A reach worked out for the same of these, the
/// charger and its enemies standing where they stood, answers the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ReachInputs {
    pub through: u128,
    pub others: u128,
    pub crowd: u128,
}

impl ReachInputs {
    /// These inputs with only the hexes of `near` kept of who stands where.
    pub(super) fn near(self, near: u128) -> ReachInputs {
        ReachInputs {
            through: self.through,
            others: self.others & near,
            crowd: self.crowd & near,
        }
    }
}

/// The most hexes a map may have for [`Skirmish::charge_reach`] to keep its tables in
/// place.
const SMALL: usize = 128;

/// The most enemies [`Skirmish::charge_reach`] reckons on bit sets.
const GOALS: usize = 16;

/// The hexes of `h.range(radius)`, in its order, without building the list.
fn around(h: Hex, radius: u32) -> impl Iterator<Item = Hex> {
    let r = i32::try_from(radius).unwrap_or(i32::MAX / 4);
    (-r..=r).flat_map(move |dq| {
        ((-r).max(-dq - r)..=r.min(-dq + r)).map(move |dr| Hex::new(h.q + dq, h.r + dr))
    })
}
