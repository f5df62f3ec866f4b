//! Random playouts of the built-in scenario: no panic and no dead end; invariants after
//! every action; `explain` agrees with `legal_actions`, deliberately illegal candidates
//! included; a saved game replays to the same state.

use super::harness;
use crate::common::playout;
use grognard_engine::{Dice, Game, Ruleset, Seat, UnitId};
use grognard_hex::Hex;
use grognard_rules::battle_cry::{Action, BattleCry, Card, Kind, Order, Phase, State};

/// The invariants every state keeps; the views too when `views`.
fn check_invariants(rules: &BattleCry, s: &State, ctx: &str, views: bool) {
    // The whole deck: deck + hands + discard + the cards in play.
    let mut cards: Vec<Card> = s.deck.clone();
    cards.extend(s.hands.iter().flatten());
    cards.extend(&s.discard);
    cards.extend(s.played);
    cards.extend(s.fight_back);
    cards.sort();
    assert_eq!(cards, rules.whole_deck(), "{ctx}: cards lost or made");
    assert!(
        s.hands.iter().all(|h| h.windows(2).all(|w| w[0] <= w[1])),
        "{ctx}: hands are sorted"
    );
    // Figures and flags add up.
    let names = rules.names();
    let mut lost = [0u8; 2];
    let mut seen = std::collections::HashMap::<Hex, Vec<UnitId>>::new();
    for i in 0..s.pieces.len() {
        let u = UnitId(u16::try_from(i).unwrap());
        let p = &s.pieces[i];
        let side = usize::from(rules.pieces()[i].side);
        assert_eq!(
            p.hex.is_none(),
            p.figures == 0,
            "{ctx}: {} eliminated iff no figures",
            names.unit_name(u).unwrap()
        );
        match p.hex {
            None => lost[side] += 1,
            Some(h) => {
                assert!(names.map().contains(h), "{ctx}: off the map");
                seen.entry(h).or_default().push(u);
            }
        }
    }
    assert_eq!(
        s.flags,
        [lost[1], lost[0]],
        "{ctx}: flags are the enemy's eliminated pieces"
    );
    for (h, here) in &seen {
        let generals = here
            .iter()
            .filter(|&&u| rules.pieces()[u.index()].kind == Kind::General)
            .count();
        assert!(
            here.len() <= 2 && generals <= 1 && (here.len() < 2 || generals == 1),
            "{ctx}: {h:?} holds {here:?}"
        );
        let sides: std::collections::HashSet<u8> = here
            .iter()
            .map(|&u| rules.pieces()[u.index()].side)
            .collect();
        assert_eq!(sides.len(), 1, "{ctx}: enemies share {h:?}");
    }
    // Whose decision it is, and something to decide.
    let mut legal = Vec::new();
    rules.legal_actions(s, &mut legal);
    assert_eq!(rules.to_act(s).is_some(), s.outcome.is_none(), "{ctx}");
    assert_eq!(legal.is_empty(), s.outcome.is_some(), "{ctx}: a dead end");
    // Hands never show in the other side's view, nor the deck in any player's.
    if !views {
        return;
    }
    for (i, side) in ["blue", "grey"].iter().enumerate() {
        let v = rules.view(s, &Seat::Side((*side).to_owned()));
        let other = ["blue", "grey"][1 - i];
        assert_eq!(
            v["hands"][other],
            serde_json::json!({ "count": s.hands[1 - i].len() }),
            "{ctx}"
        );
        assert!(v.get("deck_cards").is_none());
    }
}

/// Candidate actions, legal or not, for the consistency check.
fn candidates(rules: &BattleCry, s: &State, dice: &mut Dice) -> Vec<Action> {
    let (unit, target, hex, near) = playout::sample(rules, dice, |u| s.pieces[u.index()].hex);
    let mut roll = |k: u32| dice.next(k).0 - 1;
    let deck = rules.whole_deck();
    let card = deck[roll(u32::try_from(deck.len()).unwrap()) as usize];
    vec![
        Action::Deal,
        Action::PlayCard { card },
        Action::Discard { card },
        Action::Order { unit },
        Action::DoneOrdering,
        Action::Move { unit, to: hex },
        Action::Move { unit, to: near },
        Action::DoneMoving,
        Action::Battle { unit, target },
        Action::EndTurn,
        Action::Retreat { unit, to: near },
        Action::IgnoreFlag,
        Action::TakeGround,
        Action::FightBack,
        Action::Decline,
    ]
}

/// How much a playout checks at every action.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Checks {
    /// No dead end, no refusal of a listed action.
    None,
    /// And the invariants of the state.
    State,
    /// And the views, `explain` against `legal_actions` with illegal candidates, previews.
    All,
}

/// Plays one random game; returns it and the number of actions.
fn playout(seed: u64, checks: Checks) -> (Game<BattleCry>, usize) {
    let mut game = Game::<BattleCry>::new(harness::builtin(), Some(seed)).unwrap();
    let mut dice = Dice::new(seed.wrapping_mul(0x9E37_79B9) ^ 0xBA77);
    let check = |game: &Game<BattleCry>, legal: &[Action], n: usize, dice: &mut Dice| {
        if legal.is_empty() {
            if checks >= Checks::State {
                let ctx = format!("seed {seed}, the end");
                check_invariants(game.rules(), game.state(), &ctx, true);
            }
            return;
        }
        let ctx = format!("seed {seed}, action {n}");
        if checks >= Checks::State {
            check_invariants(game.rules(), game.state(), &ctx, checks == Checks::All);
        }
        if checks == Checks::All {
            let (rules, state) = (game.rules(), game.state());
            let battle = |a: &Action| matches!(a, Action::Battle { .. } | Action::FightBack);
            playout::assert_listed(rules, state, legal, battle, &ctx);
            let some = candidates(rules, state, dice);
            playout::assert_candidates(rules, state, legal, &some, ("BC-", false), &ctx);
        }
    };
    let mut ordered_this_turn: Vec<UnitId> = Vec::new();
    let mut turn = game.state().turn;
    let after = |game: &Game<BattleCry>, action: &Action| {
        if let Action::Order { unit } = *action {
            assert!(
                !ordered_this_turn.contains(&unit),
                "seed {seed}: {unit:?} ordered twice"
            );
            ordered_this_turn.push(unit);
        }
        if game.state().turn != turn {
            ordered_this_turn.clear();
            turn = game.state().turn;
        }
        if checks >= Checks::State && game.state().phase == Phase::Movement {
            let s = game.state();
            let orders = s.pieces.iter().filter(|p| p.order == Order::Card).count();
            assert!(orders <= 6, "seed {seed}: {orders} orders");
        }
    };
    let n = playout::play(&mut game, &mut dice, 50_000, check, after);
    (game, n)
}

#[test]
fn random_playouts_finish_with_invariants_and_replay() {
    for seed in 0..100 {
        let checks = match seed {
            0..6 => Checks::All,
            6..30 => Checks::State,
            _ => Checks::None,
        };
        let (game, n) = playout(seed, checks);
        playout::assert_ended(&game, n, seed, seed % 20 == 0);
    }
}

/// Thousands of games, the state checked after every action, everything in one game of
/// thirty: `cargo test -p grognard-rules --release
/// battle_cry::playouts::thousands -- --ignored`.
#[test]
#[ignore = "slow: run with --release --ignored"]
fn thousands_of_random_playouts() {
    let mut total = 0;
    for seed in 0..3000 {
        let (game, n) = playout(
            seed,
            if seed % 30 == 0 {
                Checks::All
            } else {
                Checks::State
            },
        );
        total += n;
        if seed % 100 == 0 {
            playout::assert_replays(&game, &format!("seed {seed}"));
        }
    }
    eprintln!("3000 games, {total} actions");
}

/// What a fresh thread makes of `state`: its legal list, and the state and events after
/// the `pick`-th action of it (when there is one), with no board kept from earlier calls
/// (each thread keeps its own).
fn fresh(
    rules: &BattleCry,
    state: &State,
    pick: usize,
    seed: u64,
) -> (
    Vec<Action>,
    Option<(State, Vec<grognard_rules::battle_cry::Event>)>,
) {
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut legal = Vec::new();
            rules.legal_actions(state, &mut legal);
            let after = legal.get(pick).map(|a| {
                let mut state = state.clone();
                let (mut dice, mut events) = (Dice::new(seed), Vec::new());
                let mut ctx = grognard_engine::Ctx::new(&mut dice, &mut events);
                rules.apply_unchecked(&mut state, a, &mut ctx);
                (state, events)
            });
            (legal, after)
        })
        .join()
        .unwrap()
    })
}

/// The boards kept between calls on a thread (and what is kept with them) follow the
/// games: over random games played in turn, with jumps back to states seen many actions
/// before, every legal list, and every state and event list after an action, equal
/// those of a thread that never saw another state.
#[test]
fn the_kept_boards_follow_the_games_and_jumps_between_them() {
    let rules = BattleCry::new(&harness::builtin()).unwrap();
    let mut dice = Dice::new(0x5EED);
    let mut games: Vec<State> = (0..3).map(|_| rules.initial_state()).collect();
    let mut seen: Vec<State> = Vec::new();
    let mut legal = Vec::new();
    let mut steps = 0;
    while steps < 4000 && games.iter().any(|s| s.outcome.is_none()) {
        // Mostly the next game's state in turn; now and then a state seen long before.
        let g = (dice.next(3).0 - 1) as usize;
        let old = !seen.is_empty() && dice.next(8).0 == 1;
        let mut state = if old {
            seen[(dice.next(u32::try_from(seen.len()).unwrap()).0 - 1) as usize].clone()
        } else if games[g].outcome.is_none() {
            games[g].clone()
        } else {
            continue;
        };
        legal.clear();
        rules.legal_actions(&state, &mut legal);
        let pick = (dice.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
        let seed = u64::from(dice.next(1000).0);
        let (fresh_legal, fresh_after) = fresh(&rules, &state, pick, seed);
        assert_eq!(legal, fresh_legal, "step {steps}: the legal list");
        let (mut roll, mut events) = (Dice::new(seed), Vec::new());
        let mut ctx = grognard_engine::Ctx::new(&mut roll, &mut events);
        rules.apply_unchecked(&mut state, &legal[pick], &mut ctx);
        let (fresh_state, fresh_events) = fresh_after.expect("an action");
        assert_eq!(state, fresh_state, "step {steps}: the state after");
        assert_eq!(events, fresh_events, "step {steps}: the events");
        if steps % 7 == 0 {
            seen.push(state.clone());
        }
        if !old {
            games[g] = state;
        }
        steps += 1;
    }
    assert!(steps > 1000, "{steps} steps");
}

/// The events of random games, recorded, read back from their JSON as the same events:
/// a move's path and rules (`Path`, `MoveRules`) and a battle's rules (`BattleRules`),
/// kept in place and as bits, write and read as the lists they stand for (BC-MOV-1,
/// BC-BAT-3).
#[test]
fn bc_mov_1_bc_bat_3_the_events_read_back_from_their_json() {
    use grognard_engine::Ctx;
    use grognard_rules::battle_cry::Event;
    let rules = BattleCry::new(&harness::builtin()).unwrap();
    let (mut moves, mut battles) = (0, 0);
    for seed in 1..=6u64 {
        let mut state = rules.initial_state();
        let mut dice = Dice::new(seed);
        let mut pick = Dice::new(seed.wrapping_mul(7_919));
        let mut legal = Vec::new();
        for _ in 0..3_000 {
            legal.clear();
            rules.legal_actions(&state, &mut legal);
            if legal.is_empty() {
                break;
            }
            let (i, _) = pick.next(u32::try_from(legal.len()).unwrap());
            let mut events: Vec<Event> = Vec::new();
            rules.apply_unchecked(
                &mut state,
                &legal[i as usize - 1],
                &mut Ctx::new(&mut dice, &mut events),
            );
            for e in events {
                match &e {
                    Event::Moved { .. } => moves += 1,
                    Event::Battled { .. } => battles += 1,
                    _ => {}
                }
                rules.names().scope(|| {
                    let text = serde_json::to_string(&e).unwrap();
                    let back: Event = serde_json::from_str(&text).unwrap();
                    assert_eq!(back, e, "{text}");
                });
            }
        }
    }
    assert!(
        moves > 100 && battles > 100,
        "{moves} moves, {battles} battles"
    );
}

/// A state read back from its JSON keeps no sets of the pieces' orders (they are not
/// written): its legal list, and the state and events after each action, equal those of
/// the state it was written from, in every step of the turn (BC-ORD-1, BC-TURN-2); and a
/// game played on from it keeps them again from its next turn.
#[test]
fn bc_ord_1_a_state_read_from_json_lists_and_plays_as_the_one_written() {
    let rules = BattleCry::new(&harness::builtin()).unwrap();
    let mut pick = Dice::new(0x0D35);
    let mut state = rules.initial_state();
    let (mut legal, mut read_legal) = (Vec::new(), Vec::new());
    let mut steps = 0;
    while steps < 1500 && state.outcome.is_none() {
        let mut read: State = rules
            .names()
            .scope(|| serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap());
        legal.clear();
        rules.legal_actions(&state, &mut legal);
        read_legal.clear();
        rules.legal_actions(&read, &mut read_legal);
        assert_eq!(legal, read_legal, "step {steps}: the legal list");
        let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
        let seed = u64::from(pick.next(1000).0);
        let mut events = [Vec::new(), Vec::new()];
        for (s, events) in [&mut state, &mut read].into_iter().zip(&mut events) {
            let mut dice = Dice::new(seed);
            let mut ctx = grognard_engine::Ctx::new(&mut dice, events);
            rules.apply_unchecked(s, &legal[i], &mut ctx);
        }
        assert_eq!(state, read, "step {steps}: the state after");
        assert_eq!(events[0], events[1], "step {steps}: the events");
        // Now and then the game goes on from the state read.
        if steps % 5 == 0 {
            state = read;
        }
        steps += 1;
    }
    assert!(steps > 500, "{steps} steps");
}
