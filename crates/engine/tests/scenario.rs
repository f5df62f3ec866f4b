//! Scenario files: reading, validation with located problems, the built-in scenario,
//! serde round trips and the SVG map.

use grognard_engine::scenario::{
    self, Edge, OptionSpec, Problems, Scenario, UnitType, Value, ValueKind, ValueSpec, Vocabulary,
};
use grognard_hex::{Direction, Hex, Orientation};

const BRIDGE_AT_MORNE: &str =
    include_str!("../../../scenarios/morne-plaine/bridge-at-morne.toml");

/// The Morne Plaine words as far as the scenario tests need them; the ruleset supplies
/// the real vocabulary.
pub fn morne_plaine_test_vocabulary() -> Vocabulary {
    let core = |t: UnitType| {
        t.value(ValueSpec::int("cs", 1, 12))
            .value(ValueSpec::int("ma", 1, 12))
    };
    Vocabulary::new("morne-plaine")
        .terrains([
            "clear", "rough", "coppice", "orchard", "woods", "village", "marsh", "fort",
        ])
        .hexside_features([
            "stream",
            "ford",
            "bridge",
            "river",
            "major_river",
            "slope",
            "double_slope",
        ])
        .path_kinds(["road", "track"])
        .unit_type(core(UnitType::new("infantry")).value(ValueSpec::int("mv", 0, 9)))
        .unit_type(
            core(UnitType::new("cavalry"))
                .value(ValueSpec::int("mv", 0, 9))
                .value(ValueSpec::one_of("class", ["light", "heavy", "dromedary"]).optional()),
        )
        .unit_type(
            core(UnitType::new("artillery"))
                .value(ValueSpec::int("mv", 0, 9))
                .value(ValueSpec::int("bv", 1, 12))
                .value(ValueSpec::int("range", 1, 5)),
        )
        .unit_type(core(UnitType::new("leader")).value(ValueSpec::int("stripes", 0, 5)))
        .sides(["orange", "blue"])
        .option(OptionSpec::new(
            "bog_test",
            ValueKind::Bool,
            true,
            "Units entering marsh roll to see whether they bog down",
        ))
        .option(OptionSpec::new(
            "crt",
            ValueKind::OneOf(vec!["provisional".into(), "printed".into()]),
            "provisional",
            "Which combat results table to use",
        ))
}

fn vocab_for(name: &str) -> Option<Vocabulary> {
    (name == "morne-plaine").then(morne_plaine_test_vocabulary)
}

fn bridge_at_morne() -> Scenario {
    match scenario::load("bridge-at-morne.toml", BRIDGE_AT_MORNE, vocab_for) {
        Ok(s) => s,
        Err(problems) => panic!("the built-in scenario has problems:\n{problems}"),
    }
}

fn problems(text: &str) -> Vec<String> {
    match scenario::load("broken.toml", text, vocab_for) {
        Ok(_) => panic!("expected problems"),
        Err(ps) => ps.iter().map(ToString::to_string).collect(),
    }
}

fn hex(s: &Scenario, label: &str) -> Hex {
    s.hex(label).unwrap_or_else(|| panic!("no hex {label}"))
}

#[test]
fn bridge_at_morne_validates() {
    let s = bridge_at_morne();
    assert_eq!(s.id, "bridge-at-morne");
    assert_eq!(s.ruleset, "morne-plaine");
    assert_eq!(s.seed, 1815);
    assert_eq!(s.turns, Some(12));
    assert_eq!(s.first_side, "blue");
    assert_eq!((s.map.cols(), s.map.rows()), (16, 12));
    assert_eq!(s.map.orientation(), Orientation::FlatTop);
    assert_eq!(s.sides.len(), 2);
    assert_eq!(s.side("orange").unwrap().home_edge, Some(Edge::North));
    assert_eq!(s.side("blue").unwrap().home_edge, Some(Edge::South));
    let count = |side: &str| s.units.iter().filter(|u| u.side == side).count();
    assert_eq!((count("orange"), count("blue")), (11, 12));
    for kind in ["infantry", "cavalry", "artillery", "leader"] {
        assert!(s.units.iter().any(|u| u.kind == kind), "no {kind}");
    }
    // Terrain and elevation.
    assert_eq!(s.terrain_at(hex(&s, "0806")), Some("village"));
    assert_eq!(s.terrain_at(hex(&s, "0403")), Some("fort"));
    assert_eq!(s.terrain_at(hex(&s, "0409")), Some("marsh"));
    assert_eq!(s.terrain_at(hex(&s, "0101")), Some("clear"));
    assert_eq!(s.terrain_at(hex(&s, "1601")), Some("clear"));
    assert_eq!(s.terrain_at(hex(&s, "0112")), Some("woods"));
    assert_eq!(s.elevation_at(hex(&s, "0303")), Some(2));
    assert_eq!(s.elevation_at(hex(&s, "1111")), Some(1));
    assert_eq!(s.elevation_at(hex(&s, "0808")), Some(0));
    let used: std::collections::BTreeSet<&str> =
        s.map.hexes().filter_map(|h| s.terrain_at(h)).collect();
    for t in ["clear", "rough", "coppice", "orchard", "woods", "village", "marsh", "fort"] {
        assert!(used.contains(t), "no {t}");
    }
    // Hexside features: the river bridge, the stream bridge and the ford.
    let north = hex(&s, "0809");
    assert!(s.has_feature(north, Direction::S, "river"));
    assert!(s.has_feature(north, Direction::S, "bridge"));
    let mill = hex(&s, "1103");
    assert_eq!(s.features(mill, Direction::SE), ["stream", "ford"]);
    assert!(s.has_feature(hex(&s, "1106"), Direction::SE, "bridge"));
    assert!(s.has_feature(hex(&s, "0303"), Direction::SW, "double_slope"));
    assert!(s.has_feature(hex(&s, "0303"), Direction::N, "slope"));
    // Roads and the track: two crossroads.
    let road = s.path_bit("road").unwrap();
    let track = s.path_bit("track").unwrap();
    assert_eq!(s.paths.len(), 3);
    let crossroads = hex(&s, "0806");
    assert_eq!(s.path_hexes.get(crossroads), Some(&road));
    for dir in [Direction::N, Direction::S, Direction::NW, Direction::NE] {
        assert!(s.has_path(crossroads, dir, "road"), "no road {dir:?}");
    }
    assert_eq!(s.path_hexes.get(hex(&s, "0803")), Some(&(road | track)));
    assert!(s.has_path(mill, Direction::SE, "track"));
    // Places, reinforcements, options, victory.
    assert_eq!(s.places.iter().filter(|p| p.objective).count(), 4);
    let grenadiers = s.unit("o-grenadiers").unwrap();
    assert_eq!(grenadiers.hex, None);
    assert_eq!(grenadiers.enters.unwrap().turn, 4);
    assert_eq!(s.unit("o-hussars").unwrap().text("class"), Some("light"));
    assert_eq!(s.unit("b-heavy-battery").unwrap().int("range"), Some(3));
    assert_eq!(s.unit("b-ashcombe").unwrap().int("stripes"), Some(3));
    assert_eq!(s.options["bog_test"], Value::Bool(true));
    assert_eq!(s.options["crt"], Value::Text("provisional".into()));
    assert_eq!(s.victory.table["margin"].as_integer(), Some(3));
    assert!(s.victory.loc.line > 1);
    assert!(s.victory.loc_of("sudden_death.side").line >= s.victory.loc.line);
}

#[test]
fn unit_locations_point_at_their_tables() {
    let s = bridge_at_morne();
    let line = BRIDGE_AT_MORNE
        .lines()
        .position(|l| l.contains("id = \"o-vauclair\""))
        .unwrap();
    // The [[units]] header is the line before the id.
    assert_eq!(s.unit("o-vauclair").unwrap().loc.line, line);
    assert_eq!(s.unit("o-vauclair").unwrap().loc.column, 1);
}

#[test]
fn scenario_round_trips_through_json() {
    let s = bridge_at_morne();
    let json = serde_json::to_string(&s).unwrap();
    let back: Scenario = serde_json::from_str(&json).unwrap();
    assert_eq!(back, s);
}

#[test]
fn features_and_path_links_read_from_both_sides() {
    let s = bridge_at_morne();
    for h in s.map.hexes() {
        for dir in Direction::ALL {
            let across = h.neighbor(dir);
            if !s.map.contains(across) {
                continue;
            }
            assert_eq!(
                s.hexsides.get(h, dir),
                s.hexsides.get(across, dir.opposite()),
                "features of {}/{}",
                s.label(h),
                s.label(across)
            );
            assert_eq!(
                s.path_links.get(h, dir),
                s.path_links.get(across, dir.opposite()),
                "paths of {}/{}",
                s.label(h),
                s.label(across)
            );
        }
    }
    let bridge = hex(&s, "0810");
    assert!(s.has_feature(bridge, Direction::N, "bridge"));
    assert!(s.has_path(bridge, Direction::N, "road"));
    assert!(s.has_path(hex(&s, "0809"), Direction::S, "road"));
}
