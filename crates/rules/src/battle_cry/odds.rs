//! The exact odds of a battle before it is rolled: the distribution of figures lost,
//! flags, retreat owed and elimination over the battle dice (BC-DIE-1).

use super::battle::{self, Engagement};
use super::data::Face;
use super::units::{Board, Kind};
use super::{fight_back, hits, Action, BattleCry, Pending, State};
use grognard_engine::dice_pool;
use grognard_engine::{Preview, Reason, Refusal};
use grognard_hex::Hex;

/// The exact distribution of a battle's result on its target: figures lost, flags
/// rolled, hexes of retreat owed (with one flag ignored where a general lets its side
/// choose to, BC-GEN-5, BC-GEN-6) and whether it is eliminated.
///
/// A battle is checked whole by the sequencer first (`turn.rs`).
///
/// # Errors
/// The refusal of an illegal battle, or an action that rolls no battle dice.
pub(crate) fn preview(
    rules: &BattleCry,
    state: &State,
    action: &Action,
) -> Result<Preview, Refusal> {
    let (u, t, (d, dice_reasons)) = match action {
        Action::Battle { unit, target } => {
            let board = Board::new(rules, state);
            (
                *unit,
                *target,
                battle::dice(rules, state, &board, Engagement::battle(*unit, *target))?,
            )
        }
        Action::FightBack => {
            fight_back::check_fight_back(rules, state)?;
            let Some(Pending::FightBack { unit, target }) = state.pending else {
                return Err(Refusal::new("BC-CARD-8", "no Fight Back window is open"));
            };
            let board = Board::new(rules, state);
            (
                unit,
                target,
                battle::dice(rules, state, &board, Engagement::fight_back(unit, target))?,
            )
        }
        _ => return Err(Refusal::new("BC-DIE-1", "only a battle rolls battle dice")),
    };
    let board = Board::new(rules, state);
    let target_hex: Hex = state.pieces[t.index()].hex.expect("on the map");
    let faces = &rules.data.dice.faces;
    let general_target = rules.kind(t) == Kind::General;
    let hit_face = |f: &Face| {
        if general_target {
            *f == Face::Sabers
        } else {
            *f == hits::matching(rules.kind(t)) || *f == Face::Sabers
        }
    };
    // BC-DIE-1: each die falls in one of three classes: a hit, a flag, or nothing.
    let classes = dice_pool::class_faces(faces, 3, |f| {
        if hit_face(f) {
            0
        } else if *f == Face::Flag {
            1
        } else {
            2
        }
    });
    let (a, b) = (classes[0], classes[1]);
    let figures = state.pieces[t.index()].figures;
    let embolden = general_target || board.general_at(rules, target_hex).is_some();
    let (dist, den) = dice_pool::distribution(&classes, u32::from(d.total), |c| {
        let hits = u8::try_from(c[0]).expect("few dice");
        let flags = u8::try_from(c[1]).expect("few dice");
        if general_target {
            if hits > 0 {
                (1, 0, 0, true)
            } else {
                (0, flags, flags.saturating_sub(1), false)
            }
        } else {
            let lost = hits.min(figures);
            let dead = lost == figures;
            let owed = if dead {
                0
            } else {
                flags.saturating_sub(u8::from(embolden))
            };
            (lost, flags, owed, dead)
        }
    });
    let outcomes = dice_pool::chances(&dist, den, |&(lost, flags, retreat, eliminated)| {
        serde_json::json!({
            "hits": lost, "flags": flags, "retreat": retreat, "eliminated": eliminated,
        })
    });
    let mut reasons = dice_reasons;
    reasons.push(Reason::new(
        "BC-DIE-1",
        format!("each die: {a} of 6 faces hit, {b} of 6 a flag"),
    ));
    if embolden && !general_target {
        reasons.push(Reason::new(
            "BC-GEN-5",
            "with its attached general the target's side may ignore one flag: the retreat shown counts it ignored",
        ));
    }
    if general_target {
        reasons.push(Reason::new(
            "BC-GEN-6",
            "a general alone may ignore one flag: the retreat shown counts it ignored",
        ));
    }
    Ok(Preview {
        roll: format!("{} battle dice", d.total),
        inputs: serde_json::json!({
            "unit": rules.unit_id(u),
            "target": rules.unit_id(t),
            "distance": d.distance,
            "range_dice": d.range,
            "terrain": rules.protection_total(d.protection),
            "card": d.bonus,
            "dice": d.total,
            "figures": figures,
        }),
        outcomes,
        reasons,
    })
}
