//! Retreats: hexes per flag by troop type, toward the side's own edge, the owner choosing
//! the path; a retreat hex that cannot be made is a loss (JO-RET-1, JO-RET-2, JO-MOV-25).

use super::combat::lose;
use super::{Action, Board, Event, Jomini, Pending, State};
use crate::commands_colors::retreat::{check_choice, toward_home, Words};
use grognard_engine::retreat::{ends as edge_ends, End, Enter};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::Hex;

/// JO-RET-1: retreat hexes per flag: 1 for foot troops and foot artillery, 2 for mounted
/// troops and horse artillery.
#[must_use]
pub fn per_flag(rules: &Jomini, u: UnitId) -> u8 {
    if rules.piece(u).mounted() {
        rules.data.retreat.mounted
    } else {
        rules.data.retreat.foot
    }
}

/// JO-RET-2, JO-MOV-25: where a retreat of `hexes` by `u` can end: toward its own edge,
/// never off the table, into impassable terrain or through another piece.
pub(crate) fn ends(rules: &Jomini, state: &State, board: &Board, u: UnitId, hexes: u8) -> Vec<End> {
    let Some(start) = state.pieces[u.index()].hex else {
        return Vec::new();
    };
    let dirs = toward_home(
        rules.map.orientation(),
        rules.edges[usize::from(rules.side_of(u))],
    );
    edge_ends(start, hexes, dirs, true, |h| {
        if rules.info(h).is_none_or(|i| i.impassable) || board.occupied(rules, h) {
            Enter::Blocked
        } else {
            Enter::Through
        }
    })
}

/// The most hexes of a retreat of `hexes` that `u` can make.
pub(crate) fn most(rules: &Jomini, state: &State, board: &Board, u: UnitId, hexes: u8) -> u8 {
    if hexes == 0 {
        return 0;
    }
    ends(rules, state, board, u, hexes)
        .iter()
        .map(|e| e.steps)
        .max()
        .unwrap_or(0)
}

/// Starts a retreat: its side chooses where, unless it cannot move at all, when every
/// hex owed is a loss at once (JO-MOV-25).
pub(crate) fn begin(
    rules: &Jomini,
    state: &mut State,
    u: UnitId,
    hexes: u8,
    ctx: &mut Ctx<'_, Event>,
) {
    let board = Board::new(rules, state);
    if ends(rules, state, &board, u, hexes).is_empty() {
        lose(rules, state, u, hexes, "JO-MOV-25", ctx);
    } else {
        state.pending = Some(Pending::Retreat { unit: u, hexes });
    }
}

/// Checks a retreat choice.
pub(crate) fn check_retreat(
    rules: &Jomini,
    state: &State,
    u: UnitId,
    to: Hex,
) -> Result<Vec<Reason>, Refusal> {
    let owed = state
        .pending
        .as_ref()
        .map(|Pending::Retreat { unit, hexes }| (*unit, *hexes));
    let board = Board::new(rules, state);
    let (end, hexes) = check_choice(
        rules,
        owed,
        u,
        to,
        |unit, hexes| ends(rules, state, &board, unit, hexes),
        |e| e.hex,
    )?;
    let mut v = vec![Reason::new(
        "JO-RET-1",
        format!("{} of {hexes} hex(es) toward its own edge", end.steps),
    )];
    if end.steps < hexes {
        v.push(Reason::new(
            "JO-MOV-25",
            format!(
                "the table's edge or other pieces stop it: {} stand(s) lost",
                hexes - end.steps
            ),
        ));
    }
    Ok(v)
}

/// The retreat choices owed now.
pub(crate) fn legal_retreats(rules: &Jomini, state: &State, out: &mut Vec<Action>) {
    let Some(Pending::Retreat { unit, hexes }) = state.pending else {
        return;
    };
    let board = Board::new(rules, state);
    for e in ends(rules, state, &board, unit, hexes) {
        out.push(Action::Retreat { unit, to: e.hex });
    }
}

/// Makes the retreat owed, the unit's officer going with it.
pub(crate) fn apply_retreat(rules: &Jomini, state: &mut State, to: Hex, ctx: &mut Ctx<'_, Event>) {
    let Some(Pending::Retreat { unit, hexes }) = state.pending.take() else {
        return;
    };
    let board = Board::new(rules, state);
    let Some(end) = ends(rules, state, &board, unit, hexes)
        .into_iter()
        .find(|e| e.hex == to)
    else {
        return;
    };
    let from = state.pieces[unit.index()].hex;
    let officer = from
        .filter(|_| !rules.piece(unit).officer)
        .and_then(|h| board.officer_at(rules, h));
    state.pieces[unit.index()].hex = Some(to);
    if let Some(o) = officer {
        state.pieces[o.index()].hex = Some(to);
    }
    ctx.emit_with(|| Event::Retreated {
        unit,
        to,
        hexes: end.steps,
        rule: "JO-RET-1".into(),
    });
    if end.steps < hexes {
        lose(rules, state, unit, hexes - end.steps, "JO-MOV-25", ctx);
    }
    let board = Board::new(rules, state);
    super::victory::update_objectives(rules, state, &board, Some(ctx));
    super::victory::check(rules, state, ctx);
}

/// How a refused retreat choice is worded (JO-RET-2, JO-RET-2).
impl Words for Jomini {
    const OWED: &'static str = "JO-RET-2";
    const TOWARD: &'static str = "JO-RET-2";

    fn piece(&self, u: UnitId) -> String {
        self.who(u)
    }

    fn hex(&self, h: Hex) -> String {
        self.label(h)
    }

    fn hexes(n: u8) -> String {
        format!("{n} hex(es)")
    }
}
