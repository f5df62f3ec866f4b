//! Line of sight and terrain in battle.

use super::harness::{self, Pos};
use grognard_hex::{line, LineStep};
use grognard_rules::battle_cry::Phase;

/// Blue's `kind` at `from` may battle grey's infantry at `to`, with `cells` terrain and
/// `others` on the board: `Ok(dice)` or the first rule refusing.
fn shot(
    kind: &str,
    from: &str,
    to: &str,
    cells: &[(&str, char)],
    others: &[(&str, &str, &str, &str, u8)],
) -> Result<u64, String> {
    let mut units = vec![
        ("u", "blue", kind, from, 0),
        ("foe", "grey", "infantry", to, 0),
    ];
    units.extend_from_slice(others);
    let mut p = Pos::new(&harness::terrain(cells), &units, "");
    p.set("blue", Phase::Battle, Some("assault_centre"), &["u"]);
    let e = p.explain(&p.battle("u", "foe"));
    assert_eq!(e.legal, p.legal().contains(&p.battle("u", "foe")));
    if e.legal {
        Ok(p.dice("u", "foe"))
    } else {
        Err(e.reasons[0].rule.clone())
    }
}

#[test]
fn bc_los_1_pieces_between_block_sight() {
    assert_eq!(shot("infantry", "0205", "0505", &[], &[]), Ok(2));
    for (side, kind) in [
        ("blue", "infantry"),
        ("grey", "infantry"),
        ("blue", "general"),
        ("grey", "general"),
    ] {
        assert_eq!(
            shot(
                "infantry",
                "0205",
                "0505",
                &[],
                &[("between", side, kind, "0405", 0)]
            ),
            Err("BC-LOS-1".into()),
            "a {side} {kind} between"
        );
    }
}

#[test]
fn bc_los_2_terrain_between_blocks_not_the_targets() {
    assert_eq!(
        shot("infantry", "0205", "0505", &[("0405", 'w')], &[]),
        Err("BC-LOS-2".into())
    );
    assert_eq!(
        shot("infantry", "0205", "0505", &[("0505", 'w')], &[]),
        Ok(1),
        "the target's woods protect, not block"
    );
    assert_eq!(
        shot("infantry", "0205", "0505", &[("0205", 'w')], &[]),
        Ok(2),
        "nor the battling unit's own"
    );
}

/// The text's example, with A at 0407 (axial offsets from A): woods at (0,-1), (1,-3),
/// (-1,0) and (3,-1); B at (2,-4), C at (-1,-1), D at (0,-2), E at (4,-1) and E moved one
/// hex forward at (3,0).
#[test]
fn bc_los_3_the_a_b_c_d_e_example() {
    let p = Pos::new(&harness::CLEAR, &[], "");
    let a = "0407";
    let at = |dq, dr| p.offset(a, dq, dr);
    let woods_at = [at(0, -1), at(1, -3), at(-1, 0), at(3, -1)];
    let woods: Vec<(&str, char)> = woods_at.iter().map(|l| (l.as_str(), 'w')).collect();
    let (b, c, d, e, e_forward) = (at(2, -4), at(-1, -1), at(0, -2), at(4, -1), at(3, 0));
    let is_woods = |h| woods_at.iter().any(|w| p.hex(w) == h);
    // B: the line runs along the hexsides of 2 woods hexes, woods on one side only.
    let steps = line(p.hex(a), p.hex(&b));
    let edges: Vec<(bool, bool)> = steps
        .iter()
        .filter_map(|s| match *s {
            LineStep::Edge(x, y) => Some((is_woods(x), is_woods(y))),
            LineStep::Hex(_) => None,
        })
        .collect();
    assert_eq!(edges.len(), 2);
    assert!(edges.iter().all(|&(x, y)| x != y), "{edges:?}");
    assert_eq!(
        shot("artillery", a, &b, &woods, &[]),
        Ok(2),
        "A may fire at B"
    );
    // C: woods on both sides of the line.
    assert!(line(p.hex(a), p.hex(&c))
        .iter()
        .any(|s| matches!(*s, LineStep::Edge(x, y) if is_woods(x) && is_woods(y))));
    assert_eq!(
        shot("artillery", a, &c, &woods, &[]),
        Err("BC-LOS-3".into()),
        "A may not fire at C"
    );
    // D: through the woods hex.
    assert_eq!(
        shot("artillery", a, &d, &woods, &[]),
        Err("BC-LOS-2".into()),
        "A may not fire at D"
    );
    // E: through part of a woods hex; one hex forward the line is clear.
    assert!(line(p.hex(a), p.hex(&e))
        .iter()
        .any(|s| matches!(*s, LineStep::Hex(h) if is_woods(h))));
    assert_eq!(
        shot("artillery", a, &e, &woods, &[]),
        Err("BC-LOS-2".into()),
        "A may not fire at E"
    );
    assert_eq!(
        shot("artillery", a, &e_forward, &woods, &[]),
        Ok(3),
        "E one hex forward is seen"
    );
}

#[test]
fn bc_ter_3_terrain_protects_the_target() {
    for code in ['w', 'o', 'h', 'f', 't', 'm'] {
        assert_eq!(
            shot("infantry", "0507", "0505", &[("0505", code)], &[]),
            Ok(2),
            "target in {code}"
        );
    }
    assert_eq!(shot("infantry", "0507", "0505", &[], &[]), Ok(3));
    // Behind a fence: the line of fire crosses it into the target's hex.
    let fence = "[[hexsides]]\nfeature = \"fence\"\nsides = [\"0506/0507\"]\n";
    let fenced = |from: &str| {
        let mut p = Pos::new(
            &harness::CLEAR,
            &[
                ("u", "blue", "infantry", from, 0),
                ("foe", "grey", "infantry", "0506", 0),
            ],
            fence,
        );
        p.set("blue", Phase::Battle, Some("assault_centre"), &["u"]);
        p.dice("u", "foe")
    };
    assert_eq!(fenced("0507"), 3, "adjacent, across the fence");
    assert_eq!(fenced("0607"), 4, "adjacent, not across it");
    assert_eq!(
        fenced("0508"),
        2,
        "two hexes, the line running up to the fence's end: 3 - 1"
    );
}

#[test]
fn bc_ter_4_protections_do_not_add_up() {
    let fence = "[[hexsides]]\nfeature = \"fence\"\nsides = [\"0506/0507\"]\n";
    let mut p = Pos::new(
        &harness::terrain(&[("0506", 'w')]),
        &[
            ("u", "blue", "infantry", "0507", 0),
            ("foe", "grey", "infantry", "0506", 0),
        ],
        fence,
    );
    p.set("blue", Phase::Battle, Some("assault_centre"), &["u"]);
    assert_eq!(p.dice("u", "foe"), 3, "woods and fence: -1, not -2");
    p.allows(&p.battle("u", "foe"), "BC-TER-4");
    // The combination is the data's: with `combine = "sum"` they add up.
    assert_eq!(
        grognard_rules::battle_cry::data::Data::shipped()
            .protection
            .combine,
        grognard_rules::battle_cry::data::Combine::Largest
    );
    let sum = &[("\ncombine = \"largest\"", "\ncombine = \"sum\"")];
    let mut q = Pos::with_tables(
        &harness::terrain(&[("0506", 'w')]),
        &[
            ("u", "blue", "infantry", "0507", 0),
            ("foe", "grey", "infantry", "0506", 0),
        ],
        fence,
        sum,
    );
    q.set("blue", Phase::Battle, Some("assault_centre"), &["u"]);
    assert_eq!(q.dice("u", "foe"), 2, "woods and fence added: -2");
    let e = q.explain(&q.battle("u", "foe"));
    let ter3 = e.reasons.iter().filter(|r| r.rule == "BC-TER-3").count();
    assert_eq!(ter3, 2, "{:?}", e.reasons);
    assert!(e
        .reasons
        .iter()
        .any(|r| r.rule == "BC-TER-4" && r.message.contains("add up")));
}

#[test]
fn bc_ter_5_which_terrain_blocks_sight() {
    for code in ['w', 'h', 't', 'm', 'o'] {
        assert!(
            shot("infantry", "0205", "0505", &[("0405", code)], &[]).is_err(),
            "{code} blocks"
        );
    }
    for code in ['f', 'r', 'd', 'b', '.'] {
        assert_eq!(
            shot("infantry", "0205", "0505", &[("0405", code)], &[]),
            Ok(2),
            "{code} does not block"
        );
    }
    let mut p = Pos::new(
        &harness::CLEAR,
        &[
            ("u", "blue", "infantry", "0205", 0),
            ("foe", "grey", "infantry", "0505", 0),
        ],
        "[[hexsides]]\nfeature = \"fence\"\nsides = [\"0305/0405\"]\n",
    );
    p.set("blue", Phase::Battle, Some("assault_centre"), &["u"]);
    assert_eq!(p.dice("u", "foe"), 2, "a fence between does not block");
}
