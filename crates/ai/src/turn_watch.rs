//! Where a simulation stops: the turns that begin in it.

use crate::mcts::Horizon;
use grognard_engine::Ruleset;

/// Counts the turns that begin in a simulation: a turn begins when a side other than
/// the last active one decides outside a window.
pub(crate) struct TurnWatch {
    active: Option<String>,
    switches: u32,
    limit: u32,
}

impl TurnWatch {
    pub(crate) fn start<R: Ruleset>(
        rules: &R,
        state: &R::State,
        me: &str,
        horizon: Horizon,
    ) -> TurnWatch {
        let reaction = rules.acting(state).is_none_or(|d| d.reaction);
        TurnWatch {
            active: (!reaction).then(|| me.to_owned()),
            switches: 0,
            limit: if horizon == Horizon::OwnTurn { 1 } else { 2 },
        }
    }

    pub(crate) fn observe<R: Ruleset>(&mut self, rules: &R, state: &R::State) {
        if let Some(d) = rules.acting(state) {
            if d.reaction {
                return;
            }
            match &self.active {
                Some(a) if *a == d.side => {}
                Some(_) => {
                    self.switches += 1;
                    self.active = Some(d.side.into_owned());
                }
                None => self.active = Some(d.side.into_owned()),
            }
        }
    }

    /// Whether the side's own turn has ended: another side's turn has begun.
    pub(crate) fn own_turn_over(&self) -> bool {
        self.switches >= 1
    }

    pub(crate) fn reached(&self) -> bool {
        self.switches >= self.limit
    }
}
