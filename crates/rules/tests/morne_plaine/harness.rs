//! A small harness for the Morne Plaine tests: scenarios built from compact text, games
//! driven through the typed engine (`Game<MornePlaine>`), with every action checked
//! three ways: `explain`, the legal list and `apply` must agree.
//!
//! Maps are flat-top with even columns shoved down, so from an odd column's hex `CCRR`
//! the neighbours are n `CC(RR-1)`, s `CC(RR+1)`, ne `(CC+1)(RR-1)`, se `(CC+1)RR`,
//! sw `(CC-1)RR`, nw `(CC-1)(RR-1)`; from an even column's hex: ne `(CC+1)RR`,
//! se `(CC+1)(RR+1)`, sw `(CC-1)(RR+1)`, nw `(CC-1)RR`. Orange plays first and
//! retreats north; blue retreats south; the bog test is off unless asked for.

use grognard_engine::{Explanation, Game, Reached, Refusal, Ruleset, UnitId};
use grognard_hex::Hex;
use grognard_rules::morne_plaine::units::UnitState;
use grognard_rules::morne_plaine::{Action, Event, MornePlaine, Phase, State};

/// The terrain codes of test maps.
pub const LEGEND: &str = r#"{ "." = "clear", r = "rough", c = "coppice", o = "orchard", w = "woods", v = "village", m = "marsh", t = "town", h = "hamlet", f = "fort", d = "dune", p = "palm_grove" }"#;

/// A test scenario being written.
#[derive(Clone, Debug)]
pub struct Mp {
    terrain: String,
    cols: usize,
    rows: usize,
    elevation: Option<String>,
    extra: String,
    units: String,
    first: String,
    turns: u32,
    bog: bool,
}

/// A scenario on this terrain: one line per row, codes separated by spaces.
pub fn map(terrain: &str) -> Mp {
    let lines: Vec<&str> = terrain
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let cols = lines[0].split_whitespace().count();
    Mp {
        terrain: lines.join("\n"),
        cols,
        rows: lines.len(),
        elevation: None,
        extra: String::new(),
        units: String::new(),
        first: "orange".into(),
        turns: 12,
        bog: false,
    }
}

/// A clear map of `cols` by `rows`.
pub fn clear(cols: usize, rows: usize) -> Mp {
    let row = vec!["."; cols].join(" ");
    map(&vec![row; rows].join("\n"))
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
        let lines: Vec<&str> = grid
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        self.elevation = Some(lines.join("\n"));
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

    /// Raw TOML appended to the file (places, victory).
    #[must_use]
    pub fn raw(mut self, toml: &str) -> Mp {
        self.extra += "\n";
        self.extra += toml;
        self.extra += "\n";
        self
    }

    /// A unit; its side is orange when its id starts with `o`, else blue.
    #[must_use]
    pub fn unit(mut self, id: &str, kind: &str, at: &str, values: &str) -> Mp {
        let side = if id.starts_with('o') {
            "orange"
        } else {
            "blue"
        };
        self.units += &format!(
            "\n[[units]]\nid = \"{id}\"\nside = \"{side}\"\ntype = \"{kind}\"\nat = \"{at}\"\nvalues = {{ {values} }}\n"
        );
        self
    }

    /// A reinforcement.
    #[must_use]
    pub fn reinforcement(mut self, id: &str, kind: &str, turn: u32, hex: &str, values: &str) -> Mp {
        let side = if id.starts_with('o') {
            "orange"
        } else {
            "blue"
        };
        self.units += &format!(
            "\n[[units]]\nid = \"{id}\"\nside = \"{side}\"\ntype = \"{kind}\"\nenters = {{ turn = {turn}, hex = \"{hex}\" }}\nvalues = {{ {values} }}\n"
        );
        self
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

    /// The side that plays first.
    #[must_use]
    pub fn first(mut self, side: &str) -> Mp {
        side.clone_into(&mut self.first);
        self
    }

    /// The turn limit.
    #[must_use]
    pub fn turns(mut self, n: u32) -> Mp {
        self.turns = n;
        self
    }

    /// Switches the bog test on.
    #[must_use]
    pub fn bog(mut self) -> Mp {
        self.bog = true;
        self
    }

    /// The scenario file.
    #[must_use]
    pub fn toml(&self) -> String {
        let grid = |g: &str| g.to_owned();
        let elevation = self
            .elevation
            .as_ref()
            .map(|e| format!("elevation = '''\n{}\n'''\n", grid(e)))
            .unwrap_or_default();
        format!(
            "[scenario]\nid = \"test\"\ntitle = \"Test\"\nruleset = \"morne_plaine\"\nseed = 7\nturns = {turns}\nfirst_side = \"{first}\"\n\n\
             [options]\nbog_test = {bog}\n\n\
             [map]\ncols = {cols}\nrows = {rows}\nlegend = {LEGEND}\nterrain = '''\n{terrain}\n'''\n{elevation}\n\
             [[sides]]\nid = \"orange\"\nhome_edge = \"north\"\n\n[[sides]]\nid = \"blue\"\nhome_edge = \"south\"\n{extra}\n{units}",
            turns = self.turns,
            first = self.first,
            bog = self.bog,
            cols = self.cols,
            rows = self.rows,
            terrain = self.terrain,
            extra = self.extra,
            units = self.units,
        )
    }

    /// The validated scenario.
    ///
    /// # Panics
    /// On any scenario problem.
    #[must_use]
    pub fn scenario(&self) -> grognard_engine::scenario::Scenario {
        grognard_rules::registry()
            .load_scenario("test.toml", &self.toml())
            .unwrap_or_else(|p| panic!("{p}\n{}", self.toml()))
    }

    /// A typed game of it.
    #[must_use]
    pub fn game(&self) -> T {
        T {
            g: Game::new(self.scenario(), None).expect("game"),
        }
    }
}

/// A typed game under test.
#[derive(Clone, Debug)]
pub struct T {
    /// The game.
    pub g: Game<MornePlaine>,
}

/// What an action did: its events.
pub type Done = Result<Vec<Event>, Refusal>;

impl T {
    /// A unit's id.
    pub fn u(&self, id: &str) -> UnitId {
        self.g
            .rules()
            .names()
            .unit(id)
            .unwrap_or_else(|| panic!("no unit {id}"))
    }

    /// A hex by label.
    pub fn h(&self, label: &str) -> Hex {
        self.g
            .rules()
            .names()
            .map()
            .parse_label(label)
            .expect("label")
    }

    /// A hex's label.
    pub fn label(&self, hex: Hex) -> String {
        self.g.rules().names().label(hex)
    }

    /// The state.
    pub fn state(&self) -> &State {
        self.g.state()
    }

    /// A unit's state.
    pub fn unit(&self, id: &str) -> &UnitState {
        &self.g.state().units[self.u(id).index()]
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

    /// The phase and the side to act.
    pub fn phase(&self) -> (Phase, &str) {
        let s = self.g.state();
        (
            s.phase,
            if s.active == 0 {
                self.first_side()
            } else {
                self.second_side()
            },
        )
    }

    fn first_side(&self) -> &str {
        &self.g.scenario().first_side
    }

    fn second_side(&self) -> &str {
        let first = self.first_side();
        &self
            .g
            .scenario()
            .sides
            .iter()
            .find(|s| s.id != first)
            .expect("two sides")
            .id
    }

    /// The legal actions.
    pub fn legal(&self) -> Vec<Action> {
        self.g.legal_actions()
    }

    /// Why an action is legal or not.
    pub fn explain(&self, a: &Action) -> Explanation {
        self.g.rules().explain(self.g.state(), a)
    }

    /// Applies an action, checking that `explain`, the legal list and `apply` agree.
    ///
    /// # Panics
    /// When they disagree.
    pub fn act(&mut self, a: Action) -> Done {
        let listed = self.legal().contains(&a);
        let e = self.explain(&a);
        assert_eq!(
            listed, e.legal,
            "legal list and explain disagree on {a:?}: {e:?}"
        );
        let r = self.g.apply(a).map(<[Event]>::to_vec);
        assert_eq!(
            r.is_ok(),
            listed,
            "apply and the legal list disagree on {a:?}: {r:?}"
        );
        if let Err(refusal) = &r {
            assert_eq!(
                refusal.reasons, e.reasons,
                "apply and explain give different reasons"
            );
        } else {
            // Every die forced for an action must be rolled by it: a forced die left
            // over means the action rolled fewer dice than the test thinks.
            assert!(
                self.g.dice().forced().is_empty(),
                "forced dice left over after {a:?}: {:?}",
                self.g.dice().forced()
            );
        }
        r
    }

    /// A move action.
    pub fn step(&self, id: &str, to: &str) -> Action {
        Action::Move {
            unit: self.u(id),
            to: self.h(to),
        }
    }

    /// Steps a unit one hex.
    pub fn go(&mut self, id: &str, to: &str) -> Done {
        let a = self.step(id, to);
        self.act(a)
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

    /// The rule that refuses a step (and checks that it is refused).
    ///
    /// # Panics
    /// When the step is legal.
    pub fn refused(&mut self, a: Action) -> String {
        match self.act(a) {
            Ok(_) => panic!("{a:?} was accepted"),
            Err(r) => r.rule().to_owned(),
        }
    }

    /// The rule that refuses a step of `id` into `to`.
    pub fn refused_step(&mut self, id: &str, to: &str) -> String {
        let a = self.step(id, to);
        self.refused(a)
    }

    /// A charge.
    pub fn charge(&mut self, id: &str, target: &str) -> Done {
        let a = Action::Charge {
            unit: self.u(id),
            target: self.u(target),
        };
        self.act(a)
    }

    /// An attack.
    pub fn attack(&mut self, id: &str, target: &str) -> Done {
        let a = Action::Attack {
            unit: self.u(id),
            target: self.u(target),
        };
        self.act(a)
    }

    /// A bombardment.
    pub fn fire(&mut self, id: &str, hex: &str) -> Done {
        let a = Action::Bombard {
            unit: self.u(id),
            target: self.h(hex),
        };
        self.act(a)
    }

    /// Ends the phase.
    ///
    /// # Panics
    /// If refused.
    pub fn end(&mut self) -> Vec<Event> {
        self.act(Action::EndPhase).expect("end phase")
    }

    /// Ends phases until `side`'s `phase`.
    ///
    /// # Panics
    /// After 100 phases, or at the end of the game.
    pub fn to(&mut self, side: &str, phase: Phase) {
        for _ in 0..100 {
            let (p, s) = self.phase();
            if p == phase && s == side {
                return;
            }
            assert!(self.g.state().outcome.is_none(), "the game ended");
            self.end();
        }
        panic!("never reached {side} {phase:?}");
    }

    /// Queues forced die results.
    pub fn force(&mut self, rolls: &[u32]) {
        self.g.dice_mut().force(rolls.iter().copied());
    }

    /// The reachable hexes of a unit.
    ///
    /// # Panics
    /// When the unit cannot move.
    pub fn reachable(&self, id: &str) -> Vec<Reached> {
        self.g
            .rules()
            .reachable(self.g.state(), self.u(id))
            .expect("can move")
    }

    /// The cost to reach a hex, if reachable.
    pub fn reach_cost(&self, id: &str, hex: &str) -> Option<u32> {
        let h = self.h(hex);
        self.reachable(id)
            .iter()
            .find(|r| r.hex == h)
            .map(|r| r.cost)
    }
}

/// Whether an event list holds an event matching `f`.
pub fn has(events: &[Event], f: impl Fn(&Event) -> bool) -> bool {
    events.iter().any(f)
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
