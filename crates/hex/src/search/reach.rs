//! What a finished search holds: least costs, paths and the reached hexes.

use super::{Hex, Search, NONE};

/// What a [`Search::run`] found: the least cost of every reachable hex and state,
/// and a least-cost path to each.
///
/// "Reached" means reached within the budget; the start is reached at cost 0.
#[derive(Clone, Copy, Debug)]
pub struct Reach<'a> {
    pub(super) search: &'a Search,
}

impl<'a> Reach<'a> {
    /// The hex the search started from.
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 4, 4).unwrap();
    /// let mut search = Search::new(map, 1);
    /// let reach = search.run(Hex::new(1, 1), 0, 0, |_, _, _, _| Step::Blocked);
    /// assert_eq!(reach.start(), Hex::new(1, 1));
    /// ```
    #[must_use]
    pub fn start(&self) -> Hex {
        self.search.start
    }

    /// The budget searched with.
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 4, 4).unwrap();
    /// let mut search = Search::new(map, 1);
    /// assert_eq!(search.run(Hex::ORIGIN, 0, 6, |_, _, _, _| Step::Blocked).budget(), 6);
    /// ```
    #[must_use]
    pub fn budget(&self) -> u32 {
        self.search.budget
    }

    /// The least cost of reaching `hex` in any mode, or `None` when it cannot be
    /// reached within the budget (or is off the map).
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 6).unwrap();
    /// let mut search = Search::new(map, 1);
    /// let reach = search.run(Hex::ORIGIN, 0, 2, |_, _, _, _| Step::enter(1, 0));
    /// assert_eq!(reach.cost(Hex::ORIGIN), Some(0));
    /// assert_eq!(reach.cost(Hex::new(2, 0)), Some(2));
    /// assert_eq!(reach.cost(Hex::new(3, 0)), None);
    /// ```
    #[must_use]
    pub fn cost(&self, hex: Hex) -> Option<u32> {
        let s = self.search;
        let b = s.best[s.shape.index(hex)?];
        (b.stamp == s.stamp).then_some(b.cost)
    }

    /// Whether `hex` was reached in any mode.
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 6).unwrap();
    /// let mut search = Search::new(map, 1);
    /// let reach = search.run(Hex::ORIGIN, 0, 1, |_, _, _, _| Step::enter(1, 0));
    /// assert!(reach.reached(Hex::new(1, 0)));
    /// assert!(!reach.reached(Hex::new(2, 0)));
    /// ```
    #[must_use]
    pub fn reached(&self, hex: Hex) -> bool {
        self.cost(hex).is_some()
    }

    /// The least cost of reaching `hex` in `mode`, or `None` when that state was not
    /// reached (or `mode` is out of range).
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 6).unwrap();
    /// let mut search = Search::new(map, 2);
    /// // Every step arrives in mode 1.
    /// let reach = search.run(Hex::ORIGIN, 0, 1, |_, _, _, _| Step::enter(1, 1));
    /// assert_eq!(reach.state_cost(Hex::new(1, 0), 1), Some(1));
    /// assert_eq!(reach.state_cost(Hex::new(1, 0), 0), None);
    /// ```
    #[must_use]
    pub fn state_cost(&self, hex: Hex, mode: u8) -> Option<u32> {
        let s = self.search;
        if mode >= s.modes {
            return None;
        }
        let node = (s.shape.index(hex)? * usize::from(s.modes) + usize::from(mode)) * 2;
        match (s.node_cost(node), s.node_cost(node + 1)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether the unit, having reached `hex` in `mode`, may still move on from it
    /// (it arrived there at least once without having to stop).
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 6).unwrap();
    /// let mut search = Search::new(map, 1);
    /// let reach = search.run(Hex::ORIGIN, 0, 3, |_, _, _, _| Step::enter_and_stop(1, 0));
    /// assert!(reach.can_go_on(Hex::ORIGIN, 0));
    /// assert!(!reach.can_go_on(Hex::new(1, 0), 0));
    /// ```
    #[must_use]
    pub fn can_go_on(&self, hex: Hex, mode: u8) -> bool {
        let s = self.search;
        if mode >= s.modes {
            return false;
        }
        s.shape.index(hex).is_some_and(|i| {
            s.node_cost((i * usize::from(s.modes) + usize::from(mode)) * 2)
                .is_some()
        })
    }

    /// The number of hexes reached, the start included.
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 6).unwrap();
    /// let mut search = Search::new(map, 1);
    /// let reach = search.run(Hex::new(2, 2), 0, 1, |_, _, _, _| Step::enter(1, 0));
    /// assert_eq!(reach.len(), 7);
    /// ```
    #[must_use]
    pub fn len(&self) -> usize {
        self.search.reached.len()
    }

    /// Always false: the start is always reached.
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 6).unwrap();
    /// let mut search = Search::new(map, 1);
    /// assert!(!search.run(Hex::ORIGIN, 0, 0, |_, _, _, _| Step::Blocked).is_empty());
    /// ```
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.search.reached.is_empty()
    }

    /// Every hex reached with its least cost, in the order first reached.
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 6).unwrap();
    /// let mut search = Search::new(map, 1);
    /// let reach = search.run(Hex::new(2, 2), 0, 2, |_, _, _, _| Step::enter(1, 0));
    /// assert_eq!(reach.hexes().filter(|&(_, cost)| cost == 2).count(), 12);
    /// ```
    pub fn hexes(&self) -> impl Iterator<Item = (Hex, u32)> + 'a {
        let s = self.search;
        s.reached.iter().map(move |&i| {
            let i = i as usize;
            (s.shape.hex_at(i), s.best[i].cost)
        })
    }

    /// Every state reached, as `(hex, mode, least cost)`.
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 6).unwrap();
    /// let mut search = Search::new(map, 2);
    /// let reach = search.run(Hex::ORIGIN, 0, 1, |_, _, _, _| Step::enter(1, 1));
    /// let mut states: Vec<_> = reach.states().collect();
    /// states.sort();
    /// assert_eq!(states, [(Hex::new(0, 0), 0, 0), (Hex::new(0, 1), 1, 1), (Hex::new(1, 0), 1, 1)]);
    /// ```
    pub fn states(&self) -> impl Iterator<Item = (Hex, u8, u32)> + 'a {
        let s = self.search;
        let this = *self;
        s.reached.iter().flat_map(move |&i| {
            let hex = s.shape.hex_at(i as usize);
            (0..s.modes).filter_map(move |m| this.state_cost(hex, m).map(|c| (hex, m, c)))
        })
    }

    /// A least-cost path from the start to `hex`, both included, or `None` when
    /// `hex` was not reached.
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 6).unwrap();
    /// let mut search = Search::new(map, 1);
    /// let reach = search.run(Hex::ORIGIN, 0, 3, |_, _, _, _| Step::enter(1, 0));
    /// assert_eq!(
    ///     reach.path(Hex::new(2, 0)),
    ///     Some(vec![Hex::new(0, 0), Hex::new(1, 0), Hex::new(2, 0)])
    /// );
    /// assert_eq!(reach.path(Hex::new(0, 0)), Some(vec![Hex::new(0, 0)]));
    /// ```
    #[must_use]
    pub fn path(&self, hex: Hex) -> Option<Vec<Hex>> {
        Some(self.path_states(hex)?.into_iter().map(|(h, _)| h).collect())
    }

    /// [`Reach::path`] without the start: the hexes entered on the way to `hex`, in
    /// order (none for the start itself), or `None` when `hex` was not reached. It
    /// allocates once, at the path's length.
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 6).unwrap();
    /// let mut search = Search::new(map, 1);
    /// let reach = search.run(Hex::ORIGIN, 0, 3, |_, _, _, _| Step::enter(1, 0));
    /// assert_eq!(
    ///     reach.entered(Hex::new(2, 0)),
    ///     Some(vec![Hex::new(1, 0), Hex::new(2, 0)])
    /// );
    /// assert_eq!(reach.entered(Hex::ORIGIN), Some(vec![]));
    /// assert_eq!(reach.entered(Hex::new(4, 0)), None);
    /// ```
    #[must_use]
    pub fn entered(&self, hex: Hex) -> Option<Vec<Hex>> {
        let s = self.search;
        let b = s.best[s.shape.index(hex)?];
        if b.stamp != s.stamp {
            return None;
        }
        // The states from `hex` back to the start, the start left out.
        let chain = || {
            std::iter::successors(Some(b.node), |&n| Some(s.nodes[n as usize].parent))
                .take_while(|&n| n != NONE && s.nodes[n as usize].parent != NONE)
        };
        let mut out = vec![hex; chain().count()];
        for (slot, n) in out.iter_mut().rev().zip(chain()) {
            *slot = s.node_state(n).0;
        }
        Some(out)
    }

    /// [`Reach::path`] as the states passed through, `(hex, mode)`.
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 6).unwrap();
    /// let mut search = Search::new(map, 2);
    /// let reach = search.run(Hex::ORIGIN, 0, 1, |_, _, _, _| Step::enter(1, 1));
    /// assert_eq!(
    ///     reach.path_states(Hex::new(1, 0)),
    ///     Some(vec![(Hex::new(0, 0), 0), (Hex::new(1, 0), 1)])
    /// );
    /// ```
    #[must_use]
    pub fn path_states(&self, hex: Hex) -> Option<Vec<(Hex, u8)>> {
        let s = self.search;
        let b = s.best[s.shape.index(hex)?];
        (b.stamp == s.stamp).then(|| self.trace(b.node))
    }

    /// A least-cost path from the start to the state `(hex, mode)`, as states, or
    /// `None` when that state was not reached.
    ///
    /// ```
    /// # use grognard_hex::search::{Search, Step};
    /// # use grognard_hex::{Hex, MapShape, Orientation, Shove};
    /// # let map = MapShape::new(Orientation::FlatTop, Shove::Even, 6, 6).unwrap();
    /// let mut search = Search::new(map, 2);
    /// // Each step flips the mode.
    /// let reach = search.run(Hex::ORIGIN, 0, 1, |_, m, _, _| Step::enter(1, 1 - m));
    /// assert_eq!(reach.state_path(Hex::new(1, 0), 0), None);
    /// assert_eq!(
    ///     reach.state_path(Hex::new(1, 0), 1),
    ///     Some(vec![(Hex::new(0, 0), 0), (Hex::new(1, 0), 1)])
    /// );
    /// ```
    #[must_use]
    pub fn state_path(&self, hex: Hex, mode: u8) -> Option<Vec<(Hex, u8)>> {
        let s = self.search;
        if mode >= s.modes {
            return None;
        }
        let node = (s.shape.index(hex)? * usize::from(s.modes) + usize::from(mode)) * 2;
        let pick = match (s.node_cost(node), s.node_cost(node + 1)) {
            (Some(a), Some(b)) => Some(if a <= b { node } else { node + 1 }),
            (Some(_), None) => Some(node),
            (None, Some(_)) => Some(node + 1),
            (None, None) => None,
        }?;
        #[expect(clippy::cast_possible_truncation, reason = "checked in Search::new")]
        Some(self.trace(pick as u32))
    }

    fn trace(self, node: u32) -> Vec<(Hex, u8)> {
        let s = self.search;
        let mut out = Vec::new();
        let mut n = node;
        while n != NONE {
            out.push(s.node_state(n));
            n = s.nodes[n as usize].parent;
        }
        out.reverse();
        out
    }
}
