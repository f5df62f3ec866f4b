//! The movement phase's list of each character's actions (its steps, Defend, its
//! charges), kept from one list to the next while a character only turns: a change of
//! facing (SK-ACT-4) is two thirds of a random game's actions, and it changes the steps
//! of the character that turned (a step out of its front arc, SK-MOV-16) and nothing
//! else that the list reads. The state's stamp (`stamp.rs`) tells a state one turn from
//! the kept one. The chapters that list the actions are `movement.rs`, `actions.rs` and
//! `charge/list.rs`.

use super::movement::Gate;
use super::{actions, board, charge, maneuver, melee, movement, Action, Skirmish, State};
use grognard_engine::UnitId;
use std::cell::RefCell;

/// The last movement list: the state it was made for, its gate, each character's
/// actions.
#[derive(Default)]
struct Kept {
    /// The binding that made it (`Skirmish::id`).
    rules: u64,
    /// The stamp number of the state it was made for; 0 while nothing is kept.
    id: u64,
    /// The phase's gate in that state.
    gate: Gate,
    /// The actions of each character of the active side, in turn: its steps, then
    /// Defend and its charges.
    each: Vec<(Vec<Action>, Vec<Action>)>,
}

/// The last melee list: the state it was made for, the attacks and whether the phase
/// may end (neither reads a facing), each character's Maneuvers.
#[derive(Default)]
struct KeptMelee {
    /// The binding that made it (`Skirmish::id`).
    rules: u64,
    /// The stamp number of the state it was made for; 0 while nothing is kept.
    id: u64,
    /// The attacks (SK-MEL-7).
    attacks: Vec<Action>,
    /// Whether the phase may end (SK-TURN-1).
    end: bool,
    /// The Maneuvers of each character of the active side, in turn (SK-SHM-4).
    maneuvers: Vec<Vec<Action>>,
}

thread_local! {
    static KEPT: RefCell<Kept> = RefCell::new(Kept::default());
    static KEPT_MELEE: RefCell<KeptMelee> = RefCell::new(KeptMelee::default());
}

/// How `state` differs from the state numbered `id` for which the binding `kept_rules`
/// kept a list, by its stamp.
fn change(kept_rules: u64, id: u64, rules: &Skirmish, state: &State) -> Change {
    let stamp = state.stamp;
    if id == 0 || kept_rules != rules.id {
        Change::Other
    } else if stamp.id == id {
        Change::Same
    } else if stamp.parent == id {
        stamp.turned.map_or(Change::Other, Change::Turned)
    } else {
        Change::Other
    }
}

/// How a state differs from the kept one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// Nothing the characters' actions read.
    Same,
    /// Only this character's facing (and the count of turns).
    Turned(UnitId),
    /// Anything else, or nothing kept.
    Other,
}

impl Kept {
    /// How `state` differs from the kept state, by its stamp.
    fn change(&self, rules: &Skirmish, state: &State) -> Change {
        change(self.rules, self.id, rules, state)
    }

    /// The phase's gate for `state`, `change` from the kept state: the kept gate when
    /// the character that turned neither moves now (SK-MOV-11, SK-STA-2) nor is
    /// Panicked (SK-STA-2), the only characters whose steps the gate asks about.
    fn gate(&self, rules: &Skirmish, state: &State, change: Change) -> Gate {
        let kept = match change {
            Change::Same => true,
            Change::Turned(u) => {
                state.moving.as_ref().is_none_or(|m| m.unit != u)
                    && !Skirmish::ch(state, u).panicked
            }
            Change::Other => false,
        };
        if kept {
            debug_assert_eq!(
                self.gate,
                rules.gate(state),
                "the kept gate after {change:?}"
            );
            self.gate.clone()
        } else {
            rules.gate(state)
        }
    }
}

/// The movement phase's actions of every character of the active side (its steps,
/// Defend, its charges, character by character), pushed on `out`: those of the
/// characters that a change of facing since the last list did not touch copied from
/// it. Returns the phase's gate ([`Skirmish::gate`]).
pub(crate) fn characters(rules: &Skirmish, state: &State, out: &mut Vec<Action>) -> Gate {
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        let mut change = k.change(rules, state);
        let gate = k.gate(rules, state, change);
        if gate != k.gate {
            change = Change::Other;
        }
        let start = out.len();
        let mut reaches = board::Reaches::default();
        for (i, v) in rules.side_ids(state.active).enumerate() {
            if k.each.len() <= i {
                k.each.push((Vec::new(), Vec::new()));
            }
            let (steps, rest) = &mut k.each[i];
            // A turn changes the steps of the character that turned (SK-MOV-16) and
            // nothing else: Defend and the charges (SK-CHG-1 to SK-CHG-4, SK-CHG-13)
            // read no facing.
            let (new_steps, new_rest) = match change {
                Change::Same => (false, false),
                Change::Turned(u) => (u == v, false),
                Change::Other => (true, true),
            };
            if new_steps {
                steps.clear();
                movement::legal_moves(rules, state, &gate, v, steps);
            }
            if new_rest {
                rest.clear();
                actions::legal_defend(rules, state, &gate, v, rest);
                charge::legal_charges(rules, state, &gate, v, &mut reaches, rest);
            }
            out.extend_from_slice(steps);
            out.extend_from_slice(rest);
        }
        if cfg!(debug_assertions) && change != Change::Other {
            let mut fresh = Vec::new();
            let mut reaches = board::Reaches::default();
            for v in rules.side_ids(state.active) {
                movement::legal_moves(rules, state, &gate, v, &mut fresh);
                actions::legal_defend(rules, state, &gate, v, &mut fresh);
                charge::legal_charges(rules, state, &gate, v, &mut reaches, &mut fresh);
            }
            assert_eq!(fresh, out[start..], "the kept list after {change:?}");
        }
        k.id = state.stamp.id;
        k.rules = rules.id;
        if change == Change::Other {
            k.gate.clone_from(&gate);
        }
        gate
    })
}

/// The melee phase's list (SK-MEL-7 attacks, the changes of facing, the end of the
/// phase when `may_end` says so, SK-SHM-4 Maneuvers), pushed on `out`: after a turn,
/// only the Maneuvers of the character that turned are searched again (a short move's
/// reach reads its facing, SK-SHM-1); neither the attacks nor the end read a facing.
pub(crate) fn melee(
    rules: &Skirmish,
    state: &State,
    out: &mut Vec<Action>,
    may_end: impl Fn() -> bool,
) {
    KEPT_MELEE.with(|k| {
        let mut k = k.borrow_mut();
        let k = &mut *k;
        let change = change(k.rules, k.id, rules, state);
        let start = out.len();
        if change == Change::Other {
            k.attacks.clear();
            melee::legal_attacks(rules, state, &mut k.attacks);
            k.end = may_end();
        }
        out.extend_from_slice(&k.attacks);
        actions::legal_faces(rules, state, out);
        if k.end {
            out.push(Action::EndPhase);
        }
        for (i, v) in rules.side_ids(state.active).enumerate() {
            if k.maneuvers.len() <= i {
                k.maneuvers.push(Vec::new());
            }
            let mine = &mut k.maneuvers[i];
            let fresh = match change {
                Change::Same => false,
                Change::Turned(u) => u == v,
                Change::Other => true,
            };
            if fresh {
                mine.clear();
                maneuver::legal_maneuvers_of(rules, state, v, mine);
            }
            out.extend_from_slice(mine);
        }
        if cfg!(debug_assertions) && change != Change::Other {
            let mut fresh = Vec::new();
            melee::legal_attacks(rules, state, &mut fresh);
            actions::legal_faces(rules, state, &mut fresh);
            if may_end() {
                fresh.push(Action::EndPhase);
            }
            maneuver::legal_maneuvers(rules, state, &mut fresh);
            assert_eq!(fresh, out[start..], "the kept melee list after {change:?}");
        }
        k.id = state.stamp.id;
        k.rules = rules.id;
    });
}
