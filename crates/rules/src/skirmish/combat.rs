//! Combat (`docs/rules/skirmish.md`): what names an attack and the terms of its totals,
//! shared by the melee (SK-MEL-1, SK-MEL-2, SK-MEL-7), the charge (SK-CHG-10,
//! SK-CHG-11) and the missile chapters (SK-MIS-1, SK-MIS-3, SK-MIS-4), whose events
//! carry them.

use serde::{Deserialize, Serialize};

/// Which attack it was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackKind {
    /// A melee-phase attack (SK-MEL-7).
    Melee,
    /// A counterattack (SK-CHG-11, SK-MEL-7).
    Counter,
    /// A charge attack (SK-CHG-10).
    Charge,
    /// An attack of opportunity (SK-MEL-5).
    Opportunity,
    /// A shot in the missile phase (SK-MIS-1).
    Missile,
    /// Reaction fire (SK-MIS-4).
    ReactionFire,
}

/// One term of an attack or defense total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    /// What it is.
    pub what: String,
    /// Its value.
    pub value: i32,
}
