//! The [`Ruleset`] trait each rule system implements, and the values it answers with.

use crate::dice::{Ctx, Dice, Roll};
use crate::scenario::{Problems, RawTable, Scenario, Vocabulary};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt::Debug;

/// Who is looking at the game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    /// A player of this side (the scenario's side id).
    Side(String),
    /// Someone who may see only what both sides may see.
    Spectator,
    /// Everything: tests, debugging, the finished game's replay.
    Omniscient,
}

impl Seat {
    /// Whether this seat may see what `side` may see.
    #[must_use]
    pub fn sees_side(&self, side: &str) -> bool {
        match self {
            Seat::Side(s) => s == side,
            Seat::Spectator => false,
            Seat::Omniscient => true,
        }
    }
}

/// Whose decision it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// The side that decides.
    pub side: String,
    /// What kind of decision, in snake_case: the phase (`movement`, `combat`, ...)
    /// or a window the other side gets inside the active side's turn (`reaction`,
    /// `retreat`).
    pub kind: String,
    /// True when this is a window for the side that is not the active one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reaction: bool,
    /// The decision in a short English sentence, with the scenario's names (issue 15).
    /// A ruleset leaves it empty: [`crate::AnyGame::to_act`] writes it from
    /// [`Ruleset::decision_text`].
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

/// Whose decision it is, as [`Decision`] says it but borrowed from the ruleset where it
/// can be: what the searches ask at every step of every simulation, where building two
/// strings each time would cost more than the question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Acting<'a> {
    /// The side that decides ([`Decision::side`]).
    pub side: Cow<'a, str>,
    /// What kind of decision ([`Decision::kind`]).
    pub kind: Cow<'a, str>,
    /// A window for the side that is not the active one ([`Decision::reaction`]).
    pub reaction: bool,
}

impl Acting<'_> {
    /// The decision, owned, its text left empty (as a ruleset's [`Ruleset::to_act`]
    /// leaves it).
    #[must_use]
    pub fn decision(self) -> Decision {
        Decision {
            side: self.side.into_owned(),
            kind: self.kind.into_owned(),
            reaction: self.reaction,
            text: String::new(),
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning side, or `None` for a draw.
    pub winner: Option<String>,
    /// Why, in plain language.
    pub reason: String,
    /// The rule that decided it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// One rule that bears on an action, with a plain-language reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reason {
    /// The rule ID, e.g. `MP-MOV-12`.
    pub rule: String,
    /// Why, in plain language.
    pub message: String,
}

impl Reason {
    /// A reason citing `rule`.
    pub fn new(rule: impl Into<String>, message: impl Into<String>) -> Reason {
        Reason {
            rule: rule.into(),
            message: message.into(),
        }
    }
}

/// An action refused: every rule that forbids it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{}", .reasons.iter().map(|r| format!("{}: {}", r.rule, r.message)).collect::<Vec<_>>().join("; "))]
pub struct Refusal {
    /// The rules broken, at least one.
    pub reasons: Vec<Reason>,
}

impl Refusal {
    /// A refusal for one reason.
    pub fn new(rule: impl Into<String>, message: impl Into<String>) -> Refusal {
        Refusal {
            reasons: vec![Reason::new(rule, message)],
        }
    }

    /// The first rule ID.
    #[must_use]
    pub fn rule(&self) -> &str {
        self.reasons.first().map_or("", |r| r.rule.as_str())
    }
}

/// Why an action is legal or not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explanation {
    /// Whether `apply` would take it.
    pub legal: bool,
    /// For a legal action, the rules that shape its result; for an illegal one,
    /// the rules that forbid it.
    pub reasons: Vec<Reason>,
}

impl From<Result<Vec<Reason>, Refusal>> for Explanation {
    /// A check's answer as an explanation: the reasons that shape a legal action's
    /// result, or the rules a refused one breaks.
    fn from(result: Result<Vec<Reason>, Refusal>) -> Explanation {
        match result {
            Ok(reasons) => Explanation {
                legal: true,
                reasons,
            },
            Err(r) => Explanation {
                legal: false,
                reasons: r.reasons,
            },
        }
    }
}

/// One possible result of the random part of an action, with its exact probability.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chance {
    /// The result, as the ruleset describes it (e.g. `{"attacker": 1, "defender": 2}`).
    pub result: serde_json::Value,
    /// Probability numerator.
    pub num: u64,
    /// Probability denominator.
    pub den: u64,
    /// The same probability as a float, for display.
    pub p: f64,
    /// The result in a short English sentence, with the scenario's names (issue 15):
    /// "Oswy is wounded". Empty, and left out of the JSON, until the ruleset writes it
    /// ([`Chance::with_text`]).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

impl Chance {
    /// A chance of `num` in `den`.
    #[must_use]
    pub fn new(result: serde_json::Value, num: u64, den: u64) -> Chance {
        #[expect(clippy::cast_precision_loss, reason = "display only")]
        let p = num as f64 / den as f64;
        Chance {
            result,
            num,
            den,
            p,
            text: String::new(),
        }
    }

    /// The same chance with its sentence.
    #[must_use]
    pub fn with_text(self, text: impl Into<String>) -> Chance {
        Chance {
            text: text.into(),
            ..self
        }
    }
}

/// The exact distribution of an action's random results, before the dice roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Preview {
    /// What will be rolled, e.g. `1d6` or `3 battle dice`.
    pub roll: String,
    /// What the numbers feeding the roll are (odds, modifiers), as the ruleset shows them.
    #[serde(default)]
    pub inputs: serde_json::Value,
    /// Every distinct result with its probability; the probabilities add up to 1.
    pub outcomes: Vec<Chance>,
    /// The rules that set the distribution.
    #[serde(default)]
    pub reasons: Vec<Reason>,
}

/// A hex a unit can reach, with its cost and path (labels in the JSON form).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reached {
    /// The hex reached.
    #[serde(with = "crate::wire::label")]
    pub hex: grognard_hex::Hex,
    /// Movement points spent to get there.
    pub cost: u32,
    /// The hexes entered, from the first step to `hex`.
    #[serde(with = "crate::wire::labels")]
    pub path: Vec<grognard_hex::Hex>,
    /// True when the unit must stop there (e.g. an enemy zone of control).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stop: bool,
}

/// A rule system, bound to one validated scenario.
///
/// Construct one per scenario with [`Ruleset::new`]; it holds the scenario's static
/// data (map, terrain, tables) so that states hold only what changes. All methods
/// are deterministic: randomness comes only through the [`Ctx`] of `apply`.
pub trait Ruleset: Sized + Send + Sync + 'static {
    /// The changing part of a game.
    type State: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What a player does; JSON objects with a snake_case `"type"`.
    type Action: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What happened; JSON objects with a snake_case `"type"`. Rolls are events too.
    type Event: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + From<Roll>;

    /// The ruleset's name as scenario files write it, e.g. `morne_plaine`.
    const NAME: &'static str;

    /// The words a scenario of this ruleset may use.
    fn vocabulary() -> Vocabulary;

    /// Binds the rules to a scenario, checking what the vocabulary cannot
    /// (e.g. a leader's values); every problem at once, each located.
    ///
    /// # Errors
    /// The scenario's problems for this ruleset.
    fn new(scenario: &Scenario) -> Result<Self, Problems>;

    /// The state before the first action.
    fn initial_state(&self) -> Self::State;

    /// The unit names and map used to write actions and events as JSON.
    fn names(&self) -> &crate::wire::Names;

    /// Whose decision it is, or `None` once the game is over.
    fn to_act(&self, state: &Self::State) -> Option<Decision>;

    /// [`Ruleset::to_act`] without its owned strings. A ruleset that keeps its side
    /// names overrides it to lend them; by default it is `to_act`, copied.
    fn acting(&self, state: &Self::State) -> Option<Acting<'_>> {
        self.to_act(state).map(|d| Acting {
            side: Cow::Owned(d.side),
            kind: Cow::Owned(d.kind),
            reaction: d.reaction,
        })
    }

    /// Every legal action for the side to act, appended to `out`.
    fn legal_actions(&self, state: &Self::State, out: &mut Vec<Self::Action>);

    /// Why `action` is legal or not. A legal action must also be in
    /// [`Ruleset::legal_actions`], and the other way round.
    fn explain(&self, state: &Self::State, action: &Self::Action) -> Explanation;

    /// Whether `action` is legal: [`Ruleset::explain`]'s `legal` without its reasons.
    /// The searches ask it at every step of every simulation; a ruleset whose reasons
    /// cost words (formatted messages) answers it without writing them. It must agree
    /// with `explain` on every action.
    fn allows(&self, state: &Self::State, action: &Self::Action) -> bool {
        self.explain(state, action).legal
    }

    /// Applies an action already known to be legal, recording its events and rolls
    /// through `ctx`. The fast path for playouts: it does not check legality.
    fn apply_unchecked(
        &self,
        state: &mut Self::State,
        action: &Self::Action,
        ctx: &mut Ctx<'_, Self::Event>,
    );

    /// Checks the action, then applies it.
    ///
    /// # Errors
    /// The refusal, with the rules broken; the state is then unchanged.
    fn apply(
        &self,
        state: &mut Self::State,
        action: &Self::Action,
        ctx: &mut Ctx<'_, Self::Event>,
    ) -> Result<(), Refusal> {
        let e = self.explain(state, action);
        if !e.legal {
            return Err(Refusal { reasons: e.reasons });
        }
        self.apply_unchecked(state, action, ctx);
        Ok(())
    }

    /// The result once the game is over.
    fn outcome(&self, state: &Self::State) -> Option<Outcome>;

    /// What `seat` may see of the state, as JSON: hidden information (cards in
    /// hand, deck order) never appears for a seat that may not know it.
    fn view(&self, state: &Self::State, seat: &Seat) -> serde_json::Value;

    /// [`Ruleset::view`] as JSON text, byte for byte what `view(..).to_string()` gives
    /// (keys in order, as a `serde_json::Value` writes them). A ruleset may write it
    /// straight from its state, without building the `Value` tree first: the server
    /// sends this text with every game object.
    fn view_text(&self, state: &Self::State, seat: &Seat) -> String {
        self.view(state, seat).to_string()
    }

    /// True when every seat, spectators included, sees the same view in every state
    /// (a ruleset without hidden information): then one view an action serves every
    /// seat. False, the default, asks for a view per seat.
    fn views_are_public(&self) -> bool {
        false
    }

    /// Whether some seat's view of `state` differs from a spectator's, when the
    /// ruleset knows it without building the views: `Some(false)` for public views
    /// ([`Ruleset::views_are_public`]), else `None` (the default), and the caller
    /// compares the views. A ruleset that answers must answer as the comparison would.
    fn views_differ(&self, state: &Self::State) -> Option<bool> {
        let _ = state;
        self.views_are_public().then_some(false)
    }

    /// An event in a short English sentence, as the log shows it: "Oswy attacks
    /// Captain Aldren and wounds him". Units and sides go by their scenario names
    /// ([`crate::wire::Names::unit_title`], [`crate::wire::Names::side_title`]), never
    /// by their ids, and no `{`, no snake_case word. The sentence depends on the rules
    /// bound to the scenario and the event alone, not on the state, so that a log
    /// entry can be written at any time after (a replay, the tail of a long log) from
    /// the event as recorded; an event that needs more names it itself.
    fn event_text(&self, event: &Self::Event) -> String;

    /// Whose decision it is, in a short English sentence. The default names the side
    /// and the kind of decision ("Blue corps: movement"); a ruleset that knows better
    /// words writes its own.
    fn decision_text(&self, state: &Self::State, decision: &Decision) -> String {
        let _ = state;
        let side = self.names().side_title(&decision.side);
        let kind = decision.kind.replace('_', " ");
        if decision.reaction {
            format!("{side} may answer: {kind}")
        } else {
            format!("{side} to act: {kind}")
        }
    }

    /// An event as `seat` may see it; `None` hides it entirely.
    fn redact(&self, event: &Self::Event, seat: &Seat) -> Option<Self::Event> {
        let _ = seat;
        Some(event.clone())
    }

    /// The exact distribution of an action's random results.
    ///
    /// # Errors
    /// A refusal when the action is illegal or has no random part.
    fn preview(&self, state: &Self::State, action: &Self::Action) -> Result<Preview, Refusal>;

    /// How good the state is for `side`, for the computer opponent: higher is better.
    /// The scale is the ruleset's; only comparisons between states matter. The
    /// default knows nothing and makes the computer play at random.
    fn evaluate(&self, state: &Self::State, side: &str) -> f64 {
        let _ = (state, side);
        0.0
    }

    /// The evaluation's parts for `side`, named, each with the weight it has in
    /// [`Ruleset::evaluate`] (which is the sum of weight × value, give or take
    /// rounding), appended to `out`, for fitting the weights to the results of games
    /// (`grognard calibrate --terms`). A term may have weight 0: a candidate the
    /// evaluation does not use yet. The default gives none.
    fn evaluation_terms(&self, state: &Self::State, side: &str, out: &mut Vec<Term>) {
        let _ = (state, side, out);
    }

    /// The hexes a unit can reach now, with costs and paths.
    ///
    /// # Errors
    /// A refusal when the unit cannot move now.
    fn reachable(&self, state: &Self::State, unit: crate::UnitId) -> Result<Vec<Reached>, Refusal>;

    /// The choices of the side to act at the scale a player thinks, for the computer
    /// opponent, appended to `out`: a unit's whole move to a destination, an attack,
    /// the card to play. Each [`Plan`] expands into atomic actions that the rules
    /// check one by one. A ruleset that moves step by step should offer each unit's
    /// destinations (from [`Ruleset::reachable`]) once, so that no plan undoes another
    /// and the computer cannot walk a unit back and forth.
    ///
    /// The default offers every legal action as a plan of one step.
    fn plans(&self, state: &Self::State, out: &mut Vec<Plan<Self::Action>>) {
        let mut legal = Vec::new();
        self.legal_actions(state, &mut legal);
        out.extend(legal.into_iter().map(Plan::single));
    }

    /// The action that ends the current phase or lets a window pass, when there is
    /// one: the computer always keeps it among its choices, and falls back on it
    /// once a phase has gone on too long. The default knows none.
    fn pass(&self, state: &Self::State) -> Option<Self::Action> {
        let _ = state;
        None
    }

    /// Replaces, in place, what `seat` may not see (the other side's hand, the order
    /// of the deck) by a sample consistent with what it may see, drawing from `dice`.
    /// The computer searches such samples so that it never reads hidden
    /// information. The default, for rulesets without hidden information, leaves the
    /// state as it is.
    fn determinize(&self, state: &mut Self::State, seat: &Seat, dice: &mut Dice) {
        let _ = (state, seat, dice);
    }

    /// The state as the `[position]` part of a scenario file (issue 19, item 4): a
    /// scenario holding it starts where `state` stands. The default writes the state
    /// as it serialises; a ruleset gives its [`crate::position::Shape`] so that units
    /// go by id and sides by name.
    fn write_position(&self, scenario: &Scenario, state: &Self::State) -> toml::Table {
        crate::position::write(self, scenario, state, &crate::position::Shape::default())
    }

    /// Reads the `[position]` part of `scenario` over its start: the state a game of
    /// it begins in. Whatever the part leaves out keeps the start's value.
    ///
    /// # Errors
    /// Every problem of the part, each located in the file: unknown keys, units,
    /// sides or cards, values out of range.
    fn read_position(
        &self,
        scenario: &Scenario,
        position: &RawTable,
    ) -> Result<Self::State, Problems> {
        crate::position::read(self, scenario, position, &crate::position::Shape::default())
    }

    /// The game turn, for the computer's cut-offs and its discount of later results.
    /// The default, 0, makes every state the same turn.
    fn turn(&self, state: &Self::State) -> u32 {
        let _ = state;
        0
    }
}

/// One part of a ruleset's evaluation ([`Ruleset::evaluation_terms`]): its name, its
/// value in a position and the weight it is multiplied by.
///
/// ```
/// use grognard_engine::ruleset::Term;
/// let t = Term::new("strength", 12.0, 3.0);
/// assert_eq!(t.weighted(), 36.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Term {
    /// A short name, the same in every position of the ruleset.
    pub name: &'static str,
    /// The term's value from the side's view.
    pub value: f64,
    /// Its weight in the evaluation.
    pub weight: f64,
}

impl Term {
    /// A term.
    #[must_use]
    pub fn new(name: &'static str, value: f64, weight: f64) -> Term {
        Term {
            name,
            value,
            weight,
        }
    }

    /// What it adds to the evaluation.
    #[must_use]
    pub fn weighted(&self) -> f64 {
        self.value * self.weight
    }
}

/// A macro-move: one choice of the computer opponent, expanded into the atomic
/// actions the engine checks.
///
/// ```
/// use grognard_engine::ruleset::Plan;
/// let p = Plan::single("end_phase");
/// assert_eq!(p.steps, vec!["end_phase"]);
/// assert!(p.unit.is_none());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan<A> {
    /// The unit the plan moves or uses, if any: the computer keeps only the most
    /// promising plans of each unit.
    pub unit: Option<crate::UnitId>,
    /// The actions in order; the first is legal in the state the plan was made for,
    /// the others are checked as they come.
    pub steps: Vec<A>,
}

impl<A> Plan<A> {
    /// A plan of one action, for no particular unit.
    pub fn single(action: A) -> Plan<A> {
        Plan {
            unit: None,
            steps: vec![action],
        }
    }

    /// A plan of one unit's actions.
    pub fn of_unit(unit: crate::UnitId, steps: Vec<A>) -> Plan<A> {
        Plan {
            unit: Some(unit),
            steps,
        }
    }
}
