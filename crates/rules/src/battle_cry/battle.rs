//! Battle (step 4 of the turn): who may battle whom, range and battle dice, rolling them,
//! the flags a general lets its side ignore (BC-GEN-5, BC-GEN-6) and the Fight Back window
//! a battle opens (BC-CARD-8). Figures lost are in [`super::hits`], playing Fight Back in
//! [`super::fight_back`], the odds before a roll in [`super::odds`].

use super::data::Face;
use super::dice::{range_rule, roll_battle_dice, BattleRules, Battler};
pub(crate) use super::dice::{Block, DiceCount};
use super::order_sets::ordered_of;
use super::units::{Board, Kind, Order};
use super::{
    cards, generals, hits, line_of_sight, orders, retreat, victory, Action, BattleCry, Event,
    Pending, Phase, State,
};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::Hex;

/// One battle as its dice are counted: `unit` battles `target` with the card played, or
/// fights back with the Fight Back card's dice instead (BC-CARD-8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Engagement {
    pub unit: UnitId,
    pub target: UnitId,
    /// The card played adds its dice; false when the unit fights back.
    pub with_card: bool,
}

impl Engagement {
    /// `unit` battles `target` under the card played (BC-BAT-1).
    pub(crate) fn battle(unit: UnitId, target: UnitId) -> Engagement {
        Engagement {
            unit,
            target,
            with_card: true,
        }
    }

    /// `unit` fights back against `target`, which just battled it (BC-CARD-8).
    pub(crate) fn fight_back(unit: UnitId, target: UnitId) -> Engagement {
        Engagement {
            unit,
            target,
            with_card: false,
        }
    }
}

/// BC-BAT-3: the dice the engaged unit rolls against its target: by range, less the
/// target's terrain, plus the card played when `with_card`, or the Fight Back card's dice
/// when not (the unit fights back, BC-CARD-8). Checks range (BC-RNG-1 to
/// BC-RNG-3), the adjacent enemy (BC-BAT-2), line of sight (BC-LOS-1 to BC-LOS-3) and
/// that a die is left (BC-BAT-4).
pub(crate) fn count(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    e: Engagement,
) -> Result<DiceCount, Block> {
    let Some(b) = Battler::new(rules, state, board, e.unit, e.with_card) else {
        return Err(Block::General);
    };
    b.count(rules, state, board, e.target)
}

impl Block {
    fn refusal(
        self,
        rules: &BattleCry,
        state: &State,
        board: &Board,
        u: UnitId,
        target: UnitId,
    ) -> Refusal {
        let kind = rules.kind(u);
        let from = state.pieces[u.index()].hex.expect("on the map");
        let to = state.pieces[target.index()].hex.expect("on the map");
        match self {
            Block::General => Refusal::new("BC-GEN-4", "a general alone may not battle"),
            Block::Range(distance) => {
                let n = rules.row(u).dice.len();
                Refusal::new(
                    range_rule(kind),
                    format!(
                        "{} is {distance} hexes away; {} battles at up to {n} hex{}",
                        rules.label(to),
                        kind.name(),
                        if n == 1 { " (adjacent only)" } else { "es" }
                    ),
                )
            }
            Block::Adjacent(e) => Refusal::new(
                "BC-BAT-2",
                format!(
                    "{} is adjacent to the enemy {}: it may not battle a more distant enemy",
                    rules.who(u),
                    rules.who(e)
                ),
            ),
            Block::Sight => Refusal {
                reasons: vec![line_of_sight::blocked_by(rules, board, from, to)],
            },
            Block::NoDice(range, protection) => Refusal::new(
                "BC-BAT-4",
                format!("{range} dice at {} hexes, less {protection} for the target's terrain, leaves none to roll", from.distance(to)),
            ),
        }
    }
}

/// [`count`], with the rules that set the dice, or the refusal.
pub(crate) fn dice(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    e: Engagement,
) -> Result<(DiceCount, Vec<Reason>), Refusal> {
    let (u, target) = (e.unit, e.target);
    let d = count(rules, state, board, e).map_err(|b| b.refusal(rules, state, board, u, target))?;
    let kind = rules.kind(u);
    let to = state.pieces[target.index()].hex.expect("on the map");
    let mut reasons = vec![Reason::new(
        range_rule(kind),
        format!(
            "{} at {} hex{}: {} dice",
            kind.name(),
            d.distance,
            if d.distance == 1 { "" } else { "es" },
            d.range
        ),
    )];
    reasons.extend(rules.protection_reasons(to, d.protection));
    reasons.extend(cards::bonus_reason(rules, state, d.bonus, !e.with_card));
    reasons.push(Reason::new(
        "BC-BAT-3",
        format!(
            "{} - {} + {} = {} dice",
            d.range,
            rules.protection_total(d.protection),
            d.bonus,
            d.total
        ),
    ));
    Ok((d, reasons))
}

/// Why unit `u` may not battle now, whatever its target (BC-BAT-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unable {
    Phase(Phase),
    NotYours,
    General,
    Eliminated,
    NotOrdered,
    Battled,
    Moved,
    Waded,
}

/// BC-BAT-1: whether unit `u` may battle now, whatever its target: ordered, of the side
/// whose battle step it is, not a general, on the battlefield, not battled yet, not
/// artillery that moved (BC-MOV-5), not in terrain it entered that forbids it (BC-TER-6).
/// Cheap: the legal list asks it ([`may_battle_own`]) of each of the side's own pieces;
/// [`unable`] says which gate fails.
#[inline(always)]
fn may_battle(rules: &BattleCry, state: &State, u: UnitId) -> bool {
    rules.side_of(u) == state.active && may_battle_own(rules, state, u)
}

/// [`may_battle`] for a piece of the side whose turn it is (BC-ORD-1), as the legal list
/// asks it of each of the side's own pieces.
#[inline(always)]
fn may_battle_own(rules: &BattleCry, state: &State, u: UnitId) -> bool {
    let p = &state.pieces[u.index()];
    // Most pieces are not ordered: asked first (`is_ordered` asks it again).
    p.order != Order::None
        && state.phase == Phase::Battle
        && rules.kind(u) != Kind::General
        && p.hex.is_some()
        && orders::is_ordered(state, u)
        && !p.battled
        && (!p.moved || rules.row(u).battle_after_move)
        && !p.waded
}

/// Why unit `u` may not battle now: the first gate of [`may_battle`] it fails.
fn unable(rules: &BattleCry, state: &State, u: UnitId) -> Option<Unable> {
    if may_battle(rules, state, u) {
        return None;
    }
    let p = &state.pieces[u.index()];
    Some(if state.phase != Phase::Battle {
        Unable::Phase(state.phase)
    } else if rules.side_of(u) != state.active {
        Unable::NotYours
    } else if rules.kind(u) == Kind::General {
        Unable::General
    } else if p.hex.is_none() {
        Unable::Eliminated
    } else if !orders::is_ordered(state, u) {
        Unable::NotOrdered
    } else if p.battled {
        Unable::Battled
    } else if p.moved && !rules.row(u).battle_after_move {
        Unable::Moved
    } else {
        // Every other gate is passed: the one failed is the last.
        Unable::Waded
    })
}

/// BC-BAT-1: checks that unit `u` may battle now, whatever its target.
fn check_battler(rules: &BattleCry, state: &State, u: UnitId) -> Result<(), Refusal> {
    let Some(why) = unable(rules, state, u) else {
        return Ok(());
    };
    let who = rules.who(u);
    Err(match why {
        Unable::Phase(Phase::Movement) => {
            Refusal::new("BC-MOV-2", "battles come after all moves are completed")
        }
        Unable::Phase(p) => Refusal::new(
            "BC-TURN-2",
            format!("battles come after the moves, not in the {} step", p.name()),
        ),
        Unable::NotYours => Refusal::new("BC-ORD-1", format!("{who} is not yours")),
        Unable::General => Refusal::new(
            "BC-GEN-4",
            "a general may not battle; an attached general adds no dice",
        ),
        Unable::Eliminated => Refusal::new("BC-ORD-1", format!("{who} has been eliminated")),
        Unable::NotOrdered => Refusal::new(
            "BC-ORD-1",
            format!("{who} is not ordered: only ordered units battle"),
        ),
        Unable::Battled => Refusal::new(
            "BC-BAT-1",
            format!("{who} has battled this turn: once a turn"),
        ),
        Unable::Moved => Refusal::new(
            "BC-MOV-5",
            format!("{who} moved this turn: artillery moves or battles"),
        ),
        Unable::Waded => Refusal::new(
            "BC-TER-6",
            format!(
                "{who} entered {} this turn and may not battle",
                rules.terrain_name(state.pieces[u.index()].hex.expect("on the map"))
            ),
        ),
    })
}

/// Whether `t` is a target for `u`: an enemy unit, or an enemy general alone (BC-HIT-4).
fn is_target(rules: &BattleCry, state: &State, board: &Board, u: UnitId, t: UnitId) -> bool {
    t.index() < rules.pieces.len()
        && rules.side_of(t) != rules.side_of(u)
        && state.pieces[t.index()].hex.is_some_and(|hex| {
            rules.kind(t) != Kind::General || board.unit_at(rules, hex).is_none()
        })
}

/// Checks a target: an enemy unit, or an enemy general alone in its hex (BC-HIT-4).
fn check_target(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
    t: UnitId,
) -> Result<(), Refusal> {
    if is_target(rules, state, board, u, t) {
        return Ok(());
    }
    if t.index() >= rules.pieces.len() {
        return Err(Refusal::new("BC-BAT-1", "no such target"));
    }
    if rules.side_of(t) == rules.side_of(u) {
        return Err(Refusal::new(
            "BC-BAT-1",
            format!("{} is not an enemy", rules.who(t)),
        ));
    }
    let Some(hex) = state.pieces[t.index()].hex else {
        return Err(Refusal::new(
            "BC-BAT-1",
            format!("{} has been eliminated", rules.who(t)),
        ));
    };
    let unit = board
        .unit_at(rules, hex)
        .expect("a general attached to a unit");
    Err(Refusal::new(
        "BC-HIT-4",
        format!(
            "{} is attached to {}: a general is attacked only when alone; battle the unit",
            rules.who(t),
            rules.who(unit)
        ),
    ))
}

/// Checks a battle.
pub(crate) fn check_battle(
    rules: &BattleCry,
    state: &State,
    u: UnitId,
    t: UnitId,
) -> Result<Vec<Reason>, Refusal> {
    check_battler(rules, state, u)?;
    let board = Board::new(rules, state);
    check_target(rules, state, &board, u, t)?;
    let (_, mut reasons) = dice(rules, state, &board, Engagement::battle(u, t))?;
    if rules.kind(t) == Kind::General {
        reasons.push(Reason::new(
            "BC-HIT-4",
            "a general alone is eliminated by at least one sabers",
        ));
    }
    Ok(reasons)
}

/// BC-BAT-1: every battle the active side may fight now: the gates of [`check_battle`]
/// (the battler's, the target's and the dice's), each unit that may battle against each
/// target, in scenario order.
pub(crate) fn legal_battles(rules: &BattleCry, state: &State, out: &mut Vec<Action>) {
    if state.phase != Phase::Battle {
        return;
    }
    // The board is built once a unit may battle: after the last battle of a turn none
    // does, and the list is the end of the turn alone.
    let mut board = None;
    // Only the active side battles (BC-ORD-1), and only the other side's pieces are
    // targets (BC-BAT-1). Most pieces are not ordered: the kept orders name those that
    // are (`may_battle_own` asks again).
    for u in ordered_of(rules, state, state.active) {
        if !may_battle_own(rules, state, u) {
            continue;
        }
        let board = board.get_or_insert_with(|| Board::new(rules, state));
        if !Battler::may_have_targets(rules, board, u) {
            continue;
        }
        let Some(b) = Battler::new(rules, state, board, u, true) else {
            continue;
        };
        if let Some(mut targets) = b.targets_in_range(rules, board) {
            debug_assert_eq!(
                targets,
                rules
                    .side_ids(state.active ^ 1)
                    .filter(
                        |&t| state.pieces[t.index()].hex.is_some_and(|to| b.in_range(to))
                            && is_target(rules, state, board, u, t)
                    )
                    .fold(0, |a, t| a | 1 << t.index()),
                "the targets in range"
            );
            // In scenario order, as below.
            while targets != 0 {
                let t = UnitId(targets.trailing_zeros() as u16);
                targets &= targets - 1;
                if b.count(rules, state, board, t).is_ok() {
                    out.push(Action::Battle { unit: u, target: t });
                }
            }
            continue;
        }
        for t in rules.side_ids(state.active ^ 1) {
            // Most enemies are out of range (BC-RNG-1 to BC-RNG-3): asked first.
            if state.pieces[t.index()].hex.is_some_and(|to| b.in_range(to))
                && is_target(rules, state, board, u, t)
                && b.count(rules, state, board, t).is_ok()
            {
                out.push(Action::Battle { unit: u, target: t });
            }
        }
    }
}

/// Battles: unit `u` rolls `n` dice against `t`. Hits first, then retreats (BC-HIT-6).
pub(crate) fn battle(
    rules: &BattleCry,
    state: &mut State,
    u: UnitId,
    t: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    let board = Board::new(rules, state);
    let Ok(d) = count(rules, state, &board, Engagement::battle(u, t)) else {
        return;
    };
    state.pieces[u.index()].battled = true;
    resolve(rules, state, board, u, t, d, false, ctx);
}

/// Rolls and applies a battle; `fight_back` when it is a Fight Back (BC-CARD-8).
/// `board` is who stands where as the dice are rolled: the caller's, built for the dice
/// count, no piece having moved since; it is let go of before the hits, so that the
/// boards built after them start from it.
#[expect(
    clippy::too_many_arguments,
    reason = "the battle, its dice, and the board they were counted on"
)]
pub(crate) fn resolve(
    rules: &BattleCry,
    state: &mut State,
    board: Board,
    u: UnitId,
    t: UnitId,
    d: DiceCount,
    fight_back: bool,
    ctx: &mut Ctx<'_, Event>,
) {
    let from = state.pieces[t.index()].hex.expect("on the map");
    let alone = rules.kind(t) == Kind::General;
    // The general attached to the target as the dice are rolled (BC-GEN-5).
    let general = if alone {
        None
    } else {
        board.general_at(rules, from)
    };
    drop(board);
    // BC-HIT-1, BC-HIT-4: the symbols that hit the target: sabers, and the target's own
    // unless it is a general alone.
    let matching = if alone {
        Face::Sabers
    } else {
        hits::matching(rules.kind(t))
    };
    let (faces, [sabers, flags, matched]) = roll_battle_dice(
        rules,
        u,
        t,
        d.total,
        [Face::Sabers, Face::Flag, matching],
        ctx,
    );
    let hits = if alone {
        // BC-HIT-4: a general alone is hit by sabers only.
        u8::from(sabers > 0)
    } else {
        // BC-HIT-1: a hit for each matching symbol and each sabers.
        matched + sabers
    };
    ctx.emit_with(|| Event::Battled {
        unit: u,
        target: t,
        dice: d.total,
        faces,
        hits,
        flags,
        rules: BattleRules::new(rules, state, u, &d, fight_back, alone),
    });
    if alone {
        // Ground is taken from an enemy unit, not from a general alone (BC-GEN-7).
        if hits > 0 {
            hits::eliminate(
                rules,
                state,
                t,
                "BC-HIT-4",
                "a general alone rolled a sabers against",
                ctx,
            );
        } else if flags > 0 {
            // BC-GEN-6: it "may ignore one retreat flag": its side chooses.
            state.pending = Some(Pending::Embolden {
                unit: t,
                flags,
                battler: u,
                fight_back,
                from,
                alone: true,
            });
        }
        return;
    }
    let eliminated = hits::remove_figures(rules, state, t, hits, "BC-HIT-2", ctx);
    if victory::decided(rules, state) {
        return;
    }
    // BC-GEN-5: a unit with an attached general "may ignore one retreat flag" each time
    // it is attacked: after the hits (BC-HIT-6) its side chooses. BC-HIT-5: spare sabers
    // do not touch the general; BC-RET-8: it makes the retreat moves of its eliminated
    // unit, and so has the unit's choice.
    if let Some(g) = general.filter(|_| flags > 0) {
        state.pending = Some(Pending::Embolden {
            unit: if eliminated { g } else { t },
            flags,
            battler: u,
            fight_back,
            from,
            alone: false,
        });
        return;
    }
    after_flags(rules, state, t, flags, u, fight_back, from, false, ctx);
}

/// What follows the flags once any is ignored: `owed` retreat moves for `unit` (the
/// attacked piece, or the general of an eliminated unit), then taking ground (BC-GEN-7)
/// or the Fight Back window (BC-CARD-8).
#[expect(
    clippy::too_many_arguments,
    reason = "the fields of Pending::Embolden, passed whole"
)]
fn after_flags(
    rules: &BattleCry,
    state: &mut State,
    unit: UnitId,
    owed: u8,
    battler: UnitId,
    fight_back: bool,
    from: Hex,
    alone: bool,
    ctx: &mut Ctx<'_, Event>,
) {
    if alone {
        // Ground is taken from an enemy unit, not from a general alone (BC-GEN-7).
        if owed > 0 {
            retreat::begin(rules, state, unit, owed, None, from, ctx);
        }
        return;
    }
    let attacker = (!fight_back).then_some(battler);
    if state.pieces[unit.index()].hex.is_none() {
        // The unit was eliminated and had no general to retreat for it.
        generals::after_vacated(rules, state, attacker, from);
    } else if rules.kind(unit) == Kind::General {
        // BC-RET-8: the general of an eliminated unit makes its retreat moves.
        if owed > 0 {
            retreat::begin(rules, state, unit, owed, attacker, from, ctx);
        } else {
            generals::after_vacated(rules, state, attacker, from);
        }
    } else if owed > 0 {
        retreat::begin(rules, state, unit, owed, attacker, from, ctx);
    } else if !fight_back {
        fight_back_window(rules, state, unit, battler);
    }
}

/// BC-GEN-5, BC-GEN-6: checks ignoring one retreat flag.
pub(crate) fn check_ignore_flag(rules: &BattleCry, state: &State) -> Result<Vec<Reason>, Refusal> {
    let Some(Pending::Embolden {
        unit, flags, alone, ..
    }) = state.pending
    else {
        return Err(Refusal::new(
            "BC-GEN-5",
            "a flag is ignored only just after a unit with an attached general, or a general alone, was attacked and flags were rolled",
        ));
    };
    let left = flags - 1;
    let rule = if alone { "BC-GEN-6" } else { "BC-GEN-5" };
    let why = if alone {
        "a general alone, attacked, may ignore one retreat flag"
    } else {
        "Embolden: a unit with an attached general may ignore one retreat flag"
    };
    Ok(vec![
        Reason::new(rule, why),
        Reason::new(
            "BC-RET-1",
            format!(
                "{} then retreats {left} hex{} instead of {flags}",
                rules.who(unit),
                if left == 1 { "" } else { "es" }
            ),
        ),
    ])
}

/// BC-GEN-5, BC-GEN-6: settles the flags of a battle: one ignored when `ignore`, then
/// the retreat owed.
pub(crate) fn settle_flags(
    rules: &BattleCry,
    state: &mut State,
    ignore: bool,
    ctx: &mut Ctx<'_, Event>,
) {
    let Some(Pending::Embolden {
        unit,
        flags,
        battler,
        fight_back,
        from,
        alone,
    }) = state.pending.take()
    else {
        return;
    };
    let owed = flags - u8::from(ignore);
    if ignore {
        ctx.emit_with(|| Event::FlagIgnored {
            unit,
            left: owed,
            rule: if alone { "BC-GEN-6" } else { "BC-GEN-5" }.into(),
        });
    }
    after_flags(
        rules, state, unit, owed, battler, fight_back, from, alone, ctx,
    );
}

/// BC-CARD-8: after unit `attacker` battled `unit`, which was neither eliminated nor
/// forced to retreat, its side may fight back if its unit can battle the attacker. The
/// window opens whatever the side holds, so that it tells nothing of its hand.
fn fight_back_window(rules: &BattleCry, state: &mut State, unit: UnitId, attacker: UnitId) {
    if state.fight_back.is_some()
        || victory::decided(rules, state)
        || state.pieces[attacker.index()].hex.is_none()
    {
        return;
    }
    let board = Board::new(rules, state);
    if count(rules, state, &board, Engagement::fight_back(unit, attacker)).is_ok() {
        state.pending = Some(Pending::FightBack {
            unit,
            target: attacker,
        });
    }
}

/// Checks ending the battles (and the turn).
pub(crate) fn check_end_turn(state: &State) -> Result<Vec<Reason>, Refusal> {
    if state.phase != Phase::Battle {
        return Err(Refusal::new(
            "BC-TURN-2",
            format!(
                "the turn ends after the battles, not in the {} step",
                state.phase.name()
            ),
        ));
    }
    Ok(vec![Reason::new(
        "BC-CARD-3",
        "discard the card played and draw another; the turn is over",
    )])
}
