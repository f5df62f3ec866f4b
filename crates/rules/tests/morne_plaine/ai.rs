//! The computer's evaluation of a Morne Plaine position (not a rule: `Ruleset::evaluate`).

use crate::common::{builtin, Table};
use grognard_engine::Ruleset;
use grognard_rules::morne_plaine::MornePlaine;

fn table() -> Table<MornePlaine> {
    let s = builtin("bridge-at-morne");
    Table::with_rules(MornePlaine::new(&s).unwrap_or_else(|p| panic!("{p}")), 1)
}

/// The Bridge with every unit off the map: a test places the few it needs.
fn empty_table() -> Table<MornePlaine> {
    let mut t = table();
    for u in &mut t.state.units {
        u.hex = None;
    }
    t
}

fn eval(t: &Table<MornePlaine>, side: &str) -> f64 {
    t.rules.evaluate(&t.state, side)
}

#[test]
fn holding_more_objectives_scores_higher() {
    let mut t = table();
    let before = eval(&t, "blue");
    let theirs = eval(&t, "orange");
    // Blue plays first (index 0): every place goes to blue.
    for h in &mut t.state.held {
        *h = Some(0);
    }
    assert!(eval(&t, "blue") > before);
    assert!(eval(&t, "orange") < theirs);
}

#[test]
fn a_worn_unit_scores_below_the_same_at_full() {
    let mut t = table();
    let u = t
        .state
        .units
        .iter()
        .position(|u| u.hex.is_some() && u.cs > 1)
        .expect("a unit on the map");
    let (a, b) = (eval(&t, "blue"), eval(&t, "orange"));
    t.state.units[u].cs = 1;
    let (c, d) = (eval(&t, "blue"), eval(&t, "orange"));
    assert!((c < a && d > b) || (c > a && d < b), "{a} {b} -> {c} {d}");
}

/// The threats: a unit left in contact with a much stronger enemy (MP-CMB-8, MP-CMB-16)
/// scores below the same unit out of its reach, for its side, and above for the enemy.
#[test]
fn a_unit_in_contact_with_a_stronger_enemy_scores_below_the_same_unit_alone() {
    let mut t = empty_table();
    let (rifles, line) = (t.id("b-rifles"), t.id("o-1-line"));
    // The two alone on the map: no other unit moves within reach of either.
    t.state.units[rifles.index()].hex = Some(t.hex("1502"));
    t.state.units[line.index()].hex = Some(t.hex("0102"));
    let (alone_blue, alone_orange) = (eval(&t, "blue"), eval(&t, "orange"));
    t.state.units[line.index()].hex = Some(t.hex("1503"));
    let (near_blue, near_orange) = (eval(&t, "blue"), eval(&t, "orange"));
    assert!(near_blue < alone_blue, "{alone_blue} -> {near_blue}");
    assert!(
        near_orange > alone_orange,
        "{alone_orange} -> {near_orange}"
    );
    // Demoralised, the enemy cannot attack (MP-DEM-3): no threat.
    t.state.units[line.index()].mv = 0;
    let demoralised = eval(&t, "blue");
    t.state.units[line.index()].hex = Some(t.hex("0102"));
    let apart = eval(&t, "blue");
    assert!(
        (demoralised - apart).abs() < 1e-9,
        "{apart} -> {demoralised}"
    );
}

/// The threats count each attacker once (MP-CMB-2): an enemy in contact with two of the
/// side's units may attack only one of them, so the two together lose what the worse
/// off of them loses alone, not the sum of both.
#[test]
fn mp_cmb_2_an_enemy_in_contact_with_two_units_threatens_one_of_them() {
    let mut t = empty_table();
    let (x, y, a) = (t.id("b-rifles"), t.id("b-1-foot"), t.id("o-1-line"));
    t.state.units[x.index()].hex = Some(t.hex("1502"));
    t.state.units[y.index()].hex = Some(t.hex("1504"));
    // Demoralised, the two attack nothing back (MP-DEM-3): only the enemy's threat counts.
    t.state.units[x.index()].mv = 0;
    t.state.units[y.index()].mv = 0;
    let mut blue_at = |hex: &str| {
        t.state.units[a.index()].hex = Some(t.hex(hex));
        eval(&t, "blue")
    };
    let apart = blue_at("0108");
    let on_x = apart - blue_at("1501");
    let on_y = apart - blue_at("1505");
    let on_both = apart - blue_at("1503");
    assert!(on_x > 0.0 && on_y > 0.0, "x {on_x} y {on_y}");
    assert!(
        (on_both - on_x.max(on_y)).abs() < 1e-9,
        "x {on_x} y {on_y} both {on_both}"
    );
}

/// Orange's index in the state: blue plays first (index 0).
const ORANGE: u8 = 1;

/// An objective (MP-VIC-1) that no unit of its holder stands on is at risk when an enemy
/// stands within a march of it: the holder scores it below the same position with the
/// enemy far off; with a unit of the holder on it, the enemy's march costs nothing.
#[test]
fn mp_vic_1_a_bare_objective_within_an_enemy_march_scores_below_the_same_garrisoned() {
    let mut t = empty_table();
    let (battery, line) = (t.id("b-heavy-battery"), t.id("o-1-line"));
    // Morne (0806), the first place, held by orange and the others by no one; the
    // battery's march is 3.
    for h in &mut t.state.held {
        *h = None;
    }
    t.state.held[0] = Some(ORANGE);
    let morne = t.hex("0806");
    let (near, far) = (t.hex("1006"), t.hex("1612"));
    assert!(morne.distance(near) <= 3 && morne.distance(far) > 6);
    let mut orange = |line_at: &str, battery_at| {
        t.state.units[line.index()].hex = Some(t.hex(line_at));
        t.state.units[battery.index()].hex = Some(battery_at);
        eval(&t, "orange")
    };
    let (bare_far, bare_near) = (orange("0101", far), orange("0101", near));
    assert!(bare_near < bare_far - 1.0, "{bare_far} -> {bare_near}");
    let (held_far, held_near) = (orange("0806", far), orange("0806", near));
    assert!(
        (held_near - held_far).abs() < 1e-9,
        "{held_far} -> {held_near}"
    );
}

/// The sudden-death side (MP-VIC-2, blue at the Bridge) holding every objective weighs
/// as the game it wins: taking the last one is worth far more than the objective's own
/// value, for it and against its enemy.
#[test]
fn mp_vic_2_holding_every_objective_weighs_as_the_game_for_the_sudden_death_side() {
    let mut t = empty_table();
    for h in &mut t.state.held {
        *h = Some(0);
    }
    let (all_blue, all_orange) = (eval(&t, "blue"), eval(&t, "orange"));
    // Morne, worth 2, back with orange: a swing of at most 2 x 2 x 8 as an objective alone.
    t.state.held[0] = Some(ORANGE);
    let (but_one_blue, but_one_orange) = (eval(&t, "blue"), eval(&t, "orange"));
    assert!(
        all_blue - but_one_blue > 32.0 + 10.0,
        "{but_one_blue} -> {all_blue}"
    );
    assert!(
        but_one_orange - all_orange > 32.0 + 10.0,
        "{but_one_orange} -> {all_orange}"
    );
}

/// The evaluation's parts, as the fit of its weights reads them
/// (`Ruleset::evaluation_terms`): named once each, and their weighted sum is the
/// evaluation, for both sides, all through random games of both built-in scenarios.
/// The candidate `lead` (weight 0) is the victory points of MP-VIC-1 as they stand.
#[test]
fn mp_vic_1_the_evaluation_is_the_sum_of_its_named_terms() {
    for id in ["bridge-at-morne", "heights-of-aubrac"] {
        let checked = crate::common::terms::sum_to_the_evaluation::<MornePlaine>(
            &builtin(id),
            ["orange", "blue"],
            1..=3,
            7,
            10,
        );
        assert!(checked > 60, "{id}: {checked}");
    }
}
