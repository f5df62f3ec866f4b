//! What each seat sees. The envelope every ruleset's view shares (`turn`, `turns`,
//! `phase`, `active`, `units`) is described in `docs/ENGINE-PROTOCOL.md`; the pieces are
//! listed again, fully, under `pieces`. The score every view carries (`objectives` with
//! their `holder`, `score`, `turns_left`: JO-VIC-1 to JO-VIC-3) is added last.

use super::{command, movement, turn, victory, Jomini, OrderKind, Pending, Phase, State};
use crate::common::score;
use grognard_engine::Seat;
use serde_json::{json, Value};

/// Everything is open in JOMINI: every seat sees the same view.
pub(crate) fn view(rules: &Jomini, state: &State, _seat: &Seat) -> Value {
    let label = |h| rules.label(h);
    let by_side =
        |f: &dyn Fn(u8) -> u32| json!({ rules.side_name(0): f(0), rules.side_name(1): f(1) });
    let pieces: Vec<Value> = rules
        .piece_ids()
        .map(|u| {
            let piece = rules.piece(u);
            let p = &state.pieces[u.index()];
            json!({
                "id": piece.id,
                "side": rules.side_name(piece.side),
                "type": piece.kind,
                "weight": piece.weight,
                "officer": piece.officer,
                "hex": p.hex.map(label),
                "strength": p.strength,
                "full": piece.strength,
                "waiting": p.waiting,
                "enters": piece.enters.map(|(turn, hex)| json!({"turn": turn, "hex": label(hex)})),
                "available": command::available(rules, state, u),
                "mounts": piece.mounts,
                "mounted": p.mounted,
                "group": p.group,
                "moved": p.moved,
                "attacked": p.attacked,
                "no_combat": p.no_combat,
                "forced": p.forced,
                "woods": p.woods,
                "scout": p.scout,
                "allowance": {
                    "fight": piece.allowance.fight,
                    "max": piece.allowance.max,
                    "never_more": piece.allowance.never_more,
                    "loses_die": piece.allowance.loses_die,
                },
                "dice": piece.row.dice,
            })
        })
        .collect();
    let (count, size) = command::activations(rules, state, state.active);
    let groups: Vec<Value> = state
        .groups
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let g8 = u8::try_from(i).unwrap_or(u8::MAX);
            json!({
                "officer": g.officer.map(|o| rules.piece(o).id.clone()),
                "units": command::members(rules, state, g8).iter().map(|&u| rules.piece(u).id.clone()).collect::<Vec<_>>(),
                "combined": g.combined,
                "anywhere": g.anywhere,
                "forward": g.forward,
                "this_phase": g8 >= state.first_group,
            })
        })
        .collect();
    let moves: serde_json::Map<String, Value> =
        if state.phase == Phase::Movement && state.pending.is_none() {
            movement::all_routes(rules, state)
                .into_iter()
                .map(|(u, routes)| {
                    let list: Vec<Value> = routes
                        .iter()
                        .map(|r| {
                            json!({
                                "hex": label(r.hex),
                                "path": r.path.iter().map(|&h| label(h)).collect::<Vec<_>>(),
                                "hexes": r.hexes,
                                "road_march": r.road_march,
                                "through": r.through,
                                "combat": r.combat,
                            })
                        })
                        .collect();
                    (rules.piece(u).id.clone(), Value::Array(list))
                })
                .collect()
        } else {
            serde_json::Map::new()
        };
    let c = &rules.data.orders;
    let objectives: Vec<Value> = rules
        .objectives
        .iter()
        .zip(&state.held)
        .map(|(o, h)| {
            let holder = h.map(|s| rules.side_name(s));
            json!({"name": o.name, "hex": label(o.hex), "value": o.value, "held": holder, "holder": holder})
        })
        .collect();
    let pending = match state.pending {
        Some(Pending::Retreat { unit, hexes }) => {
            json!({"kind": "retreat", "unit": rules.piece(unit).id, "hexes": hexes})
        }
        None => Value::Null,
    };
    let units: Vec<Value> = rules
        .piece_ids()
        .map(|u| {
            json!({
                "id": rules.piece(u).id,
                "side": rules.side_name(rules.side_of(u)),
                "hex": state.pieces[u.index()].hex.map(label),
            })
        })
        .collect();
    let mut v = json!({
        "ruleset": super::NAME,
        "turn": Jomini::game_turn(state),
        "player_turn": state.turn,
        "units": units,
        "game_turn": Jomini::game_turn(state),
        "turns": rules.turns,
        "active": rules.side_name(state.active),
        "phase": state.phase.name(),
        "decision": turn::to_act(rules, state),
        "tokens": by_side(&|s| state.tokens[usize::from(s)]),
        "points": by_side(&|s| victory::points(rules, state, s)),
        "target": by_side(&|s| rules.target[usize::from(s)]),
        "activations": {"count": count, "units": size, "radius": rules.data.command.radius},
        "ordered": state.ordered,
        "assault": state.assault,
        "order_costs": {
            OrderKind::Mount.name(): c.mount,
            OrderKind::Reconnaissance.name(): c.reconnaissance,
            OrderKind::ForcedMarch.name(): c.forced_march,
            OrderKind::WoodsRunner.name(): c.woods_runner,
            OrderKind::Courier.name(): c.courier,
            OrderKind::CombinedAttack.name(): c.combined_attack,
            OrderKind::Manoeuvre.name(): c.manoeuvre,
            OrderKind::ForwardMarch.name(): c.forward_march,
            OrderKind::GeneralAssault.name(): c.general_assault,
        },
        "groups": groups,
        "pieces": pieces,
        "moves": moves,
        "objectives": objectives,
        "pending": pending,
        "outcome": state.outcome,
    });
    // JO-VIC-1: a side's points against its target; the objectives are in already.
    let tallies = [0u8, 1]
        .into_iter()
        .map(|side| {
            let t = score::tally(
                i64::from(victory::points(rules, state, side)),
                Some(i64::from(rules.target[usize::from(side)])),
            );
            (rules.side_name(side), t)
        })
        .collect();
    let left = score::turns_left(
        Jomini::game_turn(state),
        rules.turns,
        state.outcome.is_some(),
    );
    score::add(&mut v, &[], tallies, left);
    v
}
