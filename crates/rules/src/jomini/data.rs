//! The ruleset's tables, read from `data.toml`: every table marked seed, recovered or
//! provisional, with the reason for each value that is not the seed's.

use crate::common::data::shipped;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The tables as shipped.
pub const DATA: &str = include_str!("data.toml");

pub use crate::common::data::Source;

/// A symbol of the combat die (JO-DIE-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    /// Hits infantry.
    Infantry,
    /// Hits cavalry (and every other mounted troop).
    Cavalry,
    /// Hits artillery.
    Artillery,
    /// A retreat flag.
    Flag,
    /// An order letter: an order token for the side that rolled it.
    Letter,
    /// Tactical advantage: a hit at close quarters.
    Advantage,
}

/// One cell of the movement table (JO-MOV-9).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Allowance {
    /// Hexes it may move and still fight.
    pub fight: u8,
    /// Hexes it may move at most.
    pub max: u8,
    /// (*) never more than `max`, whatever adds to it (JO-MOV-11).
    #[serde(default)]
    pub never_more: bool,
    /// (**) one combat die fewer per hex moved (JO-MOV-12).
    #[serde(default)]
    pub loses_die: bool,
}

/// A row of the movement table: cells by weight.
#[derive(Clone, Debug, Deserialize)]
pub struct MovementRow {
    /// Where the row comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Cells by weight name.
    #[serde(flatten)]
    pub weights: BTreeMap<String, Allowance>,
}

/// What a unit type is and how it fights.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitRow {
    /// Where the row comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// `foot` or `mounted`.
    pub kind: String,
    /// Artillery.
    #[serde(default)]
    pub artillery: bool,
    /// May pass through an artillery unit (JO-MOV-6).
    #[serde(default)]
    pub passes_artillery: bool,
    /// Stands at full strength.
    pub strength: u8,
    /// Combat dice by distance, adjacent first.
    pub dice: Vec<u8>,
}

/// The combat die.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DieTable {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// The symbol of each face, face 1 first.
    pub faces: Vec<Face>,
}

/// Retreat hexes per flag.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetreatTable {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Foot troops and foot artillery.
    pub foot: u8,
    /// Mounted troops and horse artillery.
    pub mounted: u8,
}

/// One line of the activations table.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Army {
    /// Up to this many units.
    pub up_to: u32,
    /// Activations a turn.
    pub activations: u8,
    /// Units in each.
    pub units: u8,
}

/// Activations and command.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandTable {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Activations by army size, smallest first.
    pub armies: Vec<Army>,
    /// How far from its officer an activated unit may stand.
    pub radius: u32,
}

/// Order token costs.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderCosts {
    /// Where they come from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Mount or dismount.
    pub mount: u32,
    /// Reconnaissance.
    pub reconnaissance: u32,
    /// Forced march.
    pub forced_march: u32,
    /// Woods-runner, per hex.
    pub woods_runner: u32,
    /// Courier.
    pub courier: u32,
    /// Combined attack.
    pub combined_attack: u32,
    /// Manoeuvre.
    pub manoeuvre: u32,
    /// Forward march.
    pub forward_march: u32,
    /// General assault.
    pub general_assault: u32,
}

/// A terrain type's or hexside feature's row.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRow {
    /// Where the row comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Entering it ends the move.
    #[serde(default)]
    pub difficult: bool,
    /// It cannot be entered.
    #[serde(default)]
    pub impassable: bool,
    /// It blocks a line of fire through it.
    #[serde(default)]
    pub blocks_sight: bool,
    /// Dice the attacker loses against a unit there.
    #[serde(default)]
    pub protection: u8,
    /// Infantry there is always supported.
    #[serde(default)]
    pub built_up: bool,
}

/// What mounts do in combat (JO-MOV-20, JO-MOV-22).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MountsTable {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Dice the attacker loses at close quarters against infantry with camel mounts.
    pub camels: u8,
    /// Dice the attacker loses against infantry behind its wagons' palisade.
    pub wagons: u8,
}

/// Elephant panic (JO-MOV-21, JO-PAN-1 to JO-PAN-3).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PanicTable {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Panicking elephants for each stand lost (seed: one).
    pub per_stand: u8,
    /// Stands the piece an elephant bolts into loses.
    pub trample: u8,
    /// Whether the elephant troop type panics too.
    pub elephant_units: bool,
}

/// Every table of `data.toml`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Data {
    /// Movement allowances by type, then weight.
    pub movement: BTreeMap<String, MovementRow>,
    /// Unit types.
    pub units: BTreeMap<String, UnitRow>,
    /// The combat die.
    pub die: DieTable,
    /// Retreats.
    pub retreat: RetreatTable,
    /// Activations.
    pub command: CommandTable,
    /// Manoeuvre orders.
    pub orders: OrderCosts,
    /// Mounts in combat.
    pub mounts: MountsTable,
    /// Elephant panic.
    pub panic: PanicTable,
    /// Terrain of hexes.
    pub terrain: BTreeMap<String, TerrainRow>,
    /// Hexside features.
    pub hexside: BTreeMap<String, TerrainRow>,
}

impl Data {
    /// Reads tables from TOML text (a player's printed tables in the shipped layout).
    ///
    /// # Errors
    /// Malformed TOML or unknown keys.
    pub fn parse(text: &str) -> Result<Data, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }

    /// The shipped tables, parsed once.
    ///
    /// # Panics
    /// When `data.toml` is malformed (a test checks it is not).
    pub fn shipped() -> &'static Data {
        static SHIPPED: OnceLock<Data> = OnceLock::new();
        shipped(&SHIPPED, "jomini/data.toml", DATA, Data::parse)
    }
}
