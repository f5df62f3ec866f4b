//! Command cards: the deck, the hands, playing a card and what it orders; the tactic
//! cards Leadership and Fight Back.

use super::data::{CardKind, CardRow, Data};
use super::units::{Board, Kind, Order};
use super::{Action, BattleCry, Event, Phase, State};
use grognard_engine::{Ctx, Reason, Refusal, Seat, UnitId};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A command card: its kind's place in `data.toml`'s `[[cards]]`. Copies of one kind are
/// the same card, so a hand is a sorted list and actions name a card by its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(pub u8);

impl Card {
    /// The card's row in `data.toml`.
    #[must_use]
    pub fn row(self) -> &'static CardRow {
        &Data::shipped().cards[usize::from(self.0)]
    }

    /// The id actions use, e.g. `probe_centre`.
    #[must_use]
    pub fn id(self) -> &'static str {
        &self.row().id
    }

    /// The card with this id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Card> {
        Data::shipped()
            .cards
            .iter()
            .position(|c| c.id == id)
            .map(|i| Card(u8::try_from(i).expect("at most 255 kinds of card")))
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let id = String::deserialize(d)?;
        Card::from_id(&id).ok_or_else(|| {
            let known: Vec<&str> = Data::shipped()
                .cards
                .iter()
                .map(|c| c.id.as_str())
                .collect();
            serde::de::Error::custom(format!(
                "no card `{id}`; the cards are: {}",
                known.join(", ")
            ))
        })
    }
}

impl BattleCry {
    /// A card's row in the rules' own tables (those of `data.toml`, or the tables given
    /// to [`BattleCry::with_data`]).
    pub(crate) fn card_row(&self, card: Card) -> &CardRow {
        &self.data.cards[usize::from(card.0)]
    }
}

/// What the card played lets its side order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    /// Up to so many pieces in the side's left, centre and right (BC-SEC-3).
    Sections([u8; 3]),
    /// Up to `n` units whose kind's bit is in `kinds`, anywhere (BC-CARD-2).
    Troops { kinds: u8, n: u8 },
    /// Every general, and the units they are attached to (BC-CARD-7).
    Leadership,
    /// Up to `n` pieces anywhere (BC-CARD-7 without generals, BC-CARD-9).
    Any(u8),
}

/// The bit of a kind in [`Command::Troops`].
pub(crate) fn kind_bit(k: Kind) -> u8 {
    1 << (k as u8)
}

/// The bits of the unit types a card's `types` name, worked out when the rules are bound.
fn card_kinds(rules: &BattleCry, card: Card) -> u8 {
    rules
        .card_kinds
        .get(usize::from(card.0))
        .copied()
        .unwrap_or(0)
}

/// What `card` orders when `side` plays it now.
pub(crate) fn command(rules: &BattleCry, state: &State, side: u8, card: Card) -> Command {
    let row = rules.card_row(card);
    match row.kind {
        CardKind::Section => Command::Sections([row.left, row.centre, row.right]),
        CardKind::Troops => Command::Troops {
            kinds: card_kinds(rules, card),
            n: row.orders,
        },
        // BC-CARD-7: "if you don't have any generals, instead issue 1 order to a unit of
        // your choice in any section" (the card's `orders` in data.toml).
        CardKind::Leadership if has_general(rules, state, side) => Command::Leadership,
        CardKind::Leadership => Command::Any(row.orders),
        // BC-CARD-9 (provisional): Fight Back is played on the opponent's turn; played on
        // one's own it orders the card's `orders` pieces anywhere (data.toml: 1), so that a
        // hand of them is no dead end.
        CardKind::FightBack => Command::Any(row.orders),
    }
}

fn has_general(rules: &BattleCry, state: &State, side: u8) -> bool {
    rules
        .side_ids(side)
        .any(|u| rules.kind(u) == Kind::General && state.pieces[u.index()].hex.is_some())
}

/// BC-TURN-3: whether `card` would let `side` order at least one piece now.
pub(crate) fn orders_something(rules: &BattleCry, state: &State, side: u8, card: Card) -> bool {
    let mine = || {
        rules
            .side_ids(side)
            .filter(move |&u| state.pieces[u.index()].hex.is_some())
    };
    match command(rules, state, side, card) {
        Command::Sections(caps) => mine().any(|u| {
            let m = rules.sections_of(side, state.pieces[u.index()].hex.expect("on the map"));
            (0..3).any(|b| m & (1 << b) != 0 && caps[b] > 0)
        }),
        Command::Troops { kinds, .. } => mine().any(|u| kinds & kind_bit(rules.kind(u)) != 0),
        Command::Leadership | Command::Any(_) => mine().next().is_some(),
    }
}

/// BC-TURN-3: whether any card of the side's hand orders something.
pub(crate) fn can_order_anything(rules: &BattleCry, state: &State, side: u8) -> bool {
    let asked = || {
        distinct(&state.hands[usize::from(side)]).any(|c| orders_something(rules, state, side, c))
    };
    let board = Board::new(rules, state);
    let Some(sets) = board.section_sets() else {
        return asked();
    };
    // `orders_something` asked of all the side's pieces at once, on the board's bit sets
    // of the pieces by section (`super::section_sets`).
    let mine = sets.side[usize::from(side & 1)] & sets.placed();
    let by_mask = &sets.by_mask[usize::from(side & 1)];
    let any = distinct(&state.hands[usize::from(side)]).any(|c| {
        mine & match command(rules, state, side, c) {
            Command::Sections(caps) => {
                // The sets of sections holding one the card orders in.
                let open = (0..3).fold(0, |a, b| a | u8::from(caps[b] > 0) << b);
                (1..8)
                    .filter(|&m| m & open != 0)
                    .fold(0, |a, m| a | by_mask[usize::from(m)])
            }
            Command::Troops { kinds, .. } => sets.of_kinds(kinds),
            Command::Leadership | Command::Any(_) => u64::MAX,
        } != 0
    });
    debug_assert_eq!(any, asked(), "a card that orders something");
    any
}

/// The distinct cards of a hand, in order.
pub(crate) fn distinct(hand: &[Card]) -> impl Iterator<Item = Card> + '_ {
    hand.iter()
        .enumerate()
        .filter(move |(i, c)| *i == 0 || hand[i - 1] != **c)
        .map(|(_, &c)| c)
}

/// The purpose of the rolls that draw cards; [`redact`] hides them from players.
pub const DRAW_ROLL: &str = "BC-CARD-5: a command card drawn at random from the deck";

/// BC-CARD-5 (provisional): a card is drawn at random from the cards not yet drawn, which
/// is what drawing the top card of a shuffled deck is; when none remain, the discard pile
/// becomes the deck.
pub(crate) fn draw(
    rules: &BattleCry,
    state: &mut State,
    side: u8,
    rule: &'static str,
    ctx: &mut Ctx<'_, Event>,
) {
    if state.deck.is_empty() && !state.discard.is_empty() {
        state.deck.append(&mut state.discard);
        state.deck.sort_unstable();
        ctx.emit_with(|| Event::Reshuffled {
            cards: state.deck.len(),
        });
    }
    if state.deck.is_empty() {
        return;
    }
    let n = u32::try_from(state.deck.len()).expect("a deck fits u32");
    let i = if n == 1 {
        0
    } else {
        ctx.roll(n, DRAW_ROLL) as usize - 1
    };
    let card = state.deck.remove(i);
    let hand = &mut state.hands[usize::from(side)];
    let at = hand.partition_point(|&c| c <= card);
    hand.insert(at, card);
    ctx.emit_with(|| Event::Drew {
        side: rules.side_text(side),
        card: Some(card),
        rule: rule.into(),
    });
}

/// Takes one copy of `card` out of a hand; false when it holds none.
pub(crate) fn take(hand: &mut Vec<Card>, card: Card) -> bool {
    match hand.binary_search(&card) {
        Ok(i) => {
            hand.remove(i);
            true
        }
        Err(_) => false,
    }
}

/// BC-TURN-4 (provisional): the deck is shuffled and each side dealt its hand, the first
/// side first; the engine's initial state has no dice, so this is the game's first action.
pub(crate) fn deal(rules: &BattleCry, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    for side in 0..2u8 {
        for _ in 0..rules.hand[usize::from(side)] {
            draw(rules, state, side, "BC-CARD-4", ctx);
        }
    }
    state.phase = Phase::Command;
    ctx.emit_with(|| Event::TurnBegan {
        turn: state.turn,
        side: rules.side_text(state.active),
    });
}

/// Why a card may not be played (or discarded) now, before any message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoPlay {
    /// Not the command step (BC-TURN-2).
    Phase(Phase),
    /// Not in the side's hand (BC-CARD-1).
    NotHeld,
    /// No card in hand orders anything: discard instead (BC-TURN-3).
    MustDiscard,
    /// A card in hand orders something: play one (BC-TURN-3).
    MayNotDiscard,
}

/// BC-CARD-1, BC-TURN-3: whether `card` may be played (or, with `discard`, discarded
/// unplayed) now; `can` says whether any card of the hand orders something, asked only
/// when needed.
fn can_play(
    state: &State,
    card: Card,
    discard: bool,
    can: impl FnOnce() -> bool,
) -> Result<bool, NoPlay> {
    if state.phase != Phase::Command {
        return Err(NoPlay::Phase(state.phase));
    }
    if state.hands[usize::from(state.active)]
        .binary_search(&card)
        .is_err()
    {
        return Err(NoPlay::NotHeld);
    }
    may_play_held(discard, can())
}

/// The gate of [`can_play`] past the hand, for a card known to be held in the command
/// step: BC-TURN-3, a card is played when some card can order, discarded when none can.
fn may_play_held(discard: bool, can: bool) -> Result<bool, NoPlay> {
    match (discard, can) {
        (false, false) => Err(NoPlay::MustDiscard),
        (true, true) => Err(NoPlay::MayNotDiscard),
        (_, can) => Ok(can),
    }
}

impl NoPlay {
    fn refusal(self, rules: &BattleCry, state: &State, card: Card) -> Refusal {
        match self {
            NoPlay::Phase(p) => Refusal::new(
                "BC-TURN-2",
                format!(
                    "a command card is played at the start of a turn, not in the {} step",
                    p.name()
                ),
            ),
            NoPlay::NotHeld => Refusal::new(
                "BC-CARD-1",
                format!(
                    "{} holds no {} card",
                    rules.side_title(state.active),
                    card.row().title
                ),
            ),
            NoPlay::MustDiscard => Refusal::new(
                "BC-TURN-3",
                "no card in hand can order anything: discard a card and draw instead",
            ),
            NoPlay::MayNotDiscard => Refusal::new(
                "BC-TURN-3",
                "a card is discarded unplayed only when no card in hand can order anything",
            ),
        }
    }
}

/// BC-CARD-1, BC-TURN-3: checks playing (or, when nothing can be ordered, discarding) a card.
pub(crate) fn check_play(
    rules: &BattleCry,
    state: &State,
    card: Card,
    discard: bool,
) -> Result<Vec<Reason>, Refusal> {
    let can = can_play(state, card, discard, || {
        can_order_anything(rules, state, state.active)
    })
    .map_err(|why| why.refusal(rules, state, card))?;
    Ok(if can {
        vec![
            Reason::new("BC-CARD-1", format!("plays {}", card.row().title)),
            Reason::new(
                "BC-CARD-3",
                "it is discarded and replaced at the end of the turn",
            ),
        ]
    } else {
        vec![Reason::new(
            "BC-TURN-3",
            format!(
                "no card in hand can order anything: {} is discarded and a card drawn",
                card.row().title
            ),
        )]
    })
}

/// Every card of the hand, played, or discarded when none orders anything: the gate of
/// [`check_play`] for each distinct card.
pub(crate) fn legal_cards(rules: &BattleCry, state: &State, out: &mut Vec<Action>) {
    if state.phase != Phase::Command {
        return;
    }
    let can = can_order_anything(rules, state, state.active);
    // Each card is one of the hand's (BC-CARD-1): the rest of the gate decides.
    for card in distinct(&state.hands[usize::from(state.active)]) {
        if may_play_held(false, can).is_ok() {
            out.push(Action::PlayCard { card });
        }
        if may_play_held(true, can).is_ok() {
            out.push(Action::Discard { card });
        }
    }
}

/// BC-CARD-1: plays a card; Leadership orders at once (BC-CARD-7), other cards let the
/// side announce its orders.
pub(crate) fn play(rules: &BattleCry, state: &mut State, card: Card, ctx: &mut Ctx<'_, Event>) {
    let side = state.active;
    take(&mut state.hands[usize::from(side)], card);
    state.played = Some(card);
    ctx.emit_with(|| Event::CardPlayed {
        side: rules.side_text(side),
        card,
        rule: "BC-CARD-1".into(),
    });
    if command(rules, state, side, card) == Command::Leadership {
        leadership(rules, state, ctx);
        state.phase = Phase::Movement;
    } else {
        state.phase = Phase::Orders;
    }
}

/// BC-CARD-7 (provisional): Leadership orders each general; a unit a general is attached
/// to is ordered too, as long as the general stays with it this turn.
fn leadership(rules: &BattleCry, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    let board = Board::new(rules, state);
    let side = state.active;
    for g in rules.side_ids(side) {
        if rules.kind(g) != Kind::General {
            continue;
        }
        let Some(hex) = state.pieces[g.index()].hex else {
            continue;
        };
        state.set_order(g, Order::Card);
        ctx.emit_with(|| Event::Ordered {
            unit: g,
            rule: "BC-CARD-7".into(),
        });
        if let Some(u) = board.unit_at(rules, hex) {
            state.set_order(u, Order::General(g));
            ctx.emit_with(|| Event::Ordered {
                unit: u,
                rule: "BC-CARD-7".into(),
            });
        }
    }
}

/// BC-CARD-7: the extra dice of the card played for a unit battling (Leadership: its
/// `dice` for its `types`, infantry and cavalry in data.toml, with an attached general;
/// troop cards: the units they ordered).
pub(crate) fn bonus_dice(rules: &BattleCry, state: &State, board: &Board, u: UnitId) -> u8 {
    let Some(card) = state.played else {
        return 0;
    };
    let row = rules.card_row(card);
    // Only Leadership and troop cards add dice: what a section card or Fight Back
    // commands is not asked.
    if !matches!(row.kind, CardKind::Leadership | CardKind::Troops) {
        return 0;
    }
    // Both add dice to the card's types alone.
    if card_kinds(rules, card) & kind_bit(rules.kind(u)) == 0 {
        return 0;
    }
    let p = &state.pieces[u.index()];
    let adds = if row.kind == CardKind::Troops {
        // A troop card commands its types (`command`): to the units it ordered.
        p.order == Order::Card
    } else {
        // Leadership, to a unit with an attached general, when it is not played as an
        // order to any piece for want of generals (`command`, asked last: it counts them).
        p.hex.is_some_and(|h| board.general_at(rules, h).is_some())
            && command(rules, state, state.active, card) == Command::Leadership
    };
    if adds {
        row.dice
    } else {
        0
    }
}

/// BC-CARD-8: the extra dice of a unit fighting back: the Fight Back card's `dice` in
/// data.toml (none as shipped).
pub(crate) fn fight_back_dice(rules: &BattleCry) -> u8 {
    rules.fight_back_dice
}

/// Why a card adds `n` dice: the card played, or Fight Back when `fight_back`.
pub(crate) fn bonus_reason(
    rules: &BattleCry,
    state: &State,
    n: u8,
    fight_back: bool,
) -> Option<Reason> {
    let rule = bonus_rule(rules, state, n, fight_back)?;
    let why = match rule {
        "BC-CARD-8" => format!("Fight Back: {n} additional dice"),
        "BC-CARD-7" => format!(
            "Leadership: {} with an attached general rolls {n} additional dice",
            rules.card_row(state.played?).types.join(" or ")
        ),
        _ => format!(
            "{}: {n} additional dice",
            rules.card_row(state.played?).title
        ),
    };
    Some(Reason::new(rule, why))
}

/// The rule of [`bonus_reason`], for a battle's event: Fight Back's (BC-CARD-8),
/// Leadership's (BC-CARD-7) or another card's (BC-CARD-2).
pub(crate) fn bonus_rule(
    rules: &BattleCry,
    state: &State,
    n: u8,
    fight_back: bool,
) -> Option<&'static str> {
    if n == 0 {
        return None;
    }
    if fight_back {
        return Some("BC-CARD-8");
    }
    Some(
        if rules.card_row(state.played?).kind == CardKind::Leadership {
            "BC-CARD-7"
        } else {
            "BC-CARD-2"
        },
    )
}

/// BC-CARD-2: the extra hexes of movement the card played gives a unit it ordered.
#[inline]
pub(crate) fn bonus_moves(rules: &BattleCry, state: &State, u: UnitId) -> u8 {
    let Some(card) = state.played else { return 0 };
    // Only a troop card gives moves: what another commands is not asked (Leadership's
    // command counts the side's generals, BC-CARD-7).
    if rules.card_row(card).kind != CardKind::Troops {
        return 0;
    }
    // A troop card commands its types (`command`): asked here without the rest of it.
    if card_kinds(rules, card) & kind_bit(rules.kind(u)) != 0
        && state.pieces[u.index()].order == Order::Card
    {
        rules.card_row(card).moves
    } else {
        0
    }
}

/// BC-TURN-3: discards a card unplayed and draws; the turn is over (the sequencer passes
/// it, `turn.rs`).
pub(crate) fn discard_unplayed(
    rules: &BattleCry,
    state: &mut State,
    card: Card,
    ctx: &mut Ctx<'_, Event>,
) {
    let side = state.active;
    take(&mut state.hands[usize::from(side)], card);
    to_discard(rules, state, side, card, "BC-TURN-3", ctx);
    draw(rules, state, side, "BC-TURN-3", ctx);
}

/// A card of `side` goes to the discard pile.
fn to_discard(
    rules: &BattleCry,
    state: &mut State,
    side: u8,
    card: Card,
    rule: &'static str,
    ctx: &mut Ctx<'_, Event>,
) {
    state.discard.push(card);
    ctx.emit_with(|| Event::Discarded {
        side: rules.side_text(side),
        card,
        rule: rule.into(),
    });
}

/// BC-CARD-3: at the end of the turn the card played is discarded and replaced; a side
/// that played Fight Back this turn draws its replacement first (BC-CARD-8).
pub(crate) fn end_of_turn(rules: &BattleCry, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    let side = state.active;
    let other = 1 - side;
    if let Some(card) = state.played.take() {
        to_discard(rules, state, side, card, "BC-CARD-3", ctx);
    }
    if let Some(card) = state.fight_back.take() {
        to_discard(rules, state, other, card, "BC-CARD-8", ctx);
        draw(rules, state, other, "BC-CARD-8", ctx);
    }
    draw(rules, state, side, "BC-CARD-3", ctx);
}

/// The side holding a Fight Back card, if `side` does: the card.
pub(crate) fn fight_back_card(state: &State, side: u8) -> Option<Card> {
    state.hands[usize::from(side)]
        .iter()
        .copied()
        .find(|c| c.row().kind == CardKind::FightBack)
}

/// BC-CARD-6 (provisional): a side sees the cards it draws; the other side and spectators
/// see only that a card was drawn. The rolls that pick the cards are hidden from both
/// sides: their values, against the sorted deck, would tell what the other hand holds.
pub(crate) fn redact(rules: &BattleCry, event: &Event, seat: &Seat) -> Option<Event> {
    let _ = rules;
    match event {
        Event::Roll(r) if r.purpose == DRAW_ROLL && *seat != Seat::Omniscient => None,
        Event::Drew {
            side,
            card: Some(_),
            rule,
        } if !seat.sees_side(side) => Some(Event::Drew {
            side: side.clone(),
            card: None,
            rule: rule.clone(),
        }),
        _ => Some(event.clone()),
    }
}

/// The orders a card gives, described for a view.
pub(crate) fn describe(rules: &BattleCry, state: &State, side: u8, card: Card) -> String {
    match command(rules, state, side, card) {
        Command::Sections(caps) => {
            let names = ["left", "centre", "right"];
            let parts: Vec<String> = (0..3)
                .filter(|&i| caps[i] > 0)
                .map(|i| format!("{} in the {}", caps[i], names[i]))
                .collect();
            format!("order {}", parts.join(", "))
        }
        Command::Troops { n, .. } => format!("order up to {n} {}", card.row().types.join(" or ")),
        Command::Leadership => "order each general and the unit it is attached to".into(),
        Command::Any(n) => format!("order {n} unit or general in any section"),
    }
}

/// Pieces the card played orders, for [`orders`]: how many it gives in all.
pub(crate) fn order_limit(cmd: Command) -> usize {
    match cmd {
        Command::Sections(caps) => caps.iter().map(|&c| usize::from(c)).sum(),
        Command::Troops { n, .. } | Command::Any(n) => usize::from(n),
        Command::Leadership => 0,
    }
}
