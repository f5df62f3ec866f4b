//! What happened, in words (issue 15): each event and each previewed result as one
//! short English sentence with the scenario's names, for every front end to show.

use super::turn::Phase;
use super::{Action, Event, MornePlaine, State};
use crate::common::text::{eliminated, list, outcome, plural, sentence};
use grognard_engine::Preview;
use serde_json::Value;

/// An event in a sentence.
pub(crate) fn event(rules: &MornePlaine, event: &Event) -> String {
    let name = |u| rules.unit_name(u);
    match event {
        Event::Roll(r) => r.text(),
        Event::PhaseBegan { turn, side, phase } => format!(
            "Turn {turn}: {} begins the {} phase.",
            rules.names.side_title(side),
            phase_words(*phase)
        ),
        Event::Moved {
            unit,
            from,
            to,
            left,
            ..
        } => format!(
            "{} moves from {} to {} ({} left).",
            name(*unit),
            rules.label(*from),
            rules.label(*to),
            plural(*left, "movement point")
        ),
        Event::Halted { unit, reason, .. } => {
            format!("{} halts: {}.", name(*unit), reason.trim_end_matches('.'))
        }
        Event::Charged {
            unit,
            target,
            morale,
            result,
            success,
            ..
        } => {
            let how = if *success {
                "fails its morale test and gives way"
            } else {
                "passes its morale test and stands"
            };
            format!(
                "{} charges {}, which {how} ({result} against morale {morale}).",
                name(*unit),
                name(*target)
            )
        }
        Event::Shaken {
            unit,
            morale,
            strength,
            ..
        } => {
            if *morale == 0 {
                format!(
                    "{} loses {}.",
                    name(*unit),
                    plural(*strength, "strength point")
                )
            } else if *strength > 0 {
                format!(
                    "{} loses {} and {}.",
                    name(*unit),
                    plural(*morale, "morale point"),
                    plural(*strength, "strength point")
                )
            } else {
                format!("{} loses {}.", name(*unit), plural(*morale, "morale point"))
            }
        }
        Event::Retreated { unit, from, to, .. } => format!(
            "{} retreats from {} to {}.",
            name(*unit),
            rules.label(*from),
            rules.label(*to)
        ),
        Event::TookHex { unit, to, .. } => {
            format!("{} takes the hex {}.", name(*unit), rules.label(*to))
        }
        Event::Eliminated { unit, reason, .. } => eliminated(name(*unit), reason),
        Event::Bombarded {
            unit,
            target,
            result,
        } => format!(
            "{} bombards {} (result {result}).",
            name(*unit),
            name(*target)
        ),
        Event::Attacked {
            unit,
            target,
            attack,
            defence,
            odds,
            die,
            result,
            supports,
            defence_supports,
            ..
        } => {
            let mut s = format!(
                "{} attacks {} at {odds} ({attack} against {defence}), die {die}: {}",
                name(*unit),
                name(*target),
                crt_words(
                    name(*unit),
                    name(*target),
                    result.attacker_loss,
                    result.attacker_check,
                    result.defender_loss,
                    result.defender_check
                )
            );
            if !supports.is_empty() {
                s.push_str(&format!(
                    "; supported by {}",
                    list(supports.iter().map(|&u| name(u)))
                ));
            }
            if !defence_supports.is_empty() {
                s.push_str(&format!(
                    "; defended with {}",
                    list(defence_supports.iter().map(|&u| name(u)))
                ));
            }
            sentence(&s)
        }
        Event::MoraleChecked {
            unit,
            morale,
            roll,
            failed,
        } => format!(
            "{} {} its morale check ({roll} against {morale}){}.",
            name(*unit),
            if *failed { "fails" } else { "passes" },
            if *failed { " and must retreat" } else { "" }
        ),
        Event::Rallied { unit, morale, .. } => {
            format!(
                "{} rallies and regains {}.",
                name(*unit),
                plural(*morale, "morale point")
            )
        }
        Event::Arrived { unit, at, .. } => {
            format!(
                "{} arrives at {} as a reinforcement.",
                name(*unit),
                rules.label(*at)
            )
        }
        Event::PhasePassed {
            side,
            phase,
            reason,
            refused,
            ..
        } => {
            let mut text = format!(
                "The {} phase of {} passes by itself: {}.",
                phase_words(*phase),
                rules.names.side_title(side),
                reason.trim_end_matches('.')
            );
            for r in refused {
                let why: Vec<&str> = r
                    .reasons
                    .iter()
                    .map(|x| x.message.trim_end_matches('.'))
                    .collect();
                text.push_str(&format!(
                    " {} may not attack {}: {}.",
                    name(r.unit),
                    name(r.target),
                    why.join("; ")
                ));
            }
            text
        }
        Event::GameOver { outcome: o } => outcome(&rules.names, o),
    }
}

fn phase_words(phase: Phase) -> &'static str {
    phase.name()
}

/// A cell of the combat results table in words.
fn crt_words(
    attacker: &str,
    defender: &str,
    attacker_loss: u8,
    attacker_check: bool,
    defender_loss: u8,
    defender_check: bool,
) -> String {
    let mut parts = Vec::new();
    for (who, loss, check) in [
        (attacker, attacker_loss, attacker_check),
        (defender, defender_loss, defender_check),
    ] {
        match (loss, check) {
            (0, false) => {}
            (0, true) => parts.push(format!("{who} checks morale")),
            (n, false) => parts.push(format!("{who} loses {}", plural(n, "strength point"))),
            (n, true) => parts.push(format!(
                "{who} loses {} and checks morale",
                plural(n, "strength point")
            )),
        }
    }
    if parts.is_empty() {
        "no effect".into()
    } else {
        parts.join(", ")
    }
}

/// Writes each previewed result's sentence.
pub(crate) fn preview(rules: &MornePlaine, state: &State, action: &Action, preview: &mut Preview) {
    let name = |u| rules.unit_name(u);
    for c in &mut preview.outcomes {
        let r = &c.result;
        let text = match action {
            Action::Charge { unit, target } => {
                if r["charge"] == "succeeds" {
                    format!(
                        "{} fails its morale test: the charge of {} succeeds.",
                        name(*target),
                        name(*unit)
                    )
                } else {
                    format!(
                        "{} stands: the charge of {} fails.",
                        name(*target),
                        name(*unit)
                    )
                }
            }
            Action::Move { unit, to } => {
                if r["stuck"] == Value::Bool(true) {
                    format!(
                        "{} is stuck in the marsh at {}.",
                        name(*unit),
                        rules.label(*to)
                    )
                } else {
                    format!("{} crosses the marsh at {}.", name(*unit), rules.label(*to))
                }
            }
            Action::Bombard { unit, target } => {
                let at = MornePlaine::occupant(state, *target).map_or_else(
                    || format!("the unit at {}", rules.label(*target)),
                    |v| name(v).to_owned(),
                );
                match r["loss"].as_str() {
                    Some("strength") => sentence(&format!(
                        "{at} loses a strength point to the fire of {}",
                        name(*unit)
                    )),
                    Some("morale") => sentence(&format!(
                        "{at} loses a morale point to the fire of {}",
                        name(*unit)
                    )),
                    _ => format!("{} bombards {at} to no effect.", name(*unit)),
                }
            }
            Action::Attack { unit, target } => {
                let cell = &r["result"];
                let n = |k: &str| u8::try_from(cell[k].as_u64().unwrap_or(0)).unwrap_or(u8::MAX);
                let b = |k: &str| cell[k].as_bool().unwrap_or(false);
                sentence(&format!(
                    "die {}: {}",
                    r["die"].as_u64().unwrap_or(0),
                    crt_words(
                        name(*unit),
                        name(*target),
                        n("attacker_loss"),
                        b("attacker_check"),
                        n("defender_loss"),
                        b("defender_check"),
                    )
                ))
            }
            Action::EndPhase => String::new(),
        };
        c.text = text;
    }
}
