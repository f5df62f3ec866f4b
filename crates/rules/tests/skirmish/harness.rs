//! A small harness for the skirmish tests: scenarios built from compact text, games
//! driven through the `Ruleset` trait on a state the tests may also set up by hand,
//! every action checked three ways (`explain`, the legal list and `apply` must agree).
//!
//! Maps are flat-top with even columns shoved down, so from an odd column's hex `CCRR`
//! the neighbours are n `CC(RR-1)`, s `CC(RR+1)`, ne `(CC+1)(RR-1)`, se `(CC+1)RR`,
//! sw `(CC-1)RR`, nw `(CC-1)(RR-1)`; from an even column's hex: n `CC(RR-1)`,
//! s `CC(RR+1)`, ne `(CC+1)RR`, se `(CC+1)(RR+1)`, sw `(CC-1)(RR+1)`, nw `(CC-1)RR`.
//! Red (ids `r-...`) plays first from the south edge; blue (`b-...`) from the north.

#![allow(dead_code, reason = "each chapter uses its own part of the harness")]

use crate::common::map::{Grid, Sheet};
use crate::common::Table;
use grognard_engine::{Ruleset, Seat};

pub use crate::common::has;
use grognard_hex::Direction;
use grognard_rules::skirmish::characters::CharState;
use grognard_rules::skirmish::{Action, Event, Phase, Skirmish, State, Window};

/// The terrain codes of test maps.
pub const LEGEND: &str = r#"{ "." = "open", b = "brush", r = "rock" }"#;

/// A sword fighter's values: Finesse 3 (6 points), Vigor 2, Morale 2, Weapon Skill 2.
pub const SWORD: &str = "finesse = 3, vigor = 2, morale = 2, weapon_skill = 2, combat = 1, evasion = 1, weapon = \"sword\"";

/// A test scenario being written: the kit's sheet (`common::map::Sheet`: `turns`, `toml`,
/// `scenario`, `game`) with the skirmish builders below. Red plays first.
pub type Sk = Sheet<Skirmish>;

/// A scenario on this terrain: one line per row, codes separated by spaces.
pub fn map(terrain: &str) -> Sk {
    Sheet::new(
        "skirmish",
        LEGEND,
        [("red", "south"), ("blue", "north")],
        Grid::parse(terrain),
        10,
    )
}

/// An open map of `cols` by `rows`.
pub fn open(cols: usize, rows: usize) -> Sk {
    map(&Grid::filled(".", cols, rows).text)
}

/// Red `r-a` at 0405 facing north and blue `b-a` at 0404 facing south: sword fighters
/// face to face on an open `size` by `size` map.
pub fn face_to_face(size: usize) -> Sk {
    open(size, size)
        .sword("r-a", "0405", "n")
        .sword("b-a", "0404", "s")
}

/// Red `r-a` at 0707 facing north and blue `b-a` at 0101 facing south: sword fighters far
/// apart on an open 8 by 8 map.
pub fn apart() -> Sk {
    open(8, 8)
        .sword("r-a", "0707", "n")
        .sword("b-a", "0101", "s")
}

/// The values of a sword fighter with some replaced: `with("weapon = \"spear\"")`.
pub fn with(changes: &str) -> String {
    let mut fields: Vec<(String, String)> = SWORD
        .split(", ")
        .map(|kv| {
            let (k, v) = kv.split_once(" = ").unwrap();
            (k.to_owned(), v.to_owned())
        })
        .collect();
    for kv in changes.split(", ").filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once(" = ").unwrap();
        match fields.iter_mut().find(|(x, _)| x == k) {
            Some(f) => f.1 = v.to_owned(),
            None => fields.push((k.to_owned(), v.to_owned())),
        }
    }
    fields
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Sk {
    /// A character facing `facing` with these values; red when its id starts with `r`.
    #[must_use]
    pub fn ch(self, id: &str, at: &str, facing: &str, values: &str) -> Sk {
        let lines = format!("at = \"{at}\"\nfacing = \"{facing}\"\nvalues = {{ {values} }}");
        self.unit_table(id, "character", &lines)
    }

    /// A sword fighter.
    #[must_use]
    pub fn sword(self, id: &str, at: &str, facing: &str) -> Sk {
        self.ch(id, at, facing, SWORD)
    }
}

/// A game under test: the kit's table (`common::Table`: the rules, the state, the dice;
/// lookups, `legal`, `explain`, `act` checked against the legal list and `explain`,
/// `force`) with the skirmish shortcuts below.
pub type T = Table<Skirmish>;

/// What an action did: its events.
pub type Done = crate::common::Done<Skirmish>;

/// A direction by its flat-top name.
pub fn dir(name: &str) -> Direction {
    Direction::ALL
        .into_iter()
        .find(|d| d.name() == name)
        .unwrap_or_else(|| panic!("no direction {name}"))
}

impl T {
    /// The label of the neighbour of `label` toward `d` (flat-top name).
    pub fn nb(&self, label: &str, d: &str) -> String {
        self.label(self.hex(label).neighbor(dir(d)))
    }

    /// The state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Changes the state by hand (to set a status up).
    pub fn edit(&mut self, f: impl FnOnce(&mut State)) {
        f(&mut self.state);
        self.state.edited();
    }

    /// Changes a character by hand.
    pub fn set(&mut self, id: &str, f: impl FnOnce(&mut CharState)) {
        let u = self.id(id);
        f(&mut self.state.chars[u.index()]);
        self.state.edited();
    }

    /// A character's state.
    pub fn c(&self, id: &str) -> &CharState {
        &self.state.chars[self.id(id).index()]
    }

    /// Where a character is.
    pub fn at(&self, id: &str) -> Option<String> {
        self.c(id).hex.map(|h| self.label(h))
    }

    /// Its facing's name.
    pub fn facing(&self, id: &str) -> &'static str {
        self.c(id).facing.name()
    }

    /// Movement points left.
    pub fn mp(&self, id: &str) -> u8 {
        self.c(id).mp
    }

    /// The view's entry for a character.
    pub fn view(&self, id: &str) -> serde_json::Value {
        let v = self.rules.view(&self.state, &Seat::Omniscient);
        v["units"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == id)
            .cloned()
            .unwrap()
    }

    /// Whether the view shows a status on a character.
    pub fn has_status(&self, id: &str, status: &str) -> bool {
        self.view(id)["statuses"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x == status)
    }

    /// The side deciding, the kind of decision and whether it is a window.
    pub fn deciding(&self) -> (String, String, bool) {
        let d = self.to_act().expect("someone decides");
        (d.side, d.kind, d.reaction)
    }

    /// A step.
    pub fn step(&self, id: &str, to: &str) -> Action {
        Action::Move {
            unit: self.id(id),
            to: self.hex(to),
            evasive: false,
        }
    }

    /// Steps a character one hex.
    pub fn go(&mut self, id: &str, to: &str) -> Done {
        self.act(&self.step(id, to))
    }

    /// Steps evasively.
    pub fn go_evasive(&mut self, id: &str, to: &str) -> Done {
        let a = Action::Move {
            unit: self.id(id),
            to: self.hex(to),
            evasive: true,
        };
        self.act(&a)
    }

    /// Steps a character along a path, passing every window.
    ///
    /// # Panics
    /// On a refusal.
    pub fn walk(&mut self, id: &str, path: &[&str]) -> Vec<Event> {
        let mut all = Vec::new();
        for to in path {
            all.extend(
                self.go(id, to)
                    .unwrap_or_else(|r| panic!("{id} to {to}: {r}")),
            );
            all.extend(self.pass_all());
        }
        all
    }

    /// Passes every open window.
    pub fn pass_all(&mut self) -> Vec<Event> {
        let mut all = Vec::new();
        while self.state.window.is_some() {
            all.extend(self.act(&Action::Pass).expect("pass"));
        }
        all
    }

    /// Turns a character.
    pub fn face(&mut self, id: &str, facing: &str) -> Done {
        let a = Action::Face {
            unit: self.id(id),
            facing: dir(facing),
        };
        self.act(&a)
    }

    /// A charge declaration.
    pub fn charge_action(&self, id: &str, target: &str) -> Action {
        Action::Charge {
            unit: self.id(id),
            target: self.id(target),
            together: false,
        }
    }

    /// Declares a charge.
    pub fn charge(&mut self, id: &str, target: &str) -> Done {
        self.act(&self.charge_action(id, target))
    }

    /// Runs the charge under way to its end, taking the first legal step each time and
    /// passing every window.
    pub fn run_charge(&mut self) -> Vec<Event> {
        let mut all = Vec::new();
        for _ in 0..100 {
            all.extend(self.pass_all());
            if self.state.charge.is_none() {
                return all;
            }
            let step = self
                .legal()
                .into_iter()
                .find(|a| matches!(a, Action::Move { .. }))
                .expect("a charge step");
            all.extend(self.act(&step).expect("charge step"));
        }
        panic!("the charge never ended");
    }

    /// A short move action.
    pub fn short(&self, id: &str, to: &str, facing: &str) -> Action {
        Action::ShortMove {
            unit: self.id(id),
            to: self.hex(to),
            facing: dir(facing),
        }
    }

    /// A short move in the reaction window.
    pub fn react(&mut self, id: &str, to: &str, facing: &str) -> Done {
        self.act(&self.short(id, to, facing))
    }

    /// An attack of opportunity.
    pub fn opportunity(&mut self, id: &str, target: &str) -> Done {
        let a = Action::Opportunity {
            unit: self.id(id),
            target: self.id(target),
        };
        self.act(&a)
    }

    /// A melee attack action.
    pub fn attack_action(&self, id: &str, target: &str) -> Action {
        Action::Attack {
            unit: self.id(id),
            target: self.id(target),
        }
    }

    /// A melee attack.
    pub fn attack(&mut self, id: &str, target: &str) -> Done {
        self.act(&self.attack_action(id, target))
    }

    /// Passes a window.
    pub fn pass(&mut self) -> Done {
        self.act(&Action::Pass)
    }

    /// The rule that refuses a step.
    pub fn refused_step(&mut self, id: &str, to: &str) -> String {
        let a = self.step(id, to);
        self.refused(a)
    }

    /// Ends the phase.
    ///
    /// # Panics
    /// If refused.
    pub fn end(&mut self) -> Vec<Event> {
        self.act(&Action::EndPhase).expect("end phase")
    }

    /// The active side's name.
    pub fn active(&self) -> &'static str {
        if self.state.active == 0 {
            "red"
        } else {
            "blue"
        }
    }

    /// Ends phases until `side`'s `phase`, passing windows.
    ///
    /// # Panics
    /// After 100 phases or at the end of the game.
    pub fn to(&mut self, side: &str, phase: Phase) -> Vec<Event> {
        let mut all = Vec::new();
        for _ in 0..100 {
            all.extend(self.pass_all());
            if self.state.phase == phase && self.active() == side {
                return all;
            }
            assert!(self.state.outcome.is_none(), "the game ended");
            all.extend(self.end());
        }
        panic!("never reached {side} {phase:?}");
    }

    /// The window open now.
    pub fn window(&self) -> Option<&Window> {
        self.state.window.as_ref()
    }

    /// The preview of an action.
    ///
    /// # Panics
    /// When refused.
    pub fn preview(&self, a: &Action) -> grognard_engine::Preview {
        self.rules
            .preview(&self.state, a)
            .unwrap_or_else(|r| panic!("{a:?}: {r}"))
    }
}

/// The cost of the `Moved` events in a list.
pub fn costs(events: &[Event]) -> Vec<u8> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Moved { cost, .. } => Some(*cost),
            _ => None,
        })
        .collect()
}
