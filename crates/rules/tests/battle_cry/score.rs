//! The score the view carries (issue 19): the flags each side has and needs (BC-VIC-1),
//! no objectives, and the turns left (BC-VIC-2).

use super::harness::{self, Pos, INF, SAB};
use grognard_engine::{Ruleset, Seat};
use grognard_rules::battle_cry::Phase;
use serde_json::json;

#[test]
fn battle_cry_view_counts_each_flag_won_against_the_flags_needed() {
    // Grey has two pieces: blue needs 2 flags; a general eliminated counts as one.
    let mut p = Pos::new(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0506", 0),
            ("inf2", "blue", "infantry", "0606", 0),
            ("foe", "grey", "infantry", "0505", 1),
            ("gen", "grey", "general", "0605", 0),
        ],
        "# no reserves",
    );
    let view = |p: &Pos, seat: &str| p.rules.view(&p.state, &Seat::Side(seat.into()));
    let v = view(&p, "blue");
    assert_eq!(v["objectives"], json!([]));
    assert_eq!(
        v["score"],
        json!({"blue": {"have": 0, "need": 2}, "grey": {"have": 0, "need": 2}})
    );
    assert_eq!(v["turns_left"], json!(null), "no turn limit");
    p.set(
        "blue",
        Phase::Battle,
        Some("probe_centre"),
        &["inf", "inf2"],
    );
    p.apply(&p.battle("inf2", "gen"), &[SAB, SAB, SAB, SAB]);
    // Grey's seat sees blue's flag as blue's does.
    for seat in ["blue", "grey"] {
        let v = view(&p, seat);
        assert_eq!(v["score"]["blue"], json!({"have": 1, "need": 2}), "{seat}");
        assert_eq!(v["score"]["grey"], json!({"have": 0, "need": 2}), "{seat}");
    }
    p.apply(&p.battle("inf", "foe"), &[INF, INF, INF, INF]);
    assert!(p.state.outcome.is_some());
    let v = view(&p, "grey");
    assert_eq!(v["score"]["blue"]["have"], 2);
    assert_eq!(v["flags"]["blue"]["have"], 2, "the old key stays");
}

#[test]
fn battle_cry_turns_left_counts_game_turns() {
    let text = harness::scenario_text(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0108", 0),
            ("foe", "grey", "infantry", "0102", 0),
        ],
        "",
    )
    .replace("first_side = \"blue\"", "first_side = \"blue\"\nturns = 3");
    let p = Pos::at_command(&crate::common::scenario(&text));
    let v = p.rules.view(&p.state, &Seat::Spectator);
    assert_eq!(v["turns_left"], 3);
}
