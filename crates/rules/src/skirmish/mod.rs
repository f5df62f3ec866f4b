//! Futile Kingdoms skirmish: small fights between bands of characters, each with a
//! facing, a weapon's reach and a handful of actions a turn; the passive side may react
//! after every hex the active side moves.
//!
//! This file holds the types and the `Ruleset` impl, which delegates. [`turn`] is the
//! sequencer (phases, who decides, which chapter answers an action); `setup` binds a
//! scenario, `view` shows the fight (and the reachable hexes and a preview's odds).
//! The other files follow the rulebook's chapters, each returning what happened so
//! that the sequencer decides what comes next: [`actions`] (free, quick, complex and
//! melee actions), [`movement`] (the movement phase and the pricing of every step),
//! [`short_move`], [`zones_of_control`], [`facing`], [`reactions`] (the passive side's
//! windows: attacks of opportunity, short moves and reaction fire), [`maneuver`] (short
//! moves as the result of a Maneuver), [`missile`] (the missile phase, shots, reaction
//! fire, missile evasion), [`charge`], [`combat`] (the attacks' kinds and terms),
//! [`melee`], [`statuses`], [`morale`]. The route searches are in `board` (machinery,
//! not rules). The tables are in `data.toml`; rule IDs are listed in
//! `docs/rules/skirmish.md`.
//!
//! ```
//! use grognard_engine::{Game, Ruleset};
//! use grognard_rules::skirmish::Skirmish;
//! let b = grognard_rules::builtin::find("broken-cairn").unwrap();
//! let scenario = grognard_rules::registry().load_scenario(b.path, b.text).unwrap();
//! let game = Game::<Skirmish>::new(scenario, None).unwrap();
//! let first = game.rules().to_act(game.state()).unwrap();
//! // Tam may sling a stone: red's turn opens with the missile phase (SK-MIS-1).
//! assert_eq!((first.side.as_str(), first.kind.as_str()), ("red", "missile"));
//! ```

pub mod actions;
pub mod ai;
mod board;
pub mod characters;
pub mod charge;
mod charge_kept;
mod charge_odds;
mod charge_path;
pub mod combat;
mod crowd;
pub mod data;
pub mod facing;
mod gate;
mod kept_list;
pub mod maneuver;
pub mod melee;
pub mod missile;
pub mod morale;
pub mod movement;
pub mod position;
pub mod reactions;
mod setup;
pub mod short_move;
mod stamp;
pub mod statuses;
pub mod step;
#[cfg(test)]
mod test_games;
mod text;
pub mod turn;
mod view;
mod walks;
pub mod zones_of_control;

use crate::common::{skeleton::skeleton, state::clone_by_field, text::Text};
use characters::{CharState, Character};
pub use combat::{AttackKind, Term};
use data::{Data, Missile, Shield, TerrainRow, Weapon};
use grognard_engine::scenario::{Edge, Vocabulary};
use grognard_engine::{Names, Outcome, Preview, Reached, Refusal, Roll, Ruleset, UnitId};
use grognard_hex::{Direction, Hex, MapShape};
use serde::{Deserialize, Serialize};

/// The ruleset's name in scenario files.
pub const NAME: &str = "skirmish";

/// A phase of an active turn in which the active side decides. The missile phase passes
/// by itself when nobody can shoot (SK-MIS-1), and the morale phase asks nothing of the
/// players (SK-TURN-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Characters with missile weapons shoot (SK-MIS-1).
    Missile,
    /// Characters move, charge and react.
    Movement,
    /// Characters attack.
    Melee,
}

impl Phase {
    /// The phase's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Phase::Missile => "missile",
            Phase::Movement => "movement",
            Phase::Melee => "melee",
        }
    }
}

/// The number of the active turn, from 0: two a game turn.
pub(crate) fn half(state: &State) -> u32 {
    (state.turn - 1) * 2 + u32::from(state.active)
}

/// The rules of the Futile Kingdoms skirmish bound to one scenario.
#[derive(Debug)]
pub struct Skirmish {
    pub(crate) data: Data,
    pub(crate) names: Names,
    pub(crate) map: MapShape,
    /// Side ids in play order (shared with the events that name them).
    pub(crate) sides: [Text; 2],
    /// Each side's home edge, where panicked characters flee (SK-STA-2).
    pub(crate) home: [Edge; 2],
    pub(crate) chars: Vec<Character>,
    /// Each character's weapon and shield rows.
    pub(crate) weapons: Vec<Weapon>,
    pub(crate) shields: Vec<Option<Shield>>,
    /// Each character's missile weapon, if any (SK-MIS-2).
    pub(crate) missiles: Vec<Option<Missile>>,
    /// Terrain row of each hex (index into `terrain_rows`).
    pub(crate) terrain: Vec<u8>,
    pub(crate) terrain_names: Vec<String>,
    pub(crate) terrain_rows: Vec<TerrainRow>,
    /// Game turns before the end (SK-TURN-3).
    pub(crate) turns: u32,
    /// The map by index for the least-cost fields (`board`).
    pub(crate) cells: board::Cells,
    /// The indices of each side's home edge hexes (SK-STA-2), in map order.
    pub(crate) edges: [Vec<usize>; 2],
    /// This binding's number, told apart from every other in the kept fields (`board`).
    pub(crate) id: u64,
    /// Each character's side, read in the hot loops without touching `chars`.
    pub(crate) side_of_char: Vec<u8>,
    /// Each side's characters in scenario order (`Skirmish::side_ids`).
    pub(crate) side_members: [Vec<UnitId>; 2],
}

/// One character's movement under way: where it has been and whom it has provoked.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Movement {
    /// The character moving.
    pub unit: UnitId,
    /// The hexes of this movement, its start first (SK-MOV-18 walks back along them).
    #[serde(with = "grognard_engine::wire::labels")]
    pub path: Vec<Hex>,
    /// The enemies that made their attack of opportunity on it in this movement (SK-MOV-9).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub provoked: Vec<UnitId>,
}

clone_by_field!(Movement: unit, path, provoked);

/// One charger's run in a charge (a formation charge has several, SK-CHG-13).
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
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

clone_by_field!(Leg: run, target, done);

/// A charge under way (SK-CHG-1 to SK-CHG-14).
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Charge {
    /// The chargers' runs, the declaring character first.
    pub legs: Vec<Leg>,
    /// The leg whose step is next.
    pub current: usize,
    /// The current leg has just stepped: the next leg steps next (SK-CHG-13).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stepped: bool,
}

clone_by_field!(Charge: legs, current, stepped);

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

/// The changing part of a game. Code that changes its fields by hand, after actions
/// were applied to it, calls [`State::edited`].
#[derive(PartialEq, Eq, Serialize, Deserialize)]
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
    /// Which state this is (the kept list's bookkeeping, `stamp.rs`; never part of the
    /// game: not written, not compared, not shown).
    #[serde(skip)]
    pub(crate) stamp: stamp::Stamp,
}

clone_by_field!(State: turn, active, phase, chars, moving, charge, window, turned, outcome, stamp);

fn is_zero(n: &u16) -> bool {
    *n == 0
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
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
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
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
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
    /// Shoot an enemy with a missile weapon, spending the Quick Action: in the active
    /// side's missile phase (SK-MIS-1), or in the reaction window at the character that
    /// just moved, as reaction fire (SK-MIS-4).
    Shoot {
        /// The shooter.
        unit: UnitId,
        /// The target.
        target: UnitId,
    },
    /// In the melee phase: spend the Melee Action on a Maneuver, a short move ending on
    /// `to` (SK-SHM-4); the character keeps its facing (it turns freely in its own
    /// melee phase, SK-ACT-4).
    Maneuver {
        /// The Engaged character of the active side.
        unit: UnitId,
        /// Where it ends.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
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
        side: Text,
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
        rules: Vec<Text>,
    },
    /// A character turned.
    Faced {
        /// The character.
        unit: UnitId,
        /// Its new facing.
        facing: Direction,
        /// The rule.
        rule: Text,
    },
    /// A character's movement ended.
    Halted {
        /// The character.
        unit: UnitId,
        /// The rule.
        rule: Text,
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
        rule: Text,
        /// Why.
        reason: String,
    },
    /// A window opened for the passive side.
    WindowOpened {
        /// `reaction` or `opportunity`.
        kind: Text,
        /// The side deciding.
        side: Text,
        /// The active character concerned.
        unit: UnitId,
    },
    /// The passive side closed its window.
    Passed {
        /// The side.
        side: Text,
        /// Which window.
        kind: Text,
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
        status: Text,
        /// Began (true) or ended.
        on: bool,
        /// The rule.
        rule: Text,
        /// Why.
        reason: String,
    },
    /// An action was spent without being taken.
    Spent {
        /// The character.
        unit: UnitId,
        /// `quick_action`, `complex_action` or `melee_action`.
        action: Text,
        /// The rule.
        rule: Text,
    },
    /// A morale-phase check.
    Checked {
        /// The character.
        unit: UnitId,
        /// `dazed_recovery`, `panic_recovery`, `panic_check`, `berserk_recovery`,
        /// `difficult_terrain`.
        check: Text,
        /// The die with its modifiers.
        total: i32,
        /// What it needed.
        need: String,
        /// The outcome in words.
        result: String,
        /// The rule.
        rule: Text,
    },
    /// A character is out of action.
    OutOfAction {
        /// The character.
        unit: UnitId,
        /// The rule.
        rule: Text,
    },
    /// A panicked character left the map.
    Fled {
        /// The character.
        unit: UnitId,
        /// The rule.
        rule: Text,
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

    /// A character as sentences name it: its scenario name.
    pub(crate) fn name(&self, u: UnitId) -> &str {
        self.names.unit_title(u)
    }

    /// A character's scenario id, for JSON.
    pub(crate) fn id(&self, u: UnitId) -> &str {
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

    /// A side as sentences name it: its scenario name.
    pub(crate) fn side_title(&self, side: u8) -> &str {
        self.names.side_title(self.side_name(side))
    }

    pub(crate) fn side_of(&self, u: UnitId) -> u8 {
        self.side_of_char[u.index()]
    }

    pub(crate) fn ids(&self) -> impl Iterator<Item = UnitId> {
        (0..self.chars.len()).map(|i| UnitId(u16::try_from(i).expect("unit count fits u16")))
    }

    /// The characters of a side, in scenario order.
    pub(crate) fn side_ids(&self, side: u8) -> impl Iterator<Item = UnitId> + '_ {
        self.side_members
            .get(usize::from(side))
            .into_iter()
            .flatten()
            .copied()
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

    /// The characters in a hex, in scenario order, without listing them.
    pub(crate) fn occupants_of(state: &State, hex: Hex) -> impl Iterator<Item = UnitId> + '_ {
        state
            .chars
            .iter()
            .enumerate()
            .filter(move |(_, c)| c.hex == Some(hex))
            .map(|(i, _)| UnitId(u16::try_from(i).expect("unit count fits u16")))
    }

    /// Whether anyone stands in a hex.
    pub(crate) fn occupied(state: &State, hex: Hex) -> bool {
        state.chars.iter().any(|c| c.hex == Some(hex))
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
}

impl Ruleset for Skirmish {
    // The items every ruleset delegates alike; below, this ruleset's own.
    skeleton! {
        types, new, initial_state, names, to_act, legal_actions, explain, apply_unchecked,
        outcome, view, turn, position, evaluation,
        // Nothing is hidden in a skirmish: every seat sees the whole fight.
        public_views
    }

    fn vocabulary() -> Vocabulary {
        let data = Data::shipped();
        Vocabulary::new(NAME)
            .terrains(data.terrain.keys().cloned())
            .unit_type(characters::unit_type(&data))
    }

    fn allows(&self, state: &State, action: &Action) -> bool {
        turn::allows(self, state, action)
    }

    fn event_text(&self, event: &Event) -> String {
        text::event(self, event)
    }

    fn preview(&self, state: &State, action: &Action) -> Result<Preview, Refusal> {
        let mut preview = view::preview(self, state, action)?;
        text::preview(self, &mut preview);
        Ok(preview)
    }

    fn reachable(&self, state: &State, unit: UnitId) -> Result<Vec<Reached>, Refusal> {
        view::reachable(self, state, unit)
    }

    fn plans(&self, state: &State, out: &mut Vec<grognard_engine::Plan<Action>>) {
        self.ai_plans(state, out);
    }

    fn pass(&self, state: &State) -> Option<Action> {
        self.ai_pass(state)
    }
}
