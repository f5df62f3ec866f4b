//! Binding the rules to a scenario (docs/rules/morne-plaine.md): the sides and their
//! home edges, the counters, the victory conditions, and the per-hex and per-hexside
//! tables of [`super::board`] precomputed from the terrain, the hexsides and the roads.

use super::cell_bits as cb;
use super::data::{Data, Source};
use super::side_bits as sb;
use super::units::Counter;
use super::MornePlaine;
use grognard_engine::scenario::{Problems, Scenario};
use grognard_engine::Names;
use grognard_hex::Direction;

/// Binds the rules to a scenario: checks what the vocabulary cannot and precomputes
/// the static tables.
pub(super) fn build(s: &Scenario) -> Result<MornePlaine, Problems> {
    let data = Data::shipped();
    let mut problems = Vec::new();
    let first = s.first_side.clone();
    let second = s.sides.iter().map(|x| x.id.clone()).find(|id| *id != first);
    let Some(second) = second else {
        return Err(Problems(vec![s.problem(
            s.sides.first().map_or(crate::common::data::TOP, |x| x.loc),
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
    let mut north = [false; 2];
    for (i, id) in sides.iter().enumerate() {
        let side = crate::common::data::side(s, id)?;
        north[i] = match side.home_edge {
            Some(grognard_engine::scenario::Edge::South) => false,
            Some(_) => true,
            None => side.id == "orange",
        };
    }
    let counters: Vec<Counter> = s
        .units
        .iter()
        .map(|u| Counter::from_unit(u, side_index(&u.side)))
        .collect();
    let victory = super::victory::read_victory(s, &sides, &mut problems);
    let terrain_rows = crate::common::data::terrain_rows(s, &data.terrain)?;
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
            // In i16: two levels of a file (each from -128 to 127) may be 255 apart.
            let climb = i16::from(s.elevation_at(to).unwrap_or(0))
                - i16::from(s.elevation_at(h).unwrap_or(0));
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
                zoc: super::zones_of_control::reaches(cell[ti], side_flags[k]),
            };
        }
    }
    let fort_index = s.terrain_names.iter().position(|t| t == "fort");
    let forts: Vec<_> = map
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
    let mut place = vec![false; n];
    for at in s
        .places
        .iter()
        .map(|p| p.hex)
        .chain(forts.iter().map(|f: &(grognard_hex::Hex, Option<u8>)| f.0))
        .filter_map(|h| map.index(h))
    {
        place[at] = true;
    }
    let mut side_units: [Vec<u16>; 2] = [Vec::new(), Vec::new()];
    for (i, c) in counters.iter().enumerate() {
        side_units[usize::from(c.side)].push(u16::try_from(i).expect("unit count fits u16"));
    }
    Ok(MornePlaine {
        id: crate::common::stamp::next_binding(),
        names: Names::of_scenario(s),
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
        place,
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
        odds: std::sync::OnceLock::new(),
    })
}
