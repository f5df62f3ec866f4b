//! Setup: what a JOMINI scenario may say, and the rules bound to it.

use super::data::Data;
use super::units::{Piece, MOUNTS};
use super::{Board, HexInfo, Jomini, Objective, PieceState, State, NAME};
use grognard_engine::scenario::{
    Edge, OptionSpec, Problems, Scenario, UnitType, ValueKind, ValueSpec, Vocabulary,
};
use grognard_engine::Names;
use grognard_hex::Direction;

/// The words a JOMINI scenario may use.
#[must_use]
pub fn vocabulary() -> Vocabulary {
    let data = Data::shipped();
    let mut v = Vocabulary::new(NAME)
        .terrains(data.terrain.keys().cloned())
        .hexside_features(data.hexside.keys().cloned())
        .path_kinds(["road"])
        .side_value(ValueSpec::int("command", 0, 20).optional())
        .side_value(ValueSpec::one_of("exit", ["north", "south", "east", "west"]).optional())
        .option(OptionSpec::new(
            "victory_fraction",
            ValueKind::Int { min: 1, max: 10 },
            3,
            "A side wins on eliminating this fraction (1 in N) of the enemy's units (JO-VIC-1).",
        ));
    for (kind, row) in &data.movement {
        let weights: Vec<&str> = row.weights.keys().map(String::as_str).collect();
        let mut t = UnitType::new(kind.as_str())
            .value(ValueSpec::one_of("weight", weights))
            .value(ValueSpec::int("strength", 1, 9).optional());
        if kind == "infantry" {
            t = t
                .value(ValueSpec::one_of("mounts", MOUNTS).optional())
                .value(ValueSpec::bool("mounted").optional());
        }
        v = v.unit_type(t);
    }
    for kind in data.units.keys().filter(|k| *k != "officer") {
        v = v.may_share_hex("officer", kind.as_str());
    }
    v
}

/// Binds the rules to a scenario.
///
/// # Errors
/// Every problem: a unit type without a row in `data.toml`, a table smaller than 12 by 9
/// (JO-MAP-1), a bad `[victory]`.
pub fn build(s: &Scenario) -> Result<Jomini, Problems> {
    build_with(s, Data::shipped())
}

/// [`build`] with other tables than the shipped `data.toml` (the same names, other
/// values): a player's printed tables, or a test's.
///
/// # Errors
/// As [`build`], and a terrain of the scenario the tables do not have.
pub fn build_with(s: &Scenario, data: &'static Data) -> Result<Jomini, Problems> {
    let mut problems = Vec::new();
    for t in s
        .terrain_names
        .iter()
        .filter(|t| !data.terrain.contains_key(*t))
    {
        problems.push(s.problem(
            crate::common::data::TOP,
            format!("the tables have no terrain `{t}`"),
        ));
    }
    let side_ids: Vec<String> = s.sides.iter().map(|x| x.id.clone()).collect();
    if side_ids.len() != 2 {
        problems.push(s.problem(
            s.sides.first().map_or(crate::common::data::TOP, |x| x.loc),
            "JOMINI is played by two sides",
        ));
        return Err(Problems(problems));
    }
    let first = usize::from(s.first_side == side_ids[1]);
    let sides = [side_ids[first].clone(), side_ids[1 - first].clone()];
    let side_of = |id: &str| u8::from(id == sides[1]);
    // JO-MAP-1: a table of at least 12 by 9 hexes.
    let (cols, rows) = (s.map.cols(), s.map.rows());
    if cols.max(rows) < 12 || cols.min(rows) < 9 {
        problems.push(s.problem(
            crate::common::data::TOP,
            format!("JO-MAP-1: the table must be at least 12 by 9 hexes, not {cols} by {rows}"),
        ));
    }
    let mut edges = [Edge::North, Edge::South];
    let mut command = [2u32; 2];
    let mut exits = [None; 2];
    for side in &s.sides {
        let i = usize::from(side_of(&side.id));
        match side.home_edge {
            Some(e) => edges[i] = e,
            None => problems.push(s.problem(
                side.loc,
                format!(
                    "JO-RET-2: side `{}` needs a home_edge to retreat toward",
                    side.id
                ),
            )),
        }
        if let Some(c) = side.values.get("command").and_then(|v| v.as_int()) {
            command[i] = u32::try_from(c).unwrap_or(0);
        }
        exits[i] = side
            .values
            .get("exit")
            .and_then(|v| v.as_str())
            .and_then(Edge::from_name);
    }
    let mut pieces = Vec::new();
    for u in &s.units {
        let Some(row) = data.units.get(&u.kind) else {
            problems.push(s.problem(u.loc, format!("no unit row for `{}`", u.kind)));
            continue;
        };
        let weight = u.text("weight").unwrap_or("light").to_owned();
        let allowance = data
            .movement
            .get(&u.kind)
            .and_then(|m| m.weights.get(&weight))
            .copied()
            .unwrap_or_default();
        let mounts = u.text("mounts").map(str::to_owned);
        let strength = u
            .int("strength")
            .and_then(|x| u8::try_from(x).ok())
            .unwrap_or(row.strength);
        pieces.push(Piece {
            id: u.id.clone(),
            side: side_of(&u.side),
            kind: u.kind.clone(),
            weight,
            allowance,
            row,
            officer: u.kind == "officer",
            mounts,
            enters: u.enters.map(|e| (e.turn, e.hex)),
            strength,
            start: u.hex,
            starts_mounted: u.flag("mounted").unwrap_or(false) && u.text("mounts").is_some(),
        });
    }
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    let terrain_names = s.terrain_names.clone();
    let hexes: Vec<HexInfo> = s
        .terrain
        .cells()
        .iter()
        .map(|&t| {
            let row = &data.terrain[&terrain_names[usize::from(t)]];
            HexInfo {
                terrain: t,
                difficult: row.difficult,
                impassable: row.impassable,
                blocks_sight: row.blocks_sight,
                protection: row.protection,
                built_up: row.built_up,
            }
        })
        .collect();
    let mut side_difficult = vec![false; s.map.len() * 6];
    let mut next = vec![super::routes::NONE; s.map.len() * 6];
    let mut road_hexes = vec![0u16; s.map.len()];
    let mut road_links = vec![0u16; s.map.len() * 6];
    for hex in s.map.hexes() {
        let i = s.map.index(hex).expect("on the map");
        for d in Direction::ALL {
            let difficult = s
                .features(hex, d)
                .iter()
                .any(|f| data.hexside.get(*f).is_some_and(|r| r.difficult));
            side_difficult[i * 6 + d.index()] = difficult;
            next[i * 6 + d.index()] = s
                .map
                .index(hex.neighbor(d))
                .and_then(|j| u32::try_from(j).ok())
                .unwrap_or(super::routes::NONE);
        }
    }
    let roads: Vec<_> = s
        .paths
        .iter()
        .filter(|p| {
            s.path_kinds
                .get(usize::from(p.kind))
                .is_some_and(|k| k == "road")
        })
        .collect();
    if roads.len() > 16 {
        problems.push(s.problem(roads[16].loc, "JO-MOV-16: at most 16 roads"));
    }
    for (r, path) in roads.iter().take(16).enumerate() {
        let bit = 1u16 << r;
        for (k, &h) in path.hexes.iter().enumerate() {
            if let Some(i) = s.map.index(h) {
                road_hexes[i] |= bit;
                if let Some(&next) = path.hexes.get(k + 1) {
                    if let (Some(d), Some(j)) = (h.direction_to(next), s.map.index(next)) {
                        road_links[i * 6 + d.index()] |= bit;
                        road_links[j * 6 + d.opposite().index()] |= bit;
                    }
                }
            }
        }
    }
    let objectives: Vec<Objective> = s
        .places
        .iter()
        .filter(|p| p.objective)
        .map(|p| Objective {
            name: p.name.clone(),
            hex: p.hex,
            value: p.value.and_then(|v| u32::try_from(v).ok()).unwrap_or(1),
            owner: p.owner.as_deref().map(side_of),
        })
        .collect();
    // JO-VIC-1: a third of the enemy's units, or the scenario's number.
    let fraction = s
        .options
        .get("victory_fraction")
        .and_then(|v| v.as_int())
        .and_then(|v| u32::try_from(v).ok())
        .unwrap_or(3);
    let mut target = [0u32; 2];
    for (side, t) in target.iter_mut().enumerate() {
        let enemy = pieces
            .iter()
            .filter(|p| !p.officer && usize::from(p.side) != side)
            .count();
        *t = u32::try_from(enemy).unwrap_or(0).div_ceil(fraction).max(1);
    }
    if let Some(points) = s.victory.table.get("points") {
        match points.as_table() {
            Some(t) => {
                for (k, v) in t {
                    match (side_ids.iter().position(|x| x == k), v.as_integer()) {
                        (Some(_), Some(n)) if n > 0 => {
                            target[usize::from(side_of(k))] = u32::try_from(n).unwrap_or(1);
                        }
                        _ => problems.push(s.problem(
                            s.victory.loc_of(&format!("points.{k}")),
                            format!(
                                "JO-VIC-1: `points.{k}` must name a side and be a positive number"
                            ),
                        )),
                    }
                }
            }
            None => problems.push(s.problem(
                s.victory.loc_of("points"),
                "JO-VIC-1: `points` is a table of points to win by side",
            )),
        }
    }
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    let names = Names::of_scenario(s);
    let objective_hexes: Vec<_> = objectives.iter().map(|o| o.hex).collect();
    let march = super::ai::march_steps(&objective_hexes, &s.map, &hexes, &next, &side_difficult);
    Ok(Jomini {
        data,
        names,
        map: s.map,
        sides,
        edges,
        command,
        exits,
        pieces,
        hexes,
        terrain_names,
        side_difficult,
        next,
        road_hexes,
        road_links,
        objectives,
        march,
        target,
        turns: s.turns,
    })
}

/// The state before the first action: everyone at full strength, reinforcements waiting,
/// each side with its commander's tokens (JO-ORD-1).
#[must_use]
pub fn initial_state(rules: &Jomini) -> State {
    let pieces = rules
        .pieces
        .iter()
        .map(|p| PieceState {
            hex: p.start,
            strength: p.strength,
            waiting: p.enters.is_some(),
            mounted: p.starts_mounted,
            ..PieceState::default()
        })
        .collect::<Vec<_>>();
    let mut state = State {
        turn: 1,
        active: 0,
        phase: super::Phase::Command,
        pieces,
        groups: Vec::new(),
        first_group: 0,
        tokens: rules.command,
        ordered: false,
        assault: 0,
        eliminated: [0, 0],
        held: rules.objectives.iter().map(|o| o.owner).collect(),
        pending: None,
        outcome: None,
    };
    let board = Board::new(rules, &state);
    super::victory::update_objectives(rules, &mut state, &board, None);
    state
}
