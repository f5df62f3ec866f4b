//! The words of events: rule IDs, side names and reasons, which events name over and over
//! and which a playout would otherwise copy for every event ([`Text`]); and each event and
//! previewed result as one short English sentence with the scenario's names (issue 15),
//! for every front end to show ([`event`], [`preview`]).

use super::data::Face;
use super::{Action, BattleCry, Event};
use crate::common::text::{battle_result, dice_show, eliminated, list, outcome, plural, sentence};
use grognard_engine::Preview;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

/// A rule ID, a side's id or a reason in an [`super::Event`]: a string written in the
/// rules, or one shared with the rules bound to a scenario (a side's id) or read back from
/// a log. It reads, compares, hashes, prints and serializes as its string, so an event
/// holding one is the event holding that string.
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Static(&'static str),
    Shared(Arc<str>),
}

impl Text {
    /// The text, as a string slice.
    #[must_use]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Static(s) => s,
            Repr::Shared(s) => s,
        }
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&'static str> for Text {
    fn from(s: &'static str) -> Text {
        Text(Repr::Static(s))
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(Repr::Shared(s.into()))
    }
}

impl From<Arc<str>> for Text {
    fn from(s: Arc<str>) -> Text {
        Text(Repr::Shared(s))
    }
}

impl From<Text> for String {
    fn from(t: Text) -> String {
        t.as_str().to_owned()
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Text) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        String::deserialize(d).map(Text::from)
    }
}

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
