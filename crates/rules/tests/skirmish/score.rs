//! The score the view carries (issue 19): the enemies each side has put out of the fight
//! against all it must put out (SK-TURN-3), no objectives, and the turns left.

use super::harness::open;
use grognard_engine::{Ruleset, Seat};
use serde_json::json;

#[test]
fn skirmish_view_counts_enemies_out_of_the_fight_against_the_whole_band() {
    let mut t = open(8, 8)
        .sword("r-a", "0405", "n")
        .sword("b-a", "0404", "s")
        .sword("b-b", "0101", "s")
        .turns(4)
        .game();
    let view = |t: &super::harness::T| t.rules.view(&t.state, &Seat::Side("blue".into()));
    let v = view(&t);
    assert_eq!(v["objectives"], json!([]));
    assert_eq!(
        v["score"],
        json!({
            "red": {"have": 0, "need": 2, "left": 1},
            "blue": {"have": 0, "need": 1, "left": 2},
        })
    );
    assert_eq!(v["turns_left"], 4);
    t.end();
    t.set("b-a", |c| {
        c.damage = 5;
        c.ripostes = 1;
    });
    t.force(&[4]);
    t.attack("r-a", "b-a").unwrap();
    assert!(t.state().outcome.is_none(), "b-b is still in the fight");
    let v = view(&t);
    assert_eq!(v["score"]["red"], json!({"have": 1, "need": 2, "left": 1}));
    assert_eq!(v["score"]["blue"], json!({"have": 0, "need": 1, "left": 1}));
    assert_eq!(v["points"]["red"], 1, "the old key stays");
}
