//! The `[position]` part of a Battle Cry scenario (issue 19, item 4): the turn, phase
//! and side to act, each unit's and general's hex, figures and order, each side's
//! hand and flags won, the deck, the discard pile, the cards in play (`played`,
//! `fight_back`) and a decision inside a battle (`pending`).
//!
//! The deck has no order to keep: a draw takes a card at random (BC-CARD-5), so the
//! deck is written sorted and shuffled by every draw of the loaded game.

use super::cards::Card;
use super::{BattleCry, State};
use grognard_engine::position::{self, Position, Shape};
use grognard_engine::scenario::{Problems, RawTable, Scenario};
use grognard_engine::Ruleset;
use std::collections::BTreeMap;

/// How the state is written.
const SHAPE: Shape = Shape {
    units: Some("pieces"),
    unit_keys: &["hex", "figures", "order", "moved", "battled", "waded"],
    keys: &[
        "turn",
        "active",
        "phase",
        "deck",
        "hands",
        "discard",
        "played",
        "fight_back",
        "flags",
        "pending",
        "outcome",
    ],
    sides: &["active"],
    per_side: &["hands", "flags"],
    holders: &[],
};

/// The state as a position part.
pub(super) fn write(rules: &BattleCry, scenario: &Scenario, state: &State) -> toml::Table {
    position::write(rules, scenario, state, &SHAPE)
}

/// Every card of the state, with how many copies, and the last place each is.
fn cards(state: &State) -> BTreeMap<Card, (usize, String)> {
    let mut out: BTreeMap<Card, (usize, String)> = BTreeMap::new();
    let piles = [("deck", &state.deck), ("discard", &state.discard)];
    let hands = state.hands.iter().enumerate();
    let mut places: Vec<(String, Card)> = Vec::new();
    for (name, pile) in piles {
        places.extend(
            pile.iter()
                .enumerate()
                .map(|(i, c)| (format!("{name}[{i}]"), *c)),
        );
    }
    for (side, hand) in hands {
        places.extend(
            hand.iter()
                .enumerate()
                .map(|(i, c)| (format!("hands#{side}[{i}]"), *c)),
        );
    }
    places.extend(state.played.map(|c| ("played".to_owned(), c)));
    places.extend(state.fight_back.map(|c| ("fight_back".to_owned(), c)));
    for (at, card) in places {
        // The last place a card is: the copy one too many, in file order.
        let e = out.entry(card).or_insert((0, String::new()));
        e.0 += 1;
        e.1 = at;
    }
    out
}

/// A position part read over the start, checked: no card more often than the deck
/// has it, figures at most a unit's full figures.
pub(super) fn read(
    rules: &BattleCry,
    scenario: &Scenario,
    raw: &RawTable,
) -> Result<State, Problems> {
    let mut state = position::read(rules, scenario, raw, &SHAPE)?;
    let start = rules.initial_state();
    let mut p = Position::new(scenario, raw);
    if state.turn == 0 {
        p.at("turn", "`turn` must be at least 1");
    }
    let full = cards(&start);
    for (card, (n, at)) in cards(&state) {
        let copies = full.get(&card).map_or(0, |(m, _)| *m);
        if n > copies {
            let at = match at.strip_prefix("hands#") {
                Some(rest) => {
                    let (side, tail) = rest.split_once('[').unwrap_or((rest, ""));
                    let order = position::play_order(scenario);
                    let id = side
                        .parse::<usize>()
                        .ok()
                        .and_then(|i| order.get(i).copied())
                        .unwrap_or("");
                    format!("hands.{id}[{tail}")
                }
                None => at,
            };
            p.at(
                &at,
                format!(
                    "card `{}` is there {n} times, but the deck has {copies}",
                    card.id()
                ),
            );
        }
    }
    for (i, (u, whole)) in state.pieces.iter().zip(&start.pieces).enumerate() {
        if u.figures > whole.figures {
            p.at_unit(
                i,
                "figures",
                format!(
                    "{} figures is more than the unit's full {}",
                    u.figures, whole.figures
                ),
            );
        }
        if u.hex.is_some() && u.figures == 0 {
            p.at_unit(i, "figures", "a unit on the map has at least one figure");
        }
    }
    p.finish()?;
    // Hands and deck are kept sorted (BC-CARD-4, BC-CARD-5): a file may list them in any order.
    state.deck.sort();
    for hand in &mut state.hands {
        hand.sort();
    }
    Ok(state)
}
