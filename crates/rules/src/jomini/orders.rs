//! Order tokens and manoeuvre orders (JO-ORD-1 to JO-ORD-12): tokens from the
//! commander's level and from order letters rolled; one manoeuvre order a turn, given in
//! the command phase.

use super::command::{activate_alone, available};
use super::sequence::{in_phase, NotNow};
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

/// Why a manoeuvre order may not be given now, before any message is written; refused
/// under the order's own rule (JO-ORD-4 to JO-ORD-12) unless another is worded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoOrder {
    /// The game is over (JO-TURN-1).
    Over,
    /// Not the command phase, or a retreat owed first (JO-ORD-3).
    NotNow,
    /// The turn's one order was given (JO-ORD-3).
    Given,
    /// Woods-runner without the hexes it buys (JO-ORD-7).
    HexesWanted,
    /// Hexes given to an order other than woods-runner.
    NoHexes,
    /// Woods-runner buying other than 1 to [`WOODS_MAX`] hexes (JO-ORD-7).
    HexesOutOfRange,
    /// Fewer tokens left than the order costs (JO-ORD-1).
    Tokens { price: u32, tokens: u32 },
    /// No unit or officer of the side named.
    NotYours,
    /// A general assault naming a unit (JO-ORD-12).
    Named,
    /// An officer named for a unit's order.
    Officer,
    /// A unit not activated this turn.
    NotActivated,
    /// A unit that has moved.
    Moved,
    /// A unit named for an officer's order.
    NotOfficer,
    /// An officer with no activation opened this phase.
    NoActivation,
    /// No mounts, or elephants (JO-ORD-4).
    NoMounts,
    /// On a forced march already (JO-ORD-6).
    Forced,
    /// Never more than 1 hex (JO-ORD-6, JO-MOV-11).
    NeverMore,
    /// Activated already (JO-ORD-5, JO-ORD-8).
    Activated,
    /// Not on the table (JO-ORD-5, JO-ORD-8).
    OffTable,
    /// Not light troops (JO-ORD-5).
    NotLight,
    /// A general assault made this turn (JO-ORD-12).
    Assaulted,
}

/// JO-TURN-1, JO-ORD-3: whether a manoeuvre order may be given now at all.
fn may_order(state: &State) -> Result<(), NoOrder> {
    in_phase(state, Phase::Command).map_err(|why| match why {
        NotNow::Over => NoOrder::Over,
        NotNow::Retreat | NotNow::Phase(_) => NoOrder::NotNow,
    })?;
    if state.ordered {
        return Err(NoOrder::Given);
    }
    Ok(())
}

/// JO-ORD-1, JO-ORD-7: whether `order`, buying `hexes`, may be given now and paid for,
/// whoever it is given to; its price.
fn can_afford(
    rules: &Jomini,
    state: &State,
    order: OrderKind,
    hexes: Option<u8>,
) -> Result<u32, NoOrder> {
    may_order(state)?;
    let wants_hexes = order == OrderKind::WoodsRunner;
    if wants_hexes != hexes.is_some() {
        return Err(if wants_hexes {
            NoOrder::HexesWanted
        } else {
            NoOrder::NoHexes
        });
    }
    let n = hexes.unwrap_or(0);
    if wants_hexes && !(1..=WOODS_MAX).contains(&n) {
        return Err(NoOrder::HexesOutOfRange);
    }
    let price = cost(rules, order, n);
    let tokens = state.tokens[usize::from(state.active)];
    if tokens < price {
        return Err(NoOrder::Tokens { price, tokens });
    }
    Ok(price)
}

/// An own unit (not an officer) activated this turn that has not moved yet.
fn activated_unit(rules: &Jomini, state: &State, u: UnitId) -> Result<(), NoOrder> {
    let p = &state.pieces[u.index()];
    if rules.piece(u).officer {
        return Err(NoOrder::Officer);
    }
    if p.group.is_none() {
        return Err(NoOrder::NotActivated);
    }
    if p.moved {
        return Err(NoOrder::Moved);
    }
    Ok(())
}

/// The officer's activation opened in this command phase.
fn officer_group(rules: &Jomini, state: &State, u: UnitId) -> Result<(), NoOrder> {
    if !rules.piece(u).officer {
        return Err(NoOrder::NotOfficer);
    }
    match state.pieces[u.index()].group {
        Some(g) if g >= state.first_group => Ok(()),
        _ => Err(NoOrder::NoActivation),
    }
}

/// JO-ORD-4 to JO-ORD-12: whether `order` may be given to `unit` (none for a general
/// assault), whatever the hexes it buys; the piece it is given to.
fn can_give(
    rules: &Jomini,
    state: &State,
    order: OrderKind,
    unit: Option<UnitId>,
) -> Result<UnitId, NoOrder> {
    let needs_unit = order != OrderKind::GeneralAssault;
    let u = match (needs_unit, unit) {
        (true, Some(u)) if u.index() < rules.pieces.len() && rules.side_of(u) == state.active => u,
        (true, _) => return Err(NoOrder::NotYours),
        (false, Some(_)) => return Err(NoOrder::Named),
        (false, None) => UnitId(0),
    };
    match order {
        OrderKind::Mount => {
            activated_unit(rules, state, u)?;
            if rules
                .piece(u)
                .mounts
                .as_deref()
                .is_some_and(|m| m != "elephants")
            {
                Ok(u)
            } else {
                Err(NoOrder::NoMounts)
            }
        }
        OrderKind::ForcedMarch => {
            activated_unit(rules, state, u)?;
            if state.pieces[u.index()].forced {
                Err(NoOrder::Forced)
            } else if rules.piece(u).allowance.never_more {
                Err(NoOrder::NeverMore)
            } else {
                Ok(u)
            }
        }
        OrderKind::WoodsRunner => activated_unit(rules, state, u).map(|()| u),
        OrderKind::Reconnaissance | OrderKind::Courier => {
            let p = &state.pieces[u.index()];
            let piece = rules.piece(u);
            if piece.officer {
                Err(NoOrder::Officer)
            } else if p.group.is_some() {
                Err(NoOrder::Activated)
            } else if !available(rules, state, u) || p.waiting {
                Err(NoOrder::OffTable)
            } else if order == OrderKind::Reconnaissance
                && (piece.artillery() || !["light", "very_light"].contains(&piece.weight.as_str()))
            {
                Err(NoOrder::NotLight)
            } else {
                Ok(u)
            }
        }
        OrderKind::CombinedAttack | OrderKind::Manoeuvre | OrderKind::ForwardMarch => {
            officer_group(rules, state, u).map(|()| u)
        }
        OrderKind::GeneralAssault => {
            if state.assault > 0 {
                Err(NoOrder::Assaulted)
            } else {
                Ok(u)
            }
        }
    }
}

/// The one gate of a manoeuvre order, for the legal list and the check alike: the price
/// and the piece it is given to, or why not.
fn can_order(
    rules: &Jomini,
    state: &State,
    order: OrderKind,
    unit: Option<UnitId>,
    hexes: Option<u8>,
) -> Result<(u32, UnitId), NoOrder> {
    let price = can_afford(rules, state, order, hexes)?;
    let u = can_give(rules, state, order, unit)?;
    Ok((price, u))
}

impl NoOrder {
    /// The refusal of `order` given to `unit`, with its message.
    fn refusal(
        self,
        rules: &Jomini,
        state: &State,
        order: OrderKind,
        unit: Option<UnitId>,
    ) -> Refusal {
        let rule = order.rule();
        let who = || unit.map_or_else(String::new, |u| rules.who(u));
        match self {
            NoOrder::Over => Refusal::new("JO-TURN-1", "the game is over"),
            NoOrder::NotNow => Refusal::new(
                "JO-ORD-3",
                format!(
                    "manoeuvre orders are given in the command phase, not the {} phase",
                    state.phase.name()
                ),
            ),
            NoOrder::Given => {
                Refusal::new("JO-ORD-3", "one manoeuvre order a turn, and one was given")
            }
            NoOrder::HexesWanted => Refusal::new(
                rule,
                format!("woods-runner buys 1 to {WOODS_MAX} hexes: say how many"),
            ),
            NoOrder::NoHexes => Refusal::new(rule, format!("{} takes no hexes", order.title())),
            NoOrder::HexesOutOfRange => {
                Refusal::new(rule, format!("woods-runner buys 1 to {WOODS_MAX} hexes"))
            }
            NoOrder::Tokens { price, tokens } => Refusal::new(
                "JO-ORD-1",
                format!(
                    "{} costs {price} order tokens; {tokens} left",
                    order.title()
                ),
            ),
            NoOrder::NotYours => Refusal::new(
                rule,
                format!(
                    "{} is given to one of your units or officers",
                    order.title()
                ),
            ),
            NoOrder::Named => Refusal::new(rule, "a general assault names no unit"),
            NoOrder::Officer => Refusal::new(rule, format!("{} is an officer, not a unit", who())),
            NoOrder::NotActivated => Refusal::new(rule, format!("{} is not activated", who())),
            NoOrder::Moved => Refusal::new(rule, format!("{} has moved", who())),
            NoOrder::NotOfficer => Refusal::new(rule, format!("{} is not an officer", who())),
            NoOrder::NoActivation => Refusal::new(
                rule,
                format!("{} has opened no activation this phase", who()),
            ),
            NoOrder::NoMounts => Refusal::new(rule, format!("{} has no mounts", who())),
            NoOrder::Forced => {
                Refusal::new(rule, format!("{} is already on a forced march", who()))
            }
            NoOrder::NeverMore => Refusal::new(
                rule,
                format!("{}: never more than 1 hex (JO-MOV-11)", who()),
            ),
            NoOrder::Activated => Refusal::new(rule, format!("{} is already activated", who())),
            NoOrder::OffTable => Refusal::new(rule, format!("{} is not on the table", who())),
            NoOrder::NotLight => Refusal::new(rule, format!("{}: only light troops scout", who())),
            NoOrder::Assaulted => {
                Refusal::new(rule, "a general assault was already made this turn")
            }
        }
    }
}

/// Checks a manoeuvre order: the gate, worded when it refuses, and the rules the order
/// follows when it does not.
pub(crate) fn check_order(
    rules: &Jomini,
    state: &State,
    order: OrderKind,
    unit: Option<UnitId>,
    hexes: Option<u8>,
) -> Result<Vec<Reason>, Refusal> {
    let (price, u) = can_order(rules, state, order, unit, hexes)
        .map_err(|why| why.refusal(rules, state, order, unit))?;
    let tokens = state.tokens[usize::from(state.active)];
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
        Reason::new(order.rule(), effect),
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
    ctx.emit_with(|| Event::Ordered {
        side: rules.side_name(state.active).to_owned(),
        order,
        unit,
        cost: price,
        tokens: state.tokens[side],
    });
}

/// Every manoeuvre order the active side may give now.
pub(crate) fn legal_orders(rules: &Jomini, state: &State, out: &mut Vec<Action>) {
    if may_order(state).is_err() {
        return;
    }
    for order in OrderKind::ALL {
        let hexes: &[Option<u8>] = if order == OrderKind::WoodsRunner {
            &[Some(1), Some(2)]
        } else {
            &[None]
        };
        // Whether each choice of hexes is paid for: asked once, not once a piece.
        let mut paid = [false; 2];
        for (ok, &h) in paid.iter_mut().zip(hexes) {
            *ok = can_afford(rules, state, order, h).is_ok();
        }
        if !paid.contains(&true) {
            continue;
        }
        if order == OrderKind::GeneralAssault {
            if can_give(rules, state, order, None).is_ok() {
                out.push(Action::Order {
                    order,
                    unit: None,
                    hexes: None,
                });
            }
            continue;
        }
        for u in rules.piece_ids() {
            if can_give(rules, state, order, Some(u)).is_err() {
                continue;
            }
            for (&h, _) in hexes.iter().zip(paid).filter(|&(_, ok)| ok) {
                out.push(Action::Order {
                    order,
                    unit: Some(u),
                    hexes: h,
                });
            }
        }
    }
}

/// JO-ORD-2: each order letter rolled gives its side a token.
pub(crate) fn letters(state: &mut State, side: u8, n: u8) {
    state.tokens[usize::from(side)] += u32::from(n);
}
