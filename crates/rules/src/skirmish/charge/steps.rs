//! The runner's steps along its route (SK-CHG-5, SK-CHG-6), found once: the charge's
//! advance asks whether the runner has one (SK-CHG-14) of the very state whose list
//! follows, so the steps it found are kept for that state's list. Machinery, not rules:
//! the checks are [`super::check_step_in`]'s.

use super::check_step_in;
use crate::skirmish::step::StepTo;
use crate::skirmish::{Action, Skirmish, State};
use grognard_engine::UnitId;
use std::cell::RefCell;

/// The steps found as the charge was last advanced.
#[derive(Default)]
struct Kept {
    /// The binding that found them (`Skirmish::id`).
    rules: u64,
    /// The stamp number of the state they were found for (`stamp.rs`); 0 while nothing
    /// is kept, or while the action that found them is under way.
    id: u64,
    /// Found by the action under way: the state it ends with is the one asked about.
    pending: bool,
    /// The runner's steps.
    steps: Vec<Action>,
}

thread_local! {
    static KEPT: RefCell<Kept> = RefCell::new(Kept::default());
}

/// Every step of the runner `u` toward `target` that [`super::check_step`] accepts,
/// pushed on `out`.
fn runner_steps(rules: &Skirmish, state: &State, u: UnitId, target: UnitId, out: &mut Vec<Action>) {
    let Some(h) = Skirmish::ch(state, u).hex else {
        return;
    };
    let field = rules.charge_field(state, u, target);
    let Some(here) = rules.idx(h).map(|i| field[i]) else {
        return;
    };
    for to in h.neighbors() {
        let Some(there) = rules.idx(to).map(|i| field[i]) else {
            continue;
        };
        // Off every shortest route (it costs more than the runner's own hex to reach
        // the target): refused whatever its price, as `check_step_in` refuses it first.
        if here == u32::MAX || there == u32::MAX || there > here {
            continue;
        }
        if check_step_in(rules, state, u, StepTo::hex(to, false), &field, false).is_ok() {
            out.push(Action::Move {
                unit: u,
                to,
                evasive: false,
            });
        }
    }
}

/// SK-CHG-14: whether the runner has a step along its route. The steps are kept: when
/// the runner has one, the charge waits for it, the action ends with this very state
/// and [`stamped`] names it.
pub(super) fn has_step(rules: &Skirmish, state: &State, u: UnitId, target: UnitId) -> bool {
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        k.steps.clear();
        runner_steps(rules, state, u, target, &mut k.steps);
        k.rules = rules.id;
        k.id = 0;
        k.pending = !k.steps.is_empty();
        k.pending
    })
}

/// The action under way is over and its state stamped `id`: the steps found during it,
/// if any, are that state's (`turn::apply` calls it once the state is stamped).
pub(crate) fn stamped(id: u64) {
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        if k.pending {
            k.pending = false;
            k.id = id;
        } else {
            k.id = 0;
        }
    });
}

/// SK-CHG-5: the steps of the charger running now that [`super::check_step`] accepts:
/// those kept for this state when the charge was advanced, else found now.
pub(crate) fn legal_charge_steps(rules: &Skirmish, state: &State, out: &mut Vec<Action>) {
    let Some(ch) = &state.charge else { return };
    let leg = &ch.legs[ch.current];
    let (u, target) = (leg.run.unit, leg.target);
    let id = state.stamp.id;
    let kept = KEPT.with(|k| {
        let k = k.borrow();
        let mine = id != 0 && k.id == id && k.rules == rules.id && !k.pending;
        if mine {
            out.extend_from_slice(&k.steps);
        }
        mine
    });
    if !kept {
        runner_steps(rules, state, u, target, out);
    } else if cfg!(debug_assertions) {
        let mut fresh = Vec::new();
        runner_steps(rules, state, u, target, &mut fresh);
        let n = out.len() - fresh.len();
        assert_eq!(fresh, out[n..], "{u:?}'s kept charge steps");
    }
}
