//! Retreat: one hex toward the side's own edge for each flag, the defending side choosing
//! the hexes.

use super::hits::{eliminate, remove_figures};
use super::units::{Board, Kind};
use super::{generals, victory, Action, BattleCry, Event, Pending, State};
use crate::commands_colors::retreat::{check_choice, toward_home as toward_edge, Words};
use grognard_engine::retreat::{ends as edge_ends, Enter};
use grognard_engine::scenario::Edge;
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::{Direction, Hex};

/// Where a retreat can end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct End {
    pub hex: Hex,
    /// Retreat moves made to get there.
    pub steps: u8,
    /// The unit stopped on a friendly general alone in its hex (BC-RET-5).
    pub on_general: bool,
}

/// BC-RET-1: the two hexes a retreat step may enter: one row nearer the side's own edge,
/// north or south on Battle Cry's pointy-top map.
pub(crate) fn toward_home(rules: &BattleCry, side: u8) -> &'static [Direction] {
    let edge = if rules.north[usize::from(side)] {
        Edge::North
    } else {
        Edge::South
    };
    toward_edge(rules.map.orientation(), edge)
}

/// Every hex a retreat of `hexes` moves by piece `u` can end in.
///
/// A unit may not retreat off the battlefield, into impassable terrain (BC-RET-2), onto
/// or through another unit or an enemy general (BC-RET-4); it may retreat onto a friendly
/// general alone in its hex, and stops there, unless a general retreats with it (BC-RET-5,
/// BC-RET-7). A retreat that can go no further ends where it is, one figure lost for each
/// move not made (BC-RET-9). A general alone retreats through friendly pieces and ends
/// on an empty hex or a friendly unit without a general (BC-RET-6).
pub(crate) fn ends(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
    hexes: u8,
) -> Vec<End> {
    let Some(start) = state.pieces[u.index()].hex else {
        return Vec::new();
    };
    let side = rules.side_of(u);
    let dirs = toward_home(rules, side);
    let enemy = |p: Option<UnitId>| p.is_some_and(|p| rules.side_of(p) != side);
    if rules.kind(u) == Kind::General {
        return edge_ends(start, hexes, dirs, false, |y| {
            // The hex's map index looked up once (off the map: impassable).
            let Some(i) = rules.index(y).filter(|&i| !rules.hexes[i].impassable) else {
                return Enter::Blocked;
            };
            if enemy(board.unit_at_index(i)) || enemy(board.general_at_index(i)) {
                Enter::Blocked
            } else {
                Enter::Through
            }
        })
        .into_iter()
        .filter(|e| board.general_at(rules, e.hex).is_none())
        .map(|e| End {
            hex: e.hex,
            steps: e.steps,
            on_general: false,
        })
        .collect();
    }
    let with_general = board.general_at(rules, start).is_some();
    edge_ends(start, hexes, dirs, true, |y| {
        // The hex's map index looked up once (off the map: impassable).
        let Some(i) = rules.index(y).filter(|&i| !rules.hexes[i].impassable) else {
            return Enter::Blocked;
        };
        if board.unit_at_index(i).is_some() {
            return Enter::Blocked;
        }
        match board.general_at_index(i) {
            Some(g) if rules.side_of(g) != side || with_general => Enter::Blocked,
            Some(_) => Enter::Stop,
            None => Enter::Through,
        }
    })
    .into_iter()
    .map(|e| End {
        hex: e.hex,
        steps: e.steps,
        on_general: e.stopped,
    })
    .collect()
}

/// Starts the retreat of piece `u` by `hexes` moves after a battle: the side of `u`
/// chooses where (BC-RET-3) unless it cannot retreat at all, when the loss is taken at
/// once (BC-RET-9, BC-RET-10).
pub(crate) fn begin(
    rules: &BattleCry,
    state: &mut State,
    u: UnitId,
    hexes: u8,
    attacker: Option<UnitId>,
    from: Hex,
    ctx: &mut Ctx<'_, Event>,
) {
    let board = Board::new(rules, state);
    if !ends(rules, state, &board, u, hexes).is_empty() {
        state.pending = Some(Pending::Retreat {
            unit: u,
            hexes,
            attacker,
            from,
        });
        return;
    }
    if rules.kind(u) == Kind::General {
        eliminate(
            rules,
            state,
            u,
            "BC-RET-10",
            "a general that cannot retreat is eliminated",
            ctx,
        );
    } else {
        blocked(rules, state, &board, u, hexes, ctx);
    }
    if !victory::decided(rules, state) {
        generals::after_vacated(rules, state, attacker, from);
    }
}

/// BC-RET-9: a unit loses one figure for each retreat move it cannot make; when it has no
/// figure left, its attached general is the next casualty.
fn blocked(
    rules: &BattleCry,
    state: &mut State,
    board: &Board,
    u: UnitId,
    missing: u8,
    ctx: &mut Ctx<'_, Event>,
) {
    let hex = state.pieces[u.index()].hex.expect("on the map");
    let general = board.general_at(rules, hex);
    let figures = state.pieces[u.index()].figures;
    if remove_figures(rules, state, u, missing, "BC-RET-9", ctx)
        && !victory::decided(rules, state)
        && missing > figures
    {
        if let Some(g) = general {
            eliminate(
                rules,
                state,
                g,
                "BC-RET-9",
                "its unit could not retreat and had no other figure to lose",
                ctx,
            );
        }
    }
}

/// BC-RET-3: checks a retreat choice.
pub(crate) fn check_retreat(
    rules: &BattleCry,
    state: &State,
    u: UnitId,
    to: Hex,
) -> Result<Vec<Reason>, Refusal> {
    let owed = match state.pending {
        Some(Pending::Retreat { unit, hexes, .. }) => Some((unit, hexes)),
        _ => None,
    };
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
        "BC-RET-1",
        format!(
            "{} retreats toward its own edge, {} of {hexes} hexes",
            rules.who(u),
            end.steps
        ),
    )];
    v.push(Reason::new("BC-RET-2", "terrain does not stop a retreat"));
    if end.on_general {
        v.push(Reason::new(
            "BC-RET-5",
            "it stops on a friendly general alone, who attaches; it ignores the other flags",
        ));
    } else if end.steps < hexes {
        v.push(Reason::new(
            "BC-RET-9",
            format!(
                "it cannot retreat further: {} figure(s) lost",
                hexes - end.steps
            ),
        ));
    }
    if rules.kind(u) == Kind::General {
        v.push(Reason::new(
            "BC-RET-6",
            "a general retreats through friendly pieces",
        ));
    }
    Ok(v)
}

/// The retreat choices owed now.
pub(crate) fn legal_retreats(rules: &BattleCry, state: &State, out: &mut Vec<Action>) {
    let Some(Pending::Retreat { unit, hexes, .. }) = state.pending else {
        return;
    };
    let board = Board::new(rules, state);
    for e in ends(rules, state, &board, unit, hexes) {
        out.push(Action::Retreat { unit, to: e.hex });
    }
}

/// Retreats the piece owing a retreat to `to`, with its attached general (BC-RET-8).
pub(crate) fn apply_retreat(
    rules: &BattleCry,
    state: &mut State,
    to: Hex,
    ctx: &mut Ctx<'_, Event>,
) {
    let Some(Pending::Retreat {
        unit,
        hexes,
        attacker,
        from,
    }) = state.pending.take()
    else {
        return;
    };
    let board = Board::new(rules, state);
    let Some(end) = ends(rules, state, &board, unit, hexes)
        .into_iter()
        .find(|e| e.hex == to)
    else {
        return;
    };
    let general = rules
        .kind(unit)
        .is_unit()
        .then(|| board.general_at(rules, from))
        .flatten();
    super::stamp::place(state, unit, Some(to));
    if let Some(g) = general {
        super::stamp::place(state, g, Some(to));
    }
    let rule = if rules.kind(unit) == Kind::General {
        "BC-RET-6"
    } else {
        "BC-RET-1"
    };
    ctx.emit_with(|| Event::Retreated {
        unit,
        from,
        to,
        hexes: end.steps,
        general,
        rule: rule.into(),
    });
    if end.on_general {
        if let Some(g) = board.general_at(rules, to) {
            ctx.emit_with(|| Event::Attached {
                general: g,
                unit,
                rule: "BC-RET-5".into(),
            });
        }
    } else if rules.kind(unit) == Kind::General {
        if let Some(u) = board.unit_at(rules, to) {
            ctx.emit_with(|| Event::Attached {
                general: unit,
                unit: u,
                rule: "BC-RET-6".into(),
            });
        }
    } else if end.steps < hexes {
        let board = Board::new(rules, state);
        blocked(rules, state, &board, unit, hexes - end.steps, ctx);
    }
    if !victory::decided(rules, state) {
        generals::after_vacated(rules, state, attacker, from);
    }
}

/// How a refused retreat choice is worded (BC-RET-3, BC-RET-1).
impl Words for BattleCry {
    const OWED: &'static str = "BC-RET-3";
    const TOWARD: &'static str = "BC-RET-1";

    fn piece(&self, u: UnitId) -> String {
        self.who(u)
    }

    fn hex(&self, h: Hex) -> String {
        self.label(h)
    }

    fn hexes(n: u8) -> String {
        format!("{n} hex{}", if n == 1 { "" } else { "es" })
    }
}
