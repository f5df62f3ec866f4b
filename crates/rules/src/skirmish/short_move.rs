//! Short moves (`docs/rules/skirmish.md`, SK-SHM-1 to SK-SHM-4): Finesse // 2 points for
//! the facing held, made at once, whatever called for it: a reaction (SK-SHM-1, in
//! `reactions.rs`) or a Maneuver (SK-SHM-4, in `maneuver.rs`).

use super::board::{self, Found, Paths, Turns};
use super::crowd::Crowd;
use super::step::{self, Gait, Step};
use super::walks::Walks;
use super::{melee, AttackKind, Event, Skirmish, State};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::{Direction, Hex};
use std::cell::RefCell;
use std::rc::Rc;

/// The hexes a short move may end in, each with its cost and path (SK-SHM-2,
/// SK-SHM-3): within Finesse // 2 points for the facing held, through friends but never
/// ending in their hex (SK-MOV-11), stopping on entering an enemy's zone (SK-MOV-8).
pub(crate) fn short_reach(rules: &Skirmish, state: &State, u: UnitId) -> Vec<Found> {
    short_search(rules, state, u, Paths::Yes)
}

/// The hexes of [`short_reach`], in the same order, read from the kept searches.
pub(crate) fn short_ends(rules: &Skirmish, state: &State, u: UnitId) -> Vec<Hex> {
    kept_short_reach(rules, state, u)
        .iter()
        .map(|f| f.hex)
        .collect()
}

/// [`short_reach`], with or without the paths.
fn short_search(rules: &Skirmish, state: &State, u: UnitId, paths: Paths) -> Vec<Found> {
    let c = Skirmish::ch(state, u);
    let Some(from) = c.hex else { return Vec::new() };
    let budget = u32::from(rules.short_allowance(state, u));
    let Some(walks) = Walks::new(rules, state, u) else {
        let crowd = Crowd::new(rules, state, u);
        return board::search_for(
            &rules.map,
            from,
            c.facing,
            (budget, Turns::No, paths),
            |h, f, to| rules.entered((state, &crowd), u, Gait::Short, h, f, to),
            |h| Skirmish::occupants_of(state, h).all(|o| o == u),
        );
    };
    // Debug builds price every step the slow way too.
    let crowd = cfg!(debug_assertions).then(|| Crowd::new(rules, state, u));
    board::search_moves(
        &rules.map,
        from,
        c.facing,
        (budget, Turns::No, paths),
        |m, f| {
            let e = walks.short_step((m.from_index, m.to_index), m.dir, f);
            if let Some(crowd) = &crowd {
                let slow = rules.entered((state, crowd), u, Gait::Short, m.from, f, m.to);
                assert_eq!(e, slow, "{u:?}'s short step {m:?}");
            }
            e
        },
        |h| rules.idx(h).is_none_or(|i| walks.free(i)),
    )
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
    let Some(Found { cost, path, .. }) = short_reach(rules, state, u)
        .into_iter()
        .find(|f| f.hex == to)
    else {
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
        format!("moves to {} for {cost} point(s)", rules.label(to)),
    ));
    let mut from = here;
    for &h in &path {
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

/// The path of [`plan_short_move`] when it accepts the end, without its reasons (what
/// making the move needs): `None` where it refuses.
pub(crate) fn short_path(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    end: ShortEnd,
) -> Option<Vec<Hex>> {
    short_path_with(rules, state, u, end, |path| path.to_vec())
}

/// Whether [`short_path`] finds a path, without copying it (the searches' `allows`).
pub(crate) fn has_short_path(rules: &Skirmish, state: &State, u: UnitId, end: ShortEnd) -> bool {
    short_path_with(rules, state, u, end, |_| ()).is_some()
}

/// [`short_path`]'s path, handed to `read`.
fn short_path_with<T>(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    end: ShortEnd,
    read: impl FnOnce(&[Hex]) -> T,
) -> Option<T> {
    let ShortEnd { to, facing } = end;
    let c = Skirmish::ch(state, u);
    let here = c.hex?;
    if to == here {
        return (facing != c.facing).then(|| read(&[]));
    }
    if Skirmish::occupied(state, to) {
        return None;
    }
    kept_short_reach(rules, state, u)
        .iter()
        .find(|f| f.hex == to)
        .map(|f| read(&f.path))
}

/// A short-move search kept by [`kept_short_reach`] (search machinery, not rules), with
/// all it reads of a state: the character, its facing and points, and where every
/// character stands.
struct Kept {
    rules: u64,
    unit: UnitId,
    facing: Direction,
    budget: u32,
    standing: Vec<Option<Hex>>,
    found: Rc<[Found]>,
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
fn kept_short_reach(rules: &Skirmish, state: &State, u: UnitId) -> Rc<[Found]> {
    let facing = Skirmish::ch(state, u).facing;
    let budget = u32::from(rules.short_allowance(state, u));
    let standing = || state.chars.iter().map(|c| c.hex);
    let hit = KEPT_REACHES.with(|k| {
        k.borrow()
            .0
            .iter()
            .find(|k| {
                k.rules == rules.id
                    && k.unit == u
                    && k.facing == facing
                    && k.budget == budget
                    && k.standing.iter().copied().eq(standing())
            })
            .map(|k| Rc::clone(&k.found))
    });
    if let Some(found) = hit {
        return found;
    }
    let found: Rc<[Found]> = Rc::from(short_reach(rules, state, u));
    KEPT_REACHES.with(|k| {
        let mut k = k.borrow_mut();
        let next = k.1;
        if k.0.len() < KEPT {
            k.0.push(Kept {
                rules: rules.id,
                unit: u,
                facing,
                budget,
                standing: standing().collect(),
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
            slot.found = Rc::clone(&found);
        }
        k.1 = (next + 1) % KEPT;
    });
    found
}

/// SK-SHM-2, SK-SHM-3: makes a short move along its path, then turns: the enemies'
/// attacks of opportunity on it are made at once (SK-MOV-19); an Engaged friend passed
/// spends its Quick Action or is Dazed (SK-MOV-12); a daze stops it where it is, or
/// back on the last hex it may stand in when that is a friend's (SK-MOV-18).
pub(crate) fn run_short_move(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    path: Vec<Hex>,
    facing: Direction,
    ctx: &mut Ctx<'_, Event>,
) {
    let mut provoked: Vec<UnitId> = Vec::new();
    let held = Skirmish::ch(state, u).facing;
    let mut left = rules.short_allowance(state, u);
    let enemies = 1 - rules.side_of(u);
    let mut walked: Vec<Hex> = Vec::with_capacity(path.len() + 1);
    walked.extend(Skirmish::ch(state, u).hex);
    let stopped =
        |rules: &Skirmish, state: &mut State, walked: &[Hex], ctx: &mut Ctx<'_, Event>| {
            if Skirmish::ch(state, u).in_play() && rules.on_friend(state, u) {
                step::put_back(rules, state, u, walked, ctx);
            }
        };
    for h in path {
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
                stopped(rules, state, &walked, ctx);
                return;
            }
        }
        let Ok(p) = rules.price_in(state, u, Step::new(from, h, held, Gait::Short), false) else {
            stopped(rules, state, &walked, ctx);
            return;
        };
        state.chars[u.index()].hex = Some(h);
        walked.push(h);
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
                stopped(rules, state, &walked, ctx);
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
                            planned += 1;
                            let searched = reach.iter().find(|f| f.hex == to).map(|f| &f.path);
                            assert!(
                                to == here || searched == Some(&path),
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
