//! Machinery, not rules: the charge fields of [`Skirmish::charge_field`] and the
//! chargers' reaches (`Skirmish::charge_reach`) kept between questions.
//!
//! A charger's field (the cost from every hex to where its target is in optimal reach,
//! SK-CHG-5) is a function of where everyone else stands, of the hexes a route may pass
//! (`charge_through_bits`) and of the hex where its search stopped; so the field worked
//! out before a step still answers after it, the others standing where they stood, as
//! long as the charger's new hex cost no more than the one the search stopped at (every
//! cost up to there is exact). A charger's reach reads, besides where the charger and
//! its enemies stand, only the hexes a route may pass and who stands around the
//! enemies (`ReachInputs`); it still answers when the friends that moved since changed
//! neither. Debug builds check every field and reach kept this way against a fresh one.

use super::charge_path::ReachInputs;
use super::{Skirmish, State};
use grognard_engine::UnitId;
use grognard_hex::Hex;
use std::cell::RefCell;
use std::rc::Rc;

/// A charge field kept by [`kept_field`].
struct Kept {
    rules: u64,
    unit: UnitId,
    target: UnitId,
    /// Where every character stood when last asked (the charger's own hex may differ).
    standing: Vec<Option<Hex>>,
    /// The hexes a route could pass when the field was worked out (on bit sets).
    through: Option<u128>,
    /// Every hex costing at most this is exact in `field`.
    exact: u32,
    field: Rc<[u32]>,
}

/// How many fields [`kept_field`] keeps.
const KEPT: usize = 8;

thread_local! {
    /// The last fields, and the slot the next one takes.
    static KEPT_FIELDS: RefCell<(Vec<Kept>, usize)> = const { RefCell::new((Vec::new(), 0)) };
}

/// [`Skirmish::charge_field`] of `u` toward `target`: a kept field when one answers for
/// `state`, else a new one.
pub(super) fn kept_field(rules: &Skirmish, state: &State, u: UnitId, target: UnitId) -> Rc<[u32]> {
    let standing = || state.chars.iter().map(|c| c.hex);
    let me = Skirmish::ch(state, u).hex.and_then(|h| rules.idx(h));
    let hit = KEPT_FIELDS.with(|k| {
        let mut k = k.borrow_mut();
        let mut through = None;
        let kept = k.0.iter_mut().find(|k| {
            if k.rules != rules.id || k.unit != u || k.target != target {
                return false;
            }
            let mut moved = false;
            let others_stay = k.standing.len() == state.chars.len()
                && k.standing
                    .iter()
                    .zip(standing())
                    .enumerate()
                    .all(|(i, (&was, now))| {
                        if was == now {
                            return true;
                        }
                        moved = true;
                        i == u.index()
                    });
            if !others_stay {
                return false;
            }
            if !moved {
                return true;
            }
            // The charger alone moved: the field holds if its new hex is exact in it
            // and a route may pass the same hexes.
            me.is_some_and(|i| k.field.get(i).is_some_and(|&c| c <= k.exact))
                && k.through.is_some()
                && *through.get_or_insert_with(|| rules.charge_through_bits(state, u)) == k.through
        })?;
        kept.standing.clear();
        kept.standing.extend(standing());
        Some(Rc::clone(&kept.field))
    });
    if let Some(field) = hit {
        if cfg!(debug_assertions) {
            check(rules, state, u, target, &field);
        }
        return field;
    }
    let inputs = rules.reach_inputs(state, u);
    let through = inputs.map(|r| r.through);
    let field: Rc<[u32]> = Rc::from(rules.charge_field_read(state, u, target, inputs));
    let exact = me.map_or(u32::MAX, |i| field[i]);
    KEPT_FIELDS.with(|k| {
        let mut k = k.borrow_mut();
        let next = k.1;
        if k.0.len() < KEPT {
            k.0.push(Kept {
                rules: rules.id,
                unit: u,
                target,
                standing: standing().collect(),
                through,
                exact,
                field: Rc::clone(&field),
            });
        } else if let Some(slot) = k.0.get_mut(next) {
            // Written over in place: the list of who stands where keeps its allocation.
            slot.rules = rules.id;
            slot.unit = u;
            slot.target = target;
            slot.standing.clear();
            slot.standing.extend(standing());
            slot.through = through;
            slot.exact = exact;
            slot.field = Rc::clone(&field);
        }
        k.1 = (next + 1) % KEPT;
    });
    field
}

/// Debug builds: a kept field answers every question about the charger's steps as a
/// fresh one does: the same cost at every hex costing no more than the charger's own in
/// either.
fn check(rules: &Skirmish, state: &State, u: UnitId, target: UnitId, kept: &[u32]) {
    let fresh = rules.charge_field_now(state, u, target);
    let me = Skirmish::ch(state, u).hex.and_then(|h| rules.idx(h));
    let known = |f: &[u32]| me.map_or(u32::MAX, |i| f[i]);
    let (a, b) = (known(kept), known(&fresh));
    assert_eq!(a, b, "{u:?}'s charge field toward {target:?} at its hex");
    for (i, (&k, &f)) in kept.iter().zip(&fresh).enumerate() {
        if k <= a || f <= b {
            assert_eq!(
                k, f,
                "{u:?}'s kept charge field toward {target:?} at hex {i}"
            );
        }
    }
}

/// A charger's reach kept by [`kept_reach`].
struct KeptReach {
    rules: u64,
    unit: UnitId,
    mp: u32,
    /// Where every character stood when worked out.
    standing: Vec<Option<Hex>>,
    /// The hexes near the enemies whose occupants the search read, and what it read of
    /// where the others stand (`None` where the bit sets did not serve: then the reach
    /// holds only for the same standing).
    read: Option<(u128, ReachInputs)>,
    reached: Rc<[u32]>,
}

/// How many reaches [`kept_reach`] keeps (a list asks for every charger's).
const KEPT_REACHES: usize = 16;

thread_local! {
    /// The last reaches, and the slot the next one takes.
    static REACHES: RefCell<(Vec<KeptReach>, usize)> = const { RefCell::new((Vec::new(), 0)) };
}

/// `Skirmish::charge_reach` of `u` within `mp` points: a kept reach when one answers for
/// `state`, else a new one. A reach holds while `u` and its enemies stand where they
/// stood and the search would read the same of where the others stand
/// ([`ReachInputs`]): a friend that moved between hexes it passes alike, away from the
/// enemies, changes nothing (a movement list after each step of a character asks for
/// every charger's reach).
pub(super) fn kept_reach(rules: &Skirmish, state: &State, u: UnitId, mp: u32) -> Rc<[u32]> {
    let standing = || state.chars.iter().map(|c| c.hex);
    let side = rules.side_of(u);
    let mut inputs = None;
    let hit = REACHES.with(|k| {
        let k = k.borrow();
        let kept = k.0.iter().find(|k| {
            if k.rules != rules.id
                || k.unit != u
                || k.mp != mp
                || k.standing.len() != state.chars.len()
                || k.standing[u.index()] != Skirmish::ch(state, u).hex
            {
                return false;
            }
            let mut same = true;
            let enemies_stay =
                k.standing
                    .iter()
                    .zip(standing())
                    .enumerate()
                    .all(|(i, (&was, now))| {
                        if was == now {
                            return true;
                        }
                        same = false;
                        i != u.index() && rules.side_of_char[i] == side
                    });
            if !enemies_stay {
                return false;
            }
            if same {
                return true;
            }
            let Some((near, read)) = k.read else {
                return false;
            };
            inputs
                .get_or_insert_with(|| rules.reach_inputs(state, u))
                .is_some_and(|now| now.near(near) == read)
        })?;
        Some(Rc::clone(&kept.reached))
    });
    if let Some(reached) = hit {
        if cfg!(debug_assertions) {
            let fresh = rules.charge_reach(state, u, mp).0;
            assert_eq!(
                &fresh[..],
                &reached[..],
                "{u:?}'s kept charge reach within {mp}"
            );
        }
        return reached;
    }
    let (reached, read) = rules.charge_reach(state, u, mp);
    let read = read.map(|(near, now)| (near, now.near(near)));
    REACHES.with(|k| {
        let mut k = k.borrow_mut();
        // The charger's reach from elsewhere gives way first, else the oldest.
        let next =
            k.0.iter()
                .position(|k| k.rules == rules.id && k.unit == u && k.mp == mp)
                .unwrap_or(k.1);
        if k.0.len() < KEPT_REACHES && next == k.1 {
            k.0.push(KeptReach {
                rules: rules.id,
                unit: u,
                mp,
                standing: standing().collect(),
                read,
                reached: Rc::clone(&reached),
            });
        } else if let Some(slot) = k.0.get_mut(next) {
            slot.rules = rules.id;
            slot.unit = u;
            slot.mp = mp;
            slot.standing.clear();
            slot.standing.extend(standing());
            slot.read = read;
            slot.reached = Rc::clone(&reached);
        }
        if next == k.1 {
            k.1 = (next + 1) % KEPT_REACHES;
        }
    });
    reached
}
