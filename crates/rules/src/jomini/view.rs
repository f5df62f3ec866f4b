//! What each seat sees. The envelope every ruleset's view shares (`turn`, `turns`,
//! `phase`, `active`, `units`) is described in `docs/ENGINE-PROTOCOL.md`; the pieces are
//! listed again, fully, under `pieces`. The score every view carries (`objectives` with
//! their `holder`, `score`, `turns_left`: JO-VIC-1 to JO-VIC-3) is added last.
//!
//! The view is built as typed records whose fields are declared in the order of their
//! keys, so that written straight to text ([`view_text`]) it has the bytes a
//! `serde_json::Value` of it would write ([`view`]), without building that tree: the
//! server writes a view with every game object.

use super::{command, movement, victory, Jomini, OrderKind, Pending, Phase, State};
use crate::common::score::{self, EnvelopeUnit, Tally};
use grognard_engine::{Ruleset, Seat};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Everything is open in JOMINI: every seat sees the same view.
pub(crate) fn view(rules: &Jomini, state: &State, _seat: &Seat) -> Value {
    score::value(&build(rules, state))
}

/// [`view`] as JSON text, written straight from the records.
pub(crate) fn view_text(rules: &Jomini, state: &State, _seat: &Seat) -> String {
    score::text(&build(rules, state))
}

/// The view. Field order is key order (sorted, as a `Value` writes its keys).
#[derive(Serialize)]
struct View<'a> {
    activations: Activations,
    active: &'a str,
    assault: u8,
    /// Through a `Value`, which sorts its keys (the engine's `Decision` declares them
    /// otherwise).
    decision: Value,
    game_turn: u32,
    groups: Vec<GroupOut<'a>>,
    moves: BTreeMap<&'a str, Vec<RouteOut>>,
    objectives: Vec<ObjectiveOut<'a>>,
    order_costs: BTreeMap<&'static str, u32>,
    ordered: bool,
    /// Through a `Value`, as `decision`; rare, once the game is over.
    outcome: Option<Value>,
    pending: Option<PendingOut<'a>>,
    phase: &'static str,
    pieces: Vec<PieceOut<'a>>,
    player_turn: u32,
    points: BTreeMap<&'a str, u32>,
    ruleset: &'static str,
    score: BTreeMap<&'a str, Tally>,
    target: BTreeMap<&'a str, u32>,
    tokens: BTreeMap<&'a str, u32>,
    turn: u32,
    turns: Option<u32>,
    turns_left: Option<u32>,
    units: Vec<EnvelopeUnit<'a>>,
}

/// The active army's activations this turn (JO-CMD-2).
#[derive(Serialize)]
struct Activations {
    count: u8,
    radius: u32,
    units: u8,
}

/// An activated group.
#[derive(Serialize)]
struct GroupOut<'a> {
    anywhere: bool,
    combined: bool,
    forward: bool,
    officer: Option<&'a str>,
    this_phase: bool,
    units: Vec<&'a str>,
}

/// One way a unit may end its move.
#[derive(Serialize)]
struct RouteOut {
    combat: bool,
    hex: String,
    hexes: u8,
    path: Vec<String>,
    road_march: bool,
    through: bool,
}

/// An objective (JO-VIC-2); `held` is the older name of `holder`.
#[derive(Serialize)]
struct ObjectiveOut<'a> {
    held: Option<&'a str>,
    hex: String,
    holder: Option<&'a str>,
    name: &'a str,
    value: u32,
}

/// A retreat owed (JO-RET-2).
#[derive(Serialize)]
struct PendingOut<'a> {
    hexes: u8,
    kind: &'static str,
    unit: &'a str,
}

/// A piece, fully.
#[derive(Serialize)]
struct PieceOut<'a> {
    allowance: AllowanceOut,
    attacked: bool,
    available: bool,
    dice: &'a [u8],
    enters: Option<Enters>,
    forced: bool,
    full: u8,
    group: Option<u8>,
    hex: Option<String>,
    id: &'a str,
    mounted: bool,
    mounts: &'a Option<String>,
    moved: bool,
    no_combat: bool,
    officer: bool,
    scout: bool,
    side: &'a str,
    strength: u8,
    #[serde(rename = "type")]
    kind: &'a str,
    waiting: bool,
    weight: &'a str,
    woods: u8,
}

/// How far a piece moves (JO-MOV-9 to JO-MOV-12).
#[derive(Serialize)]
struct AllowanceOut {
    fight: u8,
    loses_die: bool,
    max: u8,
    never_more: bool,
}

/// When and where a reinforcement enters.
#[derive(Serialize)]
struct Enters {
    hex: String,
    turn: u32,
}

fn build<'a>(rules: &'a Jomini, state: &'a State) -> View<'a> {
    let label = |h| rules.label(h);
    let by_side = |f: &dyn Fn(u8) -> u32| {
        BTreeMap::from([(rules.side_name(0), f(0)), (rules.side_name(1), f(1))])
    };
    let pieces = rules
        .piece_ids()
        .map(|u| {
            let piece = rules.piece(u);
            let p = &state.pieces[u.index()];
            PieceOut {
                allowance: AllowanceOut {
                    fight: piece.allowance.fight,
                    loses_die: piece.allowance.loses_die,
                    max: piece.allowance.max,
                    never_more: piece.allowance.never_more,
                },
                attacked: p.attacked,
                available: command::available(rules, state, u),
                dice: &piece.row.dice,
                enters: piece.enters.map(|(turn, hex)| Enters {
                    hex: label(hex),
                    turn,
                }),
                forced: p.forced,
                full: piece.strength,
                group: p.group,
                hex: p.hex.map(label),
                id: &piece.id,
                mounted: p.mounted,
                mounts: &piece.mounts,
                moved: p.moved,
                no_combat: p.no_combat,
                officer: piece.officer,
                scout: p.scout,
                side: rules.side_name(piece.side),
                strength: p.strength,
                kind: &piece.kind,
                waiting: p.waiting,
                weight: &piece.weight,
                woods: p.woods,
            }
        })
        .collect();
    let (count, size) = command::activations(rules, state, state.active);
    let groups = state
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let g8 = u8::try_from(i).unwrap_or(u8::MAX);
            GroupOut {
                anywhere: g.anywhere,
                combined: g.combined,
                forward: g.forward,
                officer: g.officer.map(|o| rules.piece(o).id.as_str()),
                this_phase: g8 >= state.first_group,
                units: command::members(rules, state, g8)
                    .iter()
                    .map(|&u| rules.piece(u).id.as_str())
                    .collect(),
            }
        })
        .collect();
    let moves = if state.phase == Phase::Movement && state.pending.is_none() {
        movement::all_routes(rules, state)
            .into_iter()
            .map(|(u, routes)| {
                let list = routes
                    .iter()
                    .map(|r| RouteOut {
                        combat: r.combat,
                        hex: label(r.hex),
                        hexes: r.hexes,
                        path: r.path.iter().map(|&h| label(h)).collect(),
                        road_march: r.road_march,
                        through: r.through,
                    })
                    .collect();
                (rules.piece(u).id.as_str(), list)
            })
            .collect()
    } else {
        BTreeMap::new()
    };
    let c = &rules.data.orders;
    let objectives = rules
        .objectives
        .iter()
        .zip(&state.held)
        .map(|(o, h)| {
            let holder = h.map(|s| rules.side_name(s));
            ObjectiveOut {
                held: holder,
                hex: label(o.hex),
                holder,
                name: &o.name,
                value: o.value,
            }
        })
        .collect();
    let pending = state.pending.as_ref().map(|p| match *p {
        Pending::Retreat { unit, hexes } => PendingOut {
            hexes,
            kind: "retreat",
            unit: &rules.piece(unit).id,
        },
    });
    let units = rules
        .piece_ids()
        .map(|u| EnvelopeUnit {
            hex: state.pieces[u.index()].hex.map(label),
            id: &rules.piece(u).id,
            side: rules.side_name(rules.side_of(u)),
        })
        .collect();
    // JO-VIC-1: a side's points against its target; the objectives are in already.
    let score = [0u8, 1]
        .into_iter()
        .map(|side| {
            let tally = Tally {
                have: i64::from(victory::points(rules, state, side)),
                need: Some(i64::from(rules.target[usize::from(side)])),
            };
            (rules.side_name(side), tally)
        })
        .collect();
    View {
        activations: Activations {
            count,
            radius: rules.data.command.radius,
            units: size,
        },
        active: rules.side_name(state.active),
        assault: state.assault,
        decision: score::value(&rules.to_act(state)),
        game_turn: Jomini::game_turn(state),
        groups,
        moves,
        objectives,
        order_costs: BTreeMap::from([
            (OrderKind::Mount.name(), c.mount),
            (OrderKind::Reconnaissance.name(), c.reconnaissance),
            (OrderKind::ForcedMarch.name(), c.forced_march),
            (OrderKind::WoodsRunner.name(), c.woods_runner),
            (OrderKind::Courier.name(), c.courier),
            (OrderKind::CombinedAttack.name(), c.combined_attack),
            (OrderKind::Manoeuvre.name(), c.manoeuvre),
            (OrderKind::ForwardMarch.name(), c.forward_march),
            (OrderKind::GeneralAssault.name(), c.general_assault),
        ]),
        ordered: state.ordered,
        outcome: state.outcome.as_ref().map(score::value),
        pending,
        phase: state.phase.name(),
        pieces,
        player_turn: state.turn,
        points: by_side(&|s| victory::points(rules, state, s)),
        ruleset: super::NAME,
        score,
        target: by_side(&|s| rules.target[usize::from(s)]),
        tokens: by_side(&|s| state.tokens[usize::from(s)]),
        turn: Jomini::game_turn(state),
        turns: rules.turns,
        turns_left: score::turns_left(
            Jomini::game_turn(state),
            rules.turns,
            state.outcome.is_some(),
        ),
        units,
    }
}
