//! The built-in Morne Plaine scenarios: valid, drawn, and as the issue asks of the big
//! one (about 20 x 15 hexes, every kind of ground, 8 to 14 units a side of every class).

use crate::common;
use grognard_hex::Direction;
use std::collections::BTreeSet;

#[test]
fn heights_of_aubrac_has_every_feature_the_rules_use() {
    let s = common::builtin("heights-of-aubrac");
    assert_eq!((s.map.cols(), s.map.rows()), (20, 15));
    let terrains: BTreeSet<&str> = s.map.hexes().filter_map(|h| s.terrain_at(h)).collect();
    for t in [
        "clear", "woods", "village", "town", "marsh", "fort", "hamlet", "orchard", "rough",
        "coppice",
    ] {
        assert!(terrains.contains(t), "{t}");
    }
    let mut features = BTreeSet::new();
    for h in s.map.hexes() {
        for d in Direction::ALL {
            features.extend(s.features(h, d));
        }
    }
    for f in [
        "stream",
        "ford",
        "bridge",
        "major_river",
        "slope",
        "double_slope",
    ] {
        assert!(features.contains(f), "{f}");
    }
    // A bridge and a ford on the stream, and on the major river.
    let on = |a: &str, b: &str, f: &str| {
        let (a, b) = (s.hex(a).unwrap(), s.hex(b).unwrap());
        s.has_feature(a, a.direction_to(b).unwrap(), f)
    };
    assert!(on("0911", "0912", "stream") && on("0911", "0912", "bridge"));
    assert!(on("0411", "0412", "stream") && on("0411", "0412", "ford"));
    assert!(on("1710", "1810", "major_river") && on("1710", "1810", "bridge"));
    assert!(on("1704", "1804", "major_river") && on("1704", "1804", "ford"));
    // Roads with a crossroads, and a track.
    let kind = |name: &str| s.path_kinds.iter().position(|k| k == name).unwrap();
    let roads = s
        .paths
        .iter()
        .filter(|p| usize::from(p.kind) == kind("road"))
        .count();
    assert!(roads >= 2 && s.paths.iter().any(|p| usize::from(p.kind) == kind("track")));
    let road = s.path_bit("road").unwrap();
    let crossroads = s
        .map
        .hexes()
        .filter(|&h| {
            Direction::ALL
                .iter()
                .filter(|&&d| s.path_links.get(h, d) & road != 0)
                .count()
                >= 3
        })
        .count();
    assert!(crossroads >= 1);
    // Hills.
    assert!(s.map.hexes().any(|h| s.elevation_at(h) == Some(2)));
    // Units: 8 to 14 a side, every class, leaders included.
    for side in ["orange", "blue"] {
        let units: Vec<_> = s.units.iter().filter(|u| u.side == side).collect();
        assert!((8..=14).contains(&units.len()), "{side}: {}", units.len());
        for kind in ["infantry", "cavalry", "artillery", "leader"] {
            assert!(units.iter().any(|u| u.kind == kind), "{side} {kind}");
        }
    }
    assert!(s.places.iter().filter(|p| p.objective).count() >= 3);
}

#[test]
fn the_built_in_scenarios_validate_and_draw() {
    for id in ["bridge-at-morne", "heights-of-aubrac"] {
        let s = common::builtin(id);
        let svg = grognard_engine::svg::render(&s);
        assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"), "{id}");
        assert!(svg.contains(&s.title), "{id}");
        let g = common::game(s);
        assert_eq!(common::of_type(&g.legal(), "end_phase").len(), 1, "{id}");
    }
}

/// Moves `unit` of a scenario to `label`.
fn place(s: &mut grognard_engine::scenario::Scenario, unit: &str, label: &str) {
    let hex = s.map.parse_label(label).expect("label");
    let u = s.units.iter_mut().find(|u| u.id == unit).expect("unit");
    u.hex = Some(hex);
}

#[test]
fn mp_cmb_5_the_built_in_bridges_and_fords_can_be_attacked() {
    use grognard_engine::{Game, Ruleset, UnitId};
    use grognard_rules::morne_plaine::{Action, MornePlaine, Phase};
    // The Bridge at Morne: b-1-foot (0810) faces o-2-line (0809) over the bridge of
    // Morne. The Heights of Aubrac: the Sarre bridge (1710/1810) and the old ford of the
    // Sarre (1704/1804), both over the major river, with units set on either side.
    let mut heights = common::builtin("heights-of-aubrac");
    place(&mut heights, "o-hussars", "1710");
    place(&mut heights, "b-lancers", "1804");
    place(&mut heights, "o-cuirassiers", "1704");
    for (s, attacks) in [
        (
            common::builtin("bridge-at-morne"),
            vec![("b-1-foot", "o-2-line")],
        ),
        (
            heights,
            vec![
                ("b-horse-battery", "o-hussars"),
                ("b-lancers", "o-cuirassiers"),
            ],
        ),
    ] {
        let id = s.id.clone();
        let mut g = Game::<MornePlaine>::new(s, None).expect("game");
        while (g.state().phase, g.state().active) != (Phase::Combat, 0) {
            g.apply(Action::EndPhase).expect("end phase");
        }
        let unit = |name: &str| -> UnitId { g.rules().names().unit(name).expect("unit") };
        let legal = g.legal_actions();
        for (a, d) in attacks {
            let attack = Action::Attack {
                unit: unit(a),
                target: unit(d),
            };
            assert!(legal.contains(&attack), "{id}: {a} on {d}");
        }
    }
}
