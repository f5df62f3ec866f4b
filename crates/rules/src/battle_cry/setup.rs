//! Binding the rules to a scenario (BC-SCN-1) and the state before the first action.

use super::cards::{self, Card};
use super::data::{CardKind, Data};
use super::units::{Kind, Piece, PieceState};
use super::{line_of_sight, sections, BattleCry, HexInfo, Phase, State, Text, OFF_MAP};
use grognard_engine::scenario::{Edge, Loc, Problem, Problems, Scenario};
use grognard_engine::Names;
use grognard_hex::{Direction, Orientation};

/// BC-SCN-1 (provisional): a Battle Cry scenario is played on a pointy-top map (the board's
/// hex rows run across it, so that "toward one's own edge" is a row), by two sides whose
/// home edges are north and south, each with its hand size; the flags to win are no more
/// than the enemy's pieces, so that a game always can end.
pub(super) fn build(s: &Scenario) -> Result<BattleCry, Problems> {
    build_with(s, Data::shipped())
}

/// [`build`] with other tables than the shipped `data.toml` (same terrain and card
/// names, other values): a player's printed tables, or a test's.
pub(super) fn build_with(s: &Scenario, data: &'static Data) -> Result<BattleCry, Problems> {
    let mut problems: Vec<Problem> = Vec::new();
    let top = Loc { line: 1, column: 1 };
    let first = s.first_side.clone();
    let Some(second) = s.sides.iter().map(|x| x.id.clone()).find(|id| *id != first) else {
        return Err(Problems(vec![s.problem(
            s.sides.first().map_or(top, |x| x.loc),
            "BC-SCN-1: Battle Cry needs two sides",
        )]));
    };
    if s.sides.len() > 2 {
        problems.push(s.problem(s.sides[2].loc, "BC-SCN-1: Battle Cry has exactly two sides"));
    }
    if s.map.orientation() != Orientation::PointyTop {
        problems.push(s.problem(
            top,
            "BC-SCN-1: Battle Cry is played on a pointy-top map (orientation = \"pointy\"): its hex rows run across the board",
        ));
    }
    let sides = [first, second];
    let side_index = |id: &str| u8::from(sides[1] == id);
    let mut north = [false; 2];
    let mut hand = [0u8; 2];
    for (i, id) in sides.iter().enumerate() {
        let side = crate::common::data::side(s, id)?;
        match side.home_edge {
            Some(Edge::North) => north[i] = true,
            Some(Edge::South) => north[i] = false,
            _ => problems.push(s.problem(
                side.loc,
                format!("BC-SCN-1: side `{id}` needs home_edge = \"north\" or \"south\": its units retreat toward it"),
            )),
        }
        hand[i] = side
            .values
            .get("hand")
            .and_then(grognard_engine::scenario::Value::as_int)
            .and_then(|v| u8::try_from(v).ok())
            .unwrap_or(0);
        if hand[i] == 0 {
            problems.push(s.problem(
                side.loc,
                format!("BC-CARD-4: side `{id}` needs its hand size: values = {{ hand = N }}"),
            ));
        }
    }
    if north[0] == north[1] && problems.is_empty() {
        problems.push(s.problem(
            crate::common::data::side(s, &sides[1])?.loc,
            "BC-SCN-1: the two sides need different home edges, one north and one south",
        ));
    }
    let mut pieces = Vec::with_capacity(s.units.len());
    for u in &s.units {
        let Some(kind) = Kind::from_name(&u.kind) else {
            problems.push(s.problem(
                u.loc,
                format!("unit `{}` is of unknown type `{}`", u.id, u.kind),
            ));
            continue;
        };
        let full = match kind {
            Kind::Infantry => data.figures.infantry,
            Kind::Cavalry => data.figures.cavalry,
            Kind::Artillery => data.figures.artillery,
            Kind::General => data.figures.general,
        };
        let figures = u
            .int("figures")
            .and_then(|f| u8::try_from(f).ok())
            .unwrap_or(full);
        if figures > full {
            problems.push(s.problem(
                u.loc,
                format!(
                    "unit `{}`: {} has at most {full} figures",
                    u.id,
                    kind.name()
                ),
            ));
        }
        if u.hex.is_none() {
            problems.push(s.problem(
                u.loc,
                format!(
                    "unit `{}`: Battle Cry has no reinforcements; give it a hex with `at`",
                    u.id
                ),
            ));
        }
        pieces.push(Piece {
            id: u.id.clone(),
            side: side_index(&u.side),
            kind,
            figures,
            start: u.hex,
        });
    }
    // BC-GEN-2: a general starts attached to a unit of its own side, never an enemy's.
    for (g, u) in s.units.iter().zip(&pieces) {
        if u.kind != Kind::General {
            continue;
        }
        let host = s
            .units
            .iter()
            .zip(&pieces)
            .find(|(_, p)| p.kind != Kind::General && p.start.is_some() && p.start == u.start);
        if let Some((h, p)) = host {
            if p.side != u.side {
                problems.push(s.problem(
                    g.loc,
                    format!(
                        "BC-SCN-1: general `{}` starts in the hex of `{}`, a unit of the other side: a general shares a hex only with a unit of its own side (BC-GEN-2)",
                        g.id, h.id
                    ),
                ));
            }
        }
    }
    let flags_to_win = read_victory(s, &sides, &mut problems);
    for (i, need) in flags_to_win.iter().enumerate() {
        let enemy = pieces.iter().filter(|p| usize::from(p.side) != i).count();
        if usize::from(*need) > enemy {
            problems.push(s.problem(
                s.victory.loc_of("flags"),
                format!(
                    "BC-SCN-1: `{}` needs {need} flags but the enemy has only {enemy} units and generals",
                    sides[i]
                ),
            ));
        }
    }
    let dividers = read_dividers(s, &mut problems);
    if !problems.is_empty() {
        problems.sort();
        return Err(Problems(problems));
    }
    // Tables other than the shipped ones must name what the scenario and the cards use.
    let shipped = Data::shipped();
    let same_cards = data.cards.len() == shipped.cards.len()
        && data
            .cards
            .iter()
            .zip(&shipped.cards)
            .all(|(a, b)| a.id == b.id);
    let mut table_problems: Vec<Problem> = s
        .terrain_names
        .iter()
        .filter(|t| !data.terrain.contains_key(*t))
        .map(|t| s.problem(top, format!("BC-SCN-1: the tables have no terrain `{t}`")))
        .collect();
    if !same_cards {
        table_problems.push(s.problem(
            top,
            "BC-SCN-1: the tables must list the shipped cards, by the same ids in the same order",
        ));
    }
    if !table_problems.is_empty() {
        return Err(Problems(table_problems));
    }
    let map = s.map;
    let hexes = s
        .terrain
        .cells()
        .iter()
        .map(|&t| {
            let row = &data.terrain[&s.terrain_names[usize::from(t)]];
            HexInfo {
                terrain: t,
                stop: row.stop,
                impassable: row.impassable,
                blocks_sight: row.blocks_sight,
                protection: row.protection,
                battle_on_entering: row.battle_on_entering,
            }
        })
        .collect::<Vec<HexInfo>>();
    let mut side_protection = vec![0u8; map.len() * 6];
    for (i, h) in map.hexes().enumerate() {
        for d in Direction::ALL {
            side_protection[i * 6 + d.index()] = s
                .features(h, d)
                .iter()
                .filter_map(|f| data.hexside.get(*f))
                .map(|r| r.protection)
                .max()
                .unwrap_or(0);
        }
    }
    let neighbors = map
        .hexes()
        .map(|h| {
            Direction::ALL.map(|d| {
                map.index(h.neighbor(d))
                    .filter(|&i| !hexes[i].impassable)
                    .and_then(|i| u32::try_from(i).ok())
                    .unwrap_or(OFF_MAP)
            })
        })
        .collect();
    let card_kinds = data
        .cards
        .iter()
        .map(|row| {
            row.types
                .iter()
                .filter_map(|t| Kind::from_name(t))
                .fold(0, |acc, k| acc | cards::kind_bit(k))
        })
        .collect();
    let fight_back_dice = data
        .cards
        .iter()
        .find(|c| c.kind == CardKind::FightBack)
        .map_or(0, |c| c.dice);
    let side_pieces = [0, 1].map(|side| {
        crate::common::lookup::ids(pieces.len())
            .filter(|u| pieces[u.index()].side == side)
            .collect()
    });
    let unit_rows = Kind::ALL.map(|k| data.units[k.name()].clone());
    let range = unit_rows.iter().map(|r| r.dice.len()).max().unwrap_or(0);
    let lines = line_of_sight::Lines::new(u32::try_from(range).unwrap_or(u32::MAX));
    let mut deck = Vec::with_capacity(data.deck_size());
    for (i, c) in data.cards.iter().enumerate() {
        let card = Card(u8::try_from(i).expect("at most 255 kinds of card"));
        deck.extend(std::iter::repeat_n(card, usize::from(c.count)));
    }
    Ok(BattleCry {
        id: crate::common::stamp::next_binding(),
        data,
        names: Names::of_scenario(s),
        map,
        // Named by many events: kept for the process (no count a clone).
        side_texts: sides.each_ref().map(|s| Text::lasting(s)),
        sides,
        north,
        pieces,
        side_pieces,
        hexes,
        terrain_names: s.terrain_names.clone(),
        side_protection,
        neighbors,
        lines,
        fire_sets: std::sync::OnceLock::new(),
        hex_of: map.hexes().collect(),
        card_kinds,
        fight_back_dice,
        sections: {
            let geo = sections::geometry(&map, dividers);
            north.map(|n| sections::as_named(&geo, n))
        },
        dividers,
        hand,
        flags_to_win,
        turns: s.turns,
        deck,
        unit_rows,
    })
}

/// `[victory] flags = N`, or `flags = { side = N, ... }` (BC-VIC-1).
fn read_victory(s: &Scenario, sides: &[String; 2], problems: &mut Vec<Problem>) -> [u8; 2] {
    let t = &s.victory;
    let mut need = [0u8; 2];
    let small = |v: &toml::Value| {
        v.as_integer()
            .and_then(|n| u8::try_from(n).ok())
            .filter(|&n| n > 0)
    };
    for (key, value) in &t.table {
        let loc = t.loc_of(key);
        match (key.as_str(), value) {
            ("flags", toml::Value::Table(per_side)) => {
                for (side, n) in per_side {
                    match (sides.iter().position(|x| x == side), small(n)) {
                        (Some(i), Some(n)) => need[i] = n,
                        (None, _) => problems.push(s.problem(
                            t.loc_of(&format!("flags.{side}")),
                            format!("victory.flags: `{side}` is not a side"),
                        )),
                        (_, None) => problems.push(s.problem(
                            t.loc_of(&format!("flags.{side}")),
                            "victory.flags: a whole number from 1 to 255",
                        )),
                    }
                }
            }
            ("flags", v) => match small(v) {
                Some(n) => need = [n, n],
                None => problems.push(s.problem(
                    loc,
                    "victory.flags: a whole number from 1 to 255, or a table of one per side",
                )),
            },
            _ => problems.push(s.problem(
                loc,
                format!("unknown victory key `{key}`; Battle Cry reads `flags`"),
            )),
        }
    }
    for (i, n) in need.iter().enumerate() {
        if *n == 0 {
            problems.push(s.problem(
                t.loc,
                format!(
                    "BC-VIC-1: [victory] needs `flags`, the number of flags `{}` must collect",
                    sides[i]
                ),
            ));
        }
    }
    need
}

/// `[battle_cry] dividers = [left, right]`: the printed columns whose hex centres the two
/// dividing lines cross in unshoved rows (BC-SEC-1). By default the two columns a third of
/// the way in from each side: 5 and 9 on the usual 13 hexes.
fn read_dividers(s: &Scenario, problems: &mut Vec<Problem>) -> [u32; 2] {
    let cols = s.map.cols();
    let d1 = (cols + 1) / 3 + 1;
    let mut dividers = [d1.min(cols), (cols + 1).saturating_sub(d1).max(1)];
    let Some(t) = s.sections.get("battle_cry") else {
        return dividers;
    };
    for (key, value) in &t.table {
        let loc = t.loc_of(key);
        if key != "dividers" {
            problems.push(s.problem(
                loc,
                format!("unknown key `{key}` in [battle_cry]; it reads `dividers`"),
            ));
            continue;
        }
        let cols_given: Option<Vec<u32>> = value.as_array().and_then(|a| {
            a.iter()
                .map(|v| v.as_integer().and_then(|n| u32::try_from(n).ok()))
                .collect()
        });
        match cols_given.as_deref() {
            Some(&[a, b]) if 1 <= a && a < b && b <= cols => dividers = [a, b],
            _ => problems.push(s.problem(
                loc,
                format!(
                    "BC-SEC-1: `dividers` is two printed columns, west first, from 1 to {cols}"
                ),
            )),
        }
    }
    dividers
}

pub(super) fn initial_state(rules: &BattleCry) -> State {
    State {
        turn: 1,
        active: 0,
        phase: Phase::Deal,
        pieces: rules
            .pieces
            .iter()
            .map(|p| PieceState {
                hex: p.start,
                figures: p.figures,
                order: super::Order::None,
                moved: false,
                battled: false,
                waded: false,
            })
            .collect(),
        deck: rules.deck.clone(),
        hands: [Vec::new(), Vec::new()],
        discard: Vec::new(),
        played: None,
        fight_back: None,
        flags: [0, 0],
        pending: None,
        outcome: None,
        stamp: super::stamp::Stamp::default(),
        orders: super::order_sets::OrderSets::none_ordered(rules.pieces.len()),
    }
}
