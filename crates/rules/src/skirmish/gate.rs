//! The movement phase's gate (SK-MOV-7, SK-MOV-11, SK-STA-2): what the phase as a whole
//! asks before a character acts, as reason codes that build no words until a refusal is
//! asked for. The chapter that uses it is `movement.rs`.

use super::{Skirmish, State};
use grognard_engine::{Refusal, UnitId};

/// What the movement phase as a whole asks before a character acts: the movement under
/// way must go on (SK-MOV-11, SK-STA-2), or a Panicked character must flee first
/// (SK-STA-2).
#[derive(Clone, Debug, Default)]
pub(crate) struct Gate {
    /// Why the character moving now may not stop, if it may not (a reason code, worded
    /// by [`GoOn::refusal`]).
    pub go_on: Option<GoOn>,
    /// A Panicked character that must flee before anyone else moves.
    pub flight: Option<UnitId>,
}

/// Why the character moving now may not stop yet (a reason code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GoOn {
    /// It stands in a friend's hex (SK-MOV-11).
    OnFriend(UnitId),
    /// It is Panicked and can still flee (SK-STA-2).
    Panicked(UnitId),
}

impl GoOn {
    /// The refusal, with its message.
    pub(crate) fn refusal(self, rules: &Skirmish) -> Refusal {
        match self {
            GoOn::OnFriend(u) => Refusal::new(
                "SK-MOV-11",
                format!(
                    "{} stands in a friend's hex and must move on: a movement never ends there",
                    rules.name(u)
                ),
            ),
            GoOn::Panicked(u) => Refusal::new(
                "SK-STA-2",
                format!(
                    "{} is Panicked and must flee as far as it can",
                    rules.name(u)
                ),
            ),
        }
    }
}

/// Why the rest of the side keeps a character from acting now (a reason code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Barred {
    /// Another character's movement must go on (SK-MOV-11, SK-STA-2).
    GoOn,
    /// This Panicked character must flee first (SK-STA-2).
    Flight(UnitId),
}

impl Gate {
    /// SK-MOV-7, SK-STA-2: whether `u` may start or go on moving as far as the rest of
    /// the side is concerned; a reason code, worded by [`Gate::admits`]. The character
    /// moving now is never barred: its movement finishes before a flight begins.
    pub(crate) fn bars(&self, state: &State, u: UnitId) -> Option<Barred> {
        if let Some(m) = &state.moving {
            // SK-MOV-7: the movement under way finishes first, even when a friend it
            // passed became Panicked meanwhile (else neither could act).
            if m.unit == u {
                return None;
            }
            if self.go_on.is_some() {
                return Some(Barred::GoOn);
            }
        }
        match self.flight {
            Some(p) if !Skirmish::ch(state, u).panicked => Some(Barred::Flight(p)),
            _ => None,
        }
    }

    /// [`Gate::bars`] with its refusal worded.
    pub(crate) fn admits(&self, rules: &Skirmish, state: &State, u: UnitId) -> Result<(), Refusal> {
        match self.bars(state, u) {
            None => Ok(()),
            Some(b) => Err(self.refusal(rules, b)),
        }
    }

    /// The words of a bar.
    pub(crate) fn refusal(&self, rules: &Skirmish, b: Barred) -> Refusal {
        match b {
            Barred::GoOn => self
                .go_on
                .expect("barred by a movement that goes on")
                .refusal(rules),
            Barred::Flight(p) => Refusal::new(
                "SK-STA-2",
                format!(
                    "{} is Panicked and must flee before any other character moves",
                    rules.name(p)
                ),
            ),
        }
    }
}
