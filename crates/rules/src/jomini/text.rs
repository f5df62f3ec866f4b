//! What happened, in words (issue 15): each event and each previewed result as one
//! short English sentence with the scenario's names, for every front end to show.

use super::data::Face;
use super::{Action, Event, Jomini};
use crate::common::text::{battle_result, dice_show, list, outcome, plural, sentence};
use grognard_engine::Preview;

/// An event in a sentence.
pub(crate) fn event(rules: &Jomini, event: &Event) -> String {
    let name = |u| rules.unit_name(u);
    let side = |s: &str| rules.names.side_title(s).to_owned();
    match event {
        Event::Roll(r) => r.text(),
        Event::TurnBegan { turn, side: s } => format!("Turn {turn}: {} to play.", side(s)),
        Event::Activated { unit, group, .. } => {
            format!("{} is activated (group {group}).", name(*unit))
        }
        Event::Ordered {
            side: s,
            order,
            unit,
            cost,
            tokens,
        } => {
            let to = unit.map_or(String::new(), |u| format!(" to {}", name(u)));
            format!(
                "{} gives a {} order{to} for {} ({} left).",
                side(s),
                order.title(),
                plural(*cost, "token"),
                tokens
            )
        }
        Event::Moved { unit, path, .. } => match path.last() {
            Some(to) => format!(
                "{} moves {} to {}.",
                name(*unit),
                plural(i64::try_from(path.len()).unwrap_or(i64::MAX), "hex")
                    .replace("hexs", "hexes"),
                rules.names.label(*to)
            ),
            None => format!("{} stays where it is.", name(*unit)),
        },
        Event::Exited { unit } => format!("{} leaves the table.", name(*unit)),
        Event::Attacked {
            unit,
            target,
            faces,
            hits,
            flags,
            ignored,
            letters,
            ..
        } => {
            let mut s = format!(
                "{} attacks {}: {} {}; {} and {}",
                name(*unit),
                name(*target),
                dice_show(faces.len()),
                list(faces.iter().map(|f| face_words(*f))),
                plural(*hits, "hit"),
                plural(*flags, "flag")
            );
            if *ignored > 0 {
                s.push_str(&format!(", {ignored} ignored"));
            }
            if *letters > 0 {
                s.push_str(&format!("; {} won", plural(*letters, "order token")));
            }
            sentence(&s)
        }
        Event::Lost {
            unit, stands, left, ..
        } => format!(
            "{} loses {} ({left} left).",
            name(*unit),
            plural(*stands, "stand")
        ),
        Event::Panicked {
            unit,
            toward,
            trampled,
            ..
        } => {
            let way = toward.map_or_else(
                || " off the table".to_owned(),
                |h| format!(" toward {}", rules.names.label(h)),
            );
            let over = trampled.map_or(String::new(), |t| format!(", trampling {}", name(t)));
            format!(
                "An elephant of {} panics and bolts{way}{over}.",
                name(*unit)
            )
        }
        Event::Eliminated { unit, .. } => format!("{} is eliminated.", name(*unit)),
        Event::Retreated {
            unit, to, hexes, ..
        } => format!(
            "{} retreats {} to {}.",
            name(*unit),
            plural(*hexes, "hex"),
            rules.names.label(*to)
        ),
        Event::Took { side: s, place } => format!("{} takes {place}.", side(s)),
        Event::GameOver { outcome: o } => outcome(&rules.names, o),
    }
}

/// A face of the combat die in words.
fn face_words(face: Face) -> &'static str {
    match face {
        Face::Infantry => "infantry",
        Face::Cavalry => "cavalry",
        Face::Artillery => "artillery",
        Face::Flag => "a flag",
        Face::Letter => "an order letter",
        Face::Advantage => "an advantage",
    }
}

/// Writes each previewed result's sentence.
pub(crate) fn preview(rules: &Jomini, action: &Action, preview: &mut Preview) {
    let Action::Attack { target, .. } = action else {
        return;
    };
    let target = rules.unit_name(*target);
    for c in &mut preview.outcomes {
        let n = |k: &str| c.result[k].as_i64().unwrap_or(0);
        let mut text = battle_result(target, &c.result, "lost", "stand");
        if n("tokens") > 0 {
            text.push_str(&format!("; {} won", plural(n("tokens"), "order token")));
        }
        c.text = sentence(&text);
    }
}
