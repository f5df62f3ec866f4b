//! 4. Battle: range, battle dice, hits, and the exact odds of a battle before it is
//! rolled.

use super::data::Face;
use super::units::{Board, Kind};
use super::{
    cards, generals, line_of_sight, orders, retreat, turn, Action, BattleCry, Event, Pending,
    Phase, State,
};
use grognard_engine::{Chance, Ctx, Preview, Reason, Refusal, UnitId};
use grognard_hex::Hex;
use std::collections::BTreeMap;

/// The battle dice of one battle, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DiceCount {
    /// Hexes to the target.
    pub distance: u32,
    /// Dice for that range (BC-RNG-1 to BC-RNG-3).
    pub range: u8,
    /// Dice the target's terrain takes away (BC-TER-3).
    pub protection: u8,
    /// Dice the card played adds (BC-CARD-7, BC-CARD-2).
    pub bonus: u8,
    /// Dice rolled.
    pub total: u8,
    pub reasons: Vec<Reason>,
}

/// The rule giving a type's range and dice.
fn range_rule(kind: Kind) -> &'static str {
    match kind {
        Kind::Infantry => "BC-RNG-1",
        Kind::Artillery => "BC-RNG-2",
        Kind::Cavalry => "BC-RNG-3",
        Kind::General => "BC-GEN-4",
    }
}

/// BC-BAT-3: the dice `u` rolls battling `target`: by range, less the target's terrain,
/// plus the card played when `with_card` (not for Fight Back). Checks range (BC-RNG-1 to
/// BC-RNG-3), the adjacent enemy (BC-BAT-2) and line of sight (BC-LOS-1 to BC-LOS-3).
pub(crate) fn dice(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
    target: UnitId,
    with_card: bool,
) -> Result<DiceCount, Refusal> {
    let kind = rules.kind(u);
    if kind == Kind::General {
        return Err(Refusal::new("BC-GEN-4", "a general alone may not battle"));
    }
    let from = state.pieces[u.index()].hex.expect("on the map");
    let to = state.pieces[target.index()].hex.expect("on the map");
    let distance = from.distance(to);
    let table = &rules.row(u).dice;
    let Some(&range) = usize::try_from(distance)
        .ok()
        .and_then(|d| d.checked_sub(1))
        .and_then(|d| table.get(d))
    else {
        return Err(Refusal::new(
            range_rule(kind),
            format!(
                "{} is {distance} hexes away; {} battles at up to {} hex{}",
                rules.label(to),
                kind.name(),
                table.len(),
                if table.len() == 1 {
                    " (adjacent only)"
                } else {
                    "es"
                }
            ),
        ));
    };
    let side = rules.side_of(u);
    if distance > 1 {
        let adjacent = from.neighbors().into_iter().find_map(|h| {
            board
                .unit_at(rules, h)
                .filter(|&e| rules.side_of(e) != side)
        });
        if let Some(e) = adjacent {
            return Err(Refusal::new(
                "BC-BAT-2",
                format!(
                    "{} is adjacent to the enemy {}: it may not battle a more distant enemy",
                    rules.who(u),
                    rules.who(e)
                ),
            ));
        }
        if !line_of_sight::sees(rules, board, from, to) {
            return Err(Refusal {
                reasons: vec![line_of_sight::blocked_by(rules, board, from, to)],
            });
        }
    }
    let (protection, mut terrain) = rules.protection(from, to);
    let base = range.saturating_sub(protection);
    let (bonus, why) = if with_card {
        cards::bonus_dice(rules, state, board, u)
    } else {
        (0, None)
    };
    let total = base + bonus;
    if total == 0 {
        return Err(Refusal::new(
            "BC-BAT-4",
            format!("{range} dice at {distance} hexes, less {protection} for the target's terrain, leaves none to roll"),
        ));
    }
    let mut reasons = vec![Reason::new(
        range_rule(kind),
        format!(
            "{} at {distance} hex{}: {range} dice",
            kind.name(),
            if distance == 1 { "" } else { "es" }
        ),
    )];
    reasons.append(&mut terrain);
    reasons.extend(why);
    reasons.push(Reason::new(
        "BC-BAT-3",
        format!("{range} - {protection} + {bonus} = {total} dice"),
    ));
    Ok(DiceCount {
        distance,
        range,
        protection,
        bonus,
        total,
        reasons,
    })
}

/// BC-BAT-1: checks that unit `u` may battle now, whatever its target.
fn check_battler(rules: &BattleCry, state: &State, u: UnitId) -> Result<(), Refusal> {
    match state.phase {
        Phase::Battle => {}
        Phase::Movement => {
            return Err(Refusal::new(
                "BC-MOV-2",
                "battles come after all moves are completed",
            ));
        }
        p => {
            return Err(Refusal::new(
                "BC-TURN-2",
                format!("battles come after the moves, not in the {} step", p.name()),
            ));
        }
    }
    let who = rules.who(u);
    if rules.side_of(u) != state.active {
        return Err(Refusal::new("BC-ORD-1", format!("{who} is not yours")));
    }
    if rules.kind(u) == Kind::General {
        return Err(Refusal::new(
            "BC-GEN-4",
            "a general may not battle; an attached general adds no dice",
        ));
    }
    let p = &state.pieces[u.index()];
    if p.hex.is_none() {
        return Err(Refusal::new(
            "BC-ORD-1",
            format!("{who} has been eliminated"),
        ));
    }
    if !orders::is_ordered(state, u) {
        return Err(Refusal::new(
            "BC-ORD-1",
            format!("{who} is not ordered: only ordered units battle"),
        ));
    }
    if p.battled {
        return Err(Refusal::new(
            "BC-BAT-1",
            format!("{who} has battled this turn: once a turn"),
        ));
    }
    if p.moved && !rules.row(u).battle_after_move {
        return Err(Refusal::new(
            "BC-MOV-5",
            format!("{who} moved this turn: artillery moves or battles"),
        ));
    }
    if p.waded {
        return Err(Refusal::new(
            "BC-TER-6",
            format!(
                "{who} entered {} this turn and may not battle",
                rules.terrain_name(p.hex.expect("on the map"))
            ),
        ));
    }
    Ok(())
}

/// Checks a target: an enemy unit, or an enemy general alone in its hex (BC-HIT-4).
fn check_target(
    rules: &BattleCry,
    state: &State,
    board: &Board,
    u: UnitId,
    t: UnitId,
) -> Result<(), Refusal> {
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
    if rules.kind(t) == Kind::General {
        if let Some(unit) = board.unit_at(rules, hex) {
            return Err(Refusal::new(
                "BC-HIT-4",
                format!(
                    "{} is attached to {}: a general is attacked only when alone; battle the unit",
                    rules.who(t),
                    rules.who(unit)
                ),
            ));
        }
    }
    Ok(())
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
    let d = dice(rules, state, &board, u, t, true)?;
    let mut reasons = d.reasons;
    if rules.kind(t) == Kind::General {
        reasons.push(Reason::new(
            "BC-HIT-4",
            "a general alone is eliminated by at least one sabers",
        ));
    }
    Ok(reasons)
}

/// Every battle the active side may fight now.
pub(crate) fn legal_battles(rules: &BattleCry, state: &State, out: &mut Vec<Action>) {
    let board = Board::new(rules, state);
    for u in rules.piece_ids() {
        if rules.side_of(u) != state.active || check_battler(rules, state, u).is_err() {
            continue;
        }
        for t in rules.piece_ids() {
            if check_target(rules, state, &board, u, t).is_ok()
                && dice(rules, state, &board, u, t, true).is_ok()
            {
                out.push(Action::Battle { unit: u, target: t });
            }
        }
    }
}

/// The face a d6 result shows (BC-DIE-1).
fn face(rules: &BattleCry, value: u32) -> Face {
    rules.data.dice.faces[value as usize - 1]
}

/// The face that hits a unit of this kind.
fn matching(kind: Kind) -> Face {
    match kind {
        Kind::Infantry => Face::Infantry,
        Kind::Cavalry => Face::Cavalry,
        Kind::Artillery => Face::Artillery,
        Kind::General => Face::Sabers,
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
    let Ok(d) = dice(rules, state, &board, u, t, true) else {
        return;
    };
    state.pieces[u.index()].battled = true;
    resolve(rules, state, u, t, d, false, ctx);
}

/// Rolls and applies a battle; `fight_back` when it is a Fight Back (BC-CARD-8).
pub(crate) fn resolve(
    rules: &BattleCry,
    state: &mut State,
    u: UnitId,
    t: UnitId,
    d: DiceCount,
    fight_back: bool,
    ctx: &mut Ctx<'_, Event>,
) {
    let board = Board::new(rules, state);
    let purpose = format!(
        "BC-DIE-1: battle die of {} against {}",
        rules.unit_name(u),
        rules.unit_name(t)
    );
    let faces: Vec<Face> = (0..d.total)
        .map(|_| face(rules, ctx.roll(6, purpose.as_str())))
        .collect();
    let count =
        |f: Face| u8::try_from(faces.iter().filter(|&&x| x == f).count()).expect("few dice");
    let (sabers, flags) = (count(Face::Sabers), count(Face::Flag));
    let from = state.pieces[t.index()].hex.expect("on the map");
    let attacker = (!fight_back).then_some(u);
    let mut rule_ids: Vec<String> = d.reasons.iter().map(|r| r.rule.clone()).collect();
    if fight_back {
        rule_ids.push("BC-CARD-8".into());
    }
    if rules.kind(t) == Kind::General {
        // BC-HIT-4: a general alone is hit by sabers only; BC-GEN-6: it ignores one flag.
        let hit = sabers > 0;
        let ignored = u8::from(!hit && flags > 0);
        rule_ids.push("BC-HIT-4".into());
        if ignored > 0 {
            rule_ids.push("BC-GEN-6".into());
        }
        ctx.emit(Event::Battled {
            unit: u,
            target: t,
            dice: d.total,
            faces,
            hits: u8::from(hit),
            flags,
            ignored,
            rules: rule_ids,
        });
        if hit {
            eliminate(
                rules,
                state,
                t,
                "BC-HIT-4",
                "a general alone rolled a sabers against",
                ctx,
            );
            if state.outcome.is_none() {
                generals::after_vacated(rules, state, attacker, from);
            }
        } else if flags > ignored {
            retreat::begin(rules, state, t, flags - ignored, attacker, from, ctx);
        }
        return;
    }
    // BC-HIT-1: a hit for each matching symbol and each sabers.
    let hits = count(matching(rules.kind(t))) + sabers;
    let general = board.general_at(rules, from);
    // BC-GEN-5: a unit with an attached general ignores one flag each time it is attacked.
    let ignored = u8::from(general.is_some() && flags > 0);
    rule_ids.push("BC-HIT-1".into());
    if ignored > 0 {
        rule_ids.push("BC-GEN-5".into());
    }
    ctx.emit(Event::Battled {
        unit: u,
        target: t,
        dice: d.total,
        faces,
        hits,
        flags,
        ignored,
        rules: rule_ids,
    });
    let owed = flags - ignored;
    if remove_figures(rules, state, t, hits, "BC-HIT-2", ctx) {
        if state.outcome.is_some() {
            return;
        }
        // BC-HIT-5: spare sabers do not touch the general; BC-RET-8: it makes the
        // retreat moves of its eliminated unit.
        match general {
            Some(g) if owed > 0 => retreat::begin(rules, state, g, owed, attacker, from, ctx),
            _ => generals::after_vacated(rules, state, attacker, from),
        }
        return;
    }
    if owed > 0 {
        retreat::begin(rules, state, t, owed, attacker, from, ctx);
    } else if !fight_back {
        fight_back_window(rules, state, t, u);
    }
}

/// BC-HIT-2, BC-HIT-3: removes up to `n` figures of unit `t`, the flag bearer last; extra
/// hits are wasted. True when the unit is eliminated.
pub(crate) fn remove_figures(
    rules: &BattleCry,
    state: &mut State,
    t: UnitId,
    n: u8,
    rule: &str,
    ctx: &mut Ctx<'_, Event>,
) -> bool {
    let p = &mut state.pieces[t.index()];
    let lost = n.min(p.figures);
    if lost == 0 {
        return false;
    }
    p.figures -= lost;
    let left = p.figures;
    ctx.emit(Event::Lost {
        unit: t,
        figures: lost,
        left,
        rule: rule.to_owned(),
    });
    if left == 0 {
        eliminate(
            rules,
            state,
            t,
            rule,
            "its flag bearer, the last figure, was removed",
            ctx,
        );
        return true;
    }
    false
}

/// Removes a unit or general from the battlefield; the enemy collects its flag
/// (BC-HIT-2, BC-HIT-4, BC-VIC-1).
pub(crate) fn eliminate(
    rules: &BattleCry,
    state: &mut State,
    t: UnitId,
    rule: &str,
    reason: &str,
    ctx: &mut Ctx<'_, Event>,
) {
    let p = &mut state.pieces[t.index()];
    p.hex = None;
    p.figures = 0;
    ctx.emit(Event::Eliminated {
        unit: t,
        rule: rule.to_owned(),
        reason: reason.to_owned(),
    });
    let side = 1 - rules.side_of(t);
    state.flags[usize::from(side)] += 1;
    ctx.emit(Event::FlagTaken {
        side: rules.side_name(side).to_owned(),
        flags: state.flags[usize::from(side)],
    });
    turn::check_victory(rules, state, ctx);
}

/// BC-CARD-8: after unit `attacker` battled `unit`, which was neither eliminated nor
/// forced to retreat, its side may fight back if its unit can battle the attacker. The
/// window opens whatever the side holds, so that it tells nothing of its hand.
fn fight_back_window(rules: &BattleCry, state: &mut State, unit: UnitId, attacker: UnitId) {
    if state.fight_back.is_some()
        || state.outcome.is_some()
        || state.pieces[attacker.index()].hex.is_none()
    {
        return;
    }
    let board = Board::new(rules, state);
    if dice(rules, state, &board, unit, attacker, false).is_ok() {
        state.pending = Some(Pending::FightBack {
            unit,
            target: attacker,
        });
    }
}

/// Checks playing Fight Back in its window.
pub(crate) fn check_fight_back(rules: &BattleCry, state: &State) -> Result<Vec<Reason>, Refusal> {
    let Some(Pending::FightBack { unit, target }) = state.pending else {
        return Err(Refusal::new(
            "BC-CARD-8",
            "Fight Back is played only just after an enemy unit battled one of yours",
        ));
    };
    let side = rules.side_of(unit);
    if cards::fight_back_card(state, side).is_none() {
        return Err(Refusal::new(
            "BC-CARD-8",
            format!("{} holds no Fight Back card", rules.side_name(side)),
        ));
    }
    let board = Board::new(rules, state);
    let d = dice(rules, state, &board, unit, target, false)?;
    let mut reasons = vec![Reason::new(
        "BC-CARD-8",
        format!(
            "{} battles {}, which just attacked it",
            rules.who(unit),
            rules.who(target)
        ),
    )];
    reasons.extend(d.reasons);
    reasons.push(Reason::new(
        "BC-GEN-8",
        "a unit that fights back does not take ground",
    ));
    Ok(reasons)
}

/// BC-CARD-8: plays Fight Back: the attacked unit battles its attacker.
pub(crate) fn fight_back(rules: &BattleCry, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    let Some(Pending::FightBack { unit, target }) = state.pending.take() else {
        return;
    };
    let side = rules.side_of(unit);
    let Some(card) = cards::fight_back_card(state, side) else {
        return;
    };
    cards::take(&mut state.hands[usize::from(side)], card);
    state.fight_back = Some(card);
    ctx.emit(Event::CardPlayed {
        side: rules.side_name(side).to_owned(),
        card,
        rule: "BC-CARD-8".into(),
    });
    let board = Board::new(rules, state);
    let Ok(d) = dice(rules, state, &board, unit, target, false) else {
        return;
    };
    resolve(rules, state, unit, target, d, true, ctx);
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

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn factorial(n: u64) -> u64 {
    (1..=n).product()
}

/// The exact distribution of a battle's result on its target: figures lost, flags
/// rolled, hexes of retreat owed (after a general's embolden) and whether it is eliminated.
///
/// # Errors
/// The refusal of an illegal battle, or an action that rolls no battle dice.
pub(crate) fn preview(
    rules: &BattleCry,
    state: &State,
    action: &Action,
) -> Result<Preview, Refusal> {
    let (u, t, d) = match action {
        Action::Battle { unit, target } => {
            super::turn::check(rules, state, action)?;
            let board = Board::new(rules, state);
            (
                *unit,
                *target,
                dice(rules, state, &board, *unit, *target, true)?,
            )
        }
        Action::FightBack => {
            check_fight_back(rules, state)?;
            let Some(Pending::FightBack { unit, target }) = state.pending else {
                return Err(Refusal::new("BC-CARD-8", "no Fight Back window is open"));
            };
            let board = Board::new(rules, state);
            (
                unit,
                target,
                dice(rules, state, &board, unit, target, false)?,
            )
        }
        _ => return Err(Refusal::new("BC-DIE-1", "only a battle rolls battle dice")),
    };
    let board = Board::new(rules, state);
    let target_hex: Hex = state.pieces[t.index()].hex.expect("on the map");
    let faces = &rules.data.dice.faces;
    let n = u64::from(d.total);
    let general_target = rules.kind(t) == Kind::General;
    let hit_face = |f: &Face| {
        if general_target {
            *f == Face::Sabers
        } else {
            *f == matching(rules.kind(t)) || *f == Face::Sabers
        }
    };
    let a = faces.iter().filter(|f| hit_face(f)).count() as u64;
    let b = faces.iter().filter(|&&f| f == Face::Flag).count() as u64;
    let c = 6 - a - b;
    let den = 6u64.pow(u32::from(d.total));
    let figures = state.pieces[t.index()].figures;
    let embolden = general_target || board.general_at(rules, target_hex).is_some();
    let mut dist: BTreeMap<(u8, u8, u8, bool), u64> = BTreeMap::new();
    for h in 0..=n {
        for f in 0..=(n - h) {
            let m = n - h - f;
            let ways = factorial(n) / (factorial(h) * factorial(f) * factorial(m));
            let num = ways * a.pow(h as u32) * b.pow(f as u32) * c.pow(m as u32);
            if num == 0 {
                continue;
            }
            let flags = u8::try_from(f).expect("few dice");
            let hits = u8::try_from(h).expect("few dice");
            let key = if general_target {
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
            };
            *dist.entry(key).or_default() += num;
        }
    }
    let outcomes = dist
        .into_iter()
        .map(|((lost, flags, retreat, eliminated), num)| {
            let g = gcd(num, den);
            Chance::new(
                serde_json::json!({
                    "hits": lost, "flags": flags, "retreat": retreat, "eliminated": eliminated,
                }),
                num / g,
                den / g,
            )
        })
        .collect();
    let mut reasons = d.reasons.clone();
    reasons.push(Reason::new(
        "BC-DIE-1",
        format!("each die: {a} of 6 faces hit, {b} of 6 a flag"),
    ));
    if embolden && !general_target {
        reasons.push(Reason::new(
            "BC-GEN-5",
            "the attached general ignores one flag",
        ));
    }
    if general_target {
        reasons.push(Reason::new("BC-GEN-6", "a general alone ignores one flag"));
    }
    Ok(Preview {
        roll: format!("{} battle dice", d.total),
        inputs: serde_json::json!({
            "unit": rules.unit_name(u),
            "target": rules.unit_name(t),
            "distance": d.distance,
            "range_dice": d.range,
            "terrain": d.protection,
            "card": d.bonus,
            "dice": d.total,
            "figures": figures,
        }),
        outcomes,
        reasons,
    })
}
