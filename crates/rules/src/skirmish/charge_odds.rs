//! The odds of a charge read at its declaration (SK-CHG-2, SK-CHG-10, SK-CHG-11).
//!
//! Declaring a charge on a target out of reach rolls no dice: its strike is rolled when
//! the charger arrives. So that a player sees what the charge will roll before declaring
//! it, its preview runs the charge on a copy of the state: the declaration, then the
//! charger along its shortest route by points (the first listed step each time,
//! SK-CHG-5, facing its route) to the first hex where the target is in its optimal
//! reach, and there the strike with the target's counter. No reaction of the other side
//! is taken on the way: these are the odds of the charge that arrives.

use super::step::{Gait, Step};
use super::{charge, melee, Action, AttackKind, Event, Skirmish, State};
use grognard_engine::{Ctx, Ruleset, UnitId};
use grognard_hex::Hex;
use serde_json::{json, Value};

/// Where a declared charge arrives: the charger, its target and the hex it strikes from.
#[derive(Clone, Copy)]
pub(crate) struct Arrival {
    pub unit: UnitId,
    pub target: UnitId,
    pub at: Hex,
}

/// Declares `action` (a charge) on `state` and runs the charger to where it strikes, the
/// strike not yet made. `None` when `action` is no charge, when the declaration struck at
/// once (its own preview says so) or when the route gives out.
pub(crate) fn arrive(
    rules: &Skirmish,
    state: &mut State,
    action: &Action,
    ctx: &mut Ctx<'_, Event>,
) -> Option<Arrival> {
    if !matches!(action, Action::Charge { .. }) {
        return None;
    }
    rules.apply_unchecked(state, action, ctx);
    // Each step lowers the points left on the route, so the run is no longer than the map.
    for _ in 0..=rules.map.len() {
        let ch = state.charge.as_ref()?;
        let leg = ch.legs.get(ch.current)?;
        if leg.done {
            return None;
        }
        let (unit, target) = (leg.run.unit, leg.target);
        let from = Skirmish::ch(state, unit).hex?;
        if rules.charge_goal(state, unit, target, from) {
            return Some(Arrival {
                unit,
                target,
                at: from,
            });
        }
        let mut steps = Vec::new();
        charge::legal_charge_steps(rules, state, &mut steps);
        let to = steps.iter().find_map(|a| match a {
            Action::Move { to, .. } => Some(*to),
            _ => None,
        })?;
        let facing = Skirmish::ch(state, unit).facing;
        let p = rules
            .price_in(
                state,
                unit,
                Step::new(from, to, facing, Gait::Charge),
                false,
            )
            .ok()?;
        let c = state.chars.get_mut(unit.index())?;
        c.hex = Some(to);
        c.facing = p.facing;
        c.mp = c.mp.saturating_sub(p.cost);
        // Changed by hand, not by an action: no kept list is trusted for it.
        state.edited();
    }
    None
}

/// SK-CHG-10, SK-CHG-11: the strike of a charge arrived, with the target's counter.
pub(crate) fn strike(rules: &Skirmish, state: &mut State, a: Arrival, ctx: &mut Ctx<'_, Event>) {
    melee::charge_clash(rules, state, a.unit, a.target, ctx);
}

/// The totals behind the strike at the end of the charge, and where it is made from.
pub(crate) fn inputs(rules: &Skirmish, arrived: &State, a: Arrival) -> Value {
    let mut v = melee::totals(rules, arrived, a.unit, a.target, AttackKind::Charge);
    v["strike_from"] = json!(rules.label(a.at));
    v
}
