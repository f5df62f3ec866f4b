//! Combat (`docs/rules/skirmish.md`): what names an attack and the terms of its totals,
//! shared by the melee (SK-MEL-1, SK-MEL-2, SK-MEL-7), the charge (SK-CHG-10,
//! SK-CHG-11) and the missile chapters (SK-MIS-1, SK-MIS-3, SK-MIS-4), whose events
//! carry them.

use super::{Skirmish, State};
use grognard_engine::{Text, UnitId};
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
    /// What it is (the words of the rules held without a copy, a name or a formatted
    /// term as its own string).
    pub what: Text,
    /// Its value.
    pub value: i32,
}

/// Adds a term to a total, unless it is nought.
pub(crate) fn term(terms: &mut Vec<Term>, what: impl Into<Text>, value: i32) {
    if value != 0 {
        terms.push(Term {
            what: what.into(),
            value,
        });
    }
}

/// A name read from the scenario (a weapon's, a shield's) as the words of a term: copied
/// only when the term is kept.
pub(crate) struct Name<'a>(pub &'a str);

impl From<Name<'_>> for Text {
    fn from(name: Name<'_>) -> Text {
        Text::owned(name.0.to_owned())
    }
}

/// SK-STA-4, SK-STA-5: -1 to an attack or a defense (melee, SK-MEL-1, SK-MEL-2, or a
/// shot, SK-MIS-3) when Wounded or Encumbered; the two penalties do not add up.
pub(crate) fn hindrance(rules: &Skirmish, state: &State, u: UnitId, terms: &mut Vec<Term>) {
    if rules.hindered(state, u) {
        let why = if rules.wounded(state, u) {
            "Wounded"
        } else {
            "Encumbered"
        };
        term(terms, why, -1);
    }
}

/// [`hindrance`] on a [`Tally`].
pub(crate) fn hindered(rules: &Skirmish, state: &State, u: UnitId, tally: &mut Tally) {
    if rules.hindered(state, u) {
        let why = if rules.wounded(state, u) {
            "Wounded"
        } else {
            "Encumbered"
        };
        tally.add(why, -1);
    }
}

/// How much of an attack's totals (`melee::calc`) in words: the totals alone (the
/// question whether a target is in reach, or an attack made in a quiet context), their
/// terms too (an attack made, whose events carry them), or the reasons as well.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Words {
    Totals,
    Terms,
    Reasons,
}

/// A total, and its terms when they are wanted in words: [`term`] without the words
/// (nor the copies of names they take) when they are not.
pub(crate) struct Tally {
    pub total: i32,
    pub terms: Option<Vec<Term>>,
}

impl Tally {
    pub(crate) fn new(words: Words) -> Tally {
        let terms = (words >= Words::Terms).then(Vec::new);
        Tally { total: 0, terms }
    }

    /// [`term`]: adds `value`, unless it is nought; `what` is written only when kept.
    pub(crate) fn add(&mut self, what: impl Into<Text>, value: i32) {
        if value != 0 {
            self.total += value;
            if let Some(terms) = &mut self.terms {
                terms.push(Term {
                    what: what.into(),
                    value,
                });
            }
        }
    }
}

/// A total's terms in words.
pub(crate) fn list(terms: &[Term]) -> String {
    use std::fmt::Write as _;
    let mut words = String::new();
    for (i, t) in terms.iter().enumerate() {
        if i > 0 {
            words.push_str(", ");
        }
        let _ = write!(words, "{} {:+}", t.what, t.value);
    }
    words
}
