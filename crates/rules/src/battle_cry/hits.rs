//! Hits: the symbols that hit a unit, figures removed, the flag bearer last, and a unit or
//! general eliminated, its flag going to the enemy (BC-HIT-1 to BC-HIT-4).

use super::data::Face;
use super::units::Kind;
use super::{BattleCry, Event, State};
use crate::commands_colors::losses;
use grognard_engine::{Ctx, UnitId};

/// BC-HIT-1: the face that hits a unit of this kind (besides sabers); a general alone is
/// hit by sabers only (BC-HIT-4).
pub(crate) fn matching(kind: Kind) -> Face {
    match kind {
        Kind::Infantry => Face::Infantry,
        Kind::Cavalry => Face::Cavalry,
        Kind::Artillery => Face::Artillery,
        Kind::General => Face::Sabers,
    }
}

/// BC-HIT-2, BC-HIT-3: removes up to `n` figures of unit `t`, the flag bearer last; extra
/// hits are wasted. True when the unit is eliminated.
pub(crate) fn remove_figures(
    rules: &BattleCry,
    state: &mut State,
    t: UnitId,
    n: u8,
    rule: &'static str,
    ctx: &mut Ctx<'_, Event>,
) -> bool {
    let Some(loss) = losses::take(&mut state.pieces[t.index()].figures, n) else {
        return false;
    };
    ctx.emit_with(|| Event::Lost {
        unit: t,
        figures: loss.lost,
        left: loss.left,
        rule: rule.into(),
    });
    if loss.eliminated() {
        eliminate(
            rules,
            state,
            t,
            rule,
            "its flag bearer, the last figure, was removed",
            ctx,
        );
    }
    loss.eliminated()
}

/// Removes a unit or general from the battlefield; the enemy collects its flag
/// (BC-HIT-2, BC-HIT-4, BC-VIC-1). Whether the flag wins the game is the sequencer's
/// question, asked once the action is applied (`turn.rs`).
pub(crate) fn eliminate(
    rules: &BattleCry,
    state: &mut State,
    t: UnitId,
    rule: &'static str,
    reason: &'static str,
    ctx: &mut Ctx<'_, Event>,
) {
    super::stamp::place(state, t, None);
    state.pieces[t.index()].figures = 0;
    ctx.emit_with(|| Event::Eliminated {
        unit: t,
        rule: rule.into(),
        reason: reason.into(),
    });
    let side = 1 - rules.side_of(t);
    state.flags[usize::from(side)] += 1;
    ctx.emit_with(|| Event::FlagTaken {
        side: rules.side_text(side),
        flags: state.flags[usize::from(side)],
    });
}
