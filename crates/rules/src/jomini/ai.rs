//! How the computer opponent judges a JOMINI position (not a rule: a heuristic for
//! `Ruleset::evaluate`).

use super::{command, victory, Action, Jomini, State};
use crate::commands_colors::ai::{best_target, final_score, threat_share, unit_value};
use grognard_engine::{Ctx, Dice, Plan, Ruleset, Term, UnitId};
use grognard_hex::Hex;

/// A victory point (an enemy unit eliminated, an objective's value): the unit of the
/// evaluation, comparable with a Battle Cry flag under the search's logistic of 8.
const POINT: f64 = 4.0;
/// What a unit at full strength is worth on top of the point it would give the enemy.
const UNIT: f64 = 2.5;
/// An officer on the table (he activates and leads units, JO-ORD).
const OFFICER: f64 = 1.0;
/// An order token (JO-ORD-1).
const TOKEN: f64 = 0.5;
/// What each point a side is behind costs it on top of [`POINT`] on the last turn, from
/// nothing at the first: at the turn limit the side with more points wins (JO-VIC-3),
/// so the side behind trades units for points as the turns run out. Only the side
/// behind feels it: a lead weighed the same way made the side ahead (Prussia at the
/// Saale) cling to the points it held and lose more often (docs/AI.md).
const LATE: f64 = 4.0;
/// A hex between a unit and the nearest enemy unit.
const CLOSING: f64 = 0.1;
/// A hex between a unit and the nearest objective its side does not hold: the pull
/// that brings an attacker across a river before the last turn (JO-VIC-2).
const OBJECTIVE: f64 = 0.25;
/// The march steps from an objective within which each step counts in full toward
/// [`OBJECTIVE`]; each step beyond counts [`FAR_STEP`] of one. A turn orders one
/// activation of a few units (JO-CMD-1): spent on marching units from the far edge it
/// is not spent on the units at the objective, and a pull that grew with every step of
/// the far units made the march worth more than an attack (at the Saale the French
/// spent whole turns bringing Kellermann's cuirassiers up the road while their infantry
/// stood at the river).
const NEAR_STEPS: u16 = 4;
/// What a march step beyond [`NEAR_STEPS`] counts, as a share of one within them.
const FAR_STEP: f64 = 0.25;

/// The march steps of [`OBJECTIVE`]'s term: in full up to [`NEAR_STEPS`], then each at
/// [`FAR_STEP`].
fn objective_steps(d: u16) -> f64 {
    f64::from(d.min(NEAR_STEPS)) + FAR_STEP * f64::from(d.saturating_sub(NEAR_STEPS))
}
/// A unit of the side to act that has joined an activation (JO-CMD-1 to JO-CMD-3) and
/// not yet moved: the worth of an order given. Without it an activation scores no
/// better than standing still, one plan ahead, until its units move, and the search's
/// simulations would never activate an officer. Groups are dissolved at the end of the
/// turn, so nothing of it is left in a position scored after the turn.
const READY: f64 = 0.2;
/// The share of an objective's swing (its value lost by the holder and won by the
/// enemy) that the holder feels when it leaves the objective empty within the enemy's
/// reach: the enemy may have better things to do with its activation, or be stopped.
const EXPOSED: f64 = 0.5;
/// The chance a combat die takes a stand: an approximation (a face of the target's
/// class, and others by circumstance, JO-DIE-1).
const HIT: f64 = 1.0 / 3.0;

/// An enemy unit a threat is counted against: its hex, the protection of its terrain
/// (JO-COM-5), and its stands now and at full strength.
#[derive(Clone, Copy)]
struct Target {
    hex: Hex,
    protection: u8,
    stands: f64,
    full: f64,
}

/// The units of the side other than `side` on the table, officers left out, in piece
/// order: laid out once for every unit of `side` that reads them.
fn targets(rules: &Jomini, state: &State, side: u8, out: &mut Vec<Target>) {
    out.clear();
    for t in rules.piece_ids() {
        let target = rules.piece(t);
        let q = &state.pieces[t.index()];
        let Some(hex) = q.hex.filter(|_| target.side != side && !target.officer) else {
            continue;
        };
        out.push(Target {
            hex,
            protection: rules.info(hex).map_or(0, |i| i.protection),
            stands: f64::from(q.strength),
            full: f64::from(target.strength),
        });
    }
}

/// The expected worth of the damage one unit at `from` can deal next turn: the best
/// of the `targets` in range (an adjacent one if any, JO-COM-4) by its dice less the
/// target's terrain (JO-COM-5): stands lost, and the point when the expected hits reach
/// the stands left. Line of sight and the mounts' shelter are left out.
fn unit_threat(rules: &Jomini, u: UnitId, from: Hex, targets: &[Target]) -> f64 {
    best_target(
        &rules.piece(u).row.dice,
        from,
        targets.iter().map(|t| (t.hex, t)),
        |_, t, range| {
            let n = range.saturating_sub(t.protection);
            let hits = (f64::from(n) * HIT).min(t.stands);
            let mut worth =
                unit_value(UNIT, t.stands, t.full) - unit_value(UNIT, t.stands - hits, t.full);
            if hits >= t.stands {
                worth += POINT;
            }
            worth
        },
    )
}

/// The expected worth of the damage `side` can deal next turn with the units it can
/// order then: only activated units fight (JO-COM-1), and a turn gives an army of this
/// size `count` activations of `size` units each (JO-CMD-1), each led by an officer,
/// of one kind of troops (JO-CMD-2), within his radius (JO-CMD-3). So for each officer
/// on the table the `size` most dangerous units of one kind within his reach, and the
/// `count` best officers; the same unit may be counted under two officers (cheap, and
/// an army with two activations has officers far apart). A unit out of every officer's
/// reach threatens nothing: the threat draws officers to the units in contact.
fn threat(rules: &Jomini, state: &State, side: u8, scratch: &mut Scratch) -> f64 {
    targets(rules, state, side, &mut scratch.enemies);
    // The units that threaten anything, in piece order, with their hex and kind: the
    // only ones an officer's activation can count.
    scratch.armed.clear();
    for u in rules.piece_ids() {
        let piece = rules.piece(u);
        if let (Some(from), true) = (
            state.pieces[u.index()].hex,
            piece.side == side && !piece.officer,
        ) {
            let kind = match piece.row.kind.as_str() {
                "foot" => 0,
                "mounted" => 1,
                _ => continue,
            };
            let t = unit_threat(rules, u, from, &scratch.enemies);
            if t > 0.0 {
                scratch.armed.push((from, kind, t));
            }
        }
    }
    let (count, size) = command::activations(rules, state, side);
    let size = usize::from(size).min(TOP);
    let radius = rules.data.command.radius;
    let mut officers = [0.0_f64; TOP];
    let count = usize::from(count).clamp(1, TOP);
    for o in rules.piece_ids() {
        let (Some(at), true) = (
            state.pieces[o.index()].hex,
            rules.piece(o).officer && rules.side_of(o) == side,
        ) else {
            continue;
        };
        // The `size` best units of each kind within his reach.
        let mut top = [[0.0_f64; TOP]; 2];
        for &(h, kind, t) in &scratch.armed {
            if h.distance(at) <= radius {
                insert_top(&mut top[usize::from(kind)][..size], t);
            }
        }
        let best = 0.0_f64.max(top[0].iter().sum()).max(top[1].iter().sum());
        insert_top(&mut officers[..count], best);
    }
    officers.iter().sum()
}

/// The evaluation's buffers, kept on each thread between calls (it runs at every leaf
/// of the search and for every plan a simulation weighs).
#[derive(Default)]
struct Scratch {
    /// The enemies of the side whose threat is counted.
    enemies: Vec<Target>,
    /// That side's units that threaten any: hex, kind (0 foot, 1 mounted), threat.
    armed: Vec<(Hex, u8, f64)>,
    /// The hexes of the enemy units of the side scored, officers left out.
    foes: Vec<Hex>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
}

/// The most units of an activation, or activations of a turn, the threat counts.
const TOP: usize = 8;

/// Puts `x` among the largest values kept in `top` (sorted, largest first).
fn insert_top(top: &mut [f64], x: f64) {
    if let Some(i) = top.iter().position(|&v| x > v) {
        top[i..].rotate_right(1);
        top[i] = x;
    }
}

/// For each objective, the steps from every hex of the table to it (by map index):
/// a hex costs 1, 2 if it is difficult or entered across a difficult hexside (either
/// ends a move, JO-MOV-13), and impassable hexes cannot be crossed; `u16::MAX` where
/// the objective cannot be reached. Terrain does not change, so the scenario's binding
/// makes them once. A river between a unit and an objective then reads as the way
/// round by the bridge or the ford, not as the straight line across the water.
pub(crate) fn march_steps(
    objectives: &[Hex],
    map: &grognard_hex::MapShape,
    hexes: &[super::HexInfo],
    next: &[u32],
    side_difficult: &[bool],
) -> Vec<Vec<u16>> {
    objectives
        .iter()
        .map(|&o| {
            let mut steps = vec![u16::MAX; hexes.len()];
            let Some(start) = map.index(o) else {
                return steps;
            };
            // Dijkstra with costs of 1 to 3, from the objective outward: the cost of a
            // step is that of entering the hex nearer the objective, read backward.
            let mut queue = std::collections::BinaryHeap::new();
            steps[start] = 0;
            queue.push(std::cmp::Reverse((0u16, start)));
            while let Some(std::cmp::Reverse((d, i))) = queue.pop() {
                if d > steps[i] {
                    continue;
                }
                for dir in 0..6 {
                    let Ok(j) = usize::try_from(next[i * 6 + dir]) else {
                        continue;
                    };
                    if j >= hexes.len() || hexes[j].impassable {
                        continue;
                    }
                    // Moving from j into i: the cost of entering i.
                    let back = (dir + 3) % 6;
                    let hard = hexes[i].difficult || side_difficult[j * 6 + back];
                    let cost = d.saturating_add(if hard { 2 } else { 1 });
                    if cost < steps[j] {
                        steps[j] = cost;
                        queue.push(std::cmp::Reverse((cost, j)));
                    }
                }
            }
            steps
        })
        .collect()
}

/// The parts of the evaluation and their weights, in the order of [`parts`], all from
/// the side's view (its own counted up, the enemy's down):
/// - `points`: the victory points each side has (JO-VIC-1);
/// - `target`: 1 / the points each side still needs to reach its target (at least 1);
/// - `tokens`: the order tokens each side has (JO-ORD-1);
/// - `threats`: the damage each side can deal next turn ([`threat`]), the side to act
///   counting half and the other a quarter ([`threat_share`]);
/// - `officers`: the officers on the table;
/// - `units`: each unit on the table, √(its stands' share of its full strength);
/// - `ready`: the side to act's units that joined an activation and have not moved
///   (its own only);
/// - `closing`: the hexes between each of the side's units and the nearest enemy unit,
///   while the side is not ahead on points (JO-VIC-3: the lead wins at the limit);
/// - `objective`: the march steps between each of the side's units and the nearest
///   objective its side does not hold, those beyond [`NEAR_STEPS`] at [`FAR_STEP`];
/// - `exposed`: the objectives' values the side stands to lose next turn, twice
///   ([`exposed`]), by 0.5 + the share of the game played;
/// - `late`: the points the side is behind, by the share of the game played (JO-VIC-3).
pub(crate) const TERMS: [(&str, f64); 11] = [
    ("points", POINT),
    ("target", POINT),
    ("tokens", TOKEN),
    ("threats", 1.0),
    ("officers", OFFICER),
    ("units", UNIT),
    ("ready", READY),
    ("closing", -CLOSING),
    ("objective", -OBJECTIVE),
    ("exposed", -EXPOSED * POINT),
    ("late", -LATE),
];

/// Points toward victory weigh most (each, and more as the target comes near), then the
/// units on the table by their stands, officers and order tokens, the damage each side
/// can deal next turn, closing on the enemy and on the objectives the side does not
/// hold, from `side`'s view: each of [`TERMS`] times its weight.
pub(crate) fn score(rules: &Jomini, state: &State, side: &str) -> f64 {
    let Some(me) = rules.side_index(side) else {
        return 0.0;
    };
    if let Some(o) = &state.outcome {
        return final_score(o, side);
    }
    let parts = SCRATCH.with(|cell| parts(rules, state, me, &mut cell.borrow_mut()));
    crate::common::terms::weighed(&parts, &TERMS)
}

/// The evaluation's parts ([`TERMS`]) with their weights, for fitting the weights to
/// games. A finished game has none: its score is the result. No candidate term is
/// offered: the side's lead is already one of the terms.
pub(crate) fn terms(rules: &Jomini, state: &State, side: &str, out: &mut Vec<Term>) {
    let Some(me) = rules.side_index(side) else {
        return;
    };
    if state.outcome.is_some() {
        return;
    }
    let parts = SCRATCH.with(|cell| parts(rules, state, me, &mut cell.borrow_mut()));
    crate::common::terms::named(&parts, &TERMS, out);
}

/// The values of [`TERMS`], in their order, of a game under way, for side `me`, with
/// this thread's buffers.
fn parts(rules: &Jomini, state: &State, me: u8, scratch: &mut Scratch) -> [f64; TERMS.len()] {
    let mut v = [0.0; TERMS.len()];
    let mine = f64::from(victory::points(rules, state, me));
    let theirs = f64::from(victory::points(rules, state, 1 - me));
    // JO-VIC-3: at the limit the side with more points wins, so a side ahead need not
    // close on the enemy: it feels no pull toward him (its threats and the enemy's
    // still place its units).
    let close = mine <= theirs;
    // The share of the game played, from 0 to 1 on the last turn.
    let played = rules.turns.map_or(0.0, |t| {
        f64::from(state.turn.min(2 * t)) / f64::from((2 * t).max(1))
    });
    for s in 0..2u8 {
        let sign = if s == me { 1.0 } else { -1.0 };
        let have = f64::from(victory::points(rules, state, s));
        let need = f64::from(rules.target[usize::from(s)]);
        v[0] += sign * have;
        v[1] += sign / (need - have).max(1.0);
        v[2] += sign * f64::from(state.tokens[usize::from(s)]);
        v[3] += sign * threat_share(s, state.active) * threat(rules, state, s, scratch);
    }
    scratch.foes.clear();
    scratch.foes.extend(
        rules
            .piece_ids()
            .filter(|&e| rules.side_of(e) != me && !rules.piece(e).officer)
            .filter_map(|e| state.pieces[e.index()].hex),
    );
    for u in rules.piece_ids() {
        let p = &state.pieces[u.index()];
        let piece = rules.piece(u);
        let Some(h) = p.hex else { continue };
        let sign = if piece.side == me { 1.0 } else { -1.0 };
        if piece.officer {
            v[4] += sign;
            continue;
        }
        v[5] += sign * unit_value(1.0, f64::from(p.strength), f64::from(piece.strength));
        if piece.side != me {
            continue;
        }
        if state.active == me && p.group.is_some() && !p.moved {
            v[6] += 1.0;
        }
        if let (true, Some(d)) = (close, scratch.foes.iter().map(|e| e.distance(h)).min()) {
            v[7] += f64::from(d);
        }
        let at = rules.map.index(h).unwrap_or(usize::MAX);
        let objective = rules
            .march
            .iter()
            .zip(&state.held)
            .filter(|(_, held)| **held != Some(me))
            .filter_map(|(steps, _)| steps.get(at).copied())
            .filter(|&d| d < u16::MAX)
            .min();
        if let Some(d) = objective {
            v[8] += objective_steps(d);
        }
    }
    // An objective lost early can be taken back; one lost late decides the limit.
    v[9] = (0.5 + played) * exposed(rules, state, me);
    // JO-VIC-3: behind on points, each point short costs more as the limit comes near.
    v[10] = played * (theirs - mine).max(0.0);
    v
}

/// What `me` stands to lose next turn by the objectives it holds and has left empty
/// (JO-VIC-2: an objective belongs to the last side to have a unit in it): for each such
/// objective with an enemy unit within a move of it (in march steps, its allowance with
/// a forced march, its mounts and a road march: [`super::movement::most_next_turn`])
/// and an officer of its side near enough to order it (JO-CMD-3), the objective's value
/// twice (the points change hands; the weight of `exposed` in [`TERMS`] takes
/// [`EXPOSED`] of that swing, and the caller weighs it more as the turns run out). Only
/// the holder feels it: the side that could walk in has yet to walk in to score, and a
/// garrison is the holder's choice (docs/AI.md).
fn exposed(rules: &Jomini, state: &State, me: u8) -> f64 {
    let radius = rules.data.command.radius;
    let mut lost = 0.0;
    for (i, o) in rules.objectives.iter().enumerate() {
        if state.held[i] != Some(me) {
            continue;
        }
        let on = |u: UnitId| state.pieces[u.index()].hex;
        if rules.piece_ids().any(|u| on(u) == Some(o.hex)) {
            continue;
        }
        let officers = || {
            rules
                .piece_ids()
                .filter(|&f| rules.piece(f).officer && rules.side_of(f) != me)
                .filter_map(on)
        };
        let reach = rules.piece_ids().any(|u| {
            let piece = rules.piece(u);
            let (Some(h), false) = (on(u), piece.side == me || piece.officer) else {
                return false;
            };
            let steps = rules
                .map
                .index(h)
                .and_then(|at| rules.march.get(i)?.get(at).copied())
                .unwrap_or(u16::MAX);
            steps <= u16::from(super::movement::most_next_turn(rules, state, u))
                && officers().any(|f| f.distance(h) <= radius)
        });
        if reach {
            lost += 2.0 * f64::from(o.value);
        }
    }
    lost
}

/// The computer's plans (not a rule: how it groups the atomic actions): every legal
/// action is a plan (a move already goes the whole way, JO-MOV-1), but a piece that
/// has moved this phase is offered no second move, so that no officer walks back
/// and forth, and an officer's activation comes with the units that join it
/// ([`activations`]).
pub(crate) fn plans(rules: &Jomini, state: &State, out: &mut Vec<Plan<Action>>) {
    let mut legal = Vec::new();
    rules.legal_actions(state, &mut legal);
    for a in legal {
        match a {
            Action::Move { unit, .. } if state.pieces[unit.index()].moved => {}
            Action::Activate { unit } if rules.piece(unit).officer => {
                activations(rules, state, unit, out);
            }
            Action::Activate { unit }
            | Action::Move { unit, .. }
            | Action::Exit { unit }
            | Action::Attack { unit, .. }
            | Action::Retreat { unit, .. } => out.push(Plan::of_unit(unit, vec![a])),
            Action::Order {
                unit: Some(unit), ..
            } => out.push(Plan::of_unit(unit, vec![a])),
            _ => out.push(Plan::single(a)),
        }
    }
}

/// An officer's activation as the player thinks of it (JO-CMD-1 to JO-CMD-3): the
/// officer, then the units that join him, as one plan: the officer alone, and each
/// choice of up to three of the units that may join him then (one plan a set, in the
/// order listed; a unit that can no longer join ends the plan there).
fn activations(rules: &Jomini, state: &State, officer: UnitId, out: &mut Vec<Plan<Action>>) {
    let open = Action::Activate { unit: officer };
    let mut after = state.clone();
    let (mut dice, mut events) = (Dice::new(0), Vec::new());
    rules.apply_unchecked(&mut after, &open, &mut Ctx::quiet(&mut dice, &mut events));
    let mut legal = Vec::new();
    rules.legal_actions(&after, &mut legal);
    let joining: Vec<UnitId> = legal
        .iter()
        .filter_map(|a| match a {
            Action::Activate { unit } if !rules.piece(*unit).officer => Some(*unit),
            _ => None,
        })
        .collect();
    out.push(Plan::of_unit(officer, vec![open.clone()]));
    let n = joining.len();
    let plan = |units: &[UnitId]| {
        let mut steps = vec![open.clone()];
        steps.extend(units.iter().map(|&unit| Action::Activate { unit }));
        Plan::of_unit(officer, steps)
    };
    for i in 0..n {
        out.push(plan(&[joining[i]]));
        for j in i + 1..n {
            out.push(plan(&[joining[i], joining[j]]));
            for k in j + 1..n {
                out.push(plan(&[joining[i], joining[j], joining[k]]));
            }
        }
    }
}

/// The action that closes the current phase, when it is legal.
pub(crate) fn pass(rules: &Jomini, state: &State) -> Option<Action> {
    let mut legal = Vec::new();
    rules.legal_actions(state, &mut legal);
    legal.into_iter().find(|a| {
        matches!(
            a,
            Action::EndCommand | Action::EndMovement | Action::EndTurn
        )
    })
}
