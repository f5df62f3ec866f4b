//! Striking (TOY-STR-1): the active duellist strikes the adjacent enemy; 1d6, a hit on
//! 5 or 6 wins the duel.

use super::{Action, Duel, Event, State};
use grognard_engine::{Chance, Ctx, Preview, Reason, Refusal, UnitId};
use serde_json::json;

/// The gate of TOY-STR-1.
pub(super) fn check_strike(
    _duel: &Duel,
    state: &State,
    unit: UnitId,
) -> Result<Vec<Reason>, Refusal> {
    if unit.index() != usize::from(state.active) {
        return Err(Refusal::new(
            "TOY-STR-1",
            "only the active duellist strikes",
        ));
    }
    let (me, them) = (state.at[unit.index()], state.at[1 - unit.index()]);
    if me.direction_to(them).is_none() {
        return Err(Refusal::new("TOY-STR-1", "the enemy is not adjacent"));
    }
    Ok(vec![Reason::new("TOY-STR-1", "hits on 5 or 6")])
}

pub(super) fn legal_strike(duel: &Duel, state: &State, out: &mut Vec<Action>) {
    let unit = UnitId(u16::from(state.active));
    if check_strike(duel, state, unit).is_ok() {
        out.push(Action::Strike { unit });
    }
}

/// Rolls the strike; whether it hit.
pub(super) fn strike(unit: UnitId, ctx: &mut Ctx<'_, Event>) -> bool {
    let hit = ctx.roll(6, "TOY-STR-1 strike") >= 5;
    ctx.emit(Event::Struck { unit, hit });
    hit
}

pub(super) fn preview(duel: &Duel, state: &State, action: &Action) -> Result<Preview, Refusal> {
    let Action::Strike { unit } = action else {
        return Err(Refusal::new("TOY-MOV-1", "a step rolls no dice"));
    };
    let reasons = check_strike(duel, state, *unit)?;
    Ok(Preview {
        roll: "1d6".into(),
        inputs: json!({}),
        outcomes: vec![
            Chance::new(json!({"hit": true}), 2, 6),
            Chance::new(json!({"hit": false}), 4, 6),
        ],
        reasons,
    })
}
