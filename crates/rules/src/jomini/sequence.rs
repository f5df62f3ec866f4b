//! Where the game stands for any action: over (JO-TURN-1), a retreat owed first
//! (JO-RET-2), or in which phase (JO-TURN-1). The first gate of the chapters' own gates;
//! the sequencer itself is `turn.rs`.

use super::{Phase, State};
use grognard_engine::Refusal;

/// Why nothing of a phase may be done now, before any message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NotNow {
    /// The game is over.
    Over,
    /// A retreat must be made first.
    Retreat,
    /// Another phase.
    Phase(Phase),
}

/// Whether an action of phase `phase` may be taken now.
pub(crate) fn in_phase(state: &State, phase: Phase) -> Result<(), NotNow> {
    if state.outcome.is_some() {
        return Err(NotNow::Over);
    }
    if state.pending.is_some() {
        return Err(NotNow::Retreat);
    }
    if state.phase != phase {
        return Err(NotNow::Phase(state.phase));
    }
    Ok(())
}

impl NotNow {
    /// The refusal; a wrong phase is refused under `rule` with `what` said of the phase
    /// it is.
    pub(crate) fn refusal(self, rule: &str, what: impl FnOnce(&str) -> String) -> Refusal {
        match self {
            NotNow::Over => Refusal::new("JO-TURN-1", "the game is over"),
            NotNow::Retreat => Refusal::new("JO-RET-2", "a retreat must be made first"),
            NotNow::Phase(p) => Refusal::new(rule, what(p.name())),
        }
    }
}
