//! Chapter 4, the movement phase: a test per rule ID.

use super::harness::{Pos, INF, LETTER, U};
use grognard_engine::Ruleset;
use grognard_hex::Direction;
use grognard_rules::jomini::{Action, Event, OrderKind, Phase};

const GEN: U<'static> = ("b-gen", "blue", "officer", "0707", "weight = \"light\"");

/// Blue's officer and `units`, activated, in the movement phase.
fn moving(terrain: &[&str], units: &[U<'_>], active: &[&str], extra: &str) -> Pos {
    let mut all = vec![GEN];
    all.extend_from_slice(units);
    let mut p = Pos::new(terrain, &all, extra);
    let mut names = vec!["b-gen"];
    names.extend_from_slice(active);
    p.activate(&names);
    p.ok(&Action::EndCommand);
    p
}

/// [`moving`] on a clear board.
fn on_clear(units: &[U<'_>], active: &[&str]) -> Pos {
    moving(&[], units, active, "")
}

/// Light infantry, cavalry and officers (see [`light`]).
fn inf<'a>(id: &'a str, hex: &'a str) -> U<'a> {
    light(id, "infantry", hex)
}

fn cav<'a>(id: &'a str, hex: &'a str) -> U<'a> {
    light(id, "cavalry", hex)
}

fn officer<'a>(id: &'a str, hex: &'a str) -> U<'a> {
    light(id, "officer", hex)
}

/// A light piece, red when its id starts with `r-`, else blue; hex "" is a reinforcement
/// entering on turn 1, "+N" one entering on game turn N.
fn light<'a>(id: &'a str, kind: &'a str, hex: &'a str) -> U<'a> {
    (id, side(id), kind, hex, "weight = \"light\"")
}

/// Light infantry riding: dragoons (horses, mounted), on camels, in wagons.
const DRAGOONS: &str = "weight = \"light\", mounts = \"horses\", mounted = true";
const CAMELS: &str = "weight = \"light\", mounts = \"camels\"";
const WAGONS: &str = "weight = \"light\", mounts = \"wagons\"";

/// A piece with these values, its side by its id (see [`light`]).
fn piece<'a>(id: &'a str, kind: &'a str, hex: &'a str, values: &'a str) -> U<'a> {
    (id, side(id), kind, hex, values)
}

/// A medium piece (see [`light`]).
fn medium<'a>(id: &'a str, kind: &'a str, hex: &'a str) -> U<'a> {
    (id, side(id), kind, hex, "weight = \"medium\"")
}

fn side(id: &str) -> &'static str {
    if id.starts_with("r-") {
        "red"
    } else {
        "blue"
    }
}

fn distances(p: &Pos, unit: &str) -> Vec<u32> {
    let from = p.hex(&p.at(unit).unwrap());
    let mut d: Vec<u32> = p
        .reach(unit)
        .iter()
        .map(|l| from.distance(p.hex(l)))
        .collect();
    d.sort_unstable();
    d.dedup();
    d
}

#[test]
fn jo_mov_1_active_units_move_one_by_one_in_any_order() {
    let mut p = on_clear(
        &[inf("b-a", "0606"), inf("b-b", "0806"), inf("b-c", "0406")],
        &["b-a", "b-b"],
    );
    p.ok(&p.mv("b-b", "0805"));
    p.ok(&p.mv("b-a", "0605"));
    let msg = p.refused_first(&p.mv("b-c", "0405"), "JO-MOV-1");
    assert!(msg.contains("not activated"), "{msg}");
}

#[test]
fn jo_mov_2_a_unit_moves_once_a_turn() {
    let mut p = on_clear(&[inf("b-a", "0606")], &["b-a"]);
    p.ok(&p.mv("b-a", "0605"));
    p.refused_first(&p.mv("b-a", "0604"), "JO-MOV-2");
}

#[test]
fn jo_mov_3_an_activated_unit_need_not_move() {
    let mut p = on_clear(&[inf("b-a", "0606"), inf("r-a", "0605")], &["b-a"]);
    // Moves are open to it, and ending the phase without taking one is legal.
    assert!(!p.reach("b-a").is_empty());
    p.allows(&Action::EndMovement, "JO-MOV-3");
    p.ok(&Action::EndMovement);
    assert_eq!(p.state.phase, Phase::Combat);
    // It stayed where it was, still activated, and fights: standing still is no penalty.
    assert_eq!(p.at("b-a").as_deref(), Some("0606"));
    let a = p.id("b-a").index();
    assert!(p.state.pieces[a].group.is_some());
    assert!(!p.state.pieces[a].moved && !p.state.pieces[a].no_combat);
    p.allows(&p.attack("b-a", "r-a"), "JO-COM-2");
    p.apply(&p.attack("b-a", "r-a"), &[INF, LETTER, LETTER]);
    assert_eq!(p.strength("r-a"), 3);
}

#[test]
fn jo_mov_4_a_move_is_made_whole_before_the_next() {
    let mut p = on_clear(&[inf("b-a", "0606")], &["b-a"]);
    p.ok(&p.mv("b-a", "0604"));
    let Event::Moved { path, .. } = &p.events[0] else {
        panic!("{:?}", p.events)
    };
    assert_eq!(path.len(), 2, "both hexes in one action");
    assert_eq!(p.at("b-a").as_deref(), Some("0604"));
}

#[test]
fn jo_mov_5_no_sharing_a_hex_nor_passing_through_a_unit() {
    // A corridor of mountains: 0606 between 0506 and 0706 walls.
    let mut p = moving(
        &["", "", "", "", "xxxxx.xxxxxxx", "xxxxx.xxxxxxx", "", "", ""],
        &[inf("b-a", "0607"), inf("b-b", "0606"), inf("b-c", "0807")],
        &["b-a", "b-c"],
        "",
    );
    p.ok(&p.mv("b-c", "0808"));
    let msg = p.refused_first(&p.mv("b-a", "0606"), "JO-MOV-5");
    assert!(msg.contains("share"), "{msg}");
    assert!(
        !p.reach("b-a").contains(&"0605".to_owned()),
        "no passing through infantry"
    );
    p.refused_first(&p.mv("b-a", "0605"), "JO-MOV-9");
}

#[test]
fn jo_mov_6_infantry_and_cavalry_pass_through_artillery_to_a_free_hex_beyond() {
    let walls = [
        "",
        "",
        "",
        "xxxxx.xxxxxxx",
        "xxxxx.xxxxxxx",
        "xxxxx.xxxxxxx",
        "",
        "",
        "",
    ];
    let guns = (
        "b-guns",
        "blue",
        "foot_artillery",
        "0605",
        "weight = \"light\"",
    );
    // Light infantry, 2 hexes: 0606, then the guns in 0605: no free hex within reach beyond.
    let p = moving(&walls, &[guns, inf("b-inf", "0607")], &["b-inf"], "");
    assert!(!p.reach("b-inf").contains(&"0605".to_owned()));
    assert!(!p.reach("b-inf").contains(&"0604".to_owned()));
    // Light cavalry, 4 hexes: 0606, the guns in 0605, and 0604 free beyond.
    let mut c = moving(&walls, &[guns, cav("b-hus", "0707")], &["b-hus"], "");
    c.allows(&c.mv("b-hus", "0604"), "JO-MOV-6");
    let v = c.view();
    let through = v["moves"]["b-hus"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["hex"] == "0604")
        .unwrap()
        .clone();
    assert_eq!(through["through"], true);
    assert_eq!(through["path"], serde_json::json!(["0606", "0605", "0604"]));
    c.ok(&c.mv("b-hus", "0604"));
    // Artillery does not pass through artillery.
    let q = moving(
        &walls,
        &[
            guns,
            (
                "b-hg",
                "blue",
                "horse_artillery",
                "0606",
                "weight = \"very_light\"",
            ),
        ],
        &["b-hg"],
        "",
    );
    assert!(
        !q.reach("b-hg").contains(&"0604".to_owned()),
        "{:?}",
        q.reach("b-hg")
    );
    // Enemy artillery is passed through like friendly artillery: the exception has no
    // friend-or-foe limit.
    let red_guns = (
        "r-guns",
        "red",
        "foot_artillery",
        "0605",
        "weight = \"light\"",
    );
    let mut e = moving(&walls, &[red_guns, cav("b-hus", "0707")], &["b-hus"], "");
    e.allows(&e.mv("b-hus", "0604"), "JO-MOV-6");
    e.refused_first(&e.mv("b-hus", "0605"), "JO-MOV-5");
    e.ok(&e.mv("b-hus", "0604"));
    let Event::Moved { path, rules, .. } = &e.events[0] else {
        panic!("{:?}", e.events)
    };
    assert_eq!(path.len(), 3);
    assert_eq!(e.label(path[1]), "0605", "through the enemy guns");
    assert!(rules.iter().any(|r| r == "JO-MOV-6"), "{rules:?}");
    assert_eq!(e.at("r-guns").as_deref(), Some("0605"));
    // An enemy unit that is not artillery still blocks.
    let f = moving(
        &walls,
        &[inf("r-inf", "0605"), cav("b-hus", "0707")],
        &["b-hus"],
        "",
    );
    assert!(!f.reach("b-hus").contains(&"0604".to_owned()));
    f.refused_first(&f.mv("b-hus", "0604"), "JO-MOV-9");
    // Nor do elephants or artillery pass through enemy guns.
    let g = moving(
        &walls,
        &[
            red_guns,
            medium("b-ele", "elephants", "0606"),
            (
                "b-hg",
                "blue",
                "horse_artillery",
                "0707",
                "weight = \"very_light\"",
            ),
        ],
        &["b-ele", "b-hg"],
        "",
    );
    assert!(!g.reach("b-ele").contains(&"0604".to_owned()));
    assert!(!g.reach("b-hg").contains(&"0604".to_owned()));
}

#[test]
fn jo_mov_7_a_reduced_unit_does_not_combine_with_another() {
    let mut p = on_clear(&[inf("b-a", "0606"), inf("b-b", "0605")], &["b-a"]);
    let (a, b) = (p.id("b-a").index(), p.id("b-b").index());
    p.state.pieces[a].strength = 2;
    p.state.pieces[b].strength = 2;
    p.refused_first(&p.mv("b-a", "0605"), "JO-MOV-7");
    p.ok(&p.mv("b-a", "0604"));
    assert_eq!(p.strength("b-a"), 2, "its stands moved together");
}

#[test]
fn jo_mov_8_moves_done_the_player_goes_on_to_combat() {
    let mut p = on_clear(&[inf("b-a", "0606"), inf("r-a", "0604")], &["b-a"]);
    p.refused_first(&p.attack("b-a", "r-a"), "JO-MOV-8");
    p.allows(&Action::EndMovement, "JO-MOV-8");
    p.ok(&Action::EndMovement);
    assert_eq!(p.state.phase, Phase::Combat);
    p.refused_first(&p.mv("b-a", "0605"), "JO-TURN-1");
}

#[test]
fn jo_mov_9_the_movement_table_by_type_and_weight() {
    let units = [
        inf("b-li", "0506"),
        ("b-hc", "blue", "cavalry", "0806", "weight = \"heavy\""),
        cav("b-lc", "0607"),
    ];
    let p = moving(&[], &units, &["b-li"], "");
    assert_eq!(distances(&p, "b-li"), [1, 2]);
    let c = moving(&[], &units, &["b-lc"], "");
    assert_eq!(distances(&c, "b-lc"), [1, 2, 3, 4]);
    let q = moving(&[], &units, &["b-hc"], "");
    assert_eq!(distances(&q, "b-hc"), [1, 2, 3]);
    let data = grognard_rules::jomini::data::Data::shipped();
    assert_eq!(data.movement["cavalry"].weights["super_heavy"].max, 2);
    assert_eq!(data.movement["camelry"].weights["light"].max, 3);
    assert_eq!(data.movement["officer"].weights["heavy"].max, 2);
}

#[test]
fn jo_mov_10_sans_combat_one_hex_with_combat_or_two_without() {
    let mut p = on_clear(
        &[
            medium("b-line", "infantry", "0607"),
            (
                "b-guns",
                "blue",
                "foot_artillery",
                "0807",
                "weight = \"light\"",
            ),
            inf("r-a", "0604"),
            inf("r-b", "0904"),
        ],
        &["b-line", "b-guns"],
    );
    assert_eq!(distances(&p, "b-line"), [1, 2]);
    p.allows(&p.mv("b-line", "0605"), "JO-MOV-10");
    p.ok(&p.mv("b-line", "0605"));
    p.ok(&p.mv("b-guns", "0806"));
    p.ok(&Action::EndMovement);
    p.refused_first(&p.attack("b-line", "r-a"), "JO-MOV-10");
    p.refused_first(&p.attack("b-guns", "r-b"), "JO-MOV-10");
    // One hex, and it fights.
    let mut q = on_clear(
        &[medium("b-line", "infantry", "0607"), inf("r-a", "0604")],
        &["b-line"],
    );
    q.ok(&q.mv("b-line", "0606"));
    q.ok(&Action::EndMovement);
    q.allows(&q.attack("b-line", "r-a"), "JO-COM-2");
}

#[test]
fn jo_mov_11_very_heavy_foot_artillery_never_moves_more_than_one_hex() {
    let road = "[[paths]]\nkind = \"road\"\nhexes = [\"0607\", \"0606\", \"0605\", \"0604\"]\n";
    let mut p = moving(
        &[],
        &[(
            "b-12",
            "blue",
            "foot_artillery",
            "0607",
            "weight = \"very_heavy\"",
        )],
        &["b-12"],
        road,
    );
    assert_eq!(distances(&p, "b-12"), [1]);
    p.allows(&p.mv("b-12", "0606"), "JO-MOV-11");
    p.state.phase = Phase::Command;
    let forced = Action::Order {
        order: OrderKind::ForcedMarch,
        unit: Some(p.id("b-12")),
        hexes: None,
    };
    let msg = p.refused_first(&forced, "JO-ORD-6");
    assert!(msg.contains("JO-MOV-11"), "{msg}");
}

#[test]
fn jo_mov_12_horse_artillery_loses_a_die_per_hex_moved() {
    let mut p = on_clear(
        &[
            (
                "b-hg",
                "blue",
                "horse_artillery",
                "0607",
                "weight = \"light\"",
            ),
            inf("r-a", "0603"),
        ],
        &["b-hg"],
    );
    p.allows(&p.mv("b-hg", "0606"), "JO-MOV-12");
    p.ok(&p.mv("b-hg", "0606"));
    p.ok(&Action::EndMovement);
    let pre = p.rules.preview(&p.state, &p.attack("b-hg", "r-a")).unwrap();
    // 3 hexes away: dice [3, 2, 2, 1] give 2, less 1 for the hex moved.
    assert_eq!(pre.roll, "1 combat dice");
    assert!(pre.reasons.iter().any(|r| r.rule == "JO-MOV-12"));
}

#[test]
fn jo_mov_13_terrain_difficult_stops_impassable_bars() {
    let p = moving(
        &["", "", "", "", "", "wwwwwwwwwwwww", "", "", ""],
        &[cav("b-lc", "0607")],
        &["b-lc"],
        "",
    );
    // Into the woods of row 06 and no further; around them nothing else lies north.
    assert!(p.reach("b-lc").contains(&"0606".to_owned()));
    assert!(
        !p.reach("b-lc").iter().any(|l| l.ends_with("05")),
        "{:?}",
        p.reach("b-lc")
    );
    let q = moving(
        &["", "", "", "", "", "xxxxxxxxxxxxx", "", "", ""],
        &[cav("b-lc", "0607")],
        &["b-lc"],
        "",
    );
    assert!(!q
        .reach("b-lc")
        .iter()
        .any(|l| l.ends_with("06") || l.ends_with("05")));
    q.refused_first(&q.mv("b-lc", "0606"), "JO-MOV-14");
    // A stream hexside also ends the move.
    let stream = "[[hexsides]]\nfeature = \"stream\"\nsides = [\"0607/0506\", \"0607/0606\"]\n";
    let s = moving(&[], &[cav("b-lc", "0607")], &["b-lc"], stream);
    let v = s.view();
    let to_0606 = v["moves"]["b-lc"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["hex"] == "0606")
        .unwrap()
        .clone();
    assert_eq!(
        to_0606["hexes"], 1,
        "straight across the stream, and there it stops"
    );
}

#[test]
fn jo_mov_14_an_officer_alone_ignores_difficult_terrain_not_impassable() {
    let mut p = moving(
        &["", "", "", "", "wwwwwwwwwwwww", "wwwwwwwwwwwww", "", "", ""],
        &[],
        &[],
        "",
    );
    assert!(
        p.reach("b-gen").contains(&"0704".to_owned()),
        "{:?}",
        p.reach("b-gen")
    );
    p.allows(&p.mv("b-gen", "0704"), "JO-MOV-14");
    let q = moving(
        &["", "", "", "", "", "xxxxxxxxxxxxx", "", "", ""],
        &[],
        &[],
        "",
    );
    q.refused_first(&q.mv("b-gen", "0706"), "JO-MOV-14");
    p.ok(&p.mv("b-gen", "0704"));
}

#[test]
fn jo_mov_15_no_zones_of_control() {
    let p = on_clear(
        &[cav("b-lc", "0607"), inf("r-a", "0505"), inf("r-b", "0705")],
        &["b-lc"],
    );
    // Between two enemies and on beyond, at full allowance.
    assert!(
        p.reach("b-lc").contains(&"0603".to_owned()),
        "{:?}",
        p.reach("b-lc")
    );
}

const ROAD: &str = "[[paths]]\nkind = \"road\"\nhexes = [\"0608\", \"0607\", \"0606\", \"0605\", \"0604\", \"0603\"]\n";

#[test]
fn jo_mov_16_road_march_one_more_hex_along_one_continuous_road() {
    let p = moving(
        &[],
        &[medium("b-line", "infantry", "0607")],
        &["b-line"],
        ROAD,
    );
    assert!(
        p.reach("b-line").contains(&"0604".to_owned()),
        "3 hexes on the road"
    );
    p.allows(&p.mv("b-line", "0604"), "JO-MOV-16");
    // Off the road, two hexes only.
    let from = p.hex("0607");
    assert!(p
        .reach("b-line")
        .iter()
        .filter(|l| from.distance(p.hex(l)) == 3)
        .all(|l| l == "0604"));
    // A unit that starts off the road gets no extra hex.
    let q = moving(
        &[],
        &[medium("b-line", "infantry", "0507")],
        &["b-line"],
        ROAD,
    );
    assert_eq!(distances(&q, "b-line"), [1, 2]);
    let v = p.view();
    let m = v["moves"]["b-line"].as_array().unwrap();
    assert!(m
        .iter()
        .any(|r| r["hex"] == "0604" && r["road_march"] == true && r["combat"] == false));
}

#[test]
fn jo_mov_17_after_a_road_march_no_combat() {
    let mut p = moving(
        &[],
        &[inf("b-li", "0607"), inf("r-a", "0603")],
        &["b-li"],
        ROAD,
    );
    p.allows(&p.mv("b-li", "0604"), "JO-MOV-17");
    p.ok(&p.mv("b-li", "0604"));
    p.ok(&Action::EndMovement);
    p.refused_first(&p.attack("b-li", "r-a"), "JO-MOV-17");
}

#[test]
fn jo_mov_18_mounted_infantry_one_more_hex_without_combat() {
    let mut p = on_clear(
        &[
            piece("b-drag", "infantry", "0607", DRAGOONS),
            inf("r-a", "0603"),
        ],
        &["b-drag"],
    );
    assert_eq!(distances(&p, "b-drag"), [1, 2, 3]);
    p.allows(&p.mv("b-drag", "0604"), "JO-MOV-18");
    p.ok(&p.mv("b-drag", "0604"));
    p.ok(&Action::EndMovement);
    p.refused_first(&p.attack("b-drag", "r-a"), "JO-MOV-10");
}

#[test]
fn jo_mov_19_mounted_infantry_adds_to_the_road() {
    let p = moving(
        &[],
        &[piece("b-drag", "infantry", "0608", DRAGOONS)],
        &["b-drag"],
        ROAD,
    );
    assert!(
        p.reach("b-drag").contains(&"0604".to_owned()),
        "2 + 1 mounted + 1 road: {:?}",
        p.reach("b-drag")
    );
    p.allows(&p.mv("b-drag", "0604"), "JO-MOV-16");
    p.allows(&p.mv("b-drag", "0604"), "JO-MOV-18");
}

#[test]
fn jo_mov_20_camels_shelter_their_infantry_at_close_quarters() {
    let mut p = on_clear(
        &[
            cav("b-lc", "0606"),
            piece("r-camel", "infantry", "0605", CAMELS),
        ],
        &["b-lc"],
    );
    p.ok(&Action::EndMovement);
    p.allows(&p.attack("b-lc", "r-camel"), "JO-MOV-20");
    let pre = p
        .rules
        .preview(&p.state, &p.attack("b-lc", "r-camel"))
        .unwrap();
    // Light cavalry rolls 4 adjacent; the camels' shelter is the data's.
    let camels = grognard_rules::jomini::data::Data::shipped().mounts.camels;
    assert_eq!(camels, 1);
    assert_eq!(pre.roll, format!("{} combat dice", 4 - camels));
    assert_eq!(pre.inputs["dice"], 3);
    // Another value in the tables, another shelter.
    let data = &[("camels = 1", "camels = 2")];
    let mut q = Pos::with_tables(
        &[],
        &[
            GEN,
            cav("b-lc", "0606"),
            piece("r-camel", "infantry", "0605", CAMELS),
        ],
        "",
        data,
    );
    q.activate(&["b-gen", "b-lc"]);
    q.ok(&Action::EndCommand);
    q.ok(&Action::EndMovement);
    let pre = q
        .rules
        .preview(&q.state, &q.attack("b-lc", "r-camel"))
        .unwrap();
    assert_eq!(pre.roll, "2 combat dice");
}

#[test]
fn jo_mov_22_wagons_that_stood_still_make_a_palisade() {
    let mut p = on_clear(
        &[
            cav("b-lc", "0606"),
            piece("r-wag", "infantry", "0605", WAGONS),
        ],
        &["b-lc"],
    );
    p.ok(&Action::EndMovement);
    let before = p
        .rules
        .preview(&p.state, &p.attack("b-lc", "r-wag"))
        .unwrap();
    assert_eq!(
        before.roll, "4 combat dice",
        "it has not stood through a movement phase yet"
    );
    let wag = p.id("r-wag").index();
    p.state.pieces[wag].still = true;
    p.allows(&p.attack("b-lc", "r-wag"), "JO-MOV-22");
    let wagons = grognard_rules::jomini::data::Data::shipped().mounts.wagons;
    assert_eq!(wagons, 1);
    let after = p
        .rules
        .preview(&p.state, &p.attack("b-lc", "r-wag"))
        .unwrap();
    assert_eq!(after.roll, format!("{} combat dice", 4 - wagons));
    // Red's own movement phase sets it: standing still makes the palisade.
    let mut q = on_clear(
        &[
            officer("r-gen", "0603"),
            piece("r-wag", "infantry", "0605", WAGONS),
        ],
        &[],
    );
    q.ok(&Action::EndMovement);
    q.ok(&Action::EndTurn);
    q.ok(&Action::EndCommand);
    q.ok(&Action::EndMovement);
    assert!(q.state.pieces[q.id("r-wag").index()].still);
}

#[test]
fn jo_mov_23_no_leaving_the_table_unless_the_scenario_allows_it() {
    let mut p = Pos::new(&[], &[officer("b-gen", "0602"), inf("b-a", "0601")], "");
    p.activate(&["b-gen", "b-a"]);
    p.ok(&Action::EndCommand);
    p.refused_first(&Action::Exit { unit: p.id("b-a") }, "JO-MOV-23");
    let mut q = Pos::new(
        &[],
        &[
            officer("b-gen", "0602"),
            inf("b-a", "0601"),
            inf("b-b", "0603"),
        ],
        "# blue may exit north",
    );
    q.activate(&["b-gen", "b-a", "b-b"]);
    q.ok(&Action::EndCommand);
    q.allows(&Action::Exit { unit: q.id("b-a") }, "JO-MOV-23");
    q.refused_first(&Action::Exit { unit: q.id("b-b") }, "JO-MOV-23");
    q.ok(&Action::Exit { unit: q.id("b-a") });
    assert!(q.state.pieces[q.id("b-a").index()].exited);
}

#[test]
fn jo_mov_24_officers_alike_may_not_leave() {
    let p = on_clear(&[], &[]);
    let mut p = p;
    let (gen, edge) = (p.id("b-gen").index(), p.hex("0701"));
    p.state.pieces[gen].hex = Some(edge);
    p.refused_first(
        &Action::Exit {
            unit: p.id("b-gen"),
        },
        "JO-MOV-23",
    );
    let mut q = Pos::new(&[], &[officer("b-gen", "0701")], "# blue may exit north");
    q.activate(&["b-gen"]);
    q.ok(&Action::EndCommand);
    q.allows(
        &Action::Exit {
            unit: q.id("b-gen"),
        },
        "JO-MOV-24",
    );
}

#[test]
fn jo_mov_25_a_retreat_hex_that_cannot_be_made_is_a_loss() {
    let mut p = Pos::new(
        &[],
        &[
            officer("r-gen", "0606"),
            inf("r-a", "0608"),
            inf("b-a", "0609"),
        ],
        "",
    );
    // Red attacks blue on its own edge: no hex to retreat to, off the table forbidden.
    p.state.active = 1;
    p.activate(&["r-gen", "r-a"]);
    p.ok(&Action::EndCommand);
    p.ok(&Action::EndMovement);
    p.apply(
        &p.attack("r-a", "b-a"),
        &[
            super::harness::FLAG,
            super::harness::FLAG,
            super::harness::LETTER,
        ],
    );
    assert_eq!(
        p.strength("b-a"),
        2,
        "two retreat hexes not made: two stands"
    );
    assert!(p
        .events
        .iter()
        .any(|e| matches!(e, Event::Lost { rule, .. } if rule == "JO-MOV-25")));
}

#[test]
fn jo_mov_26_reinforcements_wait_off_the_table_for_their_turn() {
    let mut p = Pos::new(&[], &[officer("b-gen", "+2"), inf("b-a", "+2")], "");
    assert!(p.state.pieces[p.id("b-a").index()].waiting);
    assert_eq!(p.at("b-a"), None);
    p.refused_first(
        &Action::Activate {
            unit: p.id("b-gen"),
        },
        "JO-MOV-26",
    );
    // Game turn 2 (player turn 3): they may come on.
    p.state.turn = 3;
    p.ok(&Action::Activate {
        unit: p.id("b-gen"),
    });
    p.ok(&Action::Activate { unit: p.id("b-a") });
}

#[test]
fn jo_mov_27_reinforcements_enter_with_their_officer_from_just_off_the_table() {
    let mut p = Pos::new(
        &[],
        &[officer("b-gen", ""), inf("b-a", ""), inf("b-on", "0708")],
        "",
    );
    p.activate(&["b-gen"]);
    p.refused_first(&Action::Activate { unit: p.id("b-on") }, "JO-MOV-27");
    p.allows(&Action::Activate { unit: p.id("b-a") }, "JO-MOV-27");
    p.ok(&Action::Activate { unit: p.id("b-a") });
    p.ok(&Action::EndCommand);
    // Light infantry, 2 hexes: the entry hex 0709 is the first.
    let from = p.hex("0709");
    let reach = p.reach("b-a");
    assert!(reach.contains(&"0709".to_owned()));
    assert!(
        reach.iter().all(|l| from.distance(p.hex(l)) <= 1),
        "{reach:?}"
    );
    p.allows(&p.mv("b-a", "0709"), "JO-MOV-27");
    p.ok(&p.mv("b-a", &p.label(from.neighbor(Direction::N))));
    assert!(!p.state.pieces[p.id("b-a").index()].waiting);
    // The officer need not come on.
    p.ok(&Action::EndMovement);
    assert!(p.state.pieces[p.id("b-gen").index()].waiting);
}
