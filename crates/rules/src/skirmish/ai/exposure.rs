//! The evaluation's terms between enemies (not a rule: the heuristic of `ai.rs`):
//! the enemies within striking distance at each character's flank or rear, by the
//! facing's arcs (SK-FAC-2), and the distances between enemies for closing in, kept
//! from one score to the next. The searches score positions one plan apart (a unit's
//! plans tried one after the other), mostly one character moved or turned: only the
//! pairs of a character whose hex or facing changed are worked out again. The terms
//! are whole numbers and minimums, the same in any order; debug builds check every
//! update against the pairs worked out afresh.

use super::Fixed;
use crate::skirmish::characters::CharState;
use crate::skirmish::facing::{attack_arc, Arc};
use grognard_engine::UnitId;
use grognard_hex::{Direction, Hex};

/// The farthest offset, in each axis, of the arcs kept in [`Arcs`].
const NEAR: i32 = 8;
/// The side of the square of offsets kept in [`Arcs`].
const SIDE: usize = 2 * NEAR as usize + 1;
/// [`SIDE`] for the keys' arithmetic.
const SIDE_I: i32 = 2 * NEAR + 1;

/// For each facing (in [`Direction::ALL`]'s order) and each offset `(q, r)` of an
/// attacker from its target within [`NEAR`] in both axes, the arc it strikes
/// (SK-FAC-2, [`attack_arc`]) for one front.
pub(super) type Arcs = Vec<Arc>;

/// [`Arcs`] for a front of `front_turns`.
pub(super) fn arcs(front_turns: u8) -> Arcs {
    let mut table = Vec::with_capacity(6 * SIDE * SIDE);
    for facing in Direction::ALL {
        for q in -NEAR..=NEAR {
            for r in -NEAR..=NEAR {
                table.push(attack_arc(Hex::ORIGIN, facing, Hex::new(q, r), front_turns));
            }
        }
    }
    table
}

/// A character in play as the pairs read it: where it stands, its facing and the
/// distance it strikes at.
#[derive(Clone, Copy, Debug)]
pub(super) struct Spot {
    hex: Hex,
    /// Its hex's third cube coordinate, for the distances.
    s: i32,
    /// Its hex's key in [`Arcs`]' square of offsets (`q × SIDE + r`).
    key: i32,
    /// Where the arcs of its facing lie in [`Arcs`], less its own key: an attacker
    /// within [`NEAR`] strikes the arc at `front + attacker.key`.
    front: i32,
    facing: Direction,
    /// The distance it strikes at: its longest reach and a step.
    strike: u32,
}

impl Spot {
    /// A character standing at `hex` facing `facing`, striking at `strike`.
    pub(super) fn new(hex: Hex, facing: Direction, strike: u32) -> Spot {
        let key = hex.q * SIDE_I + hex.r;
        Spot {
            hex,
            s: -hex.q - hex.r,
            key,
            front: facing as i32 * SIDE_I * SIDE_I + NEAR * (SIDE_I + 1) - key,
            facing,
            strike,
        }
    }

    /// The distance between two characters' hexes (`Hex::distance`).
    fn distance(&self, other: &Spot) -> u32 {
        let d = (self.hex.q - other.hex.q).unsigned_abs()
            + (self.hex.r - other.hex.r).unsigned_abs()
            + (self.s - other.s).unsigned_abs();
        d / 2
    }
}

/// [`attack_arc`] (SK-FAC-2) of an attacker at distance `d` from its target, read
/// from `arcs` when within [`NEAR`] (as it is whenever the evaluation asks: within
/// striking distance, and then within [`NEAR`] in both axes): the same arc.
#[expect(
    clippy::cast_sign_loss,
    reason = "an offset within NEAR in both axes indexes the table"
)]
pub(super) fn arc_of(arcs: &Arcs, target: &Spot, from: &Spot, d: u32, front_turns: u8) -> Arc {
    if d > NEAR.unsigned_abs() {
        return attack_arc(target.hex, target.facing, from.hex, front_turns);
    }
    let a = arcs[(target.front + from.key) as usize];
    debug_assert_eq!(
        a,
        attack_arc(target.hex, target.facing, from.hex, front_turns)
    );
    a
}

/// How many characters may change hex or facing between two scores before every pair
/// is worked out again.
const CHANGED: usize = 4;

/// The pairs of enemies in play as the last score found them, by character index.
#[derive(Clone, Default)]
pub(super) struct Pairs {
    /// Each character where it stood, read only where `play` holds.
    at: Vec<Spot>,
    /// Each character was in play.
    play: Vec<bool>,
    /// The characters whose hex or facing changed since, in [`Pairs::note`]'s calls.
    changed: [usize; CHANGED],
    moved: usize,
    /// Every pair is to be worked out again (someone entered or left play, or many
    /// moved).
    all: bool,
    table: Table,
}

/// What the pairs of [`Pairs`] come to.
#[derive(Clone, Default, Debug, PartialEq, Eq)]
struct Table {
    /// Each character's side.
    side: Vec<u8>,
    /// The distance between two enemies in play, at `n × one + other`; `u32::MAX`
    /// between friends and to a character out of play.
    dist: Vec<u32>,
    /// Each character's distance to its nearest enemy in play (the least of its row of
    /// `dist`).
    nearest: Vec<u32>,
    /// The arc an enemy in play strikes a character at, at `n × target + attacker`:
    /// 1 its flank, 2 its rear, 0 its front or beyond the attacker's striking distance.
    struck: Vec<u8>,
    /// Each side's enemies at its characters' flanks, and at their rears.
    flank: [i32; 2],
    rear: [i32; 2],
}

/// [`Table::struck`]'s number for an arc.
fn code(arc: Arc) -> u8 {
    match arc {
        Arc::Front => 0,
        Arc::Flank => 1,
        Arc::Rear => 2,
    }
}

impl Pairs {
    /// Pairs for the characters of sides `side`, nobody placed yet.
    pub(super) fn new(side: Vec<u8>) -> Pairs {
        let n = side.len();
        Pairs {
            at: vec![Spot::new(Hex::ORIGIN, Direction::ALL[0], 0); n],
            play: vec![false; n],
            changed: [0; CHANGED],
            moved: 0,
            all: true,
            table: Table {
                side,
                dist: vec![u32::MAX; n * n],
                nearest: vec![u32::MAX; n],
                struck: vec![0; n * n],
                flank: [0; 2],
                rear: [0; 2],
            },
        }
    }

    /// Notes where every character of `chars` stands, before [`Pairs::settle`]: those
    /// whose hex or facing changed, or every pair when someone entered or left play.
    pub(super) fn note(&mut self, chars: &[CharState], fixed: &[Fixed]) {
        let Pairs {
            at,
            play,
            changed,
            moved,
            all,
            ..
        } = self;
        let spots = at.iter_mut().zip(play.iter_mut());
        for (i, ((c, f), (s, play))) in chars.iter().zip(fixed).zip(spots).enumerate() {
            let Some(hex) = c.hex else {
                if *play {
                    *play = false;
                    *all = true;
                }
                continue;
            };
            if *play {
                if s.hex == hex && s.facing == c.facing {
                    continue;
                }
                if *moved < CHANGED {
                    changed[*moved] = i;
                    *moved += 1;
                } else {
                    *all = true;
                }
            } else {
                *play = true;
                *all = true;
            }
            *s = Spot::new(hex, c.facing, f.strike);
        }
    }

    /// Brings the pairs to the characters noted: every pair when `all`, else the pairs of
    /// those that moved or turned. `members` are each side's characters.
    pub(super) fn settle(&mut self, arcs: &Arcs, front_turns: u8, members: &[Vec<UnitId>; 2]) {
        if self.all {
            self.rebuild(arcs, front_turns, members);
        } else {
            for m in 0..self.moved {
                let k = self.changed[m];
                for e in &members[usize::from(1 - self.table.side[k])] {
                    if self.play[e.index()] {
                        self.table.pair(&self.at, (k, e.index()), arcs, front_turns);
                    }
                }
            }
        }
        self.moved = 0;
        self.all = false;
        if cfg!(debug_assertions) {
            let mut fresh = Pairs {
                at: self.at.clone(),
                play: self.play.clone(),
                ..Pairs::new(self.table.side.clone())
            };
            fresh.rebuild(arcs, front_turns, members);
            assert_eq!(
                fresh.table, self.table,
                "the pairs kept and worked out afresh"
            );
        }
    }

    /// Every pair of enemies in play worked out again.
    fn rebuild(&mut self, arcs: &Arcs, front_turns: u8, members: &[Vec<UnitId>; 2]) {
        let t = &mut self.table;
        t.dist.fill(u32::MAX);
        t.nearest.fill(u32::MAX);
        t.struck.fill(0);
        t.flank = [0; 2];
        t.rear = [0; 2];
        for a in &members[0] {
            if !self.play[a.index()] {
                continue;
            }
            for b in &members[1] {
                if self.play[b.index()] {
                    t.pair(&self.at, (a.index(), b.index()), arcs, front_turns);
                }
            }
        }
    }

    /// Side `side`'s enemies at its characters' flanks, and at their rears.
    pub(super) fn exposed(&self, side: u8) -> (i32, i32) {
        let side = usize::from(side);
        (self.table.flank[side], self.table.rear[side])
    }

    /// The distance from character `i`, in play, to its nearest enemy in play;
    /// `u32::MAX` when none is.
    pub(super) fn nearest(&self, i: usize) -> u32 {
        self.table.nearest[i]
    }

    /// Whether character `i` stands at `now` (`None` out of play): debug builds' check
    /// that every change was noted.
    pub(super) fn stands(&self, i: usize, now: Option<(Hex, Direction)>) -> bool {
        let s = &self.at[i];
        now == self.play[i].then_some((s.hex, s.facing))
    }
}

impl Table {
    /// The pair of enemies `a` and `b`, both in play, worked out: their distance and
    /// the arc each strikes the other at when within its striking distance.
    #[inline(always)]
    fn pair(&mut self, at: &[Spot], (a, b): (usize, usize), arcs: &Arcs, front_turns: u8) {
        let (sa, sb) = (&at[a], &at[b]);
        let d = sa.distance(sb);
        debug_assert_eq!(d, sa.hex.distance(sb.hex));
        self.apart(a, b, d);
        self.apart(b, a, d);
        let a_struck = if d <= sb.strike {
            code(arc_of(arcs, sa, sb, d, front_turns))
        } else {
            0
        };
        let b_struck = if d <= sa.strike {
            code(arc_of(arcs, sb, sa, d, front_turns))
        } else {
            0
        };
        self.strike(a, b, a_struck);
        self.strike(b, a, b_struck);
    }

    /// `one` stands `d` from the enemy `other`: its row of distances and its nearest
    /// enemy brought up to date (the row searched again only when the nearest went
    /// farther).
    #[inline(always)]
    fn apart(&mut self, one: usize, other: usize, d: u32) {
        let n = self.nearest.len();
        let was = std::mem::replace(&mut self.dist[one * n + other], d);
        let nearest = &mut self.nearest[one];
        if d <= *nearest {
            *nearest = d;
        } else if was == *nearest {
            *nearest = self.dist[one * n..][..n]
                .iter()
                .copied()
                .min()
                .unwrap_or(u32::MAX);
        }
    }

    /// `attacker` strikes `target` at the arc numbered `now` (see [`Table::struck`]).
    #[inline(always)]
    fn strike(&mut self, target: usize, attacker: usize, now: u8) {
        let k = target * self.nearest.len() + attacker;
        let was = self.struck[k];
        if was == now {
            return;
        }
        self.struck[k] = now;
        let side = usize::from(self.side[target]);
        match was {
            1 => self.flank[side] -= 1,
            2 => self.rear[side] -= 1,
            _ => {}
        }
        match now {
            1 => self.flank[side] += 1,
            2 => self.rear[side] += 1,
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SK-FAC-2: the arcs read from the table are the arcs worked out, for every front,
    /// facing and offset within the table's distance and a little beyond it (where the
    /// table is not read).
    #[test]
    fn sk_fac_2_the_arcs_read_from_the_table_are_the_arcs_worked_out() {
        let target = Hex::new(3, -2);
        let mut checked = 0;
        for front in 0..=3u8 {
            let table = arcs(front);
            for facing in Direction::ALL {
                let t = Spot::new(target, facing, 1);
                for q in -NEAR - 2..=NEAR + 2 {
                    for r in -NEAR - 2..=NEAR + 2 {
                        let from = Hex::new(target.q + q, target.r + r);
                        let a = Spot::new(from, Direction::ALL[0], 1);
                        assert_eq!(
                            arc_of(&table, &t, &a, target.distance(from), front),
                            attack_arc(target, facing, from, front),
                            "front {front}, facing {facing:?}, offset ({q}, {r})"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 4 * 6 * 21 * 21);
    }
}
