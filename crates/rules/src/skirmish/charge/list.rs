//! The charges a character may declare now (SK-CHG-1 to SK-CHG-4, SK-CHG-13), listed
//! by the checks of [`super::check_declare_in`] without their words.

use super::{may_charge, Declaration};
use crate::skirmish::movement::Gate;
use crate::skirmish::{board, melee, Action, Phase, Skirmish, State};
use grognard_engine::UnitId;

/// SK-CHG-2, SK-CHG-13: every charge `u` may declare, alone and with its formation:
/// what [`super::check_declare_in`] accepts. `reaches` keeps each character's reach for the
/// rest of the list.
pub(crate) fn legal_charges(
    rules: &Skirmish,
    state: &State,
    gate: &Gate,
    u: UnitId,
    reaches: &mut board::Reaches,
    out: &mut Vec<Action>,
) {
    if may_charge(rules, state, gate, u).is_err() {
        return;
    }
    for t in rules.side_ids(Skirmish::passive(state)) {
        // `u` may charge (asked once above); together, the same checks hold and only
        // the formation is left to ask.
        let decl = Declaration::new(u, t, false);
        if may_declare_unbarred(rules, state, decl, reaches) {
            out.push(Action::Charge {
                unit: u,
                target: t,
                together: false,
            });
            if joined(rules, state, gate, Declaration::new(u, t, true), reaches) {
                out.push(Action::Charge {
                    unit: u,
                    target: t,
                    together: true,
                });
            }
        }
    }
}

/// Whether [`super::check_declare`] accepts the declaration, without wording it (the
/// searches ask it of the charges they play).
pub(crate) fn allows_declare(rules: &Skirmish, state: &State, decl: Declaration) -> bool {
    declare_gate(rules, state)
        .is_some_and(|gate| may_declare(rules, state, &gate, decl, &mut board::Reaches::default()))
}

/// The phase's gate a declaration is asked at: `None` while a charge is under way (one
/// charge at a time), else the movement phase's gate, or none in another phase.
fn declare_gate(rules: &Skirmish, state: &State) -> Option<Gate> {
    if state.charge.is_some() {
        return None;
    }
    Some(if state.phase == Phase::Movement {
        rules.gate(state)
    } else {
        Gate::default()
    })
}

/// What making a declaration needs (`super::declare`): `None` where
/// [`super::check_declare`] refuses it, else the members of the charger's formation that
/// charge with it (SK-CHG-13), found by the same checks without their words.
pub(crate) fn declared_with(
    rules: &Skirmish,
    state: &State,
    decl: Declaration,
) -> Option<Vec<UnitId>> {
    let gate = declare_gate(rules, state)?;
    let mut reaches = board::Reaches::default();
    let with = may_declare(rules, state, &gate, decl, &mut reaches).then(|| {
        let u = decl.unit;
        let formation = rules.chars[u.index()].formation.as_ref();
        rules
            .side_ids(state.active)
            .filter(|&m| {
                decl.together
                    && m != u
                    && formation.is_some()
                    && rules.chars[m.index()].formation.as_ref() == formation
                    && may_declare(rules, state, &gate, decl.member(m), &mut reaches)
            })
            .collect()
    });
    if cfg!(debug_assertions) {
        let checked = super::check_declare(rules, state, decl)
            .ok()
            .map(|d| d.with);
        assert_eq!(with, checked, "the declaration {decl:?}");
    }
    with
}

/// Whether [`super::check_declare_in`] accepts the declaration: the same checks in the same
/// order, without wording them, the route's cost read from `reaches`.
fn may_declare(
    rules: &Skirmish,
    state: &State,
    gate: &Gate,
    decl: Declaration,
    reaches: &mut board::Reaches,
) -> bool {
    may_charge(rules, state, gate, decl.unit).is_ok()
        && may_declare_unbarred(rules, state, decl, reaches)
        && (!decl.together || joined(rules, state, gate, decl, reaches))
}

/// [`may_declare`]'s checks of the charger and its target alone, `u` known to be free
/// to charge ([`may_charge`]).
fn may_declare_unbarred(
    rules: &Skirmish,
    state: &State,
    decl: Declaration,
    reaches: &mut board::Reaches,
) -> bool {
    let (u, target) = (decl.unit, decl.target);
    if rules.side_of(target) == rules.side_of(u) {
        return false;
    }
    let c = Skirmish::ch(state, u);
    let Some(th) = Skirmish::ch(state, target).hex else {
        return false;
    };
    if c.berserk && melee::nearest_check(rules, state, u, target).is_err() {
        return false;
    }
    let d = c.hex.expect("in play").distance(th);
    if d < 3 {
        return false;
    }
    let mp = u32::from(c.mp) + u32::from(rules.chars[u.index()].morale);
    // A route to where the target is in optimal reach enters at least `d` less the
    // longest reach hexes, each costing at least the cheapest terrain: a target farther
    // than that is out of reach without a search.
    let longest = u32::from(rules.weapons[u.index()].longest());
    rules.cells.least(d.saturating_sub(longest)) <= mp
        && rules.charge_within(state, u, target, mp, reaches)
}

/// SK-CHG-13: whether a member of the charger's formation may declare the same charge
/// with it ([`may_declare`]'s last check, for a charge together).
fn joined(
    rules: &Skirmish,
    state: &State,
    gate: &Gate,
    decl: Declaration,
    reaches: &mut board::Reaches,
) -> bool {
    let u = decl.unit;
    let Some(f) = &rules.chars[u.index()].formation else {
        return false;
    };
    rules.side_ids(state.active).any(|m| {
        m != u
            && rules.chars[m.index()].formation.as_ref() == Some(f)
            && may_declare(rules, state, gate, decl.member(m), reaches)
    })
}
