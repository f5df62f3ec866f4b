//! Binding the rules to a scenario (two sides, characters on the map, weapons that leave
//! a hand for their shield; every problem at once) and the state a game starts from.

use super::characters::{CharState, Character};
use super::data::{Data, Source};
use super::{actions, facing, missile, Phase, Skirmish, State};
use crate::common::text::Text;
use grognard_engine::scenario::{Edge, Problems, Scenario};
use grognard_engine::{Ctx, Dice, Names};
use grognard_hex::Direction;

/// Binds the rules to a scenario: two sides, characters on the map, weapons that leave a
/// hand for their shield; every problem at once.
pub(super) fn build(s: &Scenario) -> Result<Skirmish, Problems> {
    let data = Data::shipped();
    let mut problems = Vec::new();
    let first = s.first_side.clone();
    let Some(second) = s.sides.iter().map(|x| x.id.clone()).find(|id| *id != first) else {
        return Err(Problems(vec![s.problem(
            s.sides.first().map_or(crate::common::data::TOP, |x| x.loc),
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
    let mut home = [Edge::North; 2];
    for (i, id) in (0u8..).zip(&sides) {
        let side = crate::common::data::side(s, id)?;
        home[usize::from(i)] = side.home_edge.unwrap_or_else(|| nearest_edge(s, &chars, i));
    }
    let mut weapons = Vec::with_capacity(chars.len());
    for c in &chars {
        let Some(w) = data.weapon.get(&c.weapon) else {
            return Err(Problems(vec![s.problem(
                crate::common::data::TOP,
                format!("unknown weapon `{}`", c.weapon),
            )]));
        };
        weapons.push(w.clone());
    }
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
    let terrain_rows = crate::common::data::terrain_rows(s, &data.terrain)?;
    debug_assert!(data
        .terrain
        .values()
        .all(|t| t.source != Source::Provisional || t.reason.is_some()));
    let cells = super::board::Cells::new(&s.map, |h| {
        s.map
            .index(h)
            .and_then(|i| s.terrain.cells().get(i))
            .and_then(|&t| terrain_rows.get(usize::from(t)))
            .map_or((1, false), |r| (u32::from(r.cost), !r.impassable))
    });
    let mut rules = Skirmish {
        names: Names::of_scenario(s),
        map: s.map,
        // Named by many events: kept for the process (no count a clone).
        sides: sides.each_ref().map(|s| Text::lasting(s)),
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
        cells,
        edges: [Vec::new(), Vec::new()],
        id: crate::common::stamp::next_binding(),
        side_of_char: Vec::new(),
        side_members: [Vec::new(), Vec::new()],
    };
    rules.side_of_char = rules.chars.iter().map(|c| c.side).collect();
    rules.side_members =
        [0, 1].map(|side| rules.ids().filter(|&u| rules.side_of(u) == side).collect());
    rules.edges = [0, 1].map(|side| rules.edge_hexes(side));
    Ok(rules)
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
        stamp: super::stamp::Stamp::default(),
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
