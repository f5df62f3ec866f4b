use crate::{Direction, Hex, Hexside, MapShape};

/// Dense per-hex storage over a [`MapShape`], indexed by [`MapShape::index`].
///
/// ```
/// use grognard_hex::{Grid, Hex, MapShape, Orientation, Shove};
/// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 4, 3).unwrap();
/// let mut g = Grid::new(map, 0u8);
/// g.set(Hex::new(1, 0), 7);
/// assert_eq!(g.get(Hex::new(1, 0)), Some(&7));
/// assert_eq!(g.get(Hex::new(-1, 0)), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Grid<T> {
    shape: MapShape,
    cells: Vec<T>,
}

impl<T: Clone> Grid<T> {
    /// A grid with every hex set to `value`.
    #[must_use]
    pub fn new(shape: MapShape, value: T) -> Grid<T> {
        Grid {
            shape,
            cells: vec![value; shape.len()],
        }
    }
}

impl<T> Grid<T> {
    /// A grid with each hex set by `f` from its hex.
    ///
    /// ```
    /// # use grognard_hex::{Grid, Hex, MapShape, Orientation, Shove};
    /// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 4, 3).unwrap();
    /// let g = Grid::from_fn(map, |h| h.q);
    /// assert_eq!(g.get(Hex::new(3, -1)), Some(&3));
    /// ```
    #[must_use]
    pub fn from_fn(shape: MapShape, mut f: impl FnMut(Hex) -> T) -> Grid<T> {
        Grid {
            shape,
            cells: (0..shape.len()).map(|i| f(shape.hex_at(i))).collect(),
        }
    }

    /// The map this grid covers.
    #[must_use]
    pub fn shape(&self) -> &MapShape {
        &self.shape
    }

    /// The value at a hex, or `None` off the map.
    #[must_use]
    #[inline]
    pub fn get(&self, hex: Hex) -> Option<&T> {
        self.shape.index(hex).map(|i| &self.cells[i])
    }

    /// The value at a hex, mutably, or `None` off the map.
    #[inline]
    pub fn get_mut(&mut self, hex: Hex) -> Option<&mut T> {
        self.shape.index(hex).map(|i| &mut self.cells[i])
    }

    /// Sets the value at a hex; returns false (and changes nothing) off the map.
    pub fn set(&mut self, hex: Hex, value: T) -> bool {
        match self.get_mut(hex) {
            Some(c) => {
                *c = value;
                true
            }
            None => false,
        }
    }

    /// The values in index order.
    #[must_use]
    pub fn cells(&self) -> &[T] {
        &self.cells
    }

    /// The values in index order, mutably.
    pub fn cells_mut(&mut self) -> &mut [T] {
        &mut self.cells
    }
}

impl<T> std::ops::Index<usize> for Grid<T> {
    type Output = T;
    #[inline]
    fn index(&self, index: usize) -> &T {
        &self.cells[index]
    }
}

impl<T> std::ops::IndexMut<usize> for Grid<T> {
    #[inline]
    fn index_mut(&mut self, index: usize) -> &mut T {
        &mut self.cells[index]
    }
}

/// Dense per-hexside storage over a [`MapShape`].
///
/// Every hexside touching the map has a slot, map-edge hexsides included; a value
/// is stored under both hexes it separates, so a read from either side is one index.
///
/// ```
/// use grognard_hex::{Direction, Hex, Hexside, MapShape, Orientation, Shove, SideGrid};
/// let map = MapShape::new(Orientation::FlatTop, Shove::Even, 4, 3).unwrap();
/// let mut sides = SideGrid::new(map, 0u8);
/// let a = Hex::new(1, 0);
/// sides.set(Hexside::new(a, Direction::S), 2);
/// assert_eq!(sides.get(a, Direction::S), 2);
/// assert_eq!(sides.get(a.neighbor(Direction::S), Direction::N), 2);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SideGrid<T> {
    shape: MapShape,
    default: T,
    cells: Vec<T>,
}

impl<T: Clone> SideGrid<T> {
    /// A grid with every hexside set to `value`.
    #[must_use]
    pub fn new(shape: MapShape, value: T) -> SideGrid<T> {
        SideGrid {
            shape,
            cells: vec![value.clone(); shape.len() * 6],
            default: value,
        }
    }

    /// The value of the hexside of `hex` in `dir`; the default for a hex off the map.
    #[must_use]
    #[inline]
    pub fn get(&self, hex: Hex, dir: Direction) -> T {
        match self.shape.index(hex) {
            Some(i) => self.cells[i * 6 + dir.index()].clone(),
            None => self.default.clone(),
        }
    }

    /// The value of the hexside of the hex at dense index `index` in `dir`.
    ///
    /// # Panics
    /// When `index` is not below the map's size.
    #[must_use]
    #[inline]
    pub fn get_at(&self, index: usize, dir: Direction) -> &T {
        &self.cells[index * 6 + dir.index()]
    }

    /// The value of a hexside.
    #[must_use]
    pub fn side(&self, side: Hexside) -> T {
        let (a, b) = side.hexes();
        if self.shape.contains(a) {
            self.get(a, side.direction())
        } else {
            self.get(b, side.direction().opposite())
        }
    }

    /// Sets a hexside on both sides; returns false (and changes nothing) when the
    /// hexside does not touch the map.
    pub fn set(&mut self, side: Hexside, value: T) -> bool {
        self.update(side, |v| *v = value.clone())
    }

    /// Changes a hexside's value in place on both sides (for bit sets of features);
    /// returns false when the hexside does not touch the map.
    pub fn update(&mut self, side: Hexside, mut f: impl FnMut(&mut T)) -> bool {
        let (a, b) = side.hexes();
        let d = side.direction();
        let mut touched = false;
        if let Some(i) = self.shape.index(a) {
            f(&mut self.cells[i * 6 + d.index()]);
            touched = true;
        }
        if let Some(i) = self.shape.index(b) {
            f(&mut self.cells[i * 6 + d.opposite().index()]);
            touched = true;
        }
        touched
    }

    /// The map this grid covers.
    #[must_use]
    pub fn shape(&self) -> &MapShape {
        &self.shape
    }
}
