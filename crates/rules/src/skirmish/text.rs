//! What happened, in words (issue 15): each event and each previewed result as one
//! short English sentence with the scenario's names, for every front end to show.

use super::{AttackKind, Event, Skirmish};
use crate::common::text::{compass, list, outcome, plural, sentence};
use grognard_engine::Preview;
use serde_json::Value;

/// A snake_case word of the rules ("quick_action") as words ("quick action").
fn words(id: &str) -> String {
    id.replace('_', " ")
}

/// An event in a sentence.
pub(crate) fn event(rules: &Skirmish, event: &Event) -> String {
    let name = |u| rules.name(u);
    let side = |s: &str| rules.names.side_title(s).to_owned();
    match event {
        Event::Roll(r) => r.text(),
        Event::PhaseBegan {
            turn,
            side: s,
            phase,
        } => format!(
            "Turn {turn}: {} begins the {} phase.",
            side(s),
            phase.name()
        ),
        Event::Moved { unit, from, to, .. } => format!(
            "{} moves from {} to {}.",
            name(*unit),
            rules.label(*from),
            rules.label(*to)
        ),
        Event::Faced { unit, facing, .. } => {
            format!(
                "{} turns to face {}.",
                name(*unit),
                compass(rules.dir_name(*facing))
            )
        }
        Event::Halted { unit, reason, .. } => sentence(&format!(
            "{} halts: {}",
            name(*unit),
            reason.trim_end_matches('.')
        )),
        Event::ChargeDeclared {
            unit, target, with, ..
        } => {
            let with = if with.is_empty() {
                String::new()
            } else {
                format!(" with {}", list(with.iter().map(|&u| name(u))))
            };
            format!("{} charges {}{with}.", name(*unit), name(*target))
        }
        Event::ChargeEnded { unit, reason, .. } => sentence(&format!(
            "the charge of {} ends: {}",
            name(*unit),
            reason.trim_end_matches('.')
        )),
        Event::WindowOpened {
            kind,
            side: s,
            unit,
        } => match kind.as_str() {
            "opportunity" => format!(
                "{} may strike {} as it leaves: attacks of opportunity.",
                side(s),
                name(*unit)
            ),
            _ => format!("{} may react to {}.", side(s), name(*unit)),
        },
        Event::Passed { side: s, kind } => match kind.as_str() {
            "opportunity" => format!("{} lets the attacks of opportunity pass.", side(s)),
            "reaction" => format!("{} does not react.", side(s)),
            other => format!("{} lets the {} pass.", side(s), words(other)),
        },
        Event::Attacked {
            unit,
            target,
            kind,
            result,
            defense,
            hit,
            damage,
            ..
        } => {
            let how = match kind {
                AttackKind::Melee => "attacks",
                AttackKind::Counter => "counterattacks",
                AttackKind::Charge => "charges into",
                AttackKind::Opportunity => "strikes at",
                AttackKind::Missile => "shoots at",
                AttackKind::ReactionFire => "fires in reaction at",
            };
            let end = if *hit {
                format!("a hit for {}", plural(*damage, "point") + " of damage")
            } else {
                "a miss".into()
            };
            format!(
                "{} {how} {}: {result} against {defense}, {end}.",
                name(*unit),
                name(*target)
            )
        }
        Event::Status {
            unit,
            status,
            on,
            reason,
            ..
        } => {
            let head = if *on {
                format!("{} is now {}", name(*unit), words(status))
            } else {
                format!("{} is no longer {}", name(*unit), words(status))
            };
            if reason.is_empty() {
                sentence(&head)
            } else {
                sentence(&format!("{head}: {}", reason.trim_end_matches('.')))
            }
        }
        Event::Spent { unit, action, .. } => {
            format!("{} spends its {}.", name(*unit), words(action))
        }
        Event::Checked {
            unit,
            check,
            total,
            need,
            result,
            ..
        } => {
            let check = words(check);
            let check = if check.ends_with("check") {
                check
            } else {
                format!("{check} check")
            };
            sentence(&format!(
                "{} makes a {check}: {total}, needing {need}: {}",
                name(*unit),
                result.trim_end_matches('.')
            ))
        }
        Event::OutOfAction { unit, .. } => format!("{} is out of action.", name(*unit)),
        Event::Fled { unit, .. } => format!("{} flees the fight.", name(*unit)),
        Event::GameOver { outcome: o } => outcome(&rules.names, o),
    }
}

/// Writes each previewed result's sentence: what befalls each character, from the
/// summary the preview keys by character id.
pub(crate) fn preview(rules: &Skirmish, preview: &mut Preview) {
    for c in &mut preview.outcomes {
        let Value::Object(by_unit) = &c.result else {
            continue;
        };
        let mut parts = Vec::new();
        for (id, what) in by_unit {
            let who = rules
                .names
                .unit(id)
                .map_or("a character", |u| rules.name(u));
            let mut fates = Vec::new();
            if let Some(d) = what["damage"].as_i64() {
                fates.push(format!("takes {}", plural(d, "point") + " of damage"));
            }
            if what["wounded"] == Value::Bool(true) {
                fates.push("is wounded".into());
            }
            if what["dazed"] == Value::Bool(true) {
                fates.push("is dazed".into());
            }
            if what["out"] == Value::Bool(true) {
                fates.push("is out of action".into());
            }
            if let Some(at) = what["at"].as_str() {
                fates.push(format!("ends at {at}"));
            }
            if !fates.is_empty() {
                parts.push(format!("{who} {}", list(fates.iter().map(String::as_str))));
            }
        }
        c.text = if parts.is_empty() {
            "No effect.".into()
        } else {
            sentence(&parts.join("; "))
        };
    }
}
