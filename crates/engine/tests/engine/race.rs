//! The Race: a small game written for the engine's tests, exercising everything a
//! ruleset may do: dice in `apply`, a hidden hand per side, a reaction window for the
//! side that is not active, a turn limit.
//!
//! Two runners race across a tiny map, each toward its side's goal edge.
//!
//! - RACE-1: the sides alternate player turns, the first side first; in its turn a side
//!   either moves its runner or draws a card.
//! - RACE-2: a move steps the runner into an adjacent map hex that is not rock and not
//!   held by the other runner.
//! - RACE-3: entering mud rolls 1d6; on 1 or 2 the runner is stuck and stays put.
//! - RACE-4: a draw rolls 1d6 and adds the number to the side's hand, which only that
//!   side sees; a hand holds at most 3 cards.
//! - RACE-5: after the enemy runner steps, a side holding a card may react: block, by
//!   discarding a card and rolling 1d6 (at or under the card sends the runner back), or
//!   pass.
//! - RACE-6: a runner that ends its side's turn on its goal edge wins.
//! - RACE-7: when the turn limit passes with no winner, the game is drawn.

use grognard_engine::scenario::{Problems, Scenario, UnitType, ValueSpec, Vocabulary};
use grognard_engine::wire::Names;
use grognard_engine::{
    Chance, Ctx, Decision, Explanation, Outcome, Preview, Reached, Reason, Refusal, Roll, Ruleset,
    Seat, UnitId,
};
use grognard_hex::{Hex, MapShape};
use serde::{Deserialize, Serialize};
use serde_json::json;

/// The scenario used by most tests: red runs east from 0101, blue west from 0603.
pub const RACE_TOML: &str = r#"
[scenario]
id = "race"
title = "The Race"
ruleset = "race"
seed = 7
turns = 8
first_side = "red"

[map]
cols = 6
rows = 3
legend = { "." = "clear", m = "mud", r = "rock" }
terrain = '''
. . m . . .
. r . m . .
. . . r m .
'''

[[sides]]
id = "red"
name = "Red team"
values = { goal = "east" }

[[sides]]
id = "blue"
name = "Blue team"
values = { goal = "west" }

[[units]]
id = "red-runner"
name = "Red runner"
side = "red"
type = "runner"
at = "0101"

[[units]]
id = "blue-runner"
name = "Blue runner"
side = "blue"
type = "runner"
at = "0603"
"#;

/// A hand holds at most this many cards (RACE-4).
const HAND: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ground {
    Clear,
    Mud,
    Rock,
}

/// The Race bound to a scenario.
#[derive(Debug)]
pub struct Race {
    names: Names,
    map: MapShape,
    ground: Vec<Ground>,
    sides: [String; 2],
    /// Each side's goal column (offset coordinates).
    goal: [i32; 2],
    /// The runner of each side.
    runner: [UnitId; 2],
    /// The side of each unit.
    side_of: Vec<u8>,
    start: [Hex; 2],
    first: u8,
    turns: u32,
}

/// The changing part of a race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Game turn, from 1.
    pub turn: u32,
    /// The side whose player turn it is.
    pub active: u8,
    /// Where each side's runner stands.
    pub at: [Hex; 2],
    /// Each side's hidden hand (RACE-4).
    pub hands: [Vec<u8>; 2],
    /// While the other side may react (RACE-5): the hex the runner came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reaction: Option<Hex>,
    /// Set once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

/// What a player does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Step the runner (RACE-2).
    Move {
        /// The runner.
        unit: UnitId,
        /// The adjacent hex.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
    },
    /// Draw a card (RACE-4).
    Draw,
    /// React by discarding a card (RACE-5).
    Block {
        /// The card discarded.
        card: u8,
    },
    /// Let the step stand (RACE-5).
    Pass,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A die roll.
    Roll(Roll),
    /// A runner stepped.
    Moved {
        /// The runner.
        unit: UnitId,
        /// From.
        #[serde(with = "grognard_engine::wire::label")]
        from: Hex,
        /// To.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
    },
    /// A runner stuck in mud (RACE-3).
    Stuck {
        /// The runner.
        unit: UnitId,
    },
    /// A side drew a card; `card` is hidden from the other side.
    Drew {
        /// The side.
        side: String,
        /// The card, for those who may see it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<u8>,
    },
    /// A block was tried (RACE-5).
    Blocked {
        /// The runner blocked.
        unit: UnitId,
        /// The card discarded.
        card: u8,
        /// Whether the runner went back.
        back: bool,
    },
    /// A side let the step stand.
    Passed {
        /// The side.
        side: String,
    },
    /// A player turn began.
    TurnBegan {
        /// Game turn.
        turn: u32,
        /// The side.
        side: String,
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

/// The purpose of a draw's roll, naming the side so `redact` can hide it.
fn draw_purpose(side: &str) -> String {
    format!("RACE-4 draw: {side}")
}

impl Race {
    fn ground(&self, hex: Hex) -> Option<Ground> {
        self.map.index(hex).map(|i| self.ground[i])
    }

    fn label(&self, hex: Hex) -> String {
        self.names.label(hex)
    }

    fn other(side: u8) -> u8 {
        1 - side
    }

    /// The side that decides now, and whether it is a reaction.
    fn decider(state: &State) -> (u8, bool) {
        if state.reaction.is_some() {
            (Race::other(state.active), true)
        } else {
            (state.active, false)
        }
    }

    fn check(&self, state: &State, action: &Action) -> Result<Vec<Reason>, Refusal> {
        if state.outcome.is_some() {
            return Err(Refusal::new("RACE-6", "the game is over"));
        }
        let side = state.active;
        let me = &self.sides[usize::from(side)];
        let (decider, reacting) = Race::decider(state);
        let them = &self.sides[usize::from(decider)];
        match action {
            Action::Move { unit, to } => {
                if reacting {
                    return Err(Refusal::new(
                        "RACE-5",
                        format!("{them} must first react or pass"),
                    ));
                }
                let Some(&owner) = self.side_of.get(unit.index()) else {
                    return Err(Refusal::new(
                        "RACE-2",
                        format!("there is no unit number {}", unit.0),
                    ));
                };
                if owner != side {
                    return Err(Refusal::new(
                        "RACE-1",
                        format!("it is {me}'s turn, not its enemy's"),
                    ));
                }
                let from = state.at[usize::from(side)];
                let mut refusal = Vec::new();
                match self.ground(*to) {
                    None => refusal.push(Reason::new("RACE-2", "the hex is off the map")),
                    Some(Ground::Rock) => {
                        refusal.push(Reason::new(
                            "RACE-2",
                            format!("{} is rock", self.label(*to)),
                        ));
                    }
                    Some(_) => {}
                }
                if from.direction_to(*to).is_none() {
                    refusal.push(Reason::new(
                        "RACE-2",
                        format!("{} is not next to {}", self.label(*to), self.label(from)),
                    ));
                }
                if state.at[usize::from(Race::other(side))] == *to {
                    refusal.push(Reason::new(
                        "RACE-2",
                        format!("{} is held by the enemy", self.label(*to)),
                    ));
                }
                if !refusal.is_empty() {
                    return Err(Refusal { reasons: refusal });
                }
                let mut reasons = vec![Reason::new(
                    "RACE-2",
                    format!("steps to {}", self.label(*to)),
                )];
                if self.ground(*to) == Some(Ground::Mud) {
                    reasons.push(Reason::new("RACE-3", "mud: stuck on 1 or 2"));
                }
                Ok(reasons)
            }
            Action::Draw => {
                if reacting {
                    return Err(Refusal::new(
                        "RACE-5",
                        format!("{them} must first react or pass"),
                    ));
                }
                if state.hands[usize::from(side)].len() >= HAND {
                    return Err(Refusal::new(
                        "RACE-4",
                        format!("{me} already holds {HAND} cards"),
                    ));
                }
                Ok(vec![Reason::new("RACE-4", "draws 1d6 into the hand")])
            }
            Action::Block { card } => {
                if !reacting {
                    return Err(Refusal::new("RACE-5", "there is no step to react to"));
                }
                if !state.hands[usize::from(decider)].contains(card) {
                    return Err(Refusal::new(
                        "RACE-5",
                        format!("{them} holds no card {card}"),
                    ));
                }
                Ok(vec![Reason::new(
                    "RACE-5",
                    format!("sends the runner back on {card} or less"),
                )])
            }
            Action::Pass => {
                if !reacting {
                    return Err(Refusal::new("RACE-5", "there is no step to react to"));
                }
                Ok(vec![Reason::new("RACE-5", "lets the step stand")])
            }
        }
    }

    /// Ends the active side's turn: victory, then the next side (RACE-6, RACE-1, RACE-7).
    fn end_turn(&self, state: &mut State, ctx: &mut Ctx<'_, Event>) {
        state.reaction = None;
        let side = state.active;
        let (col, _) = self.map.to_offset(state.at[usize::from(side)]);
        if col == self.goal[usize::from(side)] {
            let outcome = Outcome {
                winner: Some(self.sides[usize::from(side)].clone()),
                reason: "reached the goal edge".into(),
                rule: Some("RACE-6".into()),
            };
            state.outcome = Some(outcome.clone());
            ctx.emit(Event::GameOver { outcome });
            return;
        }
        if side != self.first {
            state.turn += 1;
            if state.turn > self.turns {
                let outcome = Outcome {
                    winner: None,
                    reason: "the turn limit passed".into(),
                    rule: Some("RACE-7".into()),
                };
                state.outcome = Some(outcome.clone());
                ctx.emit(Event::GameOver { outcome });
                return;
            }
        }
        state.active = Race::other(side);
        ctx.emit(Event::TurnBegan {
            turn: state.turn,
            side: self.sides[usize::from(state.active)].clone(),
        });
    }
}

fn problems(
    s: &Scenario,
    list: Vec<(grognard_engine::scenario::Loc, String)>,
) -> Result<(), Problems> {
    if list.is_empty() {
        return Ok(());
    }
    Err(Problems(
        list.into_iter().map(|(loc, m)| s.problem(loc, m)).collect(),
    ))
}

impl Ruleset for Race {
    type State = State;
    type Action = Action;
    type Event = Event;

    const NAME: &'static str = "race";

    fn vocabulary() -> Vocabulary {
        Vocabulary::new("race")
            .terrains(["clear", "mud", "rock"])
            .unit_type(UnitType::new("runner"))
            .side_value(ValueSpec::one_of("goal", ["east", "west"]))
    }

    fn new(s: &Scenario) -> Result<Race, Problems> {
        if s.sides.len() != 2 {
            let loc = s.sides.first().map(|x| x.loc).unwrap_or_default();
            let p = s.problem(loc, format!("a race has two sides, not {}", s.sides.len()));
            return Err(p.into());
        }
        let mut found = Vec::new();
        let mut runner = [None, None];
        let mut start = [Hex::default(); 2];
        let mut side_of = Vec::new();
        for (i, u) in s.units.iter().enumerate() {
            let side = s.sides.iter().position(|x| x.id == u.side).unwrap_or(0);
            side_of.push(u8::try_from(side).expect("two sides"));
            match (u.hex, runner[side]) {
                (None, _) => {
                    found.push((u.loc, format!("runner `{}` must start on the map", u.id)))
                }
                (Some(_), Some(_)) => {
                    found.push((u.loc, format!("side `{}` has a second runner", u.side)))
                }
                (Some(h), None) => {
                    runner[side] = Some(UnitId(u16::try_from(i).expect("few units")));
                    start[side] = h;
                }
            }
        }
        for (i, r) in runner.iter().enumerate() {
            if r.is_none() {
                found.push((
                    s.sides[i].loc,
                    format!("side `{}` has no runner", s.sides[i].id),
                ));
            }
        }
        problems(s, found)?;
        let goal = |i: usize| {
            if s.sides[i].values.get("goal").and_then(|v| v.as_str()) == Some("west") {
                0
            } else {
                i32::try_from(s.map.cols()).expect("small map") - 1
            }
        };
        let ground = s
            .map
            .hexes()
            .map(|h| match s.terrain_at(h) {
                Some("mud") => Ground::Mud,
                Some("rock") => Ground::Rock,
                _ => Ground::Clear,
            })
            .collect();
        Ok(Race {
            names: Names::of_scenario(s),
            map: s.map,
            ground,
            sides: [s.sides[0].id.clone(), s.sides[1].id.clone()],
            goal: [goal(0), goal(1)],
            runner: [runner[0].expect("checked"), runner[1].expect("checked")],
            side_of,
            start,
            first: u8::from(s.first_side == s.sides[1].id),
            turns: s.turns.unwrap_or(20),
        })
    }

    fn initial_state(&self) -> State {
        State {
            turn: 1,
            active: self.first,
            at: self.start,
            hands: [Vec::new(), Vec::new()],
            reaction: None,
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
            Event::Moved { unit, to, .. } => {
                format!("{} runs to {}.", n.unit_title(*unit), n.label(*to))
            }
            Event::Stuck { unit } => format!("{} is stuck in the mud.", n.unit_title(*unit)),
            Event::Drew { side, .. } => format!("{} draws a card.", n.side_title(side)),
            Event::Blocked { unit, back, .. } => format!(
                "{} is blocked{}.",
                n.unit_title(*unit),
                if *back { " and goes back" } else { "" }
            ),
            Event::Passed { side } => format!("{} lets the step stand.", n.side_title(side)),
            Event::TurnBegan { turn, side } => {
                format!("Turn {turn}: {} runs.", n.side_title(side))
            }
            Event::GameOver { outcome } => outcome.reason.clone(),
        }
    }

    fn to_act(&self, state: &State) -> Option<Decision> {
        if state.outcome.is_some() {
            return None;
        }
        let (side, reaction) = Race::decider(state);
        Some(Decision {
            side: self.sides[usize::from(side)].clone(),
            kind: if reaction { "reaction" } else { "race" }.into(),
            reaction,
            text: String::new(),
        })
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        if state.outcome.is_some() {
            return;
        }
        let (decider, reacting) = Race::decider(state);
        if reacting {
            let mut cards = state.hands[usize::from(decider)].clone();
            cards.sort_unstable();
            cards.dedup();
            out.extend(cards.into_iter().map(|card| Action::Block { card }));
            out.push(Action::Pass);
            return;
        }
        let unit = self.runner[usize::from(state.active)];
        for to in state.at[usize::from(state.active)].neighbors() {
            let a = Action::Move { unit, to };
            if self.check(state, &a).is_ok() {
                out.push(a);
            }
        }
        if state.hands[usize::from(state.active)].len() < HAND {
            out.push(Action::Draw);
        }
    }

    fn explain(&self, state: &State, action: &Action) -> Explanation {
        self.check(state, action).into()
    }

    fn apply_unchecked(&self, state: &mut State, action: &Action, ctx: &mut Ctx<'_, Event>) {
        let side = state.active;
        let s = usize::from(side);
        match action {
            Action::Move { unit, to } => {
                let from = state.at[s];
                if self.ground(*to) == Some(Ground::Mud) && ctx.roll(6, "RACE-3 mud") <= 2 {
                    ctx.emit(Event::Stuck { unit: *unit });
                    self.end_turn(state, ctx);
                    return;
                }
                state.at[s] = *to;
                ctx.emit(Event::Moved {
                    unit: *unit,
                    from,
                    to: *to,
                });
                if state.hands[usize::from(Race::other(side))].is_empty() {
                    self.end_turn(state, ctx);
                } else {
                    state.reaction = Some(from);
                }
            }
            Action::Draw => {
                let card = ctx.roll(6, draw_purpose(&self.sides[s]));
                let card = u8::try_from(card).expect("a d6");
                state.hands[s].push(card);
                ctx.emit(Event::Drew {
                    side: self.sides[s].clone(),
                    card: Some(card),
                });
                self.end_turn(state, ctx);
            }
            Action::Block { card } => {
                let o = usize::from(Race::other(side));
                let i = state.hands[o]
                    .iter()
                    .position(|c| c == card)
                    .expect("legal");
                state.hands[o].remove(i);
                let back = ctx.roll(6, "RACE-5 block") <= u32::from(*card);
                if back {
                    state.at[s] = state.reaction.expect("reacting");
                }
                ctx.emit(Event::Blocked {
                    unit: self.runner[s],
                    card: *card,
                    back,
                });
                self.end_turn(state, ctx);
            }
            Action::Pass => {
                ctx.emit(Event::Passed {
                    side: self.sides[usize::from(Race::other(side))].clone(),
                });
                self.end_turn(state, ctx);
            }
        }
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn view(&self, state: &State, seat: &Seat) -> serde_json::Value {
        let sides: serde_json::Map<String, serde_json::Value> = (0..2)
            .map(|i| {
                let id = &self.sides[i];
                let mut v = json!({
                    "runner": self.names.unit_name(self.runner[i]),
                    "at": self.label(state.at[i]),
                    "cards": state.hands[i].len(),
                });
                if seat.sees_side(id) {
                    v["hand"] = json!(state.hands[i]);
                }
                (id.clone(), v)
            })
            .collect();
        json!({
            "turn": state.turn,
            "active": self.sides[usize::from(state.active)],
            "sides": sides,
            "reaction": state.reaction.is_some(),
            "outcome": state.outcome,
        })
    }

    fn redact(&self, event: &Event, seat: &Seat) -> Option<Event> {
        match event {
            Event::Drew { side, .. } if !seat.sees_side(side) => Some(Event::Drew {
                side: side.clone(),
                card: None,
            }),
            Event::Roll(r) => {
                let hidden = self
                    .sides
                    .iter()
                    .any(|side| r.purpose == draw_purpose(side) && !seat.sees_side(side));
                (!hidden).then(|| event.clone())
            }
            _ => Some(event.clone()),
        }
    }

    fn preview(&self, state: &State, action: &Action) -> Result<Preview, Refusal> {
        let reasons = self.check(state, action)?;
        let chances: Vec<Chance> = match action {
            Action::Move { to, .. } if self.ground(*to) == Some(Ground::Mud) => vec![
                Chance::new(json!({"stuck": true}), 2, 6),
                Chance::new(json!({"stuck": false}), 4, 6),
            ],
            Action::Draw => (1..=6)
                .map(|c| Chance::new(json!({ "card": c }), 1, 6))
                .collect(),
            Action::Block { card } => {
                let n = u64::from(*card).min(6);
                [(true, n), (false, 6 - n)]
                    .into_iter()
                    .filter(|&(_, k)| k > 0)
                    .map(|(back, k)| Chance::new(json!({ "back": back }), k, 6))
                    .collect()
            }
            _ => return Err(Refusal::new("RACE-2", "this action rolls no dice")),
        };
        Ok(Preview {
            roll: "1d6".into(),
            inputs: json!({}),
            outcomes: chances,
            reasons,
        })
    }

    fn reachable(&self, state: &State, unit: UnitId) -> Result<Vec<Reached>, Refusal> {
        let Some(&owner) = self.side_of.get(unit.index()) else {
            return Err(Refusal::new(
                "RACE-2",
                format!("there is no unit number {}", unit.0),
            ));
        };
        if owner != state.active || state.reaction.is_some() || state.outcome.is_some() {
            return Err(Refusal::new("RACE-1", "this runner cannot move now"));
        }
        let mut out = Vec::new();
        for to in state.at[usize::from(owner)].neighbors() {
            if self.check(state, &Action::Move { unit, to }).is_ok() {
                out.push(Reached {
                    hex: to,
                    cost: 1,
                    path: vec![to],
                    stop: self.ground(to) == Some(Ground::Mud),
                });
            }
        }
        Ok(out)
    }
}
