//! Order tokens and manoeuvre orders (JO-ORD-1 to JO-ORD-12): tokens from the
//! commander's level and from order letters rolled; one manoeuvre order a turn, given in
//! the command phase.

use super::command::{activate_alone, available};
use super::{Action, Event, Jomini, OrderKind, Phase, State};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};

/// Most difficult hexes woods-runner buys at once.
pub const WOODS_MAX: u8 = 2;

/// The order's cost in tokens (`hexes` for woods-runner).
#[must_use]
pub fn cost(rules: &Jomini, order: OrderKind, hexes: u8) -> u32 {
    let c = &rules.data.orders;
    match order {
        OrderKind::Mount => c.mount,
        OrderKind::Reconnaissance => c.reconnaissance,
        OrderKind::ForcedMarch => c.forced_march,
        OrderKind::WoodsRunner => c.woods_runner * u32::from(hexes),
        OrderKind::Courier => c.courier,
        OrderKind::CombinedAttack => c.combined_attack,
        OrderKind::Manoeuvre => c.manoeuvre,
        OrderKind::ForwardMarch => c.forward_march,
        OrderKind::GeneralAssault => c.general_assault,
    }
}

/// An own unit (not an officer) activated this turn that has not moved yet.
fn activated_unit(rules: &Jomini, state: &State, u: UnitId) -> Result<(), String> {
    let p = &state.pieces[u.index()];
    if rules.piece(u).officer {
        return Err(format!("{} is an officer, not a unit", rules.who(u)));
    }
    if p.group.is_none() {
        return Err(format!("{} is not activated", rules.who(u)));
    }
    if p.moved {
        return Err(format!("{} has moved", rules.who(u)));
    }
    Ok(())
}

/// The officer's activation opened in this command phase.
fn officer_group(rules: &Jomini, state: &State, u: UnitId) -> Result<usize, String> {
    if !rules.piece(u).officer {
        return Err(format!("{} is not an officer", rules.who(u)));
    }
    match state.pieces[u.index()].group {
        Some(g) if g >= state.first_group => Ok(usize::from(g)),
        _ => Err(format!(
            "{} has opened no activation this phase",
            rules.who(u)
        )),
    }
}

/// Checks a manoeuvre order.
pub(crate) fn check_order(
    rules: &Jomini,
    state: &State,
    order: OrderKind,
    unit: Option<UnitId>,
    hexes: Option<u8>,
) -> Result<Vec<Reason>, Refusal> {
    if state.outcome.is_some() {
        return Err(Refusal::new("JO-TURN-1", "the game is over"));
    }
    if state.pending.is_some() || state.phase != Phase::Command {
        return Err(Refusal::new(
            "JO-ORD-3",
            format!(
                "manoeuvre orders are given in the command phase, not the {} phase",
                state.phase.name()
            ),
        ));
    }
    if state.ordered {
        return Err(Refusal::new(
            "JO-ORD-3",
            "one manoeuvre order a turn, and one was given",
        ));
    }
    let rule = order.rule();
    let wants_hexes = order == OrderKind::WoodsRunner;
    if wants_hexes != hexes.is_some() {
        return Err(Refusal::new(
            rule,
            if wants_hexes {
                format!("woods-runner buys 1 to {WOODS_MAX} hexes: say how many")
            } else {
                format!("{} takes no hexes", order.name())
            },
        ));
    }
    let n = hexes.unwrap_or(0);
    if wants_hexes && !(1..=WOODS_MAX).contains(&n) {
        return Err(Refusal::new(
            rule,
            format!("woods-runner buys 1 to {WOODS_MAX} hexes"),
        ));
    }
    let price = cost(rules, order, n);
    let tokens = state.tokens[usize::from(state.active)];
    if tokens < price {
        return Err(Refusal::new(
            "JO-ORD-1",
            format!("{} costs {price} order tokens; {tokens} left", order.name()),
        ));
    }
    let needs_unit = order != OrderKind::GeneralAssault;
    let u = match (needs_unit, unit) {
        (true, Some(u)) if u.index() < rules.pieces.len() && rules.side_of(u) == state.active => u,
        (true, _) => {
            return Err(Refusal::new(
                rule,
                format!("{} is given to one of your units or officers", order.name()),
            ))
        }
        (false, Some(_)) => {
            return Err(Refusal::new(rule, "a general assault names no unit"));
        }
        (false, None) => UnitId(0),
    };
    let target = match order {
        OrderKind::Mount => activated_unit(rules, state, u).and_then(|()| {
            if rules
                .piece(u)
                .mounts
                .as_deref()
                .is_some_and(|m| m != "elephants")
            {
                Ok(())
            } else {
                Err(format!("{} has no mounts", rules.who(u)))
            }
        }),
        OrderKind::ForcedMarch => activated_unit(rules, state, u).and_then(|()| {
            let p = &state.pieces[u.index()];
            if p.forced {
                Err(format!("{} is already on a forced march", rules.who(u)))
            } else if rules.piece(u).allowance.never_more {
                Err(format!(
                    "{}: never more than 1 hex (JO-MOV-11)",
                    rules.who(u)
                ))
            } else {
                Ok(())
            }
        }),
        OrderKind::WoodsRunner => activated_unit(rules, state, u),
        OrderKind::Reconnaissance | OrderKind::Courier => {
            let p = &state.pieces[u.index()];
            let piece = rules.piece(u);
            if piece.officer {
                Err(format!("{} is an officer, not a unit", rules.who(u)))
            } else if p.group.is_some() {
                Err(format!("{} is already activated", rules.who(u)))
            } else if !available(rules, state, u) || p.waiting {
                Err(format!("{} is not on the table", rules.who(u)))
            } else if order == OrderKind::Reconnaissance
                && (piece.artillery() || !["light", "very_light"].contains(&piece.weight.as_str()))
            {
                Err(format!("{}: only light troops scout", rules.who(u)))
            } else {
                Ok(())
            }
        }
        OrderKind::CombinedAttack | OrderKind::Manoeuvre | OrderKind::ForwardMarch => {
            officer_group(rules, state, u).map(|_| ())
        }
        OrderKind::GeneralAssault => {
            if state.assault > 0 {
                Err("a general assault was already made this turn".to_owned())
            } else {
                Ok(())
            }
        }
    };
    target.map_err(|m| Refusal::new(rule, m))?;
    let effect = match order {
        OrderKind::Mount => {
            if state.pieces[u.index()].mounted {
                "dismounts"
            } else {
                "mounts: one hex more, without combat"
            }
        }
        OrderKind::Reconnaissance => "scouts: activated alone, it moves but does not fight",
        OrderKind::ForcedMarch => "forced march: one hex more, and it may still fight",
        OrderKind::WoodsRunner => "woods-runner: difficult terrain counts as clear",
        OrderKind::Courier => "a courier activates it, of any kind, anywhere",
        OrderKind::CombinedAttack => "combined attack: its activated units may be of mixed kinds",
        OrderKind::Manoeuvre => "manoeuvre: its activated units may be anywhere",
        OrderKind::ForwardMarch => "forward march: forced march for all its activated units",
        OrderKind::GeneralAssault => "general assault: a second command phase after combat",
    };
    Ok(vec![
        Reason::new(rule, effect),
        Reason::new("JO-ORD-1", format!("{price} of {tokens} order tokens")),
        Reason::new("JO-ORD-3", "the turn's one manoeuvre order"),
    ])
}

/// Gives a manoeuvre order.
pub(crate) fn apply_order(
    rules: &Jomini,
    state: &mut State,
    order: OrderKind,
    unit: Option<UnitId>,
    hexes: Option<u8>,
    ctx: &mut Ctx<'_, Event>,
) {
    let price = cost(rules, order, hexes.unwrap_or(0));
    let side = usize::from(state.active);
    state.tokens[side] -= price;
    state.ordered = true;
    if let Some(u) = unit {
        match order {
            // JO-ORD-4: mount or dismount.
            OrderKind::Mount => {
                let p = &mut state.pieces[u.index()];
                p.mounted = !p.mounted;
            }
            OrderKind::Reconnaissance => {
                activate_alone(state, u);
                state.pieces[u.index()].scout = true;
            }
            OrderKind::ForcedMarch => state.pieces[u.index()].forced = true,
            OrderKind::WoodsRunner => state.pieces[u.index()].woods += hexes.unwrap_or(0),
            // JO-ORD-8: one more activation, any kind, anywhere.
            OrderKind::Courier => {
                activate_alone(state, u);
            }
            OrderKind::CombinedAttack | OrderKind::Manoeuvre | OrderKind::ForwardMarch => {
                if let Some(g) = state.pieces[u.index()].group {
                    let group = &mut state.groups[usize::from(g)];
                    match order {
                        OrderKind::CombinedAttack => group.combined = true,
                        OrderKind::Manoeuvre => group.anywhere = true,
                        _ => group.forward = true,
                    }
                }
            }
            OrderKind::GeneralAssault => {}
        }
    }
    if order == OrderKind::GeneralAssault {
        state.assault = 1;
    }
    ctx.emit(Event::Ordered {
        side: rules.side_name(state.active).to_owned(),
        order,
        unit,
        cost: price,
        tokens: state.tokens[side],
    });
}

/// Every manoeuvre order the active side may give now.
pub(crate) fn legal_orders(rules: &Jomini, state: &State, out: &mut Vec<Action>) {
    if state.ordered || state.phase != Phase::Command || state.pending.is_some() {
        return;
    }
    let tokens = state.tokens[usize::from(state.active)];
    for order in OrderKind::ALL {
        if cost(rules, order, 1) > tokens {
            continue;
        }
        if order == OrderKind::GeneralAssault {
            if check_order(rules, state, order, None, None).is_ok() {
                out.push(Action::Order {
                    order,
                    unit: None,
                    hexes: None,
                });
            }
            continue;
        }
        for u in rules.piece_ids() {
            if rules.side_of(u) != state.active {
                continue;
            }
            let hexes: &[Option<u8>] = if order == OrderKind::WoodsRunner {
                &[Some(1), Some(2)]
            } else {
                &[None]
            };
            for &h in hexes {
                if check_order(rules, state, order, Some(u), h).is_ok() {
                    out.push(Action::Order {
                        order,
                        unit: Some(u),
                        hexes: h,
                    });
                }
            }
        }
    }
}

/// JO-ORD-2: each order letter rolled gives its side a token.
pub(crate) fn letters(state: &mut State, side: u8, n: u8) {
    state.tokens[usize::from(side)] += u32::from(n);
}
