//! The speed machinery of the rules, kept apart from the chapters: who stands where (the
//! [`Board`]), kept between calls on a thread and brought up to date from the state each
//! time one is asked for, with the move searches made on it ([`Search`]); debug builds
//! check both against a fresh build. Nothing here decides a rule: it only remembers where
//! the pieces stand and what [`super::reach`] found.

use super::section_sets::{self, SectionSets};
use super::{BattleCry, State, OFF_MAP};
use crate::common::pool;
use grognard_engine::UnitId;
use grognard_hex::{Hex, MapShape, Orientation, Shove};
use std::cell::{Cell, RefCell, RefMut};

/// No piece.
pub(crate) const NONE: u16 = u16::MAX;

/// Who stands where: at most one unit and one general a hex. A general in the same hex as
/// a friendly unit is attached to it, and only one general is ever attached to a unit
/// (BC-ATT-1): moves and retreats never bring a second general into a unit's hex.
///
/// A board is built for every legal list and most actions, and one state differs from the
/// one before by a piece or two: so a board dropped is kept on its thread with the hex of
/// every piece it was built from and the state's [`Stamp`], and the next board asked for
/// starts from it and moves only the pieces whose hex changed: none for the same placing,
/// those the stamp names for the state one action further, and those whose hex differs
/// from the kept one for any other. Building one allocates nothing once a thread has
/// built its first.
///
/// [`Stamp`]: super::stamp::Stamp
pub(crate) struct Board {
    /// What it holds; `None` only once dropped.
    kept: Option<Box<Kept>>,
}

/// What a [`Board`] holds, and what is kept of it when it is dropped.
#[derive(Default)]
struct Kept {
    /// The stamp number (`super::stamp::Stamp`) of the state it was last brought up to
    /// date with.
    stamp: u64,
    /// The binding it was built for ([`BattleCry::id`]); 0 when it must be rebuilt: none
    /// yet, or two pieces claimed one place in it (a state no play makes, which a fresh
    /// build settles by the later piece).
    binding: u64,
    /// Per map index: the unit and the general there, [`NONE`] for none.
    cells: Vec<[u16; 2]>,
    /// Per piece: the [`key`] of the hex it stood in when the board was brought up to
    /// date.
    hexes: Vec<u64>,
    /// Per piece: the map index of that hex, [`OFF_MAP`] off the battlefield: what the
    /// lists would otherwise work out from the hex for every piece they look at.
    at: Vec<u32>,
    /// The map indices of the hexes whose pieces changed since the board was last
    /// rebuilt, in order: a kept [`Search`] holds while it looked at none of them.
    log: Vec<u32>,
    /// Bumped at each rebuild (and when the log is cleared): a [`Search`] made before
    /// holds no more.
    generation: u64,
    /// Per piece: its last move search on this board.
    searches: RefCell<Vec<Search>>,
    /// The pieces by the sections they stand in, for bindings of at most
    /// [`section_sets::MOST_PIECES`] pieces.
    sections: SectionSets,
    /// Per slot (a unit, a general) and side: the [`read_bit`]s of the hexes holding such
    /// a piece of that side, which [`super::fire_sets`] reads on maps of at most 128 hexes.
    holds: [[u128; 2]; 2],
}

/// What a piece's move search depends on besides the board: the map index it starts from,
/// its allowance, and whether a general moves with it (BC-MOV-9). Its side and type are
/// the piece's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SearchKey {
    /// The map index of the piece's hex; `OFF_MAP` off the battlefield.
    pub start: u32,
    /// Hexes it may move: its type's and the card's (`reach::allowance`).
    pub budget: u8,
    /// Its attached general moves with it (`reach::carried`).
    pub with_general: bool,
}

/// A piece's move search ([`super::reach`]) kept with the board it was made on: what it
/// finds is fixed by its [`SearchKey`], the piece, and who stands in the hexes it looks
/// at, which it records; so it holds, for the same key, while no piece entered or left
/// one of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Search {
    /// What it was made for.
    pub key: SearchKey,
    /// The board's generation when it was made (0 for none), and the length of its log
    /// when it was made or last found to hold.
    generation: u64,
    since: usize,
    /// The map indices of the hexes the piece may end in, in the order found, with
    /// whether it must stop there.
    pub ends: Vec<(u32, bool)>,
    /// Each hex the search entered, as a map index, with the one it was entered from.
    pub seen: Vec<(u32, u32)>,
    /// The hexes whose pieces the search looked at, its start among them: the
    /// [`read_bit`] of each.
    pub read: u128,
}

/// The bit of the hex of map index `at` in [`Search::read`]: bit `at` on maps of up to 128
/// hexes; on larger maps hexes share bits, and a change in one lets go of the searches
/// that looked at another.
#[inline]
pub(crate) fn read_bit(at: u32) -> u128 {
    1 << (at % 128)
}

thread_local! {
    /// The board last dropped on this thread: the next board built starts from it. Most
    /// boards are built while no other is alive, and so take it and give it back here.
    static LAST: Cell<Option<Box<Kept>>> = const { Cell::new(None) };
    /// The boards dropped before it, the last dropped on top.
    #[expect(
        clippy::vec_box,
        reason = "a board moves in and out of the pool as one pointer"
    )]
    static SPARE: RefCell<Vec<Box<Kept>>> = const { RefCell::new(Vec::new()) };
}

impl Board {
    /// The board of `state`: the board last dropped on this thread as it is when it was
    /// of the same state (most lists and actions ask for the board of the state the one
    /// before them did), else brought up to date ([`Board::brought_up`]).
    #[inline]
    pub(crate) fn new(rules: &BattleCry, state: &State) -> Board {
        let kept = LAST.try_with(Cell::take).ok().flatten();
        match kept {
            Some(kept)
                if state.stamp.id != 0
                    && kept.stamp == state.stamp.id
                    && kept.binding == rules.id
                    && kept.hexes.len() == state.pieces.len()
                    && kept.cells.len() == rules.map.len() =>
            {
                #[cfg(debug_assertions)]
                kept.check(rules, state);
                Board { kept: Some(kept) }
            }
            kept => Board::brought_up(rules, state, kept),
        }
    }

    /// The board of `state`, from `kept` (the board last dropped on the thread, or one
    /// from the pool) brought up to date.
    #[inline(never)]
    fn brought_up(rules: &BattleCry, state: &State, kept: Option<Box<Kept>>) -> Board {
        let mut kept: Box<Kept> = kept.unwrap_or_else(|| pool::take(&SPARE));
        let stamp = state.stamp;
        let n = state.pieces.len();
        if kept.binding != rules.id || kept.hexes.len() != n || kept.cells.len() != rules.map.len()
        {
            kept.rebuild(rules, state);
        } else if stamp.id != 0 && kept.stamp == stamp.id {
            // The same state as last time.
        } else if stamp.id != 0 && stamp.parent != 0 && kept.stamp == stamp.parent {
            // One action from the state last seen: only the pieces it names can differ.
            if !kept.sync(rules, state, stamp.moved().iter().map(|&i| usize::from(i))) {
                kept.rebuild(rules, state);
            }
        } else if !kept.sync(rules, state, 0..n) {
            kept.rebuild(rules, state);
        }
        kept.stamp = stamp.id;
        #[cfg(debug_assertions)]
        kept.check(rules, state);
        Board { kept: Some(kept) }
    }

    /// What the board holds.
    #[inline]
    fn kept(&self) -> &Kept {
        self.kept
            .as_deref()
            .expect("a board holds its cells until dropped")
    }

    fn get(&self, rules: &BattleCry, hex: Hex, slot: usize) -> Option<UnitId> {
        self.get_at(rules.index(hex)?, slot)
    }

    fn get_at(&self, at: usize, slot: usize) -> Option<UnitId> {
        let id = self.kept().cells.get(at)?[slot];
        (id != NONE).then_some(UnitId(id))
    }

    /// The unit in a hex.
    pub(crate) fn unit_at(&self, rules: &BattleCry, hex: Hex) -> Option<UnitId> {
        self.get(rules, hex, 0)
    }

    /// The general in a hex.
    pub(crate) fn general_at(&self, rules: &BattleCry, hex: Hex) -> Option<UnitId> {
        self.get(rules, hex, 1)
    }

    /// The unit in the hex of map index `at`.
    pub(crate) fn unit_at_index(&self, at: usize) -> Option<UnitId> {
        self.get_at(at, 0)
    }

    /// The general in the hex of map index `at`.
    pub(crate) fn general_at_index(&self, at: usize) -> Option<UnitId> {
        self.get_at(at, 1)
    }

    /// Whether any piece stands in a hex.
    pub(crate) fn occupied(&self, rules: &BattleCry, hex: Hex) -> bool {
        rules.index(hex).is_some_and(|at| self.occupied_at(at))
    }

    /// Whether any piece stands in the hex of map index `at`.
    pub(crate) fn occupied_at(&self, at: usize) -> bool {
        self.kept().cells.get(at).is_some_and(|&c| c != [NONE; 2])
    }

    /// The kept search of piece `u` for `key`, made afresh by `run` unless one made on
    /// this board still holds (no piece entered or left a hex it looked at since).
    pub(crate) fn search(
        &self,
        u: UnitId,
        key: SearchKey,
        run: impl Fn(&mut Search),
    ) -> RefMut<'_, Search> {
        let mut searches = self.kept().searches.borrow_mut();
        if searches.len() != self.kept().hexes.len() {
            searches.clear();
            searches.resize(self.kept().hexes.len(), Search::default());
        }
        let s = &mut searches[u.index()];
        let holds = s.generation == self.kept().generation
            && s.key == key
            && self
                .kept()
                .log
                .get(s.since..)
                .is_some_and(|changed| changed.iter().all(|&c| s.read & read_bit(c) == 0));
        if holds {
            // None of the changes logged so far touched it: the next check starts after
            // them.
            s.since = self.kept().log.len();
            #[cfg(debug_assertions)]
            {
                // Debug builds (the tests) check the kept search against a fresh one.
                let mut fresh = Search::default();
                run(&mut fresh);
                debug_assert!(fresh.ends == s.ends, "the kept search's ends");
                debug_assert!(fresh.seen == s.seen, "the kept search's paths");
            }
        } else {
            run(s);
            s.key = key;
            s.generation = self.kept().generation;
            s.since = self.kept().log.len();
        }
        RefMut::map(searches, |v| &mut v[u.index()])
    }

    /// The map index of piece `u`'s hex, `None` off the battlefield: `rules.index` of
    /// its hex, looked up when the board was brought up to date.
    #[inline]
    pub(crate) fn index_of(&self, u: UnitId) -> Option<usize> {
        unpacked(self.kept().at[u.index()])
    }

    /// Per map index: the unit and the general there, [`NONE`] for none.
    #[inline]
    pub(crate) fn cells(&self) -> &[[u16; 2]] {
        &self.kept().cells
    }

    /// The pieces by the sections they stand in; `None` for a binding of more pieces
    /// than a set holds.
    #[inline]
    pub(crate) fn section_sets(&self) -> Option<&SectionSets> {
        (self.kept().hexes.len() <= section_sets::MOST_PIECES).then(|| &self.kept().sections)
    }

    /// Per slot (0 a unit, 1 a general) and side: the hexes holding such a piece of that
    /// side, as the bits of their map indices; `None` on a board two pieces claimed one
    /// place in (which a cell does not tell apart).
    #[inline]
    pub(crate) fn holds(&self) -> Option<&[[u128; 2]; 2]> {
        (self.kept().binding != 0).then(|| &self.kept().holds)
    }
}

impl Drop for Board {
    #[inline]
    fn drop(&mut self) {
        if let Some(kept) = self.kept.take() {
            if let Ok(Some(before)) = LAST.try_with(|c| c.replace(Some(kept))) {
                spare(before);
            }
        }
    }
}

/// Keeps a board dropped while another was kept as the last, in the pool.
#[cold]
#[inline(never)]
fn spare(kept: Box<Kept>) {
    pool::give(&SPARE, kept);
}

impl BattleCry {
    /// The map index of `hex` ([`MapShape::index`]), worked out for the pointy-top maps
    /// Battle Cry is played on (BC-SCN-1) without the table of every orientation: the
    /// lists ask it of every piece and every hex they look at.
    #[inline]
    pub(crate) fn index(&self, hex: Hex) -> Option<usize> {
        let map = &self.map;
        if map.orientation() != Orientation::PointyTop {
            return other_index(map, hex);
        }
        // The shoved rows' half hex: `(r - (r & 1)) / 2` for even labels, `(r + (r & 1))
        // / 2` for odd, which are `r >> 1` and `(r + 1) >> 1`.
        let half = hex.r.wrapping_add(i32::from(map.shove() == Shove::Odd)) >> 1;
        let (col, row) = (
            u32::try_from(hex.q.wrapping_add(half)).ok()?,
            u32::try_from(hex.r).ok()?,
        );
        let at = (col < map.cols() && row < map.rows())
            .then(|| row as usize * map.cols() as usize + col as usize);
        debug_assert_eq!(at, map.index(hex), "the map index of {hex:?}");
        at
    }
}

/// [`MapShape::index`] for a map of another orientation, which no Battle Cry scenario
/// binds (BC-SCN-1).
#[cold]
#[inline(never)]
fn other_index(map: &MapShape, hex: Hex) -> Option<usize> {
    map.index(hex)
}

/// The slot of piece `i` in a cell: 0 for a unit, 1 for a general.
fn slot(rules: &BattleCry, i: usize) -> usize {
    usize::from(!rules.pieces[i].kind.is_unit())
}

/// The side of piece `i`, as an index of [`Kept::holds`].
fn side(rules: &BattleCry, i: usize) -> usize {
    usize::from(rules.pieces[i].side & 1)
}

impl Kept {
    /// Debug builds (the tests) check a kept board against a fresh build.
    #[cfg(debug_assertions)]
    fn check(&self, rules: &BattleCry, state: &State) {
        let mut fresh = Box::<Kept>::default();
        fresh.rebuild(rules, state);
        debug_assert!(fresh.cells == self.cells, "the kept board's cells");
        debug_assert!(fresh.hexes == self.hexes, "the kept board's hexes");
        debug_assert!(fresh.at == self.at, "the kept board's map indices");
        debug_assert!(fresh.sections == self.sections, "the kept board's sections");
        debug_assert!(
            fresh.holds == self.holds,
            "the kept board's sets of hexes held"
        );
    }

    /// Lets go of every kept search, and of the log they are checked against.
    fn forget(&mut self) {
        self.log.clear();
        // Never 0, which no search is made under.
        self.generation = self.generation.wrapping_add(1).max(1);
    }

    /// Builds everything from the state.
    fn rebuild(&mut self, rules: &BattleCry, state: &State) {
        self.binding = rules.id;
        self.forget();
        self.cells.clear();
        self.cells.resize(rules.map.len(), [NONE; 2]);
        self.hexes.clear();
        self.at.clear();
        self.sections.bind(rules);
        self.holds = [[0; 2]; 2];
        for (i, p) in state.pieces.iter().enumerate() {
            self.hexes.push(key(p.hex));
            let at = p.hex.and_then(|h| rules.index(h));
            if p.hex.is_some() {
                self.sections.place(rules, i, at);
            }
            self.at.push(packed(at));
            let Some(at) = at else {
                continue;
            };
            let id = u16::try_from(i).expect("unit count fits u16");
            let cell = &mut self.cells[at][slot(rules, i)];
            if *cell != NONE {
                // Two pieces in one place: the later stands here, and the next board is
                // built afresh, which settles it the same way.
                self.binding = 0;
            }
            *cell = id;
            self.holds[slot(rules, i)][side(rules, i)] |= read_bit(packed(Some(at)));
        }
    }

    /// Moves the pieces among `candidates` whose hex changed since the board was brought
    /// up to date (the others must not have); false when that cannot be done piece by
    /// piece (many pieces moved, or two would share a place), and the board must be
    /// rebuilt.
    fn sync(
        &mut self,
        rules: &BattleCry,
        state: &State,
        candidates: impl Iterator<Item = usize>,
    ) -> bool {
        let pieces = &state.pieces[..self.hexes.len()];
        // The pieces whose hex changed: one action moves a piece or two.
        let mut changed = [0usize; MOST_MOVED];
        let mut n = 0;
        for i in candidates {
            if key(pieces[i].hex) != self.hexes[i] {
                if n == MOST_MOVED {
                    return false;
                }
                changed[n] = i;
                n += 1;
            }
        }
        // Every piece leaves its old place first, then takes its new one: two pieces
        // trading places, or one entering the hex another left, land right.
        for &i in &changed[..n] {
            let at = unpacked(self.at[i]);
            if self.hexes[i] != key(None) {
                self.sections.lift(rules, i, at);
            }
            if let Some(at) = at {
                let cell = &mut self.cells[at][slot(rules, i)];
                if usize::from(*cell) != i {
                    return false;
                }
                *cell = NONE;
                self.holds[slot(rules, i)][side(rules, i)] &= !read_bit(self.at[i]);
                self.log.push(self.at[i]);
            }
        }
        if n > 0 && self.log.len() > MOST_LOGGED {
            self.forget();
        }
        for &i in &changed[..n] {
            let hex = pieces[i].hex;
            self.hexes[i] = key(hex);
            let at = hex.and_then(|h| rules.index(h));
            self.at[i] = packed(at);
            if hex.is_some() {
                self.sections.place(rules, i, at);
            }
            if let Some(at) = at {
                let cell = &mut self.cells[at][slot(rules, i)];
                if *cell != NONE {
                    return false;
                }
                *cell = u16::try_from(i).expect("unit count fits u16");
                self.holds[slot(rules, i)][side(rules, i)] |= read_bit(self.at[i]);
                self.log.push(self.at[i]);
            }
        }
        true
    }
}

/// Changed hexes a board logs before it forgets its searches and starts a new log.
const MOST_LOGGED: usize = 64;

/// A piece's hex as one word, compared in one instruction: its axial coordinates' bits,
/// or `u64::MAX` off the battlefield. The hex whose bits those are, (-1, -1), is off every
/// map (its offset column or row is -1), so a piece there stands nowhere on the board
/// either way.
#[inline]
fn key(hex: Option<Hex>) -> u64 {
    #[expect(
        clippy::cast_sign_loss,
        reason = "the coordinates' bits are packed, not their values"
    )]
    hex.map_or(u64::MAX, |h| {
        u64::from(h.q as u32) << 32 | u64::from(h.r as u32)
    })
}

/// A map index as [`Kept::at`] keeps it: [`OFF_MAP`] for none.
#[inline]
fn packed(at: Option<usize>) -> u32 {
    at.map_or(OFF_MAP, |a| u32::try_from(a).expect("maps are small"))
}

/// A map index kept by [`packed`]: `None` for [`OFF_MAP`].
#[inline]
fn unpacked(at: u32) -> Option<usize> {
    (at != OFF_MAP).then_some(at as usize)
}

/// Pieces whose hex changed that a board follows one by one; past that it is rebuilt.
const MOST_MOVED: usize = 8;
