//! The ruleset's tables, read from `data.toml`: every table marked seed, recovered or
//! provisional, with the reason for each value that is not the seed's.

use crate::common::data::shipped;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The tables as shipped.
pub const DATA: &str = include_str!("data.toml");

pub use crate::common::data::Source;

/// A face of the battle die.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    /// Hits infantry.
    Infantry,
    /// Hits cavalry.
    Cavalry,
    /// Hits artillery.
    Artillery,
    /// Crossed sabers: hits any unit, and a lone general.
    Sabers,
    /// A retreat flag.
    Flag,
}

/// The battle die.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceTable {
    /// Where the faces come from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// The face shown by each d6 result, 1 first.
    pub faces: Vec<Face>,
}

/// Figures at full strength, by unit type.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Figures {
    /// Where the numbers come from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Infantry.
    pub infantry: u8,
    /// Cavalry.
    pub cavalry: u8,
    /// Artillery.
    pub artillery: u8,
    /// A general.
    pub general: u8,
}

/// Movement and battle of a unit type.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitRow {
    /// Where the row comes from.
    pub source: Source,
    /// Hexes an ordered unit may move.
    #[serde(rename = "move")]
    pub moves: u8,
    /// Whether it may move and battle in the same turn.
    pub battle_after_move: bool,
    /// Battle dice by distance, adjacent first; the length is the range.
    pub dice: Vec<u8>,
}

/// A terrain type's row.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRow {
    /// Where the row comes from.
    pub source: Source,
    /// Which of its values are which.
    pub reason: String,
    /// A unit or general entering must end its move there.
    #[serde(default)]
    pub stop: bool,
    /// It cannot be entered, nor retreated into.
    #[serde(default)]
    pub impassable: bool,
    /// It blocks line of sight between the battling unit and its target.
    #[serde(default)]
    pub blocks_sight: bool,
    /// Battle dice the attacker loses when the target stands there.
    #[serde(default)]
    pub protection: u8,
    /// False when a unit that entered it this turn may not battle.
    #[serde(default = "yes")]
    pub battle_on_entering: bool,
}

fn yes() -> bool {
    true
}

/// A hexside feature's row.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideRow {
    /// Where the row comes from.
    pub source: Source,
    /// Which of its values are which.
    pub reason: String,
    /// Battle dice the attacker loses when the target is behind it.
    #[serde(default)]
    pub protection: u8,
}

/// How the protections of a target's hex and of a fence before it combine (BC-TER-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Combine {
    /// Only the larger counts.
    Largest,
    /// They add up.
    Sum,
}

/// How protections combine (BC-TER-4).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtectionTable {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// How the hex's and the fence's protections combine.
    pub combine: Combine,
}

/// What a command card does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CardKind {
    /// Orders units and generals in named sections.
    Section,
    /// Orders units of some types anywhere.
    Troops,
    /// The seed's Leadership.
    Leadership,
    /// The seed's Fight Back.
    FightBack,
}

/// A kind of command card and how many the deck holds.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CardRow {
    /// The id actions use.
    pub id: String,
    /// The printed title.
    pub title: String,
    /// What it does.
    pub kind: CardKind,
    /// Section cards: orders on the playing side's left.
    #[serde(default)]
    pub left: u8,
    /// Section cards: orders in the centre.
    #[serde(default)]
    pub centre: u8,
    /// Section cards: orders on the playing side's right.
    #[serde(default)]
    pub right: u8,
    /// Troop cards: the unit types ordered. Leadership: the types that roll its extra
    /// dice when a general is attached to them.
    #[serde(default)]
    pub types: Vec<String>,
    /// Troop cards: how many. Leadership: how many pieces it orders anywhere when its side
    /// has no general; Fight Back: how many it orders when played on its side's own turn.
    #[serde(default)]
    pub orders: u8,
    /// Extra battle dice for the units the card orders (Leadership: for its `types` with
    /// an attached general; Fight Back: for the unit that fights back).
    #[serde(default)]
    pub dice: u8,
    /// Extra hexes of movement for the units the card orders.
    #[serde(default)]
    pub moves: u8,
    /// Copies in the deck.
    pub count: u8,
    /// Where the card comes from.
    pub source: Source,
    /// Why it is what it is.
    pub reason: String,
}

/// Every table of the ruleset.
#[derive(Clone, Debug)]
pub struct Data {
    /// The battle die.
    pub dice: DiceTable,
    /// Figures by unit type.
    pub figures: Figures,
    /// Movement and battle by unit type.
    pub units: BTreeMap<String, UnitRow>,
    /// Terrain rows by name.
    pub terrain: BTreeMap<String, TerrainRow>,
    /// Hexside feature rows by name.
    pub hexside: BTreeMap<String, HexsideRow>,
    /// How protections combine.
    pub protection: ProtectionTable,
    /// The deck, by kind of card.
    pub cards: Vec<CardRow>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawData {
    dice: DiceTable,
    figures: Figures,
    units: BTreeMap<String, UnitRow>,
    terrain: BTreeMap<String, TerrainRow>,
    hexside: BTreeMap<String, HexsideRow>,
    protection: ProtectionTable,
    cards: Vec<CardRow>,
}

impl Data {
    /// Reads tables from TOML text.
    ///
    /// # Errors
    /// Malformed TOML, unknown keys, or tables that do not fit the rules (a die without six
    /// faces, a unit type missing, a card kind without orders).
    pub fn parse(text: &str) -> Result<Data, String> {
        let raw: RawData = toml::from_str(text).map_err(|e| e.to_string())?;
        let data = Data {
            dice: raw.dice,
            figures: raw.figures,
            units: raw.units,
            terrain: raw.terrain,
            hexside: raw.hexside,
            protection: raw.protection,
            cards: raw.cards,
        };
        data.check()?;
        Ok(data)
    }

    fn check(&self) -> Result<(), String> {
        if self.dice.faces.len() != 6 {
            return Err("the battle die needs exactly 6 faces".into());
        }
        for t in ["infantry", "cavalry", "artillery", "general"] {
            if !self.units.contains_key(t) {
                return Err(format!("[units.{t}] is missing"));
            }
        }
        if !self.terrain.contains_key("clear") {
            return Err("[terrain.clear] is missing".into());
        }
        if self.cards.len() > usize::from(u8::MAX) {
            return Err("at most 255 kinds of card".into());
        }
        for c in &self.cards {
            let orders = match c.kind {
                CardKind::Section => c.left + c.centre + c.right,
                CardKind::Troops | CardKind::Leadership | CardKind::FightBack => c.orders,
            };
            if orders == 0 {
                return Err(format!("card `{}` orders nothing", c.id));
            }
            if c.types.iter().any(|t| !self.units.contains_key(t)) {
                return Err(format!("card `{}` names an unknown unit type", c.id));
            }
        }
        Ok(())
    }

    /// The shipped tables, read once.
    ///
    /// # Panics
    /// If `data.toml` is malformed (a test pins it).
    #[must_use]
    pub fn shipped() -> &'static Data {
        static SHIPPED: OnceLock<Data> = OnceLock::new();
        shipped(&SHIPPED, "battle_cry/data.toml", DATA, Data::parse)
    }

    /// The number of cards in the deck.
    #[must_use]
    pub fn deck_size(&self) -> usize {
        self.cards.iter().map(|c| usize::from(c.count)).sum()
    }
}
