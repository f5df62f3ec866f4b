//! What each seat sees: the board, the flags, the discard pile and the card in play for
//! all; its own hand only, the other hand as a count, and never the deck (BC-CARD-6).
//! The envelope every ruleset's view shares (`turn`, `turns`, `phase`, `active`, `units`)
//! is described in `docs/ENGINE-PROTOCOL.md`; the pieces are listed again, fully, under
//! `pieces`. The score every view carries (`objectives`, none in Battle Cry; `score`,
//! the flags each side has and needs, BC-VIC-1; `turns_left`, BC-VIC-2) is added last.
//!
//! The view is built as typed records whose fields are declared in the order of their
//! keys, so that written straight to text ([`view_text`]) it has the bytes a
//! `serde_json::Value` of it would write ([`view`]), without building that tree: the
//! server writes a view with every game object, and a view a seat.

use super::cards::Card;
use super::units::{Board, Kind};
use super::{cards, orders, BattleCry, Phase, State};
use crate::common::score::{self, EnvelopeUnit, Tally};
use grognard_engine::Ruleset;
use grognard_engine::Seat;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// What a seat may see (BC-CARD-6).
pub(crate) fn view(rules: &BattleCry, state: &State, seat: &Seat) -> Value {
    rules
        .names
        .scope(|| score::value(&build(rules, state, seat)))
}

/// [`view`] as JSON text, written straight from the records.
pub(crate) fn view_text(rules: &BattleCry, state: &State, seat: &Seat) -> String {
    rules
        .names
        .scope(|| score::text(&build(rules, state, seat)))
}

/// The view. Field order is key order (sorted, as a `Value` writes its keys).
#[derive(Serialize)]
struct View<'a> {
    active: &'a str,
    deck: usize,
    /// The deck in order, for the omniscient seat alone.
    #[serde(skip_serializing_if = "Option::is_none")]
    deck_cards: Option<&'a [Card]>,
    discard: &'a [Card],
    dividers: [u32; 2],
    fight_back: Option<Card>,
    /// A side's flags won against those it needs (BC-VIC-1), as in `score`.
    flags: BTreeMap<&'a str, Tally>,
    hands: BTreeMap<&'a str, HandOut>,
    /// None in Battle Cry.
    objectives: [u8; 0],
    /// Through a `Value`, which sorts its keys (the engine's `Outcome` declares them
    /// otherwise); rare, once the game is over.
    outcome: Option<Value>,
    /// Through a `Value`, as `outcome`; rare, a retreat owed.
    pending: Option<Value>,
    phase: Phase,
    pieces: Vec<PieceOut<'a>>,
    played: Option<Card>,
    player_turn: u32,
    score: BTreeMap<&'a str, Tally>,
    /// Through a `Value`, as `outcome` (the engine's `Decision`).
    to_act: Value,
    turn: u32,
    turns: Option<u32>,
    turns_left: Option<u32>,
    units: Vec<EnvelopeUnit<'a>>,
}

/// A side's hand: its cards for the side itself, else only how many.
#[derive(Serialize)]
struct HandOut {
    #[serde(skip_serializing_if = "Option::is_none")]
    cards: Option<Vec<CardOut>>,
    count: usize,
}

/// A card in the hand that sees it, with what it would order now.
#[derive(Serialize)]
struct CardOut {
    card: Card,
    orders: String,
    title: &'static str,
}

/// A piece, fully.
#[derive(Serialize)]
struct PieceOut<'a> {
    attached: Option<&'a str>,
    battled: bool,
    figures: u8,
    hex: Option<String>,
    id: &'a str,
    moved: bool,
    ordered: bool,
    side: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
}

fn build<'a>(rules: &'a BattleCry, state: &'a State, seat: &Seat) -> View<'a> {
    let board = Board::new(rules, state);
    let pieces = rules
        .piece_ids()
        .map(|u| {
            let p = &state.pieces[u.index()];
            let attached = p.hex.and_then(|h| match rules.kind(u) {
                Kind::General => board.unit_at(rules, h).map(|x| rules.unit_id(x)),
                _ => board.general_at(rules, h).map(|x| rules.unit_id(x)),
            });
            PieceOut {
                attached,
                battled: p.battled,
                figures: p.figures,
                hex: p.hex.map(|h| rules.label(h)),
                id: rules.unit_id(u),
                moved: p.moved,
                ordered: orders::is_ordered(state, u),
                side: rules.side_name(rules.side_of(u)),
                kind: rules.kind(u).name(),
            }
        })
        .collect();
    let mut hands = BTreeMap::new();
    let mut flags = BTreeMap::new();
    let mut score = BTreeMap::new();
    for side in 0..2u8 {
        let name = rules.side_name(side);
        let i = usize::from(side);
        let hand = &state.hands[i];
        let cards = seat.sees_side(name).then(|| {
            hand.iter()
                .map(|&c| CardOut {
                    card: c,
                    orders: cards::describe(rules, state, side, c),
                    title: &c.row().title,
                })
                .collect()
        });
        hands.insert(
            name,
            HandOut {
                cards,
                count: hand.len(),
            },
        );
        let tally = || Tally {
            have: i64::from(state.flags[i]),
            need: Some(i64::from(rules.flags_to_win[i])),
        };
        flags.insert(name, tally());
        score.insert(name, tally());
    }
    let units = rules
        .piece_ids()
        .map(|u| EnvelopeUnit {
            hex: state.pieces[u.index()].hex.map(|h| rules.label(h)),
            id: rules.unit_id(u),
            side: rules.side_name(rules.side_of(u)),
        })
        .collect();
    View {
        active: rules.side_name(state.active),
        deck: state.deck.len(),
        deck_cards: (*seat == Seat::Omniscient).then_some(&state.deck[..]),
        discard: &state.discard,
        dividers: rules.dividers,
        fight_back: state.fight_back,
        flags,
        hands,
        objectives: [],
        outcome: state.outcome.as_ref().map(score::value),
        pending: state.pending.as_ref().map(score::value),
        phase: state.phase,
        pieces,
        played: state.played,
        player_turn: state.turn,
        score,
        to_act: score::value(&rules.to_act(state)),
        turn: state.turn.div_ceil(2),
        turns: rules.turns,
        turns_left: score::turns_left(state.turn.div_ceil(2), rules.turns, state.outcome.is_some()),
        units,
    }
}
