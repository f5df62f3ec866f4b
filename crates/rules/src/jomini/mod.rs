//! JOMINI V2: activations, manoeuvre orders, the movement chapter, dice combat with
//! symbols, retreats by troop type, victory by units eliminated.
//!
//! [`setup`] binds a scenario, [`turn`] is the sequencer (the sequence of a turn, whose
//! decision it is, the dispatch; [`sequence`] the first gate of every action), [`view`]
//! what each seat sees, `board.rs` where pieces stand (a lookup by map index, not a
//! rule). The other files follow the rulebook's chapters: [`command`] (activations),
//! [`orders`] (order tokens and manoeuvre orders), [`movement`] (chapter 4, the seed
//! text; `routes.rs` its search of the ways a move may go), [`combat`] (the six-symbol
//! die, support), [`retreat`], [`victory`]; [`units`] holds troop types and weights. The
//! tables are in `data.toml`; rule IDs are listed in `docs/rules/jomini.md`. The symbol
//! dice, losses and retreats toward an edge shared with Battle Cry are in
//! [`crate::commands_colors`], over the engine's [`grognard_engine::dice_pool`] and
//! [`grognard_engine::retreat`].
//!
//! ```
//! use grognard_engine::{Game, Ruleset};
//! use grognard_rules::jomini::Jomini;
//!
//! let b = grognard_rules::builtin::find("passage-of-the-saale").unwrap();
//! let scenario = grognard_rules::registry().load_scenario(b.path, b.text).unwrap();
//! let mut game = Game::<Jomini>::new(scenario, Some(7)).unwrap();
//! assert_eq!(game.rules().to_act(game.state()).unwrap().kind, "command");
//! let first = game.legal_actions().remove(0);
//! game.apply(first).unwrap();
//! ```

pub mod ai;
mod board;
pub mod combat;
pub mod command;
pub mod data;
pub mod movement;
pub mod orders;
pub mod position;
pub mod retreat;
mod routes;
pub mod sequence;
pub mod setup;
mod text;
pub mod turn;
pub mod units;
pub mod victory;
pub mod view;

use crate::common::{skeleton::skeleton, state::clone_by_field};
pub(crate) use board::Board;
use data::{Data, Face};
use grognard_engine::scenario::{Edge, Problems, Scenario, Vocabulary};
use grognard_engine::{Names, Outcome, Preview, Reached, Refusal, Roll, Ruleset, UnitId};
use grognard_hex::{Hex, MapShape};
use serde::{Deserialize, Serialize};
pub use units::Piece;

/// The ruleset's name in scenario files.
pub const NAME: &str = "jomini";

/// A phase of the turn (JO-TURN-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Activations and manoeuvre orders.
    Command,
    /// Chapter 4.
    Movement,
    /// Combat; ending it ends the turn.
    Combat,
}

impl Phase {
    /// The phase's name, as decisions give it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Phase::Command => "command",
            Phase::Movement => "movement",
            Phase::Combat => "combat",
        }
    }
}

/// A manoeuvre order (JO-ORD-4 to JO-ORD-12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrderKind {
    /// Mount or dismount a unit with mounts.
    Mount,
    /// A light unit scouts.
    Reconnaissance,
    /// +1 hex, and may still fight.
    ForcedMarch,
    /// Difficult terrain counts as clear, per hex bought.
    WoodsRunner,
    /// One more unit activated, of any kind, anywhere.
    Courier,
    /// One officer's activated units may be of mixed kinds.
    CombinedAttack,
    /// One officer's activated units may be anywhere.
    Manoeuvre,
    /// Forced march for all of one officer's activated units.
    ForwardMarch,
    /// A second command phase this turn.
    GeneralAssault,
}

impl OrderKind {
    /// Every order, cheapest first.
    pub const ALL: [OrderKind; 9] = [
        OrderKind::Mount,
        OrderKind::Reconnaissance,
        OrderKind::ForcedMarch,
        OrderKind::WoodsRunner,
        OrderKind::Courier,
        OrderKind::CombinedAttack,
        OrderKind::Manoeuvre,
        OrderKind::ForwardMarch,
        OrderKind::GeneralAssault,
    ];

    /// The order's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            OrderKind::Mount => "mount",
            OrderKind::Reconnaissance => "reconnaissance",
            OrderKind::ForcedMarch => "forced_march",
            OrderKind::WoodsRunner => "woods_runner",
            OrderKind::Courier => "courier",
            OrderKind::CombinedAttack => "combined_attack",
            OrderKind::Manoeuvre => "manoeuvre",
            OrderKind::ForwardMarch => "forward_march",
            OrderKind::GeneralAssault => "general_assault",
        }
    }

    /// The order as sentences name it: "forced march".
    #[must_use]
    pub fn title(self) -> &'static str {
        match self {
            OrderKind::Mount => "mount",
            OrderKind::Reconnaissance => "reconnaissance",
            OrderKind::ForcedMarch => "forced march",
            OrderKind::WoodsRunner => "woods runner",
            OrderKind::Courier => "courier",
            OrderKind::CombinedAttack => "combined attack",
            OrderKind::Manoeuvre => "manoeuvre",
            OrderKind::ForwardMarch => "forward march",
            OrderKind::GeneralAssault => "general assault",
        }
    }

    /// The order's rule ID.
    #[must_use]
    pub fn rule(self) -> &'static str {
        match self {
            OrderKind::Mount => "JO-ORD-4",
            OrderKind::Reconnaissance => "JO-ORD-5",
            OrderKind::ForcedMarch => "JO-ORD-6",
            OrderKind::WoodsRunner => "JO-ORD-7",
            OrderKind::Courier => "JO-ORD-8",
            OrderKind::CombinedAttack => "JO-ORD-9",
            OrderKind::Manoeuvre => "JO-ORD-10",
            OrderKind::ForwardMarch => "JO-ORD-11",
            OrderKind::GeneralAssault => "JO-ORD-12",
        }
    }
}

/// One activation of the turn: an officer and the units it activates (JO-CMD-1), or a
/// unit activated by a courier or sent to scout.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// The officer leading it; `None` for a courier's or a scout's single unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub officer: Option<UnitId>,
    /// Units activated in it (the officer not counted).
    pub units: u8,
    /// Combined attack: mixed kinds allowed (JO-ORD-9).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub combined: bool,
    /// Manoeuvre: units anywhere (JO-ORD-10).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub anywhere: bool,
    /// Forward march: forced march for all its units (JO-ORD-11).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forward: bool,
}

/// What changes about a unit or officer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceState {
    /// Where it stands; `None` off the table (waiting, exited or eliminated).
    #[serde(default, with = "grognard_engine::wire::opt_label")]
    pub hex: Option<Hex>,
    /// Stands left; 0 once eliminated.
    pub strength: u8,
    /// A reinforcement not yet on the table (JO-MOV-26).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub waiting: bool,
    /// Left the table by the scenario's leave (JO-MOV-23).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exited: bool,
    /// Riding its mounts (JO-MOV-18).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mounted: bool,
    /// The activation it belongs to this turn, an index into [`State::groups`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u8>,
    /// It moved this turn (JO-MOV-2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub moved: bool,
    /// Hexes it moved this turn.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub hexes: u8,
    /// It may not fight this turn: it moved without combat, marched on a road or scouted.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_combat: bool,
    /// It attacked this turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attacked: bool,
    /// Forced march ordered (JO-ORD-6).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forced: bool,
    /// Hexes of difficult terrain bought by woods-runner (JO-ORD-7).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub woods: u8,
    /// Sent to scout (JO-ORD-5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub scout: bool,
    /// It did not move in its side's last movement phase (JO-MOV-22).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub still: bool,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// A decision inside the combat phase, taken before anything else.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pending {
    /// The side of `unit` chooses where it retreats `hexes` hexes (JO-RET-2).
    Retreat {
        /// The retreating unit or officer.
        unit: UnitId,
        /// Hexes owed.
        hexes: u8,
    },
}

/// The changing part of a game.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The player turn, from 1 (each side's turn counts).
    pub turn: u32,
    /// The side whose turn it is: 0 plays first.
    pub active: u8,
    /// The phase of that turn.
    pub phase: Phase,
    /// Every unit and officer, in scenario order.
    pub pieces: Vec<PieceState>,
    /// This turn's activations.
    pub groups: Vec<Group>,
    /// The first of [`State::groups`] made in the current command phase (a general
    /// assault opens a second one, JO-ORD-12).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub first_group: u8,
    /// Each side's order tokens (JO-ORD-1, JO-ORD-2).
    pub tokens: [u32; 2],
    /// A manoeuvre order was given this turn (JO-ORD-3).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ordered: bool,
    /// General assault: 1 once ordered, 2 in the second command phase (JO-ORD-12).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub assault: u8,
    /// Enemy units each side has eliminated (JO-VIC-1).
    pub eliminated: [u32; 2],
    /// The side holding each objective, in the scenario's order of objectives (JO-VIC-2).
    pub held: Vec<Option<u8>>,
    /// A decision inside the combat phase.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Pending>,
    /// Set once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

clone_by_field!(
    State: turn, active, phase, pieces, groups, first_group, tokens, ordered, assault,
    eliminated, held, pending, outcome
);

/// What a player does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Activate an officer (opening an activation) or a unit (joining the last one)
    /// (JO-CMD-1 to JO-CMD-4).
    Activate {
        /// The officer or unit.
        unit: UnitId,
    },
    /// Give a manoeuvre order (JO-ORD-3).
    Order {
        /// Which.
        order: OrderKind,
        /// The unit or officer it is given to, for orders that name one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit: Option<UnitId>,
        /// Hexes of difficult terrain bought, for woods-runner.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        hexes: Option<u8>,
    },
    /// End the command phase and move.
    EndCommand,
    /// Move a unit or officer the whole way to a hex it can reach (JO-MOV-1).
    Move {
        /// The unit or officer.
        unit: UnitId,
        /// Where it ends its move.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
    },
    /// Leave the table where the scenario allows it (JO-MOV-23).
    Exit {
        /// The unit or officer.
        unit: UnitId,
    },
    /// End the movement phase and fight (JO-MOV-8).
    EndMovement,
    /// Attack an enemy (JO-COM-1).
    Attack {
        /// The activated unit.
        unit: UnitId,
        /// The enemy unit, or officer alone.
        target: UnitId,
    },
    /// End the combat phase and the turn.
    EndTurn,
    /// Retreat to the last hex of the retreat (JO-RET-2).
    Retreat {
        /// The retreating piece.
        unit: UnitId,
        /// Where its retreat ends.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
    },
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A die was rolled.
    Roll(Roll),
    /// A side's turn began.
    TurnBegan {
        /// Player turn, from 1.
        turn: u32,
        /// Whose.
        side: String,
    },
    /// A piece was activated.
    Activated {
        /// The piece.
        unit: UnitId,
        /// The activation.
        group: u8,
        /// The rule.
        rule: String,
    },
    /// A manoeuvre order was given.
    Ordered {
        /// The side.
        side: String,
        /// The order.
        order: OrderKind,
        /// Its unit or officer.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit: Option<UnitId>,
        /// Tokens spent.
        cost: u32,
        /// Tokens left.
        tokens: u32,
    },
    /// A piece moved.
    Moved {
        /// The piece.
        unit: UnitId,
        /// The hexes entered.
        #[serde(with = "grognard_engine::wire::labels")]
        path: Vec<Hex>,
        /// The rules that shaped the move.
        rules: Vec<String>,
    },
    /// A piece left the table.
    Exited {
        /// The piece.
        unit: UnitId,
    },
    /// An attack was rolled.
    Attacked {
        /// The attacker.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// The symbols rolled.
        faces: Vec<Face>,
        /// Hits.
        hits: u8,
        /// Flags.
        flags: u8,
        /// Flags ignored by support.
        ignored: u8,
        /// Order tokens won.
        letters: u8,
        /// The rules that set the dice and the result.
        rules: Vec<String>,
    },
    /// Stands were lost.
    Lost {
        /// The piece.
        unit: UnitId,
        /// Stands lost.
        stands: u8,
        /// Stands left.
        left: u8,
        /// The rule.
        rule: String,
    },
    /// An elephant of a unit that lost a stand panicked and bolted (JO-MOV-21, JO-PAN-1).
    Panicked {
        /// The unit whose elephant it was.
        unit: UnitId,
        /// The hex it bolted into; `None` off the table.
        #[serde(default, with = "grognard_engine::wire::opt_label")]
        toward: Option<Hex>,
        /// The piece it trampled there, friend or foe.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        trampled: Option<UnitId>,
        /// The rule.
        rule: String,
    },
    /// A piece was eliminated.
    Eliminated {
        /// The piece.
        unit: UnitId,
        /// The rule.
        rule: String,
    },
    /// A piece retreated.
    Retreated {
        /// The piece.
        unit: UnitId,
        /// Where its retreat ended.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
        /// Hexes made.
        hexes: u8,
        /// The rule.
        rule: String,
    },
    /// A side took an objective.
    Took {
        /// The side.
        side: String,
        /// The objective's name.
        place: String,
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

/// What a hex's terrain does, from `data.toml`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct HexInfo {
    pub terrain: u8,
    pub difficult: bool,
    pub impassable: bool,
    pub blocks_sight: bool,
    pub protection: u8,
    pub built_up: bool,
}

/// An objective of the scenario (JO-VIC-2).
#[derive(Clone, Debug)]
pub(crate) struct Objective {
    pub name: String,
    pub hex: Hex,
    pub value: u32,
    pub owner: Option<u8>,
}

/// The rules of JOMINI bound to one scenario.
#[derive(Debug)]
pub struct Jomini {
    pub(crate) data: &'static Data,
    pub(crate) names: Names,
    pub(crate) map: MapShape,
    /// Side ids in play order.
    pub(crate) sides: [String; 2],
    /// Each side's own edge, toward which it retreats.
    pub(crate) edges: [Edge; 2],
    /// Each side's commander's command level (JO-ORD-1).
    pub(crate) command: [u32; 2],
    /// The edge each side may leave by, if the scenario allows it (JO-MOV-23).
    pub(crate) exits: [Option<Edge>; 2],
    pub(crate) pieces: Vec<Piece>,
    pub(crate) hexes: Vec<HexInfo>,
    pub(crate) terrain_names: Vec<String>,
    /// Per map index and direction: the hexside stops a move (JO-MOV-13).
    pub(crate) side_difficult: Vec<bool>,
    /// Per map index and direction: the map index of the neighbour, or `u32::MAX` off
    /// the table.
    pub(crate) next: Vec<u32>,
    /// Per map index: the roads (bit = index among the scenario's roads) through the hex.
    pub(crate) road_hexes: Vec<u16>,
    /// Per map index and direction: the roads that run on across that hexside.
    pub(crate) road_links: Vec<u16>,
    pub(crate) objectives: Vec<Objective>,
    /// Per objective, the steps to it from each hex (the computer's pull toward it).
    pub(crate) march: Vec<Vec<u16>>,
    /// Points each side needs (JO-VIC-1).
    pub(crate) target: [u32; 2],
    /// Game turns (each side once).
    pub(crate) turns: Option<u32>,
}

impl Jomini {
    pub(crate) fn info(&self, hex: Hex) -> Option<&HexInfo> {
        self.map.index(hex).map(|i| &self.hexes[i])
    }

    pub(crate) fn terrain_name(&self, hex: Hex) -> &str {
        self.info(hex).map_or("off the table", |i| {
            self.terrain_names[usize::from(i.terrain)].as_str()
        })
    }

    pub(crate) fn label(&self, hex: Hex) -> String {
        self.names.label(hex)
    }

    pub(crate) fn piece(&self, u: UnitId) -> &Piece {
        &self.pieces[u.index()]
    }

    pub(crate) fn side_of(&self, u: UnitId) -> u8 {
        self.pieces[u.index()].side
    }

    pub(crate) fn side_name(&self, side: u8) -> &str {
        &self.sides[usize::from(side)]
    }

    /// A side as sentences name it: its scenario name.
    pub(crate) fn side_title(&self, side: u8) -> &str {
        self.names.side_title(self.side_name(side))
    }

    /// A unit as sentences name it: its scenario name.
    pub(crate) fn unit_name(&self, u: UnitId) -> &str {
        self.names.unit_title(u)
    }

    pub(crate) fn piece_ids(&self) -> impl Iterator<Item = UnitId> {
        crate::common::lookup::ids(self.pieces.len())
    }

    /// A piece's name for messages: its id and type.
    pub(crate) fn who(&self, u: UnitId) -> String {
        let p = self.piece(u);
        format!(
            "{} ({} {})",
            self.names.unit_title(u),
            p.weight,
            p.kind.replace('_', " ")
        )
    }

    /// The side index of a side id.
    #[must_use]
    pub fn side_index(&self, id: &str) -> Option<u8> {
        crate::common::lookup::side_index(&self.sides, id)
    }

    /// The rules bound to a scenario with tables read from other text than the shipped
    /// `data.toml` (the same names; other values, such as a player's printed tables).
    ///
    /// # Errors
    /// The scenario's problems, as for [`Ruleset::new`].
    pub fn with_data(s: &Scenario, data: &'static Data) -> Result<Jomini, Problems> {
        setup::build_with(s, data)
    }

    /// The unit with this scenario id.
    #[must_use]
    pub fn unit(&self, id: &str) -> Option<UnitId> {
        self.names.unit(id)
    }

    /// Every unit and officer as the scenario sets it, in scenario order.
    #[must_use]
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The points each side needs to win, in play order (JO-VIC-1).
    #[must_use]
    pub fn target(&self) -> [u32; 2] {
        self.target
    }

    /// The game turn (both sides once) of a player turn.
    #[must_use]
    pub fn game_turn(state: &State) -> u32 {
        state.turn.div_ceil(2)
    }
}

impl Ruleset for Jomini {
    // The items every ruleset delegates alike; below, this ruleset's own.
    skeleton! {
        types, new, initial_state, names, to_act, legal_actions, explain, apply_unchecked,
        outcome, view, turn, position, evaluation,
        // Everything is open in JOMINI: every seat sees the same view.
        public_views
    }

    fn allows(&self, state: &State, action: &Action) -> bool {
        turn::allows(self, state, action)
    }

    fn vocabulary() -> Vocabulary {
        setup::vocabulary()
    }

    fn event_text(&self, event: &Event) -> String {
        text::event(self, event)
    }

    fn preview(&self, state: &State, action: &Action) -> Result<Preview, Refusal> {
        let mut preview = combat::preview(self, state, action)?;
        text::preview(self, action, &mut preview);
        Ok(preview)
    }

    fn reachable(&self, state: &State, unit: UnitId) -> Result<Vec<Reached>, Refusal> {
        movement::reachable(self, state, unit)
    }

    fn plans(&self, state: &State, out: &mut Vec<grognard_engine::Plan<Action>>) {
        ai::plans(self, state, out);
    }

    fn pass(&self, state: &State) -> Option<Action> {
        ai::pass(self, state)
    }
}
