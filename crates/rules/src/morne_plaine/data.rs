//! The ruleset's tables, read from `data.toml` (every value marked seed, recovered or
//! provisional, with the reason for each provisional one).

use serde::Deserialize;
use std::collections::BTreeMap;

/// The tables as shipped.
pub const DATA: &str = include_str!("data.toml");

/// Where a value comes from (REFERENCE.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// Stated in a rule text of this repository's shared rules.
    Seed,
    /// Stated in the game's public rules (REFERENCE.md).
    Recovered,
    /// Chosen here; the table gives the reason.
    Provisional,
}

/// A terrain type's row.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainRow {
    /// Where the row comes from.
    pub source: Source,
    /// Why a provisional row holds these values.
    #[serde(default)]
    pub reason: Option<String>,
    /// Points to enter: leader, infantry, cavalry, artillery.
    pub cost: [u8; 4],
    /// Blocks line of sight (bombardment).
    #[serde(default)]
    pub blocks_sight: bool,
    /// Cannot be controlled, and units in it control nothing (MP-ZOC-2, MP-ZOC-3).
    #[serde(default)]
    pub uncontrollable: bool,
    /// A town in the texts' sense (MP-TER-4: villages and towns alike): uncontrollable,
    /// never charged, ranked and held as a town, the retreat's first choice.
    #[serde(default)]
    pub town: bool,
    /// Entering calls for a bog test.
    #[serde(default)]
    pub bog: bool,
}

/// A hexside feature's row.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideRow {
    /// Where the row comes from.
    pub source: Option<Source>,
    /// Why a provisional row holds these values.
    #[serde(default)]
    pub reason: Option<String>,
    /// Points added to the hex entered across it.
    #[serde(default)]
    pub extra: u8,
    /// Points added when climbing across it.
    #[serde(default)]
    pub extra_uphill: u8,
    /// Cannot be crossed (unless a bridge or ford is there too).
    #[serde(default)]
    pub impassable: bool,
}

/// A path kind's row.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathRow {
    /// Where the row comes from.
    pub source: Source,
    /// Why a provisional row holds these values.
    #[serde(default)]
    pub reason: Option<String>,
    /// Points for a step along the path.
    pub cost: u8,
}

/// The bog test.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bog {
    /// Where the chances come from.
    pub source: Source,
    /// Faces of the die.
    pub sides: u32,
    /// Stuck on this result or lower: leader, infantry, cavalry, artillery.
    pub stuck: [u32; 4],
    /// Where the effect comes from.
    pub effect_source: Source,
    /// Why the effect is what it is.
    pub effect_reason: String,
}

/// Every table of the ruleset.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Data {
    /// Terrain rows by name.
    pub terrain: BTreeMap<String, TerrainRow>,
    /// Hexside feature rows by name.
    pub hexside: BTreeMap<String, HexsideRow>,
    /// Path rows by kind.
    pub path: BTreeMap<String, PathRow>,
    /// The bog test.
    pub bog: Bog,
    /// The Combat Results Table.
    pub crt: Crt,
    /// Terrain effects on combat.
    pub combat_terrain: CombatTerrain,
    /// The bombardment results.
    pub bombardment: Bombardment,
    /// The rally phase.
    pub rally: Rally,
    /// Reaction fire after a failed charge.
    pub reaction_fire: ReactionFire,
}

/// The Combat Results Table (MP-CMB-25).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Crt {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Column names, 1-8 to 8-1.
    pub columns: Vec<String>,
    /// One row per final die 0 to 7; cells `"A/D"` with `*` for a morale check.
    pub rows: Vec<Vec<String>>,
}

/// One cell of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, Deserialize)]
pub struct CrtResult {
    /// Strength points the attacker loses.
    pub attacker_loss: u8,
    /// The attacker takes a morale check.
    pub attacker_check: bool,
    /// Strength points the defender loses.
    pub defender_loss: u8,
    /// The defender takes a morale check.
    pub defender_check: bool,
}

impl Crt {
    /// The cell at a final die (0 to 7) and a column index.
    ///
    /// # Panics
    /// On a malformed cell (a test pins the shipped table).
    #[must_use]
    pub fn cell(&self, die: usize, column: usize) -> CrtResult {
        let text = &self.rows[die][column];
        let (a, d) = text.split_once('/').expect("cell is A/D");
        let part = |p: &str| {
            (
                p.trim_end_matches('*').parse::<u8>().expect("a number"),
                p.ends_with('*'),
            )
        };
        let ((attacker_loss, attacker_check), (defender_loss, defender_check)) = (part(a), part(d));
        CrtResult {
            attacker_loss,
            attacker_check,
            defender_loss,
            defender_check,
        }
    }
}

/// Terrain effects on combat.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatTerrain {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Die modifier by the defender's terrain rank.
    pub rank_modifier: BTreeMap<String, i32>,
}

/// Bombardment results.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bombardment {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Faces of the die.
    pub sides: u32,
    /// The final number from which the target loses a morale point.
    pub morale: i32,
    /// The final number from which it loses a strength point instead.
    pub strength: i32,
}

/// The rally phase.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rally {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Morale points regained by a unit out of contact.
    pub gain: u8,
}

/// Reaction fire after a failed charge (MP-CHG-29).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReactionFire {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Faces of the die.
    pub sides: u32,
    /// Whether each class fires: leader, infantry, cavalry, artillery.
    pub fires: [bool; 4],
    /// The roll from which the charger loses a morale point.
    pub morale: i32,
    /// The roll from which it loses a strength point instead.
    pub strength: i32,
}

impl Data {
    /// The shipped tables.
    ///
    /// # Panics
    /// If `data.toml` is malformed (a test pins it).
    #[must_use]
    pub fn shipped() -> Data {
        toml::from_str(DATA).expect("morne_plaine/data.toml is well formed")
    }
}
