//! Fight Back (BC-CARD-8): in the window a battle opens, the attacked side may play the
//! card, and its unit battles the attacker. The window itself is opened by the battle
//! ([`super::battle`]); the Fight Back battle is rolled there too.

use super::battle::{self, Engagement};
use super::units::Board;
use super::{cards, Action, BattleCry, Event, Pending, State};
use grognard_engine::{Ctx, Reason, Refusal, UnitId};

/// Why Fight Back may not be played now, before any message is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NoFightBack {
    /// No window is open (BC-CARD-8).
    NoWindow,
    /// The side holds no Fight Back card.
    NoCard(u8),
}

/// BC-CARD-8: the unit that fights back and its target, when a Fight Back window is open
/// and its side holds the card. The gate of [`check_fight_back`] and [`legal_fight_back`].
fn can_fight_back(rules: &BattleCry, state: &State) -> Result<(UnitId, UnitId), NoFightBack> {
    let Some(Pending::FightBack { unit, target }) = state.pending else {
        return Err(NoFightBack::NoWindow);
    };
    let side = rules.side_of(unit);
    if cards::fight_back_card(state, side).is_none() {
        return Err(NoFightBack::NoCard(side));
    }
    Ok((unit, target))
}

/// Checks playing Fight Back in its window.
pub(crate) fn check_fight_back(rules: &BattleCry, state: &State) -> Result<Vec<Reason>, Refusal> {
    let (unit, target) = can_fight_back(rules, state).map_err(|why| match why {
        NoFightBack::NoCard(side) => Refusal::new(
            "BC-CARD-8",
            format!("{} holds no Fight Back card", rules.side_title(side)),
        ),
        NoFightBack::NoWindow => Refusal::new(
            "BC-CARD-8",
            "Fight Back is played only just after an enemy unit battled one of yours",
        ),
    })?;
    let board = Board::new(rules, state);
    let (_, dice_reasons) =
        battle::dice(rules, state, &board, Engagement::fight_back(unit, target))?;
    let mut reasons = vec![Reason::new(
        "BC-CARD-8",
        format!(
            "{} battles {}, which just attacked it",
            rules.who(unit),
            rules.who(target)
        ),
    )];
    reasons.extend(dice_reasons);
    reasons.push(Reason::new(
        "BC-GEN-8",
        "a unit that fights back does not take ground",
    ));
    Ok(reasons)
}

/// Fight Back, when its window is open and the side holds the card (the window opens
/// only when the unit can battle its attacker: `battle::fight_back_window`).
pub(crate) fn legal_fight_back(rules: &BattleCry, state: &State, out: &mut Vec<Action>) {
    if can_fight_back(rules, state).is_ok() {
        out.push(Action::FightBack);
    }
}

/// BC-CARD-8: plays Fight Back: the attacked unit battles its attacker.
pub(crate) fn fight_back(rules: &BattleCry, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    let Some(Pending::FightBack { unit, target }) = state.pending.take() else {
        return;
    };
    let side = rules.side_of(unit);
    let Some(card) = cards::fight_back_card(state, side) else {
        return;
    };
    cards::take(&mut state.hands[usize::from(side)], card);
    state.fight_back = Some(card);
    ctx.emit_with(|| Event::CardPlayed {
        side: rules.side_text(side),
        card,
        rule: "BC-CARD-8".into(),
    });
    let board = Board::new(rules, state);
    let Ok(d) = battle::count(rules, state, &board, Engagement::fight_back(unit, target)) else {
        return;
    };
    battle::resolve(rules, state, board, unit, target, d, true, ctx);
}
