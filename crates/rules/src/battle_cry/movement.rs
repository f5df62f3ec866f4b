//! Move (step 3 of the turn): units and generals, attached generals, and terrain. The
//! search of the hexes a piece can reach is in [`super::reach`].

use super::order_sets::ordered_of;
use super::reach::{allowance, carried, end_at, moves_into, reach, reach_to, search_key, Reach};
use super::stamp::place;
use super::units::{Board, Kind};
use super::{cards, orders, Action, BattleCry, Event, Phase, State};
use grognard_engine::{Ctx, Reached, Reason, Refusal, UnitId};
use grognard_hex::Hex;

/// The rule that sets a type's movement.
fn type_rule(kind: Kind) -> &'static str {
    match kind {
        Kind::Infantry => "BC-MOV-3",
        Kind::Cavalry => "BC-MOV-4",
        Kind::Artillery => "BC-MOV-5",
        Kind::General => "BC-MOV-6",
    }
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
    can_move_own(state, u)
}

/// [`can_move`] in the movement step for a piece of the side moving (BC-ORD-1), as the
/// legal list asks it of each of the side's own pieces.
#[inline(always)]
fn can_move_own(state: &State, u: UnitId) -> Result<Hex, NoMove> {
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
    let Some(r) = reach_to(rules, state, &board, u, to) else {
        return Err(refuse_hex(rules, state, &board, u, to));
    };
    Ok(move_reasons(rules, state, &board, u, &r))
}

/// What shaped a move, each one reason for it, in the order they are given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Note {
    /// The type's movement (BC-MOV-3 to BC-MOV-6).
    Type,
    /// The card played adds to it (BC-CARD-2).
    CardBonus,
    /// A general moves through friendly pieces (BC-GEN-1).
    Through,
    /// A general ends on a friendly unit without a general (BC-GEN-2) ...
    JoinsUnit,
    /// ... which it does not order (BC-ATT-4).
    NotOrderedByIt,
    /// A general leaves its unit (BC-ATT-3).
    LeavesUnit,
    /// The unit's attached general moves with it (BC-ATT-2).
    Carries(UnitId),
    /// The unit's general moved to join it this turn and stays (BC-ATT-5).
    LeavesGeneral,
    /// A unit stops on a friendly general alone (BC-MOV-9).
    OnGeneral,
    /// From one section to another (BC-SEC-4).
    Section,
    /// Stopping terrain (BC-TER-1).
    Terrain,
    /// Terrain that forbids battling after entering it (BC-TER-6).
    Wades,
    /// Artillery that moves does not battle (BC-MOV-5).
    Artillery,
}

impl Note {
    /// The rule the reason cites.
    fn rule(self, kind: Kind) -> &'static str {
        match self {
            Note::Type => type_rule(kind),
            Note::CardBonus => "BC-CARD-2",
            Note::Through => "BC-GEN-1",
            Note::JoinsUnit => "BC-GEN-2",
            Note::NotOrderedByIt => "BC-ATT-4",
            Note::LeavesUnit => "BC-ATT-3",
            Note::Carries(_) => "BC-ATT-2",
            Note::LeavesGeneral => "BC-ATT-5",
            Note::OnGeneral => "BC-MOV-9",
            Note::Section => "BC-SEC-4",
            Note::Terrain => "BC-TER-1",
            Note::Wades => "BC-TER-6",
            Note::Artillery => "BC-MOV-5",
        }
    }
}

impl Note {
    /// Every note, in the order they are given (the general [`Note::Carries`] stands
    /// for any).
    const ORDER: [Note; 13] = [
        Note::Type,
        Note::CardBonus,
        Note::Through,
        Note::JoinsUnit,
        Note::NotOrderedByIt,
        Note::LeavesUnit,
        Note::Carries(UnitId(0)),
        Note::LeavesGeneral,
        Note::OnGeneral,
        Note::Section,
        Note::Terrain,
        Note::Wades,
        Note::Artillery,
    ];

    /// The note's bit in [`MoveRules`]: its place in [`Note::ORDER`].
    fn bit(self) -> u16 {
        1 << match self {
            Note::Type => 0,
            Note::CardBonus => 1,
            Note::Through => 2,
            Note::JoinsUnit => 3,
            Note::NotOrderedByIt => 4,
            Note::LeavesUnit => 5,
            Note::Carries(_) => 6,
            Note::LeavesGeneral => 7,
            Note::OnGeneral => 8,
            Note::Section => 9,
            Note::Terrain => 10,
            Note::Wades => 11,
            Note::Artillery => 12,
        }
    }
}

/// The rules that shaped a move, as its event names them: the type's movement rule
/// first (BC-MOV-3 to BC-MOV-6), then each rule that applied, in the order of the
/// reasons of the move's check. Kept as bits, so that a move recorded builds no list;
/// it reads, compares, prints and serializes as the list of its rule IDs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct MoveRules {
    kind: Kind,
    notes: u16,
}

impl MoveRules {
    /// The rule IDs, in order.
    pub fn iter(&self) -> impl Iterator<Item = &'static str> {
        let MoveRules { kind, notes } = *self;
        Note::ORDER
            .into_iter()
            .filter(move |n| notes & n.bit() != 0)
            .map(move |n| n.rule(kind))
    }
}

impl std::fmt::Debug for MoveRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // As the list of the IDs prints.
        f.debug_list().entries(self.iter()).finish()
    }
}

impl serde::Serialize for MoveRules {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> serde::Deserialize<'de> for MoveRules {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<MoveRules, D::Error> {
        use serde::de::Error;
        let ids = Vec::<String>::deserialize(d)?;
        let (first, rest) = ids
            .split_first()
            .ok_or_else(|| D::Error::custom("a move names its type's rule first"))?;
        let kind = Kind::ALL
            .into_iter()
            .find(|&k| type_rule(k) == first)
            .ok_or_else(|| D::Error::custom(format!("`{first}` is no type's movement rule")))?;
        let mut notes = Note::Type.bit();
        for id in rest {
            let n = Note::ORDER[1..]
                .iter()
                .find(|n| n.rule(kind) == id && notes & n.bit() == 0)
                .ok_or_else(|| D::Error::custom(format!("unknown move rule `{id}`")))?;
            notes |= n.bit();
        }
        Ok(MoveRules { kind, notes })
    }
}

/// Where a move starts and ends, and what it found there, as its notes read them: the
/// map indices worked out once.
struct Facts<'a> {
    /// The map indices of the piece's hex and of the end of its move.
    start: usize,
    end: usize,
    /// The hexes entered, the last being the end.
    path: &'a [Hex],
    /// The move must end there (BC-TER-1, BC-MOV-9).
    stop: bool,
    /// The card's extra hexes (`cards::bonus_moves`).
    bonus: u8,
}

impl<'a> Facts<'a> {
    /// The facts of the move `r` of a piece standing in `start`.
    fn of(rules: &BattleCry, state: &State, u: UnitId, start: Hex, r: &'a Reach) -> Facts<'a> {
        Facts {
            start: rules.index(start).expect("on the map"),
            end: rules.index(r.hex).expect("on the map"),
            path: &r.path,
            stop: r.stop,
            bonus: cards::bonus_moves(rules, state, u),
        }
    }
}

/// The notes of a move of piece `u`, in order: the reasons of [`check_move`] and the
/// rules of the move's event.
fn move_notes(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
    f: &Facts<'_>,
    mut note: impl FnMut(Note),
) {
    let kind = rules.kind(u);
    note(Note::Type);
    if f.bonus > 0 {
        note(Note::CardBonus);
    }
    if kind == Kind::General {
        let end = f.path.last();
        if f.path
            .iter()
            .any(|h| Some(h) != end && rules.index(*h).is_some_and(|at| board.occupied_at(at)))
        {
            note(Note::Through);
        }
        if board.unit_at_index(f.end).is_some() {
            note(Note::JoinsUnit);
            note(Note::NotOrderedByIt);
        }
        if board.unit_at_index(f.start).is_some() {
            note(Note::LeavesUnit);
        }
    } else {
        match board.general_at_index(f.start) {
            Some(g) if !state.pieces[g.index()].moved => note(Note::Carries(g)),
            Some(_) => note(Note::LeavesGeneral),
            None => {}
        }
        if board.general_at_index(f.end).is_some() {
            note(Note::OnGeneral);
        }
    }
    // BC-SEC-4: a piece's order comes from where it stood when ordered; its move may
    // take it into another section.
    let sections = &rules.sections[usize::from(rules.side_of(u))];
    if sections[f.start] & sections[f.end] == 0 {
        note(Note::Section);
    }
    if f.stop && rules.hexes[f.end].stop {
        note(Note::Terrain);
    }
    if kind.is_unit() && rules.forbids_battle_at(f.end) {
        note(Note::Wades);
    }
    if kind == Kind::Artillery {
        note(Note::Artillery);
    }
}

fn move_reasons(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
    r: &Reach,
) -> Vec<Reason> {
    let kind = rules.kind(u);
    let mut v = Vec::new();
    let start = state.pieces[u.index()].hex.expect("on the map");
    move_notes(
        rules,
        state,
        board,
        u,
        &Facts::of(rules, state, u, start, r),
        |n| {
            let why = match n {
                Note::Type => format!(
                    "{} moves {} of its {} hexes",
                    rules.who(u),
                    r.path.len(),
                    allowance(rules, state, u)
                ),
                Note::CardBonus => "the card played adds to its move".into(),
                Note::Through => "a general moves through friendly units and generals".into(),
                Note::JoinsUnit => {
                    "it ends on a friendly unit without a general and attaches to it".into()
                }
                Note::NotOrderedByIt => "the unit it joins is not ordered by it".into(),
                Note::LeavesUnit => {
                    "it leaves its unit on its own order; the unit is not ordered by it".into()
                }
                Note::Carries(g) => format!(
                    "its attached general {} moves with it, for the same order",
                    rules.unit_name(g)
                ),
                Note::LeavesGeneral => {
                    "its general moved to join it this turn and stays behind".into()
                }
                Note::OnGeneral => {
                    "it stops on the friendly general alone there, who attaches to it".into()
                }
                Note::Section => "it moves from one section of the battlefield to another".into(),
                Note::Terrain => format!(
                    "{} in {} stops movement",
                    rules.terrain_name(r.hex),
                    rules.label(r.hex)
                ),
                Note::Wades => format!(
                    "a unit that enters {} may not battle this turn",
                    rules.terrain_name(r.hex)
                ),
                Note::Artillery => "artillery that moves may not battle this turn".into(),
            };
            v.push(Reason::new(n.rule(kind), why));
        },
    );
    v
}

/// Every move of every piece that may move: the gate of [`check_move`], [`can_move`],
/// then the same search.
pub(crate) fn legal_moves(rules: &BattleCry, state: &State, out: &mut Vec<Action>) {
    if state.phase != Phase::Movement {
        return;
    }
    // The board is built once a piece may move: after the last move of a turn none
    // does, and the list is the end of the step alone.
    let mut board = None;
    // Only the active side's pieces pass the gate (BC-ORD-1), and most pieces are not
    // ordered: that gate of `can_move` is asked first, of the kept orders.
    for u in ordered_of(rules, state, state.active) {
        if can_move_own(state, u).is_err() {
            continue;
        }
        let board = board.get_or_insert_with(|| Board::new(rules, state));
        moves_into(rules, state, board, u, out);
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
    // One search key, with the general carried, for the check, the path and the move.
    let (key, general) = search_key(rules, state, &board, u);
    let Some(to_at) = rules.index(to) else {
        return;
    };
    // The way there and the rules that shaped the move are for the event alone: not
    // worked out in a quiet context (`Ctx::quiet`), which asks only that the move is one.
    let quiet = ctx.is_quiet();
    let Some((stop, path)) = end_at(rules, &board, u, key, to_at as u32, !quiet) else {
        return;
    };
    let from = state.pieces[u.index()].hex.expect("on the map");
    let kind = rules.kind(u);
    let told = path.map(|path| {
        let f = Facts {
            start: key.start as usize,
            end: to_at,
            path: &path,
            stop,
            bonus: key.budget - rules.row(u).moves,
        };
        debug_assert_eq!(
            f.bonus,
            cards::bonus_moves(rules, state, u),
            "the card's hexes"
        );
        let mut rule_ids = MoveRules { kind, notes: 0 };
        move_notes(rules, state, &board, u, &f, |n| {
            // Given in order, once each: the bits keep the order.
            debug_assert!(rule_ids.notes < n.bit(), "{n:?} given in order");
            rule_ids.notes |= n.bit();
        });
        (path, rule_ids)
    });
    let joins_general = kind
        .is_unit()
        .then(|| board.general_at_index(to_at))
        .flatten();
    let joins_unit = (kind == Kind::General)
        .then(|| board.unit_at_index(to_at))
        .flatten();
    drop(board);
    place(state, u, Some(to));
    let p = &mut state.pieces[u.index()];
    p.moved = true;
    if kind.is_unit() && rules.forbids_battle_at(to_at) {
        p.waded = true;
    }
    if let Some(g) = general {
        place(state, g, Some(to));
        state.pieces[g.index()].moved = true;
    }
    if let Some((path, rule_ids)) = told {
        ctx.emit(Event::Moved {
            unit: u,
            from,
            to,
            path,
            general,
            rules: rule_ids,
        });
    }
    if let Some(g) = joins_general {
        ctx.emit_with(|| Event::Attached {
            general: g,
            unit: u,
            rule: "BC-MOV-9".into(),
        });
    }
    if let Some(unit) = joins_unit {
        ctx.emit_with(|| Event::Attached {
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
            path: r.path.into(),
            stop: r.stop,
        })
        .collect())
}
