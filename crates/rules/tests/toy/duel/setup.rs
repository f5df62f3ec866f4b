//! Binding a scenario: two sides, one duellist each, on the map.

use super::Duel;
use grognard_engine::scenario::{Problems, Scenario};
use grognard_engine::wire::Names;
use grognard_hex::Hex;

pub(super) fn bind(s: &Scenario) -> Result<Duel, Problems> {
    let mut problems = Vec::new();
    if s.sides.len() != 2 || s.units.len() != 2 {
        let loc = s.sides.first().map(|x| x.loc).unwrap_or_default();
        problems.push(s.problem(loc, "a duel has two sides and a duellist each"));
    }
    let mut start = [Hex::default(); 2];
    for (i, u) in s.units.iter().enumerate().take(2) {
        match u.hex {
            Some(h) if s.sides.get(i).is_some_and(|x| x.id == u.side) => start[i] = h,
            _ => problems.push(s.problem(u.loc, "the duellists start on the map, in side order")),
        }
    }
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    let units = s.units.iter().map(|u| u.id.clone()).collect();
    Ok(Duel {
        names: Names::new(units, s.map),
        sides: [s.sides[0].id.clone(), s.sides[1].id.clone()],
        turns: s.turns.unwrap_or(10),
        start,
    })
}
