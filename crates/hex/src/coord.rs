use crate::Direction;

/// A hex in axial coordinates `(q, r)`; the third cube coordinate is `s = -q - r`.
///
/// ```
/// use grognard_hex::Hex;
/// let a = Hex::new(0, 0);
/// let b = Hex::new(3, -1);
/// assert_eq!(a.distance(b), 3);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Hex {
    /// Axial column coordinate.
    pub q: i32,
    /// Axial row coordinate.
    pub r: i32,
}

impl Hex {
    /// The origin, `(0, 0)`.
    pub const ORIGIN: Hex = Hex { q: 0, r: 0 };

    /// A hex from its axial coordinates.
    ///
    /// ```
    /// # use grognard_hex::Hex;
    /// assert_eq!(Hex::new(2, -1).s(), -1);
    /// ```
    #[must_use]
    pub const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    /// The third cube coordinate, `-q - r`.
    ///
    /// ```
    /// # use grognard_hex::Hex;
    /// assert_eq!(Hex::new(1, 2).s(), -3);
    /// ```
    #[must_use]
    pub const fn s(self) -> i32 {
        -self.q - self.r
    }

    /// The neighbouring hex in `dir`.
    ///
    /// ```
    /// # use grognard_hex::{Direction, Hex};
    /// assert_eq!(Hex::ORIGIN.neighbor(Direction::NE), Hex::new(1, -1));
    /// ```
    #[must_use]
    pub const fn neighbor(self, dir: Direction) -> Hex {
        let (dq, dr) = dir.delta();
        Hex::new(self.q + dq, self.r + dr)
    }

    /// The six neighbours, in direction order 0 to 5.
    ///
    /// ```
    /// # use grognard_hex::Hex;
    /// assert!(Hex::ORIGIN.neighbors().iter().all(|n| n.distance(Hex::ORIGIN) == 1));
    /// ```
    #[must_use]
    pub fn neighbors(self) -> [Hex; 6] {
        Direction::ALL.map(|d| self.neighbor(d))
    }

    /// The number of steps between two hexes.
    ///
    /// ```
    /// # use grognard_hex::Hex;
    /// assert_eq!(Hex::new(-2, 0).distance(Hex::new(2, -2)), 4);
    /// ```
    #[must_use]
    pub const fn distance(self, other: Hex) -> u32 {
        let dq = (self.q - other.q).unsigned_abs();
        let dr = (self.r - other.r).unsigned_abs();
        let ds = (self.s() - other.s()).unsigned_abs();
        let m = if dq > dr { dq } else { dr };
        if m > ds {
            m
        } else {
            ds
        }
    }

    /// The direction of an adjacent hex, or `None` when `other` is not adjacent.
    ///
    /// ```
    /// # use grognard_hex::{Direction, Hex};
    /// assert_eq!(Hex::ORIGIN.direction_to(Hex::new(0, 1)), Some(Direction::S));
    /// assert_eq!(Hex::ORIGIN.direction_to(Hex::new(2, 0)), None);
    /// ```
    #[must_use]
    #[inline]
    pub fn direction_to(self, other: Hex) -> Option<Direction> {
        Direction::from_delta(other.q - self.q, other.r - self.r)
    }

    /// The hexes at exactly `radius` steps, clockwise from the one `radius` steps
    /// towards direction 4 (a ring of radius 0 is the hex itself).
    ///
    /// # Panics
    /// When `radius` exceeds `i32::MAX`.
    ///
    /// ```
    /// # use grognard_hex::Hex;
    /// assert_eq!(Hex::ORIGIN.ring(2).len(), 12);
    /// assert!(Hex::ORIGIN.ring(2).iter().all(|h| h.distance(Hex::ORIGIN) == 2));
    /// ```
    #[must_use]
    pub fn ring(self, radius: u32) -> Vec<Hex> {
        if radius == 0 {
            return vec![self];
        }
        let mut out = Vec::with_capacity(6 * radius as usize);
        let r = i32::try_from(radius).expect("radius fits in i32");
        let mut h = Hex::new(self.q - r, self.r);
        for dir in Direction::ALL {
            for _ in 0..radius {
                out.push(h);
                h = h.neighbor(dir);
            }
        }
        out
    }

    /// Every hex within `radius` steps, the centre included.
    ///
    /// # Panics
    /// When `radius` exceeds `i32::MAX`.
    ///
    /// ```
    /// # use grognard_hex::Hex;
    /// assert_eq!(Hex::ORIGIN.range(50).len(), 7651);
    /// ```
    #[must_use]
    pub fn range(self, radius: u32) -> Vec<Hex> {
        let r = i32::try_from(radius).expect("radius fits in i32");
        let mut out = Vec::with_capacity((3 * radius * (radius + 1) + 1) as usize);
        for dq in -r..=r {
            for dr in (-r).max(-dq - r)..=r.min(-dq + r) {
                out.push(Hex::new(self.q + dq, self.r + dr));
            }
        }
        out
    }
}

impl std::ops::Add for Hex {
    type Output = Hex;
    fn add(self, rhs: Hex) -> Hex {
        Hex::new(self.q + rhs.q, self.r + rhs.r)
    }
}

impl std::ops::Sub for Hex {
    type Output = Hex;
    fn sub(self, rhs: Hex) -> Hex {
        Hex::new(self.q - rhs.q, self.r - rhs.r)
    }
}
