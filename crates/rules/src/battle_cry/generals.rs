//! Generals in battle: taking ground. (Embolden, a general alone being attacked and the
//! spare sabers are applied where the dice are, in [`super::battle`], the flag ignored
//! being the defending side's choice; a general's retreat in [`super::retreat`].)

use super::units::{Board, Kind};
use super::{BattleCry, Event, Pending, State};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::Hex;

/// BC-GEN-7: after `attacker` battled the enemy that stood in `from`, and that hex is now
/// empty (the enemy was eliminated or retreated), an infantry or cavalry attacker with an
/// attached general, adjacent to it, may take ground. Never after a Fight Back: those
/// battles pass `None` (BC-GEN-8).
pub(crate) fn after_vacated(
    rules: &BattleCry,
    state: &mut State,
    attacker: Option<UnitId>,
    from: Hex,
) {
    let Some(a) = attacker else { return };
    if super::victory::decided(rules, state)
        || !matches!(rules.kind(a), Kind::Infantry | Kind::Cavalry)
    {
        return;
    }
    let Some(at) = state.pieces[a.index()].hex else {
        return;
    };
    // Asked in the middle of an action, after a piece left `from`: the pieces' hexes are
    // read directly rather than through a board, which would be built afresh there.
    let on_map = |h: Hex| rules.index(h).is_some();
    let takes = at.distance(from) == 1
        && on_map(at)
        && on_map(from)
        && state
            .pieces
            .iter()
            .zip(&rules.pieces)
            .any(|(p, piece)| piece.kind == Kind::General && p.hex == Some(at))
        && !state.pieces.iter().any(|p| p.hex == Some(from));
    debug_assert_eq!(
        takes,
        {
            let board = Board::new(rules, state);
            at.distance(from) == 1
                && board.general_at(rules, at).is_some()
                && !board.occupied(rules, from)
        },
        "taking ground read from the pieces"
    );
    if takes {
        state.pending = Some(Pending::TakeGround { unit: a, to: from });
    }
}

/// Checks taking ground.
pub(crate) fn check_take_ground(rules: &BattleCry, state: &State) -> Result<Vec<Reason>, Refusal> {
    let Some(Pending::TakeGround { unit, to }) = state.pending else {
        return Err(Refusal::new(
            "BC-GEN-7",
            "ground is taken only just after a unit with an attached general battled an adjacent enemy that was eliminated or retreated",
        ));
    };
    let mut v = vec![Reason::new(
        "BC-GEN-7",
        format!(
            "{} and its general take ground in {}",
            rules.who(unit),
            rules.label(to)
        ),
    )];
    if rules.stops(to) {
        v.push(Reason::new(
            "BC-GEN-7",
            format!(
                "taking ground overrides the stop of {}",
                rules.terrain_name(to)
            ),
        ));
    }
    Ok(v)
}

/// BC-GEN-7: takes ground: the unit and its attached general move into the hex.
pub(crate) fn take_ground(rules: &BattleCry, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    let Some(Pending::TakeGround { unit, to }) = state.pending.take() else {
        return;
    };
    let board = Board::new(rules, state);
    let at = state.pieces[unit.index()].hex.expect("on the map");
    let Some(general) = board.general_at(rules, at) else {
        return;
    };
    super::stamp::place(state, unit, Some(to));
    super::stamp::place(state, general, Some(to));
    ctx.emit_with(|| Event::TookGround { unit, to, general });
}

/// Checks letting a window pass (not ignoring a flag, not taking ground, not fighting
/// back).
pub(crate) fn check_decline(state: &State) -> Result<Vec<Reason>, Refusal> {
    match state.pending {
        Some(Pending::TakeGround { .. }) => {
            Ok(vec![Reason::new("BC-GEN-7", "taking ground is a choice")])
        }
        Some(Pending::FightBack { .. }) => Ok(vec![Reason::new("BC-CARD-8", "no Fight Back")]),
        Some(Pending::Embolden { flags, alone, .. }) => Ok(vec![Reason::new(
            if alone { "BC-GEN-6" } else { "BC-GEN-5" },
            format!("ignoring a flag is a choice: all {flags} flag(s) are taken"),
        )]),
        _ => Err(Refusal::new("BC-TURN-2", "there is nothing to decline now")),
    }
}
