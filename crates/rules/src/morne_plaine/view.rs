//! What a seat sees: the engine's view envelope (`turn`, `turns`, `phase`, `active`,
//! `units` with `id`, `side` and `hex`; docs/ENGINE-PROTOCOL.md) and Morne Plaine's own
//! part (each unit's name, values and marks, the outcome), and the score every view carries
//! (`objectives`, `score`, `turns_left`: MP-VIC-1, MP-VIC-2).

use super::{victory, MornePlaine, State};
use crate::common::score::{self, Objective};
use grognard_engine::Seat;

/// The view of `state` for a seat. Morne Plaine has no hidden information: every seat
/// sees the whole board, so nothing is redacted.
pub(super) fn view(rules: &MornePlaine, state: &State, _seat: &Seat) -> serde_json::Value {
    let mut v = serde_json::json!({
        "turn": state.turn,
        "turns": rules.turns,
        "active": rules.side_name(state.active),
        "phase": state.phase,
        "units": rules.unit_ids().map(|u| {
            let c = &rules.counters[u.index()];
            let s = &state.units[u.index()];
            // The name players read (the scenario's `name`, else none: the page then
            // writes the id in words).
            let name = rules.scenario.units.get(u.index()).and_then(|x| x.name.as_deref());
            serde_json::json!({
                "id": c.id,
                "name": name,
                "side": rules.side_name(c.side),
                "class": c.class,
                "mounted": c.mounted,
                "hex": s.hex.map(|h| rules.label(h)),
                "cs": s.cs, "mv": s.mv, "mp": s.mp, "ma": c.ma,
                "stripes": c.stripes, "bv": c.bv, "range": c.range,
                "moved": s.moved, "stopped": s.stopped, "fired": s.fired,
                "attacked": s.attacked, "defended": s.defended, "victorious": s.victorious,
                "demoralised": rules.demoralised(state, u),
            })
        }).collect::<Vec<_>>(),
        "outcome": state.outcome,
    });
    add_score(rules, state, &mut v);
    v
}

/// The objectives and their holders, the points each side would score if the game ended
/// now (MP-VIC-1: no number ends the game before the last turn, so `need` is null), with
/// the lead that wins (`margin`) and, for a side that wins at once holding every
/// objective (MP-VIC-2), `sudden_death`.
fn add_score(rules: &MornePlaine, state: &State, v: &mut serde_json::Value) {
    let objectives: Vec<Objective<'_>> = victory::holders(rules, state)
        .into_iter()
        .filter_map(|(i, holder)| {
            let place = rules.scenario.places.get(i)?;
            Some(Objective {
                hex: rules.label(place.hex),
                name: Some(place.name.as_str()),
                holder: holder.map(|s| rules.side_name(s)),
                value: victory::worth(rules, i),
            })
        })
        .collect();
    let points = victory::points(rules, state);
    let (margin, sudden_death) = victory::terms(rules);
    let tallies = [0u8, 1]
        .into_iter()
        .zip(points)
        .map(|(side, have)| {
            let mut t = score::tally(have, None);
            t.insert("margin".into(), margin.into());
            if sudden_death == Some(side) {
                t.insert("sudden_death".into(), true.into());
            }
            (rules.side_name(side), t)
        })
        .collect();
    let left = score::turns_left(state.turn, Some(rules.turns), state.outcome.is_some());
    score::add(v, &objectives, tallies, left);
}
