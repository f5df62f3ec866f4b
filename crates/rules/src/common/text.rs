//! Small pieces every ruleset's sentences use (issue 15): a count with its noun, a list
//! of names, a game's result. The sentences themselves are each ruleset's own, in its
//! `text.rs`. And the words events carry ([`Text`]): rule IDs, side names and reasons,
//! which events name over and over and which a playout would otherwise copy for every
//! event.

pub use grognard_engine::Text;
use grognard_engine::{Names, Outcome};

/// `n` and its noun, plural unless `n` is 1: `plural(2, "point")` is "2 points".
#[must_use]
pub fn plural(n: impl Into<i64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else if noun.ends_with('x') {
        format!("{n} {noun}es")
    } else {
        format!("{n} {noun}s")
    }
}

/// A battle's previewed result for its target, in the words of the Commands & Colors
/// family: "is eliminated", else the `lost` count of `piece` lost and the hexes of
/// `retreat`, or "holds unharmed".
#[must_use]
pub fn battle_result(target: &str, result: &serde_json::Value, lost: &str, piece: &str) -> String {
    let n = |k: &str| result[k].as_i64().unwrap_or(0);
    if result["eliminated"] == serde_json::Value::Bool(true) {
        return format!("{target} is eliminated");
    }
    let mut parts = Vec::new();
    if n(lost) > 0 {
        parts.push(format!("loses {}", plural(n(lost), piece)));
    }
    if n("retreat") > 0 {
        parts.push(format!("retreats {}", plural(n("retreat"), "hex")));
    }
    if parts.is_empty() {
        format!("{target} holds unharmed")
    } else {
        format!("{target} {}", parts.join(" and "))
    }
}

/// A unit eliminated, with the reason when there is one.
#[must_use]
pub fn eliminated(name: &str, reason: &str) -> String {
    if reason.is_empty() {
        format!("{name} is eliminated.")
    } else {
        format!("{name} is eliminated: {}.", reason.trim_end_matches('.'))
    }
}

/// `n` dice and the verb of what they show: "1 die shows", "3 dice show".
#[must_use]
pub fn dice_show(n: usize) -> String {
    if n == 1 {
        "1 die shows".into()
    } else {
        format!("{n} dice show")
    }
}

/// A compass direction's short name (`ne`, `s`) in words ("northeast", "south").
#[must_use]
pub fn compass(short: &str) -> &str {
    match short {
        "n" => "north",
        "ne" => "northeast",
        "e" => "east",
        "se" => "southeast",
        "s" => "south",
        "sw" => "southwest",
        "w" => "west",
        "nw" => "northwest",
        other => other,
    }
}

/// Names in a list: "A", "A and B", "A, B and C"; "nobody" when empty.
#[must_use]
pub fn list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<&str> = names.into_iter().collect();
    match names.as_slice() {
        [] => "nobody".into(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A game's result: who won, then why ("Victory to Blue corps: ..."); a draw says so.
#[must_use]
pub fn outcome(names: &Names, outcome: &Outcome) -> String {
    let head = match &outcome.winner {
        Some(side) => format!("Victory to {}", names.side_title(side)),
        None => "The game is drawn".into(),
    };
    if outcome.reason.is_empty() {
        format!("{head}.")
    } else {
        format!("{head}: {}.", outcome.reason.trim_end_matches('.'))
    }
}

/// A sentence from words: its first letter capital, a full stop at its end.
#[must_use]
pub fn sentence(words: &str) -> String {
    let mut chars = words.chars();
    let mut out: String = match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => return String::new(),
    };
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lists_and_sentences_read_as_english() {
        assert_eq!(plural(1, "point"), "1 point");
        assert_eq!(plural(3, "point"), "3 points");
        assert_eq!(list(["A", "B", "C"]), "A, B and C");
        assert_eq!(list([]), "nobody");
        assert_eq!(sentence("the end"), "The end.");
        assert_eq!(dice_show(1), "1 die shows");
        assert_eq!(dice_show(2), "2 dice show");
        assert_eq!(compass("nw"), "northwest");
    }
}
