//! Victory: a third of the enemy's units eliminated by default, the scenario's objectives
//! counting as units, and the turn limit (JO-VIC-1 to JO-VIC-3).

use super::{Board, Event, Jomini, State};
use grognard_engine::{Ctx, Outcome};

/// JO-VIC-1, JO-VIC-2: a side's points: enemy units it eliminated and the value of the
/// objectives it holds.
#[must_use]
pub fn points(rules: &Jomini, state: &State, side: u8) -> u32 {
    let held: u32 = rules
        .objectives
        .iter()
        .zip(&state.held)
        .filter(|(_, h)| **h == Some(side))
        .map(|(o, _)| o.value)
        .sum();
    state.eliminated[usize::from(side)] + held
}

/// JO-VIC-2: an objective belongs to the last side to have a unit in it.
pub(crate) fn update_objectives(
    rules: &Jomini,
    state: &mut State,
    board: &Board,
    mut ctx: Option<&mut Ctx<'_, Event>>,
) {
    for (i, o) in rules.objectives.iter().enumerate() {
        if let Some(u) = board.unit_at(rules, o.hex) {
            let side = rules.side_of(u);
            if state.held[i] != Some(side) {
                state.held[i] = Some(side);
                if let Some(ctx) = ctx.as_deref_mut() {
                    ctx.emit_with(|| Event::Took {
                        side: rules.side_name(side).to_owned(),
                        place: o.name.clone(),
                    });
                }
            }
        }
    }
}

/// JO-VIC-1: ends the game when a side has its points, the active side first.
pub(crate) fn check(rules: &Jomini, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    if state.outcome.is_some() {
        return;
    }
    for side in [state.active, 1 - state.active] {
        let p = points(rules, state, side);
        let need = rules.target[usize::from(side)];
        if p >= need {
            let outcome = Outcome {
                winner: Some(rules.side_name(side).to_owned()),
                reason: format!("{} has {p} of the {need} points it needed: enemy units eliminated and objectives held", rules.side_title(side)),
                rule: Some("JO-VIC-1".into()),
            };
            state.outcome = Some(outcome.clone());
            state.pending = None;
            ctx.emit_with(|| Event::GameOver { outcome });
            return;
        }
    }
}

/// JO-VIC-3: at the turn limit the side with more points wins; equal points, a draw.
pub(crate) fn at_time(rules: &Jomini, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    let p = [points(rules, state, 0), points(rules, state, 1)];
    let winner = match p[0].cmp(&p[1]) {
        std::cmp::Ordering::Greater => Some(0u8),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    let outcome = Outcome {
        winner: winner.map(|w| rules.side_name(w).to_owned()),
        reason: format!(
            "the last turn is over: {} {} points, {} {}",
            rules.side_title(0),
            p[0],
            rules.side_title(1),
            p[1]
        ),
        rule: Some("JO-VIC-3".into()),
    };
    state.outcome = Some(outcome.clone());
    ctx.emit_with(|| Event::GameOver { outcome });
}
