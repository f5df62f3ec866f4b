//! Units and generals: what each piece is, what changes about it, and who stands where.

use super::{BattleCry, State};
use crate::common::pool;
use grognard_engine::scenario::{UnitType, ValueSpec};
use grognard_engine::UnitId;
use grognard_hex::Hex;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// A piece's type, as the rulebook names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Infantry: 4 figures, moves 1 and battles at up to 4 hexes.
    Infantry,
    /// Cavalry: 3 figures, moves up to 3 and battles adjacent enemies.
    Cavalry,
    /// Artillery: 2 figures, moves 1 or battles at up to 5 hexes.
    Artillery,
    /// A general: 1 figure, moves up to 3, never battles.
    General,
}

impl Kind {
    /// Every kind, in the order of the tables.
    pub const ALL: [Kind; 4] = [
        Kind::Infantry,
        Kind::Cavalry,
        Kind::Artillery,
        Kind::General,
    ];

    /// The name scenario files and `data.toml` use.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::Infantry => "infantry",
            Kind::Cavalry => "cavalry",
            Kind::Artillery => "artillery",
            Kind::General => "general",
        }
    }

    /// The kind called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// True for a unit (not a general).
    #[must_use]
    pub fn is_unit(self) -> bool {
        self != Kind::General
    }
}

/// The scenario unit types of Battle Cry: `figures` is optional (the full strength of
/// `data.toml` when left out), so a scenario may start a unit reduced.
#[must_use]
pub fn unit_types() -> Vec<UnitType> {
    Kind::ALL
        .iter()
        .map(|k| UnitType::new(k.name()).value(ValueSpec::int("figures", 1, 9).optional()))
        .collect()
}

/// What a piece is, fixed for the game.
#[derive(Clone, Debug)]
pub struct Piece {
    /// Scenario id.
    pub id: String,
    /// Its side's index in play order (0 plays first).
    pub side: u8,
    /// Its type.
    pub kind: Kind,
    /// Figures at the start.
    pub figures: u8,
    /// Where it starts.
    pub start: Option<Hex>,
}

/// How a piece got its order this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    /// Not ordered.
    #[default]
    None,
    /// Ordered by the card (BC-ORD-1).
    Card,
    /// Ordered because this general was attached to it when Leadership was played; the order
    /// holds while the general stays with it (BC-CARD-7).
    General(UnitId),
}

impl Order {
    /// True when not ordered.
    #[must_use]
    pub fn is_none(&self) -> bool {
        *self == Order::None
    }
}

/// What changes about a piece.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceState {
    /// Where it is; `None` once eliminated.
    #[serde(with = "grognard_engine::wire::opt_label")]
    pub hex: Option<Hex>,
    /// Figures left (0 once eliminated).
    pub figures: u8,
    /// Its order this turn.
    #[serde(default, skip_serializing_if = "Order::is_none")]
    pub order: Order,
    /// Has moved this turn (BC-MOV-7), alone or with its unit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub moved: bool,
    /// Has battled this turn (BC-BAT-1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub battled: bool,
    /// Entered terrain this turn that forbids battling (BC-TER-6).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub waded: bool,
}

/// No piece.
pub(crate) const NONE: u16 = u16::MAX;

/// Who stands where: at most one unit and one general a hex. A general in the same hex as
/// a friendly unit is attached to it, and only one general is ever attached to a unit
/// (BC-ATT-1): moves and retreats never bring a second general into a unit's hex.
///
/// A board is built for every legal list and most actions; its buffer is taken from a
/// small per-thread pool and given back when it is dropped, so building one allocates
/// nothing once a thread has built its first.
pub(crate) struct Board {
    /// Per map index: the unit and the general there, [`NONE`] for none.
    cells: Vec<[u16; 2]>,
}

thread_local! {
    /// Buffers of boards dropped on this thread, for the next boards built.
    static SPARE: RefCell<Vec<Vec<[u16; 2]>>> = const { RefCell::new(Vec::new()) };
}

impl Board {
    /// The board of `state`.
    pub(crate) fn new(rules: &BattleCry, state: &State) -> Board {
        let mut cells = pool::take(&SPARE);
        cells.clear();
        cells.resize(rules.map.len(), [NONE; 2]);
        for (i, p) in state.pieces.iter().enumerate() {
            let Some(h) = p.hex else { continue };
            let Some(at) = rules.map.index(h) else {
                continue;
            };
            let id = u16::try_from(i).expect("unit count fits u16");
            let slot = usize::from(!rules.pieces[i].kind.is_unit());
            cells[at][slot] = id;
        }
        Board { cells }
    }

    fn get(&self, rules: &BattleCry, hex: Hex, slot: usize) -> Option<UnitId> {
        self.get_at(rules.map.index(hex)?, slot)
    }

    fn get_at(&self, at: usize, slot: usize) -> Option<UnitId> {
        let id = self.cells.get(at)?[slot];
        (id != NONE).then_some(UnitId(id))
    }

    /// The unit in a hex.
    pub(crate) fn unit_at(&self, rules: &BattleCry, hex: Hex) -> Option<UnitId> {
        self.get(rules, hex, 0)
    }

    /// The general in a hex.
    pub(crate) fn general_at(&self, rules: &BattleCry, hex: Hex) -> Option<UnitId> {
        self.get(rules, hex, 1)
    }

    /// The unit in the hex of map index `at`.
    pub(crate) fn unit_at_index(&self, at: usize) -> Option<UnitId> {
        self.get_at(at, 0)
    }

    /// The general in the hex of map index `at`.
    pub(crate) fn general_at_index(&self, at: usize) -> Option<UnitId> {
        self.get_at(at, 1)
    }

    /// Whether any piece stands in a hex.
    pub(crate) fn occupied(&self, rules: &BattleCry, hex: Hex) -> bool {
        rules.map.index(hex).is_some_and(|at| self.occupied_at(at))
    }

    /// Whether any piece stands in the hex of map index `at`.
    pub(crate) fn occupied_at(&self, at: usize) -> bool {
        self.cells.get(at).is_some_and(|&c| c != [NONE; 2])
    }

    /// Whether no piece stands in the hex of map index `at`, on the map.
    #[inline]
    pub(crate) fn empty_at(&self, at: usize) -> bool {
        self.cells.get(at).is_some_and(|&c| c == [NONE; 2])
    }
}

impl Drop for Board {
    fn drop(&mut self) {
        pool::give(&SPARE, std::mem::take(&mut self.cells));
    }
}
