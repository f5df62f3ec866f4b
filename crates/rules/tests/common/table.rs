//! A table for any ruleset: the rules, a state to set up by hand, the dice, and the
//! checked ways to act on it. Each ruleset's `harness.rs` adds only its own builders and
//! shortcuts, in an `impl Table<ItsRuleset>` block.

use grognard_engine::scenario::Scenario;
use grognard_engine::{Ctx, Decision, Dice, Explanation, Reached, Refusal, Ruleset, UnitId};
use grognard_hex::Hex;
use std::sync::Arc;

/// A position under test: the rules, the state, the table's dice and the events of the
/// last action applied.
pub struct Table<R: Ruleset> {
    /// The rules, bound to the scenario.
    pub rules: Arc<R>,
    /// The state; tests set it up by hand.
    pub state: R::State,
    /// The dice [`Table::act`] rolls (forced results queued with [`Table::force`]).
    pub dice: Dice,
    /// The seed of the fresh dice each [`Table::apply`] rolls.
    pub seed: u64,
    /// The events of the last action applied.
    pub events: Vec<R::Event>,
}

impl<R: Ruleset> Clone for Table<R> {
    fn clone(&self) -> Table<R> {
        Table {
            rules: Arc::clone(&self.rules),
            state: self.state.clone(),
            dice: self.dice.clone(),
            seed: self.seed,
            events: self.events.clone(),
        }
    }
}

impl<R: Ruleset> Table<R> {
    /// The rules' initial state, with dice seeded `seed`.
    pub fn with_rules(rules: R, seed: u64) -> Table<R> {
        Table {
            state: rules.initial_state(),
            rules: Arc::new(rules),
            dice: Dice::new(seed),
            seed,
            events: Vec::new(),
        }
    }

    /// A scenario's rules and initial state.
    ///
    /// # Panics
    /// When the scenario does not bind to the rules.
    pub fn of_scenario(scenario: &Scenario, seed: u64) -> Table<R> {
        Table::with_rules(R::new(scenario).unwrap_or_else(|p| panic!("{p}")), seed)
    }

    /// A unit by its scenario id.
    pub fn id(&self, name: &str) -> UnitId {
        self.rules
            .names()
            .unit(name)
            .unwrap_or_else(|| panic!("no unit {name}"))
    }

    /// A hex by its label.
    pub fn hex(&self, label: &str) -> Hex {
        self.rules
            .names()
            .map()
            .parse_label(label)
            .unwrap_or_else(|_| panic!("no hex {label}"))
    }

    /// A hex's label.
    pub fn label(&self, hex: Hex) -> String {
        self.rules.names().label(hex)
    }

    /// Who decides now.
    pub fn to_act(&self) -> Option<Decision> {
        self.rules.to_act(&self.state)
    }

    /// The legal actions now.
    pub fn legal(&self) -> Vec<R::Action> {
        super::legal(&*self.rules, &self.state)
    }

    /// Why an action is legal or not now.
    pub fn explain(&self, action: &R::Action) -> Explanation {
        self.rules.explain(&self.state, action)
    }

    /// Whether an action is legal, checking that `explain` and the legal list agree.
    ///
    /// # Panics
    /// When they disagree.
    pub fn is_legal(&self, action: &R::Action) -> bool {
        let e = self.explain(action);
        assert_eq!(
            e.legal,
            self.legal().contains(action),
            "explain and the legal list disagree on {action:?}: {e:?}"
        );
        e.legal
    }

    /// Asserts that an action is refused citing `rule`, and not listed; returns the
    /// message of the reason citing it.
    pub fn refuses(&self, action: &R::Action, rule: &str) -> String {
        let e = self.explain(action);
        assert!(!e.legal, "{action:?} should be refused by {rule}");
        assert!(
            !self.legal().contains(action),
            "{action:?} refused yet listed as legal"
        );
        e.reasons
            .iter()
            .find(|r| r.rule == rule)
            .unwrap_or_else(|| panic!("{action:?} refused by {:?}, not {rule}", e.reasons))
            .message
            .clone()
    }

    /// Asserts that an action is legal, listed, and that its reasons cite `rule`.
    pub fn allows(&self, action: &R::Action, rule: &str) {
        let e = self.explain(action);
        assert!(e.legal, "{action:?} refused: {:?}", e.reasons);
        assert!(
            e.reasons.iter().any(|r| r.rule == rule),
            "{action:?} legal for {:?}, not citing {rule}",
            e.reasons
        );
        assert!(
            self.legal().contains(action),
            "{action:?} legal yet not listed"
        );
    }

    /// Queues forced die results for [`Table::act`].
    pub fn force(&mut self, rolls: &[u32]) {
        self.dice.force(rolls.iter().copied());
    }

    /// Applies an action on the table's dice, checking that the legal list, `explain`
    /// and `apply` agree (the same reasons when refused; the state unchanged) and that
    /// every forced roll fitted; returns its events or the refusal.
    ///
    /// # Panics
    /// When they disagree.
    pub fn act(&mut self, action: &R::Action) -> Result<Vec<R::Event>, Refusal> {
        let listed = self.legal().contains(action);
        let e = self.explain(action);
        assert_eq!(
            listed, e.legal,
            "legal list and explain disagree on {action:?}: {e:?}"
        );
        let mut state = self.state.clone();
        let mut dice = self.dice.clone();
        let mut events = Vec::new();
        let r = self
            .rules
            .apply(&mut state, action, &mut Ctx::new(&mut dice, &mut events));
        assert_eq!(
            r.is_ok(),
            listed,
            "apply and the legal list disagree on {action:?}: {r:?}"
        );
        match r {
            Ok(()) => {
                assert!(dice.take_fault().is_none(), "a forced roll did not fit");
                self.state = state;
                self.dice = dice;
                self.events.clone_from(&events);
                Ok(events)
            }
            Err(refusal) => {
                assert_eq!(state, self.state, "a refused action changed the state");
                assert_eq!(
                    refusal.reasons, e.reasons,
                    "apply and explain give different reasons"
                );
                Err(refusal)
            }
        }
    }

    /// [`Table::act`], asserting too that the action, when applied, rolled every forced
    /// result queued: one left over means it rolled fewer dice than the test thinks.
    ///
    /// # Panics
    /// As [`Table::act`], or when a forced result is left over.
    pub fn act_exactly(&mut self, action: &R::Action) -> Result<Vec<R::Event>, Refusal> {
        let r = self.act(action);
        if r.is_ok() {
            assert!(
                self.dice.forced().is_empty(),
                "forced dice left over after {action:?}: {:?}",
                self.dice.forced()
            );
        }
        r
    }

    /// Applies a legal action on fresh dice seeded [`Table::seed`] with these forced
    /// results, every one of which must be used; returns its events.
    ///
    /// # Panics
    /// When the action is refused, `explain` and the legal list disagree, or a forced
    /// result is left over.
    pub fn apply(&mut self, action: &R::Action, forced: &[u32]) -> Vec<R::Event> {
        assert!(
            self.is_legal(action),
            "{action:?} refused: {:?}",
            self.explain(action).reasons
        );
        let mut dice = Dice::new(self.seed);
        dice.force(forced.iter().copied());
        let mut events = Vec::new();
        if let Err(e) = self.rules.apply(
            &mut self.state,
            action,
            &mut Ctx::new(&mut dice, &mut events),
        ) {
            panic!("{action:?} refused: {e}");
        }
        assert!(
            dice.forced().is_empty(),
            "forced dice left over: {:?}",
            dice.forced()
        );
        self.events.clone_from(&events);
        events
    }

    /// The rule that refuses an action (applied through [`Table::act`]).
    ///
    /// # Panics
    /// When the action is legal.
    pub fn refused(&mut self, action: R::Action) -> String {
        match self.act(&action) {
            Ok(_) => panic!("{action:?} was accepted"),
            Err(r) => r.rule().to_owned(),
        }
    }

    /// What a unit may reach now.
    ///
    /// # Panics
    /// When it may not move.
    pub fn reachable(&self, name: &str) -> Vec<Reached> {
        self.rules
            .reachable(&self.state, self.id(name))
            .unwrap_or_else(|r| panic!("{name} cannot move: {r}"))
    }

    /// The cost for a unit to reach a hex now, if it can.
    pub fn reach_cost(&self, name: &str, hex: &str) -> Option<u32> {
        let h = self.hex(hex);
        self.reachable(name)
            .iter()
            .find(|r| r.hex == h)
            .map(|r| r.cost)
    }

    /// The hexes a unit may reach now, as sorted labels (none when it may not move).
    pub fn reach(&self, name: &str) -> Vec<String> {
        let mut v: Vec<String> = self
            .rules
            .reachable(&self.state, self.id(name))
            .unwrap_or_default()
            .into_iter()
            .map(|r| self.label(r.hex))
            .collect();
        v.sort();
        v
    }
}
