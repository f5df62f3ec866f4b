//! A tiny card game with hidden hands, to test that the search never reads what the
//! side to act cannot see (issue 13, item 1).
//!
//! Two sides, `a` and `b`, hold three cards each from a deck of 1 to 12. In turn
//! each plays a card: it scores its value when it beats the card the other side
//! played last, else nothing, and draws. The game ends when both hands are empty.
//! The evaluation cheats on purpose: it counts the cards in both hands, so a search
//! that read the true state would choose by the other hand.

use grognard_ai::mcts::{search, Budget, Horizon, SearchConfig};
use grognard_engine::scenario::{Problems, Scenario, Vocabulary};
use grognard_engine::{
    Ctx, Decision, Dice, Explanation, Names, Outcome, Preview, Reached, Refusal, Roll, Ruleset,
    Seat, UnitId,
};
use serde::{Deserialize, Serialize};

pub struct Hands {
    names: Names,
    /// Whether it hides the other hand from the search (the hook under test).
    pub hide: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    pub active: u8,
    pub hands: [Vec<u8>; 2],
    pub deck: Vec<u8>,
    pub last: [u8; 2],
    pub score: [u32; 2],
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    Play { card: u8 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    Roll(Roll),
}

impl From<Roll> for Event {
    fn from(r: Roll) -> Event {
        Event::Roll(r)
    }
}

const SIDES: [&str; 2] = ["a", "b"];

impl Hands {
    pub fn state(a: &[u8], b: &[u8], deck: &[u8]) -> State {
        State {
            active: 0,
            hands: [a.to_vec(), b.to_vec()],
            deck: deck.to_vec(),
            last: [0, 0],
            score: [0, 0],
        }
    }
}

impl Ruleset for Hands {
    type State = State;
    type Action = Action;
    type Event = Event;
    const NAME: &'static str = "hands";

    fn vocabulary() -> Vocabulary {
        Vocabulary::new("hands")
    }

    fn new(s: &Scenario) -> Result<Hands, Problems> {
        Ok(Hands {
            names: Names::new(Vec::new(), s.map),
            hide: true,
        })
    }

    fn initial_state(&self) -> State {
        Hands::state(&[1, 2, 3], &[4, 5, 6], &[7, 8, 9, 10, 11, 12])
    }

    fn names(&self) -> &Names {
        &self.names
    }

    fn event_text(&self, event: &Event) -> String {
        let Event::Roll(r) = event;
        r.text()
    }

    fn to_act(&self, state: &State) -> Option<Decision> {
        if state.hands.iter().all(Vec::is_empty) {
            return None;
        }
        Some(Decision {
            side: SIDES[usize::from(state.active)].into(),
            kind: "play".into(),
            reaction: false,
            text: String::new(),
        })
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        if self.to_act(state).is_some() {
            let mut cards = state.hands[usize::from(state.active)].clone();
            cards.sort_unstable();
            cards.dedup();
            out.extend(cards.into_iter().map(|card| Action::Play { card }));
        }
    }

    fn explain(&self, state: &State, action: &Action) -> Explanation {
        let Action::Play { card } = action;
        if self.to_act(state).is_some() && state.hands[usize::from(state.active)].contains(card) {
            Ok(Vec::new()).into()
        } else {
            Err(Refusal::new("HANDS-1", "not a card in the hand")).into()
        }
    }

    fn apply_unchecked(&self, state: &mut State, action: &Action, _ctx: &mut Ctx<'_, Event>) {
        let Action::Play { card } = *action;
        let me = usize::from(state.active);
        if let Some(i) = state.hands[me].iter().position(|&c| c == card) {
            state.hands[me].remove(i);
        }
        if card > state.last[1 - me] {
            state.score[me] += u32::from(card);
        }
        state.last[me] = card;
        if let Some(c) = state.deck.pop() {
            state.hands[me].push(c);
        }
        if !state.hands[1 - me].is_empty() {
            state.active = 1 - state.active;
        }
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        self.to_act(state).is_none().then(|| Outcome {
            winner: match state.score[0].cmp(&state.score[1]) {
                std::cmp::Ordering::Greater => Some("a".into()),
                std::cmp::Ordering::Less => Some("b".into()),
                std::cmp::Ordering::Equal => None,
            },
            reason: "the hands are empty".into(),
            rule: None,
        })
    }

    fn view(&self, _state: &State, _seat: &Seat) -> serde_json::Value {
        serde_json::Value::Null
    }

    fn preview(&self, _state: &State, _action: &Action) -> Result<Preview, Refusal> {
        Err(Refusal::new("HANDS-2", "nothing random"))
    }

    fn reachable(&self, _state: &State, _unit: UnitId) -> Result<Vec<Reached>, Refusal> {
        Err(Refusal::new("HANDS-3", "no map"))
    }

    fn evaluate(&self, state: &State, side: &str) -> f64 {
        let me = usize::from(side == "b");
        let held = |i: usize| state.hands[i].iter().map(|&c| f64::from(c)).sum::<f64>();
        f64::from(state.score[me]) - f64::from(state.score[1 - me])
            + 0.5 * (held(me) - held(1 - me))
    }

    fn determinize(&self, state: &mut State, seat: &Seat, dice: &mut Dice) {
        let Seat::Side(side) = seat else { return };
        if !self.hide {
            return;
        }
        let other = usize::from(side == "a");
        let held = state.hands[other].len();
        let mut pool: Vec<u8> = state.hands[other]
            .drain(..)
            .chain(state.deck.drain(..))
            .collect();
        pool.sort_unstable();
        for i in (1..pool.len()).rev() {
            let j = dice.next(u32::try_from(i + 1).expect("small")).0 as usize - 1;
            pool.swap(i, j);
        }
        state.deck = pool.split_off(held);
        state.hands[other] = pool;
    }
}

fn rules(hide: bool) -> Hands {
    let b = grognard_rules::builtin::find("passage-of-the-saale").expect("a built-in");
    let s = grognard_rules::registry()
        .load_scenario(b.path, b.text)
        .expect("valid");
    Hands {
        hide,
        ..Hands::new(&s).expect("any scenario")
    }
}

fn visits(rules: &Hands, state: &State, threads: usize) -> (Vec<Action>, Vec<u64>) {
    let config = SearchConfig {
        budget: Budget::Simulations(300),
        threads,
        seed: 42,
        horizon: Horizon::EnemyReply,
        ..SearchConfig::default()
    };
    let s = search(rules, state, &config).expect("a to act");
    assert_eq!(s.simulations, 300);
    let mut w = s.weighed;
    w.sort_by_key(|w| format!("{:?}", w.plan.steps));
    (
        w.iter().map(|w| w.plan.steps[0].clone()).collect(),
        w.iter().map(|w| w.visits).collect(),
    )
}

/// Issue 13: the choice does not change when only hidden information changes (the
/// other hand and the deck trade cards; the deck is in another order).
#[test]
fn the_choice_does_not_change_when_only_hidden_cards_change() {
    let a = [3, 7, 9];
    let one = Hands::state(&a, &[1, 2, 12], &[4, 5, 6, 8, 10, 11]);
    let two = Hands::state(&a, &[10, 11, 12], &[8, 1, 6, 5, 4, 2]);
    let hiding = rules(true);
    for threads in [1, 2] {
        let (best_one, v_one) = visits(&hiding, &one, threads);
        let (best_two, v_two) = visits(&hiding, &two, threads);
        assert_eq!(best_one, best_two);
        assert_eq!(v_one, v_two, "the same visits to every plan");
    }
    let one_best = search(
        &hiding,
        &one,
        &SearchConfig {
            budget: Budget::Simulations(300),
            seed: 42,
            ..SearchConfig::default()
        },
    )
    .and_then(|s| s.best().cloned());
    let two_best = search(
        &hiding,
        &two,
        &SearchConfig {
            budget: Budget::Simulations(300),
            seed: 42,
            ..SearchConfig::default()
        },
    )
    .and_then(|s| s.best().cloned());
    assert_eq!(one_best, two_best);
    // The test has teeth: a search that reads the true hands weighs them differently.
    let peeking = rules(false);
    assert_ne!(visits(&peeking, &one, 1).1, visits(&peeking, &two, 1).1);
}
