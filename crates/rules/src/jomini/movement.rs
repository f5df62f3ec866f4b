//! Chapter 4, the movement phase: one unit at a time, each once, along the movement
//! table by type and weight; road march, mounted infantry, passing through artillery,
//! officers alone, no zones of control, no stacking, leaving the table, reinforcements.

use super::sequence::{in_phase, NotNow};
use super::{Action, Board, Event, Jomini, Phase, State};
use grognard_engine::scenario::Edge;
use grognard_engine::{Ctx, Reached, Reason, Refusal, UnitId};
use grognard_hex::{Direction, Hex};
use std::collections::HashSet;

/// One way a unit may end its move, as the rules read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// Where it ends.
    pub hex: Hex,
    /// The hexes entered, the last being `hex`.
    pub path: Vec<Hex>,
    /// Hexes moved.
    pub hexes: u8,
    /// It uses the road march's extra hex (JO-MOV-16), and may not fight (JO-MOV-17).
    pub road_march: bool,
    /// It passes through an artillery unit (JO-MOV-6).
    pub through: bool,
    /// It may still fight after this move (JO-MOV-10).
    pub combat: bool,
    /// Difficult hexes crossed as clear by woods-runner (JO-ORD-7).
    pub woods: u8,
}

/// How far a unit may go this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Hexes it may move and still fight.
    pub fight: u8,
    /// Hexes it may move without the road.
    pub max: u8,
    /// Whether the road march's extra hex is open to it.
    pub road: bool,
    /// Difficult hexes it crosses as clear.
    pub woods: u8,
}

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

/// JO-MOV-14: an officer moving alone ignores difficult terrain.
fn difficult(rules: &Jomini, from: Option<Hex>, to: Hex, dir: Direction) -> bool {
    rules.info(to).is_some_and(|i| i.difficult)
        || from.is_some_and(|f| rules.difficult_side(f, dir))
}

fn road_links(rules: &Jomini, from: Hex, dir: Direction) -> u16 {
    rules
        .map
        .index(from)
        .map_or(0, |i| rules.road_links[i * 6 + dir.index()])
}

fn road_hexes(rules: &Jomini, hex: Hex) -> u16 {
    rules.map.index(hex).map_or(0, |i| rules.road_hexes[i])
}

#[derive(Clone, Copy)]
struct Node {
    hex: Hex,
    /// Roads the whole move has followed so far (JO-MOV-16).
    roads: u16,
    woods: u8,
    steps: u8,
    parent: usize,
    stopped: bool,
    end: bool,
}

/// What entering `to` means for the mover: `None` when it may not.
struct Entry {
    end: bool,
    go_on: bool,
}

/// JO-MOV-5, JO-MOV-6, JO-MOV-14, JO-MOV-15: whether `u` may enter `to`, and end there or
/// go on. Enemies only block their own hexes: there are no zones of control.
///
/// JO-MOV-6, reading: the text forbids passing through "une case qui est occupée par une
/// unité amie ou ennemie", then excepts infantry, cavalry and camels "qui peuvent traverser
/// une unité d'artillerie" with no friend-or-foe limit; the exception follows the rule it
/// excepts, so artillery of either side may be passed through (an officer standing with
/// the guns goes with their hex).
fn entry(rules: &Jomini, board: &Board, u: UnitId, to: Hex) -> Option<Entry> {
    let info = rules.info(to)?;
    if info.impassable {
        return None;
    }
    let me = rules.piece(u);
    let unit = board.unit_at(rules, to);
    let officer = board.officer_at(rules, to);
    let enemy = |x: Option<UnitId>| x.is_some_and(|x| rules.side_of(x) != me.side);
    if me.officer {
        if enemy(unit) || enemy(officer) {
            return None;
        }
        // An officer may join a friendly unit, and stops there; officers do not stack.
        return Some(Entry {
            end: officer.is_none(),
            go_on: unit.is_none(),
        });
    }
    match unit {
        Some(x) if rules.piece(x).artillery() && me.row.passes_artillery => Some(Entry {
            end: false,
            go_on: true,
        }),
        Some(_) => None,
        // An enemy officer alone holds its hex like a unit.
        None if enemy(officer) => None,
        None => Some(Entry {
            end: true,
            go_on: true,
        }),
    }
}

/// Every way `u` may end its move now (it must be free to move).
pub(crate) fn routes(rules: &Jomini, state: &State, board: &Board, u: UnitId) -> Vec<Route> {
    let lim = limits(rules, state, u);
    let me = rules.piece(u);
    let p = &state.pieces[u.index()];
    let depth = lim.max + u8::from(lim.road);
    let mut nodes: Vec<Node> = Vec::new();
    let mut seen: HashSet<(Hex, u16, u8, bool)> = HashSet::new();
    let mut push = |nodes: &mut Vec<Node>, n: Node| {
        if seen.insert((n.hex, n.roads, n.woods, n.stopped)) {
            nodes.push(n);
        }
    };
    if p.waiting {
        // JO-MOV-27: from a hex just off the table; the first hex entered is the entry hex.
        let Some((_, at)) = me.enters else {
            return Vec::new();
        };
        if let Some(e) = entry(rules, board, u, at) {
            let mut woods = 0;
            let mut stopped = !e.go_on;
            if !me.officer && difficult(rules, None, at, Direction::N) {
                if lim.woods > 0 {
                    woods = 1;
                } else {
                    stopped = true;
                }
            }
            push(
                &mut nodes,
                Node {
                    hex: at,
                    roads: road_hexes(rules, at),
                    woods,
                    steps: 1,
                    parent: usize::MAX,
                    stopped,
                    end: e.end,
                },
            );
        }
    } else {
        let Some(at) = p.hex else {
            return Vec::new();
        };
        push(
            &mut nodes,
            Node {
                hex: at,
                roads: road_hexes(rules, at),
                woods: 0,
                steps: 0,
                parent: usize::MAX,
                stopped: false,
                end: false,
            },
        );
    }
    let mut i = 0;
    while i < nodes.len() {
        let n = nodes[i];
        if !n.stopped && n.steps < depth {
            for d in Direction::ALL {
                let y = n.hex.neighbor(d);
                let Some(e) = entry(rules, board, u, y) else {
                    continue;
                };
                let roads = n.roads & road_links(rules, n.hex, d);
                if n.steps + 1 > lim.max && roads == 0 {
                    continue;
                }
                let mut woods = n.woods;
                let mut stopped = !e.go_on;
                if !me.officer && difficult(rules, Some(n.hex), y, d) {
                    if woods < lim.woods {
                        woods += 1;
                    } else {
                        stopped = true;
                    }
                }
                push(
                    &mut nodes,
                    Node {
                        hex: y,
                        roads,
                        woods,
                        steps: n.steps + 1,
                        parent: i,
                        stopped,
                        end: e.end,
                    },
                );
            }
        }
        i += 1;
    }
    // The best way to each hex: without the road's extra hex if possible, then shortest.
    let mut best: Vec<(Hex, usize)> = Vec::new();
    for (k, n) in nodes.iter().enumerate() {
        if !n.end || n.steps == 0 {
            continue;
        }
        let road_march = n.steps > lim.max;
        let rank = |m: &Node| (m.steps > lim.max, m.steps);
        match best.iter_mut().find(|(h, _)| *h == n.hex) {
            Some(b) if rank(&nodes[b.1]) <= (road_march, n.steps) => {}
            Some(b) => b.1 = k,
            None => best.push((n.hex, k)),
        }
    }
    best.into_iter()
        .map(|(hex, k)| {
            let mut path = Vec::new();
            let mut j = k;
            while j != usize::MAX {
                path.push(nodes[j].hex);
                j = nodes[j].parent;
            }
            path.reverse();
            if !p.waiting {
                path.remove(0);
            }
            let n = nodes[k];
            let road_march = n.steps > lim.max;
            let through = path[..path.len() - 1]
                .iter()
                .any(|&h| board.unit_at(rules, h).is_some() && !me.officer);
            Route {
                hex,
                path,
                hexes: n.steps,
                road_march,
                through,
                combat: !me.officer && !p.scout && !road_march && n.steps <= lim.fight,
                woods: n.woods,
            }
        })
        .collect()
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

/// The rules a route follows, for reasons and events.
fn route_rules(rules: &Jomini, state: &State, u: UnitId, r: &Route) -> Vec<Reason> {
    let piece = rules.piece(u);
    let p = &state.pieces[u.index()];
    let lim = limits(rules, state, u);
    let a = piece.allowance;
    let mut v = vec![Reason::new(
        "JO-MOV-9",
        format!(
            "{} moves {} of {} hex(es) ({} {} in the table: {} with combat, {} at most)",
            rules.who(u),
            r.hexes,
            lim.max,
            piece.weight,
            piece.kind,
            a.fight,
            a.max
        ),
    )];
    if piece.officer {
        v.push(Reason::new(
            "JO-MOV-14",
            "an officer moving alone ignores difficult terrain",
        ));
    }
    if p.waiting {
        v.push(Reason::new(
            "JO-MOV-27",
            "it enters from just off the table: the entry hex is the first of its move",
        ));
    }
    if r.road_march {
        v.push(Reason::new(
            "JO-MOV-16",
            "road march: the whole move follows one road, one hex more",
        ));
        v.push(Reason::new(
            "JO-MOV-17",
            "after a road march it may not fight",
        ));
    }
    if r.through {
        v.push(Reason::new(
            "JO-MOV-6",
            "it passes through an artillery unit, friend or foe, to a free hex beyond",
        ));
    }
    if p.mounted && piece.mounts.is_some() && r.hexes > a.max + u8::from(p.forced) {
        v.push(Reason::new(
            "JO-MOV-18",
            "mounted infantry: one hex more, without combat",
        ));
    }
    if p.forced || lim.fight > a.fight {
        v.push(Reason::new(
            if p.forced { "JO-ORD-6" } else { "JO-ORD-11" },
            "forced march: one hex more, and it may still fight",
        ));
    }
    if r.woods > 0 {
        v.push(Reason::new(
            "JO-ORD-7",
            format!(
                "woods-runner: {} difficult hex(es) crossed as clear",
                r.woods
            ),
        ));
    }
    if a.never_more {
        v.push(Reason::new(
            "JO-MOV-11",
            "never more than 1 hex in any circumstance",
        ));
    }
    if !piece.officer && !r.combat && !r.road_march {
        v.push(Reason::new(
            "JO-MOV-10",
            if p.scout {
                "a scout does not fight".to_owned()
            } else {
                format!("moving more than {} hex(es): without combat", lim.fight)
            },
        ));
    }
    if a.loses_die && r.hexes > 0 {
        v.push(Reason::new(
            "JO-MOV-12",
            format!(
                "it will roll {} die/dice fewer for the hexes moved",
                r.hexes
            ),
        ));
    }
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
    let board = Board::new(rules, state);
    let Some(r) = routes(rules, state, &board, u)
        .into_iter()
        .find(|r| r.hex == to)
    else {
        return;
    };
    let reasons = route_rules(rules, state, u, &r);
    let p = &mut state.pieces[u.index()];
    p.hex = Some(to);
    p.waiting = false;
    p.moved = true;
    p.hexes = r.hexes;
    p.no_combat = !r.combat;
    ctx.emit(Event::Moved {
        unit: u,
        path: r.path,
        rules: reasons.into_iter().map(|x| x.rule).collect(),
    });
    let board = Board::new(rules, state);
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
    ctx.emit(Event::Exited { unit: u });
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
    let board = Board::new(rules, state);
    for u in rules.piece_ids() {
        if can_move(rules, state, u).is_err() {
            continue;
        }
        for r in routes(rules, state, &board, u) {
            out.push(Action::Move { unit: u, to: r.hex });
        }
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
