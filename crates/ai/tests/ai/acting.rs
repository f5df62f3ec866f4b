//! `Ruleset::acting`, the decision lent rather than built, and `PhaseKey::holds`, the
//! phase compared without building its key: the searches ask both at every step, and
//! they must answer as `to_act` and `PhaseKey::of` do.

use super::builtins;
use grognard_ai::plans::PhaseKey;
use grognard_engine::scenario::Scenario;
use grognard_engine::{Acting, Ctx, Dice, Game, Ruleset, RulesetVisitor};

struct Agree {
    scenarios: Vec<Scenario>,
    states: usize,
}

impl RulesetVisitor for Agree {
    fn visit<R: Ruleset>(&mut self) {
        for s in self.scenarios.iter().filter(|s| s.ruleset == R::NAME) {
            let game = Game::<R>::new(s.clone(), Some(3)).expect("valid");
            let rules = game.rules();
            let mut state = game.state().clone();
            let mut dice = Dice::new(11);
            let mut pick = Dice::new(12);
            let (mut legal, mut events) = (Vec::new(), Vec::new());
            let mut before = PhaseKey::of(rules, &state);
            for _ in 0..3_000 {
                let lent = rules.acting(&state).map(Acting::decision);
                assert_eq!(lent, rules.to_act(&state), "{}", s.id);
                let key = PhaseKey::of(rules, &state);
                assert!(PhaseKey::holds(key.as_ref(), rules, &state), "{}", s.id);
                assert_eq!(
                    PhaseKey::holds(before.as_ref(), rules, &state),
                    before == key,
                    "{}",
                    s.id
                );
                before = key;
                self.states += 1;
                legal.clear();
                rules.legal_actions(&state, &mut legal);
                if legal.is_empty() {
                    break;
                }
                let n = u32::try_from(legal.len()).expect("few actions");
                let a = &legal[usize::try_from(pick.next(n).0 - 1).expect("fits")];
                events.clear();
                rules.apply_unchecked(&mut state, a, &mut Ctx::new(&mut dice, &mut events));
            }
        }
    }
}

#[test]
fn acting_and_phase_keys_answer_as_to_act_in_every_builtin() {
    let mut agree = Agree {
        scenarios: builtins(),
        states: 0,
    };
    grognard_rules::visit_all(&mut agree);
    assert!(agree.states > 2_000, "{} states", agree.states);
}
