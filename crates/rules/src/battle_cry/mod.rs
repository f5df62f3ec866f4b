//! Battle Cry: command cards, sections, battle dice, line of sight, generals and flags.
//!
//! [`setup`] binds a scenario, [`turn`] is the sequencer (what to do on a turn, whose
//! decision it is, the dispatch), [`view`] what each seat sees. The other files follow
//! the rulebook's chapters: [`cards`] (command cards, the deck and the hands, Leadership),
//! [`sections`], [`orders`], [`movement`] (units and generals), [`battle`] (range, dice,
//! Embolden), [`fight_back`], [`hits`], [`odds`] (a battle's odds before it is rolled),
//! [`line_of_sight`], [`generals`] (taking ground), [`retreat`], [`terrain`] and
//! [`victory`]. Mechanics shared with JOMINI are in [`crate::commands_colors`]. The tables
//! are in `data.toml`; rule IDs are listed in `docs/rules/battle-cry.md`.
//!
//! # Scenario files
//!
//! `ruleset = "battle_cry"` on a pointy-top map (`orientation = "pointy"`: the hex rows
//! run across the board). Two sides, each with `home_edge = "north"` or `"south"` (the
//! edge its pieces retreat toward) and its hand size, `values = { hand = 4 }`. Unit types
//! `infantry`, `cavalry`, `artillery` and `general`, each with an optional
//! `values = { figures = N }` for a unit that starts reduced; a general may share a hex
//! with a unit of its side, and starts attached to it. `[victory] flags = 6` (or one
//! number a side, `flags = { blue = 6, grey = 5 }`) sets the flags to win, and an optional
//! `turns` a limit. An optional `[battle_cry]` table sets `dividers = [5, 9]`, the
//! printed columns whose centres the two dividing lines cross in the rows not shoved.
//! Terrain names and the hexside feature `fence` are those of `data.toml`.
//!
//! ```
//! use grognard_engine::{Game, Ruleset};
//! use grognard_rules::battle_cry::BattleCry;
//!
//! let b = grognard_rules::builtin::find("crossing-at-hollins-ford").unwrap();
//! let scenario = grognard_rules::registry().load_scenario(b.path, b.text).unwrap();
//! let mut game = Game::<BattleCry>::new(scenario, Some(7)).unwrap();
//! assert_eq!(game.rules().to_act(game.state()).unwrap().kind, "deal");
//! let deal = game.legal_actions().remove(0);
//! game.apply(deal).unwrap();
//! assert_eq!(game.rules().to_act(game.state()).unwrap().kind, "command");
//! ```

pub mod ai;
pub mod battle;
mod board;
pub mod cards;
pub mod data;
pub mod dice;
pub mod fight_back;
mod fire_sets;
pub mod generals;
pub mod hits;
pub mod line_of_sight;
pub mod movement;
pub mod odds;
mod order_sets;
pub mod orders;
pub mod path;
pub mod position;
pub mod reach;
pub mod retreat;
mod section_sets;
pub mod sections;
pub mod setup;
mod stamp;
pub mod terrain;
pub mod text;
pub mod turn;
pub mod units;
pub mod victory;
pub mod view;

use crate::common::{skeleton::skeleton, state::clone_by_field};
pub use cards::Card;
use data::{Data, Face};
pub use dice::BattleRules;
use grognard_engine::scenario::{Problems, Scenario, ValueSpec, Vocabulary};
use grognard_engine::{Names, Outcome, Preview, Reached, Refusal, Roll, Ruleset, Seat, UnitId};
use grognard_hex::{Hex, MapShape};
pub use movement::MoveRules;
pub use path::Path;
use serde::{Deserialize, Serialize};
pub use text::Text;
pub use units::{Kind, Order, Piece, PieceState};

/// The ruleset's name in scenario files.
pub const NAME: &str = "battle_cry";

/// A step of the turn (BC-TURN-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Before the first turn: the deck is shuffled and the hands dealt (BC-TURN-4).
    Deal,
    /// 1. Play a command card.
    Command,
    /// 2. Announce orders.
    Orders,
    /// 3. Move.
    Movement,
    /// 4. Battle; ending it is 5., drawing a new card.
    Battle,
}

impl Phase {
    /// The phase's name, as decisions give it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Phase::Deal => "deal",
            Phase::Command => "command",
            Phase::Orders => "orders",
            Phase::Movement => "movement",
            Phase::Battle => "battle",
        }
    }
}

/// A decision inside a battle, which must be taken before anything else.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pending {
    /// The side of `unit` chooses where it retreats `hexes` hexes (BC-RET-3).
    Retreat {
        /// The retreating unit, or a general alone.
        unit: UnitId,
        /// Retreat moves owed.
        hexes: u8,
        /// The unit that battled it, when it may take ground in the hex left (BC-GEN-7);
        /// `None` after a Fight Back (BC-GEN-8).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        attacker: Option<UnitId>,
        /// The hex the retreating piece stood in when attacked.
        #[serde(with = "grognard_engine::wire::label")]
        from: Hex,
    },
    /// The side of `unit` decides whether it ignores one of the `flags` rolled against it
    /// (BC-GEN-5, BC-GEN-6: "may ignore one retreat flag"), after the hits.
    Embolden {
        /// The piece that owes the retreat: a unit with an attached general, a general
        /// alone, or the general of a unit just eliminated, which makes its retreat
        /// moves (BC-RET-8).
        unit: UnitId,
        /// Flags rolled against it.
        flags: u8,
        /// The unit that battled it.
        battler: UnitId,
        /// The battle was a Fight Back (no taking ground after it, BC-GEN-8; no Fight
        /// Back against it).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        fight_back: bool,
        /// The hex the attacked piece stood in.
        #[serde(with = "grognard_engine::wire::label")]
        from: Hex,
        /// A general alone was attacked (BC-GEN-6), rather than a unit with its general
        /// (BC-GEN-5).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        alone: bool,
    },
    /// The active side may take ground with `unit` into `to` (BC-GEN-7).
    TakeGround {
        /// The unit with its attached general.
        unit: UnitId,
        /// The hex left by the enemy.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
    },
    /// The other side may play Fight Back: `unit` battles `target` (BC-CARD-8).
    FightBack {
        /// The unit that was attacked.
        unit: UnitId,
        /// The unit that attacked it.
        target: UnitId,
    },
}

/// The changing part of a game.
#[derive(PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// The player turn, from 1 (each side's turn counts).
    pub turn: u32,
    /// The side whose turn it is: 0 plays first.
    pub active: u8,
    /// The step of that turn.
    pub phase: Phase,
    /// Every unit and general, in scenario order.
    pub pieces: Vec<PieceState>,
    /// The cards not yet drawn. Drawing takes one at random, so their order means nothing
    /// and is kept sorted (BC-CARD-5).
    pub deck: Vec<Card>,
    /// Each side's hand, sorted (BC-CARD-4, BC-CARD-6).
    pub hands: [Vec<Card>; 2],
    /// The discard pile, in the order the cards were discarded.
    pub discard: Vec<Card>,
    /// The card played this turn (BC-CARD-1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub played: Option<Card>,
    /// The Fight Back card the other side played this turn (BC-CARD-8).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fight_back: Option<Card>,
    /// Flags each side has collected (BC-VIC-1).
    pub flags: [u8; 2],
    /// A decision inside a battle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending: Option<Pending>,
    /// Set once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// Which state this is, and which pieces its last action moved (the boards'
    /// bookkeeping, never part of the game: not written, not compared, not shown).
    #[serde(skip)]
    pub(crate) stamp: stamp::Stamp,
    /// The pieces' orders as bit sets, kept like the stamp; every change of an order goes
    /// through [`State::set_order`].
    #[serde(skip)]
    pub(crate) orders: order_sets::OrderSets,
}

clone_by_field!(
    State: turn, active, phase, pieces, deck, hands, discard, played, fight_back, flags,
    pending, outcome, stamp, orders
);

/// What a player does.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Shuffle the deck and deal the hands (BC-TURN-4).
    Deal,
    /// Play a command card from the hand (BC-CARD-1).
    PlayCard {
        /// The card.
        card: Card,
    },
    /// Discard a card and draw, when no card can order anything (BC-TURN-3).
    Discard {
        /// The card.
        card: Card,
    },
    /// Order a unit or general (BC-ORD-1).
    Order {
        /// The unit or general.
        unit: UnitId,
    },
    /// Stop giving orders and move.
    DoneOrdering,
    /// Move a unit or general the whole way to a hex it can reach (BC-MOV-1).
    Move {
        /// The unit or general.
        unit: UnitId,
        /// Where it ends its move.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
    },
    /// Stop moving and battle (BC-MOV-2).
    DoneMoving,
    /// Battle an enemy unit, or a general alone in its hex (BC-BAT-1).
    Battle {
        /// The ordered unit.
        unit: UnitId,
        /// The enemy.
        target: UnitId,
    },
    /// End the battles, discard the card played and draw (BC-CARD-3).
    EndTurn,
    /// Retreat a unit (or a general alone) to the last hex of its retreat (BC-RET-3).
    Retreat {
        /// The retreating piece.
        unit: UnitId,
        /// Where its retreat ends.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
    },
    /// Ignore one retreat flag rolled against a unit with an attached general, or a
    /// general alone (BC-GEN-5, BC-GEN-6).
    IgnoreFlag,
    /// Take ground (BC-GEN-7).
    TakeGround,
    /// Play Fight Back (BC-CARD-8).
    FightBack,
    /// Let a window pass: do not ignore a flag (take every flag rolled), do not take
    /// ground, do not fight back.
    Decline,
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
        side: Text,
    },
    /// A side drew a card; `null` for seats that may not see it (BC-CARD-6).
    Drew {
        /// Who drew.
        side: Text,
        /// The card.
        card: Option<Card>,
        /// The rule.
        rule: Text,
    },
    /// The discard pile became the deck (BC-CARD-5).
    Reshuffled {
        /// Cards in the new deck.
        cards: usize,
    },
    /// A card was played.
    CardPlayed {
        /// Who played it.
        side: Text,
        /// The card.
        card: Card,
        /// The rule.
        rule: Text,
    },
    /// A card went to the discard pile.
    Discarded {
        /// Whose.
        side: Text,
        /// The card.
        card: Card,
        /// The rule.
        rule: Text,
    },
    /// A unit or general was ordered.
    Ordered {
        /// The piece.
        unit: UnitId,
        /// The rule.
        rule: Text,
    },
    /// A unit or general moved.
    Moved {
        /// The piece.
        unit: UnitId,
        /// From.
        #[serde(with = "grognard_engine::wire::label")]
        from: Hex,
        /// To.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
        /// The hexes entered.
        path: Path,
        /// The attached general that moved with it (BC-ATT-2).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        general: Option<UnitId>,
        /// The rules that shaped the move.
        rules: MoveRules,
    },
    /// A general attached to a unit.
    Attached {
        /// The general.
        general: UnitId,
        /// The unit.
        unit: UnitId,
        /// The rule.
        rule: Text,
    },
    /// A battle was rolled.
    Battled {
        /// The battling unit.
        unit: UnitId,
        /// Its target.
        target: UnitId,
        /// Dice rolled.
        dice: u8,
        /// The faces.
        faces: Vec<Face>,
        /// Hits scored (before they run out of figures).
        hits: u8,
        /// Flags rolled.
        flags: u8,
        /// The rules that set the dice and the result.
        rules: BattleRules,
    },
    /// The defending side chose to ignore one retreat flag (BC-GEN-5, BC-GEN-6).
    FlagIgnored {
        /// The unit with its attached general, or the general.
        unit: UnitId,
        /// Flags left to retreat for.
        left: u8,
        /// The rule.
        rule: Text,
    },
    /// Figures were removed.
    Lost {
        /// The piece.
        unit: UnitId,
        /// Figures removed.
        figures: u8,
        /// Figures left.
        left: u8,
        /// The rule.
        rule: Text,
    },
    /// A unit or general was eliminated.
    Eliminated {
        /// The piece.
        unit: UnitId,
        /// The rule.
        rule: Text,
        /// Why.
        reason: Text,
    },
    /// A side collected a flag (BC-VIC-1).
    FlagTaken {
        /// The side.
        side: Text,
        /// Its flags now.
        flags: u8,
    },
    /// A piece retreated.
    Retreated {
        /// The piece.
        unit: UnitId,
        /// From.
        #[serde(with = "grognard_engine::wire::label")]
        from: Hex,
        /// Where its retreat ended.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
        /// Retreat moves made.
        hexes: u8,
        /// The attached general that retreated with it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        general: Option<UnitId>,
        /// The rule.
        rule: Text,
    },
    /// A unit took ground.
    TookGround {
        /// The unit.
        unit: UnitId,
        /// Its new hex.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
        /// Its attached general.
        general: UnitId,
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
    /// Index into the scenario's terrain names.
    pub terrain: u8,
    pub stop: bool,
    pub impassable: bool,
    pub blocks_sight: bool,
    pub protection: u8,
    pub battle_on_entering: bool,
}

/// A neighbour off the map, in [`BattleCry::neighbors`].
pub(crate) const OFF_MAP: u32 = u32::MAX;

/// The rules of Battle Cry bound to one scenario.
#[derive(Debug)]
pub struct BattleCry {
    /// A number no other binding of the process carries: what the boards kept between
    /// calls ([`board`]) are built for.
    pub(crate) id: u64,
    pub(crate) data: &'static Data,
    pub(crate) names: Names,
    pub(crate) map: MapShape,
    /// Side ids in play order.
    pub(crate) sides: [String; 2],
    /// The same, for events.
    pub(crate) side_texts: [Text; 2],
    /// Each side's home edge is north (true) or south (false).
    pub(crate) north: [bool; 2],
    pub(crate) pieces: Vec<Piece>,
    /// The pieces of each side, in scenario order.
    pub(crate) side_pieces: [Vec<UnitId>; 2],
    /// Per map index: the terrain's effects.
    pub(crate) hexes: Vec<HexInfo>,
    pub(crate) terrain_names: Vec<String>,
    /// Per map index and direction: the protection of the hexside's features.
    pub(crate) side_protection: Vec<u8>,
    /// Per map index: the map indices of its six neighbours in
    /// [`grognard_hex::Direction::ALL`] order, [`OFF_MAP`] for one off the map or
    /// impassable (BC-MOV-10, BC-TER-2); the move search walks these.
    pub(crate) neighbors: Vec<[u32; 6]>,
    /// The lines of sight and fire from a hex to those in range of it.
    pub(crate) lines: line_of_sight::Lines,
    /// The same as bit sets of the hexes, for a small map ([`BattleCry::fire_sets`]).
    pub(crate) fire_sets: std::sync::OnceLock<Option<fire_sets::FireSets>>,
    /// Per map index: the hex.
    pub(crate) hex_of: Vec<Hex>,
    /// Per kind of card: the bits of the unit types its `types` name ([`cards::kind_bit`]).
    pub(crate) card_kinds: Vec<u8>,
    /// The Fight Back card's extra dice (BC-CARD-8).
    pub(crate) fight_back_dice: u8,
    /// Per side, per map index: the sections the hex belongs to as the side names them
    /// ([`sections::for_side`]: bit 0 its left, 1 the centre, 2 its right).
    pub(crate) sections: [Vec<u8>; 2],
    /// The dividing lines, as printed columns whose centres they cross in unshoved rows.
    pub(crate) dividers: [u32; 2],
    /// Each side's hand size (BC-CARD-4).
    pub(crate) hand: [u8; 2],
    /// Flags each side needs to win (BC-VIC-1).
    pub(crate) flags_to_win: [u8; 2],
    /// Game turns (each side once) before the game ends on flags (BC-VIC-2).
    pub(crate) turns: Option<u32>,
    /// The whole deck, sorted.
    pub(crate) deck: Vec<Card>,
    /// Movement and battle of each kind, in [`Kind::ALL`] order.
    pub(crate) unit_rows: [data::UnitRow; 4],
}

impl BattleCry {
    pub(crate) fn info(&self, hex: Hex) -> Option<&HexInfo> {
        self.index(hex).map(|i| &self.hexes[i])
    }

    pub(crate) fn terrain_name(&self, hex: Hex) -> &str {
        self.info(hex).map_or("off the map", |i| {
            self.terrain_names[usize::from(i.terrain)].as_str()
        })
    }

    pub(crate) fn label(&self, hex: Hex) -> String {
        self.names.label(hex)
    }

    /// A unit as sentences name it: its scenario name.
    pub(crate) fn unit_name(&self, u: UnitId) -> &str {
        self.names.unit_title(u)
    }

    /// A unit's scenario id, for JSON.
    pub(crate) fn unit_id(&self, u: UnitId) -> &str {
        &self.pieces[u.index()].id
    }

    pub(crate) fn kind(&self, u: UnitId) -> Kind {
        self.pieces[u.index()].kind
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

    /// A side's id, for an event.
    pub(crate) fn side_text(&self, side: u8) -> Text {
        self.side_texts[usize::from(side)].clone()
    }

    pub(crate) fn piece_ids(&self) -> impl Iterator<Item = UnitId> {
        crate::common::lookup::ids(self.pieces.len())
    }

    /// The pieces of side `side`, in scenario order.
    pub(crate) fn side_ids(&self, side: u8) -> impl Iterator<Item = UnitId> + '_ {
        // A plain slice's iterator: the lists walk it for every piece.
        self.side_pieces
            .get(usize::from(side))
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .copied()
    }

    /// The unit's type row in `data.toml`.
    pub(crate) fn row(&self, u: UnitId) -> &data::UnitRow {
        &self.unit_rows[self.kind(u) as usize]
    }

    /// A piece's name for messages: its name and type.
    pub(crate) fn who(&self, u: UnitId) -> String {
        format!("{} ({})", self.unit_name(u), self.kind(u).name())
    }

    /// The side index of a side id.
    #[must_use]
    pub fn side_index(&self, id: &str) -> Option<u8> {
        crate::common::lookup::side_index(&self.sides, id)
    }

    /// The unit with this scenario id.
    #[must_use]
    pub fn unit(&self, id: &str) -> Option<UnitId> {
        self.names.unit(id)
    }

    /// Every unit and general as the scenario sets it, in scenario order.
    #[must_use]
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// The flags each side needs to win, in play order.
    #[must_use]
    pub fn flags_to_win(&self) -> [u8; 2] {
        self.flags_to_win
    }

    /// The whole deck, sorted.
    #[must_use]
    pub fn whole_deck(&self) -> &[Card] {
        &self.deck
    }

    /// The rules bound to a scenario with tables read from other text than the shipped
    /// `data.toml` (the same terrain and card names; other values, such as a player's
    /// printed tables).
    ///
    /// # Errors
    /// The scenario's problems, as for [`Ruleset::new`].
    pub fn with_data(s: &Scenario, data: &'static Data) -> Result<BattleCry, Problems> {
        setup::build_with(s, data)
    }

    /// The sections a hex belongs to, as the side `side` names them: bit 0 its left,
    /// bit 1 the centre, bit 2 its right (BC-SEC-1, BC-SEC-2).
    #[must_use]
    pub fn sections_of(&self, side: u8, hex: Hex) -> u8 {
        sections::for_side(self, side, hex)
    }
}

impl Ruleset for BattleCry {
    // The items every ruleset delegates alike; below, this ruleset's own.
    skeleton! {
        types, new, initial_state, names, to_act, legal_actions, explain, apply_unchecked,
        outcome, view, turn, position, evaluation
    }

    /// BC-CARD-6: each side always sees its own hand's cards, a spectator only how
    /// many: some seat's view always differs from a spectator's.
    fn views_differ(&self, _state: &State) -> Option<bool> {
        Some(true)
    }

    fn vocabulary() -> Vocabulary {
        let data = Data::shipped();
        let mut v = Vocabulary::new(NAME)
            .terrains(data.terrain.keys().cloned())
            .hexside_features(data.hexside.keys().cloned())
            .side_value(ValueSpec::int("hand", 1, 12))
            .section("battle_cry");
        for t in units::unit_types() {
            v = v.unit_type(t);
        }
        for k in ["infantry", "cavalry", "artillery"] {
            v = v.may_share_hex("general", k);
        }
        v
    }

    fn redact(&self, event: &Event, seat: &Seat) -> Option<Event> {
        cards::redact(self, event, seat)
    }

    fn event_text(&self, event: &Event) -> String {
        text::event(self, event)
    }

    fn preview(&self, state: &State, action: &Action) -> Result<Preview, Refusal> {
        let mut preview = turn::preview(self, state, action)?;
        text::preview(self, action, &mut preview);
        Ok(preview)
    }

    fn reachable(&self, state: &State, unit: UnitId) -> Result<Vec<Reached>, Refusal> {
        movement::reachable(self, state, unit)
    }

    fn plans(&self, state: &State, out: &mut Vec<grognard_engine::Plan<Action>>) {
        self.ai_plans(state, out);
    }

    fn pass(&self, state: &State) -> Option<Action> {
        self.ai_pass(state)
    }

    fn determinize(&self, state: &mut State, seat: &Seat, dice: &mut grognard_engine::Dice) {
        self.ai_determinize(state, seat, dice);
    }
}
