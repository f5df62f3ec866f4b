//! The Duel: a toy fifth ruleset that lives only in the test suite, written by following
//! docs/ADDING-A-RULESET.md. Two duellists on a row of hexes; the rules are in
//! docs/ADDING-A-RULESET.md (TOY-TURN-1, TOY-MOV-1, TOY-STR-1).
//!
//! The skeleton: this file holds the types and the `impl Ruleset`, delegating;
//! `setup.rs` binds a scenario, `turn.rs` sequences, `view.rs` shows, and one file per
//! chapter (`movement.rs`, `strike.rs`).

mod movement;
mod setup;
mod strike;
mod turn;
mod view;

use grognard_engine::scenario::{Problems, Scenario, UnitType, Vocabulary};
use grognard_engine::wire::Names;
use grognard_engine::{
    Ctx, Decision, Explanation, Outcome, Preview, Reached, Refusal, Roll, Ruleset, Seat, UnitId,
};
use grognard_hex::Hex;
use serde::{Deserialize, Serialize};

/// The Duel bound to a scenario.
#[derive(Debug)]
pub struct Duel {
    names: Names,
    sides: [String; 2],
    turns: u32,
    start: [Hex; 2],
}

/// The changing part of a duel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Game turn, from 1.
    pub turn: u32,
    /// The side to act.
    pub active: u8,
    /// Where each side's duellist stands.
    pub at: [Hex; 2],
    /// Set once the game is over.
    pub outcome: Option<Outcome>,
}

/// What a player does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Step to an adjacent empty hex (TOY-MOV-1).
    Move {
        /// The duellist.
        unit: UnitId,
        /// Where to.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
    },
    /// Strike the adjacent enemy (TOY-STR-1).
    Strike {
        /// The duellist.
        unit: UnitId,
    },
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A die roll.
    Roll(Roll),
    /// A duellist stepped.
    Moved {
        /// Who.
        unit: UnitId,
        /// Where to.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
    },
    /// A strike, and whether it hit.
    Struck {
        /// Who struck.
        unit: UnitId,
        /// Whether it hit.
        hit: bool,
    },
    /// The game ended.
    GameOver {
        /// How.
        outcome: Outcome,
    },
}

impl From<Roll> for Event {
    fn from(r: Roll) -> Event {
        Event::Roll(r)
    }
}

impl Ruleset for Duel {
    type State = State;
    type Action = Action;
    type Event = Event;

    const NAME: &'static str = "toy_duel";

    fn vocabulary() -> Vocabulary {
        Vocabulary::new(Self::NAME)
            .terrains(["clear"])
            .unit_type(UnitType::new("duellist"))
    }

    fn new(scenario: &Scenario) -> Result<Duel, Problems> {
        setup::bind(scenario)
    }

    fn initial_state(&self) -> State {
        State {
            turn: 1,
            active: 0,
            at: self.start,
            outcome: None,
        }
    }

    fn names(&self) -> &Names {
        &self.names
    }

    fn event_text(&self, event: &Event) -> String {
        let n = &self.names;
        match event {
            Event::Roll(r) => r.text(),
            Event::Moved { unit, to } => {
                format!("{} steps to {}.", n.unit_title(*unit), n.label(*to))
            }
            Event::Struck { unit, hit } => format!(
                "{} strikes and {}.",
                n.unit_title(*unit),
                if *hit { "hits" } else { "misses" }
            ),
            Event::GameOver { outcome } => outcome.reason.clone(),
        }
    }

    fn to_act(&self, state: &State) -> Option<Decision> {
        turn::to_act(self, state)
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        if turn::gate(state).is_err() {
            return;
        }
        movement::legal_move(self, state, out);
        strike::legal_strike(self, state, out);
    }

    fn explain(&self, state: &State, action: &Action) -> Explanation {
        turn::explain(self, state, action)
    }

    fn apply_unchecked(&self, state: &mut State, action: &Action, ctx: &mut Ctx<'_, Event>) {
        turn::apply(self, state, action, ctx);
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn view(&self, state: &State, seat: &Seat) -> serde_json::Value {
        view::view(self, state, seat)
    }

    fn preview(&self, state: &State, action: &Action) -> Result<Preview, Refusal> {
        strike::preview(self, state, action)
    }

    fn reachable(&self, state: &State, unit: UnitId) -> Result<Vec<Reached>, Refusal> {
        movement::reachable(self, state, unit)
    }
}
