//! Which state a [`State`] is, as the kept movement list (`kept_list.rs`) follows it:
//! the [`Stamp`] every action gives the state. Nothing here decides a rule.

use super::State;
use crate::common::stamp::next_id;
use grognard_engine::UnitId;

/// A number no other state of the process carries, and, when the state is one change of
/// facing from another (SK-ACT-4) and nothing else, that state's number and the
/// character that turned.
///
/// Every action goes through `turn::apply`, which stamps the state anew when it is done
/// (and leaves it of unknown number while it is made). A clone keeps its stamp, which is
/// right, being the same position. A state of unknown history (new, or read from a file)
/// has number 0, which nothing trusts. Code that changes a stamped state by hand
/// afterwards must call [`State::edited`]: debug builds check every kept list against a
/// fresh one, so a stale stamp fails there.
///
/// Never part of the game: two states compare equal whatever their stamps, and nothing
/// of it is written or shown.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stamp {
    /// This state's number; 0 for one of unknown history.
    pub id: u64,
    /// The number of the state one action before, when that action only turned
    /// `turned`; 0 otherwise.
    pub parent: u64,
    /// The character whose facing alone the action from `parent` changed.
    pub turned: Option<UnitId>,
}

impl PartialEq for Stamp {
    fn eq(&self, _: &Stamp) -> bool {
        true
    }
}

impl Eq for Stamp {}

impl Stamp {
    /// The stamp of a state made by an action from the state numbered `before`:
    /// `turned` when the action changed that character's facing (and the count of
    /// turns) and nothing else.
    pub(crate) fn after(before: u64, turned: Option<UnitId>) -> Stamp {
        let turned = turned.filter(|_| before != 0);
        Stamp {
            id: next_id(),
            parent: if turned.is_some() { before } else { 0 },
            turned,
        }
    }
}

impl State {
    /// Marks the state as changed by hand rather than by an action: no list kept for
    /// the state it was (`kept_list.rs`) is trusted for it. Code that changes the fields
    /// of a state that actions were applied to calls it.
    pub fn edited(&mut self) {
        self.stamp = Stamp::default();
    }
}

// A state's text leaves out its [`Stamp`]: the text of a state is its game alone.
crate::common::state::debug_without_stamp!(
    State: turn, active, phase, chars, moving, charge, window, turned, outcome
);

#[cfg(test)]
mod tests {
    use grognard_engine::Ruleset;

    /// The stamp is no part of the game: a state compares equal to, and reads and writes
    /// as, its copy of unknown history; the turns of a random game are stamped as such,
    /// every other action not.
    #[test]
    fn the_stamp_is_no_part_of_the_game_and_names_the_turns() {
        let (rules, states) = crate::skirmish::test_games::random_states(5, 777, 300);
        // The hexes are written as labels, which need the scenario's names.
        let json = |s: &super::State| {
            rules
                .names()
                .scope(|| serde_json::to_string(s).expect("writes"))
        };
        let mut turns = 0;
        for pair in states.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let mut unknown = after.clone();
            unknown.edited();
            assert_eq!(unknown.stamp.id, 0);
            assert_eq!(&unknown, after);
            assert_eq!(format!("{unknown:?}"), format!("{after:?}"));
            assert_eq!(json(&unknown), json(after));
            assert_ne!(after.stamp.id, 0);
            if let Some(u) = after.stamp.turned {
                assert_eq!(after.stamp.parent, before.stamp.id);
                let mut back = after.clone();
                back.chars[u.index()].facing = before.chars[u.index()].facing;
                back.turned = before.turned;
                assert_eq!(&back, before, "only {u:?}'s facing changed");
                turns += 1;
            }
        }
        assert!(turns > 10, "{turns} turns");
    }
}
