//! Elephant panic: "un éléphant en panique pour chacune" (JO-MOV-21) and what a panicking
//! elephant does (JO-PAN-1 to JO-PAN-3, provisional), with forced dice.

use super::harness::{Pos, ART, FLAG, INF, U};
use grognard_hex::Direction;
use grognard_rules::jomini::data::Data;
use grognard_rules::jomini::{Action, Event};

/// Enough points to win that no test here ends the game by accident.
const FAR: &str = "[victory]\npoints = { blue = 9, red = 9 }\n";
const ELE4: &str = "weight = \"light\", mounts = \"elephants\", strength = 4";
const ELE2: &str = "weight = \"light\", mounts = \"elephants\", strength = 2";
const ELE1: &str = "weight = \"light\", mounts = \"elephants\", strength = 1";

/// Blue's light cavalry `b-lc` in `at` with its officer, activated, in the combat phase,
/// beside `units`.
fn fighting(at: &str, units: &[U<'_>], extra: &str) -> Pos {
    let mut all = vec![
        ("b-gen", "blue", "officer", at, "weight = \"light\""),
        ("b-lc", "blue", "cavalry", at, "weight = \"light\""),
    ];
    all.extend_from_slice(units);
    let mut p = Pos::new(&[], &all, extra);
    p.activate(&["b-gen", "b-lc"]);
    p.ok(&Action::EndCommand);
    p.ok(&Action::EndMovement);
    p
}

/// The die face that sends an elephant bolting from `from` into the neighbour `to`
/// (`data.toml`: 1 to 6 in the engine's direction order).
fn toward(p: &Pos, from: &str, to: &str) -> u32 {
    let (a, b) = (p.hex(from), p.hex(to));
    let i = Direction::ALL
        .iter()
        .position(|&d| a.neighbor(d) == b)
        .unwrap_or_else(|| panic!("{to} is not next to {from}"));
    u32::try_from(i).unwrap() + 1
}

/// The panics of the last action: (whose elephant, hex entered, piece trampled).
fn panics(p: &Pos) -> Vec<(String, Option<String>, Option<String>)> {
    p.events
        .iter()
        .filter_map(|e| match e {
            Event::Panicked {
                unit,
                toward,
                trampled,
                rule,
            } => {
                assert_eq!(rule, "JO-PAN-1");
                Some((
                    p.rules.pieces()[unit.index()].id.clone(),
                    toward.map(|h| p.label(h)),
                    trampled.map(|t| p.rules.pieces()[t.index()].id.clone()),
                ))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn jo_mov_21_each_stand_lost_sets_an_elephant_panicking() {
    // Scenarios with elephant mounts load and play.
    let mut p = fighting(
        "0606",
        &[
            ("r-ele", "red", "infantry", "0605", ELE4),
            ("r-inf", "red", "infantry", "0705", "weight = \"light\""),
        ],
        FAR,
    );
    p.allows(&p.attack("b-lc", "r-ele"), "JO-MOV-21");
    // Two hits: two stands, two elephants. The first bolts back into the cavalry that
    // charged, the second into the red infantry beside it: friend or foe alike.
    let at_cav = toward(&p, "0605", "0606");
    let at_friend = toward(&p, "0605", "0705");
    p.apply(
        &p.attack("b-lc", "r-ele"),
        &[INF, INF, ART, ART, at_cav, at_friend],
    );
    assert_eq!(p.strength("r-ele"), 2, "the two stands hit");
    assert_eq!(
        panics(&p),
        [
            ("r-ele".into(), Some("0606".into()), Some("b-lc".into())),
            ("r-ele".into(), Some("0705".into()), Some("r-inf".into())),
        ]
    );
    assert_eq!(p.strength("b-lc"), 2, "trampled by the first elephant");
    assert_eq!(p.strength("r-inf"), 3, "trampled by the second");
    // Infantry without elephants panics nothing: no die is rolled for it.
    let mut q = fighting(
        "0606",
        &[("r-inf", "red", "infantry", "0605", "weight = \"light\"")],
        FAR,
    );
    q.apply(&q.attack("b-lc", "r-inf"), &[INF, INF, ART, ART]);
    assert!(panics(&q).is_empty());
    assert_eq!(q.strength("b-lc"), 3);
}

#[test]
fn jo_pan_1_a_panicking_elephant_tramples_where_the_die_sends_it() {
    let mut p = fighting("0606", &[("r-ele", "red", "infantry", "0605", ELE4)], FAR);
    // Into an empty hex: it is gone without harm.
    let empty = toward(&p, "0605", "0504");
    p.apply(&p.attack("b-lc", "r-ele"), &[INF, ART, ART, ART, empty]);
    assert_eq!(panics(&p), [("r-ele".into(), Some("0504".into()), None)]);
    assert_eq!(p.strength("b-lc"), 3);
    assert_eq!(p.strength("r-ele"), 3);
    // The numbers of elephants and of stands trampled are the data's.
    assert_eq!(Data::shipped().panic.trample, 1);
    assert_eq!(Data::shipped().panic.per_stand, 1);
    let data = &[("per_stand = 1\ntrample = 1", "per_stand = 2\ntrample = 2")];
    let mut r = Pos::with_tables(
        &[],
        &[
            ("b-gen", "blue", "officer", "0606", "weight = \"light\""),
            ("b-lc", "blue", "cavalry", "0606", "weight = \"light\""),
            ("r-ele", "red", "infantry", "0605", ELE4),
        ],
        FAR,
        data,
    );
    r.activate(&["b-gen", "b-lc"]);
    r.ok(&Action::EndCommand);
    r.ok(&Action::EndMovement);
    let at_cav = toward(&r, "0605", "0606");
    r.apply(
        &r.attack("b-lc", "r-ele"),
        &[INF, ART, ART, ART, at_cav, empty],
    );
    assert_eq!(panics(&r).len(), 2, "two elephants for the one stand");
    assert_eq!(r.strength("b-lc"), 1, "two stands trampled");
    // A retreat hex that cannot be made is a stand lost, and an elephant panicking too:
    // red retreats north from row 01, off the table.
    let mut q = fighting("0602", &[("r-edge", "red", "infantry", "0601", ELE4)], FAR);
    let off = toward(&q, "0601", "0701");
    q.apply(&q.attack("b-lc", "r-edge"), &[FLAG, ART, ART, ART, off]);
    assert_eq!(
        q.strength("r-edge"),
        3,
        "JO-MOV-25: the hex not made is a loss"
    );
    assert_eq!(panics(&q), [("r-edge".into(), Some("0701".into()), None)]);
}

#[test]
fn jo_pan_2_elephant_troops_do_not_panic() {
    assert!(!Data::shipped().panic.elephant_units);
    let mut p = fighting(
        "0606",
        &[("r-ele", "red", "elephants", "0605", "weight = \"medium\"")],
        FAR,
    );
    // Elephants are mounted: the cavalry symbol hits them.
    p.apply(
        &p.attack("b-lc", "r-ele"),
        &[super::harness::CAV, ART, ART, ART],
    );
    assert_eq!(p.strength("r-ele"), 1);
    assert!(panics(&p).is_empty(), "{:?}", p.events);
    // Unless the tables say they do.
    let data = &[("elephant_units = false", "elephant_units = true")];
    let mut q = Pos::with_tables(
        &[],
        &[
            ("b-gen", "blue", "officer", "0606", "weight = \"light\""),
            ("b-lc", "blue", "cavalry", "0606", "weight = \"light\""),
            ("r-ele", "red", "elephants", "0605", "weight = \"medium\""),
        ],
        FAR,
        data,
    );
    q.activate(&["b-gen", "b-lc"]);
    q.ok(&Action::EndCommand);
    q.ok(&Action::EndMovement);
    let empty = toward(&q, "0605", "0504");
    q.apply(
        &q.attack("b-lc", "r-ele"),
        &[super::harness::CAV, ART, ART, ART, empty],
    );
    assert_eq!(panics(&q), [("r-ele".into(), Some("0504".into()), None)]);
}

#[test]
fn jo_pan_3_panics_chain_and_stop_when_the_game_is_won() {
    // r-a (2 stands) is hit once and flagged; its elephant bolts into r-b (1 stand), which
    // is trampled out, and r-b's elephant bolts back into r-a, which is trampled out too:
    // its last elephant bolts off harmlessly, and no retreat is left to make.
    let pair = [
        ("r-a", "red", "infantry", "0605", ELE2),
        ("r-b", "red", "infantry", "0705", ELE1),
    ];
    let mut p = fighting("0606", &pair, FAR);
    let a_to_b = toward(&p, "0605", "0705");
    let b_to_a = toward(&p, "0705", "0605");
    let away = toward(&p, "0605", "0504");
    p.apply(
        &p.attack("b-lc", "r-a"),
        &[INF, FLAG, ART, ART, a_to_b, b_to_a, away],
    );
    assert_eq!(
        panics(&p),
        [
            ("r-a".into(), Some("0705".into()), Some("r-b".into())),
            ("r-b".into(), Some("0605".into()), Some("r-a".into())),
            ("r-a".into(), Some("0504".into()), None),
        ]
    );
    assert_eq!((p.strength("r-a"), p.strength("r-b")), (0, 0));
    assert!(
        p.state.pending.is_none(),
        "an eliminated unit owes no retreat"
    );
    assert_eq!(p.state.eliminated, [2, 0]);
    // The same with red needing only two losses to lose: once the second is out the game is
    // over, and r-a's last elephant is not rolled.
    let mut q = fighting("0606", &pair, "[victory]\npoints = { blue = 2, red = 9 }\n");
    q.apply(
        &q.attack("b-lc", "r-a"),
        &[INF, FLAG, ART, ART, a_to_b, b_to_a],
    );
    assert!(q.state.outcome.is_some());
    assert_eq!(panics(&q).len(), 2);
}
