//! Command cards, the deck and the hands; Leadership and Fight Back.

use super::harness::{self, Pos, CAV, FLAG, INF};
use grognard_engine::{Game, Ruleset, Seat};
use grognard_rules::battle_cry::{Action, BattleCry, Card, Event, Order, Pending, Phase};

fn card(id: &str) -> Card {
    Card::from_id(id).unwrap()
}

#[test]
fn bc_card_1_play_a_card_from_the_hand() {
    let mut p = Pos::new(
        &harness::CLEAR,
        &[("inf", "blue", "infantry", "0506", 0)],
        "",
    );
    p.hand("blue", &["probe_centre", "probe_centre", "scout_left"]);
    p.refuses(
        &Action::PlayCard {
            card: card("assault_centre"),
        },
        "BC-CARD-1",
    );
    p.allows(
        &Action::PlayCard {
            card: card("probe_centre"),
        },
        "BC-CARD-1",
    );
    // Two copies of a card are one choice.
    assert_eq!(p.legal().len(), 2);
    let ev = p.apply(
        &Action::PlayCard {
            card: card("probe_centre"),
        },
        &[],
    );
    assert!(
        matches!(&ev[0], Event::CardPlayed { side, rule, .. } if side == "blue" && rule == "BC-CARD-1")
    );
    assert_eq!(p.state.played, Some(card("probe_centre")));
    assert_eq!(
        p.state.hands[0],
        vec![card("scout_left"), card("probe_centre")]
    );
}

#[test]
fn bc_card_2_troop_cards_order_by_type_with_their_bonus() {
    let mut p = Pos::new(
        &harness::CLEAR,
        &[
            ("cav-w", "blue", "cavalry", "0107", 0),
            ("cav-e", "blue", "cavalry", "1007", 0),
            ("inf", "blue", "infantry", "0507", 0),
            ("inf2", "blue", "infantry", "0407", 0),
            ("foe", "grey", "infantry", "0106", 0),
        ],
        "",
    );
    p.hand("blue", &["cavalry_charge", "forced_march"]);
    p.apply(
        &Action::PlayCard {
            card: card("cavalry_charge"),
        },
        &[],
    );
    // Cavalry in any section, never infantry.
    p.allows(&p.order("cav-w"), "BC-CARD-2");
    p.allows(&p.order("cav-e"), "BC-CARD-2");
    p.refuses(&p.order("inf"), "BC-CARD-2");
    p.apply(&p.order("cav-w"), &[]);
    p.apply(&Action::DoneOrdering, &[]);
    p.apply(&Action::DoneMoving, &[]);
    // The ordered cavalry battles with 1 extra die: 3 + 1.
    let e = p.explain(&p.battle("cav-w", "foe"));
    assert!(e.reasons.iter().any(|r| r.rule == "BC-CARD-2"), "{e:?}");
    assert_eq!(p.dice("cav-w", "foe"), 4);
    // Forced March: infantry moves 2 and still battles.
    let mut q = Pos::new(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0507", 0),
            ("foe", "grey", "infantry", "0504", 0),
        ],
        "",
    );
    q.hand("blue", &["forced_march"]);
    q.apply(
        &Action::PlayCard {
            card: card("forced_march"),
        },
        &[],
    );
    q.apply(&q.order("inf"), &[]);
    q.apply(&Action::DoneOrdering, &[]);
    assert!(
        q.reach("inf").contains(&"0505".to_owned()),
        "two hexes: {:?}",
        q.reach("inf")
    );
    q.allows(&q.mv("inf", "0505"), "BC-CARD-2");
    q.apply(&q.mv("inf", "0505"), &[]);
    q.apply(&Action::DoneMoving, &[]);
    assert!(q.is_legal(&q.battle("inf", "foe")));
}

#[test]
fn bc_card_3_discard_and_draw_at_the_end_of_the_turn() {
    let mut p = Pos::new(
        &harness::CLEAR,
        &[("inf", "blue", "infantry", "0506", 0)],
        "",
    );
    p.hand(
        "blue",
        &["probe_centre", "scout_left", "scout_left", "attack_right"],
    );
    p.apply(
        &Action::PlayCard {
            card: card("probe_centre"),
        },
        &[],
    );
    assert_eq!(p.state.hands[0].len(), 3);
    p.apply(&Action::DoneOrdering, &[]);
    p.apply(&Action::DoneMoving, &[]);
    let ev = p.apply(&Action::EndTurn, &[1]);
    assert!(ev.iter().any(|e| matches!(e, Event::Discarded { card: c, rule, .. } if *c == card("probe_centre") && rule == "BC-CARD-3")));
    assert!(ev.iter().any(
        |e| matches!(e, Event::Drew { side, rule, .. } if side == "blue" && rule == "BC-CARD-3")
    ));
    assert_eq!(p.state.hands[0].len(), 4);
    assert_eq!(p.state.discard, vec![card("probe_centre")]);
    assert_eq!(p.state.played, None);
    assert_eq!(p.state.active, 1);
}

#[test]
fn bc_card_4_hands_are_the_scenarios_size() {
    // The built-in scenario with grey's hand made smaller than blue's.
    let b = grognard_rules::builtin::find("crossing-at-hollins-ford").unwrap();
    let grey = b.text.find("id = \"grey\"").unwrap();
    let text = format!(
        "{}{}",
        &b.text[..grey],
        b.text[grey..].replacen("values = { hand = 5 }", "values = { hand = 4 }", 1)
    );
    let mut g = Game::<BattleCry>::new(crate::common::scenario(&text), Some(2)).unwrap();
    g.apply(Action::Deal).unwrap();
    assert_eq!(g.state().hands[0].len(), 5, "blue: values = {{ hand = 5 }}");
    assert_eq!(g.state().hands[1].len(), 4, "grey: values = {{ hand = 4 }}");
    // Every turn ends with the hand at its size again.
    for _ in 0..20 {
        let a = g.legal_actions().into_iter().next().unwrap();
        g.apply(a).unwrap();
        let s = g.state();
        if s.phase == Phase::Command && s.pending.is_none() {
            assert_eq!(
                s.hands[usize::from(s.active)].len(),
                if s.active == 0 { 5 } else { 4 }
            );
        }
    }
}

#[test]
fn bc_card_5_the_deck_reshuffles_when_empty() {
    let p = Pos::new(&harness::CLEAR, &[], "");
    assert_eq!(p.rules.whole_deck().len(), 60, "60 command cards");
    let count = |id: &str| {
        p.rules
            .whole_deck()
            .iter()
            .filter(|&&c| c == card(id))
            .count()
    };
    assert_eq!(count("leadership"), 4);
    assert_eq!(count("fight_back"), 4);
    assert_eq!(count("probe_centre"), 5);
    let mut p = Pos::new(
        &harness::CLEAR,
        &[("inf", "blue", "infantry", "0506", 0)],
        "",
    );
    p.hand("blue", &["probe_centre"]);
    let rest: Vec<Card> = std::mem::take(&mut p.state.deck);
    p.state.discard = rest[..3].to_vec();
    p.apply(
        &Action::PlayCard {
            card: card("probe_centre"),
        },
        &[],
    );
    p.apply(&Action::DoneOrdering, &[]);
    p.apply(&Action::DoneMoving, &[]);
    // The discard pile (3 cards and the one just played) becomes the deck; one is drawn.
    let ev = p.apply(&Action::EndTurn, &[2]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Reshuffled { cards: 4 })),
        "{ev:?}"
    );
    assert_eq!(p.state.deck.len(), 3);
    assert!(p.state.discard.is_empty());
    let rolls: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Roll(r) => Some(r.purpose.as_str()),
            _ => None,
        })
        .collect();
    assert!(
        rolls.iter().all(|r| r.starts_with("BC-CARD-5")),
        "{rolls:?}"
    );
}

#[test]
fn bc_card_6_hands_are_hidden_from_the_other_side() {
    let mut g = Game::<BattleCry>::new(harness::builtin(), Some(9)).unwrap();
    g.apply(Action::Deal).unwrap();
    let rules = g.rules();
    let state = g.state();
    let blue = rules.view(state, &Seat::Side("blue".into()));
    let grey = rules.view(state, &Seat::Side("grey".into()));
    let spectator = rules.view(state, &Seat::Spectator);
    let all = rules.view(state, &Seat::Omniscient);
    assert_eq!(blue["hands"]["blue"]["cards"].as_array().unwrap().len(), 5);
    assert_eq!(blue["hands"]["grey"], serde_json::json!({ "count": 5 }));
    assert_eq!(grey["hands"]["blue"], serde_json::json!({ "count": 5 }));
    assert_eq!(grey["hands"]["grey"]["cards"].as_array().unwrap().len(), 5);
    assert_eq!(
        spectator["hands"]["blue"],
        serde_json::json!({ "count": 5 })
    );
    assert_eq!(
        spectator["hands"]["grey"],
        serde_json::json!({ "count": 5 })
    );
    assert!(blue.get("deck_cards").is_none() && spectator.get("deck_cards").is_none());
    assert_eq!(all["deck_cards"].as_array().unwrap().len(), 50);
    assert!(all["hands"]["grey"]["cards"].is_array());
    // Drawn cards are hidden from the other side; the rolls that drew them from both.
    let events = &g.log()[0].events;
    for e in events {
        let for_grey = rules.redact(e, &Seat::Side("grey".into()));
        let for_blue = rules.redact(e, &Seat::Side("blue".into()));
        match e {
            Event::Roll(_) => {
                assert!(for_grey.is_none() && for_blue.is_none());
                assert!(rules.redact(e, &Seat::Omniscient).is_some());
            }
            Event::Drew { side, card, .. } => {
                assert!(card.is_some());
                let (mine, theirs) = if side == "blue" {
                    (for_blue, for_grey)
                } else {
                    (for_grey, for_blue)
                };
                assert!(matches!(mine, Some(Event::Drew { card: Some(_), .. })));
                assert!(matches!(theirs, Some(Event::Drew { card: None, .. })));
                assert!(matches!(
                    rules.redact(e, &Seat::Spectator),
                    Some(Event::Drew { card: None, .. })
                ));
            }
            _ => {}
        }
    }
}

#[test]
fn bc_card_7_leadership_orders_the_generals_and_their_units() {
    let mut p = Pos::new(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0507", 0),
            ("gen", "blue", "general", "0507", 0),
            ("art", "blue", "artillery", "0807", 0),
            ("gen2", "blue", "general", "0807", 0),
            ("lone", "blue", "general", "0208", 0),
            ("other", "blue", "infantry", "0307", 0),
            ("foe", "grey", "infantry", "0506", 0),
        ],
        "",
    );
    p.hand("blue", &["leadership"]);
    let ev = p.apply(
        &Action::PlayCard {
            card: card("leadership"),
        },
        &[],
    );
    assert_eq!(
        p.state.phase,
        Phase::Movement,
        "no orders to announce: Leadership gives them"
    );
    let ordered: Vec<String> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Ordered { unit, rule } if rule == "BC-CARD-7" => {
                Some(p.rules.names().unit_name(*unit).unwrap().to_owned())
            }
            _ => None,
        })
        .collect();
    assert_eq!(ordered, ["gen", "inf", "gen2", "art", "lone"]);
    assert_eq!(
        p.state.pieces[p.id("inf").index()].order,
        Order::General(p.id("gen"))
    );
    p.refuses(&p.mv("other", "0306"), "BC-ORD-1");
    // Infantry with its general: 4 + 1 dice adjacent; artillery with a general: no extra.
    p.apply(&Action::DoneMoving, &[]);
    assert_eq!(p.dice("inf", "foe"), 5);
    let e = p.explain(&p.battle("inf", "foe"));
    assert!(e.reasons.iter().any(|r| r.rule == "BC-CARD-7"));
    assert_eq!(
        p.dice("art", "foe"),
        3,
        "3 hexes: 3 dice, no extra for artillery"
    );
    // The unit's order lasts while its general stays with it.
    let mut q = Pos::new(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0507", 0),
            ("gen", "blue", "general", "0507", 0),
            ("foe", "grey", "infantry", "0506", 0),
        ],
        "",
    );
    q.hand("blue", &["leadership"]);
    q.apply(
        &Action::PlayCard {
            card: card("leadership"),
        },
        &[],
    );
    q.apply(&q.mv("gen", "0608"), &[]);
    q.refuses(&q.mv("inf", "0407"), "BC-ORD-1");
    q.apply(&Action::DoneMoving, &[]);
    q.refuses(&q.battle("inf", "foe"), "BC-ORD-1");
    // With no general, Leadership orders one unit anywhere.
    let mut r = Pos::new(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0107", 0),
            ("inf2", "blue", "infantry", "1007", 0),
        ],
        "",
    );
    r.hand("blue", &["leadership"]);
    r.apply(
        &Action::PlayCard {
            card: card("leadership"),
        },
        &[],
    );
    assert_eq!(r.state.phase, Phase::Orders);
    r.allows(&r.order("inf2"), "BC-CARD-7");
    r.apply(&r.order("inf"), &[]);
    r.refuses(&r.order("inf2"), "BC-CARD-7");
    // Its effects are the data's: two dice more, for cavalry only, or two orders without
    // a general, if the tables say so.
    let leadership = "types = [\"infantry\", \"cavalry\"]\ndice = 1\norders = 1";
    let data = &[(leadership, "types = [\"cavalry\"]\ndice = 2\norders = 2")];
    let units = [
        ("inf", "blue", "infantry", "0507", 0),
        ("gen", "blue", "general", "0507", 0),
        ("cav", "blue", "cavalry", "0407", 0),
        ("gen2", "blue", "general", "0407", 0),
        ("foe", "grey", "infantry", "0506", 0),
        ("foe2", "grey", "infantry", "0406", 0),
    ];
    let mut t = Pos::with_tables(&harness::CLEAR, &units, "", data);
    t.hand("blue", &["leadership"]);
    t.apply(
        &Action::PlayCard {
            card: card("leadership"),
        },
        &[],
    );
    t.apply(&Action::DoneMoving, &[]);
    assert_eq!(t.dice("inf", "foe"), 4, "infantry is not among its types");
    assert_eq!(t.dice("cav", "foe2"), 5, "cavalry: 3 + 2");
    let mut u = Pos::with_tables(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0107", 0),
            ("inf2", "blue", "infantry", "1007", 0),
        ],
        "",
        data,
    );
    u.hand("blue", &["leadership"]);
    u.apply(
        &Action::PlayCard {
            card: card("leadership"),
        },
        &[],
    );
    u.apply(&u.order("inf"), &[]);
    u.allows(&u.order("inf2"), "BC-CARD-7");
}

/// Blue's infantry at 0507 attacks grey's at 0506 (adjacent); grey holds `grey_hand`.
fn attacked(grey_hand: &[&str]) -> Pos {
    let mut p = Pos::new(
        &harness::CLEAR,
        &[
            ("att", "blue", "infantry", "0507", 0),
            ("gen", "blue", "general", "0507", 0),
            ("def", "grey", "infantry", "0506", 0),
        ],
        "",
    );
    p.hand("grey", grey_hand);
    p.hand("blue", &["scout_left", "scout_left", "scout_left"]);
    p.set("blue", Phase::Battle, Some("probe_centre"), &["att"]);
    p
}

#[test]
fn bc_card_8_fight_back_battles_the_attacker() {
    let mut p = attacked(&["fight_back", "scout_centre"]);
    // One hit, no flag: the defender survives where it stands.
    p.apply(&p.battle("att", "def"), &[INF, CAV, CAV, CAV]);
    assert_eq!(
        p.state.pending,
        Some(Pending::FightBack {
            unit: p.id("def"),
            target: p.id("att")
        })
    );
    let d = p.rules.to_act(&p.state).unwrap();
    assert_eq!(
        (d.side.as_str(), d.kind.as_str(), d.reaction),
        ("grey", "fight_back", true)
    );
    p.refuses(&Action::EndTurn, "BC-CARD-8");
    p.allows(&Action::FightBack, "BC-CARD-8");
    // The defender battles back with its own dice (3 figures left: still 4 dice), no card bonus.
    let ev = p.apply(&Action::FightBack, &[INF, INF, CAV, CAV]);
    assert!(ev.iter().any(|e| matches!(e, Event::CardPlayed { side, rule, .. } if side == "grey" && rule == "BC-CARD-8")));
    assert!(ev.iter().any(
        |e| matches!(e, Event::Battled { unit, dice: 4, hits: 2, .. } if *unit == p.id("def"))
    ));
    assert_eq!(p.figures("att"), 2);
    assert_eq!(p.state.fight_back, Some(card("fight_back")));
    assert!(p.state.pending.is_none());
    // At the end of the turn grey draws its replacement first.
    let ev = p.apply(&Action::EndTurn, &[1, 1]);
    let drawers: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Drew { side, .. } => Some(side.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(drawers, ["grey", "blue"]);
    assert_eq!(p.state.hands[1].len(), 2);
    // No window when the defender is forced to retreat, and the window opens whatever
    // the defender holds: without the card, declining is all it can do.
    let mut q = attacked(&["scout_centre"]);
    q.apply(&q.battle("att", "def"), &[FLAG, CAV, CAV, CAV]);
    assert!(matches!(q.state.pending, Some(Pending::Retreat { .. })));
    let mut r = attacked(&["scout_centre"]);
    r.apply(&r.battle("att", "def"), &[CAV, CAV, CAV, CAV]);
    assert!(matches!(r.state.pending, Some(Pending::FightBack { .. })));
    assert_eq!(r.legal(), vec![Action::Decline]);
    r.refuses(&Action::FightBack, "BC-CARD-8");
    r.apply(&Action::Decline, &[]);
    assert!(r.state.pending.is_none());
    // Once a turn.
    let mut s = attacked(&["fight_back", "fight_back"]);
    s.set("blue", Phase::Battle, Some("probe_centre"), &["att"]);
    s.state.fight_back = Some(card("fight_back"));
    s.apply(&s.battle("att", "def"), &[CAV, CAV, CAV, CAV]);
    assert!(s.state.pending.is_none());
    // The dice of a unit fighting back are the data's: one more if the tables say so.
    let fight_back = "kind = \"fight_back\"\ndice = 0";
    let data = &[(fight_back, "kind = \"fight_back\"\ndice = 1")];
    let mut t = Pos::with_tables(
        &harness::CLEAR,
        &[
            ("att", "blue", "infantry", "0507", 0),
            ("def", "grey", "infantry", "0506", 0),
        ],
        "",
        data,
    );
    t.hand("grey", &["fight_back"]);
    t.set("blue", Phase::Battle, Some("probe_centre"), &["att"]);
    t.apply(&t.battle("att", "def"), &[CAV, CAV, CAV, CAV]);
    t.allows(&Action::FightBack, "BC-CARD-8");
    let e = t.explain(&Action::FightBack);
    assert!(
        e.reasons
            .iter()
            .any(|r| r.rule == "BC-CARD-8" && r.message.contains("1 additional")),
        "{:?}",
        e.reasons
    );
    let ev = t.apply(&Action::FightBack, &[CAV, CAV, CAV, CAV, CAV]);
    assert!(ev
        .iter()
        .any(|e| matches!(e, Event::Battled { unit, dice: 5, .. } if *unit == t.id("def"))));
}

#[test]
fn bc_card_9_fight_back_on_your_own_turn_orders_one_piece() {
    let mut p = Pos::new(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0107", 0),
            ("inf2", "blue", "infantry", "1007", 0),
        ],
        "",
    );
    p.hand("blue", &["fight_back"]);
    p.apply(
        &Action::PlayCard {
            card: card("fight_back"),
        },
        &[],
    );
    assert_eq!(p.state.phase, Phase::Orders);
    p.allows(&p.order("inf2"), "BC-CARD-9");
    p.apply(&p.order("inf"), &[]);
    p.refuses(&p.order("inf2"), "BC-CARD-9");
    // How many it orders is the data's.
    let fight_back = "dice = 0\norders = 1";
    let data = &[(fight_back, "dice = 0\norders = 2")];
    let mut q = Pos::with_tables(
        &harness::CLEAR,
        &[
            ("inf", "blue", "infantry", "0107", 0),
            ("inf2", "blue", "infantry", "1007", 0),
        ],
        "",
        data,
    );
    q.hand("blue", &["fight_back"]);
    q.apply(
        &Action::PlayCard {
            card: card("fight_back"),
        },
        &[],
    );
    q.apply(&q.order("inf"), &[]);
    q.allows(&q.order("inf2"), "BC-CARD-9");
}
