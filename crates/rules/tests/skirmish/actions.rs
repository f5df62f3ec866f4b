//! Actions, characters and facing (`docs/rules/skirmish.md`, recovered: actions per
//! character and turn; the characters' values; front, flanks and rear).

use super::harness::{dir, face_to_face, open, with};
use grognard_hex::{Direction, Hex};
use grognard_rules::skirmish::facing::{arc, attack_arc, Arc};
use grognard_rules::skirmish::{Action, Phase};

#[test]
fn sk_act_1_one_quick_complex_and_melee_action_a_turn() {
    let mut t = face_to_face(8).game();
    let v = t.view("r-a");
    assert_eq!(
        v["actions"],
        serde_json::json!({ "quick": true, "complex": true, "melee": true })
    );
    t.end();
    t.force(&[1, 1]);
    t.attack("r-a", "b-a").unwrap();
    assert_eq!(t.view("r-a")["actions"]["melee"], false);
    // Back at the start of red's next active turn.
    t.to("red", Phase::Movement);
    assert_eq!(t.view("r-a")["actions"]["melee"], true);
    // A Dazed character has no Melee Action.
    t.set("r-a", |c| c.dazed = true);
    assert_eq!(t.view("r-a")["actions"]["melee"], false);
}

#[test]
fn sk_act_3_defend_is_a_complex_action_worth_two() {
    let mut t = face_to_face(8).sword("r-b", "0705", "n").game();
    let ev = t.act(&Action::Defend { unit: t.id("r-a") }).unwrap();
    assert!(!ev.is_empty());
    assert_eq!(t.view("r-a")["actions"]["complex"], false);
    assert_eq!(t.refused_step("r-a", "0406"), "SK-MOV-5");
    // Not after moving.
    t.walk("r-b", &["0704"]);
    assert_eq!(t.refused(Action::Defend { unit: t.id("r-b") }), "SK-ACT-3");
    // Blue attacks it in blue's melee phase: +2 to its Melee Defense.
    t.to("blue", Phase::Melee);
    let p = t.preview(&t.attack_action("b-a", "r-a"));
    assert_eq!(p.inputs["attack"]["defense"], 7);
}

#[test]
fn sk_act_4_turning_is_free_in_ones_own_turn() {
    let mut t = open(8, 8)
        .sword("r-a", "0405", "n")
        .sword("b-a", "0402", "s")
        .game();
    t.face("r-a", "se").unwrap();
    assert_eq!((t.facing("r-a"), t.mp("r-a")), ("se", 6));
    assert_eq!(
        t.refused(Action::Face {
            unit: t.id("r-a"),
            facing: Direction::SE
        }),
        "SK-ACT-4"
    );
    assert_eq!(
        t.refused(Action::Face {
            unit: t.id("b-a"),
            facing: Direction::N
        }),
        "SK-ACT-4"
    );
    t.set("r-a", |c| c.dazed = true);
    assert_eq!(
        t.refused(Action::Face {
            unit: t.id("r-a"),
            facing: Direction::N
        }),
        "SK-STA-1"
    );
    // In the melee phase too.
    let mut u = face_to_face(8).game();
    u.end();
    assert!(u.face("r-a", "s").is_ok());
}

#[test]
fn sk_chr_1_characters_carry_their_attributes() {
    let t = open(8, 8)
        .ch("r-a", "0405", "n", "finesse = 4, vigor = 3, morale = 1, weapon_skill = 5, combat = 2, evasion = 6, weapon = \"spear\", shield = \"buckler\"")
        .sword("b-a", "0401", "s")
        .game();
    let v = t.view("r-a");
    for (k, n) in [
        ("finesse", 4),
        ("vigor", 3),
        ("morale", 1),
        ("weapon_skill", 5),
        ("combat", 2),
        ("evasion", 6),
    ] {
        assert_eq!(v[k], n, "{k}");
    }
    assert_eq!(v["weapon"]["name"], "spear");
    assert_eq!(v["shield"], "buckler");
    assert_eq!(v["facing"], "n");
    // Out of range: the scenario says so, located.
    let bad = open(8, 8)
        .ch("r-a", "0405", "n", &with("vigor = 9"))
        .sword("b-a", "0401", "s")
        .toml();
    let problems = grognard_rules::registry()
        .load_scenario("bad.toml", &bad)
        .unwrap_err();
    assert!(problems.to_string().contains("vigor"), "{problems}");
    // A character with no facing faces its nearest enemy.
    let text = open(8, 8).sword("b-a", "0401", "s").toml()
        + "\n[[units]]\nid = \"r-x\"\nside = \"red\"\ntype = \"character\"\nat = \"0405\"\nvalues = { finesse = 3, vigor = 2, morale = 2, weapon_skill = 2, combat = 1, evasion = 1, weapon = \"sword\" }\n";
    let s = grognard_rules::registry()
        .load_scenario("t.toml", &text)
        .unwrap();
    let g = grognard_rules::registry().new_game(s, None).unwrap();
    let view = g.view(&grognard_engine::Seat::Omniscient);
    assert_eq!(view["units"][1]["facing"], "n");
}

#[test]
fn sk_chr_2_weapons_and_shields_come_from_the_data_file() {
    let data = grognard_rules::skirmish::data::Data::shipped();
    let spear = &data.weapon["spear"];
    assert_eq!((spear.reach, spear.alt_reach), (2, Some(1)));
    assert_eq!(data.weapon["dagger"].reach, 0);
    assert!(data.weapon["two_handed"].two_handed);
    for w in data.weapon.values() {
        assert!(w.reason.is_some(), "every provisional weapon says why");
    }
    // A two-handed weapon leaves no hand for a shield.
    let bad = open(8, 8)
        .ch(
            "r-a",
            "0405",
            "n",
            &with("weapon = \"two_handed\", shield = \"round\""),
        )
        .sword("b-a", "0401", "s")
        .toml();
    let problems = grognard_rules::registry()
        .load_scenario("bad.toml", &bad)
        .unwrap_err()
        .to_string();
    assert!(problems.contains("two-handed"), "{problems}");
}

#[test]
fn sk_fac_1_three_front_hexsides_two_flanks_one_rear() {
    let arcs: Vec<Arc> = Direction::ALL
        .iter()
        .map(|&d| arc(Direction::N, d, 1))
        .collect();
    // NE, SE, S, SW, NW, N
    assert_eq!(
        arcs,
        [
            Arc::Front,
            Arc::Flank,
            Arc::Rear,
            Arc::Flank,
            Arc::Front,
            Arc::Front
        ]
    );
    let t = open(8, 8)
        .sword("r-a", "0405", "sw")
        .sword("b-a", "0401", "s")
        .game();
    assert_eq!(t.facing("r-a"), "sw");
    assert_eq!(dir("sw"), Direction::SW);
}

#[test]
fn sk_fac_2_an_attack_strikes_the_arc_it_comes_from() {
    let o = Hex::ORIGIN;
    // Adjacent: the hexside's arc.
    assert_eq!(attack_arc(o, Direction::N, Hex::new(0, 1), 1), Arc::Rear);
    // Two hexes off, exactly between south-east (flank) and south (rear): the better
    // for the target, the flank.
    assert_eq!(attack_arc(o, Direction::N, Hex::new(1, 1), 1), Arc::Flank);
    // Between north and north-east: front.
    assert_eq!(attack_arc(o, Direction::N, Hex::new(1, -2), 1), Arc::Front);
    // In the same hex (Close Quarters): front.
    assert_eq!(attack_arc(o, Direction::N, o, 1), Arc::Front);
}
