//! Announce orders (step 2 of the turn): which generals and units the card orders.

use super::cards::{self, Card, Command};
use super::data::CardKind;
use super::order_sets::OrderSets;
use super::units::Board;
use super::units::Order;
use super::{Action, BattleCry, Event, Phase, State};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};
use grognard_hex::Hex;

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

/// What the card played lets its side order now, worked out once for a check or for the
/// whole legal list.
struct Orderable {
    side: u8,
    card: Card,
    cmd: Command,
    /// Pieces the card has ordered so far.
    count: usize,
    /// For a section card, whether one more piece standing in the sections of mask `m`
    /// still fits its orders: bit `m` (BC-SEC-3), worked out once for the seven masks.
    fitting: u8,
}

/// Why a piece may not be ordered now, before any message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoOrder {
    /// Not the orders step (BC-TURN-2).
    Phase(Phase),
    /// Not the active side's (BC-ORD-1).
    NotYours,
    /// Off the battlefield (BC-ORD-1).
    Eliminated,
    /// Ordered already (BC-ORD-2).
    Ordered,
    /// In no section the card orders (BC-SEC-3).
    OutsideSections,
    /// The card's orders in its section are used (BC-SEC-3).
    SectionFull,
    /// Not of a type the card orders (BC-CARD-2).
    WrongType,
    /// The card's orders are used (BC-CARD-2, BC-CARD-7, BC-CARD-9).
    Full,
    /// Leadership ordered everything when played (BC-CARD-7).
    Leadership,
}

/// The card played and what it has ordered, or why no order is announced now.
fn orderable(rules: &BattleCry, state: &State) -> Result<Orderable, NoOrder> {
    if state.phase != Phase::Orders {
        return Err(NoOrder::Phase(state.phase));
    }
    let side = state.active;
    let card = state.played.expect("a card is played in the orders step");
    let cmd = cards::command(rules, state, side, card);
    let sections = matches!(cmd, Command::Sections(_));
    let mut count = 0;
    let mut counts = [0; 8];
    // The pieces the card has ordered so far.
    for p in state.pieces.iter().filter(|p| p.order == Order::Card) {
        count += 1;
        if sections {
            let m = rules.sections_of(side, p.hex.expect("on the map"));
            counts[usize::from(m)] += 1;
        }
    }
    let fitting = match cmd {
        Command::Sections(caps) => super::sections::fitting_masks(&counts, caps),
        _ => 0,
    };
    Ok(Orderable {
        side,
        card,
        cmd,
        count,
        fitting,
    })
}

impl Orderable {
    /// BC-ORD-1, BC-ORD-2, BC-SEC-3, BC-CARD-2: whether the card can order piece `u`, and
    /// where it stands; cheap, for the legal list and the check alike.
    #[inline(always)]
    fn may_order(&self, rules: &BattleCry, state: &State, u: UnitId) -> Option<Hex> {
        if rules.side_of(u) != self.side {
            return None;
        }
        self.may_order_own(rules, state, u)
    }

    /// [`Orderable::may_order`] for a piece of the side playing the card (BC-ORD-1), as
    /// the legal list asks it of each of the side's own pieces.
    #[inline(always)]
    fn may_order_own(&self, rules: &BattleCry, state: &State, u: UnitId) -> Option<Hex> {
        let p = &state.pieces[u.index()];
        let hex = p.hex?;
        if p.order != Order::None {
            return None;
        }
        let ok = match self.cmd {
            Command::Sections(_) => {
                let here = rules.sections_of(self.side, hex);
                here != 0 && self.fits(here)
            }
            Command::Troops { kinds, .. } if kinds & cards::kind_bit(rules.kind(u)) == 0 => false,
            Command::Troops { n, .. } | Command::Any(n) => self.count < usize::from(n),
            Command::Leadership => false,
        };
        ok.then_some(hex)
    }

    /// [`Orderable::may_order`], or why not: the first of its gates that piece `u` fails.
    fn can_order(&self, rules: &BattleCry, state: &State, u: UnitId) -> Result<Hex, NoOrder> {
        if let Some(hex) = self.may_order(rules, state, u) {
            return Ok(hex);
        }
        let p = &state.pieces[u.index()];
        Err(if rules.side_of(u) != self.side {
            NoOrder::NotYours
        } else if p.order != Order::None && p.hex.is_some() {
            NoOrder::Ordered
        } else if let Some(hex) = p.hex {
            match self.cmd {
                Command::Sections(caps) => {
                    let here = rules.sections_of(self.side, hex);
                    if (0..3).all(|b| here & (1 << b) == 0 || caps[b] == 0) {
                        NoOrder::OutsideSections
                    } else {
                        NoOrder::SectionFull
                    }
                }
                Command::Troops { kinds, .. } if kinds & cards::kind_bit(rules.kind(u)) == 0 => {
                    NoOrder::WrongType
                }
                Command::Troops { .. } | Command::Any(_) => NoOrder::Full,
                Command::Leadership => NoOrder::Leadership,
            }
        } else {
            NoOrder::Eliminated
        })
    }

    /// Whether one more piece in the sections of `here` fits the card's orders with
    /// those given so far (BC-SEC-3).
    fn fits(&self, here: u8) -> bool {
        u32::from(self.fitting) >> here & 1 != 0
    }

    /// The rule of an order with this card: BC-SEC-3, BC-CARD-2, BC-CARD-7 or BC-CARD-9.
    fn rule(&self) -> &'static str {
        rule_of(self.card)
    }
}

/// The rule under which `card` orders a piece. The card's kind decides it, whatever it
/// commands now: a section card orders by section (BC-SEC-3), a troop card by type
/// (BC-CARD-2), Fight Back played on one's own turn anywhere (BC-CARD-9), and Leadership
/// its generals, or without them a unit anywhere (BC-CARD-7): the generals need not be
/// counted, as `cards::command` counts them for Leadership.
fn rule_of(card: Card) -> &'static str {
    match card.row().kind {
        CardKind::Section => "BC-SEC-3",
        CardKind::Troops => "BC-CARD-2",
        CardKind::FightBack => "BC-CARD-9",
        CardKind::Leadership => "BC-CARD-7",
    }
}

impl NoOrder {
    /// The refusal, with its message.
    fn refusal(self, rules: &BattleCry, state: &State, u: UnitId) -> Refusal {
        let who = rules.who(u);
        let side = state.active;
        let described = || {
            state
                .played
                .map_or(String::new(), |c| cards::describe(rules, state, side, c))
        };
        let title = || {
            state
                .played
                .map_or(String::new(), |c| c.row().title.clone())
        };
        match self {
            NoOrder::Phase(p) => Refusal::new(
                "BC-TURN-2",
                format!(
                    "orders are announced after playing a card, not in the {} step",
                    p.name()
                ),
            ),
            NoOrder::NotYours => Refusal::new("BC-ORD-1", format!("{who} is not yours to order")),
            NoOrder::Eliminated => Refusal::new("BC-ORD-1", format!("{who} has been eliminated")),
            NoOrder::Ordered => Refusal::new(
                "BC-ORD-2",
                format!("{who} is already ordered: no more than one order to each general or unit"),
            ),
            NoOrder::OutsideSections => {
                let hex = state.pieces[u.index()].hex.expect("on the map");
                Refusal::new(
                    "BC-SEC-3",
                    format!(
                        "{who} in {} is not in a section {} orders ({})",
                        rules.label(hex),
                        title(),
                        described()
                    ),
                )
            }
            NoOrder::SectionFull => Refusal::new(
                "BC-SEC-3",
                format!(
                    "{} has no order left for {who}'s section ({})",
                    title(),
                    described()
                ),
            ),
            NoOrder::WrongType => Refusal::new(
                "BC-CARD-2",
                format!(
                    "{} orders only {}",
                    title(),
                    state
                        .played
                        .map_or(String::new(), |c| c.row().types.join(" or "))
                ),
            ),
            NoOrder::Full => {
                let card = state.played.expect("a card is played in the orders step");
                match cards::command(rules, state, side, card) {
                    Command::Troops { n, .. } => {
                        Refusal::new("BC-CARD-2", format!("{} gives only {n} orders", title()))
                    }
                    cmd => Refusal::new(
                        rule_of(card),
                        format!(
                            "{} gives only {} order here",
                            title(),
                            cards::order_limit(cmd)
                        ),
                    ),
                }
            }
            NoOrder::Leadership => Refusal::new(
                "BC-CARD-7",
                "Leadership has ordered every general and its unit already",
            ),
        }
    }
}

/// BC-ORD-1, BC-ORD-2, BC-SEC-3, BC-CARD-2: checks ordering a piece with the card played.
pub(crate) fn check_order(
    rules: &BattleCry,
    state: &State,
    u: UnitId,
) -> Result<Vec<Reason>, Refusal> {
    let gate = orderable(rules, state).and_then(|o| o.can_order(rules, state, u).map(|h| (o, h)));
    let (o, hex) = gate.map_err(|why| why.refusal(rules, state, u))?;
    let who = rules.who(u);
    let title = &o.card.row().title;
    let why = match o.cmd {
        Command::Sections(_) => format!(
            "{title} orders {who} in {} ({})",
            rules.label(hex),
            section_names(rules.sections_of(o.side, hex))
        ),
        Command::Troops { .. } => format!("{title} orders {who}"),
        Command::Any(_) | Command::Leadership => format!("{title} orders {who} in any section"),
    };
    Ok(vec![Reason::new(o.rule(), why)])
}

fn section_names(mask: u8) -> String {
    let names = ["left", "centre", "right"];
    let v: Vec<&str> = (0..3)
        .filter(|b| mask & (1 << b) != 0)
        .map(|b| names[b])
        .collect();
    v.join(" and ")
}

/// Every piece the card can still order: the gate of [`check_order`] for each piece,
/// asked of all at once, on the board's bit sets of the pieces by section
/// ([`super::section_sets`]).
pub(crate) fn legal_orders(rules: &BattleCry, state: &State, out: &mut Vec<Action>) {
    if state.phase != Phase::Orders {
        return;
    }
    let board = Board::new(rules, state);
    let Some(sets) = board.section_sets() else {
        legal_orders_by_gate(rules, state, out);
        return;
    };
    #[cfg(debug_assertions)]
    let start = out.len();
    let side = state.active;
    let card = state.played.expect("a card is played in the orders step");
    let cmd = cards::command(rules, state, side, card);
    // The pieces ordered by the card so far, and those not ordered.
    let (by_card, unordered) = match OrderSets::get(state) {
        Some((by_card, ordered)) => (by_card, !ordered),
        // The section sets hold every piece here, so the pieces fit the bits.
        None => {
            let (by_card, general) = OrderSets::of_pieces(state);
            (by_card, !(by_card | general))
        }
    };
    let count = by_card.count_ones() as usize;
    // Only the side's own pieces on the battlefield pass the gate (BC-ORD-1), not
    // ordered yet (BC-ORD-2), while the card has orders left.
    let open = unordered & sets.side[usize::from(side & 1)] & sets.placed();
    let may = match cmd {
        Command::Leadership => 0,
        _ if count >= cards::order_limit(cmd) => 0,
        Command::Troops { kinds, .. } => open & sets.of_kinds(kinds),
        Command::Any(_) => open,
        Command::Sections(caps) => {
            let by_mask = &sets.by_mask[usize::from(side & 1)];
            let fitting = if by_card == 0 {
                // The card's first order: one piece fits in any set of sections holding
                // one the card gives orders in (BC-SEC-3), as `fitting_masks` finds for
                // no piece counted.
                let open = (0..3).fold(0u8, |a, b| a | u8::from(caps[b] > 0) << b);
                let fitting = (1..8u8)
                    .filter(|m| m & open != 0)
                    .fold(0u8, |a, m| a | 1 << m);
                debug_assert_eq!(
                    fitting,
                    super::sections::fitting_masks(&[0; 8], caps),
                    "the first order's sections"
                );
                fitting
            } else {
                // The pieces ordered so far by the sections they stand in: a few pieces,
                // each in one set.
                let mut counts = [0usize; 8];
                let mut ordered = by_card;
                while ordered != 0 {
                    let piece = ordered & ordered.wrapping_neg();
                    ordered &= ordered - 1;
                    if let Some(m) = by_mask.iter().position(|&set| set & piece != 0) {
                        counts[m] += 1;
                    }
                }
                super::sections::fitting_masks(&counts, caps)
            };
            // A piece in no section never fits (bit 0 is never set).
            (1..8)
                .filter(|m| fitting >> m & 1 != 0)
                .fold(0, |a, m| a | by_mask[m])
                & open
        }
    };
    let mut left = may;
    while left != 0 {
        let i = left.trailing_zeros();
        left &= left - 1;
        out.push(Action::Order {
            unit: UnitId(u16::try_from(i).expect("at most 64 pieces")),
        });
    }
    #[cfg(debug_assertions)]
    {
        // Debug builds (the tests) check the list against each piece asked at the gate.
        let mut fresh = Vec::new();
        legal_orders_by_gate(rules, state, &mut fresh);
        debug_assert_eq!(out[start..], fresh[..], "the legal orders");
    }
}

/// Every piece the card can still order, each asked at the gate of [`check_order`]:
/// what [`legal_orders`] lists.
fn legal_orders_by_gate(rules: &BattleCry, state: &State, out: &mut Vec<Action>) {
    let Ok(o) = orderable(rules, state) else {
        return;
    };
    if o.count >= cards::order_limit(o.cmd) {
        // Every order of the card is given: no piece passes the gate (BC-SEC-3,
        // BC-CARD-2), so none is asked.
        return;
    }
    // Only the side's own pieces pass the gate (BC-ORD-1).
    for u in rules.side_ids(o.side) {
        if o.may_order_own(rules, state, u).is_some() {
            out.push(Action::Order { unit: u });
        }
    }
}

/// Orders a piece.
pub(crate) fn apply_order(state: &mut State, u: UnitId, ctx: &mut Ctx<'_, Event>) {
    let card = state.played.expect("a card is played");
    state.set_order(u, Order::Card);
    // The rule is the event's alone: not looked up in a quiet context (`Ctx::quiet`).
    ctx.emit_with(|| Event::Ordered {
        unit: u,
        rule: rule_of(card).into(),
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
