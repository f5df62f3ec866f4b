//! What to do on a turn; victory; scenarios.

use super::harness::{self, Pos, INF, SAB};
use grognard_engine::{Game, Ruleset};
use grognard_rules::battle_cry::{Action, BattleCry, Event, Phase};

fn started(seed: u64) -> Game<BattleCry> {
    let mut g = Game::<BattleCry>::new(harness::builtin(), Some(seed)).unwrap();
    g.apply(Action::Deal).unwrap();
    g
}

/// Plays a turn doing nothing: the first card, no orders, no moves, no battles.
fn idle_turn(g: &mut Game<BattleCry>) {
    let play = g
        .legal_actions()
        .into_iter()
        .find(|a| matches!(a, Action::PlayCard { .. } | Action::Discard { .. }))
        .unwrap();
    let discard = matches!(play, Action::Discard { .. });
    g.apply(play).unwrap();
    if discard {
        return;
    }
    for a in [Action::DoneOrdering, Action::DoneMoving, Action::EndTurn] {
        if g.legal_actions().contains(&a) {
            g.apply(a).unwrap();
        }
    }
}

#[test]
fn bc_turn_1_sides_alternate_from_the_first_side() {
    let mut g = started(3);
    let side = |g: &Game<BattleCry>| g.rules().to_act(g.state()).unwrap().side;
    assert_eq!(side(&g), "blue", "the scenario's first_side plays first");
    for turn in 0..6 {
        let expect = if turn % 2 == 0 { "blue" } else { "grey" };
        assert_eq!(side(&g), expect, "turn {turn}");
        idle_turn(&mut g);
    }
    assert_eq!(g.state().turn, 7);
}

#[test]
fn bc_turn_2_steps_come_in_order() {
    let mut p = Pos::new(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0506", 0),
            ("foe", "grey", "infantry", "0505", 0),
        ],
        "",
    );
    p.hand("blue", &["scout_centre"]);
    // 1. Play a card: nothing else yet.
    p.refuses(&p.order("inf"), "BC-TURN-2");
    p.refuses(&p.mv("inf", "0606"), "BC-TURN-2");
    p.refuses(&p.battle("inf", "foe"), "BC-TURN-2");
    p.refuses(&Action::EndTurn, "BC-TURN-2");
    p.refuses(&Action::DoneMoving, "BC-TURN-2");
    let card = grognard_rules::battle_cry::Card::from_id("scout_centre").unwrap();
    p.apply(&Action::PlayCard { card }, &[]);
    // 2. Announce orders: no second card, no moves yet.
    assert_eq!(p.state.phase, Phase::Orders);
    p.refuses(&Action::PlayCard { card }, "BC-TURN-2");
    p.refuses(&p.mv("inf", "0606"), "BC-TURN-2");
    p.apply(&p.order("inf"), &[]);
    p.apply(&Action::DoneOrdering, &[]);
    // 3. Move; 4. battle; 5. end the turn.
    assert_eq!(p.state.phase, Phase::Movement);
    p.refuses(&p.order("inf"), "BC-TURN-2");
    p.refuses(&Action::EndTurn, "BC-TURN-2");
    p.apply(&Action::DoneMoving, &[]);
    assert_eq!(p.state.phase, Phase::Battle);
    p.refuses(&Action::DoneOrdering, "BC-TURN-2");
    p.allows(&Action::EndTurn, "BC-CARD-3");
}

#[test]
fn bc_turn_3_a_side_that_can_order_nothing_discards_and_draws() {
    // Blue stands only on its left (west); its cards order on its right and in the centre.
    let mut p = Pos::new(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0108", 0),
            ("foe", "grey", "infantry", "0102", 0),
        ],
        "# no reserves",
    );
    p.hand("blue", &["scout_right", "probe_centre"]);
    let right = grognard_rules::battle_cry::Card::from_id("scout_right").unwrap();
    let legal = p.legal();
    assert_eq!(legal.len(), 2, "{legal:?}");
    assert!(legal.iter().all(|a| matches!(a, Action::Discard { .. })));
    p.refuses(&Action::PlayCard { card: right }, "BC-TURN-3");
    let events = p.apply(&Action::Discard { card: right }, &[7]);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Discarded { rule, .. } if rule == "BC-TURN-3")));
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Drew { rule, .. } if rule == "BC-TURN-3")));
    assert_eq!(p.state.hands[0].len(), 2, "the hand is refilled");
    assert_eq!(p.state.discard, vec![right]);
    assert_eq!(p.state.active, 1, "and the turn passes");
    // With a card that orders something, discarding is refused.
    let mut q = Pos::new(
        &harness::CLEAR,
        &[("inf", "blue", "infantry", "0108", 0)],
        "",
    );
    q.hand("blue", &["scout_left", "scout_right"]);
    q.refuses(&Action::Discard { card: right }, "BC-TURN-3");
}

#[test]
fn bc_turn_4_the_deal_comes_first() {
    let mut g = Game::<BattleCry>::new(harness::builtin(), Some(11)).unwrap();
    let d = g.rules().to_act(g.state()).unwrap();
    assert_eq!((d.side.as_str(), d.kind.as_str()), ("blue", "deal"));
    assert_eq!(g.legal_actions(), vec![Action::Deal]);
    let e = g.rules().explain(g.state(), &Action::EndTurn);
    assert_eq!(e.reasons[0].rule, "BC-TURN-4");
    let events = g.apply(Action::Deal).unwrap().to_vec();
    let drawers: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Drew { side, .. } => Some(side.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        drawers,
        ["blue"; 5]
            .into_iter()
            .chain(["grey"; 5])
            .collect::<Vec<_>>(),
        "the first side first"
    );
    assert_eq!(g.state().deck.len(), 60 - 10);
    assert_eq!(
        g.rules().explain(g.state(), &Action::Deal).reasons[0].rule,
        "BC-TURN-4"
    );
}

#[test]
fn bc_vic_1_flags_win() {
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
    assert_eq!(p.rules.flags_to_win(), [2, 2]);
    p.set(
        "blue",
        Phase::Battle,
        Some("probe_centre"),
        &["inf", "inf2"],
    );
    let ev = p.apply(&p.battle("inf2", "gen"), &[SAB, SAB, SAB, SAB]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::FlagTaken { side, flags: 1 } if side == "blue")));
    assert!(p.state.outcome.is_none());
    let ev = p.apply(&p.battle("inf", "foe"), &[INF, INF, INF, INF]);
    let out = p.state.outcome.clone().expect("game over");
    assert_eq!(out.winner.as_deref(), Some("blue"));
    assert_eq!(out.rule.as_deref(), Some("BC-VIC-1"));
    assert!(ev.iter().any(|e| matches!(e, Event::GameOver { .. })));
    assert!(p.legal().is_empty());
    assert!(p.rules.to_act(&p.state).is_none());
    assert_eq!(p.explain(&Action::EndTurn).reasons[0].rule, "BC-VIC-1");
}

#[test]
fn bc_vic_2_the_turn_limit() {
    let text = harness::scenario_text(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0108", 0),
            ("foe", "grey", "infantry", "0102", 0),
        ],
        "",
    )
    .replace("first_side = \"blue\"", "first_side = \"blue\"\nturns = 1");
    let mut g = Game::<BattleCry>::new(crate::common::scenario(&text), Some(5)).unwrap();
    g.apply(Action::Deal).unwrap();
    idle_turn(&mut g);
    assert!(
        g.rules().outcome(g.state()).is_none(),
        "grey still has its turn"
    );
    idle_turn(&mut g);
    let out = g
        .rules()
        .outcome(g.state())
        .expect("over after one game turn");
    assert_eq!(out.winner, None, "equal flags: a draw");
    assert_eq!(out.rule.as_deref(), Some("BC-VIC-2"));
}

#[test]
fn bc_scn_1_scenarios_are_checked() {
    let ok = harness::scenario_text(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0108", 0),
            ("foe", "grey", "infantry", "0102", 0),
        ],
        "# no reserves",
    );
    let registry = grognard_rules::registry();
    assert!(registry.load_scenario("ok.toml", &ok).is_ok());
    let bad = |text: String, needle: &str| {
        let problems = registry
            .load_scenario("bad.toml", &text)
            .expect_err("a problem");
        let all = problems.to_string();
        assert!(all.contains(needle), "expected `{needle}` in:\n{all}");
    };
    bad(
        ok.replace("orientation = \"pointy\"", "orientation = \"flat\""),
        "BC-SCN-1",
    );
    bad(
        ok.replace("home_edge = \"north\"", "home_edge = \"south\""),
        "different home edges",
    );
    bad(
        ok.replace("home_edge = \"north\"", "home_edge = \"east\""),
        "home_edge",
    );
    bad(ok.replace("values = { hand = 4 }", ""), "`hand`");
    bad(
        ok.replace("flags = { blue = 1, grey = 1 }", "flags = 3"),
        "only 1 units and generals",
    );
    bad(
        ok.clone() + "\n[battle_cry]\ndividers = [9, 5]\n",
        "BC-SEC-1",
    );
    bad(
        ok.replace("flags = { blue = 1, grey = 1 }", "points = 3"),
        "unknown victory key",
    );
    bad(
        ok.replace(
            "type = \"infantry\"\nat = \"0108\"",
            "type = \"infantry\"\nat = \"0108\"\nvalues = { figures = 6 }",
        ),
        "infantry has at most 4 figures",
    );
    bad(
        harness::scenario_text(
            &harness::CLEAR,
            &[
                ("inf", "blue", "infantry", "0108", 0),
                ("foe", "grey", "infantry", "0102", 0),
                ("gen", "blue", "general", "0102", 0),
            ],
            "# no reserves",
        ),
        "general `gen` starts in the hex of `foe`, a unit of the other side",
    );
}

/// The view envelope every ruleset shares (docs/ENGINE-PROTOCOL.md): `turn`, `turns`,
/// `phase`, `active`, and `units` each with `id`, `side` and `hex`; `pieces` stays.
#[test]
fn the_view_has_the_shared_envelope() {
    let g = started(3);
    let v = g
        .rules()
        .view(g.state(), &grognard_engine::Seat::Side("blue".into()));
    for key in ["turn", "turns", "phase", "active", "units", "pieces"] {
        assert!(v.get(key).is_some(), "the view lacks `{key}`");
    }
    let units = v["units"].as_array().unwrap();
    assert_eq!(units.len(), g.state().pieces.len());
    assert_eq!(units[0]["id"], v["pieces"][0]["id"]);
    assert_eq!(units[0]["side"], v["pieces"][0]["side"]);
    assert_eq!(units[0]["hex"], v["pieces"][0]["hex"]);
}
