//! Scenario files: reading, validation with located problems, the built-in scenario,
//! serde round trips and the SVG map.

use grognard_engine::scenario::{
    self, Edge, OptionSpec, Scenario, UnitType, Value, ValueKind, ValueSpec, Vocabulary,
};
use grognard_hex::{Direction, Hex, Orientation};

const BRIDGE_AT_MORNE: &str = include_str!("../../../scenarios/morne-plaine/bridge-at-morne.toml");

/// The Morne Plaine words as far as the scenario tests need them; the ruleset supplies
/// the real vocabulary.
#[must_use]
pub fn morne_plaine_test_vocabulary() -> Vocabulary {
    let core = |t: UnitType| {
        t.value(ValueSpec::int("cs", 1, 12))
            .value(ValueSpec::int("ma", 1, 12))
    };
    Vocabulary::new("morne_plaine")
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
    (name == "morne_plaine").then(morne_plaine_test_vocabulary)
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
    assert_eq!(s.ruleset, "morne_plaine");
    assert_eq!(s.seed, 1815);
    assert_eq!(s.turns, Some(12));
    assert_eq!(s.first_side, "blue");
    assert_eq!((s.map.cols(), s.map.rows()), (16, 12));
    assert_eq!(s.map.orientation(), Orientation::FlatTop);
    assert_eq!(s.sides.len(), 2);
    assert_eq!(s.side("orange").unwrap().home_edge, Some(Edge::North));
    assert_eq!(s.side("blue").unwrap().home_edge, Some(Edge::South));
    let count = |side: &str| s.units.iter().filter(|u| u.side == side).count();
    assert_eq!((count("orange"), count("blue")), (11, 13));
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
    for t in [
        "clear", "rough", "coppice", "orchard", "woods", "village", "marsh", "fort",
    ] {
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
    assert_eq!(s.places.iter().filter(|p| p.objective).count(), 5);
    let grenadiers = s.unit("o-grenadiers").unwrap();
    assert_eq!(grenadiers.hex, None);
    assert_eq!(grenadiers.enters.unwrap().turn, 2);
    assert_eq!(s.unit("o-hussars").unwrap().text("class"), Some("light"));
    assert_eq!(s.unit("b-heavy-battery").unwrap().int("range"), Some(3));
    assert_eq!(s.unit("b-ashcombe").unwrap().int("stripes"), Some(3));
    assert_eq!(s.options["bog_test"], Value::Bool(true));
    assert_eq!(s.options["crt"], Value::Text("provisional".into()));
    assert_eq!(s.victory.table["margin"].as_integer(), Some(4));
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
    // What a hexside holds, as read from one of its two hexes.
    let side = |h: Hex, dir: Direction| (s.hexsides.get(h, dir), s.path_links.get(h, dir));
    for h in s.map.hexes() {
        for dir in Direction::ALL {
            let across = h.neighbor(dir);
            if !s.map.contains(across) {
                continue;
            }
            assert_eq!(
                side(h, dir),
                side(across, dir.opposite()),
                "features and paths of {}/{}",
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

/// A small valid scenario; tests append tables to it.
const MINI: &str = r#"[scenario]
id = "mini"
title = "Mini"
ruleset = "morne_plaine"

[map]
cols = 4
rows = 3
legend = { "." = "clear", w = "woods" }
terrain = '''
. . w .
. w . .
. . . .
'''

[[sides]]
id = "orange"

[[sides]]
id = "blue"
"#;

fn mini(extra: &str) -> String {
    format!("{MINI}\n{extra}")
}

/// Every kind of problem in one file, each reported at its own line and column. The
/// command line's tests validate the same file.
const BROKEN: &str = include_str!("broken.toml");

#[test]
fn broken_file_reports_every_problem_at_its_place() {
    let expected = [
        "broken.toml:6:1: unknown key `colour` in [scenario]; expected one of: id, title, description, ruleset, seed, turns, first_side",
        "broken.toml:9:12: `bog_test` must be true or false, not \"yes\"",
        "broken.toml:10:1: unknown option `fog`; ruleset `morne_plaine` has: bog_test, crt",
        "broken.toml:15:44: unknown terrain `jungle` in the legend; ruleset `morne_plaine` has: clear, rough, coppice, orchard, woods, village, marsh, fort",
        "broken.toml:18:1: row 02 of `terrain` has 3 hexes but the map has 4 columns",
        "broken.toml:18:5: unknown terrain code `x` in hex 0302; the legend has: ., j, w",
        "broken.toml:19:9: row 03 of `terrain` has 5 hexes but the map has 4 columns: this one is extra",
        "broken.toml:20:1: `terrain` has 4 rows but the map has 3: this row is extra",
        "broken.toml:25:23: hexes `0101` and `0103` are not adjacent",
        "broken.toml:25:37: hex `0199` is off the map (4 columns by 3 rows)",
        "broken.toml:28:11: unknown hexside feature `wall`; ruleset `morne_plaine` has: stream, ford, bridge, river, major_river, slope, double_slope",
        "broken.toml:33:26: hex `0104` is off the map (4 columns by 3 rows)",
        "broken.toml:37:26: the track jumps from `0201` to `0401`: the hexes are not adjacent",
        "broken.toml:41:7: `09x9` is not a hex label: expected 4 digits, column then row (e.g. `0304`)",
        "broken.toml:42:9: unknown side `green`; the sides are: orange, blue",
        "broken.toml:61:6: two units in hex 0102: `b` and `a` (line 50)",
        "broken.toml:62:10: unit `b` (infantry) lacks the value `mv`",
        "broken.toml:62:17: `cs` = 15 is out of range: must be from 1 to 12",
        "broken.toml:65:6: duplicate unit id `a` (first at line 50)",
        "broken.toml:66:8: unit `a` belongs to unknown side `purple`; the sides are: orange, blue",
        "broken.toml:68:6: hex `0509` is off the map (4 columns by 3 rows)",
        "broken.toml:69:36: unknown value `morale` for unit `a` (infantry); expected: cs, ma, mv",
        "broken.toml:75:19: `turn` must be at least 1 and at most 6, not 9",
        "broken.toml:76:33: `mv` must be a whole number from 0 to 9, not \"four\"",
        "broken.toml:76:49: `class` must be one of \"light\", \"heavy\", \"dromedary\", not \"medium\"",
        "broken.toml:81:8: unknown unit type `zeppelin`; ruleset `morne_plaine` has: infantry, cavalry, artillery, leader",
    ];
    let got = problems(BROKEN);
    assert_eq!(got, expected, "got:\n{}", got.join("\n"));
}

#[test]
fn problems_display_one_per_line() {
    let err = scenario::load("broken.toml", BROKEN, vocab_for).unwrap_err();
    let text = err.to_string();
    assert_eq!(text.lines().count(), err.len());
    assert!(text.starts_with("broken.toml:6:1: unknown key `colour`"));
    let first = &err.0[0];
    assert_eq!((first.line, first.column), (6, 1));
    assert_eq!(first.loc().to_string(), "6:1");
}

#[test]
fn toml_syntax_errors_are_all_located() {
    let text = "[scenario]\nid = \"x\ntitle = \"T\"\n[map]\ncols = \n";
    let err = scenario::parse("bad.toml", text).unwrap_err();
    let at: Vec<(usize, usize)> = err.iter().map(|p| (p.line, p.column)).collect();
    assert_eq!(at, [(2, 8), (5, 8)], "{err}");
    assert!(err.iter().all(|p| p.message.starts_with("TOML syntax: ")));
    let dup = scenario::parse("dup.toml", "[a]\nx = 1\n[a]\ny = 2\n").unwrap_err();
    assert_eq!(dup.0[0].line, 3, "{dup}");
}

#[test]
fn missing_tables_and_keys_are_reported() {
    let text = "[scenario]\nid = \"x\"\nruleset = \"morne_plaine\"\n";
    let got = problems(text);
    assert_eq!(
        got,
        [
            "broken.toml:1:1: missing [map] table",
            "broken.toml:1:1: missing `title` in [scenario]",
            "broken.toml:1:1: side `blue` of ruleset `morne_plaine` is not declared in [[sides]]",
            "broken.toml:1:1: side `orange` of ruleset `morne_plaine` is not declared in [[sides]]",
        ]
    );
    let text = "[scenario]\ntitle = \"T\"\nruleset = \"morne_plaine\"\n[map]\ncols = \"four\"\nrows = 3\nlegend = {}\n";
    assert_eq!(
        problems(text),
        [
            "broken.toml:1:1: missing `id` in [scenario]",
            "broken.toml:1:1: side `blue` of ruleset `morne_plaine` is not declared in [[sides]]",
            "broken.toml:1:1: side `orange` of ruleset `morne_plaine` is not declared in [[sides]]",
            "broken.toml:4:1: missing `terrain` in [map]",
            "broken.toml:5:8: `cols` must be a whole number, not a string",
        ]
    );
}

#[test]
fn unknown_ruleset_is_reported_at_its_key() {
    let text = MINI.replace("ruleset = \"morne_plaine\"", "ruleset = \"chess\"");
    assert_eq!(
        problems(&text),
        ["broken.toml:4:11: unknown ruleset `chess`"]
    );
    // Validating against another ruleset's words is caught too.
    let spec = scenario::parse("mini.toml", MINI).unwrap();
    let other = Vocabulary::new("battle_cry").terrains(["clear", "woods"]);
    let err = scenario::validate(&spec, &other).unwrap_err();
    assert!(
        err.iter()
            .any(|p| p.line == 4 && p.message.contains("is for ruleset `morne_plaine`")),
        "{err}"
    );
}

#[test]
fn options_are_checked_and_defaults_filled_in() {
    let s = scenario::load("mini.toml", MINI, vocab_for).unwrap();
    assert_eq!(s.options["bog_test"], Value::Bool(true));
    assert_eq!(s.options["crt"], Value::Text("provisional".into()));
    let text = MINI.replacen(
        "[map]",
        "[options]\nbog_test = false\ncrt = \"printed\"\n\n[map]",
        1,
    );
    let s = scenario::load("mini.toml", &text, vocab_for).unwrap();
    assert_eq!(s.options["bog_test"], Value::Bool(false));
    assert_eq!(s.options["crt"], Value::Text("printed".into()));
    let text = MINI.replacen("[map]", "[options]\ncrt = \"lenient\"\n\n[map]", 1);
    assert_eq!(
        problems(&text),
        ["broken.toml:7:7: `crt` must be one of \"provisional\", \"printed\", not \"lenient\""]
    );
}

#[test]
fn a_valid_mini_scenario_has_defaults() {
    let s = scenario::load("mini.toml", MINI, vocab_for).unwrap();
    assert_eq!(s.first_side, "orange");
    assert_eq!(s.turns, None);
    assert_eq!(s.description, "");
    assert!(s.units.is_empty() && s.paths.is_empty() && s.places.is_empty());
    assert!(s.map.hexes().all(|h| s.elevation_at(h) == Some(0)));
    // The default seed is a stable hash of the id.
    let again = scenario::load("mini.toml", MINI, vocab_for).unwrap();
    assert_eq!(s.seed, again.seed);
    assert_ne!(s.seed, 0);
    assert_eq!(s.victory.table.len(), 0);
    assert_eq!(s.victory.loc.line, 1);
}

#[test]
fn grid_rows_may_be_an_array_of_strings() {
    let text = MINI.replace(
        "terrain = '''\n. . w .\n. w . .\n. . . .\n'''",
        "terrain = [\n  \". . w .\",\n  '. w . z',\n  \". . . .\",\n]",
    );
    assert_eq!(
        problems(&text),
        ["broken.toml:12:10: unknown terrain code `z` in hex 0402; the legend has: ., w"]
    );
}

#[test]
fn grid_positions_without_a_leading_newline_and_with_escapes() {
    // Content right after the opening ''' starts on the same line.
    let text = MINI.replace("terrain = '''\n. . w .", "terrain = '''. . q .");
    assert_eq!(
        problems(&text),
        ["broken.toml:10:18: unknown terrain code `q` in hex 0301; the legend has: ., w"]
    );
    // A basic string with escapes cannot be mapped character for character: the
    // problem is reported at the string's start.
    let text = MINI.replace(
        "terrain = '''\n. . w .\n. w . .\n. . . .\n'''",
        "terrain = \". . w .\\n. w . .\\n. . q .\"",
    );
    assert_eq!(
        problems(&text),
        ["broken.toml:10:11: unknown terrain code `q` in hex 0303; the legend has: ., w"]
    );
}

#[test]
fn hexsides_take_a_direction_at_the_map_edge_and_may_not_repeat() {
    let text = mini(
        "[[hexsides]]\nfeature = \"river\"\nsides = [\"0101/n\", \"0101/nw\", \"0201/0202\", \"0202/0201\"]\n",
    );
    let got = problems(&text);
    assert_eq!(
        got,
        ["broken.toml:24:44: hexside 0201/0202 already has `river`"]
    );
    let text = mini("[[hexsides]]\nfeature = \"river\"\nsides = [\"0101/n\", \"0101/sw\"]\n");
    let s = scenario::load("mini.toml", &text, vocab_for).unwrap();
    let corner = hex(&s, "0101");
    assert!(s.has_feature(corner, Direction::N, "river"));
    assert!(s.has_feature(corner, Direction::SW, "river"));
    assert!(!s.has_feature(corner, Direction::S, "river"));
    let text = mini("[[hexsides]]\nfeature = \"river\"\nsides = [\"0101-0102\", \"0101/up\"]\n");
    let got = problems(&text);
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].starts_with("broken.toml:24:10: `0101-0102` is not a hexside"));
    assert!(
        got[1].starts_with("broken.toml:24:29: `up` is not a hex label"),
        "{}",
        got[1]
    );
}

#[test]
fn units_need_exactly_one_of_at_and_enters() {
    let unit = |place: &str| {
        mini(&format!(
            "[[units]]\nid = \"u\"\nside = \"blue\"\ntype = \"infantry\"\n{place}\nvalues = {{ cs = 1, ma = 1, mv = 1 }}\n"
        ))
    };
    assert_eq!(
        problems(&unit(
            "at = \"0101\"\nenters = { turn = 2, hex = \"0102\" }"
        )),
        ["broken.toml:27:10: unit `u` has both `at` and `enters`: give one"]
    );
    assert_eq!(
        problems(&unit("")),
        ["broken.toml:22:1: unit `u` has neither `at` nor `enters`: give one"]
    );
    let s = scenario::load(
        "m.toml",
        &unit("enters = { turn = 2, hex = \"0102\" }"),
        vocab_for,
    )
    .unwrap();
    let u = s.unit("u").unwrap();
    assert_eq!(u.hex, None);
    assert_eq!(
        u.enters.map(|e| (e.turn, s.label(e.hex))),
        Some((2, "0102".into()))
    );
}

#[test]
fn types_listed_in_may_share_hex_may_stack() {
    let vocab = morne_plaine_test_vocabulary().may_share_hex("leader", "infantry");
    let text = mini(
        "[[units]]\nid = \"l\"\nside = \"blue\"\ntype = \"leader\"\nat = \"0101\"\nvalues = { cs = 1, ma = 6, stripes = 2 }\n\n\
         [[units]]\nid = \"i\"\nside = \"blue\"\ntype = \"infantry\"\nat = \"0101\"\nvalues = { cs = 1, ma = 1, mv = 1 }\n\n\
         [[units]]\nid = \"k\"\nside = \"blue\"\ntype = \"leader\"\nat = \"0101\"\nvalues = { cs = 1, ma = 6, stripes = 2 }\n",
    );
    let err = scenario::load("m.toml", &text, |_| Some(vocab.clone())).unwrap_err();
    let got: Vec<String> = err.iter().map(ToString::to_string).collect();
    assert_eq!(
        got,
        ["m.toml:40:6: two units in hex 0101: `k` and `l` (line 22)"]
    );
    let two = text.split("\n\n[[units]]\nid = \"k\"").next().unwrap();
    let s = scenario::load("m.toml", two, |_| Some(vocab.clone())).unwrap();
    assert_eq!(s.units.len(), 2);
}

#[test]
fn fixed_sides_must_all_be_declared() {
    let text = MINI.replace("[[sides]]\nid = \"blue\"\n", "[[sides]]\nid = \"green\"\n");
    assert_eq!(
        problems(&text),
        [
            "broken.toml:1:1: side `blue` of ruleset `morne_plaine` is not declared in [[sides]]",
            "broken.toml:20:6: ruleset `morne_plaine` has no side `green`; its sides are: orange, blue",
        ]
    );
}

fn skirmish_vocabulary() -> Vocabulary {
    Vocabulary::new("skirmish")
        .terrains(["open", "brush"])
        .hexside_features(["wall"])
        .unit_type(
            UnitType::new("fighter")
                .value(ValueSpec::int("vigor", 0, 5))
                .value(ValueSpec::direction("guard").optional())
                .value(ValueSpec::bool("berserk").optional())
                .value(ValueSpec::text("weapon").optional()),
        )
        .side_value(ValueSpec::int("morale", 0, 9))
        .section("characters")
}

/// A pointy-top skirmish map with two mistakes.
const ALLEY_BROKEN: &str = r#"[scenario]
id = "alley"
title = "The Alley"
ruleset = "skirmish"

[map]
cols = 5
rows = 4
orientation = "pointy"
shove = "odd"
legend = { "." = "open", b = "brush" }
terrain = '''
. . b . .
 . . . . .
. b . . .
 . . . . .
'''

[[hexsides]]
feature = "wall"
sides = ["0202/e", "0202/0302"]

[[sides]]
id = "watch"
values = { morale = 5 }

[[sides]]
id = "thieves"
values = { morale = 3 }

[[units]]
id = "w1"
side = "watch"
type = "fighter"
at = "0202"
facing = "e"
values = { vigor = 3, guard = "W", berserk = false, weapon = "halberd" }

[[units]]
id = "t1"
side = "thieves"
type = "fighter"
at = "0402"
facing = "n"
values = { vigor = 2 }

[characters]
w1 = { name = "Sergeant Oakes", skills = ["halberd", "shout"] }
"#;

/// The alley with its mistakes put right.
fn alley() -> String {
    ALLEY_BROKEN
        .replace("\"0202/e\", \"0202/0302\"", "\"0202/e\"")
        .replace("facing = \"n\"", "facing = \"w\"")
}

#[test]
fn pointy_maps_name_directions_their_own_way() {
    let vocab = skirmish_vocabulary();
    let text = ALLEY_BROKEN;
    let err = scenario::load("alley.toml", text, |_| Some(vocab.clone())).unwrap_err();
    let got: Vec<String> = err.iter().map(ToString::to_string).collect();
    assert_eq!(
        got,
        [
            "alley.toml:21:20: hexside 0202/0302 already has `wall`",
            "alley.toml:44:10: `facing` = \"n\" is not a direction; use one of ne, e, se, sw, w, nw",
        ]
    );
    let fixed = alley();
    let s = scenario::load("alley.toml", &fixed, |_| Some(vocab.clone())).unwrap();
    assert_eq!(s.map.orientation(), Orientation::PointyTop);
    let w1 = s.unit("w1").unwrap();
    assert_eq!(w1.facing, Some(Direction::SE));
    assert_eq!(s.direction_name(Direction::SE), "e");
    assert_eq!(w1.text("guard"), Some("w"));
    assert_eq!(w1.flag("berserk"), Some(false));
    assert_eq!(w1.text("weapon"), Some("halberd"));
    assert_eq!(s.unit("t1").unwrap().facing, Some(Direction::NW));
    assert!(s.has_feature(hex(&s, "0302"), Direction::NW, "wall"));
    assert_eq!(s.terrain_at(hex(&s, "0301")), Some("brush"));
    assert_eq!(s.terrain_at(hex(&s, "0203")), Some("brush"));
    assert_eq!(s.side("watch").unwrap().values["morale"], Value::Int(5));
    let chars = &s.sections["characters"];
    assert_eq!(chars.table["w1"]["name"].as_str(), Some("Sergeant Oakes"));
    assert_eq!(chars.loc.line, 47);
    assert_eq!(chars.loc_of("w1.skills[1]").line, 48);
    assert_eq!(chars.loc_of("w1.skills[1]").column, 54);
    // A table the ruleset does not read is a problem.
    let text = format!("{fixed}\n[notes]\nauthor = \"me\"\n");
    let err = scenario::load("alley.toml", &text, |_| Some(vocab.clone())).unwrap_err();
    assert_eq!(err.len(), 1, "{err}");
    assert!(
        err.0[0].message.starts_with("unknown table [notes]"),
        "{err}"
    );
    assert_eq!(err.0[0].line, 50);
}

/// Checks that `svg` is one well-formed `<svg>` element: tags balance, attributes are
/// quoted, and every `&` starts an entity. Returns the number of elements.
fn check_xml(svg: &str) -> usize {
    let mut stack: Vec<&str> = Vec::new();
    let mut elements = 0;
    let mut rest = svg.trim();
    assert!(rest.starts_with("<svg "), "does not open with <svg");
    let check_text = |text: &str| {
        for (i, _) in text.match_indices('&') {
            let entity = &text[i..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;"]
                    .iter()
                    .any(|e| entity.starts_with(e)),
                "bare & in {:?}",
                &text[i..text.len().min(i + 20)]
            );
        }
    };
    while let Some(open) = rest.find('<') {
        let text = &rest[..open];
        assert!(!text.contains('>'), "stray > in {text:?}");
        check_text(text);
        let close = rest[open..].find('>').expect("unclosed tag") + open;
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop(), Some(name.trim()), "mismatched </{name}>");
            continue;
        }
        let self_closing = tag.ends_with('/');
        let tag = tag.trim_end_matches('/');
        let name = tag.split_whitespace().next().expect("empty tag");
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric()),
            "bad tag name {name:?}"
        );
        assert_eq!(
            tag.matches('"').count() % 2,
            0,
            "unbalanced quotes in <{tag}>"
        );
        check_text(tag);
        elements += 1;
        if stack.is_empty() {
            assert_eq!(elements, 1, "more than one root element");
        }
        if !self_closing {
            stack.push(name);
        }
    }
    assert!(rest.trim().is_empty(), "text after the root: {rest:?}");
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    elements
}

#[test]
fn svg_of_the_built_in_scenario_shows_what_the_file_says() {
    let s = bridge_at_morne();
    let svg = grognard_engine::svg::render(&s);
    assert!(check_xml(&svg) > 500);
    assert!(!svg.contains("NaN") && !svg.contains("inf,") && !svg.contains("=\"inf"));
    assert_eq!(svg.matches(r#"<polygon class="hex""#).count(), 16 * 12);
    for h in s.map.hexes() {
        let label = s.label(h);
        assert!(
            svg.contains(&format!(">{label}</text>")),
            "no label {label}"
        );
        assert!(svg.contains(&format!(r#"data-hex="{label}""#)));
    }
    for u in s.units.iter().filter(|u| u.hex.is_some()) {
        assert!(
            svg.contains(&format!(r#"data-unit="{}""#, u.id)),
            "no counter {}",
            u.id
        );
    }
    assert_eq!(svg.matches(r#"<g class="unit""#).count(), 21);
    assert!(svg.contains(">6-4-4</text>"), "infantry values");
    assert!(svg.contains(">LDR</text>"));
    // Two bridges, five objectives (and the legend's star), both paths kinds.
    assert_eq!(svg.matches(r#"class="bridge""#).count(), 2);
    assert_eq!(svg.matches(r#"<polygon class="objective""#).count(), 6);
    assert_eq!(svg.matches(r#"class="path road""#).count(), 2);
    assert_eq!(svg.matches(r#"class="path track""#).count(), 1);
    for word in [
        "Terrain",
        "woods",
        "marsh",
        "Hexsides",
        "double_slope",
        "ford",
        "Paths",
        "Sides",
        "Reinforcements",
        "Morne",
        "Mont Aubin redoubt",
        "12 turns; seed 1815",
    ] {
        assert!(svg.contains(&format!(">{word}")), "legend lacks {word}");
    }
    let raised = s
        .map
        .hexes()
        .filter(|&h| s.elevation_at(h) != Some(0))
        .count();
    assert_eq!(raised, 16);
    assert_eq!(svg.matches(r#"<polygon class="elev""#).count(), raised);
    // Stable: the same scenario draws the same picture.
    assert_eq!(svg, grognard_engine::svg::render(&s));
}

#[test]
fn svg_draws_pointy_maps_and_escapes_text() {
    let vocab = skirmish_vocabulary();
    let text = alley()
        .replace("title = \"The Alley\"", "title = \"Cut & <Run>\"")
        .replace(
            "\n[characters]",
            "\n[[places]]\nname = \"Rats' \\\"Nest\\\"\"\nhex = \"0503\"\nobjective = true\n\n[characters]",
        );
    let s = scenario::load("alley.toml", &text, |_| Some(vocab.clone())).unwrap();
    let svg = grognard_engine::svg::render(&s);
    check_xml(&svg);
    assert_eq!(svg.matches(r#"<polygon class="hex""#).count(), 20);
    assert_eq!(svg.matches(r#"<polygon class="facing""#).count(), 2);
    assert!(svg.contains("Cut &amp; &lt;Run&gt;"));
    assert!(svg.contains("Rats&apos; &quot;Nest&quot;"));
    assert!(svg.contains(r#"data-terrain="brush""#));
    // A feature no palette knows is still drawn, in a hashed style.
    assert_eq!(
        svg.matches("<line ").count(),
        2,
        "the wall and its legend sample"
    );
}

#[test]
fn the_example_in_the_format_reference_is_valid() {
    let doc = include_str!("../../../docs/SCENARIO-FORMAT.md");
    let start = doc.find("```toml\n").expect("a toml example") + "```toml\n".len();
    let text = &doc[start..start + doc[start..].find("```").unwrap()];
    let s = match scenario::load("SCENARIO-FORMAT.md", text, vocab_for) {
        Ok(s) => s,
        Err(problems) => panic!("{problems}"),
    };
    assert_eq!(s.id, "mill-ford");
    assert_eq!(s.options["bog_test"], Value::Bool(false));
    let mill = hex(&s, "0503");
    assert_eq!(
        s.features(hex(&s, "0403"), Direction::NE),
        ["stream", "bridge"]
    );
    assert!(s.has_path(mill, Direction::SW, "road"));
    assert!(s.has_feature(hex(&s, "0406"), Direction::S, "stream"));
    assert_eq!(s.unit("b-hussars").unwrap().facing, Some(Direction::N));
    assert_eq!(s.unit("b-reserve").unwrap().enters.unwrap().turn, 3);
    assert_eq!(s.places.len(), 2);
}

mod never_panics {
    use super::{vocab_for, BRIDGE_AT_MORNE};
    use grognard_engine::scenario;
    use proptest::prelude::*;

    fn edit(text: &str, at: usize, kind: u8, with: char) -> String {
        let mut chars: Vec<char> = text.chars().collect();
        let at = at % (chars.len() + 1);
        match kind % 3 {
            0 => chars.insert(at, with),
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ if at < chars.len() => chars[at] = with,
            _ => chars.push(with),
        }
        chars.into_iter().collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any small edit of a real file gives a scenario or located problems, sorted
        /// and inside the file, never a panic.
        #[test]
        fn edits_of_the_built_in_scenario(
            edits in prop::collection::vec(
                (any::<usize>(), any::<u8>(), prop::sample::select(
                    vec!['"', '\'', '=', '[', ']', '{', '\n', '0', '9', 'x', ' ', '/', ',', 'é', '\\'],
                )),
                1..4,
            )
        ) {
            let mut text = BRIDGE_AT_MORNE.to_owned();
            for (at, kind, with) in edits {
                text = edit(&text, at, kind, with);
            }
            let lines = text.lines().count().max(1);
            if let Err(problems) = scenario::load("edited.toml", &text, vocab_for) {
                prop_assert!(!problems.is_empty());
                let mut last = (0, 0);
                for p in &problems {
                    prop_assert!(p.line >= 1 && p.line <= lines + 1, "{p}");
                    prop_assert!(p.column >= 1, "{p}");
                    prop_assert!((p.line, p.column) >= last, "unsorted at {p}");
                    last = (p.line, p.column);
                }
            }
        }
    }
}
