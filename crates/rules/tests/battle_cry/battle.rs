//! Battle: range, dice, hits, generals in battle; the exact odds.

use super::harness::{self, Pos, ART, CAV, FLAG, INF, SAB};
use grognard_engine::Ruleset;
use grognard_rules::battle_cry::data::Face;
use grognard_rules::battle_cry::{Action, Card, Event, Pending, Phase};

/// Blue's `units` in its battle step, `ordered` by Assault Centre.
fn battling(terrain: &[String], units: &[(&str, &str, &str, &str, u8)], ordered: &[&str]) -> Pos {
    let mut p = Pos::new(terrain, units, "");
    p.set("blue", Phase::Battle, Some("assault_centre"), ordered);
    p
}

fn clear() -> Vec<String> {
    harness::terrain(&[])
}

fn battled(events: &[Event]) -> (u8, u8, u8) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Battled {
                dice, hits, flags, ..
            } => Some((*dice, *hits, *flags)),
            _ => None,
        })
        .expect("a battle")
}

/// The flags left after the one its side chose to ignore, if it did.
fn ignored(events: &[Event]) -> Option<(u8, String)> {
    events.iter().find_map(|e| match e {
        Event::FlagIgnored { left, rule, .. } => Some((*left, rule.to_string())),
        _ => None,
    })
}

#[test]
fn bc_bat_1_each_unit_battles_once_at_one_target() {
    let mut p = battling(
        &clear(),
        &[
            ("inf", "blue", "infantry", "0507", 0),
            ("inf2", "blue", "infantry", "0607", 0),
            ("foe", "grey", "infantry", "0506", 0),
            ("foe2", "grey", "infantry", "0406", 0),
        ],
        &["inf", "inf2"],
    );
    p.refuses(&p.battle("inf", "inf2"), "BC-BAT-1");
    let ev = p.apply(&p.battle("inf", "foe"), &[CAV, CAV, CAV, CAV]);
    let targets: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Battled { target, .. } => Some(*target),
            _ => None,
        })
        .collect();
    assert_eq!(targets, [p.id("foe")], "all its dice at one target");
    p.apply(&Action::Decline, &[]);
    p.refuses(&p.battle("inf", "foe2"), "BC-BAT-1");
    assert!(p.is_legal(&p.battle("inf2", "foe")));
}

#[test]
fn bc_bat_2_an_adjacent_enemy_forbids_a_distant_target() {
    let units = |adjacent: &'static str| {
        [
            ("inf", "blue", "infantry", "0507", 0),
            ("near", "grey", adjacent, "0506", 0),
            ("far", "grey", "infantry", "0807", 0),
        ]
    };
    let p = battling(&clear(), &units("infantry"), &["inf"]);
    p.refuses(&p.battle("inf", "far"), "BC-BAT-2");
    assert!(p.is_legal(&p.battle("inf", "near")));
    // A general alone is not a unit: it does not pin the battling unit.
    let q = battling(&clear(), &units("general"), &["inf"]);
    assert!(q.is_legal(&q.battle("inf", "far")));
}

#[test]
fn bc_bat_3_dice_are_range_less_terrain_plus_card() {
    // The text's example: Leadership, an infantry unit with an attached general, an enemy
    // infantry unit 2 hexes away in woods: 3 dice for the range, -1 for the woods, +1 for
    // Leadership: 3 dice.
    let mut p = Pos::new(
        &harness::terrain(&[("0505", 'w')]),
        &[
            ("inf", "blue", "infantry", "0507", 0),
            ("gen", "blue", "general", "0507", 0),
            ("foe", "grey", "infantry", "0505", 0),
        ],
        "",
    );
    p.hand("blue", &["leadership"]);
    p.apply(
        &Action::PlayCard {
            card: Card::from_id("leadership").unwrap(),
        },
        &[],
    );
    p.apply(&Action::DoneMoving, &[]);
    let e = p.explain(&p.battle("inf", "foe"));
    assert!(e.legal, "{e:?}");
    let rules: Vec<&str> = e.reasons.iter().map(|r| r.rule.as_str()).collect();
    assert_eq!(rules, ["BC-RNG-1", "BC-TER-3", "BC-CARD-7", "BC-BAT-3"]);
    assert_eq!(e.reasons[3].message, "3 - 1 + 1 = 3 dice");
    // Casualties do not change the dice.
    p.set_figures("inf", 1);
    assert_eq!(p.dice("inf", "foe"), 3);
    let ev = p.apply(&p.battle("inf", "foe"), &[CAV, CAV, CAV]);
    assert_eq!(battled(&ev).0, 3);
}

#[test]
fn bc_bat_4_no_battle_without_a_die() {
    // Four hexes: 1 die, less 1 for the woods.
    let p = battling(
        &harness::terrain(&[("0305", 'w')]),
        &[
            ("inf", "blue", "infantry", "0509", 0),
            ("foe", "grey", "infantry", "0305", 0),
        ],
        &["inf"],
    );
    p.refuses(&p.battle("inf", "foe"), "BC-BAT-4");
}

/// The dice `kind` rolls at `d` hexes along row 05, or the refusal's rule.
fn dice_at(kind: &str, d: u32) -> Result<u64, String> {
    let target = format!("{:02}05", 2 + d);
    let p = battling(
        &clear(),
        &[
            ("u", "blue", kind, "0205", 0),
            ("foe", "grey", "infantry", &target, 0),
        ],
        &["u"],
    );
    let e = p.explain(&p.battle("u", "foe"));
    if e.legal {
        Ok(p.dice("u", "foe"))
    } else {
        Err(e.reasons[0].rule.clone())
    }
}

#[test]
fn bc_rng_1_infantry_range_and_dice() {
    let got: Vec<_> = (1..=5).map(|d| dice_at("infantry", d)).collect();
    assert_eq!(got, [Ok(4), Ok(3), Ok(2), Ok(1), Err("BC-RNG-1".into())]);
}

#[test]
fn bc_rng_2_artillery_range_and_dice() {
    let got: Vec<_> = (1..=6).map(|d| dice_at("artillery", d)).collect();
    assert_eq!(
        got,
        [Ok(5), Ok(4), Ok(3), Ok(2), Ok(1), Err("BC-RNG-2".into())]
    );
}

#[test]
fn bc_rng_3_cavalry_adjacent_only() {
    let got: Vec<_> = (1..=2).map(|d| dice_at("cavalry", d)).collect();
    assert_eq!(got, [Ok(3), Err("BC-RNG-3".into())]);
}

#[test]
fn bc_gen_4_generals_do_not_battle() {
    let p = battling(
        &clear(),
        &[
            ("gen", "blue", "general", "0607", 0),
            ("inf", "blue", "infantry", "0507", 0),
            ("g2", "blue", "general", "0507", 0),
            ("foe", "grey", "infantry", "0506", 0),
        ],
        &["gen", "inf", "g2"],
    );
    p.refuses(&p.battle("gen", "foe"), "BC-GEN-4");
    p.refuses(&p.battle("g2", "foe"), "BC-GEN-4");
    assert_eq!(p.dice("inf", "foe"), 4, "an attached general adds no dice");
}

/// Blue's infantry at 0507 attacks grey's `def` at 0506 (with grey's general `ggen` when
/// `general`).
fn attack(general: bool) -> Pos {
    let mut units = vec![
        ("att", "blue", "infantry", "0507", 0),
        ("def", "grey", "infantry", "0506", 0),
    ];
    if general {
        units.push(("ggen", "grey", "general", "0506", 0));
    }
    battling(&clear(), &units, &["att"])
}

#[test]
fn bc_gen_5_embolden_ignores_one_flag() {
    // One flag against a unit with its general: its side chooses, inside blue's turn.
    let mut p = attack(true);
    let ev = p.apply(&p.battle("att", "def"), &[FLAG, CAV, CAV, CAV]);
    assert_eq!(battled(&ev), (4, 0, 1));
    assert_eq!(
        p.state.pending,
        Some(Pending::Embolden {
            unit: p.id("def"),
            flags: 1,
            battler: p.id("att"),
            fight_back: false,
            from: p.hex("0506"),
            alone: false,
        })
    );
    let d = p.rules.to_act(&p.state).unwrap();
    assert_eq!(
        (d.side.as_str(), d.kind.as_str(), d.reaction),
        ("grey", "embolden", true)
    );
    let mut legal = Vec::new();
    p.rules.legal_actions(&p.state, &mut legal);
    assert_eq!(legal, [Action::IgnoreFlag, Action::Decline]);
    p.allows(&Action::IgnoreFlag, "BC-GEN-5");
    p.allows(&Action::Decline, "BC-GEN-5");
    p.refuses(&p.battle("att", "def"), "BC-GEN-5");
    p.refuses(&Action::EndTurn, "BC-GEN-5");
    // Ignoring it: no retreat; the unit was not forced back, so Fight Back may follow.
    let mut q = attack(true);
    q.apply(&q.battle("att", "def"), &[FLAG, CAV, CAV, CAV]);
    let ev = q.apply(&Action::IgnoreFlag, &[]);
    assert_eq!(ignored(&ev), Some((0, "BC-GEN-5".into())));
    assert_eq!(q.at("def").as_deref(), Some("0506"));
    assert!(
        matches!(q.state.pending, Some(Pending::FightBack { .. })),
        "not forced to retreat"
    );
    // Taking it: the unit retreats a hex, its general with it.
    let ev = p.apply(&Action::Decline, &[]);
    assert_eq!(ignored(&ev), None);
    assert!(matches!(
        p.state.pending,
        Some(Pending::Retreat { hexes: 1, .. })
    ));
    // Two flags: ignoring one leaves one hex to retreat; taking both, two.
    let two = || {
        let mut r = attack(true);
        r.apply(&r.battle("att", "def"), &[FLAG, FLAG, CAV, CAV]);
        r
    };
    let (mut r, mut s) = (two(), two());
    r.apply(&Action::IgnoreFlag, &[]);
    assert!(matches!(
        r.state.pending,
        Some(Pending::Retreat { hexes: 1, .. })
    ));
    s.apply(&Action::Decline, &[]);
    assert!(matches!(
        s.state.pending,
        Some(Pending::Retreat { hexes: 2, .. })
    ));
    // The choice tells nothing of the defender's hand: the same decision, the same
    // actions and the same view for blue whether grey holds Fight Back or not.
    let with_card = || {
        let mut h = attack(true);
        h.hand("grey", &["fight_back"]);
        h.apply(&h.battle("att", "def"), &[FLAG, CAV, CAV, CAV]);
        h
    };
    let (h, plain) = (with_card(), {
        let mut h = attack(true);
        h.hand("grey", &["scout_left"]);
        h.apply(&h.battle("att", "def"), &[FLAG, CAV, CAV, CAV]);
        h
    });
    assert_eq!(h.legal(), plain.legal());
    let blue = grognard_engine::Seat::Side("blue".into());
    let (a, b) = (
        h.rules.view(&h.state, &blue),
        plain.rules.view(&plain.state, &blue),
    );
    assert_eq!(a["pending"], b["pending"]);
    assert_eq!(a["to_act"], b["to_act"]);
    assert_eq!(a["hands"]["grey"], serde_json::json!({ "count": 1 }));
    // Without a general there is nothing to choose.
    let mut t = attack(false);
    t.apply(&t.battle("att", "def"), &[FLAG, CAV, CAV, CAV]);
    assert!(matches!(
        t.state.pending,
        Some(Pending::Retreat { hexes: 1, .. })
    ));
    t.refuses(&Action::IgnoreFlag, "BC-RET-3");
}

#[test]
fn bc_gen_6_a_lone_general_ignores_one_flag() {
    let units = [
        ("att", "blue", "infantry", "0507", 0),
        ("ggen", "grey", "general", "0506", 0),
    ];
    let one = || {
        let mut p = battling(&clear(), &units, &["att"]);
        let ev = p.apply(&p.battle("att", "ggen"), &[FLAG, INF, CAV, ART]);
        assert_eq!(battled(&ev), (4, 0, 1));
        p
    };
    let (mut p, mut q) = (one(), one());
    let d = p.rules.to_act(&p.state).unwrap();
    assert_eq!((d.side.as_str(), d.kind.as_str()), ("grey", "embolden"));
    p.allows(&Action::IgnoreFlag, "BC-GEN-6");
    // Ignoring it, the general stands.
    let ev = p.apply(&Action::IgnoreFlag, &[]);
    assert_eq!(ignored(&ev), Some((0, "BC-GEN-6".into())));
    assert!(p.state.pending.is_none());
    assert_eq!(p.at("ggen").as_deref(), Some("0506"));
    // Taking it, the general retreats a hex.
    q.apply(&Action::Decline, &[]);
    assert!(matches!(
        q.state.pending,
        Some(Pending::Retreat { hexes: 1, .. })
    ));
    q.apply(&q.retreat("ggen", "0505"), &[]);
    assert_eq!(q.at("ggen").as_deref(), Some("0505"));
    let mut r = battling(&clear(), &units, &["att"]);
    r.apply(&r.battle("att", "ggen"), &[FLAG, FLAG, INF, INF]);
    r.apply(&Action::IgnoreFlag, &[]);
    assert!(matches!(
        r.state.pending,
        Some(Pending::Retreat { hexes: 1, .. })
    ));
}

#[test]
fn bc_gen_7_take_ground() {
    let woods = harness::terrain(&[("0506", 'w')]);
    let units = [
        ("att", "blue", "infantry", "0507", 0),
        ("gen", "blue", "general", "0507", 0),
        ("def", "grey", "infantry", "0506", 0),
    ];
    let mut p = battling(&woods, &units, &["att"]);
    p.apply(&p.battle("att", "def"), &[FLAG, FLAG, CAV]);
    assert_eq!(p.retreats(), harness::labels(&["0404", "0504", "0604"]));
    p.apply(&p.retreat("def", "0504"), &[]);
    assert_eq!(
        p.state.pending,
        Some(Pending::TakeGround {
            unit: p.id("att"),
            to: p.hex("0506")
        })
    );
    let d = p.rules.to_act(&p.state).unwrap();
    assert_eq!(
        (d.side.as_str(), d.kind.as_str(), d.reaction),
        ("blue", "take_ground", false)
    );
    p.allows(&Action::TakeGround, "BC-GEN-7");
    let ev = p.apply(&Action::TakeGround, &[]);
    assert!(matches!(&ev[0], Event::TookGround { .. }));
    assert_eq!(
        p.at("att").as_deref(),
        Some("0506"),
        "into the woods, whose stop does not apply"
    );
    assert_eq!(p.at("gen").as_deref(), Some("0506"));
    // After an elimination too; declining leaves the unit where it is.
    let mut q = battling(&woods, &units, &["att"]);
    q.set_figures("def", 1);
    q.apply(&q.battle("att", "def"), &[INF, CAV, CAV]);
    assert!(matches!(q.state.pending, Some(Pending::TakeGround { .. })));
    q.apply(&Action::Decline, &[]);
    assert_eq!(q.at("att").as_deref(), Some("0507"));
    // Not without a general, not for artillery, not from a distance.
    let mut r = battling(
        &woods,
        &[
            ("att", "blue", "infantry", "0507", 0),
            ("def", "grey", "infantry", "0506", 1),
        ],
        &["att"],
    );
    r.apply(&r.battle("att", "def"), &[INF, CAV, CAV]);
    assert!(r.state.pending.is_none());
    let mut s = battling(
        &woods,
        &[
            ("att", "blue", "artillery", "0507", 0),
            ("gen", "blue", "general", "0507", 0),
            ("def", "grey", "infantry", "0506", 1),
        ],
        &["att"],
    );
    s.apply(&s.battle("att", "def"), &[INF, CAV, CAV, CAV]);
    assert!(s.state.pending.is_none());
    let mut t = battling(
        &clear(),
        &[
            ("att", "blue", "infantry", "0508", 0),
            ("gen", "blue", "general", "0508", 0),
            ("def", "grey", "infantry", "0506", 1),
        ],
        &["att"],
    );
    t.apply(&t.battle("att", "def"), &[INF, CAV, CAV]);
    assert!(t.state.pending.is_none());
    t.refuses(&Action::TakeGround, "BC-GEN-7");
    // Nor from a general alone: ground is taken from a unit.
    let mut g = battling(
        &clear(),
        &[
            ("att", "blue", "infantry", "0507", 0),
            ("gen", "blue", "general", "0507", 0),
            ("ggen", "grey", "general", "0506", 0),
        ],
        &["att"],
    );
    g.apply(&g.battle("att", "ggen"), &[SAB, CAV, CAV, CAV]);
    assert_eq!(g.at("ggen"), None);
    assert!(g.state.pending.is_none());
}

#[test]
fn bc_gen_8_no_take_ground_after_fight_back() {
    let mut p = attack(true);
    p.hand("grey", &["fight_back"]);
    p.apply(&p.battle("att", "def"), &[CAV, CAV, CAV, CAV]);
    p.allows(&Action::FightBack, "BC-GEN-8");
    // Grey's unit, with its general, fights back and drives blue's back a hex.
    p.apply(&Action::FightBack, &[FLAG, CAV, CAV, CAV]);
    let d = p.rules.to_act(&p.state).unwrap();
    assert_eq!(
        (d.side.as_str(), d.kind.as_str(), d.reaction),
        ("blue", "retreat", false)
    );
    p.apply(&p.retreat("att", "0508"), &[]);
    assert!(
        p.state.pending.is_none(),
        "no take ground after a Fight Back"
    );
    assert_eq!(p.at("def").as_deref(), Some("0506"));
}

#[test]
fn bc_die_1_the_faces() {
    // Artillery adjacent with Grand Battery: 5 + 1 = 6 dice, one of each result.
    let mut p = battling(
        &clear(),
        &[
            ("art", "blue", "artillery", "0507", 0),
            ("foe", "grey", "infantry", "0506", 0),
        ],
        &["art"],
    );
    p.state.played = Some(Card::from_id("grand_battery").unwrap());
    assert_eq!(p.dice("art", "foe"), 6);
    let ev = p.apply(&p.battle("art", "foe"), &[1, 2, 3, 4, 5, 6]);
    let faces = ev.iter().find_map(|e| match e {
        Event::Battled { faces, .. } => Some(faces.clone()),
        _ => None,
    });
    assert_eq!(
        faces.unwrap(),
        [
            Face::Infantry,
            Face::Infantry,
            Face::Cavalry,
            Face::Artillery,
            Face::Sabers,
            Face::Flag
        ]
    );
    // The exact odds of one die against infantry: 3 of 6 faces hit, 1 of 6 a flag.
    let q = battling(
        &clear(),
        &[
            ("inf", "blue", "infantry", "0205", 0),
            ("foe", "grey", "infantry", "0605", 0),
        ],
        &["inf"],
    );
    let pv = q.rules.preview(&q.state, &q.battle("inf", "foe")).unwrap();
    assert_eq!(pv.roll, "1 battle dice");
    let odds: Vec<(u64, u64, u64, u64)> = pv
        .outcomes
        .iter()
        .map(|c| {
            (
                c.result["hits"].as_u64().unwrap(),
                c.result["flags"].as_u64().unwrap(),
                c.num,
                c.den,
            )
        })
        .collect();
    assert_eq!(odds, [(0, 0, 1, 3), (0, 1, 1, 6), (1, 0, 1, 2)]);
}

#[test]
fn bc_hit_1_matching_symbols_and_sabers_hit() {
    let mut p = battling(
        &clear(),
        &[
            ("inf", "blue", "infantry", "0507", 0),
            ("foe", "grey", "cavalry", "0506", 0),
        ],
        &["inf"],
    );
    let ev = p.apply(&p.battle("inf", "foe"), &[CAV, SAB, INF, ART]);
    assert_eq!(
        battled(&ev),
        (4, 2, 0),
        "the cavalry symbol and the sabers hit cavalry"
    );
    assert_eq!(p.figures("foe"), 1);
}

#[test]
fn bc_hit_2_figures_removed_and_the_flag_collected() {
    let mut p = battling(
        &clear(),
        &[
            ("inf", "blue", "infantry", "0507", 0),
            ("inf2", "blue", "infantry", "0607", 0),
            ("foe", "grey", "infantry", "0506", 0),
        ],
        &["inf", "inf2"],
    );
    let ev = p.apply(&p.battle("inf", "foe"), &[INF, INF, CAV, CAV]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Lost { figures: 2, left: 2, rule, .. } if rule == "BC-HIT-2")));
    p.apply(&Action::Decline, &[]);
    let ev = p.apply(&p.battle("inf2", "foe"), &[INF, SAB, CAV, CAV]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Eliminated { rule, .. } if rule == "BC-HIT-2")));
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::FlagTaken { side, flags: 1 } if side == "blue")));
    assert_eq!(p.state.flags, [1, 0]);
    assert_eq!(p.at("foe"), None);
}

#[test]
fn bc_hit_3_extra_hits_are_wasted() {
    let mut p = battling(
        &clear(),
        &[
            ("inf", "blue", "infantry", "0507", 0),
            ("foe", "grey", "artillery", "0506", 0),
        ],
        &["inf"],
    );
    let ev = p.apply(&p.battle("inf", "foe"), &[ART, ART, SAB, INF]);
    assert_eq!(battled(&ev).1, 3);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Lost {
            figures: 2,
            left: 0,
            ..
        }
    )));
    assert_eq!(p.state.flags, [1, 0], "one flag, whatever the extra hits");
}

#[test]
fn bc_hit_4_a_lone_general_needs_sabers() {
    let units = [
        ("inf", "blue", "infantry", "0507", 0),
        ("ggen", "grey", "general", "0506", 0),
    ];
    let mut p = battling(&clear(), &units, &["inf"]);
    // The odds shown before the dice: only sabers (1 face of 6) hit a lone general, so
    // with 4 dice it is eliminated unless no die shows sabers: 1 - (5/6)^4.
    let pv = p.rules.preview(&p.state, &p.battle("inf", "ggen")).unwrap();
    assert_eq!(pv.inputs["dice"], 4);
    let eliminated: f64 = pv
        .outcomes
        .iter()
        .filter(|o| o.result["eliminated"] == true)
        .map(|o| o.p)
        .sum();
    assert!(
        (eliminated - (1.0 - (5.0f64 / 6.0).powi(4))).abs() < 1e-9,
        "{eliminated}"
    );
    p.apply(&p.battle("inf", "ggen"), &[INF, INF, CAV, ART]);
    assert_eq!(p.at("ggen").as_deref(), Some("0506"), "no sabers: no hit");
    let mut q = battling(&clear(), &units, &["inf"]);
    let ev = q.apply(&q.battle("inf", "ggen"), &[SAB, CAV, CAV, CAV]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Eliminated { rule, .. } if rule == "BC-HIT-4")));
    assert_eq!(q.state.flags, [1, 0]);
    // A general attached to a unit cannot be attacked.
    let r = battling(
        &clear(),
        &[
            ("inf", "blue", "infantry", "0507", 0),
            ("foe", "grey", "infantry", "0506", 0),
            ("ggen", "grey", "general", "0506", 0),
        ],
        &["inf"],
    );
    r.refuses(&r.battle("inf", "ggen"), "BC-HIT-4");
}

#[test]
fn bc_hit_5_spare_sabers_spare_the_general() {
    let mut p = attack(true);
    p.set_figures("def", 1);
    p.apply(&p.battle("att", "def"), &[SAB, SAB, SAB, CAV]);
    assert_eq!(p.at("def"), None);
    assert_eq!(
        p.at("ggen").as_deref(),
        Some("0506"),
        "the general stands alone"
    );
    assert_eq!(p.state.flags, [1, 0]);
    assert!(
        p.state.pending.is_none(),
        "the hex is not empty: no ground to take"
    );
}

#[test]
fn bc_hit_6_hits_then_retreats() {
    let mut p = attack(false);
    p.set_figures("def", 2);
    p.apply(&p.battle("att", "def"), &[INF, INF, FLAG, CAV]);
    assert_eq!(
        p.at("def"),
        None,
        "eliminated by the hits: no retreat to make"
    );
    assert!(p.state.pending.is_none());
    let mut q = attack(false);
    let ev = q.apply(&q.battle("att", "def"), &[INF, FLAG, CAV, CAV]);
    assert!(matches!(ev.last(), Some(Event::Lost { figures: 1, .. })));
    assert!(matches!(
        q.state.pending,
        Some(Pending::Retreat { hexes: 1, .. })
    ));
}
