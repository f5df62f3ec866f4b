//! What decides the game as a player at the table sees it, under the same three keys in
//! every ruleset's view (issue 19): `objectives`, `score` and `turns_left`, described in
//! `docs/ENGINE-PROTOCOL.md` ("The score"). Each ruleset counts by its own victory rules
//! and hands the numbers here, so that the keys have one shape everywhere.
//!
//! Views are typed records whose fields are declared in the order of their keys, so that
//! written straight to text ([`text`]) they have the bytes a `serde_json::Value` of them
//! would write ([`value`]): the records here follow that order too, as does the unit of
//! the envelope every view shares ([`EnvelopeUnit`]).

use serde::Serialize;
use serde_json::Value;

/// An objective as the view shows it. Field order is key order.
#[derive(Clone, Debug, Serialize)]
pub struct Objective<'a> {
    /// Its hex label.
    pub hex: String,
    /// The id of the side holding it now, if any.
    pub holder: Option<&'a str>,
    /// Its name, where the scenario gives one.
    pub name: Option<&'a str>,
    /// What holding it is worth to the score.
    pub value: i64,
}

/// One side's entry in `score`: what it has now and the number that ends the game in its
/// favour, `None` where no number does (a count taken only after the last turn). A
/// ruleset that adds keys to it writes its own record, in key order.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Tally {
    /// What the side has now.
    pub have: i64,
    /// What ends the game in its favour.
    pub need: Option<i64>,
}

/// A unit in the envelope every ruleset's view shares (`units`, docs/ENGINE-PROTOCOL.md).
#[derive(Clone, Debug, Serialize)]
pub struct EnvelopeUnit<'a> {
    /// Its hex label; `None` off the map.
    pub hex: Option<String>,
    /// Its scenario id.
    pub id: &'a str,
    /// Its side's id.
    pub side: &'a str,
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

/// A view's records, or a part of them, as a `Value` (whose keys are sorted).
///
/// # Panics
/// Never for the records of the views, which hold no map with keys other than strings.
pub fn value<T: Serialize>(records: &T) -> Value {
    serde_json::to_value(records).expect("a view's records serialise")
}

/// A view's records written straight to text: the bytes of [`value`]'s `Value` written
/// out when the records declare their fields in key order.
///
/// # Panics
/// As [`value`].
pub fn text<T: Serialize>(records: &T) -> String {
    serde_json::to_string(records).expect("a view's records serialise")
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

    /// The shared records are declared in key order: written as text they are their
    /// `Value` written out.
    #[test]
    fn the_records_write_their_keys_in_order() {
        let objective = Objective {
            hex: "0203".into(),
            holder: Some("blue"),
            name: None,
            value: 2,
        };
        let tally = Tally {
            have: 1,
            need: Some(4),
        };
        let unit = EnvelopeUnit {
            hex: None,
            id: "b-1",
            side: "blue",
        };
        assert_eq!(
            text(&objective),
            r#"{"hex":"0203","holder":"blue","name":null,"value":2}"#
        );
        assert_eq!(text(&tally), r#"{"have":1,"need":4}"#);
        assert_eq!(text(&unit), r#"{"hex":null,"id":"b-1","side":"blue"}"#);
        for t in [text(&objective), text(&tally), text(&unit)] {
            let v: Value = serde_json::from_str(&t).unwrap();
            assert_eq!(v.to_string(), t);
        }
        assert_eq!(value(&tally)["need"], 4);
    }
}
