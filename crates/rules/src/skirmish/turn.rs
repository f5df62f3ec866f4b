//! The sequence of play (SK-TURN-1: the sides alternate active turns of missile,
//! movement, melee and morale phases), binding the rules to a scenario, the end of the
//! game (SK-TURN-3), and what each seat sees.

use super::characters::{CharState, Character};
use super::data::{Data, Source};
use super::{
    actions, charge, facing, maneuver, missile, morale, movement, reactions, Event, Skirmish, State,
};
use grognard_engine::scenario::{Edge, Problems, Scenario};
use grognard_engine::{Ctx, Dice, Names, Outcome, Reason, Refusal, UnitId};
use grognard_hex::Direction;
use serde::{Deserialize, Serialize};
use serde_json::json;

/// A phase of an active turn in which the active side decides. The missile phase passes
/// by itself when nobody can shoot (SK-MIS-1), and the morale phase asks nothing of the
/// players (SK-TURN-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Characters with missile weapons shoot (SK-MIS-1).
    Missile,
    /// Characters move, charge and react.
    Movement,
    /// Characters attack.
    Melee,
}

impl Phase {
    /// The phase's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Phase::Missile => "missile",
            Phase::Movement => "movement",
            Phase::Melee => "melee",
        }
    }
}

/// The number of the active turn, from 0: two a game turn.
pub(crate) fn half(state: &State) -> u32 {
    (state.turn - 1) * 2 + u32::from(state.active)
}

/// Binds the rules to a scenario: two sides, characters on the map, weapons that leave a
/// hand for their shield; every problem at once.
pub(super) fn build(s: &Scenario) -> Result<Skirmish, Problems> {
    let data = Data::shipped();
    let mut problems = Vec::new();
    let first = s.first_side.clone();
    let Some(second) = s.sides.iter().map(|x| x.id.clone()).find(|id| *id != first) else {
        return Err(Problems(vec![s.problem(
            s.sides.first().map(|x| x.loc).unwrap_or_default(),
            "a skirmish needs two sides",
        )]));
    };
    if s.sides.len() > 2 {
        problems.push(s.problem(s.sides[2].loc, "a skirmish has exactly two sides"));
    }
    let sides = [first, second];
    let side_index = |id: &str| u8::from(sides[1] == id);
    let mut chars = Vec::new();
    for u in &s.units {
        let Some(hex) = u.hex else {
            problems.push(s.problem(
                u.loc,
                format!(
                    "character `{}` must start on the map: a skirmish has no reinforcements",
                    u.id
                ),
            ));
            continue;
        };
        let weapon = u.text("weapon").unwrap_or("unarmed");
        if let (Some(w), Some(shield)) = (data.weapon.get(weapon), u.text("shield")) {
            if w.two_handed {
                problems.push(s.problem(
                    u.loc,
                    format!(
                        "character `{}` wields a two-handed weapon ({weapon}) and has no hand for its shield ({shield})",
                        u.id
                    ),
                ));
            }
        }
        if s.terrain_at(hex)
            .and_then(|t| data.terrain.get(t))
            .is_some_and(|r| r.impassable)
        {
            problems.push(s.problem(
                u.loc,
                format!(
                    "character `{}` stands on {}, which nobody enters",
                    u.id,
                    s.terrain_at(hex).unwrap_or("?")
                ),
            ));
        }
        chars.push(Character::from_unit(
            u,
            side_index(&u.side),
            hex,
            u.facing.unwrap_or(Direction::N),
        ));
    }
    for side in [0u8, 1] {
        if !chars.iter().any(|c| c.side == side) {
            problems.push(
                s.problem(
                    s.side(&sides[usize::from(side)])
                        .map(|x| x.loc)
                        .unwrap_or_default(),
                    format!("side `{}` has no character", sides[usize::from(side)]),
                ),
            );
        }
    }
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    // A character with no facing in the file faces its nearest enemy.
    let starts: Vec<_> = chars.iter().map(|c| (c.side, c.start)).collect();
    for (c, u) in chars.iter_mut().zip(&s.units) {
        if u.facing.is_none() {
            let enemy = starts
                .iter()
                .filter(|(side, _)| *side != c.side)
                .map(|(_, h)| *h)
                .min_by_key(|h| (h.distance(c.start), s.map.index(*h)));
            if let Some(e) = enemy {
                c.facing = facing::toward(c.start, e, c.facing);
            }
        }
    }
    let home = [0u8, 1].map(|i| {
        let side = s.side(&sides[usize::from(i)]).expect("validated side");
        side.home_edge.unwrap_or_else(|| nearest_edge(s, &chars, i))
    });
    let weapons = chars
        .iter()
        .map(|c| {
            data.weapon
                .get(&c.weapon)
                .cloned()
                .expect("vocabulary weapon")
        })
        .collect();
    let shields = chars
        .iter()
        .map(|c| c.shield.as_ref().and_then(|n| data.shield.get(n).cloned()))
        .collect();
    let missiles = chars
        .iter()
        .map(|c| {
            c.missile
                .as_ref()
                .and_then(|n| data.missile.get(n).cloned())
        })
        .collect();
    let terrain_rows = s
        .terrain_names
        .iter()
        .map(|n| {
            data.terrain
                .get(n)
                .cloned()
                .expect("vocabulary terrain has a row")
        })
        .collect();
    debug_assert!(data
        .terrain
        .values()
        .all(|t| t.source != Source::Provisional || t.reason.is_some()));
    Ok(Skirmish {
        names: Names::new(s.units.iter().map(|u| u.id.clone()).collect(), s.map),
        map: s.map,
        sides,
        home,
        chars,
        weapons,
        shields,
        missiles,
        terrain: s.terrain.cells().to_vec(),
        terrain_names: s.terrain_names.clone(),
        terrain_rows,
        turns: s.turns.unwrap_or(10),
        data,
    })
}

/// The map edge nearest a side's characters, for a side the scenario gives no home edge.
fn nearest_edge(s: &Scenario, chars: &[Character], side: u8) -> Edge {
    let mine: Vec<(i32, i32)> = chars
        .iter()
        .filter(|c| c.side == side)
        .map(|c| s.map.to_offset(c.start))
        .collect();
    let n = i32::try_from(mine.len().max(1)).expect("few characters");
    let col = mine.iter().map(|p| p.0).sum::<i32>() / n;
    let row = mine.iter().map(|p| p.1).sum::<i32>() / n;
    let (cols, rows) = (
        i32::try_from(s.map.cols()).expect("small map"),
        i32::try_from(s.map.rows()).expect("small map"),
    );
    [
        (row, Edge::North),
        (rows - 1 - row, Edge::South),
        (col, Edge::West),
        (cols - 1 - col, Edge::East),
    ]
    .into_iter()
    .min_by_key(|x| x.0)
    .map_or(Edge::South, |x| x.1)
}

pub(super) fn initial_state(rules: &Skirmish) -> State {
    let mut state = State {
        turn: 1,
        active: 0,
        phase: Phase::Movement,
        chars: rules
            .chars
            .iter()
            .map(|c| CharState {
                hex: Some(c.start),
                facing: c.facing,
                damage: 0,
                mp: 0,
                quick: true,
                complex: true,
                melee: true,
                ripostes: 0,
                attacked: 0,
                dazed: false,
                panicked: false,
                berserk: false,
                encumbered: c.encumbered,
                out: false,
                fled: false,
                moved: false,
                done: false,
                took_complex: false,
                evasive: false,
                defending: None,
                spent: false,
                shaken: false,
            })
            .collect(),
        moving: None,
        charge: None,
        window: None,
        turned: 0,
        outcome: None,
    };
    let mut dice = Dice::new(0);
    let mut events = Vec::new();
    let mut ctx = Ctx::new(&mut dice, &mut events);
    actions::refresh(rules, &mut state, 0, &mut ctx);
    for u in rules.side_ids(1) {
        state.chars[u.index()].mp = rules.allowance(&state, u);
    }
    // SK-MIS-1: the first active turn opens with the missile phase if anyone can shoot.
    if missile::any_shot(rules, &state) {
        state.phase = Phase::Missile;
    }
    state
}

/// Keeps the game moving until someone must decide: windows with nobody left to decide
/// close, steps whose attacks of opportunity are over are made, charges and movements
/// that cannot go on end.
pub(crate) fn settle(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    for _ in 0..10_000 {
        if state.outcome.is_some() {
            state.window = None;
            return;
        }
        if state.window.is_some() {
            if reactions::settle_window(rules, state, ctx) {
                continue;
            }
            return;
        }
        if state.phase == Phase::Movement {
            if state.charge.is_some() {
                if charge::advance(rules, state, ctx) {
                    continue;
                }
                return;
            }
            if movement::wrap_up(rules, state, ctx) {
                continue;
            }
        }
        return;
    }
    unreachable!("the sequence of play settles");
}

/// SK-TURN-1: checks ending the phase.
pub(crate) fn check_end_phase(rules: &Skirmish, state: &State) -> Result<Vec<Reason>, Refusal> {
    let gate = if state.phase == Phase::Movement && state.charge.is_none() {
        rules.gate(state)
    } else {
        movement::Gate::default()
    };
    check_end_phase_in(rules, state, &gate)
}

/// [`check_end_phase`] with the movement phase's gate computed once by the caller.
pub(crate) fn check_end_phase_in(
    rules: &Skirmish,
    state: &State,
    gate: &movement::Gate,
) -> Result<Vec<Reason>, Refusal> {
    match state.phase {
        Phase::Missile => Ok(vec![Reason::new(
            "SK-MIS-1",
            "ends the missile phase: the movement phase follows",
        )]),
        Phase::Movement => {
            if state.charge.is_some() {
                return Err(Refusal::new(
                    "SK-CHG-5",
                    "a charge is under way: its chargers spend their whole movement running",
                ));
            }
            if let Some(r) = &gate.go_on {
                return Err(r.clone());
            }
            if let Some(p) = gate.flight {
                return Err(Refusal::new(
                    "SK-STA-2",
                    format!(
                        "{} is Panicked and must flee by the shortest route before the phase ends",
                        rules.name(p)
                    ),
                ));
            }
            Ok(vec![Reason::new(
                "SK-TURN-1",
                "ends the movement phase: the melee phase follows",
            )])
        }
        Phase::Melee => {
            if let Some(b) = berserk_due(rules, state) {
                return Err(Refusal::new(
                    "SK-STA-3",
                    format!(
                        "{} is Berserk and must attack the nearest enemy first",
                        rules.name(b)
                    ),
                ));
            }
            Ok(vec![Reason::new(
                "SK-TURN-1",
                "ends the melee phase: the morale phase follows, then the other side's turn",
            )])
        }
    }
}

/// A Berserk character of the active side that can still attack.
fn berserk_due(rules: &Skirmish, state: &State) -> Option<UnitId> {
    rules.side_ids(state.active).find(|&u| {
        Skirmish::ch(state, u).berserk
            && rules
                .side_ids(Skirmish::passive(state))
                .any(|t| super::melee::check_attack(rules, state, u, t).is_ok())
    })
}

/// SK-TURN-2: whether anyone of the active side can attack, or maneuver (SK-SHM-4).
fn any_attack(rules: &Skirmish, state: &State) -> bool {
    rules.side_ids(state.active).any(|u| {
        rules
            .side_ids(Skirmish::passive(state))
            .any(|t| super::melee::check_attack(rules, state, u, t).is_ok())
    }) || maneuver::any(rules, state)
}

fn begin(rules: &Skirmish, state: &mut State, phase: Phase, ctx: &mut Ctx<'_, Event>) {
    state.phase = phase;
    state.turned = 0;
    for c in &mut state.chars {
        // SK-CHG-12: ripostes are counted per phase; SK-MEL-1: attacks on a target per
        // melee phase.
        c.ripostes = 0;
        c.attacked = 0;
    }
    ctx.emit(Event::PhaseBegan {
        turn: state.turn,
        side: rules.side_name(state.active).to_owned(),
        phase,
    });
}

/// SK-TURN-1: ends the phase. After the missile phase (SK-MIS-1) comes movement; after
/// movement comes melee (passed by itself when nobody
/// can attack, SK-TURN-2); after melee the morale phase (SK-MOR-1), then the other
/// side's active turn; after both, the game turn ends and, after the last, the game
/// (SK-TURN-3).
pub(crate) fn end_phase(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    if state.phase == Phase::Missile {
        begin(rules, state, Phase::Movement, ctx);
        return;
    }
    if state.phase == Phase::Movement {
        movement::finish(rules, state, "SK-TURN-1", "the movement phase ends", ctx);
        begin(rules, state, Phase::Melee, ctx);
        if any_attack(rules, state) {
            return;
        }
    }
    morale::morale_phase(rules, state, ctx);
    if state.outcome.is_some() {
        return;
    }
    if state.active == 0 {
        state.active = 1;
    } else {
        if state.turn >= rules.turns {
            let outcome = final_outcome(rules, state);
            ctx.emit(Event::GameOver {
                outcome: outcome.clone(),
            });
            state.outcome = Some(outcome);
            return;
        }
        state.active = 0;
        state.turn += 1;
    }
    actions::refresh(rules, state, state.active, ctx);
    // SK-MIS-1: the missile phase opens the active turn when anyone can shoot; else it
    // passes by itself, unannounced.
    if missile::any_shot(rules, state) {
        begin(rules, state, Phase::Missile, ctx);
    } else {
        begin(rules, state, Phase::Movement, ctx);
    }
}

/// The characters of each side still in the fight.
fn standing(rules: &Skirmish, state: &State) -> [usize; 2] {
    [0u8, 1].map(|s| {
        rules
            .side_ids(s)
            .filter(|&u| Skirmish::ch(state, u).in_play())
            .count()
    })
}

/// SK-TURN-3: a side with nobody left in the fight has lost.
pub(crate) fn check_wipeout(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    if state.outcome.is_some() {
        return;
    }
    let left = standing(rules, state);
    let outcome = match left {
        [0, 0] => Outcome {
            winner: None,
            reason: "both bands are out of the fight".into(),
            rule: Some("SK-TURN-3".into()),
        },
        [0, _] | [_, 0] => {
            let w = u8::from(left[0] == 0);
            Outcome {
                winner: Some(rules.side_name(w).to_owned()),
                reason: format!("{} has nobody left in the fight", rules.side_name(1 - w)),
                rule: Some("SK-TURN-3".into()),
            }
        }
        _ => return,
    };
    ctx.emit(Event::GameOver {
        outcome: outcome.clone(),
    });
    state.outcome = Some(outcome);
    state.window = None;
    state.charge = None;
    state.moving = None;
}

/// Enemies each side has put out of action or made flee.
pub(crate) fn points(rules: &Skirmish, state: &State) -> [usize; 2] {
    [0u8, 1].map(|s| {
        rules
            .side_ids(1 - s)
            .filter(|&u| !Skirmish::ch(state, u).in_play())
            .count()
    })
}

/// SK-TURN-3 (provisional): after the last turn, the side that put more enemies out of
/// the fight wins; as many is a draw.
fn final_outcome(rules: &Skirmish, state: &State) -> Outcome {
    let p = points(rules, state);
    let winner = match p[0].cmp(&p[1]) {
        std::cmp::Ordering::Greater => Some(rules.side_name(0).to_owned()),
        std::cmp::Ordering::Less => Some(rules.side_name(1).to_owned()),
        std::cmp::Ordering::Equal => None,
    };
    Outcome {
        reason: format!(
            "after {} turns, {} has put {} enemies out of the fight and {} {}",
            rules.turns,
            rules.side_name(0),
            p[0],
            rules.side_name(1),
            p[1]
        ),
        winner,
        rule: Some("SK-TURN-3".into()),
    }
}

/// The whole fight as every seat sees it.
pub(crate) fn view(rules: &Skirmish, state: &State) -> serde_json::Value {
    let units: Vec<_> = rules
        .ids()
        .map(|u| {
            let c = &rules.chars[u.index()];
            let s = Skirmish::ch(state, u);
            let w = &rules.weapons[u.index()];
            let mut statuses = Vec::new();
            for (on, name) in [
                (s.dazed, "dazed"),
                (s.panicked, "panicked"),
                (s.berserk, "berserk"),
                (rules.wounded(state, u), "wounded"),
                (s.encumbered, "encumbered"),
                (s.in_play() && rules.engaged(state, u), "engaged"),
                (s.defending.is_some(), "defending"),
                (s.evasive, "evasive"),
                (s.out, "out_of_action"),
                (s.fled, "fled"),
            ] {
                if on {
                    statuses.push(name);
                }
            }
            json!({
                "id": c.id,
                "name": c.name,
                "side": rules.side_name(c.side),
                "hex": s.hex.map(|h| rules.label(h)),
                "facing": rules.dir_name(s.facing),
                "facing_index": s.facing.index(),
                "finesse": c.finesse, "vigor": c.vigor, "morale": c.morale,
                "weapon_skill": c.weapon_skill, "combat": c.combat, "evasion": c.evasion,
                "weapon": { "name": c.weapon, "reach": w.reach, "alt_reach": w.alt_reach, "damage": w.damage },
                "missile": rules.missiles[u.index()].as_ref().map(|m| json!({
                    "name": c.missile, "short": m.short, "range": m.range, "damage": m.damage,
                })),
                "shield": c.shield,
                "berserker": c.berserker,
                "formation": c.formation,
                "health": rules.health(u),
                "damage": s.damage,
                "statuses": statuses,
                "mp": s.mp,
                "allowance": rules.allowance(state, u),
                "short_mp": rules.short_allowance(state, u),
                "actions": { "quick": s.quick, "complex": s.complex, "melee": s.melee && !s.dazed },
                "ripostes_left": Skirmish::melee_actions(state, u).saturating_sub(s.ripostes),
                "moved": s.moved,
                "done": s.done,
            })
        })
        .collect();
    let window = state.window.as_ref().map(|w| match w {
        super::Window::Opportunity {
            unit, to, eligible, ..
        } => json!({
            "kind": "opportunity",
            "unit": rules.name(*unit),
            "from": Skirmish::ch(state, *unit).hex.map(|h| rules.label(h)),
            "to": to.map(|h| rules.label(h)),
            "eligible": eligible.iter().map(|&e| rules.name(e)).collect::<Vec<_>>(),
        }),
        super::Window::Reaction { unit } => json!({
            "kind": "reaction",
            "unit": rules.name(*unit),
            "at": Skirmish::ch(state, *unit).hex.map(|h| rules.label(h)),
            "reactors": rules
                .side_ids(Skirmish::passive(state))
                .filter(|&p| reactions::may_react(rules, state, p).is_ok())
                .map(|p| rules.name(p))
                .collect::<Vec<_>>(),
        }),
    });
    let charge = state.charge.as_ref().map(|c| {
        json!({
            "current": rules.name(c.legs[c.current].run.unit),
            "legs": c.legs.iter().map(|l| json!({
                "unit": rules.name(l.run.unit),
                "target": rules.name(l.target),
                "done": l.done,
                "path": l.run.path.iter().map(|&h| rules.label(h)).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    });
    let p = points(rules, state);
    json!({
        "turn": state.turn,
        "turns": rules.turns,
        "active": rules.side_name(state.active),
        "passive": rules.side_name(Skirmish::passive(state)),
        "phase": state.phase,
        "window": window,
        "moving": state.moving.as_ref().map(|m| rules.name(m.unit)),
        "charge": charge,
        "units": units,
        "points": { rules.side_name(0): p[0], rules.side_name(1): p[1] },
        "home_edges": { rules.side_name(0): rules.home[0].name(), rules.side_name(1): rules.home[1].name() },
        "outcome": state.outcome,
    })
}
