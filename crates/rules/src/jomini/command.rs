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

/// JO-CMD-2: whether these units are all foot troops, all mounted troops, all artillery;
/// units of one of the three may share an activation (infantry with foot artillery,
/// mounted troops with horse artillery, or artillery alone).
fn kinds(rules: &Jomini, members: impl IntoIterator<Item = UnitId>) -> [bool; 3] {
    let mut all = [true; 3];
    for u in members {
        let p = rules.piece(u);
        all[0] &= p.row.kind == "foot";
        all[1] &= p.row.kind == "mounted";
        all[2] &= p.artillery();
    }
    all
}

/// The units of activation `g`.
pub(crate) fn members(rules: &Jomini, state: &State, g: u8) -> Vec<UnitId> {
    members_of(rules, state, g).collect()
}

/// The units of activation `g`, one by one.
fn members_of<'a>(rules: &'a Jomini, state: &'a State, g: u8) -> impl Iterator<Item = UnitId> + 'a {
    rules
        .piece_ids()
        .filter(move |&u| !rules.piece(u).officer && state.pieces[u.index()].group == Some(g))
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

/// Why `u` may not open or join an activation now, given the activations open, before
/// any message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoJoin {
    /// JO-CMD-1: every activation of the turn is open.
    AllOpened { count: u8 },
    /// JO-CMD-3: no officer's activation to join.
    NoOfficer,
    /// JO-CMD-1: the activation holds all the units it may.
    Full { officer: UnitId, size: u8 },
    /// JO-CMD-2: not of the activation's kind.
    Kind,
    /// JO-MOV-27: on and off the table.
    Entering { waiting: bool, officer: UnitId },
    /// JO-CMD-3: out of the officer's reach.
    TooFar {
        officer: UnitId,
        distance: u32,
        radius: u32,
    },
}

/// The activation `u` opens or joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Joins {
    /// An officer opens an activation of up to `size` units (JO-CMD-3).
    Opens { size: u8 },
    /// A unit joins `officer`'s activation as its unit `units + 1` of `size`.
    Joins {
        officer: UnitId,
        units: u8,
        size: u8,
        combined: bool,
        anywhere: bool,
        waiting: bool,
    },
}

/// The activations open now, as they bear on the next piece activated: worked out once
/// for the legal list.
struct Open<'s> {
    /// Activations a turn and units in each (JO-CMD-1, [`activations`]).
    count: u8,
    size: u8,
    /// Officers' activations opened in this command phase.
    opened: usize,
    /// The activation units now join ([`current_group`]).
    current: Option<(u8, &'s Group)>,
    /// Whether its units are all foot, all mounted, all artillery (JO-CMD-2).
    kinds: [bool; 3],
}

impl<'s> Open<'s> {
    fn new(rules: &Jomini, state: &'s State) -> Open<'s> {
        let (count, size) = activations(rules, state, state.active);
        let opened = state
            .groups
            .iter()
            .skip(usize::from(state.first_group))
            .filter(|g| g.officer.is_some())
            .count();
        let current = current_group(state);
        let kinds = current.map_or([true; 3], |(g, _)| {
            kinds(rules, members_of(rules, state, g))
        });
        Open {
            count,
            size,
            opened,
            current,
            kinds,
        }
    }
}

/// JO-CMD-1 to JO-CMD-3, JO-MOV-27: whether `u`, free to be activated, may open or join
/// an activation now, given the activations `open`.
fn can_join(rules: &Jomini, state: &State, open: &Open<'_>, u: UnitId) -> Result<Joins, NoJoin> {
    let (count, size) = (open.count, open.size);
    if rules.piece(u).officer {
        if open.opened >= usize::from(count) {
            return Err(NoJoin::AllOpened { count });
        }
        return Ok(Joins::Opens { size });
    }
    let Some((_, group)) = open.current else {
        return Err(NoJoin::NoOfficer);
    };
    let officer = group.officer.expect("an officer's activation");
    if group.units >= size {
        return Err(NoJoin::Full { officer, size });
    }
    // JO-CMD-2: the activation's units and `u` of one kind.
    let mine = kinds(rules, [u]);
    if !group.combined && !(0..3).any(|k| open.kinds[k] && mine[k]) {
        return Err(NoJoin::Kind);
    }
    let (waiting, officer_waiting) = (
        state.pieces[u.index()].waiting,
        state.pieces[officer.index()].waiting,
    );
    if waiting != officer_waiting {
        return Err(NoJoin::Entering { waiting, officer });
    }
    let radius = rules.data.command.radius;
    let distance = match (position(rules, state, officer), position(rules, state, u)) {
        (Some(a), Some(b)) => a.distance(b),
        _ => u32::MAX,
    };
    if !group.anywhere && distance > radius {
        return Err(NoJoin::TooFar {
            officer,
            distance,
            radius,
        });
    }
    Ok(Joins::Joins {
        officer,
        units: group.units,
        size,
        combined: group.combined,
        anywhere: group.anywhere,
        waiting,
    })
}

impl NoJoin {
    /// The refusal of activating `u`, with its message.
    fn refusal(self, rules: &Jomini, u: UnitId) -> Refusal {
        match self {
            NoJoin::AllOpened { count } => Refusal::new(
                "JO-CMD-1",
                format!("an army of this size has {count} activation(s) a turn, all opened"),
            ),
            NoJoin::NoOfficer => Refusal::new(
                "JO-CMD-3",
                "activate an officer first: an activation is led by an officer",
            ),
            NoJoin::Full { officer, size } => Refusal::new(
                "JO-CMD-1",
                format!(
                    "the activation of {} already holds {size} units",
                    rules.who(officer)
                ),
            ),
            NoJoin::Kind => Refusal::new(
                "JO-CMD-2",
                format!(
                    "{} is not of the activation's kind: infantry with foot artillery, mounted troops with horse artillery, or artillery alone",
                    rules.who(u)
                ),
            ),
            NoJoin::Entering { waiting, officer } => Refusal::new(
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
            ),
            NoJoin::TooFar {
                officer,
                distance,
                radius,
            } => Refusal::new(
                "JO-CMD-3",
                format!(
                    "{} is {distance} hexes from {}: an officer activates units within {radius}",
                    rules.who(u),
                    rules.who(officer)
                ),
            ),
        }
    }
}

/// Checks activating `u`: an officer opens an activation, a unit joins the last one.
pub(crate) fn check_activate(
    rules: &Jomini,
    state: &State,
    u: UnitId,
) -> Result<Vec<Reason>, Refusal> {
    common(rules, state, u)?;
    let joins =
        can_join(rules, state, &Open::new(rules, state), u).map_err(|why| why.refusal(rules, u))?;
    let (officer, units, size, combined, anywhere, waiting) = match joins {
        Joins::Opens { size } => {
            return Ok(vec![Reason::new(
                "JO-CMD-3",
                format!("{} opens an activation of up to {size} units", rules.who(u)),
            )]);
        }
        Joins::Joins {
            officer,
            units,
            size,
            combined,
            anywhere,
            waiting,
        } => (officer, units, size, combined, anywhere, waiting),
    };
    let mut reasons = vec![Reason::new(
        "JO-CMD-1",
        format!(
            "unit {} of {size} in the activation of {}",
            units + 1,
            rules.who(officer)
        ),
    )];
    reasons.push(if combined {
        Reason::new("JO-ORD-9", "combined attack: kinds may be mixed")
    } else {
        Reason::new("JO-CMD-2", "one kind of troops")
    });
    if anywhere {
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
    ctx.emit_with(|| Event::Activated {
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
    // The activations open, worked out once for every candidate.
    let mut open = None;
    for u in rules.piece_ids() {
        if can_activate(rules, state, u).is_err() {
            continue;
        }
        let open = open.get_or_insert_with(|| Open::new(rules, state));
        if can_join(rules, state, open, u).is_ok() {
            out.push(Action::Activate { unit: u });
        }
    }
}
