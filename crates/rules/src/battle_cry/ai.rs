//! How the computer opponent handles Battle Cry (not a rule: how it groups the
//! atomic actions and what it may know).
//!
//! - Every legal action is a plan (a move already goes the whole way, BC-MOV-1);
//!   the pass is the action that closes the current step: stop ordering, stop
//!   moving, end the turn, or let a window go by.
//! - The computer never reads the other hand or the order of the deck (BC-CARD-1):
//!   it searches samples in which the cards it cannot see are dealt again at random
//!   between the other hand and the deck, each keeping its number of cards.

use super::{Action, BattleCry, State};
use grognard_engine::{Dice, Plan, Ruleset, Seat};

impl BattleCry {
    pub(crate) fn ai_plans(&self, state: &State, out: &mut Vec<Plan<Action>>) {
        let mut legal = Vec::new();
        self.legal_actions(state, &mut legal);
        out.extend(legal.into_iter().map(|a| match a {
            Action::Order { unit }
            | Action::Move { unit, .. }
            | Action::Battle { unit, .. }
            | Action::Retreat { unit, .. } => Plan::of_unit(unit, vec![a]),
            _ => Plan::single(a),
        }));
    }

    pub(crate) fn ai_pass(&self, state: &State) -> Option<Action> {
        let mut legal = Vec::new();
        self.legal_actions(state, &mut legal);
        legal.into_iter().find(|a| {
            matches!(
                a,
                Action::DoneOrdering | Action::DoneMoving | Action::EndTurn | Action::Decline
            )
        })
    }

    pub(crate) fn ai_determinize(&self, state: &mut State, seat: &Seat, dice: &mut Dice) {
        let Seat::Side(side) = seat else {
            return;
        };
        let Some(me) = self.side_index(side) else {
            return;
        };
        let other = usize::from(1 - me);
        let mut pool: Vec<_> = state.hands[other].drain(..).collect();
        let held = pool.len();
        pool.append(&mut state.deck);
        // Sorted first, so that the sample depends only on which cards are unseen,
        // not on where they really are; then Fisher-Yates with the search's dice.
        pool.sort_unstable();
        for i in (1..pool.len()).rev() {
            #[expect(
                clippy::cast_possible_truncation,
                reason = "a deck is far below 2^32 cards"
            )]
            let j = dice.next(i as u32 + 1).0 as usize - 1;
            pool.swap(i, j);
        }
        state.deck = pool.split_off(held);
        state.hands[other] = pool;
    }
}
