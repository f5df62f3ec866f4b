//! Located problems: what is wrong with a scenario file, and where.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A position in a scenario file: 1-based line and column (columns count characters).
///
/// Validated scenarios keep the position of each unit, place, path and table so that a
/// ruleset can report its own problems at the right place later.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Loc {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Loc {
    /// A problem at this position of `file`.
    ///
    /// ```
    /// use grognard_engine::scenario::Loc;
    /// let p = Loc { line: 3, column: 7 }.problem("a.toml", "no such hex");
    /// assert_eq!(p.to_string(), "a.toml:3:7: no such hex");
    /// ```
    #[must_use]
    pub fn problem(self, file: &str, message: impl Into<String>) -> Problem {
        Problem {
            file: file.to_owned(),
            line: self.line,
            column: self.column,
            message: message.into(),
        }
    }
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// One thing wrong with a scenario file, at a 1-based line and column.
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, thiserror::Error,
)]
#[error("{file}:{line}:{column}: {message}")]
pub struct Problem {
    /// The file name as given to [`parse`](super::parse) or [`load`](super::load).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong, as one sentence without a final full stop.
    pub message: String,
}

impl Problem {
    /// The problem's position.
    #[must_use]
    pub fn loc(&self) -> Loc {
        Loc {
            line: self.line,
            column: self.column,
        }
    }
}

/// Every problem found in a scenario file, in file order; displayed one per line.
///
/// ```
/// use grognard_engine::scenario::{Loc, Problems};
/// let ps = Problems(vec![
///     Loc { line: 1, column: 1 }.problem("a.toml", "first"),
///     Loc { line: 2, column: 5 }.problem("a.toml", "second"),
/// ]);
/// assert_eq!(ps.to_string(), "a.toml:1:1: first\na.toml:2:5: second");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("{}", lines(.0))]
pub struct Problems(pub Vec<Problem>);

fn lines(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

impl Problems {
    /// Sorts by position (then message) and drops exact repeats.
    pub fn sort(&mut self) {
        self.0
            .sort_by(|a, b| (a.line, a.column, &a.message).cmp(&(b.line, b.column, &b.message)));
        self.0.dedup();
    }

    /// How many problems.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The problems in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Problem> {
        self.0.iter()
    }
}

impl From<Problem> for Problems {
    fn from(p: Problem) -> Problems {
        Problems(vec![p])
    }
}

impl IntoIterator for Problems {
    type Item = Problem;
    type IntoIter = std::vec::IntoIter<Problem>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Problems {
    type Item = &'a Problem;
    type IntoIter = std::slice::Iter<'a, Problem>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// Byte offsets of a text mapped to lines and columns.
pub(crate) struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// The position of a byte offset (clamped to the text; mid-character offsets
    /// count the character they fall in).
    pub(crate) fn loc(&self, offset: usize) -> Loc {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let column = self.text.get(start..).map_or(0, |rest| {
            rest.char_indices()
                .take_while(|(i, _)| *i < offset - start)
                .count()
        });
        Loc {
            line: line + 1,
            column: column + 1,
        }
    }

    /// The source text.
    pub(crate) fn text(&self) -> &'a str {
        self.text
    }
}
