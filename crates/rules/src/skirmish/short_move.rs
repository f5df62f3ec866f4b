//! Short moves (`docs/rules/skirmish.md`, SK-SHM-1 to SK-SHM-4): Finesse // 2 points for
//! the facing held, made at once, whatever called for it: a reaction (SK-SHM-1, in
//! `reactions.rs`) or a Maneuver (SK-SHM-4, in `maneuver.rs`).

use super::board::{self, Ends, Entered, Found, Paths, Turns};
use super::crowd::Crowd;
use super::step::{self, Gait, Step};
use super::walks::Walks;
use super::{melee, AttackKind, Event, Skirmish, State};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::search::Move;
use grognard_hex::{Direction, Hex};
use std::cell::RefCell;
use std::rc::Rc;

/// The hexes a short move may end in, each with its cost and path (SK-SHM-2,
/// SK-SHM-3): within Finesse // 2 points for the facing held, through friends but never
/// ending in their hex (SK-MOV-11), stopping on entering an enemy's zone (SK-MOV-8).
pub(crate) fn short_reach(rules: &Skirmish, state: &State, u: UnitId) -> Ends {
    short_search(rules, state, u).0
}

/// The hexes of [`short_reach`], in the same order, read from the kept searches (not
/// copied out: the reaction windows ask for every passive character's).
pub(crate) fn short_ends(rules: &Skirmish, state: &State, u: UnitId) -> impl Iterator<Item = Hex> {
    let found = kept_short_reach(rules, state, u);
    (0..found.len()).map(move |i| found.hex(i))
}

/// [`short_reach`], and the hexes whose occupants and zones of control its answers
/// read, a bit each (every bit where the bit sets do not serve): the search is the same
/// wherever nobody enters or leaves them and no zone of control arrives or leaves there
/// (see [`kept_short_reach`]).
fn short_search(rules: &Skirmish, state: &State, u: UnitId) -> (Ends, u128) {
    let c = Skirmish::ch(state, u);
    let Some(from) = c.hex else {
        return (Ends::default(), 0);
    };
    let budget = rules.short_allowance(state, u);
    let walks = Walks::new(rules, state, u);
    let general = |step: &mut dyn FnMut(&Move, Direction) -> Option<Entered>| {
        board::search_moves(
            &rules.map,
            from,
            c.facing,
            (u32::from(budget), Turns::No, Paths::Yes),
            |m, f| step(m, f),
            |h| Skirmish::occupants_of(state, h).all(|o| o == u),
        )
    };
    let (Some(walks), Some(start)) = (walks, rules.idx(from)) else {
        let crowd = Crowd::new(rules, state, u);
        let found =
            general(&mut |m, f| rules.entered((state, &crowd), u, Gait::Short, m.from, f, m.to));
        return (Ends::from_found(found), u128::MAX);
    };
    // Every step asked reads its two hexes; the ends kept read who stands in them, and
    // each is the start or a step's.
    let mut read = 1u128 << start;
    // Debug builds price every step the slow way too.
    let crowd = cfg!(debug_assertions).then(|| Crowd::new(rules, state, u));
    // The zones a step stops in, for the hex the last step was asked from.
    let mut entering = (usize::MAX, 0u128);
    let found = board::search_fixed(
        (&rules.map, &rules.cells),
        start,
        c.facing,
        budget,
        |(i, j), dir, f| {
            read |= 1u128 << i | 1u128 << j;
            // The steps out of a hex are asked one after the other.
            if entering.0 != i {
                entering = (i, walks.entering(i));
            }
            let e = walks.short_step_from(entering.1, (i, j), dir, f);
            if let Some(crowd) = &crowd {
                let (h, to) = (rules.map.hex_at(i), rules.map.hex_at(j));
                let slow = rules.entered((state, crowd), u, Gait::Short, h, f, to);
                assert_eq!(e, slow, "{u:?}'s short step from {h:?} to {to:?}");
            }
            e
        },
        |i| walks.free(i),
    );
    let Some(found) = found else {
        let found = general(&mut |m, f| walks.short_step((m.from_index, m.to_index), m.dir, f));
        return (Ends::from_found(found), u128::MAX);
    };
    if cfg!(debug_assertions) {
        // The general search finds the same hexes, in the same order, at the same costs
        // and by the same paths.
        let slow = general(&mut |m, f| walks.short_step((m.from_index, m.to_index), m.dir, f));
        assert!(
            same_ends(&found, &slow),
            "{u:?}'s short moves: {found:?} against {slow:?}"
        );
    }
    (found, read)
}

/// Whether `ends` are the hexes, costs and paths of `found`, in the same order.
fn same_ends(ends: &Ends, found: &[Found]) -> bool {
    ends.len() == found.len()
        && ends
            .iter()
            .zip(found)
            .all(|(a, b)| a.hex == b.hex && a.cost == b.cost && ends.path(a) == b.path)
}

/// A checked short move: its reasons (the path is [`short_path`]'s).
pub(crate) struct ShortPlan {
    pub reasons: Vec<Reason>,
}

/// Where a short move ends: the hex, and the facing held there (SK-SHM-2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ShortEnd {
    pub to: Hex,
    pub facing: Direction,
}

/// SK-SHM-2, SK-SHM-3: the path of a short move of `u` to its end,
/// whatever called for it (a reaction, SK-SHM-1, or a Maneuver, SK-SHM-4).
pub(crate) fn plan_short_move(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    end: ShortEnd,
) -> Result<ShortPlan, Refusal> {
    let ShortEnd { to, facing } = end;
    let c = Skirmish::ch(state, u);
    let here = c.hex.expect("in play");
    let mp = rules.short_allowance(state, u);
    let mut reasons = vec![Reason::new(
        "SK-SHM-2",
        format!("a short move: Finesse // 2 = {mp} point(s)"),
    )];
    if to == here {
        if facing == c.facing {
            return Err(Refusal::new(
                "SK-SHM-2",
                "a short move that neither moves nor turns does nothing: pass instead",
            ));
        }
        reasons.push(Reason::new(
            "SK-SHM-2",
            "stays and changes facing (with no points a short move may at least do that)",
        ));
        return Ok(ShortPlan { reasons });
    }
    if let Some(&o) = Skirmish::occupants(state, to).first() {
        return Err(if rules.side_of(o) == rules.side_of(u) {
            Refusal::new(
                "SK-MOV-11",
                format!(
                    "{} holds {}, a friend: a short move may pass through it but not end there",
                    rules.label(to),
                    rules.name(o)
                ),
            )
        } else {
            Refusal::new("SK-MOV-10", format!("{} is occupied", rules.label(to)))
        });
    }
    let reach = short_reach(rules, state, u);
    let Some(end) = reach.iter().find(|f| f.hex == to) else {
        // Say why, from the first step if it is next door.
        if here.direction_to(to).is_some() {
            rules.price(state, u, Step::new(here, to, c.facing, Gait::Short))?;
        }
        return Err(Refusal::new(
            "SK-SHM-2",
            format!(
                "{} is beyond {}'s short move of {mp} point(s) for its facing (sideways and backward steps cost double), or no path leads there",
                rules.label(to),
                rules.name(u)
            ),
        ));
    };
    reasons.push(Reason::new(
        "SK-MOV-3",
        format!("moves to {} for {} point(s)", rules.label(to), end.cost),
    ));
    let path = reach.path(end);
    let mut from = here;
    for &h in path {
        if let Ok(p) = rules.price(state, u, Step::new(from, h, c.facing, Gait::Short)) {
            for r in p.reasons {
                if !reasons.contains(&r) {
                    reasons.push(r);
                }
            }
        }
        from = h;
    }
    if path
        .iter()
        .scan(here, |prev, &h| {
            let left = *prev;
            *prev = h;
            Some(left)
        })
        .any(|h| rules.enemy_zone(state, rules.side_of(u), h))
    {
        reasons.push(Reason::new(
            "SK-MOV-19",
            "leaves an enemy's zone: the enemies strike at once, without a window",
        ));
    }
    Ok(ShortPlan { reasons })
}

/// The path of a short move, read in place from the kept search that found it (not
/// copied out: every reaction's short move is made from one).
pub(crate) struct ShortPath(Option<(Rc<Ends>, usize)>);

impl ShortPath {
    /// The hexes entered, in order (none for a short move that only turns).
    pub(crate) fn hexes(&self) -> &[Hex] {
        self.0.as_ref().map_or(&[], |(found, i)| found.path_at(*i))
    }
}

/// The path of [`plan_short_move`] when it accepts the end, without its reasons (what
/// making the move needs): `None` where it refuses.
pub(crate) fn short_path(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    end: ShortEnd,
) -> Option<ShortPath> {
    let ShortEnd { to, facing } = end;
    let c = Skirmish::ch(state, u);
    let here = c.hex?;
    if to == here {
        return (facing != c.facing).then_some(ShortPath(None));
    }
    if Skirmish::occupied(state, to) {
        return None;
    }
    let found = kept_short_reach(rules, state, u);
    let i = found.iter().position(|f| f.hex == to)?;
    Some(ShortPath(Some((found, i))))
}

/// Whether [`short_path`] finds a path (the searches' `allows`).
pub(crate) fn has_short_path(rules: &Skirmish, state: &State, u: UnitId, end: ShortEnd) -> bool {
    short_path(rules, state, u, end).is_some()
}

/// A short-move search kept by [`kept_short_reach`] (search machinery, not rules), with
/// all it reads of a state: the character, its facing and points, and where every
/// character stands, of which only the hexes `read` matter.
struct Kept {
    rules: u64,
    unit: UnitId,
    facing: Direction,
    budget: u32,
    standing: Vec<Option<Hex>>,
    /// The hexes whose occupants and zones of control the search read, a bit each.
    read: u128,
    /// Kept as the search made it (no copy into another allocation).
    found: Rc<Ends>,
}

/// How many searches [`kept_short_reach`] keeps (a reaction window lists every passive
/// character's, then the searches ask about them).
const KEPT: usize = 16;

thread_local! {
    /// The last searches, and the slot the next one takes.
    static KEPT_REACHES: RefCell<(Vec<Kept>, usize)> = const { RefCell::new((Vec::new(), 0)) };
}

/// [`short_reach`], kept for the last positions asked about: the searches ask whether
/// each short move of a character is allowed, then make one, all from one position.
/// A search holds, too, where the others stand elsewhere than before, so long as
/// nobody entered or left a hex it read and no enemy's zone of control did either
/// (the reactions after each step of the active side ask again for every passive
/// character, mostly far from the step).
fn kept_short_reach(rules: &Skirmish, state: &State, u: UnitId) -> Rc<Ends> {
    let facing = Skirmish::ch(state, u).facing;
    let budget = u32::from(rules.short_allowance(state, u));
    let standing = || state.chars.iter().map(|c| c.hex);
    let hit = KEPT_REACHES.with(|k| {
        let mut k = k.borrow_mut();
        let kept = k.0.iter_mut().find(|k| {
            k.rules == rules.id
                && k.unit == u
                && k.facing == facing
                && k.budget == budget
                && still_holds(rules, u, k.read, &k.standing, state)
        })?;
        // The search reads the same, now from where everyone stands.
        kept.standing.clear();
        kept.standing.extend(standing());
        Some(Rc::clone(&kept.found))
    });
    if let Some(found) = hit {
        if cfg!(debug_assertions) {
            let fresh = short_reach(rules, state, u);
            assert!(
                fresh == *found,
                "{u:?}'s kept short moves: {found:?} against {fresh:?}"
            );
        }
        return found;
    }
    let (found, read) = short_search(rules, state, u);
    let found = Rc::new(found);
    KEPT_REACHES.with(|k| {
        let mut k = k.borrow_mut();
        // The character's search from elsewhere gives way first (it will hardly be
        // asked again), else the oldest.
        let next =
            k.0.iter()
                .position(|k| {
                    k.rules == rules.id && k.unit == u && k.facing == facing && k.budget == budget
                })
                .unwrap_or(k.1);
        if k.0.len() < KEPT && next == k.1 {
            k.0.push(Kept {
                rules: rules.id,
                unit: u,
                facing,
                budget,
                standing: standing().collect(),
                read,
                found: Rc::clone(&found),
            });
        } else if let Some(slot) = k.0.get_mut(next) {
            // Written over in place: the list of who stands where keeps its allocation.
            slot.rules = rules.id;
            slot.unit = u;
            slot.facing = facing;
            slot.budget = budget;
            slot.standing.clear();
            slot.standing.extend(standing());
            slot.read = read;
            slot.found = Rc::clone(&found);
        }
        if next == k.1 {
            k.1 = (next + 1) % KEPT;
        }
    });
    found
}

/// Whether a short-move search of `u` that read the hexes `read` with the characters
/// standing at `kept` answers the same in `state`: `u` stands where it stood, and every
/// other character that moved left and entered hexes the search did not read, and an
/// enemy of `u` hexes whose zone of control (SK-ZOC-1) covers none that it read.
fn still_holds(
    rules: &Skirmish,
    u: UnitId,
    read: u128,
    kept: &[Option<Hex>],
    state: &State,
) -> bool {
    // The character's own hex first: a search from elsewhere is the usual miss.
    if kept.len() != state.chars.len() || kept[u.index()] != Skirmish::ch(state, u).hex {
        return false;
    }
    let side = rules.side_of(u);
    let radius = rules.data.zone.radius;
    kept.iter()
        .zip(&state.chars)
        .enumerate()
        .all(|(k, (&was, c))| {
            if was == c.hex {
                return true;
            }
            if k == u.index() || read == u128::MAX {
                return false;
            }
            // The hexes a move of character `k` to or from `h` changes for the search.
            let touched = |h: Option<Hex>| -> Option<u128> {
                let Some(h) = h else { return Some(0) };
                let i = rules.idx(h)?;
                if rules.side_of_char[k] == side {
                    Some(1u128 << i)
                } else {
                    rules.cells.disk_bits(i, radius).map(|d| d | 1u128 << i)
                }
            };
            matches!((touched(was), touched(c.hex)), (Some(a), Some(b)) if (a | b) & read == 0)
        })
}

/// SK-SHM-2, SK-SHM-3: makes a short move along its path, then turns: the enemies'
/// attacks of opportunity on it are made at once (SK-MOV-19); an Engaged friend passed
/// spends its Quick Action or is Dazed (SK-MOV-12); a daze stops it where it is, or
/// back on the last hex it may stand in when that is a friend's (SK-MOV-18).
pub(crate) fn run_short_move(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    path: &[Hex],
    facing: Direction,
    ctx: &mut Ctx<'_, Event>,
) {
    let mut provoked: Vec<UnitId> = Vec::new();
    let held = Skirmish::ch(state, u).facing;
    let mut left = rules.short_allowance(state, u);
    let enemies = 1 - rules.side_of(u);
    // The hexes walked are the start and the first `taken` of the path (laid out only
    // when a stop puts the character back, SK-MOV-18).
    let start = Skirmish::ch(state, u).hex;
    let mut taken = 0;
    let stopped = |rules: &Skirmish, state: &mut State, taken: usize, ctx: &mut Ctx<'_, Event>| {
        if Skirmish::ch(state, u).in_play() && rules.on_friend(state, u) {
            let walked: Vec<Hex> = start
                .into_iter()
                .chain(path[..taken].iter().copied())
                .collect();
            step::put_back(rules, state, u, &walked, ctx);
        }
    };
    for &h in path {
        let Some(from) = Skirmish::ch(state, u).hex else {
            return;
        };
        let strikers = melee::opportunists(rules, state, u, from, enemies, &provoked, None);
        for e in strikers {
            provoked.push(e);
            state.chars[e.index()].ripostes += 1;
            if let Some(blow) = melee::resolve(rules, state, e, u, AttackKind::Opportunity, 0, ctx)
            {
                melee::land(rules, state, &blow, ctx);
            }
            if !Skirmish::ch(state, u).in_play() || Skirmish::ch(state, u).dazed {
                ctx.emit_with(|| Event::Halted {
                    unit: u,
                    rule: "SK-MOV-9".into(),
                    reason: "its short move is aborted: Dazed by an attack of opportunity".into(),
                });
                stopped(rules, state, taken, ctx);
                return;
            }
        }
        let Ok(p) = rules.price_in(state, u, Step::new(from, h, held, Gait::Short), false) else {
            stopped(rules, state, taken, ctx);
            return;
        };
        state.chars[u.index()].hex = Some(h);
        taken += 1;
        left = left.saturating_sub(p.cost);
        ctx.emit_with(|| Event::Moved {
            unit: u,
            from,
            to: h,
            cost: p.cost,
            left,
            rules: p.rule_ids(),
        });
        if let Some(f) = p.friend {
            step::pass_friend(rules, state, u, f, ctx);
        }
        if p.difficult {
            step::difficult_check(rules, state, u, h, ctx);
            if Skirmish::ch(state, u).dazed {
                stopped(rules, state, taken, ctx);
                return;
            }
        }
    }
    if Skirmish::ch(state, u).in_play() && facing != Skirmish::ch(state, u).facing {
        state.chars[u.index()].facing = facing;
        ctx.emit_with(|| Event::Faced {
            unit: u,
            facing,
            rule: "SK-SHM-2".into(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The path made without words (from the kept searches) is there exactly when the
    /// worded check accepts the short move, and is the path of a fresh search with
    /// paths, for every character, every
    /// hex within its short move (plus one) and every facing, in random games of the
    /// built-in scenario.
    #[test]
    fn the_short_path_is_there_exactly_when_the_short_move_is_planned() {
        let (rules, states) = crate::skirmish::test_games::random_states(5, 54_321, 150);
        let (mut planned, mut refused) = (0, 0);
        for state in states {
            for u in rules.ids() {
                let Some(here) = state.chars[u.index()].hex else {
                    continue;
                };
                let reach = short_reach(&rules, &state, u);
                let radius = u32::from(rules.short_allowance(&state, u)) + 1;
                for to in here.range(radius) {
                    if rules.idx(to).is_none() {
                        continue;
                    }
                    for facing in Direction::ALL {
                        let end = ShortEnd { to, facing };
                        let path = short_path(&rules, &state, u, end);
                        let plan = plan_short_move(&rules, &state, u, end);
                        assert_eq!(path.is_some(), plan.is_ok(), "{u:?} {to:?} {facing:?}");
                        if let Some(path) = path {
                            let path = path.hexes();
                            planned += 1;
                            let searched =
                                reach.iter().find(|f| f.hex == to).map(|f| reach.path(f));
                            assert!(
                                to == here || searched == Some(path),
                                "{u:?} {to:?}: {path:?} against {searched:?}"
                            );
                        } else {
                            refused += 1;
                        }
                    }
                }
            }
        }
        assert!(planned > 1_000 && refused > 1_000, "{planned} {refused}");
    }
}
