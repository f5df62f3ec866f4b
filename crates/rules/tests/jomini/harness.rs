//! Building positions for the rule tests: a 13 by 9 pointy-top table (rows 02, 04, ...
//! shoved half a hex right), `blue` at the south edge playing first, `red` at the north.
//!
//! Neighbours of a hex in column c, row r: west (c-1, r) and east (c+1, r); in an odd
//! row the hexes above are (c-1, r-1) and (c, r-1) and those below (c-1, r+1) and
//! (c, r+1); in an even row they are (c, ..) and (c+1, ..).

use crate::common::map::pointy_board;
use crate::common::Table;
use grognard_engine::scenario::Scenario;
use grognard_engine::Ruleset;
use grognard_rules::jomini::data::{Data, DATA};
use grognard_rules::jomini::{Action, Jomini, Phase};

/// Die results showing each face (data.toml: infantry, cavalry, artillery, flag, letter,
/// advantage).
pub const INF: u32 = 1;
pub const CAV: u32 = 2;
pub const ART: u32 = 3;
pub const FLAG: u32 = 4;
pub const LETTER: u32 = 5;
pub const ADV: u32 = 6;

/// The ruleset of the test boards, and their terrain codes.
const RULESET: &str = "jomini";
const LEGEND: &str = r#"{ "." = "clear", w = "woods", h = "hill", v = "built_up", r = "river", b = "bridge", f = "ford", m = "marsh", k = "rocky", x = "mountain" }"#;

/// The built-in scenario.
pub fn builtin() -> Scenario {
    crate::common::builtin("passage-of-the-saale")
}

/// A unit line: (id, side, type, hex, values TOML); hex "" is a reinforcement entering at
/// 0709 on turn 1, "+N" one entering on game turn N.
pub type U<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str);

/// Scenario text: `terrain` rows from the north (codes without spaces, missing rows and
/// columns clear), `units`, and `extra` TOML appended. Two far-off reserves per side stand
/// in the corners (so that armies are not empty) unless `extra` has `# no reserves`.
pub fn scenario_text(terrain: &[&str], units: &[U<'_>], extra: &str) -> String {
    let mut text = pointy_board(RULESET, LEGEND, terrain);
    text += &format!(
        r#"
[[sides]]
id = "blue"
home_edge = "south"
values = {{ command = 20{blue_exit} }}

[[sides]]
id = "red"
home_edge = "north"
values = {{ command = 20 }}
"#,
        blue_exit = if extra.contains("# blue may exit north") {
            ", exit = \"north\""
        } else {
            ""
        },
    );
    let mut all: Vec<U<'_>> = units.to_vec();
    if !extra.contains("# no reserves") {
        all.push((
            "b-reserve-1",
            "blue",
            "infantry",
            "1309",
            "weight = \"medium\"",
        ));
        all.push((
            "b-reserve-2",
            "blue",
            "infantry",
            "1209",
            "weight = \"medium\"",
        ));
        all.push((
            "r-reserve-1",
            "red",
            "infantry",
            "1301",
            "weight = \"medium\"",
        ));
        all.push((
            "r-reserve-2",
            "red",
            "infantry",
            "1201",
            "weight = \"medium\"",
        ));
    }
    for (id, side, kind, hex, values) in all {
        text.push_str(&format!(
            "\n[[units]]\nid = \"{id}\"\nside = \"{side}\"\ntype = \"{kind}\"\n"
        ));
        if let Some(turn) = hex.strip_prefix('+') {
            text.push_str(&format!("enters = {{ turn = {turn}, hex = \"0709\" }}\n"));
        } else if hex.is_empty() {
            text.push_str("enters = { turn = 1, hex = \"0709\" }\n");
        } else {
            text.push_str(&format!("at = \"{hex}\"\n"));
        }
        text.push_str(&format!("values = {{ {values} }}\n"));
    }
    text.push('\n');
    text.push_str(extra);
    text
}

/// A position under test: the kit's table (`common::Table`: lookups, `legal`, `explain`,
/// `refuses`, `allows`, `apply` with forced dice, `reach`, the last action's `events`)
/// with JOMINI's builders and shortcuts below.
pub type Pos = Table<Jomini>;

impl Pos {
    pub fn new(terrain: &[&str], units: &[U<'_>], extra: &str) -> Pos {
        Pos::at_start(&crate::common::scenario(&scenario_text(
            terrain, units, extra,
        )))
    }

    /// [`Pos::new`] on the shipped tables with each `(from, to)` edit made to their text
    /// (see `common::edited_tables`).
    pub fn with_tables(
        terrain: &[&str],
        units: &[U<'_>],
        extra: &str,
        edits: &[(&str, &str)],
    ) -> Pos {
        let data = crate::common::edited_tables(DATA, edits, Data::parse);
        let s = crate::common::scenario(&scenario_text(terrain, units, extra));
        Table::with_rules(
            Jomini::with_data(&s, data).unwrap_or_else(|p| panic!("{p}")),
            0,
        )
    }

    /// A scenario's initial position (fresh dice seeded 0 for each action).
    pub fn at_start(s: &Scenario) -> Pos {
        Table::of_scenario(s, 0)
    }

    /// Where a piece is, as a label.
    pub fn at(&self, name: &str) -> Option<String> {
        self.state.pieces[self.id(name).index()]
            .hex
            .map(|h| self.label(h))
    }

    pub fn strength(&self, name: &str) -> u8 {
        self.state.pieces[self.id(name).index()].strength
    }

    /// Activates pieces directly (an officer first opens its activation).
    pub fn activate(&mut self, names: &[&str]) {
        for n in names {
            let a = Action::Activate { unit: self.id(n) };
            self.ok(&a);
        }
    }

    /// Puts the active side in `phase`.
    pub fn phase(&mut self, phase: Phase) {
        self.state.phase = phase;
    }

    /// Applies a legal action with no forced dice.
    pub fn ok(&mut self, a: &Action) {
        self.apply(a, &[]);
    }

    /// Asserts the action is refused citing `rule` first; returns the message.
    pub fn refused_first(&self, a: &Action, rule: &str) -> String {
        let message = self.refuses(a, rule);
        assert_eq!(self.explain(a).reasons[0].rule, rule);
        message
    }

    pub fn mv(&self, unit: &str, to: &str) -> Action {
        Action::Move {
            unit: self.id(unit),
            to: self.hex(to),
        }
    }

    pub fn attack(&self, unit: &str, target: &str) -> Action {
        Action::Attack {
            unit: self.id(unit),
            target: self.id(target),
        }
    }

    pub fn view(&self) -> serde_json::Value {
        let names = self.rules.names().clone();
        names.scope(|| {
            self.rules
                .view(&self.state, &grognard_engine::Seat::Omniscient)
        })
    }
}
