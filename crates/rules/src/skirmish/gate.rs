//! The movement phase's gate (SK-MOV-7, SK-MOV-11, SK-STA-2): what the phase as a whole
//! asks before a character acts, as reason codes that build no words until a refusal is
//! asked for. The chapter that uses it is `movement.rs`.

use super::step::StepTo;
use super::{walks, Skirmish, State};
use grognard_engine::{Refusal, UnitId};

/// What the movement phase as a whole asks before a character acts: the movement under
/// way must go on (SK-MOV-11, SK-STA-2), or a Panicked character must flee first
/// (SK-STA-2).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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

impl Skirmish {
    /// Whether `u` has any step now (outside a charge).
    pub(crate) fn has_step(&self, state: &State, u: UnitId) -> bool {
        let c = Self::ch(state, u);
        if c.hex.is_none() {
            return false;
        }
        if self.can_move(state, u).is_err() {
            return false;
        }
        let field = c.panicked.then(|| self.flight_field(state, u));
        let field = field.as_deref();
        walks::any_step(self, state, u, field)
            || self
                .step_ok_in(state, u, StepTo::OFF_MAP, field, false)
                .is_ok()
    }

    /// What the phase asks before anyone acts (computed once per question).
    pub(crate) fn gate(&self, state: &State) -> Gate {
        Gate {
            go_on: self.must_go_on(state),
            flight: self.pending_flight(state),
        }
    }

    /// Why the character moving now may not stop yet (SK-MOV-11: it stands in a friend's
    /// hex; SK-STA-2: it is Panicked and can still flee), if it may not.
    pub(crate) fn must_go_on(&self, state: &State) -> Option<GoOn> {
        let m = state.moving.as_ref()?;
        let u = m.unit;
        // The cheap questions first: the search for a step is the dear one.
        let go_on = if self.on_friend(state, u) {
            GoOn::OnFriend(u)
        } else if Self::ch(state, u).panicked {
            GoOn::Panicked(u)
        } else {
            return None;
        };
        self.has_step(state, u).then_some(go_on)
    }

    /// SK-STA-2: the first Panicked character of the active side that has yet to flee and
    /// can.
    pub(crate) fn pending_flight(&self, state: &State) -> Option<UnitId> {
        self.side_ids(state.active).find(|&p| {
            let c = Self::ch(state, p);
            c.panicked && !c.done && c.in_play() && self.has_step(state, p)
        })
    }
}
