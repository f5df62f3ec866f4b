//! Battle dice: how many the battling unit rolls at its target, by range (BC-RNG-1 to
//! BC-RNG-3), less the target's protection, plus a card's (BC-BAT-3); or why it may not
//! battle that target at all.

use super::units::{Board, Kind};
use super::{cards, line_of_sight, BattleCry, State, OFF_MAP};
use crate::commands_colors::dice::{adjacent_enemy, at_range};
use grognard_engine::UnitId;
use grognard_hex::{Direction, Hex};

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
    /// Its type's dice by range.
    dice: &'a [u8],
    /// The enemy unit next to it (BC-BAT-2).
    adjacent: Option<UnitId>,
    /// The card's extra dice, or the Fight Back card's (BC-CARD-7, BC-CARD-2, BC-CARD-8).
    bonus: u8,
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
        let enemy = |e: &UnitId| rules.side_of(*e) != side;
        let enemy_at = |h| board.unit_at(rules, h).filter(enemy);
        // The neighbours in the order of `adjacent_enemy`, read from the table of the move
        // search where it has them (it leaves out impassable hexes, asked here as any).
        let adjacent = match rules.map.index(from) {
            Some(at) => Direction::ALL
                .into_iter()
                .zip(rules.neighbors[at])
                .find_map(|(d, y)| match y {
                    OFF_MAP => enemy_at(from.neighbor(d)),
                    y => board.unit_at_index(y as usize).filter(enemy),
                }),
            None => adjacent_enemy(from, enemy_at),
        };
        let bonus = if with_card {
            cards::bonus_dice(rules, state, board, unit)
        } else {
            cards::fight_back_dice(rules)
        };
        Some(Battler {
            from,
            dice: &rules.row(unit).dice,
            adjacent,
            bonus,
        })
    }

    /// [`count`] against `target`.
    pub(crate) fn count(
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
            if let Some(e) = self.adjacent {
                return Err(Block::Adjacent(e));
            }
            if !line_of_sight::sees(rules, board, from, to) {
                return Err(Block::Sight);
            }
        }
        let protection = rules.protection_parts(from, to);
        let base = range.saturating_sub(rules.protection_total(protection));
        let bonus = self.bonus;
        let total = base + bonus;
        if total == 0 {
            return Err(Block::NoDice(range, rules.protection_total(protection)));
        }
        Ok(DiceCount {
            distance,
            range,
            protection,
            bonus,
            total,
        })
    }
}
