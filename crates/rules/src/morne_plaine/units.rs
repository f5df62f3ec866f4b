//! Counters: classes and the values printed on them (docs/rules/morne-plaine.md, the
//! recovered rows).

use grognard_engine::scenario::{Unit, UnitType, ValueSpec};
use grognard_engine::UnitId;
use grognard_hex::Hex;
use serde::{Deserialize, Serialize};

/// A unit's class, as the Movement Cost Chart's columns name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// A leader: no morale value; a command radius in stripes.
    Leader = 0,
    /// Infantry.
    Infantry = 1,
    /// Cavalry (mounted unless it rides dromedaries).
    Cavalry = 2,
    /// Artillery: a bombardment value and a range.
    Artillery = 3,
}

impl Class {
    /// The column of this class in the cost tables.
    #[must_use]
    pub fn column(self) -> usize {
        self as usize
    }

    /// The scenario type name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Class::Leader => "leader",
            Class::Infantry => "infantry",
            Class::Cavalry => "cavalry",
            Class::Artillery => "artillery",
        }
    }
}

/// What a counter says, fixed for the game.
#[derive(Clone, Debug)]
pub struct Counter {
    /// Scenario id.
    pub id: String,
    /// Index of its side in play order (0 plays first).
    pub side: u8,
    /// Class.
    pub class: Class,
    /// Mounted (MP-CHG-1, MP-ZOC-13: cavalry and leaders are; MP-CHG-2: dromedary units
    /// never are).
    pub mounted: bool,
    /// Combat Strength at full strength.
    pub cs: u8,
    /// Movement Allowance.
    pub ma: u8,
    /// Morale Value at the start (0 for leaders, who have none: MP-REF-7).
    pub mv: u8,
    /// Leaders' command radius, the stripes on the counter.
    pub stripes: u8,
    /// Artillery's Bombardment Value.
    pub bv: u8,
    /// Artillery's range in hexes (the cannonballs on the counter).
    pub range: u8,
    /// Where it starts; `None` for a reinforcement.
    pub start: Option<Hex>,
    /// A reinforcement's turn and entry hex.
    pub enters: Option<(u32, Hex)>,
}

fn small(u: &Unit, key: &str) -> u8 {
    u.int(key).and_then(|v| u8::try_from(v).ok()).unwrap_or(0)
}

impl Counter {
    /// The counter of a scenario unit; `side` is the index of its side in play order.
    #[must_use]
    pub fn from_unit(u: &Unit, side: u8) -> Counter {
        let class = match u.kind.as_str() {
            "leader" => Class::Leader,
            "cavalry" => Class::Cavalry,
            "artillery" => Class::Artillery,
            _ => Class::Infantry,
        };
        let dromedary = u.text("class") == Some("dromedary");
        Counter {
            id: u.id.clone(),
            side,
            class,
            mounted: matches!(class, Class::Leader) || (class == Class::Cavalry && !dromedary),
            cs: small(u, "cs"),
            ma: small(u, "ma"),
            mv: small(u, "mv"),
            stripes: small(u, "stripes"),
            bv: small(u, "bv"),
            range: small(u, "range"),
            start: u.hex,
            enters: u.enters.map(|e| (e.turn, e.hex)),
        }
    }
}

/// The scenario unit types of Morne Plaine.
#[must_use]
pub fn unit_types() -> Vec<UnitType> {
    let base = |name: &str| {
        UnitType::new(name)
            .value(ValueSpec::int("cs", 1, 20))
            .value(ValueSpec::int("ma", 1, 20))
    };
    vec![
        base("infantry").value(ValueSpec::int("mv", 0, 9)),
        base("cavalry")
            .value(ValueSpec::int("mv", 0, 9))
            .value(ValueSpec::one_of("class", ["light", "heavy", "dromedary"]).optional()),
        base("artillery")
            .value(ValueSpec::int("mv", 0, 9))
            .value(ValueSpec::int("bv", 1, 20))
            .value(ValueSpec::int("range", 1, 6)),
        base("leader").value(ValueSpec::int("stripes", 0, 5)),
    ]
}

/// A unit's changing values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitState {
    /// Where it is; `None` once eliminated or while a reinforcement waits off the map.
    #[serde(with = "grognard_engine::wire::opt_label")]
    pub hex: Option<Hex>,
    /// A reinforcement not yet on the map.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub waiting: bool,
    /// Current Combat Strength (MP-CMB-20: 0 is eliminated).
    pub cs: u8,
    /// Current Morale Value (MP-DEM-1: 0 is demoralised).
    pub mv: u8,
    /// Movement points left in this movement phase.
    pub mp: u8,
    /// Has taken a step this movement phase (the free first road step is gone).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub moved: bool,
    /// May move no further this phase (entered a zone of control, stuck in a bog,
    /// fired).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stopped: bool,
    /// Jumped a crossroads: the next road hex is paid at the terrain's cost (MP-ROAD-5).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub road_penalty: bool,
    /// Fired in this turn's bombardment phase (and so may not move).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub fired: bool,
    /// Has attacked in this combat phase.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub attacked: bool,
    /// Has been attacked in this combat phase.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub defended: bool,
    /// Made an enemy retreat or eliminated one since its side's movement phase began
    /// (MP-VICU-1): supports whatever its contacts (MP-CMB-10).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub victorious: bool,
    /// Charged this unit successfully this movement phase: x1.5 strength in the attack on
    /// it that follows (MP-CHG-17).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charged: Option<UnitId>,
}
