//! A small harness for the Morne Plaine tests: scenarios built from compact text, games
//! played on the kit's table (`common::Table`), with every action checked three ways:
//! `explain`, the legal list and `apply` must agree.
//!
//! Maps are flat-top with even columns shoved down, so from an odd column's hex `CCRR`
//! the neighbours are n `CC(RR-1)`, s `CC(RR+1)`, ne `(CC+1)(RR-1)`, se `(CC+1)RR`,
//! sw `(CC-1)RR`, nw `(CC-1)(RR-1)`; from an even column's hex: ne `(CC+1)RR`,
//! se `(CC+1)(RR+1)`, sw `(CC-1)(RR+1)`, nw `(CC-1)RR`. Orange plays first and
//! retreats north; blue retreats south; the bog test is off unless asked for.

use crate::common::map::{Grid, Sheet};
use crate::common::Table;
use grognard_engine::{Ruleset, Seat};
use grognard_rules::morne_plaine::units::UnitState;
use grognard_rules::morne_plaine::{Action, Event, MornePlaine, Phase, State};

pub use crate::common::has;

/// The terrain codes of test maps.
pub const LEGEND: &str = r#"{ "." = "clear", r = "rough", c = "coppice", o = "orchard", w = "woods", v = "village", m = "marsh", t = "town", h = "hamlet", f = "fort", d = "dune", p = "palm_grove" }"#;

/// A test scenario being written: the kit's sheet (`common::map::Sheet`: `first`,
/// `turns`, `raw`, `toml`, `scenario`, `game`) with the Morne Plaine builders below.
/// Orange plays first; the bog test is off.
pub type Mp = Sheet<MornePlaine>;

/// A scenario on this terrain: one line per row, codes separated by spaces.
pub fn map(terrain: &str) -> Mp {
    let mut m = Sheet::new(
        "morne_plaine",
        LEGEND,
        [("orange", "north"), ("blue", "south")],
        Grid::parse(terrain),
        12,
    );
    m.options = "bog_test = false".into();
    m
}

/// A clear map of `cols` by `rows`.
pub fn clear(cols: usize, rows: usize) -> Mp {
    map(&Grid::filled(".", cols, rows).text)
}

fn list(items: &[&str]) -> String {
    items
        .iter()
        .map(|s| format!("\"{s}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Mp {
    /// Elevation grid, same shape as the terrain.
    #[must_use]
    pub fn elevation(mut self, grid: &str) -> Mp {
        self.map_lines = format!("elevation = '''\n{}\n'''\n", Grid::parse(grid).text);
        self
    }

    /// A hexside feature on these hexsides (`"0304/0305"` or `"0304/n"`).
    #[must_use]
    pub fn hexsides(mut self, feature: &str, sides: &[&str]) -> Mp {
        self.extra += &format!(
            "\n[[hexsides]]\nfeature = \"{feature}\"\nsides = [{}]\n",
            list(sides)
        );
        self
    }

    /// A road or track through these hexes.
    #[must_use]
    pub fn path(mut self, kind: &str, hexes: &[&str]) -> Mp {
        self.extra += &format!(
            "\n[[paths]]\nkind = \"{kind}\"\nhexes = [{}]\n",
            list(hexes)
        );
        self
    }

    /// A unit; its side is orange when its id starts with `o`, else blue.
    #[must_use]
    pub fn unit(self, id: &str, kind: &str, at: &str, values: &str) -> Mp {
        self.unit_table(id, kind, &format!("at = \"{at}\"\nvalues = {{ {values} }}"))
    }

    /// A reinforcement.
    #[must_use]
    pub fn reinforcement(self, id: &str, kind: &str, turn: u32, hex: &str, values: &str) -> Mp {
        let enters = format!("enters = {{ turn = {turn}, hex = \"{hex}\" }}");
        self.unit_table(id, kind, &format!("{enters}\nvalues = {{ {values} }}"))
    }

    /// Infantry with MA 4.
    #[must_use]
    pub fn inf(self, id: &str, at: &str, cs: u8, mv: u8) -> Mp {
        self.unit(id, "infantry", at, &format!("cs = {cs}, ma = 4, mv = {mv}"))
    }

    /// Light cavalry with MA 8.
    #[must_use]
    pub fn cav(self, id: &str, at: &str, cs: u8, mv: u8) -> Mp {
        self.unit(
            id,
            "cavalry",
            at,
            &format!("cs = {cs}, ma = 8, mv = {mv}, class = \"light\""),
        )
    }

    /// A battery with MA 3, MV 3.
    #[must_use]
    pub fn art(self, id: &str, at: &str, bv: u8, range: u8) -> Mp {
        self.unit(
            id,
            "artillery",
            at,
            &format!("cs = 2, ma = 3, mv = 3, bv = {bv}, range = {range}"),
        )
    }

    /// A leader with MA 8.
    #[must_use]
    pub fn leader(self, id: &str, at: &str, cs: u8, stripes: u8) -> Mp {
        self.unit(
            id,
            "leader",
            at,
            &format!("cs = {cs}, ma = 8, stripes = {stripes}"),
        )
    }

    /// Switches the bog test on.
    #[must_use]
    pub fn bog(mut self) -> Mp {
        self.options = "bog_test = true".into();
        self
    }
}

/// A game under test: the kit's table (`common::Table`: the rules, the state, the dice;
/// lookups `id`, `hex`, `label`; `legal`, `explain`, `act` checked against the legal list
/// and `explain`, `force`) with the Morne Plaine shortcuts below, which act with
/// `act_exactly` (every forced die must be rolled by the action it was forced for).
pub type T = Table<MornePlaine>;

/// What an action did: its events.
pub type Done = crate::common::Done<MornePlaine>;

impl T {
    /// The state.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// A unit's state.
    pub fn unit(&self, id: &str) -> &UnitState {
        &self.state.units[self.id(id).index()]
    }

    /// Where a unit is.
    pub fn at(&self, id: &str) -> Option<String> {
        self.unit(id).hex.map(|h| self.label(h))
    }

    /// Movement points left.
    pub fn mp(&self, id: &str) -> u8 {
        self.unit(id).mp
    }

    /// Combat strength.
    pub fn cs(&self, id: &str) -> u8 {
        self.unit(id).cs
    }

    /// Morale value.
    pub fn mv(&self, id: &str) -> u8 {
        self.unit(id).mv
    }

    /// The phase and the side to act (the view names the active side).
    pub fn phase(&self) -> (Phase, &'static str) {
        let active = &self.rules.view(&self.state, &Seat::Omniscient)["active"];
        let side = ["orange", "blue"]
            .into_iter()
            .find(|s| active == s)
            .unwrap_or_else(|| panic!("no side {active}"));
        (self.state.phase, side)
    }

    /// A move action.
    pub fn step(&self, id: &str, to: &str) -> Action {
        Action::Move {
            unit: self.id(id),
            to: self.hex(to),
        }
    }

    /// Steps a unit one hex.
    pub fn go(&mut self, id: &str, to: &str) -> Done {
        self.act_exactly(&self.step(id, to))
    }

    /// Steps a unit along a path; every step must be legal.
    ///
    /// # Panics
    /// On a refusal.
    pub fn walk(&mut self, id: &str, path: &[&str]) -> Vec<Event> {
        let mut all = Vec::new();
        for to in path {
            let ev = self
                .go(id, to)
                .unwrap_or_else(|r| panic!("{id} to {to}: {r}"));
            all.extend(ev);
        }
        all
    }

    /// The cost of a step, taken.
    ///
    /// # Panics
    /// On a refusal.
    pub fn cost(&mut self, id: &str, to: &str) -> u8 {
        let before = self.mp(id);
        let ev = self
            .go(id, to)
            .unwrap_or_else(|r| panic!("{id} to {to}: {r}"));
        let cost = ev
            .iter()
            .find_map(|e| match e {
                Event::Moved { cost, .. } => Some(*cost),
                _ => None,
            })
            .expect("a moved event");
        assert_eq!(before - cost, self.mp(id), "the allowance pays the cost");
        cost
    }

    /// The rule that refuses a step of `id` into `to`.
    pub fn refused_step(&mut self, id: &str, to: &str) -> String {
        let a = self.step(id, to);
        self.refused(a)
    }

    /// A charge action.
    pub fn charge_action(&self, id: &str, target: &str) -> Action {
        Action::Charge {
            unit: self.id(id),
            target: self.id(target),
        }
    }

    /// A charge.
    pub fn charge(&mut self, id: &str, target: &str) -> Done {
        self.act_exactly(&self.charge_action(id, target))
    }

    /// An attack action.
    pub fn attack_action(&self, id: &str, target: &str) -> Action {
        Action::Attack {
            unit: self.id(id),
            target: self.id(target),
        }
    }

    /// An attack.
    pub fn attack(&mut self, id: &str, target: &str) -> Done {
        self.act_exactly(&self.attack_action(id, target))
    }

    /// A bombardment.
    pub fn fire(&mut self, id: &str, hex: &str) -> Done {
        let a = Action::Bombard {
            unit: self.id(id),
            target: self.hex(hex),
        };
        self.act_exactly(&a)
    }

    /// Ends the phase.
    ///
    /// # Panics
    /// If refused.
    pub fn end(&mut self) -> Vec<Event> {
        self.act_exactly(&Action::EndPhase).expect("end phase")
    }

    /// Ends phases until `side`'s `phase`.
    ///
    /// # Panics
    /// After 100 phases, or at the end of the game.
    pub fn to(&mut self, side: &str, phase: Phase) {
        for _ in 0..100 {
            if self.phase() == (phase, side) {
                return;
            }
            assert!(self.state.outcome.is_none(), "the game ended");
            self.end();
        }
        panic!("never reached {side} {phase:?}");
    }
}

/// The rule IDs cited by an event list (moves' rules, halts, eliminations, shakes...).
pub fn rules_of(events: &[Event]) -> Vec<String> {
    let mut out = Vec::new();
    for e in events {
        match e {
            Event::Moved { rules, .. } => out.extend(rules.ids().map(str::to_owned)),
            Event::Halted { rule, .. }
            | Event::Shaken { rule, .. }
            | Event::Retreated { rule, .. }
            | Event::TookHex { rule, .. }
            | Event::Eliminated { rule, .. }
            | Event::Rallied { rule, .. }
            | Event::Arrived { rule, .. } => out.push(rule.clone()),
            Event::Roll(r) => out.push(r.purpose.split(':').next().unwrap_or("").to_owned()),
            _ => {}
        }
    }
    out
}
