//! Building positions for the rule tests: a 13 by 9 pointy-top board (rows 02, 04, ...
//! shoved half a hex right), blue at the south edge playing first, grey at the north.
//!
//! Neighbours of a hex in column c, row r: west (c-1, r) and east (c+1, r); in an odd
//! row the hexes above are (c-1, r-1) and (c, r-1) and those below (c-1, r+1) and
//! (c, r+1); in an even row they are (c, ..) and (c+1, ..).

use crate::common::map::pointy_board;
use crate::common::Table;
use grognard_engine::scenario::Scenario;
use grognard_engine::{Ruleset, UnitId};
use grognard_hex::Hex;
use grognard_rules::battle_cry::data::{Data, DATA};
use grognard_rules::battle_cry::{Action, BattleCry, Card, Order, Phase};

/// Die results showing each face (data.toml: infantry, infantry, cavalry, artillery,
/// sabers, flag).
pub const INF: u32 = 1;
pub const CAV: u32 = 3;
pub const ART: u32 = 4;
pub const SAB: u32 = 5;
pub const FLAG: u32 = 6;

/// No terrain: every hex clear.
pub const CLEAR: [&str; 0] = [];

/// The ruleset of the test boards, and their terrain codes.
const RULESET: &str = "battle_cry";
const LEGEND: &str = r#"{ "." = "clear", w = "woods", h = "hill", t = "town", m = "homestead", o = "orchard", f = "field", r = "river", b = "bridge", d = "ford", x = "rough" }"#;

/// The built-in scenario.
pub fn builtin() -> Scenario {
    crate::common::builtin("crossing-at-hollins-ford")
}

/// Scenario text for a position: `terrain` rows from the north (codes without spaces,
/// missing rows and columns clear), `units` as (id, side, type, hex, figures or 0 for
/// full strength), and `extra` TOML appended (fences, [victory], [battle_cry]).
/// Reserves stand in the east corners (1101 to 1301, 1109 to 1309) unless `extra`
/// contains `# no reserves`.
pub fn scenario_text<S: AsRef<str>>(
    terrain: &[S],
    units: &[(&str, &str, &str, &str, u8)],
    extra: &str,
) -> String {
    let mut all: Vec<(String, String, String, String, u8)> = units
        .iter()
        .map(|&(i, s, t, h, f)| (i.to_owned(), s.to_owned(), t.to_owned(), h.to_owned(), f))
        .collect();
    if !extra.contains("# no reserves") {
        for (n, c) in ["11", "12", "13"].iter().enumerate() {
            all.push((
                format!("b-reserve-{n}"),
                "blue".into(),
                "infantry".into(),
                format!("{c}09"),
                0,
            ));
            all.push((
                format!("g-reserve-{n}"),
                "grey".into(),
                "infantry".into(),
                format!("{c}01"),
                0,
            ));
        }
    }
    let mut text = pointy_board(RULESET, LEGEND, terrain);
    text += r#"
[[sides]]
id = "blue"
home_edge = "south"
values = { hand = 4 }

[[sides]]
id = "grey"
home_edge = "north"
values = { hand = 4 }
"#;
    for (id, side, kind, hex, figures) in &all {
        text.push_str(&format!(
            "\n[[units]]\nid = \"{id}\"\nside = \"{side}\"\ntype = \"{kind}\"\nat = \"{hex}\"\n"
        ));
        if *figures > 0 {
            text.push_str(&format!("values = {{ figures = {figures} }}\n"));
        }
    }
    if !extra.contains("[victory]") {
        let blue = all.iter().filter(|u| u.1 == "blue").count();
        let grey = all.len() - blue;
        text.push_str(&format!(
            "\n[victory]\nflags = {{ blue = {grey}, grey = {blue} }}\n"
        ));
    }
    text.push('\n');
    text.push_str(extra);
    text
}

/// A position under test: the kit's table (`common::Table`: lookups, `legal`, `explain`,
/// `is_legal`, `refuses`, `allows`, `apply` with forced dice, `reach`) with Battle Cry's
/// builders and shortcuts below.
pub type Pos = Table<BattleCry>;

impl Pos {
    /// A position built by [`scenario_text`], in blue's command step with empty hands.
    pub fn new<S: AsRef<str>>(
        terrain: &[S],
        units: &[(&str, &str, &str, &str, u8)],
        extra: &str,
    ) -> Pos {
        Pos::at_command(&crate::common::scenario(&scenario_text(
            terrain, units, extra,
        )))
    }

    /// [`Pos::new`] on the shipped tables with each `(from, to)` edit made to their text
    /// (see `common::edited_tables`).
    pub fn with_tables<S: AsRef<str>>(
        terrain: &[S],
        units: &[(&str, &str, &str, &str, u8)],
        extra: &str,
        edits: &[(&str, &str)],
    ) -> Pos {
        let data = crate::common::edited_tables(DATA, edits, Data::parse);
        let s = crate::common::scenario(&scenario_text(terrain, units, extra));
        Pos::of_rules(BattleCry::with_data(&s, data).unwrap_or_else(|p| panic!("{p}")))
    }

    /// A position of a scenario, in the first side's command step with empty hands.
    pub fn at_command(s: &Scenario) -> Pos {
        Pos::of_rules(BattleCry::new(s).unwrap_or_else(|p| panic!("{p}")))
    }

    fn of_rules(rules: BattleCry) -> Pos {
        let mut p = Table::with_rules(rules, 1);
        p.state.phase = Phase::Command;
        p.state.hands = [Vec::new(), Vec::new()];
        p
    }

    /// The label `dq`, `dr` axial steps from `label`.
    pub fn offset(&self, label: &str, dq: i32, dr: i32) -> String {
        let h = self.hex(label);
        self.label(Hex::new(h.q + dq, h.r + dr))
    }

    /// Where a piece is, as a label; `None` once eliminated.
    pub fn at(&self, name: &str) -> Option<String> {
        self.state.pieces[self.id(name).index()]
            .hex
            .map(|h| self.label(h))
    }

    /// Sets a piece's figures (a reduced unit).
    pub fn set_figures(&mut self, name: &str, n: u8) {
        let u = self.id(name);
        self.state.pieces[u.index()].figures = n;
    }

    pub fn figures(&self, name: &str) -> u8 {
        self.state.pieces[self.id(name).index()].figures
    }

    pub fn side(&self, name: &str) -> u8 {
        self.rules.side_index(name).unwrap()
    }

    /// Puts `side` in `phase` with `ordered` ordered by the card `card` (if any).
    pub fn set(&mut self, side: &str, phase: Phase, card: Option<&str>, ordered: &[&str]) {
        self.state.active = self.side(side);
        self.state.phase = phase;
        self.state.played = card.map(|c| Card::from_id(c).unwrap());
        for i in 0..self.state.pieces.len() {
            let u = UnitId(u16::try_from(i).unwrap());
            self.state.set_order(u, Order::None);
        }
        for name in ordered {
            let u = self.id(name);
            self.state.set_order(u, Order::Card);
        }
    }

    /// Gives a side a hand.
    pub fn hand(&mut self, side: &str, cards: &[&str]) {
        let mut hand: Vec<Card> = cards.iter().map(|c| Card::from_id(c).unwrap()).collect();
        hand.sort();
        let s = usize::from(self.side(side));
        for c in &hand {
            let at = self
                .state
                .deck
                .iter()
                .position(|d| d == c)
                .expect("card left in the deck");
            self.state.deck.remove(at);
        }
        self.state.hands[s] = hand;
    }

    pub fn order(&self, name: &str) -> Action {
        Action::Order {
            unit: self.id(name),
        }
    }

    pub fn mv(&self, name: &str, to: &str) -> Action {
        Action::Move {
            unit: self.id(name),
            to: self.hex(to),
        }
    }

    pub fn battle(&self, name: &str, target: &str) -> Action {
        Action::Battle {
            unit: self.id(name),
            target: self.id(target),
        }
    }

    pub fn retreat(&self, name: &str, to: &str) -> Action {
        Action::Retreat {
            unit: self.id(name),
            to: self.hex(to),
        }
    }

    /// The dice a battle would roll (from its preview).
    pub fn dice(&self, name: &str, target: &str) -> u64 {
        let p = self
            .rules
            .preview(&self.state, &self.battle(name, target))
            .unwrap_or_else(|r| panic!("{r}"));
        p.inputs["dice"].as_u64().unwrap()
    }

    /// The retreat ends offered now, sorted labels.
    pub fn retreats(&self) -> Vec<String> {
        let mut v: Vec<String> = self
            .legal()
            .into_iter()
            .filter_map(|a| match a {
                Action::Retreat { to, .. } => Some(self.label(to)),
                _ => None,
            })
            .collect();
        v.sort();
        v
    }
}

/// Terrain rows (for [`Pos::new`]) with these hexes given these codes, the rest clear.
pub fn terrain(cells: &[(&str, char)]) -> Vec<String> {
    let mut rows = vec![vec!['.'; 13]; 9];
    for (label, code) in cells {
        let c: usize = label[..2].parse().unwrap();
        let r: usize = label[2..].parse().unwrap();
        rows[r - 1][c - 1] = *code;
    }
    rows.into_iter().map(|r| r.into_iter().collect()).collect()
}

/// The labels as owned strings, sorted.
pub fn labels(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| (*s).to_owned()).collect();
    v.sort();
    v
}
