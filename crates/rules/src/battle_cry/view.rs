//! What each seat sees: the board, the flags, the discard pile and the card in play for
//! all; its own hand only, the other hand as a count, and never the deck (BC-CARD-6).
//! The envelope every ruleset's view shares (`turn`, `turns`, `phase`, `active`, `units`)
//! is described in `docs/ENGINE-PROTOCOL.md`; the pieces are listed again, fully, under
//! `pieces`. The score every view carries (`objectives`, none in Battle Cry; `score`,
//! the flags each side has and needs, BC-VIC-1; `turns_left`, BC-VIC-2) is added last.

use super::turn::to_act;
use super::units::{Board, Kind};
use super::{cards, orders, BattleCry, State};
use crate::common::score;
use grognard_engine::Seat;
use serde_json::{json, Value};

/// What a seat may see (BC-CARD-6).
pub(crate) fn view(rules: &BattleCry, state: &State, seat: &Seat) -> Value {
    rules.names.scope(|| view_in_scope(rules, state, seat))
}

fn view_in_scope(rules: &BattleCry, state: &State, seat: &Seat) -> Value {
    let board = Board::new(rules, state);
    let pieces: Vec<Value> = rules
        .piece_ids()
        .map(|u| {
            let p = &state.pieces[u.index()];
            let attached = p.hex.and_then(|h| match rules.kind(u) {
                Kind::General => board.unit_at(rules, h).map(|x| rules.unit_id(x).to_owned()),
                _ => board
                    .general_at(rules, h)
                    .map(|x| rules.unit_id(x).to_owned()),
            });
            json!({
                "id": rules.unit_id(u),
                "side": rules.side_name(rules.side_of(u)),
                "type": rules.kind(u).name(),
                "hex": p.hex.map(|h| rules.label(h)),
                "figures": p.figures,
                "attached": attached,
                "ordered": orders::is_ordered(state, u),
                "moved": p.moved,
                "battled": p.battled,
            })
        })
        .collect();
    let mut hands = serde_json::Map::new();
    let mut flags = serde_json::Map::new();
    for side in 0..2u8 {
        let name = rules.side_name(side).to_owned();
        let hand = &state.hands[usize::from(side)];
        let shown = if seat.sees_side(&name) {
            json!({
                "count": hand.len(),
                "cards": hand.iter().map(|&c| json!({
                    "card": c,
                    "title": c.row().title,
                    "orders": cards::describe(rules, state, side, c),
                })).collect::<Vec<_>>(),
            })
        } else {
            json!({ "count": hand.len() })
        };
        hands.insert(name.clone(), shown);
        flags.insert(
            name,
            json!({ "have": state.flags[usize::from(side)], "need": rules.flags_to_win[usize::from(side)] }),
        );
    }
    let units: Vec<Value> = rules
        .piece_ids()
        .map(|u| {
            json!({
                "id": rules.unit_id(u),
                "side": rules.side_name(rules.side_of(u)),
                "hex": state.pieces[u.index()].hex.map(|h| rules.label(h)),
            })
        })
        .collect();
    let mut v = json!({
        "turn": state.turn.div_ceil(2),
        "player_turn": state.turn,
        "turns": rules.turns,
        "active": rules.side_name(state.active),
        "phase": state.phase,
        "units": units,
        "to_act": to_act(rules, state),
        "pieces": pieces,
        "flags": flags,
        "hands": hands,
        "deck": state.deck.len(),
        "discard": state.discard,
        "played": state.played,
        "fight_back": state.fight_back,
        "pending": state.pending,
        "dividers": rules.dividers,
        "outcome": state.outcome,
    });
    if *seat == Seat::Omniscient {
        v["deck_cards"] = json!(state.deck);
    }
    let tallies = (0..2u8)
        .map(|side| {
            let i = usize::from(side);
            let t = score::tally(
                i64::from(state.flags[i]),
                Some(i64::from(rules.flags_to_win[i])),
            );
            (rules.side_name(side), t)
        })
        .collect();
    let left = score::turns_left(state.turn.div_ceil(2), rules.turns, state.outcome.is_some());
    score::add(&mut v, &[], tallies, left);
    v
}
