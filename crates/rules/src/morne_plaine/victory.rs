//! Victory conditions (docs/rules/morne-plaine.md, MP-VIC-1 to MP-VIC-3: not recovered,
//! so provisional; the scenario's `[victory]` table sets them), and who holds forts and
//! places.

use super::{MornePlaine, State};
use grognard_engine::scenario::Scenario;
use grognard_engine::Outcome;
use grognard_engine::UnitId;
use grognard_hex::Hex;

/// How the scenario's `[victory]` table scores the game (MP-VIC-1, provisional: the
/// game's victory conditions are not recovered).
#[derive(Clone, Debug, Default)]
pub(crate) struct VictoryRules {
    /// Objective places score their value for the side holding them.
    objectives: bool,
    /// Points for each enemy unit eliminated.
    per_eliminated: i64,
    /// The lead that wins; a smaller one is a draw.
    margin: i64,
    /// A side that wins at once holding every objective at the end of a turn.
    sudden_death: Option<u8>,
}

pub(super) fn read_victory(
    s: &Scenario,
    sides: &[String; 2],
    problems: &mut Vec<grognard_engine::scenario::Problem>,
) -> VictoryRules {
    let t = &s.victory;
    let mut v = VictoryRules {
        objectives: true,
        per_eliminated: 0,
        margin: 1,
        sudden_death: None,
    };
    for (key, value) in &t.table {
        let loc = t.loc_of(key);
        match (key.as_str(), value) {
            ("objectives", toml::Value::Boolean(b)) => v.objectives = *b,
            ("points_per_eliminated_unit", toml::Value::Integer(n)) if *n >= 0 => v.per_eliminated = *n,
            ("margin", toml::Value::Integer(n)) if *n >= 1 => v.margin = *n,
            ("sudden_death", toml::Value::Table(sd)) => {
                match sd.get("side").and_then(toml::Value::as_str) {
                    Some(side) if sides.iter().any(|x| x == side) => {
                        v.sudden_death = Some(u8::from(sides[1] == side));
                    }
                    _ => problems.push(s.problem(t.loc_of("sudden_death.side"), "victory.sudden_death needs `side`, one of the scenario's sides")),
                }
                if sd.get("all_objectives").and_then(toml::Value::as_bool) != Some(true) {
                    problems.push(s.problem(loc, "victory.sudden_death supports only `all_objectives = true`"));
                }
            }
            ("objectives" | "points_per_eliminated_unit" | "margin", _) => problems.push(s.problem(
                loc,
                format!("victory.{key} has the wrong type: objectives is true/false, points_per_eliminated_unit a whole number >= 0, margin a whole number >= 1"),
            )),
            _ => problems.push(s.problem(
                loc,
                format!("unknown victory key `{key}`; Morne Plaine reads objectives, points_per_eliminated_unit, margin, sudden_death"),
            )),
        }
    }
    v
}

/// Who holds each objective, by the place's index: the last side to enter it, else its
/// owner at the start.
pub(super) fn holders(rules: &MornePlaine, state: &State) -> Vec<(usize, Option<u8>)> {
    rules
        .scenario
        .places
        .iter()
        .enumerate()
        .filter(|(_, p)| p.objective)
        .map(|(i, _)| (i, state.held[i]))
        .collect()
}

/// MP-VIC-2 (provisional): at the end of every game turn, a sudden-death side holding
/// every objective wins at once.
pub(super) fn sudden_death(rules: &MornePlaine, state: &State) -> Option<Outcome> {
    let side = rules.victory.sudden_death?;
    let held = holders(rules, state);
    (!held.is_empty() && held.iter().all(|&(_, h)| h == Some(side))).then(|| Outcome {
        winner: Some(rules.sides[usize::from(side)].clone()),
        reason: format!(
            "{} holds every objective at the end of turn {}",
            rules.side_title(side),
            state.turn
        ),
        rule: Some("MP-VIC-2".into()),
    })
}

/// MP-VIC-1 (provisional): what holding each objective scores, by the place's index: its
/// value (1 when the scenario gives none), nothing when the scenario's objectives do not
/// score.
pub(super) fn worth(rules: &MornePlaine, place: usize) -> i64 {
    if rules.victory.objectives {
        rules
            .scenario
            .places
            .get(place)
            .and_then(|p| p.value)
            .unwrap_or(1)
    } else {
        0
    }
}

/// MP-VIC-1 (provisional): the points each side scores if the game ended now: the
/// objectives it holds and the enemy units eliminated (a unit off the map that is not
/// waiting to enter).
pub(super) fn points(rules: &MornePlaine, state: &State) -> [i64; 2] {
    let mut points = [0i64; 2];
    for (i, holder) in holders(rules, state) {
        if let Some(side) = holder {
            points[usize::from(side)] += worth(rules, i);
        }
    }
    for (c, u) in rules.counters.iter().zip(&state.units) {
        if u.hex.is_none() && !u.waiting {
            points[usize::from(1 - c.side)] += rules.victory.per_eliminated;
        }
    }
    points
}

/// The lead in points that wins after the last turn (MP-VIC-1), and the side that wins at
/// once holding every objective (MP-VIC-2), as the scenario sets them.
pub(super) fn terms(rules: &MornePlaine) -> (i64, Option<u8>) {
    (rules.victory.margin, rules.victory.sudden_death)
}

/// MP-VIC-1 (provisional): after the last turn, objectives held score their value
/// (1 when the scenario gives none) and eliminations their points; a lead of the
/// scenario's margin wins, a smaller one is a draw.
pub(super) fn victory(rules: &MornePlaine, state: &State) -> Outcome {
    let points = points(rules, state);
    let reason = format!(
        "after turn {}: {} {} points, {} {} points",
        state.turn,
        rules.side_title(0),
        points[0],
        rules.side_title(1),
        points[1]
    );
    let lead = points[0] - points[1];
    Outcome {
        winner: if lead >= rules.victory.margin {
            Some(rules.sides[0].clone())
        } else if -lead >= rules.victory.margin {
            Some(rules.sides[1].clone())
        } else {
            None
        },
        reason,
        rule: Some("MP-VIC-1".into()),
    }
}

impl MornePlaine {
    /// A unit entering a fort or a place takes it for its side (MP-ZOC-9 asks who holds
    /// a fort; MP-VIC-1 who holds an objective).
    pub(crate) fn take_place(&self, state: &mut State, u: UnitId, hex: Hex) {
        // Most hexes hold neither: the per-hex table says so without the lists.
        if self.idx(hex).is_some_and(|i| !self.place[i]) {
            return;
        }
        let side = self.counters[u.index()].side;
        if let Some(i) = self.forts.iter().position(|f| f.0 == hex) {
            state.forts[i] = Some(side);
        }
        for (i, p) in self.scenario.places.iter().enumerate() {
            if p.hex == hex {
                state.held[i] = Some(side);
            }
        }
    }
}
