//! Chapter 4, the movement phase: one unit at a time, each once, along the movement
//! table by type and weight; road march, mounted infantry, passing through artillery,
//! officers alone, no zones of control, no stacking, leaving the table, reinforcements.

use super::routes::Limits;
pub use super::routes::Route;
use super::routes::Search;
use super::sequence::{in_phase, NotNow};
use super::{Action, Board, Event, Jomini, Phase, State};
use grognard_engine::scenario::Edge;
use grognard_engine::{Ctx, Reached, Reason, Refusal, UnitId};
use grognard_hex::Hex;

/// JO-MOV-9 to JO-MOV-11, JO-MOV-18, JO-ORD-6: the unit's allowance this turn.
pub(crate) fn limits(rules: &Jomini, state: &State, u: UnitId) -> Limits {
    let piece = rules.piece(u);
    let p = &state.pieces[u.index()];
    let a = piece.allowance;
    if a.never_more {
        // JO-MOV-11: never more than 1 in all circumstances.
        return Limits {
            fight: a.fight,
            max: a.max,
            road: false,
            woods: p.woods,
        };
    }
    let forward = p
        .group
        .and_then(|g| state.groups.get(usize::from(g)))
        .is_some_and(|g| g.forward && !piece.officer);
    let forced = u8::from(p.forced || forward);
    // JO-MOV-18; JO-MOV-19: the road's extra hex comes on top of it.
    let mounted = u8::from(p.mounted && piece.mounts.is_some());
    Limits {
        fight: a.fight + forced,
        max: a.max + forced + mounted,
        road: true,
        woods: p.woods,
    }
}

/// The most hexes `u` could move in its side's next movement phase, under any order:
/// its allowance (JO-MOV-9), a hex more by a forced march (JO-ORD-6), another if it
/// rides its mounts (JO-MOV-18) and the road march's (JO-MOV-16, JO-MOV-19); its
/// allowance alone if it never moves more (JO-MOV-11). Not a rule: the computer's
/// bound on what an enemy unit may reach.
pub(crate) fn most_next_turn(rules: &Jomini, state: &State, u: UnitId) -> u8 {
    let piece = rules.piece(u);
    let a = piece.allowance;
    if a.never_more {
        return a.max;
    }
    let mounted = u8::from(state.pieces[u.index()].mounted && piece.mounts.is_some());
    a.max + 1 + mounted + 1
}

/// Every way `u` may end its move now (it must be free to move).
pub(crate) fn routes(rules: &Jomini, state: &State, board: &Board, u: UnitId) -> Vec<Route> {
    let mut search = Search::new(rules, board);
    search.run(rules, state, u, limits(rules, state, u));
    let p = &state.pieces[u.index()];
    search.routes(rules, rules.piece(u), p.scout)
}

/// Why `u` may not move now, whatever the hex, before any message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NoMove {
    NotNow(NotNow),
    NotYours,
    Gone,
    NotActivated,
    Moved,
}

/// JO-MOV-1, JO-MOV-2: whether `u` may move now; cheap, for the legal list and the
/// checks alike.
pub(crate) fn can_move(rules: &Jomini, state: &State, u: UnitId) -> Result<(), NoMove> {
    in_phase(state, Phase::Movement).map_err(NoMove::NotNow)?;
    if u.index() >= rules.pieces.len() || rules.side_of(u) != state.active {
        return Err(NoMove::NotYours);
    }
    let p = &state.pieces[u.index()];
    if p.strength == 0 || p.exited || (p.hex.is_none() && !p.waiting) {
        return Err(NoMove::Gone);
    }
    if p.group.is_none() {
        return Err(NoMove::NotActivated);
    }
    if p.moved {
        return Err(NoMove::Moved);
    }
    Ok(())
}

impl NoMove {
    /// The refusal, with its message.
    pub(crate) fn refusal(self, rules: &Jomini, u: UnitId) -> Refusal {
        match self {
            NoMove::NotNow(n) => n.refusal("JO-TURN-1", |p| {
                format!("units move in the movement phase, not the {p} phase")
            }),
            NoMove::NotYours => Refusal::new("JO-MOV-1", "not one of your units"),
            NoMove::Gone => Refusal::new(
                "JO-MOV-1",
                format!("{} is no longer on the table", rules.who(u)),
            ),
            NoMove::NotActivated => Refusal::new(
                "JO-MOV-1",
                format!("{} was not activated: only active units move", rules.who(u)),
            ),
            NoMove::Moved => Refusal::new(
                "JO-MOV-2",
                format!("{} has moved this turn: once a turn", rules.who(u)),
            ),
        }
    }
}

/// Why `u` may not move now, whatever the hex.
pub(crate) fn check_mover(rules: &Jomini, state: &State, u: UnitId) -> Result<(), Refusal> {
    can_move(rules, state, u).map_err(|why| why.refusal(rules, u))
}

/// The rules a route follows, for reasons and events: each rule ID given to `add` with
/// the words of its reason, written only when asked for.
fn route_rules_with(
    rules: &Jomini,
    state: &State,
    u: UnitId,
    r: &Route,
    add: &mut dyn FnMut(&'static str, &dyn Fn() -> String),
) {
    let piece = rules.piece(u);
    let p = &state.pieces[u.index()];
    let lim = limits(rules, state, u);
    let a = piece.allowance;
    add("JO-MOV-9", &|| {
        format!(
            "{} moves {} of {} hex(es) ({} {} in the table: {} with combat, {} at most)",
            rules.who(u),
            r.hexes,
            lim.max,
            piece.weight,
            piece.kind,
            a.fight,
            a.max
        )
    });
    if piece.officer {
        add("JO-MOV-14", &|| {
            "an officer moving alone ignores difficult terrain".into()
        });
    }
    if p.waiting {
        add("JO-MOV-27", &|| {
            "it enters from just off the table: the entry hex is the first of its move".into()
        });
    }
    if r.road_march {
        add("JO-MOV-16", &|| {
            "road march: the whole move follows one road, one hex more".into()
        });
        add("JO-MOV-17", &|| {
            "after a road march it may not fight".into()
        });
    }
    if r.through {
        add("JO-MOV-6", &|| {
            "it passes through an artillery unit, friend or foe, to a free hex beyond".into()
        });
    }
    if p.mounted && piece.mounts.is_some() && r.hexes > a.max + u8::from(p.forced) {
        add("JO-MOV-18", &|| {
            "mounted infantry: one hex more, without combat".into()
        });
    }
    if p.forced || lim.fight > a.fight {
        add(if p.forced { "JO-ORD-6" } else { "JO-ORD-11" }, &|| {
            "forced march: one hex more, and it may still fight".into()
        });
    }
    if r.woods > 0 {
        add("JO-ORD-7", &|| {
            format!(
                "woods-runner: {} difficult hex(es) crossed as clear",
                r.woods
            )
        });
    }
    if a.never_more {
        add("JO-MOV-11", &|| {
            "never more than 1 hex in any circumstance".into()
        });
    }
    if !piece.officer && !r.combat && !r.road_march {
        add("JO-MOV-10", &|| {
            if p.scout {
                "a scout does not fight".to_owned()
            } else {
                format!("moving more than {} hex(es): without combat", lim.fight)
            }
        });
    }
    if a.loses_die && r.hexes > 0 {
        add("JO-MOV-12", &|| {
            format!(
                "it will roll {} die/dice fewer for the hexes moved",
                r.hexes
            )
        });
    }
}

/// The rules a route follows, with their reasons.
fn route_rules(rules: &Jomini, state: &State, u: UnitId, r: &Route) -> Vec<Reason> {
    let mut v = Vec::new();
    route_rules_with(rules, state, u, r, &mut |rule, words| {
        v.push(Reason::new(rule, words()));
    });
    v
}

/// Checks a move of `u` to `to`.
pub(crate) fn check_move(
    rules: &Jomini,
    state: &State,
    u: UnitId,
    to: Hex,
) -> Result<Vec<Reason>, Refusal> {
    check_mover(rules, state, u)?;
    let board = Board::new(rules, state);
    let all = routes(rules, state, &board, u);
    if let Some(r) = all.iter().find(|r| r.hex == to) {
        return Ok(route_rules(rules, state, u, r));
    }
    Err(refusal(rules, state, &board, u, to))
}

/// Whether `u` may move to `to` now: [`check_move`]'s verdict without its reasons,
/// the search stopped at the first way into `to` (the one the full search keeps).
pub(crate) fn allows_move(rules: &Jomini, state: &State, u: UnitId, to: Hex) -> bool {
    if can_move(rules, state, u).is_err() {
        return false;
    }
    let board = Board::new(rules, state);
    Search::new(rules, &board)
        .route_to(rules, state, u, limits(rules, state, u), to)
        .is_some()
}

/// Why `to` is out of reach.
fn refusal(rules: &Jomini, state: &State, board: &Board, u: UnitId, to: Hex) -> Refusal {
    let me = rules.piece(u);
    if let Some(x) = board.unit_at(rules, to) {
        let reduced = |v: UnitId| state.pieces[v.index()].strength < rules.piece(v).strength;
        if x != u && rules.side_of(x) == me.side && !me.officer && (reduced(u) || reduced(x)) {
            return Refusal::new(
                "JO-MOV-7",
                format!(
                    "{} holds {}: a reduced unit may not combine with another",
                    rules.who(x),
                    rules.label(to)
                ),
            );
        }
        if x != u {
            return Refusal::new(
                "JO-MOV-5",
                format!(
                    "{} holds {}: two units may not share a hex",
                    rules.who(x),
                    rules.label(to)
                ),
            );
        }
    }
    if me.officer && board.officer_at(rules, to).is_some_and(|o| o != u) {
        return Refusal::new(
            "JO-MOV-5",
            format!("an officer already stands in {}", rules.label(to)),
        );
    }
    if rules.info(to).is_some_and(|i| i.impassable) {
        return Refusal::new(
            "JO-MOV-14",
            format!(
                "{} is {}: impassable, even to an officer alone",
                rules.label(to),
                rules.terrain_name(to)
            ),
        );
    }
    let lim = limits(rules, state, u);
    Refusal::new(
        "JO-MOV-9",
        format!(
            "{} cannot reach {}: {} hex(es) at most ({} with one continuous road), no passing through units but artillery, difficult terrain ends a move",
            rules.who(u),
            rules.label(to),
            lim.max,
            lim.max + u8::from(lim.road)
        ),
    )
}

/// Moves `u` to `to` (JO-MOV-1, JO-MOV-4: the whole move at once).
pub(crate) fn apply_move(
    rules: &Jomini,
    state: &mut State,
    u: UnitId,
    to: Hex,
    ctx: &mut Ctx<'_, Event>,
) {
    let mut board = Board::new(rules, state);
    let lim = limits(rules, state, u);
    let Some(r) = Search::new(rules, &board).route_to(rules, state, u, lim, to) else {
        return;
    };
    let mut ids = Vec::new();
    route_rules_with(rules, state, u, &r, &mut |rule, _| {
        ids.push(rule.to_owned())
    });
    let p = &mut state.pieces[u.index()];
    // A move ends in a hex free for it (JO-MOV-5): the board follows the one piece.
    board.relocate(rules, u, p.hex, to);
    p.hex = Some(to);
    p.waiting = false;
    p.moved = true;
    p.hexes = r.hexes;
    p.no_combat = !r.combat;
    ctx.emit_with(|| Event::Moved {
        unit: u,
        path: r.path,
        rules: ids,
    });
    super::victory::update_objectives(rules, state, &board, Some(ctx));
}

/// JO-MOV-23: the hex is on the edge the side may leave by.
fn on_exit_edge(rules: &Jomini, side: u8, hex: Hex) -> bool {
    rules.exits[usize::from(side)].is_some_and(|edge| {
        grognard_engine::retreat::toward_edge(rules.map.orientation(), edge)
            .iter()
            .any(|&d| !rules.map.contains(hex.neighbor(d)))
    })
}

/// Why `u` may not leave the table now, before any message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoExit {
    Mover(NoMove),
    NoLeave,
    NotOnEdge(Edge),
}

/// JO-MOV-23, JO-MOV-24: whether `u` may leave the table now, and by which edge.
fn can_exit(rules: &Jomini, state: &State, u: UnitId) -> Result<Edge, NoExit> {
    can_move(rules, state, u).map_err(NoExit::Mover)?;
    let side = rules.side_of(u);
    let Some(edge) = rules.exits[usize::from(side)] else {
        return Err(NoExit::NoLeave);
    };
    match state.pieces[u.index()].hex {
        Some(h) if on_exit_edge(rules, side, h) => Ok(edge),
        _ => Err(NoExit::NotOnEdge(edge)),
    }
}

/// JO-MOV-23, JO-MOV-24: checks leaving the table.
pub(crate) fn check_exit(rules: &Jomini, state: &State, u: UnitId) -> Result<Vec<Reason>, Refusal> {
    let edge = can_exit(rules, state, u).map_err(|why| match why {
        NoExit::Mover(m) => m.refusal(rules, u),
        NoExit::NoLeave => Refusal::new(
            "JO-MOV-23",
            "the scenario does not let this side leave the table: units and officers alike",
        ),
        NoExit::NotOnEdge(edge) => Refusal::new(
            "JO-MOV-23",
            format!(
                "{} must stand on the {} edge to leave the table",
                rules.who(u),
                edge.name()
            ),
        ),
    })?;
    Ok(vec![
        Reason::new(
            "JO-MOV-23",
            format!(
                "the scenario lets this side leave by the {} edge",
                edge.name()
            ),
        ),
        Reason::new("JO-MOV-24", "as true of an officer as of a unit"),
    ])
}

/// Takes `u` off the table by the scenario's leave.
pub(crate) fn apply_exit(state: &mut State, u: UnitId, ctx: &mut Ctx<'_, Event>) {
    let p = &mut state.pieces[u.index()];
    p.hex = None;
    p.exited = true;
    p.moved = true;
    ctx.emit_with(|| Event::Exited { unit: u });
}

/// JO-MOV-8: checks ending the movement phase.
pub(crate) fn check_end_movement(state: &State) -> Result<Vec<Reason>, Refusal> {
    if state.pending.is_some() || state.phase != Phase::Movement {
        return Err(Refusal::new(
            "JO-MOV-8",
            format!(
                "this is the {} phase, not the movement phase",
                state.phase.name()
            ),
        ));
    }
    Ok(vec![
        Reason::new("JO-MOV-8", "all moves made: on to combat"),
        Reason::new("JO-MOV-3", "an activated unit need not move"),
    ])
}

/// Ends the movement phase; remembers who stood still (JO-MOV-22).
pub(crate) fn end_movement(rules: &Jomini, state: &mut State) {
    for u in rules.piece_ids() {
        if rules.side_of(u) == state.active {
            let p = &mut state.pieces[u.index()];
            p.still = !p.moved;
        }
    }
    state.phase = Phase::Combat;
}

/// Every move the active side may make now.
pub(crate) fn legal_moves(rules: &Jomini, state: &State, out: &mut Vec<Action>) {
    // Once every activated unit has moved, only the end of the phase is left.
    if !rules.piece_ids().any(|u| can_move(rules, state, u).is_ok()) {
        return;
    }
    let board = Board::new(rules, state);
    let mut search = Search::new(rules, &board);
    for u in rules.piece_ids() {
        if can_move(rules, state, u).is_err() {
            continue;
        }
        search.run(rules, state, u, limits(rules, state, u));
        out.extend(search.ends().map(|to| Action::Move { unit: u, to }));
        if can_exit(rules, state, u).is_ok() {
            out.push(Action::Exit { unit: u });
        }
    }
}

/// The hexes `u` can reach now: cost is hexes moved.
///
/// # Errors
/// When `u` may not move now.
pub fn reachable(rules: &Jomini, state: &State, u: UnitId) -> Result<Vec<Reached>, Refusal> {
    check_mover(rules, state, u)?;
    let board = Board::new(rules, state);
    Ok(routes(rules, state, &board, u)
        .into_iter()
        .map(|r| Reached {
            hex: r.hex,
            cost: u32::from(r.hexes),
            path: r.path,
            stop: false,
        })
        .collect())
}

/// The routes of every piece that may move now, for the view.
pub(crate) fn all_routes(rules: &Jomini, state: &State) -> Vec<(UnitId, Vec<Route>)> {
    let board = Board::new(rules, state);
    rules
        .piece_ids()
        .filter(|&u| can_move(rules, state, u).is_ok())
        .map(|u| (u, routes(rules, state, &board, u)))
        .collect()
}
