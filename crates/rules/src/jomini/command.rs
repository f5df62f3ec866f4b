//! The command phase: activations by army size, one kind of troops per activation, each
//! led by an officer (JO-CMD-1 to JO-CMD-4).

use super::sequence::{in_phase, NotNow};
use super::{Action, Event, Group, Jomini, Phase, State};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::Hex;

/// JO-CMD-1: the activations of `side`'s army this turn and the units in each, by the
/// number of its units still in the game (on the table or waiting to enter).
#[must_use]
pub fn activations(rules: &Jomini, state: &State, side: u8) -> (u8, u8) {
    let army = rules
        .piece_ids()
        .filter(|&u| {
            let p = &state.pieces[u.index()];
            let piece = rules.piece(u);
            piece.side == side && !piece.officer && p.strength > 0 && !p.exited
        })
        .count();
    let army = u32::try_from(army).unwrap_or(u32::MAX);
    let table = &rules.data.command.armies;
    let row = table
        .iter()
        .find(|a| army <= a.up_to)
        .or(table.last())
        .expect("the activations table has a row");
    (row.activations, row.units)
}

/// Whether a piece can take part in the turn: on the table, or a reinforcement whose
/// turn has come (JO-MOV-26).
pub(crate) fn available(rules: &Jomini, state: &State, u: UnitId) -> bool {
    let p = &state.pieces[u.index()];
    if p.strength == 0 || p.exited {
        return false;
    }
    if p.waiting {
        return rules
            .piece(u)
            .enters
            .is_some_and(|(turn, _)| turn <= Jomini::game_turn(state));
    }
    p.hex.is_some()
}

/// Where a piece is for command: its hex, or the hex it enters by while waiting.
pub(crate) fn position(rules: &Jomini, state: &State, u: UnitId) -> Option<Hex> {
    let p = &state.pieces[u.index()];
    if p.waiting {
        rules.piece(u).enters.map(|(_, h)| h)
    } else {
        p.hex
    }
}

/// The officer's activation units now join: the last one opened in this command phase.
pub(crate) fn current_group(state: &State) -> Option<(u8, &Group)> {
    state
        .groups
        .iter()
        .enumerate()
        .skip(usize::from(state.first_group))
        .rev()
        .find(|(_, g)| g.officer.is_some())
        .map(|(i, g)| (u8::try_from(i).expect("few groups"), g))
}

/// JO-CMD-2: whether units of these types may share an activation: infantry with foot
/// artillery, mounted troops with horse artillery, or artillery alone.
pub(crate) fn one_kind(rules: &Jomini, members: &[UnitId]) -> bool {
    let all = |f: &dyn Fn(&super::Piece) -> bool| members.iter().all(|&u| f(rules.piece(u)));
    all(&|p| p.row.kind == "foot") || all(&|p| p.row.kind == "mounted") || all(&|p| p.artillery())
}

/// The units of activation `g`.
pub(crate) fn members(rules: &Jomini, state: &State, g: u8) -> Vec<UnitId> {
    rules
        .piece_ids()
        .filter(|&u| !rules.piece(u).officer && state.pieces[u.index()].group == Some(g))
        .collect()
}

/// Why `u` may not be activated now, whatever the activations open, before any message
/// is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoActivation {
    NotNow(NotNow),
    NotYours,
    Unavailable,
    Activated,
}

/// JO-CMD-1, JO-CMD-4, JO-MOV-26: whether `u` may be activated now at all; cheap, for the
/// legal list and the check alike.
fn can_activate(rules: &Jomini, state: &State, u: UnitId) -> Result<(), NoActivation> {
    in_phase(state, Phase::Command).map_err(NoActivation::NotNow)?;
    if u.index() >= rules.pieces.len() || rules.side_of(u) != state.active {
        return Err(NoActivation::NotYours);
    }
    if !available(rules, state, u) {
        return Err(NoActivation::Unavailable);
    }
    if state.pieces[u.index()].group.is_some() {
        return Err(NoActivation::Activated);
    }
    Ok(())
}

fn common(rules: &Jomini, state: &State, u: UnitId) -> Result<(), Refusal> {
    can_activate(rules, state, u).map_err(|why| match why {
        NoActivation::NotNow(n) => n.refusal("JO-TURN-1", |p| {
            format!("activations are chosen in the command phase, not the {p} phase")
        }),
        NoActivation::NotYours => Refusal::new("JO-CMD-1", "not one of your units"),
        NoActivation::Unavailable => {
            let p = &state.pieces[u.index()];
            let why = if p.waiting {
                format!(
                    "{} enters on turn {}, not yet",
                    rules.who(u),
                    rules.piece(u).enters.map_or(0, |e| e.0)
                )
            } else {
                format!("{} is no longer on the table", rules.who(u))
            };
            Refusal::new("JO-MOV-26", why)
        }
        NoActivation::Activated => Refusal::new(
            "JO-CMD-4",
            format!("{} is already activated this turn", rules.who(u)),
        ),
    })
}

/// Checks activating `u`: an officer opens an activation, a unit joins the last one.
pub(crate) fn check_activate(
    rules: &Jomini,
    state: &State,
    u: UnitId,
) -> Result<Vec<Reason>, Refusal> {
    common(rules, state, u)?;
    let (count, size) = activations(rules, state, state.active);
    if rules.piece(u).officer {
        let opened = state
            .groups
            .iter()
            .skip(usize::from(state.first_group))
            .filter(|g| g.officer.is_some())
            .count();
        if opened >= usize::from(count) {
            return Err(Refusal::new(
                "JO-CMD-1",
                format!("an army of this size has {count} activation(s) a turn, all opened"),
            ));
        }
        return Ok(vec![Reason::new(
            "JO-CMD-3",
            format!("{} opens an activation of up to {size} units", rules.who(u)),
        )]);
    }
    let Some((g, group)) = current_group(state) else {
        return Err(Refusal::new(
            "JO-CMD-3",
            "activate an officer first: an activation is led by an officer",
        ));
    };
    let officer = group.officer.expect("an officer's activation");
    if group.units >= size {
        return Err(Refusal::new(
            "JO-CMD-1",
            format!(
                "the activation of {} already holds {size} units",
                rules.who(officer)
            ),
        ));
    }
    let mut all = members(rules, state, g);
    all.push(u);
    if !group.combined && !one_kind(rules, &all) {
        return Err(Refusal::new(
            "JO-CMD-2",
            format!(
                "{} is not of the activation's kind: infantry with foot artillery, mounted troops with horse artillery, or artillery alone",
                rules.who(u)
            ),
        ));
    }
    let (waiting, officer_waiting) = (
        state.pieces[u.index()].waiting,
        state.pieces[officer.index()].waiting,
    );
    if waiting != officer_waiting {
        return Err(Refusal::new(
            "JO-MOV-27",
            if waiting {
                format!(
                    "{} is off the table: it enters only with an officer off the table with it",
                    rules.who(u)
                )
            } else {
                format!(
                    "{} is off the table and commands only the units entering with it",
                    rules.who(officer)
                )
            },
        ));
    }
    let radius = rules.data.command.radius;
    let distance = match (position(rules, state, officer), position(rules, state, u)) {
        (Some(a), Some(b)) => a.distance(b),
        _ => u32::MAX,
    };
    if !group.anywhere && distance > radius {
        return Err(Refusal::new(
            "JO-CMD-3",
            format!(
                "{} is {distance} hexes from {}: an officer activates units within {radius}",
                rules.who(u),
                rules.who(officer)
            ),
        ));
    }
    let mut reasons = vec![Reason::new(
        "JO-CMD-1",
        format!(
            "unit {} of {size} in the activation of {}",
            group.units + 1,
            rules.who(officer)
        ),
    )];
    reasons.push(if group.combined {
        Reason::new("JO-ORD-9", "combined attack: kinds may be mixed")
    } else {
        Reason::new("JO-CMD-2", "one kind of troops")
    });
    if group.anywhere {
        reasons.push(Reason::new(
            "JO-ORD-10",
            "manoeuvre: the units may be anywhere",
        ));
    }
    if waiting {
        reasons.push(Reason::new(
            "JO-MOV-27",
            "it enters with its officer from off the table",
        ));
    }
    Ok(reasons)
}

/// Activates `u`.
pub(crate) fn activate(rules: &Jomini, state: &mut State, u: UnitId, ctx: &mut Ctx<'_, Event>) {
    let g = if rules.piece(u).officer {
        state.groups.push(Group {
            officer: Some(u),
            units: 0,
            combined: false,
            anywhere: false,
            forward: false,
        });
        u8::try_from(state.groups.len() - 1).expect("few groups")
    } else {
        let (g, _) = current_group(state).expect("checked");
        state.groups[usize::from(g)].units += 1;
        g
    };
    state.pieces[u.index()].group = Some(g);
    ctx.emit(Event::Activated {
        unit: u,
        group: g,
        rule: "JO-CMD-1".into(),
    });
}

/// A unit activated on its own, by a courier or to scout (JO-ORD-8, JO-ORD-5).
pub(crate) fn activate_alone(state: &mut State, u: UnitId) -> u8 {
    state.groups.push(Group {
        officer: None,
        units: 1,
        combined: false,
        anywhere: true,
        forward: false,
    });
    let g = u8::try_from(state.groups.len() - 1).expect("few groups");
    state.pieces[u.index()].group = Some(g);
    g
}

/// Checks ending the command phase.
pub(crate) fn check_end_command(state: &State) -> Result<Vec<Reason>, Refusal> {
    if state.pending.is_some() || state.phase != Phase::Command {
        return Err(Refusal::new(
            "JO-TURN-1",
            format!(
                "this is the {} phase, not the command phase",
                state.phase.name()
            ),
        ));
    }
    Ok(vec![Reason::new(
        "JO-TURN-1",
        "command, then movement: the activated units move",
    )])
}

/// Every activation the active side may make now: the cheap gate first, then the rest
/// of [`check_activate`] (the activations open and their sizes).
pub(crate) fn legal_activations(rules: &Jomini, state: &State, out: &mut Vec<Action>) {
    for u in rules.piece_ids() {
        if can_activate(rules, state, u).is_ok() && check_activate(rules, state, u).is_ok() {
            out.push(Action::Activate { unit: u });
        }
    }
}
