//! The sequence of play (REFERENCE.md: Bombardment, Movement, Combat, Rally; then
//! victory is checked), and binding the rules to a scenario.

use super::cell_bits as cb;
use super::data::{Data, Source};
use super::side_bits as sb;
use super::units::{Counter, UnitState};
use super::{Event, MornePlaine, State};
use grognard_engine::scenario::{Problems, Scenario};
use grognard_engine::{Ctx, Names};
use grognard_hex::Direction;
use serde::{Deserialize, Serialize};

/// A phase of a player turn (MP-TURN-1: bombardment, movement, combat, rally; the
/// sides alternate, the scenario's first side first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Batteries fire.
    Bombardment,
    /// Units move and charge.
    Movement,
    /// Units attack.
    Combat,
    /// Units recover.
    Rally,
}

impl Phase {
    /// The phase's name.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Phase::Bombardment => "bombardment",
            Phase::Movement => "movement",
            Phase::Combat => "combat",
            Phase::Rally => "rally",
        }
    }

    fn next(self) -> Option<Phase> {
        match self {
            Phase::Bombardment => Some(Phase::Movement),
            Phase::Movement => Some(Phase::Combat),
            Phase::Combat => Some(Phase::Rally),
            Phase::Rally => None,
        }
    }
}

/// Binds the rules to a scenario: checks what the vocabulary cannot and precomputes
/// the static tables.
pub(super) fn build(s: &Scenario) -> Result<MornePlaine, Problems> {
    let data = Data::shipped();
    let mut problems = Vec::new();
    let first = s.first_side.clone();
    let second = s.sides.iter().map(|x| x.id.clone()).find(|id| *id != first);
    let Some(second) = second else {
        return Err(Problems(vec![s.problem(
            s.sides.first().map(|x| x.loc).unwrap_or_default(),
            "Morne Plaine needs two sides, orange and blue",
        )]));
    };
    if s.sides.len() != 2 {
        problems.push(s.problem(
            s.sides[2].loc,
            "Morne Plaine has exactly two sides, orange and blue",
        ));
    }
    let sides = [first, second];
    let side_index = |id: &str| u8::from(sides[1] == id);
    // MP-RET-7: orange retreats toward the north edge, blue toward the south, unless the
    // scenario names the edges.
    let north = [0, 1].map(|i| {
        let side = s.side(&sides[i]).expect("validated side");
        match side.home_edge {
            Some(grognard_engine::scenario::Edge::South) => false,
            Some(_) => true,
            None => side.id == "orange",
        }
    });
    let counters: Vec<Counter> = s
        .units
        .iter()
        .map(|u| Counter::from_unit(u, side_index(&u.side)))
        .collect();
    let victory = super::victory::read_victory(s, &sides, &mut problems);
    let terrain_rows: Vec<_> = s
        .terrain_names
        .iter()
        .map(|n| {
            data.terrain
                .get(n)
                .cloned()
                .expect("vocabulary terrain has a row")
        })
        .collect();
    let map = s.map;
    let n = map.len();
    let mut side_cost = vec![0u8; n * 6];
    let mut side_flags = vec![0u16; n * 6];
    let mut links = vec![0u8; n * 6];
    let road = s.path_bit("road").unwrap_or(0);
    let track = s.path_bit("track").unwrap_or(0);
    let feature = |name: &str| s.feature_bit(name).unwrap_or(0);
    let (stream, ford, bridge, river, major, slope, double) = (
        feature("stream"),
        feature("ford"),
        feature("bridge"),
        feature("river"),
        feature("major_river"),
        feature("slope"),
        feature("double_slope"),
    );
    let extra = |name: &str| data.hexside.get(name).map_or(0, |r| r.extra);
    let uphill = data.hexside.get("slope").map_or(0, |r| r.extra_uphill);
    for i in 0..n {
        let h = map.hex_at(i);
        for d in Direction::ALL {
            let bits = s.hexsides.get(h, d);
            let to = h.neighbor(d);
            let climb = s.elevation_at(to).unwrap_or(0) - s.elevation_at(h).unwrap_or(0);
            // MP-MOV-6, MP-REF-3, MP-REF-6: rivers and major rivers without a bridge or a
            // ford, double slopes and two levels at once cannot be crossed. MP-ZOC-4: a
            // stream, a river or a double slope stops a zone of control.
            // MP-CMB-5, MP-CMB-8: "Combat is not possible wherever movement forbidden
            // (over rivers and major rivers, up or down slopes greater than one level)",
            // and movement is forbidden by "unbridged or unforded rivers, steep slopes":
            // combat and contact follow movement, so a bridge or a ford carries them
            // over the river as it carries units.
            let mut f = 0u16;
            let crossing = bits & (bridge | ford) != 0;
            if (bits & (river | major) != 0 && !crossing) || bits & double != 0 || climb.abs() > 1 {
                f |= sb::IMPASSABLE | sb::NO_COMBAT;
            }
            if bits & (stream | river | major | double) != 0 || climb.abs() > 1 {
                f |= sb::BLOCKS_ZOC;
            }
            if bits & stream != 0 {
                f |= sb::STREAM;
            }
            if bits & bridge != 0 {
                f |= sb::BRIDGE;
            }
            // MP-CHG-24: a charge crosses a river or major river nowhere, neither at a
            // bridge nor at a ford.
            if crossing && bits & (river | major) != 0 {
                f |= sb::RIVER_CROSSING;
            }
            if bits & slope != 0 {
                f |= sb::SLOPE;
            }
            // MP-TER-2, MP-REF-2: hexside costs add to the hex's. A ford is the stream's
            // crossing point (one point, not two); a bridge cancels it. MP-REF-6: one
            // point to climb a slope (provisional).
            let mut c = 0u8;
            if bits & ford != 0 {
                c += extra("ford");
            } else if bits & stream != 0 && bits & bridge == 0 {
                c += extra("stream");
            }
            if bits & slope != 0 && climb > 0 {
                c += uphill;
            }
            side_cost[i * 6 + d.index()] = c;
            side_flags[i * 6 + d.index()] = f;
            let l = s.path_links.get(h, d);
            links[i * 6 + d.index()] = u8::from(l & road != 0) | (u8::from(l & track != 0) << 1);
        }
    }
    let on_path: Vec<u8> = s
        .path_hexes
        .cells()
        .iter()
        .map(|&b| u8::from(b & road != 0) | (u8::from(b & track != 0) << 1))
        .collect();
    let mut nbr = vec![super::NO_HEX; n * 6];
    let mut cell = vec![0u8; n];
    for i in 0..n {
        let h = map.hex_at(i);
        for d in Direction::ALL {
            if let Some(j) = map.index(h.neighbor(d)) {
                nbr[i * 6 + d.index()] = u32::try_from(j).expect("maps are at most 999 by 999");
            }
        }
        let name = s.terrain_names[usize::from(s.terrain.cells()[i])].as_str();
        let row = &terrain_rows[usize::from(s.terrain.cells()[i])];
        let mut c = 0;
        // MP-ZOC-2, MP-ZOC-3: towns (MP-TER-4: villages too) and woods.
        if row.uncontrollable || row.town {
            c |= cb::NO_CONTROL | cb::SHELTER;
        }
        if row.town {
            c |= cb::TOWN;
        }
        if name == "fort" {
            c |= cb::NO_CONTROL | cb::FORT;
        }
        if name == "clear" {
            c |= cb::CLEAR;
        }
        if row.bog {
            c |= cb::BOG;
        }
        if on_path[i] & 1 != 0 {
            c |= cb::ROAD;
        }
        if on_path[i] & 2 != 0 {
            c |= cb::TRACK;
        }
        cell[i] = c;
    }
    // The steps' records; a jump cuts the corner of a road through a hex next to both.
    let link_at = |i: usize, d: Direction| links[i * 6 + d.index()];
    let mut steps = vec![super::StepInfo::default(); n * 6];
    for i in 0..n {
        let h = map.hex_at(i);
        for d in Direction::ALL {
            let k = i * 6 + d.index();
            let to = nbr[k];
            if to == super::NO_HEX {
                steps[k].to = to;
                continue;
            }
            let ti = to as usize;
            let both_road = cell[i] & cb::ROAD != 0 && cell[ti] & cb::ROAD != 0;
            let jump = both_road
                && link_at(i, d) & 1 == 0
                && [d.clockwise(), d.counter_clockwise()].into_iter().any(|e| {
                    let c = nbr[i * 6 + e.index()];
                    c != super::NO_HEX && link_at(i, e) & 1 != 0 && {
                        let back = h
                            .neighbor(e)
                            .direction_to(h.neighbor(d))
                            .expect("next to both");
                        link_at(c as usize, back) & 1 != 0
                    }
                });
            let row = &terrain_rows[usize::from(s.terrain.cells()[ti])];
            steps[k] = super::StepInfo {
                to,
                flags: side_flags[k],
                terrain: row.cost,
                hexside: side_cost[k],
                link: links[k],
                to_cell: cell[ti],
                jump,
                zoc: cell[ti] & cb::NO_CONTROL == 0 && side_flags[k] & sb::BLOCKS_ZOC == 0,
            };
        }
    }
    let fort_index = s.terrain_names.iter().position(|t| t == "fort");
    let forts = map
        .hexes()
        .filter(|&h| fort_index.is_some_and(|fi| s.terrain.get(h) == Some(&(fi as u8))))
        .map(|h| {
            let owner = s
                .places_at(h)
                .find_map(|p| p.owner.as_deref())
                .map(side_index);
            (h, owner)
        })
        .collect();
    debug_assert!(data.path.values().all(|p| matches!(
        p.source,
        Source::Recovered | Source::Provisional | Source::Seed
    )));
    let road_cost = data.path.get("road").map_or(0, |p| p.cost);
    let track_cost = data.path.get("track").map_or(1, |p| p.cost);
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let mut side_units: [Vec<u16>; 2] = [Vec::new(), Vec::new()];
    for (i, c) in counters.iter().enumerate() {
        side_units[usize::from(c.side)].push(u16::try_from(i).expect("unit count fits u16"));
    }
    Ok(MornePlaine {
        id: NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        names: Names::new(s.units.iter().map(|u| u.id.clone()).collect(), map),
        map,
        sides,
        north,
        counters,
        side_units,
        terrain: s.terrain.cells().to_vec(),
        terrain_names: s.terrain_names.clone(),
        terrain_rows,
        elevation: s.elevation.cells().to_vec(),
        side_flags,
        steps,
        nbr,
        cell,
        road_cost,
        track_cost,
        forts,
        turns: s.turns.unwrap_or(12),
        victory,
        bog_test: s
            .options
            .get("bog_test")
            .and_then(|v| v.as_bool())
            .unwrap_or(true),
        scenario: s.clone(),
        data,
    })
}

pub(super) fn initial_state(rules: &MornePlaine) -> State {
    let mut state = State {
        turn: 1,
        active: 0,
        phase: Phase::Bombardment,
        units: rules
            .counters
            .iter()
            .map(|c| UnitState {
                hex: c.start,
                waiting: c.enters.is_some(),
                cs: c.cs,
                mv: c.mv,
                mp: c.ma,
                moved: false,
                stopped: false,
                road_penalty: false,
                fired: false,
                attacked: false,
                defended: false,
                victorious: false,
                charged: None,
            })
            .collect(),
        moving: None,
        forts: rules.forts.iter().map(|f| f.1).collect(),
        held: rules
            .scenario
            .places
            .iter()
            .map(|p| p.owner.as_deref().map(|o| u8::from(rules.sides[1] == o)))
            .collect(),
        outcome: None,
    };
    begin_phase(rules, &mut state, None);
    // MP-TURN-2: an opening bombardment phase with nothing to fire passes by itself,
    // as every later one does.
    if !super::bombardment::any_fire(rules, &state) {
        state.phase = Phase::Movement;
        begin_phase(rules, &mut state, None);
    }
    state
}

/// Starts `state.phase` for `state.active`.
fn begin_phase(rules: &MornePlaine, state: &mut State, ctx: Option<&mut Ctx<'_, Event>>) {
    state.moving = None;
    let active = state.active;
    for (c, u) in rules.counters.iter().zip(state.units.iter_mut()) {
        match state.phase {
            Phase::Bombardment if c.side == active => {
                // MP-BMB-1: each battery fires once per bombardment phase.
                u.fired = false;
            }
            Phase::Movement => {
                // Reading of MP-VICU-1 and MP-CMB-10: a unit is victorious from the
                // charge or attack that made it so to the end of that player turn's
                // combat phase ("earlier in the same combat phase"; a charge's victor
                // counts in the combat that follows); MP-CHG-17's bonus lasts as long.
                u.victorious = false;
                u.charged = None;
                if c.side == active {
                    u.mp = c.ma;
                    u.moved = false;
                    // MP-BMB-4: a battery that fired does not move in the following
                    // movement phase.
                    u.stopped = u.fired;
                    u.road_penalty = false;
                }
            }
            Phase::Combat => {
                // MP-CMB-2: once per combat phase.
                u.attacked = false;
                u.defended = false;
            }
            _ => {}
        }
    }
    if state.phase.name() == rules.data.reinforcements.phase {
        arrive(rules, state, ctx);
    }
}

/// MP-REIN-1 (provisional): a reinforcement comes on at its entry hex at the start of
/// its side's movement phase of its turn (the phase is `data.toml` [reinforcements]),
/// or the first later one when the hex is free; it moves with its full allowance.
fn arrive(rules: &MornePlaine, state: &mut State, mut ctx: Option<&mut Ctx<'_, Event>>) {
    for (i, c) in rules.counters.iter().enumerate() {
        let Some((turn, hex)) = c.enters else {
            continue;
        };
        if c.side != state.active || !state.units[i].waiting || turn > state.turn {
            continue;
        }
        if MornePlaine::occupant(state, hex).is_some() {
            continue;
        }
        let u = &mut state.units[i];
        u.waiting = false;
        u.hex = Some(hex);
        let unit = grognard_engine::UnitId(u16::try_from(i).expect("unit count fits u16"));
        rules.take_place(state, unit, hex);
        if let Some(ctx) = ctx.as_deref_mut() {
            ctx.emit(Event::Arrived {
                unit,
                at: hex,
                rule: "MP-REIN-1".into(),
            });
        }
    }
}

/// MP-TURN-1: ends the phase; the rally phase follows combat at once (it asks nothing
/// of the player); after Rally the other side's player turn begins; after both, the game
/// turn ends and victory is checked (MP-VIC-1, MP-VIC-2). A bombardment or combat phase
/// in which nothing can fire or attack passes by itself (MP-TURN-2).
pub(super) fn end_phase(rules: &MornePlaine, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    loop {
        advance_phase(rules, state, ctx);
        if state.outcome.is_some() {
            return;
        }
        if state.phase == Phase::Rally {
            super::rally::rally(rules, state, ctx);
            continue;
        }
        let idle = match state.phase {
            Phase::Bombardment => !super::bombardment::any_fire(rules, state),
            Phase::Combat => !super::combat::any_attack(rules, state),
            Phase::Movement | Phase::Rally => false,
        };
        if !idle {
            return;
        }
    }
}

fn advance_phase(rules: &MornePlaine, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    match state.phase.next() {
        Some(p) => state.phase = p,
        None => {
            state.phase = Phase::Bombardment;
            if state.active == 0 {
                state.active = 1;
            } else {
                // MP-TURN-3: after both player turns the game turn ends; after the
                // scenario's last turn the game ends and victory is checked.
                state.active = 0;
                let over = super::victory::sudden_death(rules, state).or_else(|| {
                    (state.turn >= rules.turns).then(|| super::victory::victory(rules, state))
                });
                if let Some(outcome) = over {
                    ctx.emit(Event::GameOver {
                        outcome: outcome.clone(),
                    });
                    state.outcome = Some(outcome);
                    return;
                }
                state.turn += 1;
            }
        }
    }
    ctx.emit(Event::PhaseBegan {
        turn: state.turn,
        side: rules.side_name(state.active).to_owned(),
        phase: state.phase,
    });
    begin_phase(rules, state, Some(ctx));
}
