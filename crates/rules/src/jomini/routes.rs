//! The search behind chapter 4's moves: every way a unit may end its move, hex by hex
//! along the movement table, roads, difficult terrain and the pieces in the way. The
//! gates and the moves themselves are in [`super::movement`].
//!
//! The search works on map indices and reuses its buffers ([`Search`]): the legal list
//! runs it once for every unit that may move.

use super::{Board, Jomini, Piece, State};
use grognard_engine::UnitId;
use grognard_hex::{Direction, Hex};

/// One way a unit may end its move, as the rules read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    /// Where it ends.
    pub hex: Hex,
    /// The hexes entered, the last being `hex`.
    pub path: Vec<Hex>,
    /// Hexes moved.
    pub hexes: u8,
    /// It uses the road march's extra hex (JO-MOV-16), and may not fight (JO-MOV-17).
    pub road_march: bool,
    /// It passes through an artillery unit (JO-MOV-6).
    pub through: bool,
    /// It may still fight after this move (JO-MOV-10).
    pub combat: bool,
    /// Difficult hexes crossed as clear by woods-runner (JO-ORD-7).
    pub woods: u8,
}

/// How far a unit may go this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Limits {
    /// Hexes it may move and still fight.
    pub fight: u8,
    /// Hexes it may move without the road.
    pub max: u8,
    /// Whether the road march's extra hex is open to it.
    pub road: bool,
    /// Difficult hexes it crosses as clear.
    pub woods: u8,
}

/// No node, no hex: the end of a chain, or off the table.
pub(crate) const NONE: u32 = u32::MAX;

#[derive(Clone, Copy)]
struct Node {
    hex: Hex,
    /// Its map index.
    at: u32,
    /// Roads the whole move has followed so far (JO-MOV-16).
    roads: u16,
    woods: u8,
    steps: u8,
    parent: u32,
    stopped: bool,
    end: bool,
    /// The node found before it in the same hex.
    same: u32,
}

impl Node {
    /// What tells two ways into a hex apart: the same hex reached with the same roads,
    /// woods and stop is searched once.
    fn key(&self) -> u32 {
        u32::from(self.roads) | u32::from(self.woods) << 16 | u32::from(self.stopped) << 24
    }
}

/// What entering a hex means for the mover: `None` when it may not.
struct Entry {
    end: bool,
    go_on: bool,
}

/// JO-MOV-5, JO-MOV-6, JO-MOV-14, JO-MOV-15: whether `me` may enter the hex of map
/// index `i`, and end there or go on. Enemies only block their own hexes: there are no
/// zones of control.
///
/// JO-MOV-6, reading: the text forbids passing through "une case qui est occupée par une
/// unité amie ou ennemie", then excepts infantry, cavalry and camels "qui peuvent traverser
/// une unité d'artillerie" with no friend-or-foe limit; the exception follows the rule it
/// excepts, so artillery of either side may be passed through (an officer standing with
/// the guns goes with their hex).
fn entry(rules: &Jomini, board: &Board, me: &Piece, i: usize) -> Option<Entry> {
    let info = rules.hexes.get(i)?;
    if info.impassable {
        return None;
    }
    let unit = board.unit.get(i).copied().flatten();
    let officer = board.officer.get(i).copied().flatten();
    let enemy = |x: Option<UnitId>| x.is_some_and(|x| rules.side_of(x) != me.side);
    if me.officer {
        if enemy(unit) || enemy(officer) {
            return None;
        }
        // An officer may join a friendly unit, and stops there; officers do not stack.
        return Some(Entry {
            end: officer.is_none(),
            go_on: unit.is_none(),
        });
    }
    match unit {
        Some(x) if rules.piece(x).artillery() && me.row.passes_artillery => Some(Entry {
            end: false,
            go_on: true,
        }),
        Some(_) => None,
        // An enemy officer alone holds its hex like a unit.
        None if enemy(officer) => None,
        None => Some(Entry {
            end: true,
            go_on: true,
        }),
    }
}

/// [`entry`] and the terrain, packed in a byte per map index for a class of movers.
const ENTER: u8 = 1;
const END: u8 = 2;
const GO_ON: u8 = 4;
/// The hex's terrain is difficult (JO-MOV-13) and the mover no officer alone (JO-MOV-14).
const DIFFICULT: u8 = 8;
/// Not worked out yet.
const UNKNOWN: u8 = 0x80;

/// What [`entry`] reads of the mover: its side, whether an officer, whether it passes
/// through artillery; movers of one class enter the same hexes.
fn class(me: &Piece) -> usize {
    usize::from(me.side & 1)
        | usize::from(me.officer) << 1
        | usize::from(me.row.passes_artillery) << 2
}

/// The buffers of the route search over one board, kept from one unit to the next.
pub(crate) struct Search<'a> {
    board: &'a Board,
    /// Per class of movers ([`class`]), once asked for: per map index, what entering
    /// the hex means, worked out the first time a search comes to it.
    entries: [Vec<u8>; 8],
    nodes: Vec<Node>,
    /// Per map index: the last node found in that hex.
    head: Vec<u32>,
    /// Per map index: the node of the best way to end there.
    best: Vec<u32>,
    /// The map indices of the hexes a move may end in, in the order first found.
    order: Vec<u32>,
    /// The map index of the one hex the search is for, if so: it stops on the first way
    /// there it finds.
    goal: u32,
    /// The node of that first way.
    found: u32,
    /// The limits of the last search.
    lim: Limits,
    /// The last search was for a reinforcement entering (JO-MOV-27).
    waiting: bool,
}

impl<'a> Search<'a> {
    /// Empty buffers for the map of `rules`, with the pieces standing as on `board`.
    pub(crate) fn new(rules: &Jomini, board: &'a Board) -> Search<'a> {
        let n = rules.map.len();
        Search {
            board,
            entries: Default::default(),
            // Room for a few ways into every hex at once: grown one push at a time,
            // the list was reallocated several times in every legal list.
            nodes: Vec::with_capacity(2 * n),
            head: vec![NONE; n],
            best: vec![NONE; n],
            order: Vec::new(),
            goal: NONE,
            found: NONE,
            lim: Limits {
                fight: 0,
                max: 0,
                road: false,
                woods: 0,
            },
            waiting: false,
        }
    }

    fn clear(&mut self) {
        for n in &self.nodes {
            if let Some(h) = self.head.get_mut(n.at as usize) {
                *h = NONE;
            }
        }
        for &i in &self.order {
            if let Some(b) = self.best.get_mut(i as usize) {
                *b = NONE;
            }
        }
        self.nodes.clear();
        self.order.clear();
        self.goal = NONE;
        self.found = NONE;
    }

    /// Adds a node unless the same hex was reached the same way before.
    fn push(&mut self, mut n: Node) {
        let Some(head) = self.head.get_mut(n.at as usize) else {
            return;
        };
        let key = n.key();
        let mut j = *head;
        while let Some(m) = self.nodes.get(j as usize) {
            if m.key() == key {
                return;
            }
            j = m.same;
        }
        n.same = *head;
        *head = index32(self.nodes.len());
        if self.found == NONE && n.at == self.goal && n.end && n.steps > 0 {
            self.found = *head;
        }
        self.nodes.push(n);
    }

    /// Every way `u`, allowed `lim` ([`super::movement::limits`]), may end its move now
    /// (it must be free to move): fills the nodes and the best way to each hex, in the
    /// order the hexes are first found.
    pub(crate) fn run(&mut self, rules: &Jomini, state: &State, u: UnitId, lim: Limits) {
        self.clear();
        self.go(rules, state, u, lim);
    }

    /// The way `u`, allowed `lim`, moves to `to` (it must be free to move), if it can:
    /// the best of [`Search::run`], found without searching further. The search goes step
    /// by step, so the first way into `to` it finds is the shortest, and of the shortest
    /// the one [`Search::run`] keeps.
    pub(crate) fn route_to(
        &mut self,
        rules: &Jomini,
        state: &State,
        u: UnitId,
        lim: Limits,
        to: Hex,
    ) -> Option<Route> {
        self.clear();
        self.goal = index32(rules.map.index(to)?);
        self.go(rules, state, u, lim);
        let scout = state.pieces[u.index()].scout;
        self.route(rules, rules.piece(u), scout, self.found)
    }

    fn go(&mut self, rules: &Jomini, state: &State, u: UnitId, lim: Limits) {
        let me = rules.piece(u);
        let k = class(me);
        let mut entries = std::mem::take(&mut self.entries[k]);
        if entries.is_empty() {
            entries = vec![UNKNOWN; rules.map.len()];
        }
        self.search(rules, state, u, lim, &mut entries);
        self.entries[k] = entries;
    }

    /// What entering the hex of map index `i` means for `me`, worked out once for its
    /// class and kept in `entries`.
    fn entry(&self, rules: &Jomini, me: &Piece, entries: &mut [u8], i: usize) -> u8 {
        let Some(e) = entries.get_mut(i) else {
            return 0;
        };
        if *e == UNKNOWN {
            *e = entry(rules, self.board, me, i).map_or(0, |x| {
                let difficult = !me.officer && rules.hexes.get(i).is_some_and(|h| h.difficult);
                ENTER
                    | if x.end { END } else { 0 }
                    | if x.go_on { GO_ON } else { 0 }
                    | if difficult { DIFFICULT } else { 0 }
            });
        }
        *e
    }

    fn search(
        &mut self,
        rules: &Jomini,
        state: &State,
        u: UnitId,
        lim: Limits,
        entries: &mut [u8],
    ) {
        let me = rules.piece(u);
        let p = &state.pieces[u.index()];
        self.lim = lim;
        self.waiting = p.waiting;
        let depth = lim.max + u8::from(lim.road);
        if p.waiting {
            // JO-MOV-27: from a hex just off the table; the first hex entered is the entry hex.
            let Some((_, at)) = me.enters else {
                return;
            };
            let Some(i) = rules.map.index(at) else {
                return;
            };
            let e = self.entry(rules, me, entries, i);
            if e & ENTER != 0 {
                let mut woods = 0;
                let mut stopped = e & GO_ON == 0;
                // JO-MOV-13, JO-ORD-7, JO-MOV-14: as for every later hex, below.
                if e & DIFFICULT != 0 {
                    if lim.woods > 0 {
                        woods = 1;
                    } else {
                        stopped = true;
                    }
                }
                self.push(Node {
                    hex: at,
                    at: index32(i),
                    roads: rules.road_hexes[i],
                    woods,
                    steps: 1,
                    parent: NONE,
                    stopped,
                    end: e & END != 0,
                    same: NONE,
                });
            }
        } else {
            let Some((at, i)) = p.hex.and_then(|h| Some((h, rules.map.index(h)?))) else {
                return;
            };
            self.push(Node {
                hex: at,
                at: index32(i),
                roads: rules.road_hexes[i],
                woods: 0,
                steps: 0,
                parent: NONE,
                stopped: false,
                end: false,
                same: NONE,
            });
        }
        let mut k = 0;
        while let Some(&n) = self.nodes.get(k).filter(|_| self.found == NONE) {
            if !n.stopped && n.steps < depth {
                let from = n.at as usize;
                for d in Direction::ALL {
                    let side = from * 6 + d.index();
                    let y = rules.next[side];
                    if y == NONE {
                        continue;
                    }
                    let e = self.entry(rules, me, entries, y as usize);
                    if e & ENTER == 0 {
                        continue;
                    }
                    // JO-MOV-16: the road's extra hex only along one continuous road.
                    let roads = n.roads & rules.road_links[side];
                    if n.steps + 1 > lim.max && roads == 0 {
                        continue;
                    }
                    let mut woods = n.woods;
                    let mut stopped = e & GO_ON == 0;
                    // JO-MOV-13: difficult terrain or hexside ends a move, but for the
                    // hexes bought by woods-runner (JO-ORD-7); JO-MOV-14: an officer
                    // moving alone ignores it.
                    if e & DIFFICULT != 0 || (!me.officer && rules.side_difficult[side]) {
                        if woods < lim.woods {
                            woods += 1;
                        } else {
                            stopped = true;
                        }
                    }
                    self.push(Node {
                        hex: n.hex.neighbor(d),
                        at: y,
                        roads,
                        woods,
                        steps: n.steps + 1,
                        parent: index32(k),
                        stopped,
                        end: e & END != 0,
                        same: NONE,
                    });
                }
            }
            k += 1;
        }
        if self.goal != NONE {
            return;
        }
        // The best way to each hex: without the road's extra hex if possible, then shortest.
        let rank = |m: &Node| (m.steps > lim.max, m.steps);
        for (k, n) in self.nodes.iter().enumerate() {
            if !n.end || n.steps == 0 {
                continue;
            }
            let Some(b) = self.best.get_mut(n.at as usize) else {
                continue;
            };
            match self.nodes.get(*b as usize) {
                Some(m) if rank(m) <= rank(n) => {}
                Some(_) => *b = index32(k),
                None => {
                    *b = index32(k);
                    self.order.push(n.at);
                }
            }
        }
    }

    /// The hexes the last search may end in, in order.
    pub(crate) fn ends(&self) -> impl Iterator<Item = Hex> + '_ {
        self.order
            .iter()
            .filter_map(|&i| self.nodes.get(*self.best.get(i as usize)? as usize))
            .map(|n| n.hex)
    }

    /// The routes of the last search, in order.
    pub(crate) fn routes(&self, rules: &Jomini, me: &Piece, scout: bool) -> Vec<Route> {
        self.order
            .iter()
            .filter_map(|&i| self.route(rules, me, scout, *self.best.get(i as usize)?))
            .collect()
    }

    /// The route to node `k`.
    fn route(&self, rules: &Jomini, me: &Piece, scout: bool, k: u32) -> Option<Route> {
        let n = *self.nodes.get(k as usize)?;
        let mut path = Vec::with_capacity(usize::from(n.steps) + 1);
        let mut j = k;
        while let Some(m) = self.nodes.get(j as usize) {
            path.push(m.hex);
            j = m.parent;
        }
        path.reverse();
        if !self.waiting && !path.is_empty() {
            path.remove(0);
        }
        let lim = self.lim;
        let road_march = n.steps > lim.max;
        let through = path
            .split_last()
            .map_or(&[][..], |(_, before)| before)
            .iter()
            .any(|&h| self.board.unit_at(rules, h).is_some() && !me.officer);
        Some(Route {
            hex: n.hex,
            path,
            hexes: n.steps,
            road_march,
            through,
            combat: !me.officer && !scout && !road_march && n.steps <= lim.fight,
            woods: n.woods,
        })
    }
}

/// A map or node index as the search keeps it.
fn index32(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(NONE)
}
