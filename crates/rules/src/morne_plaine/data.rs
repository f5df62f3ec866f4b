//! The ruleset's tables, read from `data.toml` (every value marked seed, recovered or
//! provisional, with the reason for each provisional one).

use grognard_hex::Direction;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The tables as shipped.
pub const DATA: &str = include_str!("data.toml");

/// Where a value comes from (the Source column of `docs/rules/morne-plaine.md`), shared by every
/// ruleset.
pub use crate::common::data::Source;

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
    /// The retreat's last tie-break.
    pub retreat: Retreat,
    /// When reinforcements come on.
    pub reinforcements: Reinforcements,
}

/// What is wrong with a set of tables (`data.toml` or a player's replacement).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    /// Not TOML, a missing table or key, an unknown key.
    #[error("morne_plaine data: {0}")]
    Toml(String),
    /// A column of the Combat Results Table is not odds `A-D` with positive numbers.
    #[error("morne_plaine data: [crt] column `{0}` is not odds such as `1-2` or `1.5-1`")]
    Column(String),
    /// The columns are not in increasing odds, so the defender's rounding cannot pick one.
    #[error("morne_plaine data: [crt] columns must rise in odds; `{0}` does not follow `{1}`")]
    ColumnOrder(String, String),
    /// The table has no column.
    #[error("morne_plaine data: [crt] has no column")]
    NoColumn,
    /// Not one row per final die 0 to 7 (MP-CMB-19).
    #[error("morne_plaine data: [crt] needs one row per final die 0 to 7 (MP-CMB-19): {0} rows")]
    Rows(usize),
    /// A row without one cell per column.
    #[error("morne_plaine data: [crt] row {row} has {cells} cells for {columns} columns")]
    RowLength {
        /// The final die of the row.
        row: usize,
        /// Its cells.
        cells: usize,
        /// The columns.
        columns: usize,
    },
    /// A cell that is not `A/D` with an optional `*` on each side.
    #[error("morne_plaine data: [crt] row {row}, column `{column}`: `{cell}` is not `A/D` (a `*` for a morale check)")]
    Cell {
        /// The final die of the row.
        row: usize,
        /// The column's odds.
        column: String,
        /// The cell.
        cell: String,
    },
    /// A terrain rank without a strength correction, or a rank MP-ADV-3 does not have.
    #[error("morne_plaine data: [combat_terrain] strength_percent needs exactly the ranks -1, 0, 1, 2 and 3 (MP-ADV-3): {0}")]
    Ranks(String),
    /// The retreat's last tie-break is not the six directions once each.
    #[error(
        "morne_plaine data: [retreat] last_tie must name each of ne, se, s, sw, nw, n once: {0:?}"
    )]
    LastTie(Vec<String>),
    /// Reinforcements arriving in a phase other than bombardment or movement.
    #[error(
        "morne_plaine data: [reinforcements] phase must be `bombardment` or `movement`, not `{0}`"
    )]
    ReinforcementPhase(String),
}

/// The Combat Results Table (MP-CMB-25). Its shape comes from `data.toml`: the columns
/// (odds, lowest first) and one row per final die 0 to 7, checked when the tables are
/// read ([`Data::parse`]).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Crt {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Column names, lowest odds first (shipped: 1-8 to 8-1).
    pub columns: Vec<String>,
    /// One row per final die 0 to 7; cells `"A/D"` with `*` for a morale check.
    pub rows: Vec<Vec<String>>,
    /// Each column's odds as attacker and defender parts in thousandths.
    #[serde(skip)]
    odds: Vec<(u64, u64)>,
    /// The cells read, row by row.
    #[serde(skip)]
    cells: Vec<Vec<CrtResult>>,
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

/// A number such as `1` or `1.5` in thousandths.
fn thousandths(text: &str) -> Option<u64> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty()
        || frac.len() > 3
        || !(whole.chars().chain(frac.chars())).all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let whole: u64 = whole.parse().ok()?;
    let frac: u64 = format!("{frac:0<3}").parse().ok()?;
    let v = whole.checked_mul(1000)?.checked_add(frac)?;
    (v > 0).then_some(v)
}

/// A cell `A/D`, each side a number with an optional `*`.
fn read_cell(text: &str) -> Option<CrtResult> {
    let (a, d) = text.split_once('/')?;
    let part = |p: &str| -> Option<(u8, bool)> {
        let p = p.trim();
        let check = p.ends_with('*');
        Some((p.trim_end_matches('*').parse::<u8>().ok()?, check))
    };
    let ((attacker_loss, attacker_check), (defender_loss, defender_check)) = (part(a)?, part(d)?);
    Some(CrtResult {
        attacker_loss,
        attacker_check,
        defender_loss,
        defender_check,
    })
}

impl Crt {
    /// The final die's last row: MP-CMB-19 clamps the die to 0 ..= 7.
    pub const LAST_ROW: usize = 7;

    /// Reads the columns' odds and the cells, and checks the shape.
    fn read(&mut self) -> Result<(), DataError> {
        if self.columns.is_empty() {
            return Err(DataError::NoColumn);
        }
        let mut odds: Vec<(u64, u64)> = Vec::new();
        for (i, c) in self.columns.iter().enumerate() {
            let o = c
                .split_once('-')
                .and_then(|(a, d)| Some((thousandths(a)?, thousandths(d)?)))
                .ok_or_else(|| DataError::Column(c.clone()))?;
            if let Some(&(pa, pd)) = odds.last() {
                // a/d must be above the previous column's pa/pd.
                if u128::from(o.0) * u128::from(pd) <= u128::from(pa) * u128::from(o.1) {
                    return Err(DataError::ColumnOrder(
                        c.clone(),
                        self.columns[i - 1].clone(),
                    ));
                }
            }
            odds.push(o);
        }
        if self.rows.len() != Self::LAST_ROW + 1 {
            return Err(DataError::Rows(self.rows.len()));
        }
        let mut cells = Vec::with_capacity(self.rows.len());
        for (row, r) in self.rows.iter().enumerate() {
            if r.len() != self.columns.len() {
                return Err(DataError::RowLength {
                    row,
                    cells: r.len(),
                    columns: self.columns.len(),
                });
            }
            let read: Result<Vec<CrtResult>, DataError> = r
                .iter()
                .zip(&self.columns)
                .map(|(cell, column)| {
                    read_cell(cell).ok_or_else(|| DataError::Cell {
                        row,
                        column: column.clone(),
                        cell: cell.clone(),
                    })
                })
                .collect();
            cells.push(read?);
        }
        self.odds = odds;
        self.cells = cells;
        Ok(())
    }

    /// The cell at a final die (0 to 7) and a column index.
    ///
    /// # Panics
    /// When the die or the column is outside the table, or the table was not read
    /// through [`Data::parse`].
    #[must_use]
    pub fn cell(&self, die: usize, column: usize) -> CrtResult {
        self.cells[die][column]
    }

    /// MP-CMB-16, MP-CMB-17: the column of `attack` against `defence`: the highest
    /// column whose odds do not exceed the ratio (rounded in the defender's favour),
    /// clamped to the table's first and last columns (shipped: 1-8 and 8-1).
    #[must_use]
    pub fn column(&self, attack: u32, defence: u32) -> usize {
        let (a, d) = (u128::from(attack), u128::from(defence.max(1)));
        self.odds
            .iter()
            .rposition(|&(ca, cd)| a * u128::from(cd) >= d * u128::from(ca))
            .unwrap_or(0)
    }
}

/// Terrain effects on combat (MP-CMB-30).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatTerrain {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// The defending side's strength, in percent, by the rank of each unit's own hex
    /// (MP-ADV-3 without the hill): `"-1"` to `"3"`.
    pub strength_percent: BTreeMap<String, u32>,
}

impl CombatTerrain {
    /// The percentage for a rank (100 for a rank the table lacks, which [`Data::parse`]
    /// refuses).
    #[must_use]
    pub fn percent(&self, rank: i32) -> u32 {
        self.strength_percent
            .get(&rank.to_string())
            .copied()
            .unwrap_or(100)
    }
}

/// The retreat's last tie-break (MP-RET-8).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Retreat {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// Directions by preference when hexes tie on every criterion of the text.
    pub last_tie: Vec<String>,
    /// `last_tie` read: each direction's place.
    #[serde(skip)]
    order: [u8; 6],
}

impl Retreat {
    /// The place of a direction in the last tie-break (0 first).
    #[must_use]
    pub fn place(&self, d: Direction) -> u8 {
        self.order[d.index()]
    }
}

/// When reinforcements come on (MP-REIN-1).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reinforcements {
    /// Where it comes from.
    pub source: Source,
    /// Why.
    pub reason: String,
    /// The phase of its side's player turn at whose start a reinforcement comes on:
    /// `bombardment` or `movement`.
    pub phase: String,
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
    /// Reads and checks tables from TOML text: the Combat Results Table's shape (its
    /// columns and rows), the terrain ranks, the retreat's last tie, the reinforcements'
    /// phase.
    ///
    /// # Errors
    /// Malformed TOML, unknown keys, or a table that does not fit the rules.
    pub fn parse(text: &str) -> Result<Data, DataError> {
        let mut data: Data = toml::from_str(text).map_err(|e| DataError::Toml(e.to_string()))?;
        data.crt.read()?;
        let ranks: Vec<&str> = data
            .combat_terrain
            .strength_percent
            .keys()
            .map(String::as_str)
            .collect();
        let mut want = vec!["-1", "0", "1", "2", "3"];
        want.sort_unstable();
        if ranks != want {
            return Err(DataError::Ranks(ranks.join(", ")));
        }
        let mut order = [u8::MAX; 6];
        for (place, name) in data.retreat.last_tie.iter().enumerate() {
            let d = Direction::ALL.into_iter().find(|d| d.name() == name);
            match d {
                Some(d) if order[d.index()] == u8::MAX && place < 6 => {
                    order[d.index()] = u8::try_from(place).unwrap_or(u8::MAX);
                }
                _ => return Err(DataError::LastTie(data.retreat.last_tie.clone())),
            }
        }
        if order.contains(&u8::MAX) {
            return Err(DataError::LastTie(data.retreat.last_tie.clone()));
        }
        data.retreat.order = order;
        if !["bombardment", "movement"].contains(&data.reinforcements.phase.as_str()) {
            return Err(DataError::ReinforcementPhase(
                data.reinforcements.phase.clone(),
            ));
        }
        Ok(data)
    }

    /// The shipped tables.
    ///
    /// # Panics
    /// If `data.toml` does not read (a test pins it).
    #[must_use]
    pub fn shipped() -> Data {
        Data::parse(DATA).unwrap_or_else(|e| panic!("{e}"))
    }
}
