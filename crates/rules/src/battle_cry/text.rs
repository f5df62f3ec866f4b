//! Each event and previewed result as one short English sentence with the scenario's
//! names (issue 15), for every front end to show ([`event`], [`preview`]). The events'
//! words (rule IDs, side names, reasons) are [`Text`], shared by the rulesets.

use super::data::Face;
use super::{Action, BattleCry, Event};
use crate::common::text::{battle_result, dice_show, eliminated, list, outcome, plural, sentence};
use grognard_engine::Preview;

pub use crate::common::text::Text;

/// An event in a sentence.
pub(crate) fn event(rules: &BattleCry, event: &Event) -> String {
    let name = |u| rules.unit_name(u);
    let side = |s: &Text| rules.names.side_title(s).to_owned();
    match event {
        Event::Roll(r) => r.text(),
        Event::TurnBegan { turn, side: s } => format!("Turn {turn}: {} to play.", side(s)),
        Event::Drew { side: s, card, .. } => match card {
            Some(c) => format!("{} draws {}.", side(s), c.row().title),
            None => format!("{} draws a card.", side(s)),
        },
        Event::Reshuffled { cards } => {
            format!(
                "The discards are shuffled into a new deck of {}.",
                plural(i64::try_from(*cards).unwrap_or(i64::MAX), "card")
            )
        }
        Event::CardPlayed { side: s, card, .. } => {
            format!("{} plays {}.", side(s), card.row().title)
        }
        Event::Discarded { side: s, card, .. } => {
            format!("{} discards {}.", side(s), card.row().title)
        }
        Event::Ordered { unit, .. } => format!("{} is ordered.", name(*unit)),
        Event::Moved {
            unit,
            from,
            to,
            general,
            ..
        } => {
            let with = general.map_or(String::new(), |g| format!(" with {}", name(g)));
            format!(
                "{} moves from {} to {}{with}.",
                name(*unit),
                rules.label(*from),
                rules.label(*to)
            )
        }
        Event::Attached { general, unit, .. } => {
            format!("{} joins {}.", name(*general), name(*unit))
        }
        Event::Battled {
            unit,
            target,
            faces,
            hits,
            flags,
            ..
        } => format!(
            "{} battles {}: {} {}; {} and {}.",
            name(*unit),
            name(*target),
            dice_show(faces.len()),
            list(faces.iter().map(|f| face_words(*f))),
            plural(*hits, "hit"),
            plural(*flags, "flag")
        ),
        Event::FlagIgnored { unit, .. } => format!("{} ignores a retreat flag.", name(*unit)),
        Event::Lost {
            unit,
            figures,
            left,
            ..
        } => format!(
            "{} loses {} ({} left).",
            name(*unit),
            plural(*figures, "figure"),
            left
        ),
        Event::Eliminated { unit, reason, .. } => eliminated(name(*unit), reason),
        Event::FlagTaken { side: s, flags } => {
            format!("{} takes a victory flag ({} in all).", side(s), flags)
        }
        Event::Retreated {
            unit,
            from,
            to,
            hexes,
            general,
            ..
        } => {
            let with = general.map_or(String::new(), |g| format!(" with {}", name(g)));
            format!(
                "{} retreats {} from {} to {}{with}.",
                name(*unit),
                plural(*hexes, "hex"),
                rules.label(*from),
                rules.label(*to)
            )
        }
        Event::TookGround { unit, to, general } => format!(
            "{} takes ground at {}, led by {}.",
            name(*unit),
            rules.label(*to),
            name(*general)
        ),
        Event::GameOver { outcome: o } => outcome(&rules.names, o),
    }
}

/// A face of the battle die in words.
fn face_words(face: Face) -> &'static str {
    match face {
        Face::Infantry => "infantry",
        Face::Cavalry => "cavalry",
        Face::Artillery => "artillery",
        Face::Sabers => "sabers",
        Face::Flag => "a flag",
    }
}

/// Writes each previewed result's sentence.
pub(crate) fn preview(rules: &BattleCry, action: &Action, preview: &mut Preview) {
    // A battle names its target; Fight Back battles the attacker, which the preview's
    // inputs name.
    let target = match action {
        Action::Battle { target, .. } => Some(*target),
        _ => preview.inputs["target"]
            .as_str()
            .and_then(|id| rules.names.unit(id)),
    };
    let target = target.map_or("the target", |t| rules.unit_name(t));
    for c in &mut preview.outcomes {
        let text = battle_result(target, &c.result, "hits", "figure");
        c.text = sentence(&text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_is_its_string() {
        let shared = Text::from(String::from("BC-CARD-1"));
        let written = Text::from("BC-CARD-1");
        assert_eq!(shared, written);
        assert_eq!(written, "BC-CARD-1");
        assert_eq!(format!("{written:?}"), format!("{:?}", "BC-CARD-1"));
        assert_eq!(
            serde_json::to_string(&written).unwrap(),
            serde_json::to_string("BC-CARD-1").unwrap()
        );
        let back: Text = serde_json::from_str("\"grey\"").unwrap();
        assert_eq!(back.as_str(), "grey");
    }
}
