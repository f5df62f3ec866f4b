//! The ruleset's tables, read from `data.toml`: every table marked seed, recovered or
//! provisional, with the reason for each provisional one (SK-CHR-2 weapons and shields,
//! SK-MEL-6 melee results, SK-STA-4 wounds, SK-MOR-2 to SK-MOR-5 the morale phase,
//! SK-MIS-2 to SK-MIS-5 missile weapons and ranged combat).

use serde::Deserialize;
use std::collections::BTreeMap;

/// The tables as shipped.
pub const DATA: &str = include_str!("data.toml");

/// Where a value comes from (the Source column of `docs/rules/skirmish.md`), shared by every
/// ruleset.
pub use crate::common::data::Source;

/// The die of the recovered formulas.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dice {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Faces.
    pub sides: u32,
}

/// Movement points.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    /// Where it comes from.
    pub source: Source,
    /// Finesse + `base` points each active turn (SK-MOV-4).
    pub base: u8,
    /// Points fewer when Wounded or Encumbered (SK-MOV-4).
    pub hindered: u8,
    /// Extra points a hex of evasive movement costs (SK-MOV-14).
    pub evasive: u8,
    /// Flank and rear steps cost this many times more (SK-MOV-16).
    pub flank_factor: u8,
}

/// A table with one number and its provenance.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Facing {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Sixth-turns off the facing that are still the front (SK-FAC-1).
    pub front_turns: u8,
}

/// Zones of control.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Zone {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// A character controls the hexes within this distance (SK-ZOC-1).
    pub radius: u32,
}

/// The difficult-terrain check.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Difficult {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Passes when the die is at most Finesse - base cost + `bonus` (SK-MOV-17).
    pub bonus: i32,
}

/// A terrain type's row.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRow {
    /// Where it comes from.
    pub source: Source,
    /// Why a provisional row holds these values.
    #[serde(default)]
    pub reason: Option<String>,
    /// Points to enter toward the front (the base cost).
    #[serde(default)]
    pub cost: u8,
    /// Difficult terrain (SK-MOV-17).
    #[serde(default)]
    pub difficult: bool,
    /// Nobody enters it.
    #[serde(default)]
    pub impassable: bool,
    /// Blocks a shot's line of sight (SK-MIS-2).
    #[serde(default)]
    pub blocks_sight: bool,
}

/// What a melee result does.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Melee {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// A result (attack minus defense, die included) of at least this hits.
    pub hit_at: i32,
    /// Every this many points above `hit_at` add a point of damage.
    pub per_damage: i32,
}

/// The charge's damage bonus.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Charge {
    /// Where it comes from.
    pub source: Source,
    /// Added to the damage of the charge attack and of the counterattack.
    pub damage_bonus: u8,
}

/// Wounds.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Wounds {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Damage a character takes before going out of action: Vigor + `base`.
    pub base: u8,
    /// A single hit of this much damage dazes.
    pub daze_at: u8,
}

/// Dazed recovery: die + Morale - `wounded` if Wounded - `base`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DazedRecovery {
    /// Where it comes from.
    pub source: Source,
    /// Taken off when Wounded.
    pub wounded: i32,
    /// Always taken off.
    pub base: i32,
    /// Results from 1 to this recover with CA and QA spent.
    pub partial: i32,
}

/// Panic and berserk.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Panic {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// die + Morale at or above this passes a panic check.
    pub check: i32,
    /// die + Morale at or above this ends Panic.
    pub recovery: i32,
    /// die + Morale at or above this ends Berserk.
    pub berserk_recovery: i32,
    /// A friend falling or fleeing within this distance calls for a check.
    pub radius: u32,
}

/// A weapon.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    #[serde(default)]
    pub reason: Option<String>,
    /// Optimal distance in hexes.
    pub reach: u8,
    /// A second optimal distance (another grip), if any.
    #[serde(default)]
    pub alt_reach: Option<u8>,
    /// Attack modifier.
    pub attack: i32,
    /// Defense modifier (when no shield is carried).
    pub defense: i32,
    /// Damage of a hit.
    pub damage: u8,
    /// Leaves no hand for a shield.
    #[serde(default)]
    pub two_handed: bool,
}

impl Weapon {
    /// The weapon's optimal distances.
    pub fn reaches(&self) -> impl Iterator<Item = u8> + '_ {
        std::iter::once(self.reach).chain(self.alt_reach)
    }

    /// The longest optimal distance.
    #[must_use]
    pub fn longest(&self) -> u8 {
        self.reaches().max().unwrap_or(0)
    }
}

/// A shield.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shield {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    #[serde(default)]
    pub reason: Option<String>,
    /// Attack modifier.
    pub attack: i32,
    /// Defense modifier (replaces the weapon's).
    pub defense: i32,
}

/// Ranged combat: the Missile Defense, long range and the Missile Evasion modifier.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ranged {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Missile Defense = `base` + Evasion + ... (SK-MIS-3).
    pub base: i32,
    /// Attack modifier beyond short range (SK-MIS-3).
    pub long_range: i32,
    /// The Missile Evasion modifier (SK-MOV-14, SK-MIS-5).
    pub evasion: i32,
    /// Why the Missile Evasion modifier has this size.
    pub evasion_reason: String,
}

/// A missile weapon (SK-MIS-2).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Missile {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    #[serde(default)]
    pub reason: Option<String>,
    /// Hexes of short range, with no modifier.
    pub short: u8,
    /// The longest shot in hexes.
    pub range: u8,
    /// Attack modifier.
    pub attack: i32,
    /// Damage of a hit.
    pub damage: u8,
}

/// Every table of the ruleset.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Data {
    /// The die.
    pub dice: Dice,
    /// Movement points.
    pub movement: Movement,
    /// Facing arcs.
    pub facing: Facing,
    /// Zones of control.
    pub zone: Zone,
    /// Difficult terrain.
    pub difficult: Difficult,
    /// Terrain rows by name.
    pub terrain: BTreeMap<String, TerrainRow>,
    /// Melee results.
    pub melee: Melee,
    /// The charge bonus.
    pub charge: Charge,
    /// Wounds.
    pub wounds: Wounds,
    /// Dazed recovery.
    pub dazed_recovery: DazedRecovery,
    /// Panic and berserk.
    pub panic: Panic,
    /// Weapons by name.
    pub weapon: BTreeMap<String, Weapon>,
    /// Shields by name.
    pub shield: BTreeMap<String, Shield>,
    /// Ranged combat.
    pub ranged: Ranged,
    /// Missile weapons by name.
    pub missile: BTreeMap<String, Missile>,
}

impl Data {
    /// The shipped tables.
    ///
    /// # Panics
    /// If `data.toml` is malformed (a test pins it).
    #[must_use]
    pub fn shipped() -> Data {
        toml::from_str(DATA).expect("skirmish/data.toml is well formed")
    }
}
