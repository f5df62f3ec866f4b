//! Units and generals: what each piece is and what changes about it. Who stands where (at
//! most one unit and one general a hex; a general attached to the friendly unit it shares
//! a hex with, and only one to a unit: BC-ATT-1) is the `Board`, kept with the speed
//! machinery in `board.rs`.

pub(crate) use super::board::Board;

use grognard_engine::scenario::{UnitType, ValueSpec};
use grognard_engine::UnitId;
use grognard_hex::Hex;
use serde::{Deserialize, Serialize};

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
