//! Melee (`docs/rules/skirmish.md`, recovered formulas; the results are
//! provisional data), and the odds shown before the dice roll.
//!
//! The usual pair: red's `r-a` at 0405 facing north, blue's `b-a` at 0404 facing south,
//! face to face, both sword fighters (attack 4: Vigor 2 + Weapon Skill 2; Melee Defense
//! 5: Vigor 2 + Weapon Skill 2 + the sword's parry 1), in red's melee phase.

use super::harness::{face_to_face, has, open, with, Sk, T};
use grognard_rules::skirmish::{Action, AttackKind, Event, Phase};
use serde_json::{json, Value};

fn pair(red: &str, blue: &str, add: impl FnOnce(Sk) -> Sk) -> T {
    let mut t =
        add(open(8, 8)
            .ch("r-a", "0405", "n", &with(red))
            .ch("b-a", "0404", "s", &with(blue)))
        .game();
    t.end();
    assert_eq!(t.state().phase, Phase::Melee);
    t
}

fn inputs(t: &T, a: &Action) -> Value {
    t.preview(a).inputs
}

fn term(v: &Value, what: &str) -> Option<i64> {
    v.as_array()?
        .iter()
        .find(|x| x["what"] == what)
        .and_then(|x| x["value"].as_i64())
}

/// The kinds of the attacks made, in order.
fn kinds(ev: &[Event]) -> Vec<AttackKind> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Attacked { kind, .. } => Some(*kind),
            _ => None,
        })
        .collect()
}

#[test]
fn sk_mel_1_the_attack_total() {
    let t = pair("", "", |s| s);
    let a = t.attack_action("r-a", "b-a");
    let i = inputs(&t, &a);
    assert_eq!(i["attack"]["attack"], 4);
    assert_eq!(term(&i["attack"]["attack_terms"], "Vigor"), Some(2));
    assert_eq!(term(&i["attack"]["attack_terms"], "Weapon Skill"), Some(2));
    // From a flank +1, from the rear +3.
    for (facing, bonus, arc) in [("se", 0, "front"), ("ne", 1, "flank"), ("n", 3, "rear")] {
        let mut u = t.clone();
        u.set("b-a", |c| c.facing = super::harness::dir(facing));
        let i = inputs(&u, &a);
        assert_eq!(i["attack"]["attack"], 4 + bonus, "{facing}");
        assert_eq!(i["attack"]["arc"], arc);
    }
    // Berserk +1, Wounded -1, an axe +1, a round shield -1.
    let mut b = pair("weapon = \"axe\", shield = \"round\"", "", |s| s);
    b.set("r-a", |c| {
        c.berserk = true;
        c.damage = 3;
    });
    let i = inputs(&b, &b.attack_action("r-a", "b-a"));
    assert_eq!(i["attack"]["attack"], 4 + 1 - 1 + 1 - 1);
}

#[test]
fn sk_mel_2_the_melee_defense() {
    let defense = |blue: &str, f: &dyn Fn(&mut T)| {
        let mut t = pair("", blue, |s| s);
        f(&mut t);
        inputs(&t, &t.attack_action("r-a", "b-a"))["attack"]["defense"].clone()
    };
    assert_eq!(
        defense("", &|_| {}),
        5,
        "Vigor + Weapon Skill + the sword's parry"
    );
    assert_eq!(
        defense("shield = \"round\"", &|_| {}),
        6,
        "the shield's modifier replaces the weapon's"
    );
    assert_eq!(
        defense(
            "weapon = \"unarmed\", shield = \"buckler\", combat = 3",
            &|_| {}
        ),
        6,
        "Combat with a shield only"
    );
    assert_eq!(
        defense("weapon = \"unarmed\", evasion = 3", &|_| {}),
        4,
        "Evasion with neither, fists -1"
    );
    assert_eq!(
        defense("", &|t| t.set("b-a", |c| c.defending = Some(9))),
        7,
        "Defending +2"
    );
    assert_eq!(
        defense("", &|t| t.set("b-a", |c| c.dazed = true)),
        4,
        "Dazed -1"
    );
    assert_eq!(
        defense("", &|t| t.set("b-a", |c| c.damage = 3)),
        4,
        "Wounded -1"
    );
    assert_eq!(
        defense("", &|t| t.set("b-a", |c| c.berserk = true)),
        3,
        "Berserk -2"
    );
}

#[test]
fn sk_mel_3_reach_bands() {
    // A spear next door: its alternative reach, optimal.
    let t = pair("weapon = \"spear\"", "", |s| s);
    assert_eq!(
        inputs(&t, &t.attack_action("r-a", "b-a"))["attack"]["reach"],
        "optimal"
    );
    // A sword two hexes off: one hex too short, -2.
    let mut u = open(8, 8)
        .sword("r-a", "0406", "n")
        .sword("b-a", "0404", "s")
        .game();
    u.end();
    let i = inputs(&u, &u.attack_action("r-a", "b-a"));
    assert_eq!(i["attack"]["reach"], "one hex too short");
    assert_eq!(i["attack"]["attack"], 2);
    // Three hexes: out of reach.
    let mut w = open(8, 8)
        .sword("r-a", "0407", "n")
        .sword("b-a", "0404", "s")
        .sword("r-b", "0405", "n")
        .game();
    w.end();
    let a = w.attack_action("r-a", "b-a");
    assert_eq!(w.refused(a), "SK-MEL-3");
    // A spear at three: one hex too short.
    let mut s = open(8, 8)
        .ch("r-a", "0407", "n", &with("weapon = \"spear\""))
        .sword("b-a", "0404", "s")
        .sword("r-b", "0405", "n")
        .game();
    s.end();
    assert_eq!(
        inputs(&s, &s.attack_action("r-a", "b-a"))["attack"]["reach"],
        "one hex too short"
    );
}

#[test]
fn sk_mel_4_close_quarters_is_two_in_a_hex() {
    let mut t = open(8, 12)
        .ch("r-c", "0410", "n", &with("weapon = \"dagger\""))
        .sword("b-t", "0404", "s")
        .game();
    t.charge("r-c", "b-t").unwrap();
    t.force(&[1, 1]);
    t.run_charge();
    assert_eq!(t.at("r-c"), t.at("b-t"));
    t.end();
    // The dagger is at its reach; the sword, in the same hex, too long.
    let i = inputs(&t, &t.attack_action("r-c", "b-t"));
    assert_eq!(i["attack"]["reach"], "optimal");
    assert_eq!(i["counter"]["reach"], "too long");
    let e = t.explain(&t.attack_action("r-c", "b-t"));
    assert!(e.reasons.iter().any(|r| r.rule == "SK-MEL-4"));
}

#[test]
fn sk_mel_5_an_attack_of_opportunity_is_never_countered() {
    let mut t = face_to_face(8).game();
    t.go("r-a", "0406").unwrap();
    let a = Action::Opportunity {
        unit: t.id("b-a"),
        target: t.id("r-a"),
    };
    let p = t.preview(&a);
    assert_eq!(p.roll, "up to 1d6");
    assert!(p.inputs.get("counter").is_none());
    t.force(&[5]);
    let ev = t.act(&a).unwrap();
    assert_eq!(kinds(&ev), [AttackKind::Opportunity]);
}

#[test]
fn sk_mel_6_results_and_damage_are_provisional_data() {
    // Result = die + 4 - 5: a hit from 3 (a 4 or more on the die), 2 damage, 3 on a 6
    // (which dazes, and wounds a Vigor 2 fighter).
    let mut t = pair("", "", |s| s);
    t.set("b-a", |c| c.ripostes = 1);
    let p = t.preview(&t.attack_action("r-a", "b-a"));
    let chance = |v: Value| {
        p.outcomes
            .iter()
            .find(|o| o.result == v)
            .map(|o| (o.num, o.den))
    };
    assert_eq!(chance(json!({})), Some((1, 2)));
    assert_eq!(chance(json!({ "b-a": { "damage": 2 } })), Some((1, 3)));
    assert_eq!(
        chance(json!({ "b-a": { "damage": 3, "dazed": true, "wounded": true } })),
        Some((1, 6))
    );
    assert_eq!(p.outcomes.len(), 3);
    t.force(&[6]);
    let ev = t.attack("r-a", "b-a").unwrap();
    assert!(has(&ev, |e| matches!(
        e,
        Event::Attacked {
            die: 6,
            result: 5,
            hit: true,
            damage: 3,
            ..
        }
    )));
    assert!(t.c("b-a").dazed);
    let data = grognard_rules::skirmish::data::Data::shipped();
    assert_eq!(
        data.melee.source,
        grognard_rules::skirmish::data::Source::Provisional
    );
}

#[test]
fn sk_mel_7_the_melee_phase_attack_and_its_counter() {
    let mut t = pair("", "", |s| s.sword("r-b", "0305", "n"));
    t.force(&[1, 1]);
    let ev = t.attack("r-a", "b-a").unwrap();
    assert_eq!(kinds(&ev), [AttackKind::Melee, AttackKind::Counter]);
    // One Melee Action a turn.
    let again = t.attack_action("r-a", "b-a");
    assert_eq!(t.refused(again), "SK-ACT-1");
    // The second attack on b-a this phase gets +1; b-a has no riposte left.
    let i = inputs(&t, &t.attack_action("r-b", "b-a"));
    assert_eq!(
        term(
            &i["attack"]["attack_terms"],
            "extra attacks on the target this melee phase"
        ),
        Some(1)
    );
    assert!(i.get("counter").is_none());
    // The passive side does not attack in red's melee phase.
    let theirs = t.attack_action("b-a", "r-a");
    assert_eq!(t.refused(theirs), "SK-MEL-7");
}

#[test]
fn preview_of_an_attack_with_its_counter_is_exact() {
    let t = pair("", "", |s| s);
    let p = t.preview(&t.attack_action("r-a", "b-a"));
    assert_eq!(p.roll, "up to 2d6");
    assert_eq!(p.inputs["counter"]["attack"], 4);
    let mut num = 0;
    for o in &p.outcomes {
        assert_eq!(36 % o.den, 0);
        num += o.num * (36 / o.den);
    }
    assert_eq!(num, 36);
    // Both miss: 1/2 x 1/2.
    let none = p.outcomes.iter().find(|o| o.result == json!({})).unwrap();
    assert_eq!((none.num, none.den), (1, 4));
    // An action with no dice has no preview.
    let r = grognard_engine::Ruleset::preview(&*t.rules, t.state(), &Action::EndPhase);
    assert_eq!(r.unwrap_err().rule(), "SK-MEL-6");
}
