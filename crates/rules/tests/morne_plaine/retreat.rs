//! Retreat after combat (docs/rules/morne-plaine.md, MP-RET-*, MP-ELIM-*: retreating,
//! retreating into a zone of control, elimination after a retreat).
//!
//! The defender stands at 0404 (even column): its neighbours are n 0403, s 0405,
//! ne 0504, se 0505, sw 0305, nw 0304. The attacker strikes from the north (0403)
//! unless said otherwise, and the first die that calls for a morale check is forced,
//! with a 9 for the check itself.

use super::combat::beat;
use super::harness::{clear, has, map, Mp, T};
use grognard_rules::morne_plaine::{Event, Phase};

/// A 7 x 7 map of `terrain` (clear if empty), a strong orange attacker at `from` and the
/// blue defender at 0404.
fn setup(terrain: &str, from: &str, more: impl FnOnce(Mp) -> Mp) -> T {
    let terrain = if terrain.is_empty() {
        [". . . . . . ."; 7].join("\n")
    } else {
        terrain.to_owned()
    };
    let m = map(&terrain)
        .unit("o-a", "infantry", from, "cs = 16, ma = 4, mv = 4")
        .inf("b-d", "0404", 4, 4);
    let mut t = more(m).game();
    t.to("orange", Phase::Combat);
    t
}

/// Where the defender went.
fn retreat(mut t: T) -> (Option<String>, Vec<Event>) {
    let ev = beat(&mut t, "o-a", "b-d", "defender");
    let to = ev.iter().find_map(|e| match e {
        Event::Retreated { to, .. } => Some(t.label(*to)),
        _ => None,
    });
    (to, ev)
}

/// On a clear 7 x 7 map, a strong attacker of `side` (playing first) at `from` beats the
/// enemy unit at `at`, a friend of which holds `blocked`; returns where the beaten unit
/// retreated.
fn beaten(side: &str, from: &str, at: &str, blocked: &str) -> Option<String> {
    let (a, d, x) = if side == "orange" {
        ("o-a", "b-d", "b-x")
    } else {
        ("b-a", "o-d", "o-x")
    };
    let mut t = clear(7, 7)
        .unit(a, "infantry", from, "cs = 16, ma = 4, mv = 4")
        .inf(d, at, 4, 4)
        .inf(x, blocked, 3, 4)
        .first(side)
        .game();
    t.to(side, Phase::Combat);
    let ev = beat(&mut t, a, d, "defender");
    assert!(has(&ev, |e| matches!(e, Event::Retreated { .. })));
    t.at(d)
}

/// o-a at 0404 attacks b-d to the north (0403) and fails its own check, with o-y holding
/// the hex opposite (0405) and streams on `streams`; returns where o-a retreated.
fn attacker_beaten(streams: &[&str]) -> Option<String> {
    let mut t = clear(7, 7)
        .unit("o-a", "infantry", "0404", "cs = 4, ma = 4, mv = 4")
        .unit("b-d", "infantry", "0403", "cs = 16, ma = 4, mv = 4")
        .inf("o-y", "0405", 3, 4)
        .hexsides("stream", streams)
        .game();
    t.to("orange", Phase::Combat);
    let ev = beat(&mut t, "o-a", "b-d", "attacker");
    assert!(has(&ev, |e| matches!(e, Event::Retreated { .. })), "{ev:?}");
    t.at("o-a")
}

/// A clear 7 x 7 map but for its row `row` (0 the northern), which reads `codes`.
fn clear_but(row: usize, codes: &str) -> String {
    let mut rows = [". . . . . . ."; 7];
    rows[row] = codes;
    rows.join("\n")
}

#[test]
fn mp_ret_1_into_a_village_first() {
    // A village next to the attacker still comes first.
    let terrain = clear_but(3, ". . v . w . ."); // 0304 village, 0504 woods
    let (to, _) = retreat(setup(&terrain, "0403", |m| m));
    assert_eq!(to.as_deref(), Some("0304"));
}

#[test]
fn mp_ret_2_then_woods() {
    let terrain = clear_but(3, ". . . . w . ."); // 0504 woods
    let (to, _) = retreat(setup(&terrain, "0403", |m| m));
    assert_eq!(to.as_deref(), Some("0504"));
}

#[test]
fn mp_ret_3_avoiding_hexes_next_to_the_attacker() {
    // Attacked from 0403: 0304 and 0504 touch it; the others do not. With 0405 taken,
    // the unit goes to 0305 or 0505, never 0304 or 0504.
    let (to, _) = retreat(setup("", "0403", |m| m.inf("b-x", "0405", 3, 4)));
    let to = to.unwrap();
    assert!(["0305", "0505"].contains(&to.as_str()), "{to}");
}

#[test]
fn mp_ret_4_directly_opposite_the_enemy() {
    let (to, _) = retreat(setup("", "0403", |m| m));
    assert_eq!(to.as_deref(), Some("0405"));
    let (to, _) = retreat(setup("", "0505", |m| m));
    assert_eq!(to.as_deref(), Some("0304"), "attacked from the south-east");
}

#[test]
fn mp_ret_5_avoiding_a_stream() {
    // The opposite hex (0405) is taken; 0305 and 0505 are equal but for the stream.
    let (to, _) = retreat(setup("", "0403", |m| {
        m.hexsides("stream", &["0404/0505"])
            .inf("b-x", "0405", 3, 4)
    }));
    assert_eq!(to.as_deref(), Some("0305"), "not across the stream to 0505");
}

#[test]
fn mp_ret_6_avoiding_hexes_next_to_the_unit_that_causes_the_retreat() {
    // Other enemies do not count: attacked from the north-east (0504), the opposite hex
    // (0305) taken, 0403 and 0505 next to the attacker, blue has 0405 and 0304 left.
    // 0405 touches another orange unit (0406), and blue takes it all the same, toward its
    // home edge (MP-RET-7).
    let (to, _) = retreat(setup("", "0504", |m| {
        m.inf("b-x", "0305", 3, 4).inf("o-x", "0406", 3, 4)
    }));
    assert_eq!(to.as_deref(), Some("0405"), "not turned away by o-x");
    // The attacker that fails its own check retreats from the defender, the unit that
    // causes its retreat. o-a (0404) attacks b-d to the north (0403); the hex opposite
    // (0405) is taken. Every hex around o-a touches o-a ("the attacking unit",
    // MP-RET-3 decides nothing); 0505 and 0305 are across streams (MP-RET-5), so of
    // 0504 and 0304, which both touch b-d, the last tie takes 0504.
    let to = attacker_beaten(&["0404/0505", "0404/0305"]);
    assert_eq!(to.as_deref(), Some("0504"));
    // Without the streams, MP-RET-6 keeps it off the hexes next to b-d: 0505.
    assert_eq!(attacker_beaten(&[]).as_deref(), Some("0505"));
}

#[test]
fn mp_ret_7_toward_the_home_edge() {
    // Attacked from the north-east (0504), the opposite hex (0305) taken, 0403 and 0505
    // next to the attacker: 0405 (south) and 0304 (north-west) are left. 0405 is a row
    // nearer the south edge: blue goes there.
    let (to, _) = retreat(setup("", "0504", |m| m.inf("b-x", "0305", 3, 4)));
    assert_eq!(to.as_deref(), Some("0405"), "blue toward the south edge");
    // Orange at 0303 attacked from the south-west (0203), the opposite hex (0402)
    // taken, 0304 and 0202 next to the attacker: 0302 (a row nearer the north edge) and
    // 0403 (the same row) are left: orange goes north.
    assert_eq!(
        beaten("blue", "0203", "0303", "0402").as_deref(),
        Some("0302"),
        "orange toward the north edge"
    );
}

#[test]
fn mp_ret_8_the_southern_hex_for_orange_the_northern_for_blue() {
    // Orange at 0404 attacked from the north-east (0504), between it and its home edge;
    // the opposite hex (0305) taken, 0403 and 0505 next to the attacker. Neither 0405
    // nor 0304 is nearer the north edge (0304 is in the same row): they tie on criteria
    // 1 to 7, and orange takes the southern hex, 0405, away from the attacker.
    assert_eq!(
        beaten("blue", "0504", "0404", "0305").as_deref(),
        Some("0405"),
        "the southern hex for orange"
    );
    // Blue at 0303 attacked from the south-east (0403); the opposite hex (0202) taken,
    // 0402 and 0304 next to the attacker. Neither 0302 nor 0203 is nearer the south
    // edge: blue takes the northern hex, 0302.
    assert_eq!(
        beaten("orange", "0403", "0303", "0202").as_deref(),
        Some("0302"),
        "the northern hex for blue"
    );
}

#[test]
fn mp_ret_8_a_last_tie_goes_by_the_data_order() {
    // Attacked from the north with 0405, 0305, 0505 all taken, the candidates 0304 and
    // 0504 tie on every criterion of the text; `data.toml` [retreat] puts ne first.
    let data = grognard_rules::morne_plaine::data::Data::shipped();
    assert_eq!(
        data.retreat.source,
        grognard_rules::morne_plaine::data::Source::Provisional
    );
    assert_eq!(
        data.retreat.last_tie.first().map(String::as_str),
        Some("ne")
    );
    let (to, _) = retreat(setup("", "0403", |m| {
        m.inf("b-x", "0405", 3, 4)
            .inf("b-y", "0305", 3, 4)
            .inf("b-z", "0505", 3, 4)
    }));
    assert_eq!(to.as_deref(), Some("0504"));
}

#[test]
fn mp_ret_9_chosen_whatever_the_zocs_never_by_the_player() {
    // The opposite hex is in the zone of an orange cavalry unit far from the attacker:
    // the unit goes there all the same, and nobody is asked.
    let (to, ev) = retreat(setup("", "0403", |m| m.cav("o-x", "0406", 3, 4)));
    assert_eq!(to.as_deref(), Some("0405"));
    assert!(has(
        &ev,
        |e| matches!(e, Event::Retreated { rule, .. } if rule == "MP-RET-9")
    ));
}

#[test]
fn mp_ret_10_a_morale_point_per_controlling_enemy_but_the_attacker() {
    let (to, ev) = retreat(setup("", "0403", |m| m.cav("o-x", "0406", 3, 4)));
    assert_eq!(to.as_deref(), Some("0405"));
    assert!(has(&ev, |e| matches!(e, Event::Retreated { zones: 1, .. })));
    assert!(
        has(
            &ev,
            |e| matches!(e, Event::Shaken { morale: 1, rule, .. } if rule == "MP-RET-10")
        ),
        "{ev:?}"
    );
}

#[test]
fn mp_ret_11_not_into_an_enemy_fort() {
    let terrain = clear_but(4, ". . . f . . ."); // 0405
    let t = setup(&terrain, "0403", |m| {
        m.raw("[[places]]\nname = \"Redoubt\"\nhex = \"0405\"\nowner = \"orange\"\n")
    });
    let (to, _) = retreat(t);
    assert_ne!(to.as_deref(), Some("0405"));
    // A blue fort is fine.
    let t = setup(&terrain, "0403", |m| {
        m.raw("[[places]]\nname = \"Redoubt\"\nhex = \"0405\"\nowner = \"blue\"\n")
    });
    let (to, _) = retreat(t);
    assert_eq!(to.as_deref(), Some("0405"));
}

#[test]
fn mp_ret_12_not_through_a_double_slope() {
    let (to, _) = retreat(setup("", "0403", |m| {
        m.hexsides("double_slope", &["0404/0405"])
    }));
    assert_ne!(to.as_deref(), Some("0405"));
}

#[test]
fn mp_ret_13_a_unit_that_cannot_retreat_is_eliminated() {
    let t = setup("", "0403", |m| {
        m.inf("b-1", "0405", 3, 4)
            .inf("b-2", "0305", 3, 4)
            .inf("b-3", "0505", 3, 4)
            .inf("b-4", "0304", 3, 4)
            .inf("b-5", "0504", 3, 4)
    });
    let (to, ev) = retreat(t);
    assert_eq!(to, None);
    assert!(has(
        &ev,
        |e| matches!(e, Event::Eliminated { rule, .. } if rule == "MP-RET-13")
    ));
}
