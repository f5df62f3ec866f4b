//! Characters: their attributes, weapon, shield and facing as the scenario gives them
//! (SK-CHR-1, SK-CHR-2), and what changes during the fight.

use super::data::Data;
use grognard_engine::scenario::{Unit, UnitType, ValueSpec};
use grognard_hex::{Direction, Hex};
use serde::{Deserialize, Serialize};

/// The scenario unit type of every character.
pub const CHARACTER: &str = "character";

/// SK-CHR-1: a character's attributes as the scenario states them (0 to 6).
pub const ATTRIBUTES: [&str; 6] = [
    "finesse",
    "vigor",
    "morale",
    "weapon_skill",
    "combat",
    "evasion",
];

/// The scenario unit type: the six attributes, a weapon of the data file, an optional
/// shield, an optional missile weapon (SK-MIS-2), and optional traits (Encumbered at the
/// start, a berserker's temper, a formation).
#[must_use]
pub fn unit_type(data: &Data) -> UnitType {
    let mut t = UnitType::new(CHARACTER);
    for a in ATTRIBUTES {
        t = t.value(ValueSpec::int(a, 0, 6));
    }
    t.value(ValueSpec::one_of("weapon", data.weapon.keys().cloned()))
        .value(ValueSpec::one_of("shield", data.shield.keys().cloned()).optional())
        .value(ValueSpec::bool("encumbered").optional())
        .value(ValueSpec::bool("berserker").optional())
        .value(ValueSpec::text("formation").optional())
        .value(ValueSpec::one_of("missile", data.missile.keys().cloned()).optional())
}

/// What a character is, fixed for the game.
#[derive(Clone, Debug)]
pub struct Character {
    /// Scenario id.
    pub id: String,
    /// Name for players.
    pub name: String,
    /// Index of its side in play order (0 plays first).
    pub side: u8,
    /// Finesse: movement points, the difficult-terrain check.
    pub finesse: u8,
    /// Vigor: attack, defense, wounds.
    pub vigor: u8,
    /// Morale: charges, panic, recovery.
    pub morale: u8,
    /// Weapon Skill: attack, and defense with a weapon.
    pub weapon_skill: u8,
    /// Combat: defense with a shield only.
    pub combat: u8,
    /// Evasion: defense with neither weapon nor shield.
    pub evasion: u8,
    /// The weapon's name in the data file.
    pub weapon: String,
    /// The shield's name, if any.
    pub shield: Option<String>,
    /// Encumbered at the start.
    pub encumbered: bool,
    /// Fails panic checks into Berserk rather than Panic (SK-MOR-5).
    pub berserker: bool,
    /// The formation it charges with (SK-CHG-13).
    pub formation: Option<String>,
    /// Its missile weapon's name in the data file, if it carries one (SK-MIS-2).
    pub missile: Option<String>,
    /// Where it starts.
    pub start: Hex,
    /// Its facing at the start.
    pub facing: Direction,
}

fn attr(u: &Unit, key: &str) -> u8 {
    u.int(key).and_then(|v| u8::try_from(v).ok()).unwrap_or(0)
}

impl Character {
    /// The character of a scenario unit on the map; `side` is its side's index and
    /// `facing` its facing (the scenario's, or the default chosen by the caller).
    #[must_use]
    pub fn from_unit(u: &Unit, side: u8, start: Hex, facing: Direction) -> Character {
        Character {
            id: u.id.clone(),
            name: u.name.clone().unwrap_or_else(|| u.id.clone()),
            side,
            finesse: attr(u, "finesse"),
            vigor: attr(u, "vigor"),
            morale: attr(u, "morale"),
            weapon_skill: attr(u, "weapon_skill"),
            combat: attr(u, "combat"),
            evasion: attr(u, "evasion"),
            weapon: u.text("weapon").unwrap_or("unarmed").to_owned(),
            shield: u.text("shield").map(str::to_owned),
            encumbered: u.flag("encumbered").unwrap_or(false),
            berserker: u.flag("berserker").unwrap_or(false),
            formation: u.text("formation").map(str::to_owned),
            missile: u.text("missile").map(str::to_owned),
            start,
            facing,
        }
    }
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A character's changing values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CharState {
    /// Where it is; `None` once out of action or fled.
    #[serde(with = "grognard_engine::wire::opt_label")]
    pub hex: Option<Hex>,
    /// The hexside it faces (SK-FAC-1).
    pub facing: Direction,
    /// Damage taken (SK-STA-4, SK-STA-7).
    pub damage: u8,
    /// Movement points left this active turn.
    pub mp: u8,
    /// Its Quick Action is still available (SK-ACT-1).
    pub quick: bool,
    /// Its Complex Action is still available.
    pub complex: bool,
    /// Its Melee Action is still available (a Dazed character has none).
    pub melee: bool,
    /// Counterattacks and attacks of opportunity made this phase (SK-CHG-12).
    #[serde(default)]
    pub ripostes: u8,
    /// Attacks received this melee phase (SK-MEL-1: +1 per extra attack).
    #[serde(default)]
    pub attacked: u8,
    /// Dazed (SK-STA-1).
    #[serde(default, skip_serializing_if = "is_false")]
    pub dazed: bool,
    /// Panicked (SK-STA-2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub panicked: bool,
    /// Berserk (SK-STA-3).
    #[serde(default, skip_serializing_if = "is_false")]
    pub berserk: bool,
    /// Encumbered (SK-STA-5).
    #[serde(default, skip_serializing_if = "is_false")]
    pub encumbered: bool,
    /// Out of action (SK-STA-7).
    #[serde(default, skip_serializing_if = "is_false")]
    pub out: bool,
    /// Fled off the map (SK-STA-2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub fled: bool,
    /// Has taken a step this movement phase.
    #[serde(default, skip_serializing_if = "is_false")]
    pub moved: bool,
    /// Its movement this phase is over (SK-MOV-7).
    #[serde(default, skip_serializing_if = "is_false")]
    pub done: bool,
    /// Took a Complex Action this turn: it cannot move (SK-MOV-5).
    #[serde(default, skip_serializing_if = "is_false")]
    pub took_complex: bool,
    /// Its last hex was moved evasively (SK-MOV-14).
    #[serde(default, skip_serializing_if = "is_false")]
    pub evasive: bool,
    /// Defending, +2 Melee Defense, until the morale phase of this active turn number
    /// (SK-ACT-3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defending: Option<u32>,
    /// Recovered from Dazed with its next CA and QA spent (SK-MOR-2).
    #[serde(default, skip_serializing_if = "is_false")]
    pub spent: bool,
    /// Must take a panic check in the next morale phase (SK-MOR-3).
    #[serde(default, skip_serializing_if = "is_false")]
    pub shaken: bool,
}

impl CharState {
    /// On the map and in the fight.
    #[must_use]
    pub fn in_play(&self) -> bool {
        self.hex.is_some()
    }
}
