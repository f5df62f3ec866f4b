//! What a seat sees: the engine's view envelope (`turn`, `turns`, `phase`, `active`,
//! `units` with `id`, `side` and `hex`; docs/ENGINE-PROTOCOL.md) and Morne Plaine's own
//! part (each unit's name, values and marks, the outcome), and the score every view carries
//! (`objectives`, `score`, `turns_left`: MP-VIC-1, MP-VIC-2).
//!
//! The view is built as typed records whose fields are declared in the order of their
//! keys, so that written straight to text ([`view_text`]) it has the bytes a
//! `serde_json::Value` of it would write ([`view`]), without building that tree: the
//! server writes a view with every game object.

use super::{victory, Class, MornePlaine, Phase, State};
use crate::common::score::{self, Objective};
use grognard_engine::Seat;
use serde::Serialize;
use std::collections::BTreeMap;

/// The view. Field order is key order (sorted, as a `Value` writes its keys).
#[derive(Serialize)]
struct View<'a> {
    active: &'a str,
    objectives: Vec<Objective<'a>>,
    /// Through a `Value`, which sorts its keys (the engine's `Outcome` declares
    /// them otherwise); rare, once the game is over.
    outcome: Option<serde_json::Value>,
    phase: Phase,
    score: BTreeMap<&'a str, Tally>,
    turn: u32,
    turns: u32,
    turns_left: Option<u32>,
    units: Vec<UnitOut<'a>>,
}

/// One side's entry in `score` (`common::score::Tally`, with Morne Plaine's `margin`
/// and `sudden_death`).
#[derive(Serialize)]
struct Tally {
    have: i64,
    margin: i64,
    need: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sudden_death: Option<bool>,
}

/// One unit: its counter's values, its changing values and marks.
#[derive(Serialize)]
struct UnitOut<'a> {
    attacked: bool,
    bv: u8,
    class: Class,
    cs: u8,
    defended: bool,
    demoralised: bool,
    fired: bool,
    hex: Option<String>,
    id: &'a str,
    ma: u8,
    mounted: bool,
    moved: bool,
    mp: u8,
    mv: u8,
    name: Option<&'a str>,
    range: u8,
    side: &'a str,
    stopped: bool,
    stripes: u8,
    victorious: bool,
}

/// The view of `state` for a seat. Morne Plaine has no hidden information: every seat
/// sees the whole board, so nothing is redacted.
pub(super) fn view(rules: &MornePlaine, state: &State, _seat: &Seat) -> serde_json::Value {
    score::value(&build(rules, state))
}

/// [`view`] as JSON text, written straight from the records.
pub(super) fn view_text(rules: &MornePlaine, state: &State, _seat: &Seat) -> String {
    score::text(&build(rules, state))
}

fn build<'a>(rules: &'a MornePlaine, state: &'a State) -> View<'a> {
    let units = rules
        .unit_ids()
        .map(|u| {
            let c = &rules.counters[u.index()];
            let s = &state.units[u.index()];
            UnitOut {
                attacked: s.attacked,
                bv: c.bv,
                class: c.class,
                cs: s.cs,
                defended: s.defended,
                demoralised: rules.demoralised(state, u),
                fired: s.fired,
                hex: s.hex.map(|h| rules.label(h)),
                id: &c.id,
                ma: c.ma,
                mounted: c.mounted,
                moved: s.moved,
                mp: s.mp,
                mv: s.mv,
                // The name players read (the scenario's `name`, else none: the page
                // then writes the id in words).
                name: rules
                    .scenario
                    .units
                    .get(u.index())
                    .and_then(|x| x.name.as_deref()),
                range: c.range,
                side: rules.side_name(c.side),
                stopped: s.stopped,
                stripes: c.stripes,
                victorious: s.victorious,
            }
        })
        .collect();
    let (objectives, score) = score(rules, state);
    View {
        active: rules.side_name(state.active),
        objectives,
        outcome: state.outcome.as_ref().map(score::value),
        phase: state.phase,
        score,
        turn: state.turn,
        turns: rules.turns,
        turns_left: turns_left(rules, state),
        units,
    }
}

/// The game turns still to play (`common::score::turns_left`).
fn turns_left(rules: &MornePlaine, state: &State) -> Option<u32> {
    score::turns_left(state.turn, Some(rules.turns), state.outcome.is_some())
}

/// The objectives and their holders, the points each side would score if the game ended
/// now (MP-VIC-1: no number ends the game before the last turn, so `need` is null), with
/// the lead that wins (`margin`) and, for a side that wins at once holding every
/// objective (MP-VIC-2), `sudden_death`.
fn score<'a>(
    rules: &'a MornePlaine,
    state: &State,
) -> (Vec<Objective<'a>>, BTreeMap<&'a str, Tally>) {
    let objectives = victory::holders(rules, state)
        .into_iter()
        .filter_map(|(i, holder)| {
            let place = rules.scenario.places.get(i)?;
            Some(Objective {
                hex: rules.label(place.hex),
                holder: holder.map(|s| rules.side_name(s)),
                name: Some(place.name.as_str()),
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
            let tally = Tally {
                have,
                margin,
                need: None,
                sudden_death: (sudden_death == Some(side)).then_some(true),
            };
            (rules.side_name(side), tally)
        })
        .collect();
    (objectives, tallies)
}
