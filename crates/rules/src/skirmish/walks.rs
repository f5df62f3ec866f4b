//! Machinery, not rules: the steps of one character out of its hex outside a charge
//! (a walk, SK-MOV-3, or a Panicked flight, SK-STA-2), priced as `step.rs` prices them
//! and checked as `movement.rs` checks them, from bit sets of who stands where made once
//! for the character instead of a walk over the characters at every step. The movement
//! list asks it for each of a character's six steps, the gate whether any is open, the
//! short moves' route search for each step it takes (SK-SHM-3); debug builds check every
//! answer against [`Skirmish::walk_ok`] and [`Skirmish::entered`].

use super::board::{self, Ends, Entered, Found};
use super::crowd::Crowd;
use super::facing::{arc, Arc};
use super::step::{self, Gait};
use super::{Skirmish, State};
use grognard_engine::UnitId;
use grognard_hex::Direction;

/// Who stands where, as the steps of one character out of its hex read it: a bit a hex
/// of the map (on maps the bit sets hold).
pub(crate) struct Walks<'a> {
    rules: &'a Skirmish,
    u: UnitId,
    /// The character's hex, by index.
    from: usize,
    /// The hexes holding someone other than the character.
    others: u128,
    /// The hexes holding two or more others.
    two: u128,
    /// The hexes holding one other, a friend.
    friend: u128,
    /// The hexes holding a friend.
    friends: u128,
    /// The zone of control of each enemy in play (SK-ZOC-1), the first [`ZONES`].
    zones: [u128; ZONES],
    /// How many of `zones` are the enemies'.
    enemies: usize,
    /// The hexes in an enemy's zone of control.
    in_zone: u128,
    /// The hexes in the zone of an enemy whose zone does not cover the character's hex.
    enters: u128,
    /// A friend stands in the character's hex too.
    passing: bool,
    /// A step back into the character's hex finds no enemy and at most one friend.
    back: bool,
}

/// The most enemies [`Walks`] lays out.
const ZONES: usize = 8;

impl<'a> Walks<'a> {
    /// The steps of `u` out of its hex, or `None` where the bit sets do not serve (a
    /// map without them, a zone wider than the rings they keep, more than [`ZONES`]
    /// enemies, a character off the map).
    #[inline]
    pub(crate) fn new(rules: &'a Skirmish, state: &State, u: UnitId) -> Option<Walks<'a>> {
        // A bit a hex: only on the maps the bit sets serve (at most 128 hexes).
        rules.cells.open_bits()?;
        let from = Skirmish::ch(state, u).hex.and_then(|h| rules.idx(h))?;
        let side = rules.side_of(u);
        let radius = rules.data.zone.radius;
        let mut w = Walks {
            rules,
            u,
            from,
            others: 0,
            two: 0,
            friend: 0,
            friends: 0,
            zones: [0; ZONES],
            enemies: 0,
            in_zone: 0,
            enters: 0,
            passing: false,
            back: true,
        };
        let mut first_here: Option<bool> = None;
        for (k, (c, &camp)) in state.chars.iter().zip(&rules.side_of_char).enumerate() {
            if k == u.index() {
                continue;
            }
            let Some(h) = c.hex else { continue };
            let i = rules.idx(h)?;
            let bit = 1u128 << i;
            w.two |= w.others & bit;
            w.others |= bit;
            if i == from && first_here.is_none() {
                first_here = Some(camp == side);
            }
            if camp == side {
                w.friends |= bit;
            } else {
                let zone = rules.cells.disk_bits(i, radius)?;
                *w.zones.get_mut(w.enemies)? = zone;
                w.enemies += 1;
                w.in_zone |= zone;
                if zone >> from & 1 == 0 {
                    w.enters |= zone;
                }
            }
        }
        w.friend = w.friends & !w.two;
        w.passing = w.friends >> from & 1 == 1;
        // SK-MOV-10, SK-MOV-11: into its own hex again, the others there read as they
        // would for any hex: none, or a friend alone.
        w.back = w.two >> from & 1 == 0 && first_here != Some(false);
        Some(w)
    }

    /// [`Walks::new`] with only the hexes others stand in laid out (no zones, no
    /// friends): it judges a step (plain or evasive) into a hex nobody stands in as
    /// [`Walks::new`] does, since such a step reads no zone of control (SK-MOV-8 ends
    /// the movement after it, SK-MOV-12 concerns a friend's hex), and no other step.
    #[inline]
    fn occupied(rules: &'a Skirmish, state: &State, u: UnitId) -> Option<Walks<'a>> {
        rules.cells.open_bits()?;
        let from = Skirmish::ch(state, u).hex.and_then(|h| rules.idx(h))?;
        let mut others = 0u128;
        for (k, c) in state.chars.iter().enumerate() {
            if let Some(h) = c.hex.filter(|_| k != u.index()) {
                others |= 1u128 << rules.idx(h)?;
            }
        }
        Some(Walks {
            rules,
            u,
            from,
            others,
            two: 0,
            friend: 0,
            friends: 0,
            zones: [0; ZONES],
            enemies: 0,
            in_zone: 0,
            enters: 0,
            passing: false,
            back: true,
        })
    }

    /// Whether nobody stands in the neighbour toward `dir` (on the map).
    fn empty(&self, dir: Direction) -> bool {
        self.rules
            .cells
            .neighbor(self.from, dir)
            .is_some_and(|to| self.free(to))
    }

    /// [`Skirmish::walk_ok`] of the step toward `dir` of a character that can move (SK-MOV-1,
    /// SK-MOV-5 to SK-MOV-7 asked by the caller): the plain step and the evasive one;
    /// `field` is a Panicked character's flight field. (The tests ask it of each step.)
    #[cfg(test)]
    fn walk(&self, state: &State, dir: Direction, field: Option<&[u32]>) -> [bool; 2] {
        self.judge(state, dir, field, true)
    }

    /// [`Skirmish::walk_ok`] of the step toward each of [`Direction::ALL`] in turn (the
    /// movement list asks all six) of a character that can move, the plain step and the
    /// evasive one: what the character alone decides read once, and a step into a hex
    /// nobody stands in judged at once for a character not Panicked (it reads no field
    /// and no step on, SK-MOV-11); the others as [`Walks::judge`] judges them.
    fn walk_all(&self, state: &State, field: Option<&[u32]>) -> [[bool; 2]; 6] {
        let rules = self.rules;
        let c = Skirmish::ch(state, self.u);
        let m = &rules.data.movement;
        let front = rules.data.facing.front_turns;
        // SK-MOV-13: impassable; SK-MOV-10: an enemy, or two characters.
        let barred = self.two | self.others & !self.friend;
        let evades = !c.panicked && !c.berserk;
        Direction::ALL.map(|dir| {
            let Some(to) = rules.cells.neighbor(self.from, dir) else {
                return [false; 2];
            };
            let bit = 1u128 << to;
            if !rules.cells.open(to) || barred & bit != 0 {
                return [false; 2];
            }
            if c.panicked || self.others & bit != 0 {
                return self.judge(state, dir, field, true);
            }
            // SK-MOV-16: a walk keeps its facing and pays double toward the flanks and
            // rear.
            let mut cost = rules.terrain_rows[usize::from(rules.terrain[to])].cost;
            if arc(c.facing, dir, front) != Arc::Front {
                cost *= m.flank_factor;
            }
            [cost <= c.mp, evades && cost + m.evasive <= c.mp]
        })
    }

    /// Whether the plain step toward `dir` is open: [`Walks::judge`]'s first answer.
    fn plain(&self, state: &State, dir: Direction, field: Option<&[u32]>) -> bool {
        self.judge(state, dir, field, false)[0]
    }

    /// The plain step toward `dir` and the evasive one, the evasive step judged only when
    /// `evasive` asks for it.
    fn judge(
        &self,
        state: &State,
        dir: Direction,
        field: Option<&[u32]>,
        evasive: bool,
    ) -> [bool; 2] {
        let rules = self.rules;
        let c = Skirmish::ch(state, self.u);
        let Some(to) = rules.cells.neighbor(self.from, dir) else {
            return [false; 2];
        };
        let bit = 1u128 << to;
        // SK-MOV-13: impassable; SK-MOV-10: an enemy, or two characters.
        if !rules.cells.open(to) || self.two & bit != 0 || self.others & !self.friend & bit != 0 {
            return [false; 2];
        }
        let friend = self.others & bit != 0;
        let row = &rules.terrain_rows[usize::from(rules.terrain[to])];
        let m = &rules.data.movement;
        // A Panicked character runs facing its route (SK-STA-2); a walk keeps its facing
        // and pays double toward the flanks and rear (SK-MOV-16).
        let runs = c.panicked;
        let step_arc = if runs {
            Arc::Front
        } else {
            arc(c.facing, dir, rules.data.facing.front_turns)
        };
        let mut cost = row.cost;
        if !runs && step_arc != Arc::Front {
            cost *= m.flank_factor;
        }
        // SK-MOV-8, SK-MOV-12: the first hex of an enemy's zone ends the movement; a
        // friend's hex is passed, not stopped in.
        let enters = self.enters & bit != 0 || (self.in_zone & bit != 0 && self.passing);
        let stop = enters && !friend;
        let ok = |cost: u8| {
            if cost > c.mp {
                return false;
            }
            if c.panicked {
                let Some(field) = field else {
                    return false;
                };
                let (fi, ti) = (field[self.from], field[to]);
                if fi == u32::MAX || ti.saturating_add(u32::from(row.cost)) != fi {
                    return false;
                }
            }
            !friend || (!stop && self.onward(state, to, c.mp - cost))
        };
        let plain = ok(cost);
        let evasive = evasive && !c.panicked && !c.berserk && ok(cost + m.evasive);
        [plain, evasive]
    }

    /// A step of a short move (SK-SHM-3) from the hex at `from` into its neighbour at
    /// `to` toward `dir`, facing `facing`, as [`Skirmish::entered`] prices it for the
    /// route searches: `None` where the rules refuse it.
    pub(crate) fn short_step(
        &self,
        (from, to): (usize, usize),
        dir: Direction,
        facing: Direction,
    ) -> Option<Entered> {
        self.short_step_from(self.entering(from), (from, to), dir, facing)
    }

    /// SK-MOV-8, SK-MOV-12: the hexes a step from the hex at `from` stops in (a friend's
    /// hex aside): those of every enemy's zone `from` lies outside, and from a friend's
    /// hex, where the zone around it is entered at the next hex, those of every zone. A
    /// search asks it once for all the steps out of a hex.
    pub(crate) fn entering(&self, from: usize) -> u128 {
        let outside = self.zones[..self.enemies]
            .iter()
            .filter(|&&z| z >> from & 1 == 0)
            .fold(0, |all, &z| all | z);
        if self.friends >> from & 1 == 1 {
            outside | self.in_zone
        } else {
            outside
        }
    }

    /// [`Walks::short_step`], with [`Walks::entering`] of `from` already asked.
    pub(crate) fn short_step_from(
        &self,
        entering: u128,
        (from, to): (usize, usize),
        dir: Direction,
        facing: Direction,
    ) -> Option<Entered> {
        debug_assert_eq!(entering, self.entering(from));
        let rules = self.rules;
        let bit = 1u128 << to;
        // SK-MOV-13: impassable; SK-MOV-10: an enemy, or two characters.
        if !rules.cells.open(to) || self.two & bit != 0 || self.others & !self.friend & bit != 0 {
            return None;
        }
        let friend = self.others & bit != 0;
        let row = &rules.terrain_rows[usize::from(rules.terrain[to])];
        let mut cost = row.cost;
        // SK-MOV-16: the facing is held; double toward the flanks and rear.
        if arc(facing, dir, rules.data.facing.front_turns) != Arc::Front {
            cost *= rules.data.movement.flank_factor;
        }
        // SK-MOV-8, SK-MOV-12: the first hex of an enemy's zone stops it, but not a
        // friend's hex.
        Some(Entered {
            cost: u32::from(cost),
            stop: entering & bit != 0 && !friend,
            facing,
        })
    }

    /// Whether nobody but the character stands in the hex at `i`.
    pub(crate) fn free(&self, i: usize) -> bool {
        self.others >> i & 1 == 0
    }

    /// Whether the hex at `i` lies in an enemy's zone of control (SK-ZOC-1).
    pub(crate) fn in_zone(&self, i: usize) -> bool {
        self.in_zone >> i & 1 == 1
    }

    /// SK-MOV-11: whether a step on from the friend's hex at `to` into a free hex, or
    /// back, costs at most `left` points.
    fn onward(&self, state: &State, to: usize, left: u8) -> bool {
        let rules = self.rules;
        let c = Skirmish::ch(state, self.u);
        if left == 0 {
            return false;
        }
        Direction::ALL.into_iter().any(|d| {
            let Some(n) = rules.cells.neighbor(to, d) else {
                return false;
            };
            let free = if n == self.from {
                self.back
            } else {
                self.others >> n & 1 == 0
            };
            if !free || !rules.cells.open(n) {
                return false;
            }
            let row = &rules.terrain_rows[usize::from(rules.terrain[n])];
            let mut cost = row.cost;
            // A walk keeps its facing (SK-MOV-16); a flight faces the way onward.
            if !c.panicked && arc(c.facing, d, rules.data.facing.front_turns) != Arc::Front {
                cost *= rules.data.movement.flank_factor;
            }
            cost <= left
        })
    }
}

/// The six steps of `u` out of its hex, toward [`Direction::ALL`] in turn, each as
/// [`Skirmish::walk_ok`] answers it (the plain step and the evasive one; neither off the
/// map), for a character that can move; `field` is a Panicked character's flight field.
pub(crate) fn steps(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    field: Option<&[u32]>,
) -> [[bool; 2]; 6] {
    let Some(h) = Skirmish::ch(state, u).hex else {
        return [[false; 2]; 6];
    };
    let walked = || {
        let near = Crowd::near(rules, state, u, h);
        Direction::ALL.map(|d| {
            let n = h.neighbor(d);
            if rules.map.contains(n) {
                rules.walk_ok(state, u, n, field, &near)
            } else {
                [false; 2]
            }
        })
    };
    // Most characters have nobody next to them: their steps read who stands where alone.
    let alone = Walks::occupied(rules, state, u).filter(|w| {
        Direction::ALL.into_iter().all(|d| {
            w.rules
                .cells
                .neighbor(w.from, d)
                .is_none_or(|to| w.free(to))
        })
    });
    let Some(walks) = alone.or_else(|| Walks::new(rules, state, u)) else {
        return walked();
    };
    let fast = walks.walk_all(state, field);
    if cfg!(debug_assertions) {
        assert_eq!(fast, walked(), "the steps of {u:?}");
    }
    fast
}

/// Whether any plain step of `u` out of its hex is open: [`steps`] asked for the first
/// open one only (the gate's and the movement's question whether a character can go on).
pub(crate) fn any_step(rules: &Skirmish, state: &State, u: UnitId, field: Option<&[u32]>) -> bool {
    // The cheap question first: a step into a hex nobody stands in, judged from who
    // stands where alone (most characters asked have one).
    let empty = Walks::occupied(rules, state, u).is_some_and(|w| {
        Direction::ALL
            .into_iter()
            .any(|d| w.empty(d) && w.plain(state, d, field))
    });
    if empty {
        if cfg!(debug_assertions) {
            assert!(
                steps(rules, state, u, field).iter().any(|s| s[0]),
                "an empty hex's step of {u:?}"
            );
        }
        return true;
    }
    let Some(walks) = Walks::new(rules, state, u) else {
        return steps(rules, state, u, field).iter().any(|s| s[0]);
    };
    let any = Direction::ALL
        .into_iter()
        .any(|d| walks.plain(state, d, field));
    if cfg!(debug_assertions) {
        assert_eq!(
            any,
            steps(rules, state, u, field).iter().any(|s| s[0]),
            "a step of {u:?}"
        );
    }
    any
}

/// SK-MOV-3, SK-MOV-16: what [`step::walk_reach`] finds (the hexes `u` can walk to within
/// `budget` points stepping as `gait`, by cost and then by index, with their costs and
/// paths), the paths laid end to end in one vector. On the maps the bit sets serve a
/// step is priced as a short move's ([`Walks::short_step`]), which holds the facing
/// (SK-MOV-16): so the general search with the facing as its mode never leaves the
/// character's own, and the search for one facing held (`board::search_fixed_by_cost`,
/// on dense indices) finds the same costs and paths. Debug builds compare it with
/// [`step::walk_reach`]. (The zones it stops in are left out: the searches' plans read
/// only the paths.)
pub(crate) fn walk_ends(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    budget: u32,
    gait: Gait,
) -> Ends {
    let c = Skirmish::ch(state, u);
    let fast = || {
        let start = rules.idx(c.hex?)?;
        let walks = Walks::new(rules, state, u)?;
        // The zones a step stops in, for the hex the last step was asked from (the steps
        // out of a hex are asked one after the other).
        let mut entering = (usize::MAX, 0u128);
        board::search_fixed_by_cost(
            (&rules.map, &rules.cells),
            start,
            c.facing,
            u8::try_from(budget).ok()?,
            |(i, j), dir, f| {
                if entering.0 != i {
                    entering = (i, walks.entering(i));
                }
                walks.short_step_from(entering.1, (i, j), dir, f)
            },
            |i| i != start && walks.free(i),
        )
    };
    // The general search's answer is in the same order already.
    let ends = fast().unwrap_or_else(|| {
        Ends::from_found(
            step::walk_reach(rules, state, u, budget, gait)
                .into_iter()
                .map(|r| Found {
                    hex: r.hex,
                    cost: r.cost,
                    path: r.path,
                })
                .collect(),
        )
    });
    if cfg!(debug_assertions) {
        let slow = step::walk_reach(rules, state, u, budget, gait);
        assert_eq!(
            ends.len(),
            slow.len(),
            "{u:?}'s walk: {ends:?} against {slow:?}"
        );
        for (e, r) in ends.iter().zip(&slow) {
            assert_eq!(
                (e.hex, e.cost, ends.path(e)),
                (r.hex, r.cost, &r.path[..]),
                "{u:?}'s walk"
            );
        }
    }
    ends
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The steps on bit sets answer as [`Skirmish::walk_ok`], for every character that
    /// can move, toward every direction, in random games of the built-in scenario.
    #[test]
    fn the_steps_on_bit_sets_are_the_steps_walk_ok_prices() {
        let (rules, states) = crate::skirmish::test_games::random_states(4, 777, 400);
        let mut checked = 0;
        for state in states {
            for u in rules.ids() {
                let Some(h) = state.chars[u.index()].hex else {
                    continue;
                };
                if rules.can_move(&state, u).is_err() {
                    continue;
                }
                let field = state.chars[u.index()]
                    .panicked
                    .then(|| rules.flight_field(&state, u));
                let field = field.as_deref();
                let walks = Walks::new(&rules, &state, u).expect("Broken Cairn has bit sets");
                let near = Crowd::near(&rules, &state, u, h);
                let all = walks.walk_all(&state, field);
                for (d, each) in Direction::ALL.into_iter().zip(all) {
                    let n = h.neighbor(d);
                    let walked = if rules.map.contains(n) {
                        rules.walk_ok(&state, u, n, field, &near)
                    } else {
                        [false; 2]
                    };
                    assert_eq!(walks.walk(&state, d, field), walked, "{u:?} toward {d:?}");
                    assert_eq!(each, walked, "{u:?} toward {d:?}, the six at once");
                    checked += 1;
                }
            }
        }
        assert!(checked > 1_000, "{checked}");
    }

    /// On a map of more than 128 hexes, where the bit sets do not serve, the steps are
    /// the walk over the characters (SK-MOV-10, SK-MOV-13): random games of Broken Cairn
    /// with two more rows (144 hexes) play on, every step as `walk_ok` prices it.
    #[test]
    fn a_map_too_large_for_the_bit_sets_walks_over_the_characters() {
        let b = crate::builtin::SCENARIOS
            .iter()
            .find(|b| b.path.contains("broken-cairn"))
            .expect("the built-in skirmish");
        let open = ". . . . . . . . . . . .\n";
        let text = b.text.replace("rows = 10", "rows = 12").replacen(
            "terrain = '''\n",
            &format!("terrain = '''\n{open}{open}"),
            1,
        );
        let scenario = crate::registry()
            .load_scenario(b.path, &text)
            .expect("the larger map loads");
        let mut checked = 0;
        for seed in 1..=3u64 {
            let mut game = grognard_engine::Game::<Skirmish>::new(scenario.clone(), Some(seed))
                .expect("the game starts");
            let rules = game.rules_arc();
            assert!(rules.cells.open_bits().is_none(), "144 hexes: no bit sets");
            let mut rng = seed;
            for _ in 0..400 {
                let state = game.state().clone();
                for u in rules.ids() {
                    if state.chars[u.index()].hex.is_some() && rules.can_move(&state, u).is_ok() {
                        let field = state.chars[u.index()]
                            .panicked
                            .then(|| rules.flight_field(&state, u));
                        assert!(Walks::new(&rules, &state, u).is_none());
                        // `steps` checks itself against `walk_ok` in debug builds.
                        let _ = steps(&rules, &state, u, field.as_deref());
                        checked += 1;
                    }
                }
                let legal = game.legal_actions();
                if legal.is_empty() {
                    break;
                }
                rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let pick = usize::try_from(rng >> 33).unwrap_or(0) % legal.len();
                game.apply(legal[pick].clone()).expect("a legal action");
            }
        }
        assert!(checked > 100, "{checked}");
    }
}
