//! Units and officers: troop types, weights and mounts. What a scenario may say and the
//! rules bound to it are in [`super::setup`].

use super::data::{Allowance, UnitRow};
use grognard_hex::Hex;

/// The weights of the first movement table (JO-MOV-9).
pub const TROOP_WEIGHTS: [&str; 4] = ["light", "medium", "heavy", "super_heavy"];
/// The weights of the artillery table and the officers' (JO-MOV-9).
pub const GUN_WEIGHTS: [&str; 4] = ["very_light", "light", "heavy", "very_heavy"];

/// What infantry may ride (JO-MOV-18 to JO-MOV-22); elephants panic (JO-MOV-21).
pub const MOUNTS: [&str; 4] = ["horses", "camels", "elephants", "wagons"];

/// A unit or officer as the scenario sets it.
#[derive(Clone, Debug)]
pub struct Piece {
    /// Scenario id.
    pub id: String,
    /// Side index in play order.
    pub side: u8,
    /// Unit type (`infantry`, `cavalry`, `foot_artillery`, `officer`...).
    pub kind: String,
    /// Its weight in the movement table.
    pub weight: String,
    /// Its cell of the movement table.
    pub allowance: Allowance,
    /// Its row of the unit table.
    pub row: &'static UnitRow,
    /// An officer (JO-MOV-14).
    pub officer: bool,
    /// What it rides, if it is infantry with mounts (JO-MOV-18).
    pub mounts: Option<String>,
    /// When and where a reinforcement comes on (JO-MOV-26).
    pub enters: Option<(u32, Hex)>,
    /// Stands at full strength.
    pub strength: u8,
    /// Where it starts; `None` for a reinforcement.
    pub start: Option<Hex>,
    /// It starts riding its mounts.
    pub starts_mounted: bool,
}

impl Piece {
    /// Infantry.
    #[must_use]
    pub fn infantry(&self) -> bool {
        self.kind == "infantry"
    }

    /// Artillery of any kind.
    #[must_use]
    pub fn artillery(&self) -> bool {
        self.row.artillery
    }

    /// Mounted troops (and horse artillery) retreat 2 hexes a flag (JO-RET-1).
    #[must_use]
    pub fn mounted(&self) -> bool {
        self.row.kind == "mounted"
    }
}

// The binding from a scenario moved to `setup.rs`; these names stay for callers.
pub use super::setup::{build, build_with, initial_state, vocabulary};
