//! Announce orders (step 2 of the turn): which generals and units the card orders.

use super::cards::{self, Command};
use super::units::Order;
use super::{Action, BattleCry, Event, Phase, State};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};

/// BC-ORD-1: whether a piece is ordered now. A unit ordered through its general by
/// Leadership stays ordered only while that general stays with it (BC-CARD-7).
pub(crate) fn is_ordered(state: &State, u: UnitId) -> bool {
    let p = &state.pieces[u.index()];
    match p.order {
        Order::None => false,
        Order::Card => true,
        Order::General(g) => p.hex.is_some() && state.pieces[g.index()].hex == p.hex,
    }
}

/// The pieces the card has ordered so far.
fn ordered<'a>(rules: &'a BattleCry, state: &'a State) -> impl Iterator<Item = UnitId> + 'a {
    rules
        .piece_ids()
        .filter(|&u| state.pieces[u.index()].order == Order::Card)
}

/// BC-ORD-1, BC-ORD-2, BC-SEC-3, BC-CARD-2: checks ordering a piece with the card played.
pub(crate) fn check_order(
    rules: &BattleCry,
    state: &State,
    u: UnitId,
) -> Result<Vec<Reason>, Refusal> {
    if state.phase != Phase::Orders {
        return Err(Refusal::new(
            "BC-TURN-2",
            format!(
                "orders are announced after playing a card, not in the {} step",
                state.phase.name()
            ),
        ));
    }
    let side = state.active;
    let who = rules.who(u);
    if rules.side_of(u) != side {
        return Err(Refusal::new(
            "BC-ORD-1",
            format!("{who} is not yours to order"),
        ));
    }
    let p = &state.pieces[u.index()];
    let Some(hex) = p.hex else {
        return Err(Refusal::new(
            "BC-ORD-1",
            format!("{who} has been eliminated"),
        ));
    };
    if p.order != Order::None {
        return Err(Refusal::new(
            "BC-ORD-2",
            format!("{who} is already ordered: no more than one order to each general or unit"),
        ));
    }
    let card = state.played.expect("a card is played in the orders step");
    let cmd = cards::command(rules, state, side, card);
    let count = ordered(rules, state).count();
    let title = &card.row().title;
    match cmd {
        Command::Sections(caps) => {
            let masks: Vec<u8> = ordered(rules, state)
                .chain([u])
                .map(|x| {
                    rules.sections_of(
                        side,
                        state.pieces[x.index()]
                            .hex
                            .expect("ordered pieces are on the map"),
                    )
                })
                .collect();
            if !super::sections::fits(&masks, caps) {
                let here = rules.sections_of(side, hex);
                let msg = if (0..3).all(|b| here & (1 << b) == 0 || caps[b] == 0) {
                    format!(
                        "{who} in {} is not in a section {title} orders ({})",
                        rules.label(hex),
                        cards::describe(rules, state, side, card)
                    )
                } else {
                    format!(
                        "{title} has no order left for {who}'s section ({})",
                        cards::describe(rules, state, side, card)
                    )
                };
                return Err(Refusal::new("BC-SEC-3", msg));
            }
            Ok(vec![Reason::new(
                "BC-SEC-3",
                format!(
                    "{title} orders {who} in {} ({})",
                    rules.label(hex),
                    section_names(rules.sections_of(side, hex))
                ),
            )])
        }
        Command::Troops { kinds, n } => {
            if kinds & cards::kind_bit(rules.kind(u)) == 0 {
                return Err(Refusal::new(
                    "BC-CARD-2",
                    format!("{title} orders only {}", card.row().types.join(" or ")),
                ));
            }
            if count >= usize::from(n) {
                return Err(Refusal::new(
                    "BC-CARD-2",
                    format!("{title} gives only {n} orders"),
                ));
            }
            Ok(vec![Reason::new(
                "BC-CARD-2",
                format!("{title} orders {who}"),
            )])
        }
        Command::Any(n) => {
            let rule = if card.row().kind == super::data::CardKind::FightBack {
                "BC-CARD-9"
            } else {
                "BC-CARD-7"
            };
            if count >= usize::from(n) {
                return Err(Refusal::new(
                    rule,
                    format!("{title} gives only {n} order here"),
                ));
            }
            Ok(vec![Reason::new(
                rule,
                format!("{title} orders {who} in any section"),
            )])
        }
        Command::Leadership => Err(Refusal::new(
            "BC-CARD-7",
            "Leadership has ordered every general and its unit already",
        )),
    }
}

fn section_names(mask: u8) -> String {
    let names = ["left", "centre", "right"];
    let v: Vec<&str> = (0..3)
        .filter(|b| mask & (1 << b) != 0)
        .map(|b| names[b])
        .collect();
    v.join(" and ")
}

/// Every piece the card can still order.
pub(crate) fn legal_orders(rules: &BattleCry, state: &State, out: &mut Vec<Action>) {
    let side = state.active;
    let card = state.played.expect("a card is played in the orders step");
    let cmd = cards::command(rules, state, side, card);
    let count = ordered(rules, state).count();
    if count >= cards::order_limit(cmd) {
        return;
    }
    let masks: Vec<u8> = match cmd {
        Command::Sections(_) => ordered(rules, state)
            .map(|x| rules.sections_of(side, state.pieces[x.index()].hex.expect("on the map")))
            .collect(),
        _ => Vec::new(),
    };
    let mut trial = masks.clone();
    for u in rules.piece_ids() {
        let p = &state.pieces[u.index()];
        if rules.side_of(u) != side || p.order != Order::None {
            continue;
        }
        let Some(hex) = p.hex else { continue };
        let ok = match cmd {
            Command::Sections(caps) => {
                trial.truncate(masks.len());
                trial.push(rules.sections_of(side, hex));
                super::sections::fits(&trial, caps)
            }
            Command::Troops { kinds, .. } => kinds & cards::kind_bit(rules.kind(u)) != 0,
            Command::Any(_) => true,
            Command::Leadership => false,
        };
        if ok {
            out.push(Action::Order { unit: u });
        }
    }
}

/// Orders a piece.
pub(crate) fn apply_order(
    rules: &BattleCry,
    state: &mut State,
    u: UnitId,
    ctx: &mut Ctx<'_, Event>,
) {
    let card = state.played.expect("a card is played");
    let rule = match cards::command(rules, state, state.active, card) {
        Command::Sections(_) => "BC-SEC-3",
        Command::Troops { .. } => "BC-CARD-2",
        Command::Any(_) if card.row().kind == super::data::CardKind::FightBack => "BC-CARD-9",
        Command::Any(_) | Command::Leadership => "BC-CARD-7",
    };
    state.pieces[u.index()].order = Order::Card;
    ctx.emit(Event::Ordered {
        unit: u,
        rule: rule.into(),
    });
}

/// Checks ending the orders step.
pub(crate) fn check_done(state: &State) -> Result<Vec<Reason>, Refusal> {
    if state.phase != Phase::Orders {
        return Err(Refusal::new(
            "BC-TURN-2",
            format!(
                "there are no orders to finish in the {} step",
                state.phase.name()
            ),
        ));
    }
    Ok(vec![Reason::new("BC-TURN-2", "orders announced: move")])
}

/// Ends the orders step.
pub(crate) fn done(state: &mut State) {
    state.phase = Phase::Movement;
}
