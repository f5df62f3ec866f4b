use crate::Hex;
use std::fmt;

/// How hexes sit on the printed map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Orientation {
    /// Flat edges at top and bottom; hexes form vertical columns (most wargame maps).
    FlatTop,
    /// Points at top and bottom; hexes form horizontal rows.
    PointyTop,
}

/// Which printed columns (flat-top) or rows (pointy-top) sit half a hex lower
/// (flat-top) or further right (pointy-top) than their neighbours, counting from 01.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Shove {
    /// Columns (rows) 02, 04, ... are shoved.
    Even,
    /// Columns (rows) 01, 03, ... are shoved.
    Odd,
}

/// A rectangular map of `cols` by `rows` hexes with printed `CCRR` labels.
///
/// Label `0101` is axial `(0, 0)`. Labels have two digits per coordinate, or three
/// when the map is wider or deeper than 99 hexes.
///
/// ```
/// use grognard_hex::{Hex, MapShape, Orientation, Shove};
/// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 13, 9).unwrap();
/// assert_eq!(map.parse_label("0101"), Ok(Hex::ORIGIN));
/// assert_eq!(map.len(), 117);
/// assert!(map.parse_label("1410").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MapShape {
    orientation: Orientation,
    shove: Shove,
    cols: u32,
    rows: u32,
}

/// Why a label or coordinate is not a hex of the map.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LabelError {
    /// Not `CCRR` digits of the map's width.
    Malformed {
        /// The label as given.
        label: String,
        /// How many digits each of column and row must have.
        digits: usize,
    },
    /// Well formed, but outside the map.
    OffMap {
        /// The label as given.
        label: String,
        /// The map's columns.
        cols: u32,
        /// The map's rows.
        rows: u32,
    },
}

impl fmt::Display for LabelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabelError::Malformed { label, digits } => write!(
                f,
                "`{label}` is not a hex label: expected {} digits, column then row (e.g. `{}`)",
                digits * 2,
                if *digits == 2 { "0304" } else { "003004" }
            ),
            LabelError::OffMap { label, cols, rows } => {
                write!(
                    f,
                    "hex `{label}` is off the map ({cols} columns by {rows} rows)"
                )
            }
        }
    }
}

impl std::error::Error for LabelError {}

/// The largest number of columns or rows a map may have.
pub const MAX_SIDE: u32 = 999;

impl MapShape {
    /// A map of `cols` by `rows` hexes; `None` when either is 0 or over 999.
    ///
    /// ```
    /// # use grognard_hex::{MapShape, Orientation, Shove};
    /// assert!(MapShape::new(Orientation::PointyTop, Shove::Odd, 0, 5).is_none());
    /// ```
    #[must_use]
    pub fn new(orientation: Orientation, shove: Shove, cols: u32, rows: u32) -> Option<MapShape> {
        if cols == 0 || rows == 0 || cols > MAX_SIDE || rows > MAX_SIDE {
            return None;
        }
        Some(MapShape {
            orientation,
            shove,
            cols,
            rows,
        })
    }

    /// The layout.
    #[must_use]
    pub fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// The shoved parity.
    #[must_use]
    pub fn shove(&self) -> Shove {
        self.shove
    }

    /// Number of columns.
    #[must_use]
    pub fn cols(&self) -> u32 {
        self.cols
    }

    /// Number of rows.
    #[must_use]
    pub fn rows(&self) -> u32 {
        self.rows
    }

    /// Number of hexes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.cols as usize * self.rows as usize
    }

    /// Always false: a map has at least one hex.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Digits per coordinate in a label: 2, or 3 on maps over 99 hexes a side.
    ///
    /// ```
    /// # use grognard_hex::{MapShape, Orientation, Shove};
    /// assert_eq!(MapShape::new(Orientation::FlatTop, Shove::Even, 120, 9).unwrap().label_digits(), 3);
    /// ```
    #[must_use]
    pub fn label_digits(&self) -> usize {
        if self.cols > 99 || self.rows > 99 {
            3
        } else {
            2
        }
    }

    /// 0-based `(col, row)` of a hex, which may be off the map.
    ///
    /// ```
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 5, 5).unwrap();
    /// assert_eq!(map.to_offset(Hex::new(1, 0)), (1, 0));
    /// ```
    #[must_use]
    pub fn to_offset(&self, hex: Hex) -> (i32, i32) {
        // Label parity "even" shoves the 0-based odd lines; `x - (x & 1)` is even, so
        // the halving is exact for negative lines too.
        match (self.orientation, self.shove) {
            (Orientation::FlatTop, Shove::Even) => (hex.q, hex.r + (hex.q - (hex.q & 1)) / 2),
            (Orientation::FlatTop, Shove::Odd) => (hex.q, hex.r + (hex.q + (hex.q & 1)) / 2),
            (Orientation::PointyTop, Shove::Even) => (hex.q + (hex.r - (hex.r & 1)) / 2, hex.r),
            (Orientation::PointyTop, Shove::Odd) => (hex.q + (hex.r + (hex.r & 1)) / 2, hex.r),
        }
    }

    /// The hex at 0-based `(col, row)`, which may be off the map.
    ///
    /// ```
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::PointyTop, Shove::Odd, 5, 5).unwrap();
    /// let h = Hex::new(-2, 3);
    /// let (c, r) = map.to_offset(h);
    /// assert_eq!(map.from_offset(c, r), h);
    /// ```
    #[must_use]
    pub fn from_offset(&self, col: i32, row: i32) -> Hex {
        match (self.orientation, self.shove) {
            (Orientation::FlatTop, Shove::Even) => Hex::new(col, row - (col - (col & 1)) / 2),
            (Orientation::FlatTop, Shove::Odd) => Hex::new(col, row - (col + (col & 1)) / 2),
            (Orientation::PointyTop, Shove::Even) => Hex::new(col - (row - (row & 1)) / 2, row),
            (Orientation::PointyTop, Shove::Odd) => Hex::new(col - (row + (row & 1)) / 2, row),
        }
    }

    /// Whether the hex is on the map.
    ///
    /// ```
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 5, 5).unwrap();
    /// assert!(map.contains(Hex::ORIGIN));
    /// assert!(!map.contains(Hex::new(-1, 0)));
    /// ```
    #[must_use]
    pub fn contains(&self, hex: Hex) -> bool {
        self.index(hex).is_some()
    }

    /// The dense index of a hex (row-major over printed rows), or `None` off the map.
    ///
    /// ```
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 5, 4).unwrap();
    /// assert_eq!(map.index(Hex::ORIGIN), Some(0));
    /// assert_eq!(map.hex_at(map.index(Hex::new(3, 1)).unwrap()), Hex::new(3, 1));
    /// ```
    #[must_use]
    #[inline]
    pub fn index(&self, hex: Hex) -> Option<usize> {
        let (c, r) = self.to_offset(hex);
        let (c, r) = (u32::try_from(c).ok()?, u32::try_from(r).ok()?);
        if c < self.cols && r < self.rows {
            Some(r as usize * self.cols as usize + c as usize)
        } else {
            None
        }
    }

    /// The hex at a dense index.
    ///
    /// # Panics
    /// When `index >= self.len()`.
    #[must_use]
    pub fn hex_at(&self, index: usize) -> Hex {
        assert!(index < self.len(), "hex index {index} out of range");
        let cols = self.cols as usize;
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_possible_wrap,
            reason = "sides are at most 999"
        )]
        self.from_offset((index % cols) as i32, (index / cols) as i32)
    }

    /// Every hex of the map in index order.
    ///
    /// ```
    /// # use grognard_hex::{MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 3, 2).unwrap();
    /// assert_eq!(map.hexes().count(), 6);
    /// ```
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (0..self.len()).map(|i| self.hex_at(i))
    }

    /// The printed label of a hex, or `None` off the map.
    ///
    /// ```
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 13, 9).unwrap();
    /// assert_eq!(map.label(Hex::new(2, 1)).as_deref(), Some("0303"));
    /// ```
    #[must_use]
    pub fn label(&self, hex: Hex) -> Option<String> {
        self.index(hex)?;
        let (c, r) = self.to_offset(hex);
        let w = self.label_digits();
        // As `format!("{:0w$}{:0w$}", c + 1, r + 1)` writes it, without the formatter:
        // views write a label for every piece of every game object.
        let mut out = String::with_capacity(2 * w);
        push_padded(&mut out, c + 1, w);
        push_padded(&mut out, r + 1, w);
        Some(out)
    }

    /// The hex a printed label names.
    ///
    /// # Errors
    /// [`LabelError::Malformed`] when the label is not all digits of the right length,
    /// [`LabelError::OffMap`] when it names a hex outside the map.
    ///
    /// ```
    /// # use grognard_hex::{MapShape, Orientation, Shove, LabelError};
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 13, 9).unwrap();
    /// assert!(matches!(map.parse_label("1310"), Err(LabelError::OffMap { .. })));
    /// assert!(matches!(map.parse_label("13x1"), Err(LabelError::Malformed { .. })));
    /// ```
    pub fn parse_label(&self, label: &str) -> Result<Hex, LabelError> {
        let w = self.label_digits();
        let malformed = || LabelError::Malformed {
            label: label.to_owned(),
            digits: w,
        };
        if label.len() != 2 * w || !label.bytes().all(|b| b.is_ascii_digit()) {
            return Err(malformed());
        }
        let c: u32 = label[..w].parse().map_err(|_| malformed())?;
        let r: u32 = label[w..].parse().map_err(|_| malformed())?;
        if c == 0 || r == 0 || c > self.cols || r > self.rows {
            return Err(LabelError::OffMap {
                label: label.to_owned(),
                cols: self.cols,
                rows: self.rows,
            });
        }
        #[expect(clippy::cast_possible_wrap, reason = "sides are at most 999")]
        Ok(self.from_offset(c as i32 - 1, r as i32 - 1))
    }

    /// The centre of a hex in drawing units (y grows downward), for hexes of
    /// circumradius `size`; for renderers, never for rules.
    ///
    /// ```
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 5, 5).unwrap();
    /// assert_eq!(map.center(Hex::ORIGIN, 10.0), (0.0, 0.0));
    /// ```
    #[must_use]
    pub fn center(&self, hex: Hex, size: f64) -> (f64, f64) {
        let sqrt3 = 3f64.sqrt();
        let (q, r) = (f64::from(hex.q), f64::from(hex.r));
        match self.orientation {
            Orientation::FlatTop => (size * 1.5 * q, size * sqrt3 * (r + q / 2.0)),
            Orientation::PointyTop => (size * sqrt3 * (q + r / 2.0), size * 1.5 * r),
        }
    }

    /// The six corners of a hex in drawing units, clockwise; the hexside in direction
    /// `i` runs from corner `i` to corner `i + 1`.
    #[must_use]
    pub fn corners(&self, hex: Hex, size: f64) -> [(f64, f64); 6] {
        let (cx, cy) = self.center(hex, size);
        let start = match self.orientation {
            Orientation::FlatTop => -60.0f64,
            Orientation::PointyTop => -90.0f64,
        };
        std::array::from_fn(|i| {
            #[expect(clippy::cast_precision_loss, reason = "i < 6")]
            let a = (start + 60.0 * i as f64).to_radians();
            (cx + size * a.cos(), cy + size * a.sin())
        })
    }

    /// The two end points of the hexside of `hex` in direction `dir`, in drawing units.
    ///
    /// ```
    /// # use grognard_hex::{Direction, Hex, MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 5, 5).unwrap();
    /// let ((x1, y1), (x2, y2)) = map.side_corners(Hex::ORIGIN, Direction::N, 10.0);
    /// assert!((y1 - y2).abs() < 1e-9 && y1 < 0.0); // the top edge is level
    /// assert!(x1 < x2);
    /// ```
    #[must_use]
    pub fn side_corners(
        &self,
        hex: Hex,
        dir: crate::Direction,
        size: f64,
    ) -> ((f64, f64), (f64, f64)) {
        let c = self.corners(hex, size);
        let i = dir.index();
        (c[i], c[(i + 1) % 6])
    }
}

/// Writes `n` (1 or more, as a label's column or row is) in decimal, zero-padded to
/// `width` digits.
fn push_padded(out: &mut String, n: i32, width: usize) {
    let mut digits = [0u8; 10];
    let mut len = 0;
    let mut v = n.unsigned_abs();
    loop {
        digits[len] = b'0' + (v % 10) as u8;
        len += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    if n < 0 {
        out.push('-');
    }
    for _ in len + usize::from(n < 0)..width {
        out.push('0');
    }
    for &d in digits[..len].iter().rev() {
        out.push(char::from(d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The label written digit by digit is the one the formatter writes, on maps of
    /// two-digit and three-digit labels, and for numbers wider than the width.
    #[test]
    fn labels_are_written_as_the_formatter_writes_them() {
        for (cols, rows) in [(13, 9), (120, 9), (9, 101)] {
            let map = MapShape::new(Orientation::FlatTop, Shove::Even, cols, rows).unwrap();
            let w = map.label_digits();
            for c in 0..cols {
                for r in 0..rows {
                    let (c, r) = (i32::try_from(c).unwrap(), i32::try_from(r).unwrap());
                    let hex = map.from_offset(c, r);
                    let want = format!("{:0w$}{:0w$}", c + 1, r + 1);
                    assert_eq!(map.label(hex), Some(want));
                }
            }
        }
        for (n, width) in [(7, 2), (1234, 2), (-5, 3), (0, 2), (99, 3)] {
            let mut out = String::new();
            push_padded(&mut out, n, width);
            assert_eq!(out, format!("{n:0width$}"));
        }
    }
}
