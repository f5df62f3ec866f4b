//! Victory: flags collected (BC-VIC-1) and the turn limit (BC-VIC-2). These functions say
//! who has won; the sequencer (`turn.rs`) ends the game.

use super::{BattleCry, State};
use grognard_engine::Outcome;

/// BC-VIC-1: the side that has collected the flags it needs, first side first.
/// Asked after every action: the flags are compared first, and the outcome written only
/// when a side has its flags.
#[inline]
pub(crate) fn flags_won(rules: &BattleCry, state: &State) -> Option<Outcome> {
    let side = (0..2).find(|&side| state.flags[side] >= rules.flags_to_win[side])?;
    Some(won_on_flags(rules, state, side))
}

/// The outcome of [`flags_won`]: side `side` has collected the flags it needs.
fn won_on_flags(rules: &BattleCry, state: &State, side: usize) -> Outcome {
    let (have, need) = (state.flags[side], rules.flags_to_win[side]);
    Outcome {
        winner: Some(rules.sides[side].clone()),
        reason: format!(
            "{} collected {have} of the {need} flags it needed",
            rules.names.side_title(&rules.sides[side])
        ),
        rule: Some("BC-VIC-1".into()),
    }
}

/// Whether the game is decided: over already, or a side has its flags (BC-VIC-1). A
/// chapter resolving a battle stops there, and leaves the ending to the sequencer.
pub(crate) fn decided(rules: &BattleCry, state: &State) -> bool {
    state.outcome.is_some()
        || rules
            .flags_to_win
            .iter()
            .zip(state.flags)
            .any(|(&n, h)| h >= n)
}

/// BC-VIC-2: at the end of the last turn of a scenario with a turn limit, the side with
/// more flags wins; equal flags are a draw.
pub(crate) fn at_turn_limit(rules: &BattleCry, state: &State) -> Option<Outcome> {
    let limit = rules.turns?;
    if state.turn < 2 * limit {
        return None;
    }
    let [a, b] = state.flags;
    let winner = match a.cmp(&b) {
        std::cmp::Ordering::Greater => Some(rules.sides[0].clone()),
        std::cmp::Ordering::Less => Some(rules.sides[1].clone()),
        std::cmp::Ordering::Equal => None,
    };
    Some(Outcome {
        winner,
        reason: format!(
            "after {limit} turns: {} {a} flags, {} {b} flags",
            rules.side_title(0),
            rules.side_title(1)
        ),
        rule: Some("BC-VIC-2".into()),
    })
}
