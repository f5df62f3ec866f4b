//! The combat phase: the six-symbol die, dice by troop type and distance, line of fire,
//! terrain, support, losses and the exact odds of an attack before it is rolled.

use super::data::Face;
use super::sequence::{in_phase, NotNow};
use super::{orders, retreat, victory, Action, Board, Event, Jomini, Phase, State};
use crate::commands_colors::dice::{adjacent_enemy, at_range, battles, tally};
use crate::commands_colors::losses;
use grognard_engine::dice_pool;
use grognard_engine::{Ctx, Preview, Reason, Refusal, UnitId};
use grognard_hex::los::{steps, visible, LineStep};
use grognard_hex::{Direction, Hex};
use std::collections::BTreeMap;

/// The dice of one attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DiceCount {
    pub distance: u32,
    /// Dice for the troop type at that distance (JO-COM-2).
    pub range: u8,
    /// Lost to the target's terrain (JO-COM-5).
    pub protection: u8,
    /// Lost by horse artillery for the hexes it moved (JO-MOV-12).
    pub moved: u8,
    /// Lost to the camels' shelter at close quarters (JO-MOV-20).
    pub camels: u8,
    /// Lost to the wagons' palisade (JO-MOV-22).
    pub wagons: u8,
    /// Dice rolled.
    pub total: u8,
}

/// Why a unit may not attack a target, before any message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Officer,
    Range(u32),
    Adjacent(UnitId),
    Sight,
    NoDice,
}

/// JO-MOV-20: infantry riding camels is sheltered by them at close quarters.
fn camels(rules: &Jomini, t: UnitId) -> bool {
    rules.piece(t).mounts.as_deref() == Some("camels")
}

/// JO-MOV-22: infantry on wagons that did not move in its last movement phase is
/// behind a palisade.
fn palisade(rules: &Jomini, state: &State, t: UnitId) -> bool {
    rules.piece(t).mounts.as_deref() == Some("wagons") && state.pieces[t.index()].still
}

fn sight_blocked(rules: &Jomini, board: &Board, h: Hex) -> bool {
    board.occupied(rules, h) || rules.info(h).is_some_and(|i| i.blocks_sight)
}

/// JO-COM-2 to JO-COM-5: the dice `u` rolls against `t`.
fn count(
    rules: &Jomini,
    state: &State,
    board: &Board,
    u: UnitId,
    t: UnitId,
) -> Result<DiceCount, Block> {
    let me = rules.piece(u);
    if me.officer {
        return Err(Block::Officer);
    }
    let from = state.pieces[u.index()].hex.expect("on the table");
    let to = state.pieces[t.index()].hex.expect("on the table");
    let distance = from.distance(to);
    let Some(range) = at_range(&me.row.dice, distance) else {
        return Err(Block::Range(distance));
    };
    if distance > 1 {
        let enemy_at = |h| {
            board
                .unit_at(rules, h)
                .filter(|&e| rules.side_of(e) != me.side)
        };
        if let Some(e) = adjacent_enemy(from, enemy_at) {
            return Err(Block::Adjacent(e));
        }
        if !visible(from, to, |h| sight_blocked(rules, board, h)) {
            return Err(Block::Sight);
        }
    }
    let protection = rules.info(to).map_or(0, |i| i.protection);
    let moved = if me.allowance.loses_die {
        state.pieces[u.index()].hexes
    } else {
        0
    };
    // JO-MOV-20, JO-MOV-22: the mounts' shelter, provisional sizes in `data.toml`.
    let mounts = &rules.data.mounts;
    let camels = if distance == 1 && camels(rules, t) {
        mounts.camels
    } else {
        0
    };
    let wagons = if palisade(rules, state, t) {
        mounts.wagons
    } else {
        0
    };
    let total = range
        .saturating_sub(protection)
        .saturating_sub(moved)
        .saturating_sub(camels)
        .saturating_sub(wagons);
    if total == 0 {
        return Err(Block::NoDice);
    }
    Ok(DiceCount {
        distance,
        range,
        protection,
        moved,
        camels,
        wagons,
        total,
    })
}

impl Block {
    fn refusal(
        self,
        rules: &Jomini,
        state: &State,
        board: &Board,
        u: UnitId,
        t: UnitId,
    ) -> Refusal {
        let from = state.pieces[u.index()].hex.expect("on the table");
        let to = state.pieces[t.index()].hex.expect("on the table");
        match self {
            Block::Officer => Refusal::new("JO-COM-1", "officers lead; they do not fight"),
            Block::Range(d) => Refusal::new(
                "JO-COM-2",
                format!(
                    "{} is {d} hexes away; {} fights at up to {} hex(es)",
                    rules.label(to),
                    rules.who(u),
                    rules.piece(u).row.dice.len()
                ),
            ),
            Block::Adjacent(e) => Refusal::new(
                "JO-COM-4",
                format!(
                    "{} is next to the enemy {}: it fights the enemy in contact",
                    rules.who(u),
                    rules.who(e)
                ),
            ),
            Block::Sight => {
                let h = steps(from, to)
                    .find_map(|s| match s {
                        LineStep::Hex(h)
                            if h != from && h != to && sight_blocked(rules, board, h) =>
                        {
                            Some(h)
                        }
                        _ => None,
                    })
                    .map_or_else(
                        || "a hexside between two obstacles".to_owned(),
                        |h| format!("{} ({})", rules.label(h), rules.terrain_name(h)),
                    );
                Refusal::new(
                    "JO-COM-3",
                    format!(
                        "the line of fire from {} to {} is blocked at {h}",
                        rules.label(from),
                        rules.label(to)
                    ),
                )
            }
            Block::NoDice => Refusal::new("JO-COM-5", "terrain and movement leave no die to roll"),
        }
    }
}

/// [`count`], with the rules that set the dice.
fn dice(
    rules: &Jomini,
    state: &State,
    board: &Board,
    u: UnitId,
    t: UnitId,
) -> Result<(DiceCount, Vec<Reason>), Refusal> {
    let d = count(rules, state, board, u, t).map_err(|b| b.refusal(rules, state, board, u, t))?;
    let to = state.pieces[t.index()].hex.expect("on the table");
    let mut v = vec![Reason::new(
        "JO-COM-2",
        format!(
            "{} at {} hex(es): {} dice",
            rules.who(u),
            d.distance,
            d.range
        ),
    )];
    if d.distance > 1 {
        v.push(Reason::new("JO-COM-3", "the line of fire is clear"));
    }
    if d.protection > 0 {
        v.push(Reason::new(
            "JO-COM-5",
            format!(
                "-{} for the target in {}",
                d.protection,
                rules.terrain_name(to)
            ),
        ));
    }
    if d.moved > 0 {
        v.push(Reason::new(
            "JO-MOV-12",
            format!("-{} for the hexes it moved", d.moved),
        ));
    }
    if d.camels > 0 {
        v.push(Reason::new(
            "JO-MOV-20",
            format!("-{}: the camels shelter their infantry", d.camels),
        ));
    }
    if d.wagons > 0 {
        v.push(Reason::new(
            "JO-MOV-22",
            format!("-{}: the wagons stood still and make a palisade", d.wagons),
        ));
    }
    v.push(Reason::new("JO-COM-2", format!("{} dice", d.total)));
    Ok((d, v))
}

/// JO-COM-9, JO-COM-10: whether `t` is supported: next to two friendly units, or
/// infantry in a built-up area.
pub(crate) fn supported(
    rules: &Jomini,
    state: &State,
    board: &Board,
    t: UnitId,
) -> Option<&'static str> {
    let piece = rules.piece(t);
    let hex = state.pieces[t.index()].hex?;
    if piece.officer {
        return None;
    }
    if piece.infantry() && rules.info(hex).is_some_and(|i| i.built_up) {
        return Some("JO-COM-10");
    }
    let friends = hex
        .neighbors()
        .into_iter()
        .filter(|&h| {
            board
                .unit_at(rules, h)
                .is_some_and(|x| rules.side_of(x) == piece.side)
        })
        .count();
    (friends >= 2).then_some("JO-COM-9")
}

/// JO-COM-6: the face that hits a target of this type; tactical advantage hits at close
/// quarters, and is the only face that hits an officer alone (provisional).
fn hits(rules: &Jomini, t: UnitId, distance: u32, f: Face) -> bool {
    let p = rules.piece(t);
    if p.officer {
        return f == Face::Advantage;
    }
    let symbol = if p.artillery() {
        Face::Artillery
    } else if p.infantry() {
        Face::Infantry
    } else {
        Face::Cavalry
    };
    f == symbol || (f == Face::Advantage && distance == 1)
}

/// Why `u` may not attack now, whatever the target, before any message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoAttack {
    NotNow(NotNow),
    NotYours,
    Gone,
    Officer,
    NotActivated,
    Attacked,
    Scouted,
    RoadMarch,
    MovedTooFar,
}

/// JO-COM-1: whether `u` may attack now, whatever the target; cheap, for the legal list
/// and the check alike.
fn can_attack(rules: &Jomini, state: &State, u: UnitId) -> Result<(), NoAttack> {
    in_phase(state, Phase::Combat).map_err(NoAttack::NotNow)?;
    if u.index() >= rules.pieces.len() || rules.side_of(u) != state.active {
        return Err(NoAttack::NotYours);
    }
    let p = &state.pieces[u.index()];
    if p.hex.is_none() {
        return Err(NoAttack::Gone);
    }
    if rules.piece(u).officer {
        return Err(NoAttack::Officer);
    }
    if p.group.is_none() {
        return Err(NoAttack::NotActivated);
    }
    if p.attacked {
        return Err(NoAttack::Attacked);
    }
    if p.no_combat {
        return Err(if p.scout {
            NoAttack::Scouted
        } else if p.hexes > super::movement::limits(rules, state, u).max {
            NoAttack::RoadMarch
        } else {
            NoAttack::MovedTooFar
        });
    }
    Ok(())
}

/// Why `u` may not attack now, whatever the target (JO-COM-1).
fn check_attacker(rules: &Jomini, state: &State, u: UnitId) -> Result<(), Refusal> {
    let who = || rules.who(u);
    can_attack(rules, state, u).map_err(|why| match why {
        NoAttack::NotNow(n) => n.refusal("JO-MOV-8", |p| {
            format!("combat comes after movement, not in the {p} phase")
        }),
        NoAttack::NotYours => Refusal::new("JO-COM-1", "not one of your units"),
        NoAttack::Gone => Refusal::new("JO-COM-1", format!("{} is not on the table", who())),
        NoAttack::Officer => Refusal::new("JO-COM-1", "officers lead; they do not fight"),
        NoAttack::NotActivated => Refusal::new("JO-COM-1", format!("{} was not activated", who())),
        NoAttack::Attacked => Refusal::new(
            "JO-COM-1",
            format!("{} has attacked this turn: once a turn", who()),
        ),
        NoAttack::Scouted => Refusal::new("JO-ORD-5", format!("{}: it scouted: no combat", who())),
        NoAttack::RoadMarch => Refusal::new(
            "JO-MOV-17",
            format!(
                "{}: it marched on the road: no combat after a road march",
                who()
            ),
        ),
        NoAttack::MovedTooFar => Refusal::new(
            "JO-MOV-10",
            format!(
                "{}: it moved {} hex(es), more than it may and still fight",
                who(),
                state.pieces[u.index()].hexes
            ),
        ),
    })
}

fn is_target(rules: &Jomini, state: &State, board: &Board, u: UnitId, t: UnitId) -> bool {
    t.index() < rules.pieces.len()
        && rules.side_of(t) != rules.side_of(u)
        && state.pieces[t.index()]
            .hex
            .is_some_and(|h| !rules.piece(t).officer || board.unit_at(rules, h).is_none())
}

/// Checks an attack.
pub(crate) fn check_attack(
    rules: &Jomini,
    state: &State,
    u: UnitId,
    t: UnitId,
) -> Result<Vec<Reason>, Refusal> {
    check_attacker(rules, state, u)?;
    let board = Board::new(rules, state);
    if !is_target(rules, state, &board, u, t) {
        let why = if t.index() >= rules.pieces.len() || rules.side_of(t) == rules.side_of(u) {
            "not an enemy".to_owned()
        } else if state.pieces[t.index()].hex.is_none() {
            format!("{} is not on the table", rules.who(t))
        } else {
            format!("{} stands with a unit: attack the unit", rules.who(t))
        };
        return Err(Refusal::new("JO-COM-1", why));
    }
    let (_, mut reasons) = dice(rules, state, &board, u, t)?;
    if let Some(rule) = supported(rules, state, &board, t) {
        reasons.push(Reason::new(
            rule,
            "the target is supported: it ignores one flag",
        ));
    }
    if panics(rules, t) {
        reasons.push(Reason::new(
            "JO-MOV-21",
            "each stand it loses sets an elephant panicking, which tramples the piece, friend or foe, in the neighbouring hex a die gives (JO-PAN-1; not in the target's odds)",
        ));
    }
    Ok(reasons)
}

/// Every attack the active side may make now.
pub(crate) fn legal_attacks(rules: &Jomini, state: &State, out: &mut Vec<Action>) {
    let may_fight = |u| can_attack(rules, state, u).is_ok();
    // Once no unit may fight, only the end of the turn is left.
    if !rules.piece_ids().any(may_fight) {
        return;
    }
    let board = Board::new(rules, state);
    let fights =
        |u, t| is_target(rules, state, &board, u, t) && count(rules, state, &board, u, t).is_ok();
    battles(rules.pieces.len(), may_fight, fights, |unit, target| {
        out.push(Action::Attack { unit, target });
    });
}

/// JO-COM-7: removes up to `n` stands of `t`; true when it is eliminated. The stands lost
/// by infantry with elephant mounts each set an elephant panicking (JO-MOV-21).
pub(crate) fn lose(
    rules: &Jomini,
    state: &mut State,
    t: UnitId,
    n: u8,
    rule: &str,
    ctx: &mut Ctx<'_, Event>,
) -> bool {
    let at = state.pieces[t.index()].hex;
    let Some(losses::Loss { lost, left }) = losses::take(&mut state.pieces[t.index()].strength, n)
    else {
        return false;
    };
    ctx.emit_with(|| Event::Lost {
        unit: t,
        stands: lost,
        left,
        rule: rule.to_owned(),
    });
    if left == 0 {
        let p = &mut state.pieces[t.index()];
        p.hex = None;
        ctx.emit_with(|| Event::Eliminated {
            unit: t,
            rule: rule.to_owned(),
        });
        if !rules.piece(t).officer {
            state.eliminated[usize::from(1 - rules.side_of(t))] += 1;
        }
        victory::check(rules, state, ctx);
    }
    if let Some(at) = at.filter(|_| panics(rules, t)) {
        panic(rules, state, t, at, lost, ctx);
    }
    left == 0
}

/// JO-MOV-21, JO-PAN-2: whether the stands `t` loses set elephants panicking: infantry with
/// elephant mounts, riding them or not (the animals go with the unit); the elephant troop
/// type only if `data.toml` says so.
fn panics(rules: &Jomini, t: UnitId) -> bool {
    let p = rules.piece(t);
    p.mounts.as_deref() == Some("elephants")
        || (rules.data.panic.elephant_units && p.kind == "elephants")
}

/// JO-MOV-21: "un éléphant en panique pour chacune": `per_stand` panicking elephants for
/// each of the `lost` stands of `t`, which stood in `at`. JO-PAN-1 (provisional): each bolts
/// out of `at` in the direction a die gives and tramples the piece in the hex it runs into,
/// friend or foe (a unit, or an officer alone), for `trample` stands. JO-PAN-3: they are
/// resolved at once, one after the other; a trampled unit's own elephants panic in turn
/// (every panic takes a stand, so this ends); once the game is won, no more are rolled.
fn panic(
    rules: &Jomini,
    state: &mut State,
    t: UnitId,
    at: Hex,
    lost: u8,
    ctx: &mut Ctx<'_, Event>,
) {
    let table = &rules.data.panic;
    let elephants = u32::from(lost) * u32::from(table.per_stand);
    for _ in 0..elephants {
        if state.outcome.is_some() {
            return;
        }
        let face = ctx.roll_for(6, || {
            format!(
                "JO-PAN-1: where the panicking elephant of {} bolts",
                rules.unit_name(t)
            )
        });
        let dir = Direction::ALL[usize::try_from(face - 1).unwrap_or(0) % 6];
        let to = at.neighbor(dir);
        let board = Board::new(rules, state);
        let trampled = board
            .unit_at(rules, to)
            .or_else(|| board.officer_at(rules, to));
        ctx.emit_with(|| Event::Panicked {
            unit: t,
            toward: rules.map.contains(to).then_some(to),
            trampled,
            rule: "JO-PAN-1".into(),
        });
        if let Some(v) = trampled {
            lose(rules, state, v, table.trample, "JO-PAN-1", ctx);
        }
    }
}

/// Rolls and applies an attack: hits first, then the retreat.
pub(crate) fn attack(
    rules: &Jomini,
    state: &mut State,
    u: UnitId,
    t: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    let board = Board::new(rules, state);
    let Ok(d) = count(rules, state, &board, u, t) else {
        return;
    };
    state.pieces[u.index()].attacked = true;
    let purpose = || {
        format!(
            "JO-DIE-1: combat die of {} against {}",
            rules.unit_name(u),
            rules.unit_name(t)
        )
    };
    let faces = dice_pool::roll(ctx, &rules.data.die.faces, u32::from(d.total), purpose);
    let hit = tally(&faces, |f| hits(rules, t, d.distance, f));
    let flags = tally(&faces, |f| f == Face::Flag);
    let letters = tally(&faces, |f| f == Face::Letter);
    let support = supported(rules, state, &board, t);
    let ignored = u8::from(support.is_some() && flags > 0);
    let mut rule_ids = vec!["JO-DIE-1".to_owned(), "JO-COM-2".into(), "JO-COM-6".into()];
    if let Some(r) = support.filter(|_| ignored > 0) {
        rule_ids.push(r.into());
    }
    if letters > 0 {
        rule_ids.push("JO-ORD-2".into());
    }
    ctx.emit_with(|| Event::Attacked {
        unit: u,
        target: t,
        faces,
        hits: hit,
        flags,
        ignored,
        letters,
        rules: rule_ids,
    });
    orders::letters(state, rules.side_of(u), letters);
    // A target trampled to death by panicking elephants (JO-PAN-3) owes no retreat.
    if lose(rules, state, t, hit, "JO-COM-7", ctx)
        || state.outcome.is_some()
        || state.pieces[t.index()].strength == 0
    {
        return;
    }
    let owed = (flags - ignored) * retreat::per_flag(rules, t);
    if owed > 0 {
        retreat::begin(rules, state, t, owed, ctx);
    }
}

/// JO-COM-11: the exact distribution of an attack's result on its target: stands lost (to hits, and
/// to retreat hexes that cannot be made), flags, retreat hexes made, elimination, and
/// order tokens won.
///
/// # Errors
/// The refusal of an illegal attack, or an action that rolls no dice.
pub fn preview(rules: &Jomini, state: &State, action: &Action) -> Result<Preview, Refusal> {
    let Action::Attack { unit: u, target: t } = *action else {
        return Err(Refusal::new(
            "JO-DIE-1",
            "only an attack rolls the combat dice",
        ));
    };
    let mut reasons = check_attack(rules, state, u, t)?;
    let board = Board::new(rules, state);
    let d = count(rules, state, &board, u, t).map_err(|b| b.refusal(rules, state, &board, u, t))?;
    let faces = &rules.data.die.faces;
    let class = |f: &Face| {
        if hits(rules, t, d.distance, *f) {
            0
        } else if *f == Face::Flag {
            1
        } else if *f == Face::Letter {
            2
        } else {
            3
        }
    };
    let classes = dice_pool::class_faces(faces, 4, class);
    let strength = state.pieces[t.index()].strength;
    let support = supported(rules, state, &board, t).is_some();
    let per_flag = retreat::per_flag(rules, t);
    let mut can_make: BTreeMap<u8, u8> = BTreeMap::new();
    let (tally, den) = dice_pool::distribution(&classes, u32::from(d.total), |c| {
        let hit = u8::try_from(c[0]).expect("few dice");
        let flags = u8::try_from(c[1]).expect("few dice");
        let letters = u8::try_from(c[2]).expect("few dice");
        if hit >= strength {
            return (strength, flags, 0, true, letters);
        }
        let owed = flags.saturating_sub(u8::from(support)) * per_flag;
        let made = *can_make
            .entry(owed)
            .or_insert_with(|| retreat::most(rules, state, &board, t, owed));
        let lost = (hit + owed - made).min(strength);
        (lost, flags, made, lost == strength, letters)
    });
    let outcomes = dice_pool::chances(&tally, den, |&(lost, flags, made, dead, letters)| {
        serde_json::json!({
            "lost": lost, "flags": flags, "retreat": made, "eliminated": dead, "tokens": letters,
        })
    });
    reasons.push(Reason::new(
        "JO-DIE-1",
        format!(
            "each die: {} of {} faces hit, {} a flag, {} an order letter",
            classes[0],
            faces.len(),
            classes[1],
            classes[2]
        ),
    ));
    reasons.push(Reason::new(
        "JO-RET-1",
        format!("{per_flag} hex(es) of retreat per flag"),
    ));
    Ok(Preview {
        roll: format!("{} combat dice", d.total),
        inputs: serde_json::json!({
            "unit": rules.piece(u).id,
            "target": rules.piece(t).id,
            "distance": d.distance,
            "range_dice": d.range,
            "terrain": d.protection,
            "moved": d.moved,
            "dice": d.total,
            "strength": strength,
            "supported": support,
        }),
        outcomes,
        reasons,
    })
}
