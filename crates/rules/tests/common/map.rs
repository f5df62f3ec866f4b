//! Test scenarios written as text: a terrain grid one row a line, and a scenario sheet
//! each ruleset's harness adds its unit builders to.

use super::Table;
use grognard_engine::scenario::Scenario;
use grognard_engine::Ruleset;
use std::marker::PhantomData;

/// A grid of codes written one row a line, codes separated by spaces (blank lines and
/// indentation ignored).
#[derive(Clone, Debug)]
pub struct Grid {
    /// The rows, one a line.
    pub text: String,
    /// Codes in a row.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
}

impl Grid {
    /// The grid written in `text`.
    pub fn parse(text: &str) -> Grid {
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        Grid {
            cols: lines.first().map_or(0, |l| l.split_whitespace().count()),
            rows: lines.len(),
            text: lines.join("\n"),
        }
    }

    /// A grid of `cols` by `rows` from rows written without spaces, one code a character;
    /// missing rows and codes are `fill`.
    pub fn padded<S: AsRef<str>>(rows_text: &[S], cols: usize, rows: usize, fill: char) -> Grid {
        let lines: Vec<String> = (0..rows)
            .map(|r| {
                let line: Vec<char> = rows_text
                    .get(r)
                    .map_or_else(Vec::new, |l| l.as_ref().chars().collect());
                let cells: Vec<String> = (0..cols)
                    .map(|c| line.get(c).copied().unwrap_or(fill).to_string())
                    .collect();
                cells.join(" ")
            })
            .collect();
        Grid::parse(&lines.join("\n"))
    }

    /// A grid of `cols` by `rows` all of `code`.
    pub fn filled(code: &str, cols: usize, rows: usize) -> Grid {
        let row = vec![code; cols].join(" ");
        Grid::parse(&vec![row; rows].join("\n"))
    }
}

/// A test scenario being written for the ruleset `R`, by chained calls: a terrain grid,
/// two sides, the units and any other tables; then its text, the validated scenario and
/// a table at its start. Each ruleset's harness adds its own unit builders.
pub struct Sheet<R> {
    ruleset: &'static str,
    legend: &'static str,
    /// The sides in the file's order, each `(id, home edge)`.
    sides: [(&'static str, &'static str); 2],
    terrain: Grid,
    /// Lines added to the `[map]` table (an elevation grid).
    pub map_lines: String,
    /// The lines of the `[options]` table.
    pub options: String,
    /// Tables after the sides (hexsides, paths, places, victory).
    pub extra: String,
    units: String,
    first: String,
    turns: u32,
    rules: PhantomData<fn() -> R>,
}

impl<R> Clone for Sheet<R> {
    fn clone(&self) -> Sheet<R> {
        Sheet {
            terrain: self.terrain.clone(),
            map_lines: self.map_lines.clone(),
            options: self.options.clone(),
            extra: self.extra.clone(),
            units: self.units.clone(),
            first: self.first.clone(),
            ..*self
        }
    }
}

impl<R: Ruleset> Sheet<R> {
    /// A scenario of `ruleset` on this terrain, the first of `sides` playing first.
    pub fn new(
        ruleset: &'static str,
        legend: &'static str,
        sides: [(&'static str, &'static str); 2],
        terrain: Grid,
        turns: u32,
    ) -> Sheet<R> {
        Sheet {
            ruleset,
            legend,
            sides,
            terrain,
            map_lines: String::new(),
            options: String::new(),
            extra: String::new(),
            units: String::new(),
            first: sides[0].0.to_owned(),
            turns,
            rules: PhantomData,
        }
    }

    /// The side that plays first.
    #[must_use]
    pub fn first(mut self, side: &str) -> Sheet<R> {
        side.clone_into(&mut self.first);
        self
    }

    /// The turn limit.
    #[must_use]
    pub fn turns(mut self, n: u32) -> Sheet<R> {
        self.turns = n;
        self
    }

    /// Raw TOML appended to the file (places, victory).
    #[must_use]
    pub fn raw(mut self, toml: &str) -> Sheet<R> {
        self.extra += "\n";
        self.extra += toml;
        self.extra += "\n";
        self
    }

    /// A `[[units]]` table with these lines after its id, side and type; the unit is the
    /// first side's when its id starts with that side's initial, else the second's.
    #[must_use]
    pub fn unit_table(mut self, id: &str, kind: &str, lines: &str) -> Sheet<R> {
        let [(first, _), (second, _)] = self.sides;
        let side = if id.starts_with(&first[..1]) {
            first
        } else {
            second
        };
        self.units +=
            &format!("\n[[units]]\nid = \"{id}\"\nside = \"{side}\"\ntype = \"{kind}\"\n{lines}\n");
        self
    }

    /// The scenario file.
    #[must_use]
    pub fn toml(&self) -> String {
        let mut text = format!(
            "[scenario]\nid = \"test\"\ntitle = \"Test\"\nruleset = \"{}\"\nseed = 7\nturns = {}\nfirst_side = \"{}\"\n\n",
            self.ruleset, self.turns, self.first
        );
        if !self.options.is_empty() {
            text += &format!("[options]\n{}\n\n", self.options);
        }
        text += &format!(
            "[map]\ncols = {}\nrows = {}\nlegend = {}\nterrain = '''\n{}\n'''\n{}\n",
            self.terrain.cols, self.terrain.rows, self.legend, self.terrain.text, self.map_lines
        );
        for (id, edge) in self.sides {
            text += &format!("[[sides]]\nid = \"{id}\"\nhome_edge = \"{edge}\"\n\n");
        }
        text + &self.extra + "\n" + &self.units
    }

    /// The validated scenario.
    ///
    /// # Panics
    /// On any scenario problem.
    #[must_use]
    pub fn scenario(&self) -> Scenario {
        super::scenario(&self.toml())
    }

    /// A table at the scenario's start, on dice seeded 7 (the scenario's seed).
    #[must_use]
    pub fn game(&self) -> Table<R> {
        Table::of_scenario(&self.scenario(), 7)
    }
}

/// The `[scenario]` and `[map]` tables of a 13 by 9 pointy-top test board (rows 02, 04,
/// ... shoved half a hex right), blue playing first: `terrain` rows from the north, codes
/// without spaces, missing rows and columns clear (`.`).
pub fn pointy_board<S: AsRef<str>>(ruleset: &str, legend: &str, terrain: &[S]) -> String {
    let rows = Grid::padded(terrain, 13, 9, '.').text;
    format!(
        "[scenario]\nid = \"test\"\ntitle = \"Test\"\nruleset = \"{ruleset}\"\nfirst_side = \"blue\"\n\n\
         [map]\ncols = 13\nrows = 9\norientation = \"pointy\"\nshove = \"even\"\nlegend = {legend}\nterrain = '''\n{rows}\n'''\n"
    )
}
