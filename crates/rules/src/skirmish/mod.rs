//! Futile Kingdoms skirmish: small fights between bands of characters, each with a
//! facing, a weapon's reach and a handful of actions a turn; the passive side may react
//! after every hex the active side moves.
//!
//! Files follow the rulebook's chapters: [`turn`] (the sequence of play and victory),
//! [`actions`] (free, quick, complex and melee actions), [`movement`] (the movement
//! phase as `skirmish-movement.txt` writes it), [`zones_of_control`], [`facing`],
//! [`reactions`] (short moves and attacks of opportunity, the passive side's windows),
//! [`charge`], [`melee`], [`statuses`], [`morale`]. The tables are in `data.toml`; rule
//! IDs are listed in `docs/rules/skirmish.md`.
//!
//! ```
//! use grognard_engine::{Game, Ruleset};
//! use grognard_rules::skirmish::Skirmish;
//! let b = grognard_rules::builtin::find("broken-cairn").unwrap();
//! let scenario = grognard_rules::registry().load_scenario(b.path, b.text).unwrap();
//! let game = Game::<Skirmish>::new(scenario, None).unwrap();
//! let first = game.rules().to_act(game.state()).unwrap();
//! assert_eq!((first.side.as_str(), first.kind.as_str()), ("red", "movement"));
//! ```

pub mod actions;
pub mod ai;
pub mod characters;
pub mod charge;
pub mod data;
pub mod facing;
pub mod melee;
pub mod morale;
pub mod movement;
pub mod reactions;
pub mod statuses;
pub mod turn;
pub mod zones_of_control;

use characters::{CharState, Character};
use data::{Data, Shield, TerrainRow, Weapon};
use grognard_engine::scenario::{Edge, Problems, Scenario, Vocabulary};
use grognard_engine::{
    Ctx, Decision, Explanation, Names, Outcome, Preview, Reached, Reason, Refusal, Roll, Ruleset,
    Seat, UnitId,
};
use grognard_hex::{Direction, Hex, MapShape};
use serde::{Deserialize, Serialize};
pub use turn::Phase;

/// The ruleset's name in scenario files.
pub const NAME: &str = "skirmish";

/// The rules of the Futile Kingdoms skirmish bound to one scenario.
#[derive(Debug)]
pub struct Skirmish {
    pub(crate) data: Data,
    pub(crate) names: Names,
    pub(crate) map: MapShape,
    /// Side ids in play order.
    pub(crate) sides: [String; 2],
    /// Each side's home edge, where panicked characters flee (SK-STA-2).
    pub(crate) home: [Edge; 2],
    pub(crate) chars: Vec<Character>,
    /// Each character's weapon and shield rows.
    pub(crate) weapons: Vec<Weapon>,
    pub(crate) shields: Vec<Option<Shield>>,
    /// Terrain row of each hex (index into `terrain_rows`).
    pub(crate) terrain: Vec<u8>,
    pub(crate) terrain_names: Vec<String>,
    pub(crate) terrain_rows: Vec<TerrainRow>,
    /// Game turns before the end (SK-TURN-3).
    pub(crate) turns: u32,
}

/// One character's movement under way: where it has been and whom it has provoked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Movement {
    /// The character moving.
    pub unit: UnitId,
    /// The hexes of this movement, its start first (SK-MOV-18 walks back along them).
    #[serde(with = "grognard_engine::wire::labels")]
    pub path: Vec<Hex>,
    /// The enemies that have had their attack of opportunity against it in this
    /// movement (SK-MOV-9: once per movement).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub provoked: Vec<UnitId>,
}

/// One charger's run in a charge (a formation charge has several, SK-CHG-13).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leg {
    /// The charger's movement.
    #[serde(flatten)]
    pub run: Movement,
    /// The target declared (SK-CHG-2).
    pub target: UnitId,
    /// This charger's run is over (it attacked, was broken or its route closed).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub done: bool,
}

/// A charge under way (SK-CHG-1 to SK-CHG-14).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Charge {
    /// The chargers' runs, the declaring character first.
    pub legs: Vec<Leg>,
    /// The leg whose step is next.
    pub current: usize,
    /// The current leg has just stepped: the next leg steps next (SK-CHG-13).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stepped: bool,
}

/// A window for the passive side inside the active side's movement.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Window {
    /// The active character is about to leave a hex in the zone of control of these
    /// passive characters: each may make its attack of opportunity (SK-MOV-9).
    Opportunity {
        /// The character about to move.
        unit: UnitId,
        /// Where it steps; `None` off the map (a panicked flight).
        #[serde(with = "grognard_engine::wire::opt_label")]
        to: Option<Hex>,
        /// The step is evasive.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        evasive: bool,
        /// Those who have not yet attacked or declined.
        eligible: Vec<UnitId>,
    },
    /// The active character has moved a hex: passive characters may react (SK-MOV-2).
    Reaction {
        /// The character that moved.
        unit: UnitId,
    },
}

/// The changing part of a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Game turn, from 1: both sides' active turns.
    pub turn: u32,
    /// The active side: 0 plays first.
    pub active: u8,
    /// The phase of the active turn.
    pub phase: Phase,
    /// Every character, in scenario order.
    pub chars: Vec<CharState>,
    /// The character moving now, outside a charge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moving: Option<Movement>,
    /// The charge under way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge: Option<Charge>,
    /// The passive side's window, if open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<Window>,
    /// Facing changes made in this phase (no rule limits them; the computer opponent
    /// counts them so that it never turns on the spot for ever).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub turned: u16,
    /// Set once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

fn is_zero(n: &u16) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// What a player does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Step one hex (SK-MOV-3); also each step of a charge (SK-CHG-5) or a panicked
    /// flight (SK-STA-2).
    Move {
        /// The character.
        unit: UnitId,
        /// The adjacent hex.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
        /// Evasive movement: one more point (SK-MOV-14).
        #[serde(default, skip_serializing_if = "is_false")]
        evasive: bool,
    },
    /// Turn to face another hexside: a free action (SK-ACT-4).
    Face {
        /// The character.
        unit: UnitId,
        /// The new facing.
        facing: Direction,
    },
    /// Declare a charge at a target (SK-CHG-2); `together` brings the character's
    /// formation along (SK-CHG-13).
    Charge {
        /// The charger.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// The formation charges with it.
        #[serde(default, skip_serializing_if = "is_false")]
        together: bool,
    },
    /// Defend: a complex action, +2 Melee Defense (SK-ACT-3).
    Defend {
        /// The character.
        unit: UnitId,
    },
    /// A panicked character on its home edge leaves the map (SK-STA-2).
    Flee {
        /// The character.
        unit: UnitId,
    },
    /// Attack an enemy in reach with the melee action (SK-MEL-7).
    Attack {
        /// The attacker.
        unit: UnitId,
        /// The target.
        target: UnitId,
    },
    /// In the opportunity window: attack the character leaving the zone (SK-MOV-9).
    Opportunity {
        /// The passive character attacking.
        unit: UnitId,
        /// The active character leaving.
        target: UnitId,
    },
    /// In the reaction window: spend the quick action on a short move, ending on `to`
    /// (the character's own hex to turn only) facing `facing` (SK-SHM-1 to SK-SHM-3).
    ShortMove {
        /// The passive character.
        unit: UnitId,
        /// Where it ends.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
        /// Its facing at the end.
        facing: Direction,
    },
    /// Close the passive side's window.
    Pass,
    /// End the current phase.
    EndPhase,
}

/// Which attack it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// A melee-phase attack (SK-MEL-7).
    Melee,
    /// A counterattack (SK-CHG-11, SK-MEL-7).
    Counter,
    /// A charge attack (SK-CHG-10).
    Charge,
    /// An attack of opportunity (SK-MEL-5).
    Opportunity,
}

/// One term of an attack or defense total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    /// What it is.
    pub what: String,
    /// Its value.
    pub value: i32,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A die was rolled.
    Roll(Roll),
    /// A phase began.
    PhaseBegan {
        /// Game turn.
        turn: u32,
        /// The active side.
        side: String,
        /// The phase.
        phase: Phase,
    },
    /// A character stepped into a hex (or was put back into one, SK-MOV-18).
    Moved {
        /// The character.
        unit: UnitId,
        /// From.
        #[serde(with = "grognard_engine::wire::label")]
        from: Hex,
        /// To.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
        /// Points spent.
        cost: u8,
        /// Points left.
        left: u8,
        /// The rules that priced or caused the step.
        rules: Vec<String>,
    },
    /// A character turned.
    Faced {
        /// The character.
        unit: UnitId,
        /// Its new facing.
        facing: Direction,
        /// The rule.
        rule: String,
    },
    /// A character's movement ended.
    Halted {
        /// The character.
        unit: UnitId,
        /// The rule.
        rule: String,
        /// Why.
        reason: String,
    },
    /// A charge was declared.
    ChargeDeclared {
        /// The charger.
        unit: UnitId,
        /// Its target.
        target: UnitId,
        /// Its movement points for the charge (SK-CHG-3).
        mp: u8,
        /// Formation members charging with it (SK-CHG-13).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        with: Vec<UnitId>,
    },
    /// A charger's run ended.
    ChargeEnded {
        /// The charger.
        unit: UnitId,
        /// The rule.
        rule: String,
        /// Why.
        reason: String,
    },
    /// A window opened for the passive side.
    WindowOpened {
        /// `reaction` or `opportunity`.
        kind: String,
        /// The side deciding.
        side: String,
        /// The active character concerned.
        unit: UnitId,
    },
    /// The passive side closed its window.
    Passed {
        /// The side.
        side: String,
        /// Which window.
        kind: String,
    },
    /// An attack was resolved.
    Attacked {
        /// The attacker.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// Which attack.
        kind: AttackKind,
        /// The die.
        die: i32,
        /// The attack total without the die.
        attack: i32,
        /// The target's Melee Defense.
        defense: i32,
        /// Die + attack - defense.
        result: i32,
        /// Whether it hit.
        hit: bool,
        /// Damage done.
        damage: u8,
        /// The attack's terms.
        attack_terms: Vec<Term>,
        /// The defense's terms.
        defense_terms: Vec<Term>,
    },
    /// A status began or ended.
    Status {
        /// The character.
        unit: UnitId,
        /// `dazed`, `panicked`, `berserk`, `wounded`, `defending`, `evasive`.
        status: String,
        /// Began (true) or ended.
        on: bool,
        /// The rule.
        rule: String,
        /// Why.
        reason: String,
    },
    /// An action was spent without being taken.
    Spent {
        /// The character.
        unit: UnitId,
        /// `quick_action` or `complex_action`.
        action: String,
        /// The rule.
        rule: String,
    },
    /// A morale-phase check.
    Checked {
        /// The character.
        unit: UnitId,
        /// `dazed_recovery`, `panic_recovery`, `panic_check`, `berserk_recovery`,
        /// `difficult_terrain`.
        check: String,
        /// The die with its modifiers.
        total: i32,
        /// What it needed.
        need: String,
        /// The outcome in words.
        result: String,
        /// The rule.
        rule: String,
    },
    /// A character is out of action.
    OutOfAction {
        /// The character.
        unit: UnitId,
        /// The rule.
        rule: String,
    },
    /// A panicked character left the map.
    Fled {
        /// The character.
        unit: UnitId,
        /// The rule.
        rule: String,
    },
    /// The game ended.
    GameOver {
        /// The result.
        outcome: Outcome,
    },
}

impl From<Roll> for Event {
    fn from(r: Roll) -> Event {
        Event::Roll(r)
    }
}

impl Skirmish {
    pub(crate) fn idx(&self, hex: Hex) -> Option<usize> {
        self.map.index(hex)
    }

    pub(crate) fn label(&self, hex: Hex) -> String {
        self.names.label(hex)
    }

    pub(crate) fn name(&self, u: UnitId) -> &str {
        &self.chars[u.index()].id
    }

    /// A direction's compass name on this map.
    pub(crate) fn dir_name(&self, d: Direction) -> &'static str {
        match self.map.orientation() {
            grognard_hex::Orientation::FlatTop => d.name(),
            grognard_hex::Orientation::PointyTop => d.pointy_name(),
        }
    }

    pub(crate) fn side_name(&self, side: u8) -> &str {
        &self.sides[usize::from(side)]
    }

    pub(crate) fn side_of(&self, u: UnitId) -> u8 {
        self.chars[u.index()].side
    }

    pub(crate) fn ids(&self) -> impl Iterator<Item = UnitId> {
        (0..self.chars.len()).map(|i| UnitId(u16::try_from(i).expect("unit count fits u16")))
    }

    /// The characters of a side, in scenario order.
    pub(crate) fn side_ids(&self, side: u8) -> impl Iterator<Item = UnitId> + '_ {
        self.ids().filter(move |&u| self.side_of(u) == side)
    }

    pub(crate) fn terrain_row(&self, hex: Hex) -> Option<&TerrainRow> {
        self.idx(hex)
            .map(|i| &self.terrain_rows[usize::from(self.terrain[i])])
    }

    pub(crate) fn terrain_name(&self, hex: Hex) -> &str {
        self.idx(hex).map_or("off map", |i| {
            self.terrain_names[usize::from(self.terrain[i])].as_str()
        })
    }

    /// Whether a hex is on the map and may be entered at all.
    pub(crate) fn passable(&self, hex: Hex) -> bool {
        self.terrain_row(hex).is_some_and(|r| !r.impassable)
    }

    /// The characters in a hex (two at most, in Close Quarters).
    pub(crate) fn occupants(state: &State, hex: Hex) -> Vec<UnitId> {
        state
            .chars
            .iter()
            .enumerate()
            .filter(|(_, c)| c.hex == Some(hex))
            .map(|(i, _)| UnitId(u16::try_from(i).expect("unit count fits u16")))
            .collect()
    }

    pub(crate) fn ch(state: &State, u: UnitId) -> &CharState {
        &state.chars[u.index()]
    }

    pub(crate) fn passive(state: &State) -> u8 {
        1 - state.active
    }

    /// Whether an id names a character of this scenario.
    pub(crate) fn exists(&self, u: UnitId) -> bool {
        u.index() < self.chars.len()
    }

    /// The character in the window or movement now moving, if any.
    pub(crate) fn current_run(state: &State) -> Option<&Movement> {
        if let Some(c) = &state.charge {
            return c.legs.get(c.current).map(|l| &l.run);
        }
        state.moving.as_ref()
    }

    pub(crate) fn current_run_mut(state: &mut State) -> Option<&mut Movement> {
        if let Some(c) = &mut state.charge {
            let i = c.current;
            return c.legs.get_mut(i).map(|l| &mut l.run);
        }
        state.moving.as_mut()
    }

    fn check(&self, state: &State, action: &Action) -> Result<Vec<Reason>, Refusal> {
        if state.outcome.is_some() {
            return Err(Refusal::new("SK-TURN-3", "the game is over"));
        }
        let unit = match action {
            Action::Move { unit, .. }
            | Action::Face { unit, .. }
            | Action::Charge { unit, .. }
            | Action::Defend { unit }
            | Action::Flee { unit }
            | Action::Attack { unit, .. }
            | Action::Opportunity { unit, .. }
            | Action::ShortMove { unit, .. } => Some(*unit),
            Action::Pass | Action::EndPhase => None,
        };
        if let Some(u) = unit {
            if !self.exists(u) {
                return Err(Refusal::new("request", "no such character"));
            }
        }
        if let Action::Charge { target, .. }
        | Action::Attack { target, .. }
        | Action::Opportunity { target, .. } = action
        {
            if !self.exists(*target) {
                return Err(Refusal::new("request", "no such target"));
            }
        }
        match action {
            Action::Opportunity { unit, target } => {
                reactions::check_opportunity(self, state, *unit, *target)
            }
            Action::ShortMove { unit, to, facing } => {
                reactions::check_short_move(self, state, *unit, *to, *facing).map(|s| s.reasons)
            }
            Action::Pass => reactions::check_pass(self, state),
            _ if state.window.is_some() => Err(reactions::window_refusal(self, state)),
            Action::EndPhase => turn::check_end_phase(self, state),
            Action::Move { unit, to, evasive } => {
                movement::check_move(self, state, *unit, Some(*to), *evasive).map(|p| p.reasons)
            }
            Action::Flee { unit } => {
                movement::check_move(self, state, *unit, None, false).map(|p| p.reasons)
            }
            Action::Face { unit, facing } => actions::check_face(self, state, *unit, *facing),
            Action::Defend { unit } => actions::check_defend(self, state, *unit),
            Action::Charge {
                unit,
                target,
                together,
            } => charge::check_declare(self, state, *unit, *target, *together).map(|d| d.reasons),
            Action::Attack { unit, target } => melee::check_attack(self, state, *unit, *target),
        }
    }

    /// The legal actions of the movement phase outside a charge: what `check` accepts,
    /// with the phase's gate and each flight's field computed once.
    fn legal_movement(&self, state: &State, out: &mut Vec<Action>) {
        let gate = self.gate(state);
        for u in self.side_ids(state.active) {
            let c = Self::ch(state, u);
            let Some(h) = c.hex else { continue };
            if self.may_move(state, u).is_ok() && gate.admits(self, state, u).is_ok() {
                let field = c.panicked.then(|| self.flight_field(state, u));
                let field = field.as_deref();
                for n in h.neighbors() {
                    if !self.map.contains(n) {
                        continue;
                    }
                    for evasive in [false, true] {
                        if self.step_ok(state, u, Some(n), evasive, field).is_ok() {
                            out.push(Action::Move {
                                unit: u,
                                to: n,
                                evasive,
                            });
                        }
                    }
                }
                if c.panicked && self.step_ok(state, u, None, false, field).is_ok() {
                    out.push(Action::Flee { unit: u });
                }
            }
            if actions::check_defend_in(self, state, &gate, u).is_ok() {
                out.push(Action::Defend { unit: u });
            }
            if !c.moved {
                for t in self.side_ids(Self::passive(state)) {
                    if charge::check_declare_in(self, state, &gate, u, t, false).is_ok() {
                        out.push(Action::Charge {
                            unit: u,
                            target: t,
                            together: false,
                        });
                        if self.chars[u.index()].formation.is_some()
                            && charge::check_declare_in(self, state, &gate, u, t, true).is_ok()
                        {
                            out.push(Action::Charge {
                                unit: u,
                                target: t,
                                together: true,
                            });
                        }
                    }
                }
            }
        }
        let mut faces = Vec::new();
        actions::face_candidates(self, state, &mut faces);
        out.extend(faces.into_iter().filter(|a| self.check(state, a).is_ok()));
        if turn::check_end_phase_in(self, state, &gate).is_ok() {
            out.push(Action::EndPhase);
        }
    }

    /// Every action that might be legal in a charge or the melee phase (a superset:
    /// `legal_actions` keeps those `explain` accepts, so that the two never disagree).
    fn candidates(&self, state: &State, out: &mut Vec<Action>) {
        match state.phase {
            // Outside a charge the movement phase's actions come from `legal_movement`.
            Phase::Movement => {
                if let Some(c) = &state.charge {
                    let leg = &c.legs[c.current];
                    if let Some(h) = Self::ch(state, leg.run.unit).hex {
                        for n in h.neighbors() {
                            if self.map.contains(n) {
                                out.push(Action::Move {
                                    unit: leg.run.unit,
                                    to: n,
                                    evasive: false,
                                });
                            }
                        }
                    }
                }
            }
            Phase::Melee => {
                for u in self.side_ids(state.active) {
                    if !Self::ch(state, u).melee {
                        continue;
                    }
                    for t in self.side_ids(Self::passive(state)) {
                        out.push(Action::Attack { unit: u, target: t });
                    }
                }
                actions::face_candidates(self, state, out);
                out.push(Action::EndPhase);
            }
        }
    }
}

impl Ruleset for Skirmish {
    type State = State;
    type Action = Action;
    type Event = Event;

    const NAME: &'static str = NAME;

    fn vocabulary() -> Vocabulary {
        let data = Data::shipped();
        Vocabulary::new(NAME)
            .terrains(data.terrain.keys().cloned())
            .unit_type(characters::unit_type(&data))
    }

    fn new(s: &Scenario) -> Result<Skirmish, Problems> {
        turn::build(s)
    }

    fn initial_state(&self) -> State {
        turn::initial_state(self)
    }

    fn names(&self) -> &Names {
        &self.names
    }

    fn to_act(&self, state: &State) -> Option<Decision> {
        // SK-TURN-3: nothing is decided once the game is over.
        if state.outcome.is_some() {
            return None;
        }
        Some(match &state.window {
            Some(w) => Decision {
                side: self.side_name(Self::passive(state)).to_owned(),
                kind: reactions::window_kind(w).to_owned(),
                reaction: true,
            },
            None => Decision {
                side: self.side_name(state.active).to_owned(),
                kind: state.phase.name().to_owned(),
                reaction: false,
            },
        })
    }

    fn legal_actions(&self, state: &State, out: &mut Vec<Action>) {
        if state.outcome.is_some() {
            return;
        }
        match (&state.window, state.phase) {
            (Some(Window::Opportunity { unit, eligible, .. }), _) => {
                // The window keeps only those who may strike (reactions::settle_window).
                out.extend(eligible.iter().map(|&e| Action::Opportunity {
                    unit: e,
                    target: *unit,
                }));
                out.push(Action::Pass);
            }
            (Some(Window::Reaction { .. }), _) => {
                reactions::legal_short_moves(self, state, out);
                out.push(Action::Pass);
            }
            (None, Phase::Movement) if state.charge.is_none() => self.legal_movement(state, out),
            _ => {
                let mut all = Vec::new();
                self.candidates(state, &mut all);
                out.extend(all.into_iter().filter(|a| self.check(state, a).is_ok()));
            }
        }
    }

    fn explain(&self, state: &State, action: &Action) -> Explanation {
        Explanation::from(self.check(state, action))
    }

    fn apply_unchecked(&self, state: &mut State, action: &Action, ctx: &mut Ctx<'_, Event>) {
        match action {
            Action::Move { unit, to, evasive } => {
                movement::declare_step(self, state, *unit, Some(*to), *evasive, ctx);
            }
            Action::Flee { unit } => movement::declare_step(self, state, *unit, None, false, ctx),
            Action::Face { unit, facing } => actions::face(self, state, *unit, *facing, ctx),
            Action::Defend { unit } => actions::defend(self, state, *unit, ctx),
            Action::Charge {
                unit,
                target,
                together,
            } => charge::declare(self, state, *unit, *target, *together, ctx),
            Action::Attack { unit, target } => melee::attack(self, state, *unit, *target, ctx),
            Action::Opportunity { unit, target } => {
                reactions::opportunity(self, state, *unit, *target, ctx);
            }
            Action::ShortMove { unit, to, facing } => {
                reactions::short_move(self, state, *unit, *to, *facing, ctx);
            }
            Action::Pass => reactions::pass(self, state, ctx),
            Action::EndPhase => turn::end_phase(self, state, ctx),
        }
        turn::settle(self, state, ctx);
    }

    fn outcome(&self, state: &State) -> Option<Outcome> {
        state.outcome.clone()
    }

    fn view(&self, state: &State, _seat: &Seat) -> serde_json::Value {
        // Nothing is hidden in a skirmish: every seat sees the whole fight.
        turn::view(self, state)
    }

    fn preview(&self, state: &State, action: &Action) -> Result<Preview, Refusal> {
        melee::preview(self, state, action)
    }

    fn reachable(&self, state: &State, unit: UnitId) -> Result<Vec<Reached>, Refusal> {
        movement::reachable(self, state, unit)
    }

    fn evaluate(&self, state: &State, side: &str) -> f64 {
        self.score(state, side)
    }

    fn plans(&self, state: &State, out: &mut Vec<grognard_engine::Plan<Action>>) {
        self.ai_plans(state, out);
    }

    fn pass(&self, state: &State) -> Option<Action> {
        self.ai_pass(state)
    }

    fn turn(&self, state: &State) -> u32 {
        state.turn
    }
}
