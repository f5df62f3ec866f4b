//! Battle dice: how many the battling unit rolls at its target, by range (BC-RNG-1 to
//! BC-RNG-3), less the target's protection, plus a card's (BC-BAT-3), or why it may not
//! battle that target at all; rolling them (BC-DIE-1) and the rules a battle's event
//! names for them.

use super::board::NONE;
use super::data::Face;
use super::fire_sets::FireSets;
use super::units::{Board, Kind};
use super::{cards, line_of_sight, BattleCry, Event, State, OFF_MAP};
use crate::commands_colors::dice::{adjacent_enemy, at_range, tally};
use grognard_engine::{dice_pool, Ctx, Text, UnitId};
use grognard_hex::{Direction, Hex};
use std::cell::RefCell;
use std::sync::Arc;

/// The battle dice of one battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiceCount {
    /// Hexes to the target.
    pub distance: u32,
    /// Dice for that range (BC-RNG-1 to BC-RNG-3).
    pub range: u8,
    /// Dice the target's terrain (BC-TER-3) and a fence before it take away.
    pub protection: (u8, u8),
    /// Dice the card played adds (BC-CARD-7, BC-CARD-2).
    pub bonus: u8,
    /// Dice rolled.
    pub total: u8,
}

/// Why a unit may not battle a target at all, before any message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Block {
    General,
    Range(u32),
    Adjacent(UnitId),
    Sight,
    NoDice(u8, u8),
}

/// What a battle's dice owe to the battling unit alone, whatever its target: worked out
/// once a unit for a legal list.
pub(crate) struct Battler<'a> {
    from: Hex,
    /// On a map small enough for the sets of [`super::fire_sets`]: the map index of its
    /// hex, the map's lines of fire, the hexes holding an enemy piece and those that
    /// obstruct a line of sight (BC-LOS-1, BC-LOS-2).
    sets: Option<(usize, &'a FireSets, u128, u128)>,
    /// Its side.
    side: u8,
    /// Its type's dice by range.
    dice: &'a [u8],
    /// An enemy unit is next to it (BC-BAT-2).
    adjacent: bool,
    /// The card's extra dice, or the Fight Back card's (BC-CARD-7, BC-CARD-2, BC-CARD-8).
    bonus: u8,
}

/// The enemy unit next to a unit of side `side` in `from` that BC-BAT-2 names: the first
/// in the order of `adjacent_enemy`.
fn adjacent_unit(rules: &BattleCry, board: &Board, side: u8, from: Hex) -> Option<UnitId> {
    let enemy = |e: &UnitId| rules.side_of(*e) != side;
    let enemy_at = |h| board.unit_at(rules, h).filter(enemy);
    // The neighbours in the order of `adjacent_enemy`, read from the table of the move
    // search where it has them (it leaves out impassable hexes, asked here as any).
    match rules.index(from) {
        Some(at) => Direction::ALL
            .into_iter()
            .zip(rules.neighbors[at])
            .find_map(|(d, y)| match y {
                OFF_MAP => enemy_at(from.neighbor(d)),
                y => board.unit_at_index(y as usize).filter(enemy),
            }),
        None => adjacent_enemy(from, enemy_at),
    }
}

impl<'a> Battler<'a> {
    /// The battling unit of an engagement; `None` for a general (BC-GEN-4).
    pub(crate) fn new(
        rules: &'a BattleCry,
        state: &State,
        board: &Board,
        unit: UnitId,
        with_card: bool,
    ) -> Option<Battler<'a>> {
        if rules.kind(unit) == Kind::General {
            return None;
        }
        let from = state.pieces[unit.index()].hex.expect("on the map");
        let side = rules.side_of(unit);
        let (sets, adjacent) = match (board.index_of(unit), rules.fire_sets(), board.holds()) {
            (Some(at), Some(f), Some(holds)) => {
                let enemy = usize::from(side & 1 ^ 1);
                let pieces = holds[0][0] | holds[0][1] | holds[1][0] | holds[1][1];
                let sets = (
                    at,
                    f,
                    holds[0][enemy] | holds[1][enemy],
                    pieces | f.blocks_sight,
                );
                // An enemy unit in a hex 1 away (BC-BAT-2).
                let adjacent = f.within(at, 1) & holds[0][enemy] != 0;
                debug_assert_eq!(
                    adjacent,
                    adjacent_unit(rules, board, side, from).is_some(),
                    "the adjacent enemy"
                );
                (Some(sets), adjacent)
            }
            _ => (None, adjacent_unit(rules, board, side, from).is_some()),
        };
        let bonus = if with_card {
            cards::bonus_dice(rules, state, board, unit)
        } else {
            cards::fight_back_dice(rules)
        };
        Some(Battler {
            from,
            sets,
            side,
            dice: &rules.row(unit).dice,
            adjacent,
            bonus,
        })
    }

    /// Whether unit `u` may have a target within its range (BC-RNG-1 to BC-RNG-3): false
    /// only when the sets of [`super::fire_sets`] show no enemy piece there, a gate
    /// before the rest of a battler is worked out.
    #[inline]
    pub(crate) fn may_have_targets(rules: &BattleCry, board: &Board, u: UnitId) -> bool {
        match (board.index_of(u), rules.fire_sets(), board.holds()) {
            (Some(at), Some(f), Some(holds)) => {
                let enemy = usize::from(rules.side_of(u) & 1 ^ 1);
                f.within(at, rules.row(u).dice.len()) & (holds[0][enemy] | holds[1][enemy]) != 0
            }
            _ => true,
        }
    }

    /// Whether a target in `to` is within the unit's range (BC-RNG-1 to BC-RNG-3): the
    /// first gate of [`Battler::count`], cheap.
    #[inline]
    pub(crate) fn in_range(&self, to: Hex) -> bool {
        at_range(self.dice, self.from.distance(to)).is_some()
    }

    /// The targets within the unit's range as a set of pieces (bit `i` for piece `i`), in
    /// a binding of at most 64 pieces on a small map: the enemy units, and the enemy
    /// generals alone in their hex (BC-HIT-4), 1 to the unit's range away (BC-RNG-1 to
    /// BC-RNG-3); `None` where the sets are not kept.
    #[inline]
    pub(crate) fn targets_in_range(&self, rules: &BattleCry, board: &Board) -> Option<u64> {
        let (at, f, enemies, _) = self.sets?;
        if rules.pieces.len() > 64 {
            return None;
        }
        let mut hexes = f.within(at, self.dice.len()) & enemies;
        let cells = board.cells();
        let mut targets = 0u64;
        while hexes != 0 {
            let [unit, general] = cells[hexes.trailing_zeros() as usize];
            hexes &= hexes - 1;
            // An enemy unit, else the enemy general alone in its hex.
            let t = if unit != NONE { unit } else { general };
            if t != NONE && rules.side_of(UnitId(t)) != self.side {
                targets |= 1 << t;
            }
        }
        Some(targets)
    }

    /// [`count`] against `target`.
    pub(crate) fn count(
        &self,
        rules: &BattleCry,
        state: &State,
        board: &Board,
        target: UnitId,
    ) -> Result<DiceCount, Block> {
        let fire = match (self.sets, board.index_of(target)) {
            (Some((at, f, _, obstructs)), Some(to_at)) => {
                f.fire(at, to_at).map(|fire| (f, obstructs, fire, to_at))
            }
            _ => None,
        };
        let Some((f, obstructs, fire, to_at)) = fire else {
            return self.count_traced(rules, state, board, target);
        };
        // The same gates as `count_traced`, on the line's sets.
        let distance = u32::from(fire.distance);
        let Some(range) = at_range(self.dice, distance) else {
            return Err(Block::Range(distance));
        };
        if distance > 1 {
            if self.adjacent {
                return Err(self.adjacent_block(rules, board));
            }
            if !f.clear(fire, obstructs) {
                return Err(Block::Sight);
            }
        }
        let protection = (rules.hexes[to_at].protection, fire.fence);
        let d = self.dice_at(rules, distance, range, protection);
        debug_assert_eq!(
            d,
            self.count_traced(rules, state, board, target),
            "the dice read on the sets"
        );
        d
    }

    /// BC-BAT-2: the block of a unit next to an enemy unit, naming it (always found when
    /// `adjacent` is set; a line blocked otherwise).
    #[cold]
    fn adjacent_block(&self, rules: &BattleCry, board: &Board) -> Block {
        adjacent_unit(rules, board, self.side, self.from).map_or(Block::Sight, Block::Adjacent)
    }

    /// [`Battler::count`] hex by hex, along the line traced.
    fn count_traced(
        &self,
        rules: &BattleCry,
        state: &State,
        board: &Board,
        target: UnitId,
    ) -> Result<DiceCount, Block> {
        let from = self.from;
        let to = state.pieces[target.index()].hex.expect("on the map");
        let distance = from.distance(to);
        let Some(range) = at_range(self.dice, distance) else {
            return Err(Block::Range(distance));
        };
        if distance > 1 {
            if self.adjacent {
                return Err(self.adjacent_block(rules, board));
            }
            if !line_of_sight::sees(rules, board, from, to) {
                return Err(Block::Sight);
            }
        }
        let protection = rules.protection_parts(from, to);
        self.dice_at(rules, distance, range, protection)
    }

    /// The dice of a battle in range and sight: the range's dice less the target's
    /// protection, plus the battler's bonus; none left is a block.
    fn dice_at(
        &self,
        rules: &BattleCry,
        distance: u32,
        range: u8,
        protection: (u8, u8),
    ) -> Result<DiceCount, Block> {
        let base = range.saturating_sub(rules.protection_total(protection));
        let total = base + self.bonus;
        if total == 0 {
            return Err(Block::NoDice(range, rules.protection_total(protection)));
        }
        Ok(DiceCount {
            distance,
            range,
            protection,
            bonus: self.bonus,
            total,
        })
    }
}

/// The rule giving a type's range and dice.
pub(crate) fn range_rule(kind: Kind) -> &'static str {
    match kind {
        Kind::Infantry => "BC-RNG-1",
        Kind::Artillery => "BC-RNG-2",
        Kind::Cavalry => "BC-RNG-3",
        Kind::General => "BC-GEN-4",
    }
}

/// The rules that set a battle's dice and its result, as its event names them: the
/// range (BC-RNG-1 to BC-RNG-3), the target's protection (BC-TER-3, BC-TER-4), the
/// card's extra dice (BC-CARD-2, BC-CARD-7, BC-CARD-8), BC-BAT-3, a Fight Back's own
/// BC-CARD-8, then the hits (BC-HIT-1, or BC-HIT-4 against a general alone). Kept as
/// bits, so that a battle recorded builds no list; it reads, compares, prints and
/// serializes as the list of its rule IDs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct BattleRules {
    kind: Kind,
    bits: u8,
}

impl BattleRules {
    const TERRAIN: u8 = 1;
    const FENCE: u8 = 2;
    /// Two bits: the card's extra dice, an index into [`BattleRules::BONUS`].
    const BONUS_SHIFT: u8 = 2;
    const BONUS: [Option<&'static str>; 4] = [
        None,
        Some("BC-CARD-2"),
        Some("BC-CARD-7"),
        Some("BC-CARD-8"),
    ];
    const FIGHT_BACK: u8 = 16;
    const ALONE: u8 = 32;

    /// The rules of `u`'s battle with the dice `d`, against a general alone when `alone`.
    pub(crate) fn new(
        rules: &BattleCry,
        state: &State,
        u: UnitId,
        d: &DiceCount,
        fight_back: bool,
        alone: bool,
    ) -> BattleRules {
        let (terrain, fence) = d.protection;
        let mut bits = 0;
        if terrain.max(fence) > 0 {
            bits |= Self::TERRAIN;
        }
        if terrain > 0 && fence > 0 {
            bits |= Self::FENCE;
        }
        if let Some(r) = cards::bonus_rule(rules, state, d.bonus, fight_back) {
            let i = Self::BONUS.iter().position(|&b| b == Some(r)).unwrap_or(0);
            bits |= u8::try_from(i).unwrap_or(0) << Self::BONUS_SHIFT;
        }
        if fight_back {
            bits |= Self::FIGHT_BACK;
        }
        if alone {
            bits |= Self::ALONE;
        }
        BattleRules {
            kind: rules.kind(u),
            bits,
        }
    }

    /// The rule IDs, in order.
    pub fn iter(&self) -> impl Iterator<Item = &'static str> {
        let BattleRules { kind, bits } = *self;
        let has = |bit: u8| bits & bit != 0;
        [
            Some(range_rule(kind)),
            has(Self::TERRAIN).then_some("BC-TER-3"),
            has(Self::FENCE).then_some("BC-TER-4"),
            Self::BONUS[usize::from(bits >> Self::BONUS_SHIFT & 3)],
            Some("BC-BAT-3"),
            has(Self::FIGHT_BACK).then_some("BC-CARD-8"),
            Some(if has(Self::ALONE) {
                "BC-HIT-4"
            } else {
                "BC-HIT-1"
            }),
        ]
        .into_iter()
        .flatten()
    }
}

impl std::fmt::Debug for BattleRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // As the list of the IDs prints.
        f.debug_list().entries(self.iter()).finish()
    }
}

impl serde::Serialize for BattleRules {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> serde::Deserialize<'de> for BattleRules {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<BattleRules, D::Error> {
        let ids = Vec::<String>::deserialize(d)?;
        // The lists a battle can name are few (four types, 64 sets of bits): the one
        // that reads as `ids`.
        Kind::ALL
            .into_iter()
            .flat_map(|kind| (0..64).map(move |bits| BattleRules { kind, bits }))
            .find(|r| r.iter().eq(ids.iter().map(String::as_str)))
            .ok_or_else(|| serde::de::Error::custom(format!("no battle names the rules {ids:?}")))
    }
}

/// Pieces a binding may have for its battles' purposes to be kept ([`PURPOSES`]): a table
/// of every pair.
const KEPT_PIECES: usize = 64;

thread_local! {
    /// The purposes of the battles recorded on this thread, for the binding numbered
    /// first ([`BattleCry::id`]), by pair of pieces (battling unit, target): each written
    /// once, then shared by every battle of the pair ([`roll_battle_dice`]).
    static PURPOSES: RefCell<(u64, Vec<Option<Text>>)> = const { RefCell::new((0, Vec::new())) };
}

/// The purpose of the dice of `u`'s battle against `t`, as the events name it.
fn purpose(rules: &BattleCry, u: UnitId, t: UnitId) -> Text {
    let write = || {
        let mut b = String::new();
        for part in [
            "BC-DIE-1: battle die of ",
            rules.unit_name(u),
            " against ",
            rules.unit_name(t),
        ] {
            b.push_str(part);
        }
        Text::from(Arc::<str>::from(b))
    };
    let n = rules.pieces.len();
    if n > KEPT_PIECES {
        return write();
    }
    let kept = PURPOSES.try_with(|c| {
        let mut c = c.borrow_mut();
        let (binding, table) = &mut *c;
        if *binding != rules.id || table.len() != n * n {
            *binding = rules.id;
            table.clear();
            table.resize(n * n, None);
        }
        let text = table[u.index() * n + t.index()]
            .get_or_insert_with(write)
            .clone();
        debug_assert_eq!(text, write(), "the kept purpose");
        text
    });
    // On a thread being torn down, written for this battle alone.
    kept.unwrap_or_else(|_| write())
}

/// BC-DIE-1: rolls `n` battle dice of `u` against `t`: the faces rolled, and how many
/// show each face of `wanted`. The faces are kept only for the event, and so not in a
/// quiet context (`Ctx::quiet`); the dice rolled are the same either way.
pub(crate) fn roll_battle_dice(
    rules: &BattleCry,
    u: UnitId,
    t: UnitId,
    n: u8,
    wanted: [Face; 3],
    ctx: &mut Ctx<'_, Event>,
) -> (Vec<Face>, [u8; 3]) {
    let table = &rules.data.dice.faces;
    if ctx.is_quiet() {
        let sides = u32::try_from(table.len()).expect("a die of few faces");
        let mut counts = [0; 3];
        for _ in 0..n {
            let face = table[ctx.roll_for(sides, String::new) as usize - 1];
            for (c, w) in counts.iter_mut().zip(wanted) {
                *c += u8::from(face == w);
            }
        }
        return (Vec::new(), counts);
    }
    // Written once a pair of pieces, then shared by the battles' dice.
    let faces: Vec<Face> = dice_pool::roll(ctx, table, u32::from(n), || purpose(rules, u, t));
    let counts = wanted.map(|w| tally(&faces, |x| x == w));
    (faces, counts)
}
