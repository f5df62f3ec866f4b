//! Move (step 3 of the turn): units and generals, attached generals, and terrain.

use super::units::{Board, Kind};
use super::{cards, orders, Action, BattleCry, Event, Phase, State};
use grognard_engine::{Ctx, Reached, Reason, Refusal, UnitId};
use grognard_hex::{Direction, Hex};

/// A hex a piece can end its move in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Reach {
    pub hex: Hex,
    /// The hexes entered, the last being `hex`.
    pub path: Vec<Hex>,
    /// The move must end there (BC-TER-1, BC-MOV-9).
    pub stop: bool,
}

/// The general that moves with unit `u` if it moves now: its attached general, unless
/// that general has moved already this turn (BC-ATT-2, BC-ATT-5).
pub(crate) fn carried(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
) -> Option<UnitId> {
    if !rules.kind(u).is_unit() {
        return None;
    }
    let hex = state.pieces[u.index()].hex?;
    board
        .general_at(rules, hex)
        .filter(|g| !state.pieces[g.index()].moved)
}

/// Hexes an ordered piece may move: its type's (BC-MOV-3 to BC-MOV-6), plus the card's.
pub(crate) fn allowance(rules: &BattleCry, state: &State, u: UnitId) -> u8 {
    rules.row(u).moves + cards::bonus_moves(rules, state, u)
}

/// The rule that sets a type's movement.
fn type_rule(kind: Kind) -> &'static str {
    match kind {
        Kind::Infantry => "BC-MOV-3",
        Kind::Cavalry => "BC-MOV-4",
        Kind::Artillery => "BC-MOV-5",
        Kind::General => "BC-MOV-6",
    }
}

const UNSEEN: u16 = u16::MAX;

/// Every hex piece `u` may end a move in, by the fewest hexes, with a path there.
///
/// A unit may not enter or pass through a unit or an enemy general (BC-MOV-8); it may end
/// on a friendly general alone in its hex, and stops there, unless a general moves with
/// it (BC-MOV-9, BC-ATT-1). A general passes through friendly pieces (BC-GEN-1), ends on
/// an empty hex or a friendly unit without a general (BC-GEN-2), and never enters an enemy
/// (BC-GEN-3). Neither leaves the map (BC-MOV-10) nor enters impassable terrain
/// (BC-TER-2), and both stop on entering stopping terrain (BC-TER-1).
pub(crate) fn reach(rules: &BattleCry, state: &State, board: &Board, u: UnitId) -> Vec<Reach> {
    search(rules, state, board, u, true)
}

/// [`reach`], with the paths only when `paths` (listing legal moves needs none).
fn search(rules: &BattleCry, state: &State, board: &Board, u: UnitId, paths: bool) -> Vec<Reach> {
    let Some(start) = state.pieces[u.index()].hex else {
        return Vec::new();
    };
    let side = rules.side_of(u);
    let general = rules.kind(u) == Kind::General;
    let with_general = carried(rules, state, board, u).is_some();
    let budget = allowance(rules, state, u);
    let n = rules.map.len();
    let mut parent = vec![UNSEEN; n];
    let start_at = rules.map.index(start).expect("on the map");
    parent[start_at] = u16::try_from(start_at).expect("maps fit u16");
    let mut layer = vec![start];
    let mut found: Vec<(Hex, bool)> = Vec::new();
    for _ in 0..budget {
        let mut next = Vec::new();
        for &h in &layer {
            let h_at = rules.map.index(h).expect("on the map");
            for d in Direction::ALL {
                let y = h.neighbor(d);
                let Some(at) = rules.map.index(y) else {
                    continue;
                };
                if parent[at] != UNSEEN || rules.impassable(y) {
                    continue;
                }
                let unit = board.unit_at(rules, y);
                let gen = board.general_at(rules, y);
                let enemy = |p: Option<UnitId>| p.is_some_and(|p| rules.side_of(p) != side);
                let (can_end, stop) = if general {
                    if enemy(unit) || enemy(gen) {
                        continue;
                    }
                    let can_end = gen.is_none();
                    let stop = rules.stops(y);
                    if stop && !can_end {
                        continue;
                    }
                    (can_end, stop)
                } else {
                    if unit.is_some() || enemy(gen) {
                        continue;
                    }
                    if gen.is_some() {
                        if with_general {
                            continue;
                        }
                        (true, true)
                    } else {
                        (true, rules.stops(y))
                    }
                };
                parent[at] = u16::try_from(h_at).expect("maps fit u16");
                if can_end {
                    found.push((y, stop));
                }
                if !stop {
                    next.push(y);
                }
            }
        }
        layer = next;
    }
    found
        .into_iter()
        .map(|(hex, stop)| {
            if !paths {
                return Reach {
                    hex,
                    path: Vec::new(),
                    stop,
                };
            }
            let mut path = vec![hex];
            let mut at = rules.map.index(hex).expect("on the map");
            while usize::from(parent[at]) != start_at {
                at = usize::from(parent[at]);
                path.push(rules.map.hex_at(at));
            }
            path.reverse();
            Reach { hex, path, stop }
        })
        .collect()
}

/// Why piece `u` may not move now, whatever the hex, before any message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoMove {
    /// Not the movement step (BC-MOV-2, BC-TURN-2).
    Phase(Phase),
    /// Not the active side's (BC-ORD-1).
    NotYours,
    /// Off the battlefield (BC-ORD-1).
    Eliminated,
    /// Not ordered; `through_general` when its Leadership order went with a general that
    /// has left it (BC-ORD-1, BC-CARD-7).
    NotOrdered { through_general: bool },
    /// Moved already this turn (BC-MOV-7).
    Moved,
}

/// BC-ORD-1, BC-MOV-7: whether piece `u` may move now, and from where; cheap, for the
/// legal list and the check alike.
#[inline(always)]
pub(crate) fn can_move(rules: &BattleCry, state: &State, u: UnitId) -> Result<Hex, NoMove> {
    if state.phase != Phase::Movement {
        return Err(NoMove::Phase(state.phase));
    }
    if rules.side_of(u) != state.active {
        return Err(NoMove::NotYours);
    }
    let p = &state.pieces[u.index()];
    let Some(hex) = p.hex else {
        return Err(NoMove::Eliminated);
    };
    if !orders::is_ordered(state, u) {
        return Err(NoMove::NotOrdered {
            through_general: matches!(p.order, super::Order::General(_)),
        });
    }
    if p.moved {
        return Err(NoMove::Moved);
    }
    Ok(hex)
}

impl NoMove {
    /// The refusal, with its message.
    pub(crate) fn refusal(self, rules: &BattleCry, u: UnitId) -> Refusal {
        let who = rules.who(u);
        match self {
            NoMove::Phase(Phase::Battle) => {
                Refusal::new("BC-MOV-2", "all moves are completed before battles begin")
            }
            NoMove::Phase(p) => Refusal::new(
                "BC-TURN-2",
                format!(
                    "pieces move after the orders are announced, not in the {} step",
                    p.name()
                ),
            ),
            NoMove::NotYours => Refusal::new("BC-ORD-1", format!("{who} is not yours to move")),
            NoMove::Eliminated => Refusal::new("BC-ORD-1", format!("{who} has been eliminated")),
            NoMove::NotOrdered { through_general } => Refusal::new(
                "BC-ORD-1",
                if through_general {
                    format!("{who} was ordered through its general, who has left it")
                } else {
                    format!("{who} is not ordered: only ordered generals and units move")
                },
            ),
            NoMove::Moved => Refusal::new(
                "BC-MOV-7",
                if rules.kind(u) == Kind::General {
                    format!("{who} has moved this turn (alone or with its unit): a general moves only once a turn")
                } else {
                    format!("{who} has moved this turn: a unit moves only once a turn")
                },
            ),
        }
    }
}

/// BC-ORD-1, BC-MOV-7: checks that piece `u` may move now.
pub(crate) fn check_mover(rules: &BattleCry, state: &State, u: UnitId) -> Result<Hex, Refusal> {
    can_move(rules, state, u).map_err(|why| why.refusal(rules, u))
}

/// Why piece `u` cannot end its move in `to`.
fn refuse_hex(rules: &BattleCry, state: &State, board: &Board, u: UnitId, to: Hex) -> Refusal {
    let l = rules.label(to);
    let side = rules.side_of(u);
    let start = state.pieces[u.index()].hex.expect("on the map");
    if !rules.map.contains(to) {
        return Refusal::new("BC-MOV-10", format!("{l} is off the battlefield"));
    }
    if to == start {
        return Refusal::new(
            "BC-ORD-3",
            "a move ends in another hex; an ordered piece need not move at all",
        );
    }
    if rules.impassable(to) {
        return Refusal::new(
            "BC-TER-2",
            format!("{} in {l} cannot be entered", rules.terrain_name(to)),
        );
    }
    let unit = board.unit_at(rules, to);
    let gen = board.general_at(rules, to);
    let kind = rules.kind(u);
    if kind == Kind::General {
        if unit.is_some_and(|p| rules.side_of(p) != side)
            || gen.is_some_and(|p| rules.side_of(p) != side)
        {
            return Refusal::new(
                "BC-GEN-3",
                format!("a general may not move onto or through an enemy, in {l}"),
            );
        }
        if gen.is_some() {
            return Refusal {
                reasons: vec![
                    Reason::new(
                        "BC-GEN-2",
                        format!("another general is in {l}: a general ends its move only where no other general is"),
                    ),
                    Reason::new("BC-ATT-1", "only one general may be attached to a unit"),
                ],
            };
        }
    } else {
        if let Some(other) = unit {
            if rules.side_of(other) == side {
                return Refusal {
                    reasons: vec![
                        Reason::new(
                            "BC-MOV-8",
                            format!(
                                "{} is in {l}: a unit may not move onto a friendly unit",
                                rules.who(other)
                            ),
                        ),
                        Reason::new("BC-MOV-11", "units never combine, reduced or not"),
                    ],
                };
            }
            return Refusal::new("BC-MOV-8", format!("an enemy unit is in {l}"));
        }
        if let Some(g) = gen {
            if rules.side_of(g) != side {
                return Refusal::new("BC-MOV-8", format!("an enemy general is in {l}"));
            }
            if carried(rules, state, board, u).is_some() {
                return Refusal {
                    reasons: vec![
                        Reason::new(
                            "BC-MOV-9",
                            format!("a general is in {l} and one moves with this unit"),
                        ),
                        Reason::new("BC-ATT-1", "only one general may be attached to a unit"),
                    ],
                };
            }
        }
    }
    let budget = allowance(rules, state, u);
    if start.distance(to) > u32::from(budget) {
        return Refusal::new(
            type_rule(kind),
            format!(
                "{l} is {} hexes away; {} moves up to {budget}",
                start.distance(to),
                rules.who(u)
            ),
        );
    }
    Refusal {
        reasons: vec![
            Reason::new(
                if kind == Kind::General { "BC-GEN-3" } else { "BC-MOV-8" },
                format!("every way to {l} within {budget} hexes passes through a hex the piece may not cross"),
            ),
            Reason::new("BC-TER-1", "terrain that stops movement ends a move where it is entered"),
        ],
    }
}

/// BC-MOV-1: checks a whole move of piece `u` to `to`.
pub(crate) fn check_move(
    rules: &BattleCry,
    state: &State,
    u: UnitId,
    to: Hex,
) -> Result<Vec<Reason>, Refusal> {
    check_mover(rules, state, u)?;
    let board = Board::new(rules, state);
    let Some(r) = reach(rules, state, &board, u)
        .into_iter()
        .find(|r| r.hex == to)
    else {
        return Err(refuse_hex(rules, state, &board, u, to));
    };
    Ok(move_reasons(rules, state, &board, u, &r))
}

fn move_reasons(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
    r: &Reach,
) -> Vec<Reason> {
    let kind = rules.kind(u);
    let mut v = vec![Reason::new(
        type_rule(kind),
        format!(
            "{} moves {} of its {} hexes",
            rules.who(u),
            r.path.len(),
            allowance(rules, state, u)
        ),
    )];
    if cards::bonus_moves(rules, state, u) > 0 {
        v.push(Reason::new("BC-CARD-2", "the card played adds to its move"));
    }
    let start = state.pieces[u.index()].hex.expect("on the map");
    if kind == Kind::General {
        if r.path
            .iter()
            .any(|&h| h != r.hex && board.occupied(rules, h))
        {
            v.push(Reason::new(
                "BC-GEN-1",
                "a general moves through friendly units and generals",
            ));
        }
        if board.unit_at(rules, r.hex).is_some() {
            v.push(Reason::new(
                "BC-GEN-2",
                "it ends on a friendly unit without a general and attaches to it",
            ));
            v.push(Reason::new(
                "BC-ATT-4",
                "the unit it joins is not ordered by it",
            ));
        }
        if board.unit_at(rules, start).is_some() {
            v.push(Reason::new(
                "BC-ATT-3",
                "it leaves its unit on its own order; the unit is not ordered by it",
            ));
        }
    } else {
        match board.general_at(rules, start) {
            Some(g) if !state.pieces[g.index()].moved => v.push(Reason::new(
                "BC-ATT-2",
                format!(
                    "its attached general {} moves with it, for the same order",
                    rules.unit_name(g)
                ),
            )),
            Some(_) => v.push(Reason::new(
                "BC-ATT-5",
                "its general moved to join it this turn and stays behind",
            )),
            None => {}
        }
        if board.general_at(rules, r.hex).is_some() {
            v.push(Reason::new(
                "BC-MOV-9",
                "it stops on the friendly general alone there, who attaches to it",
            ));
        }
    }
    // BC-SEC-4: a piece's order comes from where it stood when ordered; its move may
    // take it into another section.
    if rules.sections_of(rules.side_of(u), start) & rules.sections_of(rules.side_of(u), r.hex) == 0
    {
        v.push(Reason::new(
            "BC-SEC-4",
            "it moves from one section of the battlefield to another",
        ));
    }
    if r.stop && rules.stops(r.hex) {
        v.push(Reason::new(
            "BC-TER-1",
            format!(
                "{} in {} stops movement",
                rules.terrain_name(r.hex),
                rules.label(r.hex)
            ),
        ));
    }
    if kind.is_unit() && rules.forbids_battle(r.hex) {
        v.push(Reason::new(
            "BC-TER-6",
            format!(
                "a unit that enters {} may not battle this turn",
                rules.terrain_name(r.hex)
            ),
        ));
    }
    if rules.kind(u) == Kind::Artillery {
        v.push(Reason::new(
            "BC-MOV-5",
            "artillery that moves may not battle this turn",
        ));
    }
    v
}

/// Every move of every piece that may move: the gate of [`check_move`], [`can_move`],
/// then the same search.
pub(crate) fn legal_moves(rules: &BattleCry, state: &State, out: &mut Vec<Action>) {
    let board = Board::new(rules, state);
    for u in rules.piece_ids() {
        if can_move(rules, state, u).is_err() {
            continue;
        }
        for r in search(rules, state, &board, u, false) {
            out.push(Action::Move { unit: u, to: r.hex });
        }
    }
}

/// Moves piece `u` to `to`, with the general it carries (BC-ATT-2).
pub(crate) fn apply_move(
    rules: &BattleCry,
    state: &mut State,
    u: UnitId,
    to: Hex,
    ctx: &mut Ctx<'_, Event>,
) {
    let board = Board::new(rules, state);
    let Some(r) = reach(rules, state, &board, u)
        .into_iter()
        .find(|r| r.hex == to)
    else {
        return;
    };
    let reasons = move_reasons(rules, state, &board, u, &r);
    let from = state.pieces[u.index()].hex.expect("on the map");
    let general = carried(rules, state, &board, u);
    let joins_general = rules
        .kind(u)
        .is_unit()
        .then(|| board.general_at(rules, to))
        .flatten();
    let joins_unit = (rules.kind(u) == Kind::General)
        .then(|| board.unit_at(rules, to))
        .flatten();
    let p = &mut state.pieces[u.index()];
    p.hex = Some(to);
    p.moved = true;
    if rules.kind(u).is_unit() && rules.forbids_battle(to) {
        p.waded = true;
    }
    if let Some(g) = general {
        let gp = &mut state.pieces[g.index()];
        gp.hex = Some(to);
        gp.moved = true;
    }
    ctx.emit(Event::Moved {
        unit: u,
        from,
        to,
        path: r.path,
        general,
        rules: reasons.into_iter().map(|r| r.rule).collect(),
    });
    if let Some(g) = joins_general {
        ctx.emit(Event::Attached {
            general: g,
            unit: u,
            rule: "BC-MOV-9".into(),
        });
    }
    if let Some(unit) = joins_unit {
        ctx.emit(Event::Attached {
            general: u,
            unit,
            rule: "BC-GEN-2".into(),
        });
    }
}

/// Checks ending the movement step.
pub(crate) fn check_done(state: &State) -> Result<Vec<Reason>, Refusal> {
    if state.phase != Phase::Movement {
        return Err(Refusal::new(
            "BC-TURN-2",
            format!(
                "there are no moves to finish in the {} step",
                state.phase.name()
            ),
        ));
    }
    Ok(vec![Reason::new(
        "BC-MOV-2",
        "all moves are complete: battle",
    )])
}

/// BC-MOV-2: ends the movement step.
pub(crate) fn done(state: &mut State) {
    state.phase = Phase::Battle;
}

/// The hexes a piece may move to now, with the hexes it moves and the path.
pub(crate) fn reachable(
    rules: &BattleCry,
    state: &State,
    u: UnitId,
) -> Result<Vec<Reached>, Refusal> {
    if u.index() >= rules.pieces.len() {
        return Err(Refusal::new("BC-ORD-1", "no such unit"));
    }
    if state.outcome.is_some() {
        return Err(Refusal::new("BC-VIC-1", "the game is over"));
    }
    if state.pending.is_some() {
        return Err(Refusal::new("BC-TURN-2", "a battle's decision is pending"));
    }
    check_mover(rules, state, u)?;
    let board = Board::new(rules, state);
    Ok(reach(rules, state, &board, u)
        .into_iter()
        .map(|r| Reached {
            hex: r.hex,
            cost: u32::try_from(r.path.len()).expect("short paths"),
            path: r.path,
            stop: r.stop,
        })
        .collect())
}
