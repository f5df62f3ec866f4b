//! Stepping: what a hex costs to enter and what entering it does, for every kind of
//! move alike (a walk, a short move, a charge's run, a panicked flight): SK-MOV-3,
//! SK-MOV-8 to SK-MOV-18, SK-CHG-9. The chapters that move characters (`movement.rs`,
//! `short_move.rs`, `charge.rs`) build on it; it calls none of them.

use super::board::{self, Entered, Paths, Turns};
use super::crowd::{self, Crowd, Look};
use super::facing::{arc, Arc};
use super::walks::Walks;
use super::{statuses, Event, Skirmish, State};
use crate::common::text::Text;
use grognard_engine::{Ctx, Reached, Reason, Refusal, UnitId};
use grognard_hex::{Direction, Hex};

/// How a step is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gait {
    /// A regular step: the facing stays (SK-MOV-16), a zone of control ends it (SK-MOV-8).
    Walk,
    /// A step of a short move: like a walk, through friends but never ending in their
    /// hex (SK-SHM-3, SK-MOV-11); its attacks of opportunity come at once (SK-MOV-19).
    Short,
    /// A charge step: the charger runs facing its route and ignores zones (SK-CHG-5).
    Charge,
    /// A panicked flight: the character runs facing its route (SK-STA-2).
    Flight,
}

/// One step as the rules price it: from a hex into the next, facing as the character
/// faces before it, made as `gait`, evasively or not (SK-MOV-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Step {
    pub from: Hex,
    pub to: Hex,
    pub facing: Direction,
    pub gait: Gait,
    pub evasive: bool,
}

impl Step {
    /// A step that is not evasive.
    pub(crate) fn new(from: Hex, to: Hex, facing: Direction, gait: Gait) -> Self {
        Step {
            from,
            to,
            facing,
            gait,
            evasive: false,
        }
    }
}

/// A step as declared (SK-MOV-3): into the hex `to` next to the character, or off the
/// map where `to` is `None` (a Panicked flight from the home edge, SK-STA-2); evasive
/// or not (SK-MOV-14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StepTo {
    pub to: Option<Hex>,
    pub evasive: bool,
}

impl StepTo {
    /// The flight off the map (SK-STA-2).
    pub(crate) const OFF_MAP: StepTo = StepTo {
        to: None,
        evasive: false,
    };

    /// A step into `to`.
    pub(crate) fn hex(to: Hex, evasive: bool) -> Self {
        StepTo {
            to: Some(to),
            evasive,
        }
    }
}

/// A refusal worded only when `words` asks for it: the lists of legal actions and the
/// route searches ask only whether a step is refused, never why.
pub(crate) fn refused(words: bool, make: impl FnOnce() -> Refusal) -> Refusal {
    if words {
        make()
    } else {
        Refusal {
            reasons: Vec::new(),
        }
    }
}

/// A step priced by the rules.
#[derive(Clone, Debug)]
pub(crate) struct Priced {
    /// Points it costs.
    pub cost: u8,
    /// The facing after the step.
    pub facing: Direction,
    /// Entering an enemy zone of control ends the movement (SK-MOV-8).
    pub stop: bool,
    /// The friend passed through (SK-MOV-11).
    pub friend: Option<UnitId>,
    /// Calls for the Finesse check of difficult terrain (SK-MOV-17).
    pub difficult: bool,
    /// The rules that priced it.
    pub reasons: Vec<Reason>,
    /// Their IDs alone, once each, when the price was asked for them alone
    /// ([`Skirmish::price_ids`]).
    pub ids: Vec<Text>,
}

impl Priced {
    /// The IDs of the rules that priced it, once each, in the order of its reasons.
    pub(crate) fn rule_ids(&self) -> Vec<Text> {
        if !self.ids.is_empty() {
            return self.ids.clone();
        }
        let mut ids: Vec<Text> = Vec::new();
        for r in &self.reasons {
            if !ids.iter().any(|id| *id == r.rule) {
                ids.push(Text::from(r.rule.clone()));
            }
        }
        ids
    }
}

/// How much of a step's reasons a pricing writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Words {
    /// None: the route searches and the lists read only the price.
    Silent,
    /// The rules' IDs alone, for the event of a step made.
    Ids,
    /// Every reason in words, for `explain`.
    Full,
}

/// The reasons of a step as its pricing notes them, as much as [`Words`] asks.
struct Notes {
    words: Words,
    reasons: Vec<Reason>,
    /// The IDs noted, only when [`Words::Ids`] asks for them (nothing to lay out for
    /// the silent pricings of the lists and searches).
    ids: Option<Ids>,
}

/// The IDs a pricing noted (the first `noted` of `list`), held in place (it notes each
/// rule once at most, fewer than [`IDS`]): the event of every step made asks for them.
struct Ids {
    list: [&'static str; IDS],
    noted: usize,
}

/// The most IDs [`Notes`] holds: more than a pricing notes.
const IDS: usize = 16;

impl Notes {
    fn new(words: Words) -> Notes {
        Notes {
            words,
            reasons: Vec::new(),
            ids: (words == Words::Ids).then_some(Ids {
                list: [""; IDS],
                noted: 0,
            }),
        }
    }

    /// Notes the ID `rule` first, or last.
    fn note_id(&mut self, first: bool, rule: &'static str) {
        let Some(ids) = &mut self.ids else { return };
        assert!(ids.noted < IDS, "a pricing notes fewer than {IDS} rules");
        let at = if first { 0 } else { ids.noted };
        for k in (at..ids.noted).rev() {
            ids.list[k + 1] = ids.list[k];
        }
        ids.list[at] = rule;
        ids.noted += 1;
    }

    /// Whether the reasons are wanted in words.
    fn full(&self) -> bool {
        self.words == Words::Full
    }

    /// Notes that `rule` priced the step, for the reason `why` gives.
    fn add(&mut self, rule: &'static str, why: impl FnOnce() -> String) {
        match self.words {
            Words::Silent => {}
            Words::Ids => self.note_id(false, rule),
            Words::Full => self.reasons.push(Reason::new(rule, why())),
        }
    }

    /// [`Notes::add`], before every reason noted so far.
    fn first(&mut self, rule: &'static str, why: impl FnOnce() -> String) {
        match self.words {
            Words::Silent => {}
            Words::Ids => self.note_id(true, rule),
            Words::Full => self.reasons.insert(0, Reason::new(rule, why())),
        }
    }

    /// The reasons, and the IDs once each in the order noted (read in place, not moved).
    fn done(&mut self) -> (Vec<Reason>, Vec<Text>) {
        let noted = self.ids.as_ref().map_or(&[][..], |i| &i.list[..i.noted]);
        let mut ids: Vec<Text> = Vec::with_capacity(noted.len());
        for &id in noted {
            if !ids.iter().any(|t| *t == id) {
                ids.push(Text::from(id));
            }
        }
        (std::mem::take(&mut self.reasons), ids)
    }
}

impl Skirmish {
    /// The price of one step of `u`, board rules only (not the points left): SK-MOV-3,
    /// SK-MOV-10, SK-MOV-11, SK-MOV-13, SK-MOV-14, SK-MOV-16, SK-MOV-8, SK-CHG-9.
    pub(crate) fn price(&self, state: &State, u: UnitId, step: Step) -> Result<Priced, Refusal> {
        self.price_in(state, u, step, true)
    }

    /// [`Skirmish::price`]; without `words`, the reasons of an accepted step are left
    /// out (the route searches read only its cost, stop and facing).
    pub(crate) fn price_in(
        &self,
        state: &State,
        u: UnitId,
        step: Step,
        words: bool,
    ) -> Result<Priced, Refusal> {
        self.price_among(state, u, step, words, None)
    }

    /// [`Skirmish::price_in`], reading the others from `crowd` when a route search has
    /// laid them out for `u` (`crowd.rs`).
    pub(crate) fn price_among(
        &self,
        state: &State,
        u: UnitId,
        step: Step,
        words: bool,
        crowd: Option<&Crowd>,
    ) -> Result<Priced, Refusal> {
        let words = if words { Words::Full } else { Words::Silent };
        self.price_noted(state, u, step, words, crowd)
    }

    /// [`Skirmish::price_in`] with the IDs of the rules that price an accepted step, but
    /// not their words (`ids`): what the event of a step made names.
    pub(crate) fn price_ids(
        &self,
        state: &State,
        u: UnitId,
        step: Step,
    ) -> Result<Priced, Refusal> {
        let p = self.price_noted(state, u, step, Words::Ids, None);
        if cfg!(debug_assertions) {
            let full = self.price_in(state, u, step, true);
            let ids = |p: &Result<Priced, Refusal>| p.as_ref().ok().map(Priced::rule_ids);
            assert_eq!(ids(&p), ids(&full), "the rules of {u:?}'s step {step:?}");
        }
        p
    }

    /// [`Skirmish::price_among`], the reasons noted as `words` asks.
    #[expect(
        clippy::too_many_lines,
        reason = "one rule after another, as the chapter has them"
    )]
    fn price_noted(
        &self,
        state: &State,
        u: UnitId,
        step: Step,
        words: Words,
        crowd: Option<&Crowd>,
    ) -> Result<Priced, Refusal> {
        // Made here, not moved in: the notes are held in place.
        let mut notes = Notes::new(words);
        let words = notes.full();
        let Step {
            from,
            to,
            facing,
            gait,
            evasive,
        } = step;
        let l = || self.label(to);
        let Some(dir) = from.direction_to(to) else {
            return Err(refused(words, || {
                Refusal::new(
                    "SK-MOV-3",
                    format!(
                        "{} is not next to {}: a character moves one hex at a time",
                        l(),
                        self.label(from)
                    ),
                )
            }));
        };
        let Some(row) = self.terrain_row(to) else {
            return Err(refused(words, || {
                Refusal::new("SK-MOV-3", format!("{} is off the map", l()))
            }));
        };
        if row.impassable {
            return Err(refused(words, || {
                Refusal::new(
                    "SK-MOV-13",
                    format!("{} is {}: nobody enters it", l(), self.terrain_name(to)),
                )
            }));
        }
        let side = self.side_of(u);
        // The others in `to` (two at most are told apart), and whether `to` lies in an
        // enemy's zone of control (SK-ZOC-1, as `enemy_zone` asks it), from the layout
        // kept for this character (`crowd.rs`). SK-MOV-8 (reading): the zone of an enemy
        // that already holds `from` is not entered again by a step inside it; only a zone
        // it is not yet in is entered. A friend's hex passed through was not stopped in
        // (SK-MOV-12): the zone around it is entered at the next hex of it.
        let Look {
            here,
            in_zone,
            enters,
            ..
        } = crowd.map_or_else(
            || crowd::walk(self, state, u, from, to),
            |c| c.read(self, state, from, to),
        );
        let mut friend = None;
        match here {
            [None, _] => {}
            [Some(o), None] if self.side_of(o) == side => {
                // SK-MOV-11: walks, charges, flights and short moves alike (a short move
                // "works like regular Movement", SK-SHM-3).
                friend = Some(o);
                notes.add("SK-MOV-11", || {
                    format!(
                        "passes through {} with its permission, and may not end there",
                        self.name(o)
                    )
                });
            }
            [Some(o), None]
                if gait == Gait::Charge && enters_close_quarters(self, state, u, o, to) =>
            {
                notes.add("SK-CHG-9", || {
                    format!(
                        "charges into {} with a reach 0 weapon: Close Quarters with {}",
                        l(),
                        self.name(o)
                    )
                });
            }
            [Some(o), None] => {
                return Err(refused(words, || {
                    Refusal::new(
                        "SK-MOV-10",
                        format!(
                            "{} holds {}, an enemy: characters never stack but in Close Quarters, entered only by a charge with a reach 0 weapon",
                            l(),
                            self.name(o)
                        ),
                    )
                }));
            }
            [Some(_), Some(_)] => {
                return Err(refused(words, || {
                    Refusal::new(
                        "SK-MOV-10",
                        format!(
                            "{} holds two characters in Close Quarters: no third may enter",
                            l()
                        ),
                    )
                }));
            }
        }
        let runs = matches!(gait, Gait::Charge | Gait::Flight);
        let step_arc = if runs {
            Arc::Front
        } else {
            arc(facing, dir, self.data.facing.front_turns)
        };
        let m = &self.data.movement;
        let mut cost = row.cost;
        notes.first("SK-MOV-3", || {
            format!(
                "{} costs {} point(s) to enter toward the front",
                self.terrain_name(to),
                row.cost
            )
        });
        if row.difficult {
            notes.add("SK-MOV-13", || {
                format!("{} is difficult terrain", self.terrain_name(to))
            });
        }
        if runs {
            notes.add(
                if gait == Gait::Charge {
                    "SK-CHG-14"
                } else {
                    "SK-STA-2"
                },
                || "runs facing its route: every step is toward its front".into(),
            );
        } else if step_arc != Arc::Front {
            cost *= m.flank_factor;
            notes.add("SK-MOV-16", || {
                format!(
                    "toward its {} without changing facing: double cost",
                    step_arc.name()
                )
            });
        }
        if evasive {
            cost += m.evasive;
            notes.add("SK-MOV-14", || {
                "evasive movement: one more point for the hex".into()
            });
        }
        let difficult = row.difficult && step_arc != Arc::Front;
        if difficult {
            notes.add("SK-MOV-17", || {
                "sideways or backward into difficult terrain: a Finesse check, Dazed on a failure"
                    .into()
            });
        }
        // SK-MOV-12 (reading): a friend's hex is passed, never ended in (SK-MOV-11), so
        // entering it does not end the movement even in an enemy's zone; the movement
        // ends in the first hex of an enemy's zone it may stand in.
        let stop = gait != Gait::Charge && enters && friend.is_none();
        if gait != Gait::Charge && enters && friend.is_some() {
            notes.add("SK-MOV-12", || {
                format!(
                    "{} is in an enemy's zone of control, but a friend's hex is passed through, not stopped in",
                    l()
                )
            });
        }
        if stop {
            notes.add("SK-MOV-8", || {
                format!("{} is in the zone of control of an enemy whose zone it was not in: the movement ends there", l())
            });
        } else if gait == Gait::Charge && in_zone {
            notes.add("SK-CHG-5", || "a charge ignores zones of control".into());
        }
        if notes.words != Words::Silent && gait != Gait::Short && self.enemy_zone(state, side, from)
        {
            notes.add("SK-MOV-9", || {
                format!(
                    "leaves {} in an enemy's zone of control: an attack of opportunity from each enemy not yet provoked in this movement",
                    self.label(from)
                )
            });
        }
        let (reasons, ids) = notes.done();
        Ok(Priced {
            cost,
            facing: if runs { dir } else { facing },
            stop,
            friend,
            difficult,
            reasons,
            ids,
        })
    }

    /// A step of `u` as the route searches take it (`board.rs`): its price, `None` where
    /// the rules refuse it.
    pub(crate) fn entered(
        &self,
        (state, crowd): (&State, &Crowd),
        u: UnitId,
        gait: Gait,
        from: Hex,
        facing: Direction,
        to: Hex,
    ) -> Option<Entered> {
        self.price_among(
            state,
            u,
            Step::new(from, to, facing, gait),
            false,
            Some(crowd),
        )
        .ok()
        .map(|p| Entered {
            cost: u32::from(p.cost),
            stop: p.stop,
            facing: p.facing,
        })
    }

    /// Whether a character shares its hex with a friend (it may not end there).
    pub(crate) fn on_friend(&self, state: &State, u: UnitId) -> bool {
        Self::ch(state, u)
            .hex
            .is_some_and(|h| self.friend_at(state, u, h))
    }

    /// Whether a friend of `u` other than `u` stands at `h`.
    pub(crate) fn friend_at(&self, state: &State, u: UnitId, h: Hex) -> bool {
        Self::occupants_of(state, h).any(|o| o != u && self.side_of(o) == self.side_of(u))
    }
}

/// SK-CHG-9: whether `u`, charging, may step into `to`, the hex of `o`: `o` is its
/// target, alone there, and `u` charges with a reach 0 weapon.
pub(crate) fn enters_close_quarters(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    o: UnitId,
    to: Hex,
) -> bool {
    let Some(ch) = &state.charge else {
        return false;
    };
    let Some(leg) = ch.legs.iter().find(|l| l.run.unit == u) else {
        return false;
    };
    leg.target == o
        && Skirmish::ch(state, o).hex == Some(to)
        && Skirmish::occupants_of(state, to).eq(std::iter::once(o))
        && rules.weapons[u.index()].reaches().any(|r| r == 0)
}

/// SK-MOV-12: an Engaged friend passed through spends a Quick Action or is Dazed, in a
/// walk, a charge, a flight or a short move alike.
pub(crate) fn pass_friend(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    f: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    if !rules.engaged(state, f) {
        return;
    }
    if state.chars[f.index()].quick {
        state.chars[f.index()].quick = false;
        ctx.emit_with(|| Event::Spent {
            unit: f,
            action: "quick_action".into(),
            rule: "SK-MOV-12".into(),
        });
    } else {
        statuses::daze(
            state,
            f,
            "SK-MOV-12",
            format!(
                "{} passed through it while it was Engaged, with no Quick Action left",
                rules.name(u)
            ),
            ctx,
        );
    }
}

/// SK-MOV-17 (provisional): a sideways or backward step into difficult terrain calls for
/// a check of Finesse - the terrain's base cost on the die; failing it dazes.
pub(crate) fn difficult_check(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    at: Hex,
    ctx: &mut Ctx<'_, Event>,
) {
    let base = rules.terrain_row(at).map_or(1, |r| i32::from(r.cost));
    let need = i32::from(rules.chars[u.index()].finesse) - base + rules.data.difficult.bonus;
    let die = i32::try_from(ctx.roll_for(rules.data.dice.sides, || {
        [
            "SK-MOV-17: Finesse check for ",
            rules.name(u),
            " stepping sideways or backward into ",
            rules.terrain_name(at),
            " at ",
            &rules.label(at),
        ]
        .concat()
    }))
    .expect("a die face");
    let passed = die <= need;
    ctx.emit_with(|| Event::Checked {
        unit: u,
        check: "difficult_terrain".into(),
        total: die,
        need: format!("{need} or less"),
        result: if passed { "passed" } else { "failed: Dazed" }.into(),
        rule: "SK-MOV-17".into(),
    });
    if !passed {
        statuses::daze(
            state,
            u,
            "SK-MOV-17",
            "failed the Finesse check in difficult terrain",
            ctx,
        );
    }
}

/// SK-MOV-18 (provisional): a character whose movement must end in a friend's hex goes
/// back along its path to the last hex it may stand in, else to the nearest free hex.
pub(crate) fn put_back(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    path: &[Hex],
    ctx: &mut Ctx<'_, Event>,
) {
    let Some(from) = Skirmish::ch(state, u).hex else {
        return;
    };
    let free = |h: Hex| rules.passable(h) && Skirmish::occupants_of(state, h).all(|o| o == u);
    let back = path.iter().rev().copied().find(|&h| h != from && free(h));
    let to = back.or_else(|| {
        (1..=rules.map.cols() + rules.map.rows()).find_map(|r| {
            let mut ring: Vec<Hex> = from
                .ring(r)
                .into_iter()
                .filter(|&h| rules.map.contains(h) && free(h))
                .collect();
            ring.sort_by_key(|&h| rules.idx(h));
            ring.first().copied()
        })
    });
    if let Some(to) = to {
        state.chars[u.index()].hex = Some(to);
        ctx.emit_with(|| Event::Moved {
            unit: u,
            from,
            to,
            cost: 0,
            left: Skirmish::ch(state, u).mp,
            rules: vec!["SK-MOV-18".into()],
        });
    }
}

/// SK-MOV-3, SK-MOV-16: the hexes `u` can walk to within `budget` points for its facing
/// (the search's mode is the facing; steps toward the flanks and rear cost double),
/// stepping as `gait`; each free hex with its cost and path, and whether it stops there
/// in an enemy's zone (SK-MOV-8).
pub(crate) fn walk_reach(
    rules: &Skirmish,
    state: &State,
    u: UnitId,
    budget: u32,
    gait: Gait,
) -> Vec<Reached> {
    let c = Skirmish::ch(state, u);
    let Some(from) = c.hex else { return Vec::new() };
    let side = rules.side_of(u);
    let crowd = Crowd::new(rules, state, u);
    let slow = |h, f, to| rules.entered((state, &crowd), u, gait, h, f, to);
    // On bit sets the steps are priced as a short move's are: a step's price reads no
    // more of its gait than a walk's or short move's reasons (SK-MOV-9), left out here.
    let (found, zone) = if let Some(walks) = Walks::new(rules, state, u) {
        let found = board::search_moves(
            &rules.map,
            from,
            c.facing,
            (budget, Turns::Yes, Paths::Yes),
            |m, f| {
                let e = walks.short_step((m.from_index, m.to_index), m.dir, f);
                debug_assert_eq!(e, slow(m.from, f, m.to), "{u:?}'s step {m:?}");
                e
            },
            |h| h != from && rules.idx(h).is_some_and(|i| walks.free(i)),
        );
        (found, Some(walks))
    } else {
        let keep = |h| h != from && !Skirmish::occupied(state, h);
        let found = board::search(&rules.map, from, c.facing, budget, Turns::Yes, slow, keep);
        (found, None)
    };
    let mut out: Vec<Reached> = found
        .into_iter()
        .map(|f| {
            let stop = match (&zone, rules.idx(f.hex)) {
                (Some(walks), Some(i)) => walks.in_zone(i),
                _ => rules.enemy_zone(state, side, f.hex),
            };
            debug_assert_eq!(stop, rules.enemy_zone(state, side, f.hex));
            Reached {
                hex: f.hex,
                cost: f.cost,
                path: f.path,
                stop,
            }
        })
        .collect();
    out.sort_by_key(|r| (r.cost, rules.idx(r.hex)));
    out
}
