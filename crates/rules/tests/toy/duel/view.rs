//! The view: the envelope every ruleset shares (`turn`, `turns`, `phase`, `active`,
//! `units` with `id`, `side`, `hex`); nothing is hidden in a duel.

use super::{Duel, State};
use grognard_engine::Seat;
use serde_json::json;

pub(super) fn view(duel: &Duel, state: &State, _seat: &Seat) -> serde_json::Value {
    let units: Vec<_> = (0..2)
        .map(|i| {
            json!({
                "id": duel.names.unit_name(grognard_engine::UnitId(u16::try_from(i).unwrap())),
                "side": duel.sides[i],
                "hex": duel.names.label(state.at[i]),
            })
        })
        .collect();
    json!({
        "turn": state.turn,
        "turns": duel.turns,
        "phase": "duel",
        "active": duel.sides[usize::from(state.active)],
        "units": units,
        "outcome": state.outcome,
    })
}
