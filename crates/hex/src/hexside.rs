use crate::{Direction, Hex};

/// The edge between two adjacent hexes, as one value whichever side names it.
///
/// The canonical form belongs to the hex for which the edge lies in direction
/// 0, 1 or 2 (NE, SE, S on a flat-top map).
///
/// ```
/// use grognard_hex::{Direction, Hex, Hexside};
/// let a = Hex::new(2, 3);
/// let b = a.neighbor(Direction::NW);
/// let side = Hexside::between(a, b).unwrap();
/// assert_eq!(side, Hexside::new(b, Direction::SE));
/// assert_eq!(side.hexes(), (b, a));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Hexside {
    hex: Hex,
    dir: Direction,
}

impl Hexside {
    /// The hexside of `hex` in direction `dir`.
    ///
    /// ```
    /// # use grognard_hex::{Direction, Hex, Hexside};
    /// let h = Hex::new(0, 0);
    /// assert_eq!(Hexside::new(h, Direction::N), Hexside::new(Hex::new(0, -1), Direction::S));
    /// ```
    #[must_use]
    pub fn new(hex: Hex, dir: Direction) -> Hexside {
        if dir.index() < 3 {
            Hexside { hex, dir }
        } else {
            Hexside {
                hex: hex.neighbor(dir),
                dir: dir.opposite(),
            }
        }
    }

    /// The hexside between two hexes, or `None` when they are not adjacent.
    ///
    /// ```
    /// # use grognard_hex::{Hex, Hexside};
    /// assert!(Hexside::between(Hex::new(0, 0), Hex::new(2, 0)).is_none());
    /// ```
    #[must_use]
    pub fn between(a: Hex, b: Hex) -> Option<Hexside> {
        a.direction_to(b).map(|d| Hexside::new(a, d))
    }

    /// The two hexes it separates: the owner first, then the hex across
    /// direction [`Hexside::direction`].
    ///
    /// ```
    /// # use grognard_hex::{Direction, Hex, Hexside};
    /// let s = Hexside::new(Hex::ORIGIN, Direction::S);
    /// assert_eq!(s.hexes(), (Hex::ORIGIN, Hex::new(0, 1)));
    /// ```
    #[must_use]
    pub fn hexes(self) -> (Hex, Hex) {
        (self.hex, self.hex.neighbor(self.dir))
    }

    /// The owning hex of the canonical form.
    #[must_use]
    pub fn hex(self) -> Hex {
        self.hex
    }

    /// The direction from the owning hex, always 0, 1 or 2.
    #[must_use]
    pub fn direction(self) -> Direction {
        self.dir
    }

    /// The hex across this hexside from `hex`, or `None` when `hex` is on neither side.
    ///
    /// ```
    /// # use grognard_hex::{Direction, Hex, Hexside};
    /// let s = Hexside::new(Hex::ORIGIN, Direction::S);
    /// assert_eq!(s.across(Hex::new(0, 1)), Some(Hex::ORIGIN));
    /// assert_eq!(s.across(Hex::new(5, 5)), None);
    /// ```
    #[must_use]
    pub fn across(self, hex: Hex) -> Option<Hex> {
        let (a, b) = self.hexes();
        if hex == a {
            Some(b)
        } else if hex == b {
            Some(a)
        } else {
            None
        }
    }
}
