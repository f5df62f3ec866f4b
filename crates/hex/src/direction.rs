/// One of the six directions from a hex to its neighbours, numbered clockwise
/// 0 to 5 (see the diagram in the crate docs).
///
/// The variant names are the flat-top compass names; [`Direction::pointy_name`] gives
/// the pointy-top ones.
///
/// ```
/// use grognard_hex::Direction;
/// assert_eq!(Direction::NE.index(), 0);
/// assert_eq!(Direction::NE.opposite(), Direction::SW);
/// assert_eq!(Direction::N.clockwise(), Direction::NE);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
#[repr(u8)]
pub enum Direction {
    /// 0: axial `(+1, -1)`; north-east in both layouts.
    NE = 0,
    /// 1: axial `(+1, 0)`; south-east (flat-top), east (pointy-top).
    SE = 1,
    /// 2: axial `(0, +1)`; south (flat-top), south-east (pointy-top).
    S = 2,
    /// 3: axial `(-1, +1)`; south-west in both layouts.
    SW = 3,
    /// 4: axial `(-1, 0)`; north-west (flat-top), west (pointy-top).
    NW = 4,
    /// 5: axial `(0, -1)`; north (flat-top), north-west (pointy-top).
    N = 5,
}

const DELTAS: [(i32, i32); 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];

impl Direction {
    /// All six, in number order.
    pub const ALL: [Direction; 6] = [
        Direction::NE,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::NW,
        Direction::N,
    ];

    /// The direction numbered `i` (taken modulo 6).
    ///
    /// ```
    /// # use grognard_hex::Direction;
    /// assert_eq!(Direction::from_index(7), Direction::SE);
    /// ```
    #[must_use]
    pub const fn from_index(i: usize) -> Direction {
        Direction::ALL[i % 6]
    }

    /// The direction's number, 0 to 5.
    ///
    /// ```
    /// # use grognard_hex::Direction;
    /// assert_eq!(Direction::N.index(), 5);
    /// ```
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The axial step `(dq, dr)`.
    ///
    /// ```
    /// # use grognard_hex::Direction;
    /// assert_eq!(Direction::S.delta(), (0, 1));
    /// ```
    #[must_use]
    pub const fn delta(self) -> (i32, i32) {
        DELTAS[self as usize]
    }

    /// The direction of the axial step `(dq, dr)`, if it is one of the six.
    ///
    /// ```
    /// # use grognard_hex::Direction;
    /// assert_eq!(Direction::from_delta(-1, 0), Some(Direction::NW));
    /// assert_eq!(Direction::from_delta(1, 1), None);
    /// ```
    #[must_use]
    #[inline]
    pub fn from_delta(dq: i32, dr: i32) -> Option<Direction> {
        // Every step has both deltas in -1..=1 and unequal: most hexes are ruled out here.
        if !(-1..=1).contains(&dq) || !(-1..=1).contains(&dr) || dq == dr {
            return None;
        }
        DELTAS
            .iter()
            .position(|&d| d == (dq, dr))
            .map(Direction::from_index)
    }

    /// The opposite direction.
    ///
    /// ```
    /// # use grognard_hex::Direction;
    /// assert_eq!(Direction::S.opposite(), Direction::N);
    /// ```
    #[must_use]
    pub const fn opposite(self) -> Direction {
        Direction::from_index(self as usize + 3)
    }

    /// The next direction clockwise.
    ///
    /// ```
    /// # use grognard_hex::Direction;
    /// assert_eq!(Direction::N.clockwise(), Direction::NE);
    /// ```
    #[must_use]
    pub const fn clockwise(self) -> Direction {
        Direction::from_index(self as usize + 1)
    }

    /// The next direction counter-clockwise.
    ///
    /// ```
    /// # use grognard_hex::Direction;
    /// assert_eq!(Direction::NE.counter_clockwise(), Direction::N);
    /// ```
    #[must_use]
    pub const fn counter_clockwise(self) -> Direction {
        Direction::from_index(self as usize + 5)
    }

    /// How many sixth-turns separate two directions, 0 to 3 (for facing: 0 is the
    /// front, 1 a front flank, 2 a rear flank, 3 the rear).
    ///
    /// ```
    /// # use grognard_hex::Direction;
    /// assert_eq!(Direction::N.turns_to(Direction::S), 3);
    /// assert_eq!(Direction::N.turns_to(Direction::NW), 1);
    /// ```
    #[must_use]
    pub const fn turns_to(self, other: Direction) -> u8 {
        let d = (other as u8 + 6 - self as u8) % 6;
        if d > 3 {
            6 - d
        } else {
            d
        }
    }

    /// The flat-top compass name: `ne`, `se`, `s`, `sw`, `nw`, `n`.
    ///
    /// ```
    /// # use grognard_hex::Direction;
    /// assert_eq!(Direction::S.name(), "s");
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        ["ne", "se", "s", "sw", "nw", "n"][self as usize]
    }

    /// The pointy-top compass name: `ne`, `e`, `se`, `sw`, `w`, `nw`.
    ///
    /// ```
    /// # use grognard_hex::Direction;
    /// assert_eq!(Direction::SE.pointy_name(), "e");
    /// ```
    #[must_use]
    pub const fn pointy_name(self) -> &'static str {
        ["ne", "e", "se", "sw", "w", "nw"][self as usize]
    }
}
