//! A game ended from outside its rules: a side resigned, or ran out of time. The
//! rules know nothing of clocks or of players who give up; the game records the
//! ending beside its log, and from then on answers it as its outcome, whatever
//! ruleset it is played under.

use crate::ruleset::Outcome;
use crate::scenario::Scenario;
use serde::{Deserialize, Serialize};

/// How a side left the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndingKind {
    /// The side gave up.
    Resigned,
    /// The side's time per move ran out.
    Time,
}

impl EndingKind {
    /// The rule ID an outcome of this kind carries.
    #[must_use]
    pub fn rule(self) -> &'static str {
        match self {
            EndingKind::Resigned => "ENGINE-RESIGN",
            EndingKind::Time => "ENGINE-TIME",
        }
    }
}

/// A game ended from outside its rules: `side` lost, in the way `kind` says, after
/// `at_action` actions of the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ending {
    /// The side that lost.
    pub side: String,
    /// How.
    pub kind: EndingKind,
    /// How many actions the log held when the game ended.
    pub at_action: usize,
}

impl Ending {
    /// The outcome this ending gives in `scenario`: the other side wins when there is
    /// exactly one other; among more sides nobody is named winner.
    #[must_use]
    pub fn outcome(&self, scenario: &Scenario) -> Outcome {
        let title = |id: &str| {
            scenario
                .sides
                .iter()
                .find(|s| s.id == id)
                .map_or_else(|| id.to_owned(), |s| s.name.clone())
        };
        let others: Vec<&str> = scenario
            .sides
            .iter()
            .map(|s| s.id.as_str())
            .filter(|id| *id != self.side)
            .collect();
        let winner = match others.as_slice() {
            [one] => Some((*one).to_owned()),
            _ => None,
        };
        let reason = match self.kind {
            EndingKind::Resigned => format!("{} resigned", title(&self.side)),
            EndingKind::Time => format!(
                "{} lost on time (the time per move ran out)",
                title(&self.side)
            ),
        };
        Outcome {
            winner,
            reason,
            rule: Some(self.kind.rule().to_owned()),
        }
    }
}
