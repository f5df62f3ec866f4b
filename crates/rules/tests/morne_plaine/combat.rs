//! The combat phase (docs/rules/morne-plaine.md, MP-CMB-*, MP-ADV-*): support, odds, the die, results, morale
//! checks, advance after combat, victorious units, elimination, demoralisation.

use super::harness::{clear, has, map, Mp, T};
use grognard_engine::Ruleset;
use grognard_rules::morne_plaine::data::{CrtResult, Data, DataError, Source, DATA};
use grognard_rules::morne_plaine::{Action, Event, Phase};

/// The game of `m` at orange's combat phase.
fn fight(m: Mp) -> T {
    let mut t = m.game();
    t.to("orange", Phase::Combat);
    t
}

/// Infantry o-a at 0303 (CS and MV `a`) and infantry b-a at 0304 (CS and MV `d`) on a
/// clear 6 x 6 map with what `more` adds, at orange's combat phase.
fn duel(a: (u8, u8), d: (u8, u8), more: impl FnOnce(Mp) -> Mp) -> T {
    fight(more(
        clear(6, 6)
            .inf("o-a", "0303", a.0, a.1)
            .inf("b-a", "0304", d.0, d.1),
    ))
}

/// A strong orange `kind` (infantry or cavalry) at 0303 on `from` terrain beats b-a at
/// 0304 on `to` terrain (a 4 x 5 map, the rest clear); returns where the victor stands.
fn victor(kind: &str, from: &str, to: &str) -> Option<String> {
    let terrain = format!(". . . .\n. . . .\n. . {from} .\n. . {to} .\n. . . .");
    let ma = if kind == "cavalry" { 8 } else { 4 };
    let values = format!("cs = 16, ma = {ma}, mv = 4");
    let mut t = fight(
        map(&terrain)
            .unit("o-a", kind, "0303", &values)
            .inf("b-a", "0304", 4, 4),
    );
    beat(&mut t, "o-a", "b-a", "defender");
    t.at("o-a")
}

/// The attack event of an event list.
fn attacked(ev: &[Event]) -> (u32, u32, String, i32, u8, CrtResult, usize, usize) {
    ev.iter()
        .find_map(|e| match e {
            Event::Attacked {
                attack,
                defence,
                odds,
                modifier,
                die,
                result,
                supports,
                defence_supports,
                ..
            } => Some((
                *attack,
                *defence,
                odds.clone(),
                *modifier,
                *die,
                *result,
                supports.len(),
                defence_supports.len(),
            )),
            _ => None,
        })
        .expect("an attacked event")
}

/// Attacks with the first combat die that gives `who` ("defender" or "attacker") a
/// morale check, a 9 for that check (it fails unless the morale is 9) and a 1 for the
/// other unit's check, if it takes one. Each die is probed on a copy of the game first,
/// so that exactly the dice the attack rolls are forced.
pub fn beat(t: &mut T, attacker: &str, defender: &str, who: &str) -> Vec<Event> {
    let action = t.attack_action(attacker, defender);
    let loser = if who == "defender" {
        t.id(defender)
    } else {
        t.id(attacker)
    };
    for roll in 1..=6 {
        let mut probe = t.clone();
        probe.force(&[roll]);
        let ev = probe.act(&action).unwrap_or_else(|r| panic!("{r}"));
        let r = attacked(&ev).5;
        if (who == "defender" && r.defender_check) || (who == "attacker" && r.attacker_check) {
            let mut dice = vec![roll];
            dice.extend(ev.iter().filter_map(|e| match e {
                Event::MoraleChecked { unit, .. } => Some(if *unit == loser { 9 } else { 1 }),
                _ => None,
            }));
            t.force(&dice);
            return t.act_exactly(&action).unwrap_or_else(|r| panic!("{r}"));
        }
    }
    panic!("no die gives the {who} a morale check");
}

/// Attacks with `roll` on the combat die and a 1 (a pass) for each morale check the
/// attack calls for, probed on a copy of the game first so that exactly the dice the
/// attack rolls are forced.
pub fn strike(t: &mut T, attacker: &str, defender: &str, roll: u32) -> Vec<Event> {
    let action = t.attack_action(attacker, defender);
    let mut probe = t.clone();
    probe.force(&[roll]);
    let ev = probe.act(&action).unwrap_or_else(|r| panic!("{r}"));
    let checks = ev
        .iter()
        .filter(|e| matches!(e, Event::MoraleChecked { .. }))
        .count();
    let mut dice = vec![roll];
    dice.extend(std::iter::repeat_n(1, checks));
    t.force(&dice);
    t.act_exactly(&action).unwrap_or_else(|r| panic!("{r}"))
}

/// 1-1, no modifiers, a roll of 3: the defender loses 1, nobody checks.
fn one_one_three(t: &mut T, a: &str, d: &str) -> Vec<Event> {
    t.force(&[3]);
    let ev = t.attack(a, d).unwrap();
    let x = attacked(&ev);
    assert_eq!((x.2.as_str(), x.3), ("1-1", 0), "{ev:?}");
    ev
}

#[test]
fn mp_cmb_1_attacks_in_the_active_sides_combat_phase_on_adjacent_enemies() {
    let mut t = clear(6, 6)
        .inf("o-a", "0303", 5, 4)
        .inf("o-b", "0305", 5, 4)
        .inf("b-a", "0304", 5, 4)
        .inf("b-far", "0606", 5, 4)
        .game();
    let a = t.attack_action("o-a", "b-a");
    assert_eq!(t.refused(a), "MP-CMB-1", "not in the movement phase");
    t.end();
    assert_eq!(t.phase(), (Phase::Combat, "orange"));
    let attacks: Vec<Action> = t
        .legal()
        .into_iter()
        .filter(|a| matches!(a, Action::Attack { .. }))
        .collect();
    assert_eq!(attacks.len(), 2, "o-a and o-b on b-a: {attacks:?}");
    let blue = t.attack_action("b-a", "o-a");
    assert_eq!(t.refused(blue), "MP-CMB-1");
    let friend = t.attack_action("o-a", "o-b");
    assert_eq!(t.refused(friend), "MP-CMB-1");
    let far = t.attack_action("o-a", "b-far");
    assert_eq!(t.refused(far), "MP-CMB-1");
}

#[test]
fn mp_cmb_2_a_unit_attacks_once_an_enemy_is_attacked_once() {
    // o-a (0303) touches b-a (0304) and b-b (0403); o-b (0204) touches b-a only.
    let mut t = duel((5, 4), (5, 4), |m| {
        m.inf("o-b", "0204", 5, 4).inf("b-b", "0403", 5, 4)
    });
    one_one_three(&mut t, "o-a", "b-a");
    let again = t.attack_action("o-a", "b-b");
    assert_eq!(t.refused(again), "MP-CMB-2");
    let twice = t.attack_action("o-b", "b-a");
    assert_eq!(t.refused(twice), "MP-CMB-2");
}

#[test]
fn mp_cmb_3_adjacent_units_support() {
    let mut t = duel((5, 4), (5, 4), |m| {
        m.inf("o-b", "0204", 5, 4).inf("b-b", "0403", 5, 4)
    });
    let ev = one_one_three(&mut t, "o-a", "b-a");
    let x = attacked(&ev);
    assert_eq!(
        (x.0, x.1, x.6, x.7),
        (10, 10, 1, 1),
        "o-b supports the attack, b-b the defence"
    );
}

#[test]
fn mp_cmb_4_only_attacker_and_defender_suffer_results() {
    // Die 0 at 1-1 (a 1 less 1 for the ground below): the attacker loses 1 and checks.
    let mut t = fight(
        clear(6, 6)
            .elevation(
                "0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 1 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0",
            )
            .hexsides("slope", &["0303/0304"])
            .inf("o-a", "0303", 5, 4)
            .inf("o-b", "0204", 5, 4)
            .inf("b-a", "0304", 5, 4)
            .inf("b-b", "0403", 5, 4),
    );
    t.force(&[1, 9]);
    let ev = t.attack("o-a", "b-a").unwrap();
    let x = attacked(&ev);
    assert_eq!(
        (x.4, x.5.attacker_loss, x.5.attacker_check),
        (0, 1, true),
        "{ev:?}"
    );
    assert_eq!(t.cs("o-a"), 4);
    assert_ne!(
        t.at("o-a").as_deref(),
        Some("0303"),
        "the attacker retreated"
    );
    for id in ["o-b", "b-b"] {
        assert_eq!((t.cs(id), t.mv(id)), (5, 4), "{id} untouched");
    }
    assert_eq!(
        (t.at("o-b").as_deref(), t.at("b-b").as_deref()),
        (Some("0204"), Some("0403"))
    );
}

#[test]
fn mp_cmb_5_no_combat_where_movement_is_forbidden() {
    // b-b, next to o-a, keeps the combat phase open; b-a lies across the feature.
    for (feature, elev) in [("river", 0), ("major_river", 0), ("slope", 2)] {
        let e = format!("0 0 0 0\n0 0 0 0\n0 0 {elev} 0\n0 0 0 0");
        let mut t = fight(
            clear(4, 4)
                .elevation(&e)
                .hexsides(feature, &["0302/0303"])
                .inf("o-a", "0302", 5, 4)
                .inf("b-a", "0303", 5, 4)
                .inf("b-b", "0402", 5, 4),
        );
        let a = t.attack_action("o-a", "b-a");
        assert_eq!(t.refused(a), "MP-CMB-5", "{feature}");
    }
    // With nothing else in contact, the combat phase has nothing to offer and passes.
    let mut t = clear(4, 4)
        .hexsides("river", &["0302/0303"])
        .inf("o-a", "0302", 5, 4)
        .inf("b-a", "0303", 5, 4)
        .game();
    t.end();
    assert_eq!(t.phase(), (Phase::Movement, "blue"));
    // Movement is forbidden by "unbridged or unforded rivers" only: across a bridge or a
    // ford over a river or a major river units move, so they fight, and the combat phase
    // opens for it.
    for (river, crossing) in [
        ("river", "bridge"),
        ("river", "ford"),
        ("major_river", "bridge"),
        ("major_river", "ford"),
    ] {
        let mut t = clear(4, 4)
            .hexsides(river, &["0302/0303"])
            .hexsides(crossing, &["0302/0303"])
            .inf("o-a", "0302", 5, 4)
            .inf("b-a", "0303", 5, 4)
            .game();
        t.end();
        assert_eq!(t.phase(), (Phase::Combat, "orange"), "{river} {crossing}");
        let a = t.attack_action("o-a", "b-a");
        assert!(t.legal().contains(&a), "{river} {crossing}");
        let ev = strike(&mut t, "o-a", "b-a", 3);
        assert_eq!(attacked(&ev).2, "1-1", "{river} {crossing}");
    }
}

#[test]
fn mp_cmb_6_offensive_support_needs_no_other_enemy_contact() {
    // o-b touches b-a and b-c: no support. o-d touches b-a only: supports.
    let mut t = fight(
        clear(7, 7)
            .inf("o-a", "0303", 5, 4)
            .inf("o-b", "0204", 3, 4)
            .inf("o-d", "0404", 2, 4)
            .inf("b-a", "0304", 5, 4)
            .inf("b-c", "0105", 3, 4),
    );
    let x = attacked(&strike(&mut t, "o-a", "b-a", 3));
    assert_eq!((x.0, x.6), (7, 1));
}

#[test]
fn mp_cmb_7_defensive_support_needs_no_other_enemy_contact() {
    // b-b touches o-a only: supports. b-c touches o-a and o-x: does not.
    let mut t = fight(
        clear(7, 7)
            .inf("o-a", "0404", 5, 4)
            .inf("o-x", "0605", 5, 4)
            .inf("b-a", "0405", 5, 4)
            .inf("b-b", "0304", 2, 4)
            .inf("b-c", "0505", 3, 4),
    );
    t.force(&[3]);
    let ev = t.attack("o-a", "b-a").unwrap();
    let x = attacked(&ev);
    assert_eq!((x.1, x.7), (7, 1), "{ev:?}");
}

#[test]
fn mp_cmb_8_contact_is_not_across_a_river_or_a_steep_slope() {
    // o-b is next to b-a but across a river: no support.
    let mut t = duel((5, 4), (5, 4), |m| {
        m.hexsides("river", &["0204/0304"]).inf("o-b", "0204", 5, 4)
    });
    let x = attacked(&strike(&mut t, "o-a", "b-a", 3));
    assert_eq!((x.0, x.6), (5, 0));
    // Across a bridge or a ford the river does not separate them (contact follows
    // movement, MP-CMB-5): o-b supports, and b-b, in contact with o-a across a bridged
    // major river and with no other enemy, supports the defence.
    for crossing in ["bridge", "ford"] {
        let mut t = duel((5, 4), (5, 4), |m| {
            m.hexsides("river", &["0204/0304"])
                .hexsides(crossing, &["0204/0304"])
                .hexsides("major_river", &["0303/0403"])
                .hexsides(crossing, &["0303/0403"])
                .inf("o-b", "0204", 5, 4)
                .inf("b-b", "0403", 2, 4)
        });
        let x = attacked(&strike(&mut t, "o-a", "b-a", 3));
        assert_eq!((x.0, x.6, x.1, x.7), (10, 1, 7, 1), "{crossing}");
    }
}

#[test]
fn mp_cmb_9_demoralised_units_never_support() {
    let mut t = duel((5, 4), (5, 4), |m| m.inf("o-b", "0204", 5, 0));
    let x = attacked(&strike(&mut t, "o-a", "b-a", 3));
    assert_eq!((x.0, x.6), (5, 0));
}

#[test]
fn mp_cmb_10_victorious_units_always_support() {
    // o-a (0404) drives b-a back from 0405 to 0406 and follows it into 0405. There it
    // touches b-a again and b-b (0505); o-c (0605) attacks b-b, and o-a, in contact with
    // another enemy, supports all the same.
    let mut t = fight(
        clear(8, 8)
            .unit("o-a", "infantry", "0404", "cs = 12, ma = 4, mv = 4")
            .inf("b-a", "0405", 3, 4)
            .inf("b-b", "0505", 3, 4)
            .inf("o-c", "0605", 4, 4),
    );
    let ev = beat(&mut t, "o-a", "b-a", "defender");
    assert!(has(&ev, |e| matches!(e, Event::Retreated { .. })), "{ev:?}");
    assert_eq!(
        (t.at("o-a").as_deref(), t.at("b-a").as_deref()),
        (Some("0405"), Some("0406"))
    );
    assert!(t.unit("o-a").victorious);
    t.force(&[3]);
    let ev = t.attack("o-c", "b-b").unwrap();
    let a = t.id("o-a");
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Attacked { supports, .. } if supports.contains(&a))
        ),
        "{ev:?}"
    );
    assert_eq!(attacked(&ev).0, 4 + 12);
}

#[test]
fn mp_cmb_10_only_the_principals_become_victorious() {
    let mut t = fight(
        clear(8, 8)
            .unit("o-a", "infantry", "0404", "cs = 12, ma = 4, mv = 4")
            .inf("o-s", "0304", 3, 4)
            .inf("b-a", "0405", 3, 4),
    );
    beat(&mut t, "o-a", "b-a", "defender");
    assert!(t.unit("o-a").victorious);
    assert!(!t.unit("o-s").victorious);
}

#[test]
fn mp_cmb_11_a_support_adds_its_strength_corrected_by_a_charge() {
    // o-c charges b-t (MP-CHG-17); in the combat phase o-i attacks b-t with o-c in
    // support at 4 x 1.5 = 6.
    let mut t = clear(6, 8)
        .cav("o-c", "0302", 4, 5)
        .inf("o-i", "0405", 5, 4)
        .inf("b-t", "0305", 4, 4)
        .game();
    t.go("o-c", "0303").unwrap();
    t.force(&[9]);
    t.charge("o-c", "b-t").unwrap();
    assert_eq!(t.at("b-t").as_deref(), Some("0306"));
    t.end();
    t.force(&[3]);
    let ev = t.attack("o-i", "b-t").unwrap();
    assert_eq!(attacked(&ev).0, 11, "5 + 6: {ev:?}");
}

#[test]
fn mp_cmb_12_supports_never_suffer_results() {
    // A morale check on the attacker and the defender's loss: supports untouched.
    let mut t = duel((5, 4), (5, 4), |m| {
        m.inf("o-b", "0204", 5, 4).inf("b-b", "0403", 5, 4)
    });
    beat(&mut t, "o-a", "b-a", "defender");
    for id in ["o-b", "b-b"] {
        assert_eq!((t.cs(id), t.mv(id)), (5, 4), "{id}");
    }
}

#[test]
fn mp_cmb_13_attack_total() {
    let mut t = duel((5, 4), (5, 4), |m| {
        m.inf("o-b", "0204", 3, 4).inf("o-c", "0404", 2, 4)
    });
    assert_eq!(attacked(&strike(&mut t, "o-a", "b-a", 3)).0, 10);
}

#[test]
fn mp_cmb_14_defence_total() {
    let mut t = duel((5, 4), (5, 4), |m| {
        m.inf("b-b", "0403", 2, 4).inf("b-c", "0203", 1, 4)
    });
    assert_eq!(attacked(&strike(&mut t, "o-a", "b-a", 3)).1, 8);
}

#[test]
fn mp_cmb_15_totals_compared_as_odds() {
    let mut t = duel((12, 4), (4, 4), |m| m);
    let x = attacked(&strike(&mut t, "o-a", "b-a", 3));
    assert_eq!((x.0, x.1, x.2.as_str()), (12, 4, "3-1"));
}

#[test]
fn mp_cmb_16_rounded_in_the_defenders_favour() {
    let crt = Data::shipped().crt;
    let cols = &crt.columns;
    // The text's examples: 10 against 6 is 1.5-1; 6 against 10 is 1-2.
    assert_eq!(cols[crt.column(10, 6)], "1.5-1");
    assert_eq!(cols[crt.column(6, 10)], "1-2");
    for (a, d, odds) in [
        (6, 6, "1-1"),
        (8, 6, "1-1"),
        (9, 6, "1.5-1"),
        (12, 6, "2-1"),
        (17, 6, "2-1"),
        (18, 6, "3-1"),
        (5, 6, "1-1.5"),
        (4, 6, "1-1.5"),
        (3, 7, "1-3"),
        (2, 7, "1-4"),
    ] {
        assert_eq!(cols[crt.column(a, d)], odds, "{a} against {d}");
    }
    for (a, d, odds) in [(10, 6, "1.5-1"), (6, 10, "1-2")] {
        let mut t = fight(
            clear(6, 6)
                .unit(
                    "o-a",
                    "infantry",
                    "0303",
                    &format!("cs = {a}, ma = 4, mv = 4"),
                )
                .unit(
                    "b-a",
                    "infantry",
                    "0304",
                    &format!("cs = {d}, ma = 4, mv = 4"),
                ),
        );
        let preview = t
            .rules
            .preview(t.state(), &t.attack_action("o-a", "b-a"))
            .unwrap();
        assert_eq!(preview.inputs["odds"], odds);
        assert_eq!(attacked(&strike(&mut t, "o-a", "b-a", 3)).2, odds);
    }
}

#[test]
fn mp_cmb_17_odds_clamped_to_eight_to_one() {
    let crt = Data::shipped().crt;
    let cols = &crt.columns;
    assert_eq!(cols[crt.column(20, 1)], "8-1");
    assert_eq!(cols[crt.column(1, 20)], "1-8");
    assert_eq!(cols[crt.column(16, 2)], "8-1");
    assert_eq!(cols[crt.column(2, 16)], "1-8");
    assert_eq!(cols[crt.column(0, 5)], "1-8");
}

#[test]
fn mp_cmb_18_a_die_with_cumulative_modifiers() {
    // From higher ground (+1) with morale 8 against 4 (+2): a 2 becomes 5.
    let mut t = fight(
        clear(6, 6)
            .elevation(
                "0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 1 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0",
            )
            .hexsides("slope", &["0303/0304"])
            .inf("o-a", "0303", 5, 8)
            .inf("b-a", "0304", 5, 4),
    );
    t.force(&[2, 1]);
    let ev = t.attack("o-a", "b-a").unwrap();
    let x = attacked(&ev);
    assert_eq!((x.3, x.4), (3, 5));
    assert!(has(
        &ev,
        |e| matches!(e, Event::Roll(r) if r.sides == 6 && r.value == 2)
    ));
}

#[test]
fn mp_cmb_19_final_die_clamped_to_zero_and_seven() {
    // Morale 1 against 8: -3 (rounded toward 0 from -3.5); a 1 is 0.
    let mut t = duel((5, 1), (5, 8), |m| m);
    t.force(&[1, 1]);
    assert_eq!(attacked(&t.attack("o-a", "b-a").unwrap()).4, 0);
    let mut u = duel((5, 8), (5, 1), |m| m);
    u.force(&[6, 1]);
    assert_eq!(attacked(&u.attack("o-a", "b-a").unwrap()).4, 7);
}

#[test]
fn mp_cmb_20_strength_zero_is_eliminated() {
    let mut t = duel((5, 4), (1, 4), |m| m);
    // 5-1: every die costs the defender at least one point (die 3: 0/2*, and the
    // eliminated unit takes no morale check).
    t.force(&[3]);
    let ev = t.attack("o-a", "b-a").unwrap();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Eliminated { rule, .. } if rule == "MP-CMB-20")
        ),
        "{ev:?}"
    );
    assert_eq!(t.at("b-a"), None);
}

#[test]
fn mp_cmb_21_higher_ground_plus_one_lower_minus_one() {
    let hill = "0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 1 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0";
    let mut up = duel((5, 4), (5, 4), |m| {
        m.elevation(hill).hexsides("slope", &["0303/0304"])
    });
    assert_eq!(attacked(&strike(&mut up, "o-a", "b-a", 3)).3, 1);
    // Attacking the hill: -1. The hill counts once: the defender on a clear hill hex
    // keeps its strength (MP-CMB-30 corrects by the type of terrain, not the hill).
    let mut down = fight(
        clear(6, 6)
            .elevation(hill)
            .hexsides("slope", &["0303/0304"])
            .inf("o-a", "0304", 5, 4)
            .inf("b-a", "0303", 5, 4),
    );
    let x = attacked(&strike(&mut down, "o-a", "b-a", 3));
    assert_eq!((x.1, x.3), (5, -1), "defence 5, die -1");
}

#[test]
fn mp_cmb_22_the_supports_positions_do_not_count() {
    // o-b supports from the hill: no modifier.
    let hill = "0 0 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0\n0 1 0 0 0 0\n0 0 0 0 0 0\n0 0 0 0 0 0";
    let mut t = duel((5, 4), (5, 4), |m| {
        m.elevation(hill)
            .hexsides("slope", &["0204/0304"])
            .inf("o-b", "0204", 5, 4)
    });
    let x = attacked(&strike(&mut t, "o-a", "b-a", 3));
    assert_eq!((x.3, x.6), (0, 1));
}

#[test]
fn mp_cmb_23_one_per_two_points_of_morale_difference() {
    for (a, d, m) in [(6, 2, 2), (5, 4, 0), (6, 3, 1), (2, 6, -2), (4, 5, 0)] {
        let mut t = fight(
            clear(6, 6)
                .inf("o-a", "0303", 5, a)
                .inf("b-a", "0304", 5, d),
        );
        assert_eq!(
            attacked(&strike(&mut t, "o-a", "b-a", 3)).3,
            m,
            "{a} against {d}"
        );
    }
}

#[test]
fn mp_cmb_24_only_the_principals_morale_counts() {
    let mut t = duel((5, 4), (5, 4), |m| {
        m.inf("o-b", "0204", 5, 9).inf("b-b", "0403", 5, 1)
    });
    assert_eq!(attacked(&strike(&mut t, "o-a", "b-a", 3)).3, 0);
}

#[test]
fn mp_cmb_25_the_table_is_provisional_and_monotone() {
    let crt = Data::shipped().crt;
    assert_eq!(crt.source, Source::Provisional);
    assert!(!crt.reason.is_empty());
    assert_eq!(crt.columns.len(), 17);
    assert_eq!(crt.rows.len(), 8);
    let score = |c: CrtResult| {
        (
            c.attacker_loss,
            c.attacker_check,
            c.defender_loss,
            c.defender_check,
        )
    };
    for die in 0..8 {
        for col in 0..17 {
            let (al, ac, dl, dc) = score(crt.cell(die, col));
            for (d2, c2) in [(die + 1, col), (die, col + 1)] {
                if d2 > 7 || c2 > 16 {
                    continue;
                }
                let (bl, bc, el, ec) = score(crt.cell(d2, c2));
                assert!(
                    bl <= al && (!bc || ac) && el >= dl && (ec || !dc),
                    "({die}, {col}) to ({d2}, {c2})"
                );
            }
        }
    }
    // The table's shape is read from the data and checked when it loads.
    let with_table = |table: &str| {
        let start = DATA.find("columns = [").expect("columns");
        let end = start + DATA[start..].find("\n]\n").expect("rows end") + 3;
        Data::parse(&format!("{}{table}\n{}", &DATA[..start], &DATA[end..]))
    };
    let rows =
        |cells: &str, n: usize| format!("rows = [\n{}]", format!("  [{cells}],\n").repeat(n));
    let small = with_table(&format!(
        "columns = [\"1-2\", \"1-1\", \"2-1\"]\n{}",
        rows("\"1*/0\", \"1/1\", \"0/1*\"", 8)
    ))
    .expect("a three-column table");
    let cols = &small.crt.columns;
    assert_eq!(cols[small.crt.column(6, 10)], "1-2");
    assert_eq!(
        cols[small.crt.column(1, 20)],
        "1-2",
        "clamped to the first column"
    );
    assert_eq!(
        cols[small.crt.column(20, 1)],
        "2-1",
        "clamped to the last column"
    );
    assert_eq!(
        small.crt.cell(7, 2),
        CrtResult {
            attacker_loss: 0,
            attacker_check: false,
            defender_loss: 1,
            defender_check: true,
        }
    );
    for (table, error) in [
        (
            format!(
                "columns = [\"1-1\", \"2-1\"]\n{}",
                rows("\"1/0\", \"0/1\"", 7)
            ),
            DataError::Rows(7),
        ),
        (
            format!(
                "columns = [\"1-1\", \"2:1\"]\n{}",
                rows("\"1/0\", \"0/1\"", 8)
            ),
            DataError::Column("2:1".into()),
        ),
        (
            format!(
                "columns = [\"2-1\", \"1-1\"]\n{}",
                rows("\"1/0\", \"0/1\"", 8)
            ),
            DataError::ColumnOrder("1-1".into(), "2-1".into()),
        ),
        (
            format!("columns = [\"1-1\", \"2-1\"]\n{}", rows("\"1/0\"", 8)),
            DataError::RowLength {
                row: 0,
                cells: 1,
                columns: 2,
            },
        ),
        (
            format!(
                "columns = [\"1-1\", \"2-1\"]\n{}",
                rows("\"1/0\", \"0/x\"", 8)
            ),
            DataError::Cell {
                row: 0,
                column: "2-1".into(),
                cell: "0/x".into(),
            },
        ),
    ] {
        let e = with_table(&table).expect_err(&table);
        assert_eq!(e, error);
        assert!(e.to_string().contains("[crt]"), "{e}");
    }
    // The cell is applied as read: 1-1, die 2: one point each.
    let mut t = duel((5, 4), (5, 4), |m| m);
    t.force(&[2]);
    let ev = t.attack("o-a", "b-a").unwrap();
    assert_eq!(attacked(&ev).5, crt.cell(2, 8));
    assert_eq!((t.cs("o-a"), t.cs("b-a")), (4, 4));
}

#[test]
fn mp_cmb_26_morale_check_mv_4_roll_4_succeeds() {
    // The text's example: morale 4, a 4: it holds. A 5 fails: one hex back.
    for (roll, holds) in [(4, true), (5, false)] {
        let mut t = duel((5, 4), (5, 4), |m| m);
        t.force(&[4, roll]); // 1-1, die 4: 0/1*
        let ev = t.attack("o-a", "b-a").unwrap();
        assert!(
            has(
                &ev,
                |e| matches!(e, Event::MoraleChecked { morale: 4, failed, .. } if *failed != holds)
            ),
            "{ev:?}"
        );
        let at = t.at("b-a").unwrap();
        if holds {
            assert_eq!(at, "0304");
        } else {
            assert_eq!(
                t.rules
                    .names()
                    .map()
                    .parse_label(&at)
                    .unwrap()
                    .distance(t.hex("0304")),
                1
            );
        }
    }
}

#[test]
fn mp_cmb_27_leaders_take_no_combat_morale_checks() {
    let mut t = fight(
        clear(6, 6)
            .unit("o-a", "infantry", "0303", "cs = 8, ma = 4, mv = 4")
            .leader("b-l", "0304", 4, 2),
    );
    t.force(&[4]);
    let ev = t.attack("o-a", "b-l").unwrap();
    assert!(attacked(&ev).5.defender_check, "{ev:?}");
    assert!(!has(&ev, |e| matches!(e, Event::MoraleChecked { .. })));
    assert_eq!(t.at("b-l").as_deref(), Some("0304"));
}

#[test]
fn mp_cmb_28_no_strength_difference_on_combat_morale_checks() {
    // 16 against 4 would be +12 on a charge's test; here a 4 against morale 4 holds.
    let mut t = duel((16, 4), (4, 4), |m| m);
    t.force(&[1, 4]);
    let ev = t.attack("o-a", "b-a").unwrap();
    assert!(
        has(&ev, |e| matches!(
            e,
            Event::MoraleChecked {
                roll: 4,
                failed: false,
                ..
            }
        )),
        "{ev:?}"
    );
}

#[test]
fn mp_cmb_29_odds_shown_before_the_roll() {
    let base = duel((6, 5), (5, 3), |m| m.inf("o-b", "0204", 3, 4));
    let action = base.attack_action("o-a", "b-a");
    let p = base.rules.preview(base.state(), &action).unwrap();
    assert_eq!(p.inputs["odds"], "1.5-1");
    assert_eq!(p.outcomes.iter().map(|o| o.num).sum::<u64>(), 6);
    assert!(p.outcomes.iter().all(|o| o.den == 6));
    let mut counts: Vec<(serde_json::Value, u64)> = Vec::new();
    for roll in 1..=6 {
        let mut t = base.clone();
        let r = serde_json::to_value(attacked(&strike(&mut t, "o-a", "b-a", roll)).5).unwrap();
        match counts.iter_mut().find(|c| c.0 == r) {
            Some(c) => c.1 += 1,
            None => counts.push((r, 1)),
        }
    }
    assert_eq!(counts.len(), p.outcomes.len());
    for (r, n) in counts {
        let shown = p
            .outcomes
            .iter()
            .find(|o| o.result["result"] == r)
            .expect("every result shown");
        assert_eq!(shown.num, n, "{r}");
    }
    let e = base.explain(&action);
    assert!(e.legal && e.reasons.iter().any(|r| r.rule == "MP-CMB-16"));
}

#[test]
fn mp_cmb_30_terrain_effects_on_combat() {
    let data = Data::shipped();
    assert_eq!(data.combat_terrain.source, Source::Provisional);
    assert!(!data.combat_terrain.reason.is_empty());
    // The type of terrain corrects the defender's strength by the rank of its hex:
    // 6 on clear ground, x1.5 in a hamlet, x2 in woods, a town or a village, x3 in a fort,
    // two thirds in marsh (rounded down). The die is not touched.
    for (code, defence) in [
        (".", 6),
        ("h", 9),
        ("w", 12),
        ("t", 12),
        ("v", 12),
        ("f", 18),
        ("m", 4),
    ] {
        let terrain = format!(". . . .\n. . . .\n. . {code} .\n. . . .");
        let mut t = fight(
            map(&terrain)
                .inf("o-a", "0302", 6, 4)
                .inf("b-a", "0303", 6, 4),
        );
        let x = attacked(&strike(&mut t, "o-a", "b-a", 3));
        assert_eq!((x.1, x.3), (defence, 0), "{code}");
    }
    // Cavalry in woods is on rank-0 ground: no correction.
    let mut c = fight(
        map(". . . .\n. . . .\n. . w .\n. . . .")
            .inf("o-a", "0302", 5, 4)
            .cav("b-c", "0303", 5, 4),
    );
    assert_eq!(attacked(&strike(&mut c, "o-a", "b-c", 3)).1, 5);
    // The attacker's ground (woods at 0202) does not count; a defensive support's own
    // ground does: b-s in woods at 0203 (touching o-a only) brings 2 x 2.
    let mut s = fight(
        map(". . . .\n. w . .\n. w . .\n. . . .")
            .inf("o-a", "0202", 5, 4)
            .inf("b-a", "0302", 5, 4)
            .inf("b-s", "0203", 2, 4),
    );
    let action = s.attack_action("o-a", "b-a");
    let e = s.explain(&action);
    assert!(e.reasons.iter().any(|r| r.rule == "MP-CMB-30"), "{e:?}");
    let x = attacked(&strike(&mut s, "o-a", "b-a", 3));
    assert_eq!((x.0, x.1, x.7), (5, 9, 1), "5 against 5 + 2 x 2");
}

#[test]
fn mp_adv_1_the_victor_takes_the_hex() {
    let mut t = duel((16, 4), (4, 4), |m| m);
    let ev = beat(&mut t, "o-a", "b-a", "defender");
    assert!(has(
        &ev,
        |e| matches!(e, Event::TookHex { rule, .. } if rule == "MP-ADV-1")
    ));
    assert_eq!(t.at("o-a").as_deref(), Some("0304"));
    // From an objective it stays.
    let mut u = duel((16, 4), (4, 4), |m| {
        m.raw("[[places]]\nname = \"Mill\"\nhex = \"0303\"\nobjective = true\n")
    });
    beat(&mut u, "o-a", "b-a", "defender");
    assert_eq!(u.at("o-a").as_deref(), Some("0303"));
    // The attacker that fails its check is followed up by the defender.
    let mut v = fight(clear(6, 6).inf("o-a", "0303", 4, 4).unit(
        "b-a",
        "infantry",
        "0304",
        "cs = 16, ma = 4, mv = 4",
    ));
    beat(&mut v, "o-a", "b-a", "attacker");
    assert_eq!(v.at("b-a").as_deref(), Some("0303"));
}

#[test]
fn mp_adv_2_objective_value_cancels_between_objectives() {
    let mut t = duel((16, 4), (4, 4), |m| {
        m.raw("[[places]]\nname = \"Mill\"\nhex = \"0303\"\nobjective = true\n\n[[places]]\nname = \"Farm\"\nhex = \"0304\"\nobjective = true\n")
    });
    beat(&mut t, "o-a", "b-a", "defender");
    assert_eq!(t.at("o-a").as_deref(), Some("0304"));
}

#[test]
fn mp_adv_3_terrain_ranks() {
    // Infantry: hamlet (1) to clear (0): stays; clear to hamlet: advances; hamlet to
    // village (2): advances. Marsh (-1) to clear: advances.
    for (from, to, advances) in [
        ("h", ".", false),
        (".", "h", true),
        ("h", "v", true),
        ("m", ".", true),
        (".", "m", false),
    ] {
        assert_eq!(
            victor("infantry", from, to).as_deref() == Some("0304"),
            advances,
            "{from} to {to}"
        );
    }
}

#[test]
fn mp_adv_4_artillery_never_moves_after_combat() {
    let mut t = fight(
        clear(6, 6)
            .unit(
                "o-g",
                "artillery",
                "0303",
                "cs = 16, ma = 3, mv = 4, bv = 3, range = 2",
            )
            .inf("b-a", "0304", 4, 4),
    );
    let ev = beat(&mut t, "o-g", "b-a", "defender");
    assert!(has(&ev, |e| matches!(e, Event::Retreated { .. })));
    assert_eq!(t.at("o-g").as_deref(), Some("0303"));
}

#[test]
fn mp_adv_5_infantry_and_mounted_only_to_equal_or_higher_rank() {
    // Woods are rank 2 for infantry but 0 for mounted units; and both are objectives.
    let at = victor("cavalry", "w", "w");
    assert_eq!(at.as_deref(), Some("0304"), "woods to woods");
    let at = victor("infantry", "v", "o");
    assert_eq!(at.as_deref(), Some("0303"), "village (2) to orchard (0)");
    // For cavalry a village is rank 0 like an orchard, so it advances from the orchard
    // into the village; but a village is a town (MP-TER-4), an objective hex (MP-ADV-1),
    // which it does not leave for the orchard.
    let at = victor("cavalry", "o", "v");
    assert_eq!(at.as_deref(), Some("0304"), "orchard to village");
    let at = victor("cavalry", "v", "o");
    assert_eq!(at.as_deref(), Some("0303"), "village to orchard");
}

#[test]
fn mp_adv_6_mounted_units_never_leave_a_fort() {
    assert_eq!(victor("cavalry", "f", "f").as_deref(), Some("0303"));
    let at = victor("infantry", "f", "f");
    assert_eq!(at.as_deref(), Some("0304"), "infantry goes fort to fort");
}

#[test]
fn mp_vicu_1_victorious_for_a_retreat_or_an_elimination() {
    let mut t = duel((16, 4), (4, 4), |m| m);
    assert!(!t.unit("o-a").victorious);
    beat(&mut t, "o-a", "b-a", "defender");
    assert!(t.unit("o-a").victorious);
    let mut u = duel((5, 4), (1, 4), |m| m);
    u.force(&[3]);
    u.attack("o-a", "b-a").unwrap();
    assert_eq!(u.at("b-a"), None);
    assert!(u.unit("o-a").victorious);
    // It lasts to the end of the combat phase: gone in the next movement phase.
    u.to("orange", Phase::Movement);
    assert!(!u.unit("o-a").victorious);
}

#[test]
fn mp_elim_1_eliminated_at_strength_zero_or_unable_to_retreat() {
    let mut t = fight(
        clear(6, 6)
            .unit("o-a", "infantry", "0303", "cs = 16, ma = 4, mv = 4")
            .inf("b-a", "0301", 4, 4)
            .inf("o-1", "0201", 3, 4)
            .inf("o-2", "0401", 3, 4)
            .inf("o-3", "0302", 3, 4),
    );
    let ev = beat(&mut t, "o-3", "b-a", "defender");
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Eliminated { rule, .. } if rule == "MP-RET-13")
        ),
        "{ev:?}"
    );
    let _ = t;
}

#[test]
fn mp_elim_2_an_elimination_gives_back_a_morale_point() {
    // o-a has lost a point of morale already (MV 3 of 4 after a charge is too long to
    // stage): start it shaken by a bombardment instead.
    let mut t = clear(6, 6)
        .inf("o-a", "0303", 5, 4)
        .unit("b-a", "infantry", "0304", "cs = 1, ma = 4, mv = 4")
        .art("b-g", "0306", 6, 3)
        .first("blue")
        .game();
    // Blue fires: 2 + 6 - 3 = 5: a morale point.
    t.force(&[2]);
    t.fire("b-g", "0303").unwrap();
    assert_eq!(t.mv("o-a"), 3);
    t.to("orange", Phase::Combat);
    t.force(&[3]);
    let ev = t.attack("o-a", "b-a").unwrap();
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Rallied { morale: 1, rule, .. } if rule == "MP-ELIM-2")
        ),
        "{ev:?}"
    );
    assert_eq!(t.mv("o-a"), 4);
    // Never above the initial value.
    let mut u = duel((5, 4), (1, 4), |m| m);
    u.force(&[3]);
    let ev = u.attack("o-a", "b-a").unwrap();
    assert!(!has(&ev, |e| matches!(e, Event::Rallied { .. })));
    assert_eq!(u.mv("o-a"), 4);
}

#[test]
fn mp_dem_1_morale_zero_is_demoralised() {
    let t = clear(6, 6)
        .inf("o-a", "0303", 5, 0)
        .inf("b-a", "0606", 5, 1)
        .game();
    let view = t.rules.view(t.state(), &grognard_engine::Seat::Omniscient);
    assert_eq!(view["units"][0]["demoralised"], true);
    assert_eq!(view["units"][1]["demoralised"], false);
}

#[test]
fn mp_dem_2_a_demoralised_unit_cannot_enter_an_enemy_zoc() {
    let mut t = clear(6, 6)
        .inf("o-a", "0302", 5, 0)
        .inf("b-a", "0304", 5, 4)
        .game();
    assert_eq!(t.refused_step("o-a", "0303"), "MP-DEM-2");
    assert!(t.go("o-a", "0301").is_ok());
}

#[test]
fn mp_dem_3_a_demoralised_unit_cannot_attack() {
    let mut t = duel((5, 0), (5, 4), |m| m.inf("o-b", "0204", 5, 4));
    let a = t.attack_action("o-a", "b-a");
    assert_eq!(t.refused(a), "MP-DEM-3");
}

#[test]
fn mp_dem_6_a_demoralised_unit_cannot_support() {
    let mut t = duel((5, 4), (5, 4), |m| m.inf("b-b", "0403", 5, 0));
    let x = attacked(&strike(&mut t, "o-a", "b-a", 3));
    assert_eq!((x.1, x.7), (5, 0));
}
