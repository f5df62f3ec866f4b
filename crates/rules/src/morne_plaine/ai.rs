//! How the computer opponent judges a Morne Plaine position (not a rule: a heuristic
//! for `Ruleset::evaluate`).

use super::combat::COMBAT_DIE;
use super::{Action, MornePlaine, Phase, State, UnitId, NO_HEX};
use grognard_engine::{Plan, Term};
use std::cell::RefCell;

thread_local! {
    /// Where each unit stands and the threats' working lists, kept from one evaluation
    /// to the next, so that the evaluation builds no list at the search's leaves.
    static LEAF: RefCell<Leaf> = RefCell::new(Leaf::default());
}

/// What one evaluation works on: each unit's hex as an index of the map ([`NO_HEX`]
/// off it), who stands where ([`MornePlaine::occupancy`]), and the threats' lists.
#[derive(Default)]
struct Leaf {
    at: Vec<u32>,
    occ: Vec<u16>,
    threats: Scratch,
}

/// The threats' working lists: the attack each unit would meet, its defence strength
/// once computed (`u32::MAX` before), whether a unit in contact with several enemies
/// already leads the attack on it, and those units with their strength and contacts.
#[derive(Default)]
struct Scratch {
    attack: Vec<u32>,
    defence: Vec<u32>,
    led: Vec<bool>,
    shared: Vec<(u32, [u16; 6])>,
}

/// The combat table as the threats read it, built at the first evaluation: what an
/// attack at each column is expected to cost the defender ([`MornePlaine::exchange`],
/// never below nothing), and the column (MP-CMB-16) of each attack and defence below
/// [`COLUMN_ATTACKS`] and [`COLUMN_DEFENCES`], so that a leaf looks them up instead of
/// working them out.
///
/// It also keeps the objectives (their places' indices and values) and each hex's
/// distance to each of them, objective by objective, so that a leaf reads them.
#[derive(Debug)]
pub(crate) struct Odds {
    exchange: Vec<f64>,
    /// By defence, then attack.
    columns: Vec<u16>,
    /// The scenario's objective places: index among the places, hex, value.
    objectives: Vec<(usize, grognard_hex::Hex, f64)>,
    /// For objective `k` and hex index `j`, at `k * map.len() + j`: their distance.
    distance: Vec<u32>,
}

/// The parts of the evaluation and their weights, in the order of
/// [`MornePlaine::parts`], all from the side's view (its units counted up, the enemy's
/// down):
/// - `strength`: each unit on the map's full strength × √(its strength share);
/// - `morale`: the morale points on the map;
/// - `lost`: the units off the map that are not waiting to enter;
/// - `distance`: the hexes between each of the side's units and the nearest
///   objective it does not hold (its own units only);
/// - `objectives`: each objective held, its value × a weight growing from 4 to 8
///   with the turns (MP-VIC-1);
/// - `at_risk`: the objectives that may change hands ([`MornePlaine::objectives_at_risk`]);
/// - `sudden_death`: 1 for a sudden-death side holding every objective (MP-VIC-2), the
///   last objective's risk halved when one is short;
/// - `threats`: what the attacks open next cost each side ([`MornePlaine::threats_in`]);
/// - `moved`: the side's units moved in its movement phase (a tiny nudge to use it).
pub(crate) const TERMS: [(&str, f64); 9] = [
    ("strength", 3.0),
    ("morale", 1.5),
    ("lost", -6.0),
    ("distance", -0.25),
    ("objectives", 1.0),
    ("at_risk", 1.0),
    // What holding every objective is worth to a sudden-death side: the game, unless
    // the other side takes one back before the game turn ends.
    ("sudden_death", 30.0),
    ("threats", -1.0),
    ("moved", 0.01),
];

/// Terms the evaluation does not weigh yet, offered to the fit: `lead`, the victory
/// points each side would score if the game ended now (MP-VIC-1), the side's less
/// the enemy's.
pub(crate) const CANDIDATES: [&str; 1] = ["lead"];

/// The attacks and defences whose column [`Odds`] keeps.
const COLUMN_ATTACKS: usize = 128;
const COLUMN_DEFENCES: usize = 64;

impl Odds {
    fn new(rules: &MornePlaine) -> Odds {
        let exchange = (0..rules.data.crt.columns.len())
            .map(|c| rules.exchange(c).max(0.0))
            .collect();
        let mut columns = Vec::with_capacity(COLUMN_ATTACKS * COLUMN_DEFENCES);
        for def in 0..COLUMN_DEFENCES as u32 {
            for a in 0..COLUMN_ATTACKS as u32 {
                let c = rules.data.crt.column(a, def);
                columns.push(u16::try_from(c).unwrap_or(u16::MAX));
            }
        }
        let objectives: Vec<_> = rules
            .scenario
            .places
            .iter()
            .enumerate()
            .filter(|(_, p)| p.objective)
            .map(|(i, p)| (i, p.hex, p.value.unwrap_or(1) as f64))
            .collect();
        let distance = objectives
            .iter()
            .flat_map(|&(_, o, _)| (0..rules.map.len()).map(move |j| (o, j)))
            .map(|(o, j)| o.distance(rules.map.hex_at(j)))
            .collect();
        Odds {
            exchange,
            columns,
            objectives,
            distance,
        }
    }

    /// The distance from objective `k` to the hex of a unit standing at index `at`
    /// (its `hex` when off the table's map).
    #[inline]
    fn distance(&self, k: usize, at: u32, hex: grognard_hex::Hex, len: usize) -> u32 {
        if at == NO_HEX {
            self.objectives[k].1.distance(hex)
        } else {
            self.distance[k * len + at as usize]
        }
    }

    /// What an attack of `attack` against `defence` is expected to cost the defender.
    fn cost(&self, rules: &MornePlaine, attack: u32, defence: u32) -> f64 {
        let (a, d) = (attack as usize, defence as usize);
        let column = if a < COLUMN_ATTACKS && d < COLUMN_DEFENCES {
            usize::from(self.columns[d * COLUMN_ATTACKS + a])
        } else {
            rules.data.crt.column(attack, defence)
        };
        self.exchange.get(column).copied().unwrap_or(0.0)
    }
}

impl MornePlaine {
    /// Material (strength and morale on the map), objectives held, nearness of each
    /// unit to the nearest objective it does not hold, and the threats of the units in
    /// contact ([`MornePlaine::threats_in`]), from `side`'s view: each of [`TERMS`] times
    /// its weight.
    pub(crate) fn score(&self, state: &State, side: &str) -> f64 {
        let parts = self.parts(state, side);
        crate::common::terms::weighed(&parts, &TERMS)
    }

    /// The evaluation's parts ([`TERMS`]) with their weights, and the candidates it
    /// does not weigh yet ([`CANDIDATES`]), for fitting the weights to games.
    pub(crate) fn terms(&self, state: &State, side: &str, out: &mut Vec<Term>) {
        let parts = self.parts(state, side);
        crate::common::terms::named(&parts, &TERMS, out);
        let me = usize::from(self.sides[1] == side);
        let points = super::victory::points(self, state);
        let lead = (points[me] - points[1 - me]) as f64;
        out.push(Term::new(CANDIDATES[0], lead, 0.0));
    }

    /// The values of [`TERMS`], in their order, from `side`'s view.
    fn parts(&self, state: &State, side: &str) -> [f64; TERMS.len()] {
        LEAF.with(|cell| self.parts_in(state, side, &mut cell.borrow_mut()))
    }

    /// [`MornePlaine::parts`] on this thread's [`Leaf`].
    fn parts_in(&self, state: &State, side: &str, leaf: &mut Leaf) -> [f64; TERMS.len()] {
        let odds = self.odds.get_or_init(|| Odds::new(self));
        let len = self.map.len();
        leaf.at.clear();
        leaf.occ.clear();
        leaf.occ.resize(len, 0);
        for (i, u) in state.units.iter().enumerate() {
            let j = u.hex.and_then(|h| self.idx(h));
            if let Some(j) = j {
                leaf.occ[j] = u16::try_from(i + 1).expect("unit count fits u16");
            }
            leaf.at
                .push(j.map_or(NO_HEX, |j| u32::try_from(j).expect("maps are small")));
        }
        let me = u8::from(self.sides[1] == side);
        let (mut strength, mut morale, mut lost, mut distance) = (0.0, 0.0, 0.0, 0.0);
        for (i, (c, u)) in self.counters.iter().zip(&state.units).enumerate() {
            let sign = if c.side == me { 1.0 } else { -1.0 };
            let Some(hex) = u.hex else {
                if !u.waiting {
                    lost += sign;
                }
                continue;
            };
            // A damaged unit at its cost times the root of its strength share (the last
            // points weigh most, so a worn unit is worth finishing), morale as it stands.
            let share = f64::from(u.cs) / f64::from(c.cs.max(1));
            strength += sign * f64::from(c.cs) * share.min(1.0).sqrt();
            morale += sign * f64::from(u.mv);
            if c.side == me {
                // Drawn toward the objectives the side does not hold.
                let d = odds
                    .objectives
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| state.held[o.0] != Some(me))
                    .map(|(k, _)| odds.distance(k, leaf.at[i], hex, len))
                    .min();
                if let Some(d) = d {
                    distance += f64::from(d);
                }
            }
        }
        // Objectives count at the end (MP-VIC-1): holding one weighs more as the turns
        // run out, from 4 a point of value at the start to 8 on the last turn.
        let late = f64::from(state.turn.min(self.turns)) / f64::from(self.turns.max(1));
        let objective = 4.0 * (1.0 + late);
        let mut held = 0.0;
        for &(i, _, value) in &odds.objectives {
            match state.held[i] {
                Some(h) if h == me => held += objective * value,
                Some(_) => held -= objective * value,
                None => {}
            }
        }
        let (at_risk, sudden) = self.objectives_at_risk(state, me, objective, odds, &leaf.at);
        // Leaving movement points unused is no loss, but ending the phase early is no
        // gain either: a tiny nudge to use them.
        let moved = if state.phase == Phase::Movement {
            state
                .units
                .iter()
                .zip(&self.counters)
                .filter(|(u, c)| c.side == me && u.moved)
                .count() as f64
        } else {
            0.0
        };
        let threats = self.threats_in(state, me, leaf);
        [
            strength, morale, lost, distance, held, at_risk, sudden, threats, moved,
        ]
    }

    /// The objectives that may change hands, from `me`'s view: an objective (MP-VIC-1)
    /// that no unit of its holder stands on is at risk when an enemy unit stands within
    /// its movement allowance of it (wholly) or twice that (in part), and at half the
    /// risk when a unit of the holder is beside it to take it back. Losing it swings
    /// twice its worth; the risk counts half of that, and half again when the holder
    /// acts next. With a sudden-death side (MP-VIC-2), holding every objective weighs as
    /// the game it wins, and the one objective still out of its hands as that game's
    /// last stake. `at`: each unit's hex index ([`Leaf`]).
    fn objectives_at_risk(
        &self,
        state: &State,
        me: u8,
        objective: f64,
        odds: &Odds,
        at: &[u32],
    ) -> (f64, f64) {
        let (_, sudden) = super::victory::terms(self);
        let len = self.map.len();
        let mut total = 0.0;
        let count = odds.objectives.len();
        let mut held_by_sudden = 0;
        let mut last_risk = 0.0;
        for (k, &(i, _, value)) in odds.objectives.iter().enumerate() {
            let Some(holder) = state.held[i] else {
                continue;
            };
            if Some(holder) == sudden {
                held_by_sudden += 1;
            }
            let mut near_enemy = f64::from(u8::MAX);
            let mut garrisoned = false;
            let mut covered = false;
            for (j, (c, u)) in self.counters.iter().zip(&state.units).enumerate() {
                let Some(hex) = u.hex else { continue };
                if u.cs == 0 {
                    continue;
                }
                let d = odds.distance(k, at[j], hex, len);
                if c.side == holder {
                    garrisoned |= d == 0;
                    covered |= d == 1;
                } else {
                    near_enemy = near_enemy.min(f64::from(d) / f64::from(c.ma.max(1)));
                }
            }
            if garrisoned {
                continue;
            }
            let mut risk = if near_enemy <= 1.0 {
                1.0
            } else if near_enemy <= 2.0 {
                0.4
            } else {
                0.0
            };
            if covered {
                risk *= 0.5;
            }
            if Some(holder) != sudden {
                last_risk = risk;
            }
            let acts_next = if holder == state.active { 0.5 } else { 1.0 };
            let worth = objective * value;
            let loss = risk * acts_next * worth;
            total += if holder == me { -loss } else { loss };
        }
        let mut game = 0.0;
        if let Some(side) = sudden {
            let sign = if side == me { 1.0 } else { -1.0 };
            if count > 0 && held_by_sudden == count {
                game = sign;
            } else if held_by_sudden + 1 == count {
                game = sign * 0.5 * last_risk;
            }
        }
        (total, game)
    }

    /// What the attacks open next cost each side, from `me`'s view. Each unit on the
    /// map that is not demoralised (MP-DEM-3) attacks at most once, and each enemy is
    /// attacked at most once (MP-CMB-2): a unit in contact (MP-CMB-8) with one enemy
    /// only joins the attack on it, as its principal or a support (MP-CMB-6,
    /// MP-CMB-13); a unit in contact with several may only lead one attack (it supports
    /// none), and goes, strongest first, where it adds most. Each attack's total against
    /// the defender's strength on its ground (MP-CMB-14, MP-CMB-30) gives a column
    /// (MP-CMB-16), and the column the exchange expected over the die's six faces: the
    /// strength points and morale checks the defender loses less those the attacker
    /// loses, never below nothing (an attack that does not pay is not made). The side
    /// that acts next makes its attacks first, so the units of the other side count in
    /// full and its own at half (they may step away or be reinforced before the
    /// enemy's turn comes). Read from the [`Leaf`] [`MornePlaine::parts_in`] filled.
    fn threats_in(&self, state: &State, me: u8, leaf: &mut Leaf) -> f64 {
        let odds = self.odds.get_or_init(|| Odds::new(self));
        let (at, occ, s) = (&leaf.at, &leaf.occ, &mut leaf.threats);
        let n = state.units.len();
        s.attack.clear();
        s.attack.resize(n, 0);
        s.defence.clear();
        s.defence.resize(n, u32::MAX);
        s.led.clear();
        s.led.resize(n, false);
        s.shared.clear();
        for (i, u) in state.units.iter().enumerate() {
            if u.hex.is_none() || u.cs == 0 {
                continue;
            }
            let id = UnitId(u16::try_from(i).expect("unit count fits u16"));
            if self.demoralised(state, id) {
                continue;
            }
            let mut contacts = [u16::MAX; 6];
            let mut k = 0;
            for e in self.enemies_in_contact_at(id, at[i], occ) {
                if state.units[e.index()].cs > 0 {
                    contacts[k] = e.0;
                    k += 1;
                }
            }
            match k {
                0 => {}
                1 => s.attack[usize::from(contacts[0])] += u32::from(u.cs),
                _ => s.shared.push((u32::from(u.cs), contacts)),
            }
        }
        // The units in contact with several enemies, strongest first (a stable sort:
        // equal strengths keep the units' order).
        s.shared.sort_by_key(|a| std::cmp::Reverse(a.0));
        for k in 0..s.shared.len() {
            let (cs, contacts) = s.shared[k];
            let mut best = (0.0, usize::MAX);
            for &d in contacts.iter().take_while(|&&d| d != u16::MAX) {
                let d = usize::from(d);
                if s.led[d] {
                    continue;
                }
                let gain = self.attack_cost(state, odds, s, d, s.attack[d] + cs)
                    - self.attack_cost(state, odds, s, d, s.attack[d]);
                if gain > best.0 {
                    best = (gain, d);
                }
            }
            if best.1 != usize::MAX {
                s.attack[best.1] += cs;
                s.led[best.1] = true;
            }
        }
        let mut total = 0.0;
        for (d, c) in self.counters.iter().enumerate() {
            let attack = s.attack[d];
            if attack == 0 {
                continue;
            }
            let cost = self.attack_cost(state, odds, s, d, attack);
            let weight = if c.side == state.active { 0.5 } else { 1.0 };
            total += if c.side == me { weight } else { -weight } * cost;
        }
        total
    }

    /// What an attack of strength `attack` on unit `d` is expected to cost it, over
    /// nothing if the attack would not pay; its defence strength is kept in `s`.
    fn attack_cost(
        &self,
        state: &State,
        odds: &Odds,
        s: &mut Scratch,
        d: usize,
        attack: u32,
    ) -> f64 {
        if attack == 0 {
            return 0.0;
        }
        if s.defence[d] == u32::MAX {
            let id = UnitId(u16::try_from(d).expect("unit count fits u16"));
            s.defence[d] = self.strength(state, id, id, true);
        }
        odds.cost(self, attack, s.defence[d])
    }

    /// The value a defender expects to lose in an attack at table column `column`, over
    /// the combat die's faces unmodified (MP-CMB-18, MP-CMB-19), less what the attacker
    /// expects to lose: 3 a strength point (about what a point is worth in
    /// [`MornePlaine::score`]) and 1.5 a morale check (the morale point it may cost).
    fn exchange(&self, column: usize) -> f64 {
        let mut net = 0.0;
        for roll in 1..=COMBAT_DIE {
            let r = self.data.crt.cell(roll as usize, column);
            net += 3.0 * (f64::from(r.defender_loss) - f64::from(r.attacker_loss))
                + 1.5
                    * (f64::from(u8::from(r.defender_check))
                        - f64::from(u8::from(r.attacker_check)));
        }
        net / f64::from(COMBAT_DIE)
    }
}

/// The computer's plans (not a rule: how it groups the atomic actions). In the
/// movement phase each unit that has not moved yet may go the whole way to each hex
/// it can reach, as one plan of single steps; a unit that has moved is offered no
/// more steps, so that no unit walks back and forth along a road at no cost
/// (MP-ROAD-3). Every other legal action is a plan of its own; ending the phase is
/// the pass.
impl MornePlaine {
    pub(crate) fn ai_plans(&self, state: &State, out: &mut Vec<Plan<Action>>) {
        let mut legal = Vec::new();
        grognard_engine::Ruleset::legal_actions(self, state, &mut legal);
        let mut movers = Vec::new();
        let mut first_steps = Vec::new();
        for a in legal {
            match a {
                Action::Move { unit, to } => {
                    if !state.units[unit.index()].moved {
                        first_steps.push((unit, to));
                        if !movers.contains(&unit) {
                            movers.push(unit);
                        }
                    }
                }
                Action::EndPhase => out.push(Plan::single(a)),
                Action::Charge { unit, .. }
                | Action::Bombard { unit, .. }
                | Action::Attack { unit, .. } => out.push(Plan::of_unit(unit, vec![a])),
            }
        }
        for unit in movers {
            let start = state.units[unit.index()].hex;
            let Ok(reached) = grognard_engine::Ruleset::reachable(self, state, unit) else {
                continue;
            };
            for r in reached {
                if Some(r.hex) == start
                    || !r
                        .path
                        .first()
                        .is_some_and(|&h| first_steps.contains(&(unit, h)))
                {
                    continue;
                }
                let steps = r.path.iter().map(|&to| Action::Move { unit, to }).collect();
                out.push(Plan::of_unit(unit, steps));
            }
        }
    }
}
