//! Test scenarios written as text: a terrain grid one row a line, and the `[scenario]`
//! and `[map]` tables every ruleset's scenario builder starts with.

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

    /// A grid of `cols` by `rows` all of `code`.
    pub fn filled(code: &str, cols: usize, rows: usize) -> Grid {
        let row = vec![code; cols].join(" ");
        Grid::parse(&vec![row; rows].join("\n"))
    }

    /// The `[map]` table of a flat-top map of this terrain, without its last newline.
    pub fn map_table(&self, legend: &str) -> String {
        format!(
            "[map]\ncols = {}\nrows = {}\nlegend = {legend}\nterrain = '''\n{}\n'''",
            self.cols, self.rows, self.text
        )
    }
}

/// The `[scenario]` table of a test scenario (id `test`, seed 7).
pub fn scenario_table(ruleset: &str, turns: u32, first_side: &str) -> String {
    format!(
        "[scenario]\nid = \"test\"\ntitle = \"Test\"\nruleset = \"{ruleset}\"\nseed = 7\nturns = {turns}\nfirst_side = \"{first_side}\"\n"
    )
}

/// The two `[[sides]]` tables, each `(id, home edge)`, in play order.
pub fn sides_tables(first: (&str, &str), second: (&str, &str)) -> String {
    format!(
        "[[sides]]\nid = \"{}\"\nhome_edge = \"{}\"\n\n[[sides]]\nid = \"{}\"\nhome_edge = \"{}\"\n",
        first.0, first.1, second.0, second.1
    )
}
