//! Search machinery, not rules: who stands where, as one character's steps read it
//! (`step.rs`). A route search prices hundreds of steps of the same character while the
//! others stand still; the hexes they hold and the enemy zones (SK-ZOC-1) are laid out
//! by map index once a search and read at each step instead of walking every character
//! again.

use super::{Skirmish, State};
use grognard_engine::UnitId;
use grognard_hex::Hex;

/// What a step from `from` into `to` finds of the other characters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Look {
    /// The first two characters other than the mover in `to`, by index.
    pub here: [Option<UnitId>; 2],
    /// Whether `to` lies in an enemy's zone of control.
    pub in_zone: bool,
    /// Whether some enemy's zone covers `to` but not `from`.
    pub enters: bool,
    /// Whether a friend other than the mover stands in `from`.
    pub passing: bool,
}

/// The other characters laid out by map index for one mover's route search.
pub(crate) struct Crowd {
    /// Up to two characters other than the mover in each hex, as index + 1 (0: none).
    here: Vec<[u16; 2]>,
    /// The mover's enemies whose zones cover each hex, a bit each by character index
    /// (empty when there are too many characters for the bits: then [`walk`] answers).
    zone: Vec<u64>,
    /// Whether a friend other than the mover stands in each hex.
    friend: Vec<bool>,
    mover: UnitId,
    /// For the steps out of one hex only ([`Crowd::near`]): that hex, and the others
    /// within the zone's radius + 1 of it (by index, hex and whether a friend), the only
    /// ones a step out of it can find.
    near: Option<(Hex, Near)>,
}

/// How many others [`Near`] holds: more near one hex, and the steps walk every
/// character instead.
const NEAR: usize = 16;

/// The others near one hex, held in place (the lists ask for one per character, and a
/// heap allocation each cost more than the list).
#[derive(Clone, Copy)]
struct Near {
    len: usize,
    /// Each by index (an index past `u16` and the steps walk every character), hex and
    /// whether a friend, packed small so that the layout is cheap to write and move.
    others: [(u16, Hex, bool); NEAR],
}

impl Near {
    fn iter(&self) -> impl Iterator<Item = Other> + '_ {
        self.others[..self.len]
            .iter()
            .map(|&(i, h, friend)| (usize::from(i), h, friend))
    }
}

/// Another character as a step reads it: its index, its hex and whether it is a friend
/// of the mover.
type Other = (usize, Hex, bool);

impl Crowd {
    /// The characters of `state` as steps of `u` find them.
    pub(crate) fn new(rules: &Skirmish, state: &State, u: UnitId) -> Crowd {
        let cells = rules.terrain.len();
        let mut crowd = Crowd {
            here: Vec::new(),
            zone: Vec::new(),
            friend: Vec::new(),
            mover: u,
            near: None,
        };
        if state.chars.len() > 64 {
            return crowd;
        }
        crowd.here.resize(cells, [0; 2]);
        crowd.zone.resize(cells, 0);
        crowd.friend.resize(cells, false);
        let side = rules.side_of(u);
        let radius = rules.data.zone.radius;
        for (i, (c, &camp)) in state.chars.iter().zip(&rules.side_of_char).enumerate() {
            let Some(h) = c.hex else { continue };
            if i == u.index() {
                continue;
            }
            let Some(x) = rules.idx(h).filter(|&x| x < cells) else {
                continue;
            };
            let at = &mut crowd.here[x];
            let slot = usize::from(at[0] != 0);
            if at[slot] == 0 {
                at[slot] = u16::try_from(i + 1).unwrap_or(u16::MAX);
            }
            if camp == side {
                crowd.friend[x] = true;
            } else {
                // The hexes of `h.range(radius)`, without building the list.
                let r = i32::try_from(radius).unwrap_or(i32::MAX / 4);
                for dq in -r..=r {
                    for dr in (-r).max(-dq - r)..=r.min(-dq + r) {
                        let z = Hex::new(h.q + dq, h.r + dr);
                        if let Some(bits) = rules.idx(z).and_then(|x| crowd.zone.get_mut(x)) {
                            *bits |= 1 << i;
                        }
                    }
                }
            }
        }
        crowd
    }

    /// The characters of `state` as the steps of `u` out of `from` find them: a list
    /// of those near `from`, for the lists that price the six steps of one character
    /// (a step out of another hex walks every character).
    pub(crate) fn near(rules: &Skirmish, state: &State, u: UnitId, from: Hex) -> Crowd {
        let side = rules.side_of(u);
        let reach = rules.data.zone.radius.saturating_add(1);
        let mut list = Near {
            len: 0,
            others: [(0, from, false); NEAR],
        };
        let mut over = false;
        let others = state
            .chars
            .iter()
            .zip(&rules.side_of_char)
            .enumerate()
            .filter(|&(i, _)| i != u.index())
            .filter_map(|(i, (c, &camp))| {
                c.hex
                    .filter(|h| h.distance(from) <= reach)
                    .map(|h| (i, h, camp == side))
            });
        for (i, h, friend) in others {
            let Ok(i) = u16::try_from(i) else {
                over = true;
                break;
            };
            if list.len == NEAR {
                over = true;
                break;
            }
            list.others[list.len] = (i, h, friend);
            list.len += 1;
        }
        Crowd {
            here: Vec::new(),
            zone: Vec::new(),
            friend: Vec::new(),
            mover: u,
            // Too many to hold: no layout at all, so every step walks the characters.
            near: (!over).then_some((from, list)),
        }
    }

    /// What a step from `from` into `to` finds, in the `state` laid out.
    pub(crate) fn read(&self, rules: &Skirmish, state: &State, from: Hex, to: Hex) -> Look {
        if let Some((at, list)) = &self.near {
            // A step into a neighbour finds only characters within the zone's radius + 1
            // of the hex it leaves: in it, in the hex entered, or with a zone over it.
            if *at == from && from.distance(to) <= 1 {
                return look(list.iter(), rules.data.zone.radius, from, to);
            }
            return walk(rules, state, self.mover, from, to);
        }
        if self.zone.is_empty() {
            return walk(rules, state, self.mover, from, to);
        }
        let at = |h: Hex| rules.idx(h).filter(|&x| x < self.zone.len());
        let (zone_to, here) = at(to).map_or((0, [0; 2]), |x| (self.zone[x], self.here[x]));
        let (zone_from, passing) = at(from).map_or((0, false), |x| (self.zone[x], self.friend[x]));
        let unit = |k: u16| (k > 0).then(|| UnitId(k - 1));
        let in_zone = zone_to != 0;
        Look {
            here: [unit(here[0]), unit(here[1])],
            in_zone,
            // SK-MOV-12 (reading): passing through a friend's hex, the zone around it is
            // entered at the next hex.
            enters: zone_to & !zone_from != 0 || (in_zone && passing),
            passing,
        }
    }
}

/// What a step finds, by walking the characters: for single steps, and for more
/// characters than the bit sets hold.
pub(crate) fn walk(rules: &Skirmish, state: &State, u: UnitId, from: Hex, to: Hex) -> Look {
    let side = rules.side_of(u);
    let radius = rules.data.zone.radius;
    let mut look = Look::default();
    // `look` over the others, written out. Only a character within `reach` of `to`
    // counts: in `to`, a friend in `from` (a step's own length away), or an enemy whose
    // zone covers `to`; the others are passed over on one distance.
    let reach = i32::try_from(radius.max(from.distance(to))).unwrap_or(i32::MAX);
    for (i, c) in state.chars.iter().enumerate() {
        let Some(h) = c.hex else { continue };
        let (dq, dr) = (h.q - to.q, h.r - to.r);
        if dq.abs() > reach || dr.abs() > reach || (dq + dr).abs() > reach || i == u.index() {
            continue;
        }
        look.note(i, h, rules.side_of_char[i] == side, radius, from, to);
    }
    look.enters |= look.in_zone && look.passing;
    debug_assert_eq!(look, {
        let others = state
            .chars
            .iter()
            .zip(&rules.side_of_char)
            .enumerate()
            .filter(|&(i, _)| i != u.index())
            .filter_map(|(i, (c, &camp))| c.hex.map(|h| (i, h, camp == side)));
        self::look(others, radius, from, to)
    });
    look
}

/// What a step finds among `others` (each by index, hex and whether a friend of the
/// mover), in scenario order.
fn look(others: impl Iterator<Item = (usize, Hex, bool)>, radius: u32, from: Hex, to: Hex) -> Look {
    let mut look = Look::default();
    for (i, h, friend) in others {
        look.note(i, h, friend, radius, from, to);
    }
    look.enters |= look.in_zone && look.passing;
    look
}

impl Look {
    /// What the character `i` at `h` (a friend of the mover or not) adds to a step from
    /// `from` to `to`: one of those in `to`, a friend passed in `from`, an enemy whose
    /// zone of `radius` covers `to` (SK-ZOC-1) and whether the mover was outside it.
    #[inline]
    fn note(&mut self, i: usize, h: Hex, friend: bool, radius: u32, from: Hex, to: Hex) {
        if h == to {
            let o = u16::try_from(i).ok().map(UnitId);
            if self.here[0].is_none() {
                self.here[0] = o;
            } else if self.here[1].is_none() {
                self.here[1] = o;
            }
        }
        if friend {
            self.passing |= h == from;
        } else if h.distance(to) <= radius {
            self.in_zone = true;
            self.enters = self.enters || h.distance(from) > radius;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The layouts (of the whole map, and of the characters near one hex) answer as the
    /// walk over the characters does, at every step of every character in random games
    /// of the built-in scenario.
    #[test]
    fn the_kept_layouts_answer_as_the_walk_over_the_characters() {
        let (rules, states) = crate::skirmish::test_games::random_states(3, 12_345, 300);
        let mut checked = 0;
        for state in states {
            for u in rules.ids() {
                let Some(from) = state.chars[u.index()].hex else {
                    continue;
                };
                for to in from.range(2) {
                    if rules.idx(to).is_none() {
                        continue;
                    }
                    let walked = walk(&rules, &state, u, from, to);
                    let kept = Crowd::new(&rules, &state, u).read(&rules, &state, from, to);
                    assert_eq!(kept, walked, "{u:?} {from:?} {to:?}");
                    let near = Crowd::near(&rules, &state, u, from).read(&rules, &state, from, to);
                    assert_eq!(near, walked, "near: {u:?} {from:?} {to:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
