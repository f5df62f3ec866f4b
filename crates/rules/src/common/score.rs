//! What decides the game as a player at the table sees it, under the same three keys in
//! every ruleset's view (issue 19): `objectives`, `score` and `turns_left`, described in
//! `docs/ENGINE-PROTOCOL.md` ("The score"). Each ruleset counts by its own victory rules
//! and hands the numbers here, so that the keys have one shape everywhere.

use serde_json::{json, Map, Value};

/// An objective as the view shows it.
#[derive(Clone, Debug)]
pub struct Objective<'a> {
    /// Its hex label.
    pub hex: String,
    /// Its name, where the scenario gives one.
    pub name: Option<&'a str>,
    /// The id of the side holding it now, if any.
    pub holder: Option<&'a str>,
    /// What holding it is worth to the score.
    pub value: i64,
}

impl Objective<'_> {
    /// The objective's entry in `objectives`.
    #[must_use]
    pub fn to_json(&self) -> Value {
        json!({ "hex": self.hex, "name": self.name, "holder": self.holder, "value": self.value })
    }
}

/// One side's entry in `score`: what it has now and the number that ends the game in its
/// favour, `None` where no number does (a count taken only after the last turn).
#[must_use]
pub fn tally(have: i64, need: Option<i64>) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("have".into(), json!(have));
    m.insert("need".into(), json!(need));
    m
}

/// The game turns still to play, the current one included (before the first turn, as
/// Battle Cry's deal, counts as the first): `None` without a turn limit, 0 once the game
/// is over.
#[must_use]
pub fn turns_left(turn: u32, turns: Option<u32>, over: bool) -> Option<u32> {
    let limit = turns?;
    Some(if over {
        0
    } else {
        (limit + 1).saturating_sub(turn.max(1))
    })
}

/// Adds the three keys to a view (an object; anything else is left as it is). Keys the
/// view has already are kept: the score only adds.
pub fn add(
    view: &mut Value,
    objectives: &[Objective<'_>],
    score: Vec<(&str, Map<String, Value>)>,
    turns_left: Option<u32>,
) {
    let Some(v) = view.as_object_mut() else {
        return;
    };
    v.entry("objectives")
        .or_insert_with(|| Value::Array(objectives.iter().map(Objective::to_json).collect()));
    let score: Map<String, Value> = score
        .into_iter()
        .map(|(side, entry)| (side.to_owned(), Value::Object(entry)))
        .collect();
    v.insert("score".into(), Value::Object(score));
    v.insert("turns_left".into(), json!(turns_left));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_left_counts_the_current_turn_and_none_without_a_limit() {
        assert_eq!(turns_left(1, Some(12), false), Some(12));
        assert_eq!(turns_left(12, Some(12), false), Some(1));
        assert_eq!(turns_left(12, Some(12), true), Some(0));
        assert_eq!(turns_left(13, Some(12), false), Some(0));
        assert_eq!(turns_left(0, Some(12), false), Some(12));
        assert_eq!(turns_left(3, None, false), None);
    }

    #[test]
    fn add_keeps_a_view_s_own_objectives() {
        let mut v = json!({"objectives": [{"held": "blue"}]});
        add(&mut v, &[], vec![("blue", tally(1, Some(4)))], Some(2));
        assert_eq!(v["objectives"], json!([{"held": "blue"}]));
        assert_eq!(v["score"]["blue"], json!({"have": 1, "need": 4}));
        assert_eq!(v["turns_left"], json!(2));
    }
}
