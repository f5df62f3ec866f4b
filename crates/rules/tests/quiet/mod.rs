//! The quiet context (`Ctx::quiet`) the searches' simulations apply their steps in: it
//! records no events and builds none of their words, and changes nothing else. Every
//! built-in scenario is played at random twice over, once recording and once quiet,
//! from the same dice: the states stay equal action after action, and the dice roll
//! as often.

use grognard_engine::scenario::Scenario;
use grognard_engine::{Ctx, Dice, Game, Ruleset, RulesetVisitor};

struct Alike {
    scenarios: Vec<Scenario>,
    actions: usize,
    rolls: u32,
    events: usize,
}

impl RulesetVisitor for Alike {
    fn visit<R: Ruleset>(&mut self) {
        for s in self.scenarios.iter().filter(|s| s.ruleset == R::NAME) {
            for seed in 1..=3 {
                let game = Game::<R>::new(s.clone(), Some(seed)).expect("valid");
                let rules = game.rules();
                let (mut loud, mut quiet) = (game.state().clone(), game.state().clone());
                let (mut loud_dice, mut quiet_dice) = (Dice::new(seed), Dice::new(seed));
                let mut pick = Dice::new(seed ^ 0x51);
                let (mut legal, mut events) = (Vec::new(), Vec::new());
                while rules.outcome(&loud).is_none() && self.actions < 200_000 {
                    legal.clear();
                    rules.legal_actions(&loud, &mut legal);
                    let n = u32::try_from(legal.len()).expect("few actions");
                    let a = &legal[usize::try_from(pick.next(n).0 - 1).expect("fits")];
                    events.clear();
                    let mut ctx = Ctx::new(&mut loud_dice, &mut events);
                    rules.apply_unchecked(&mut loud, a, &mut ctx);
                    let rolled = ctx.rolls();
                    self.events += events.len();
                    let mut none = Vec::new();
                    let mut ctx = Ctx::quiet(&mut quiet_dice, &mut none);
                    assert!(ctx.is_quiet());
                    rules.apply_unchecked(&mut quiet, a, &mut ctx);
                    assert_eq!(ctx.rolls(), rolled, "{}: {a:?}", s.id);
                    assert!(none.is_empty(), "{}: {a:?} recorded in quiet", s.id);
                    assert_eq!(loud, quiet, "{} seed {seed}: {a:?}", s.id);
                    self.actions += 1;
                    self.rolls += rolled;
                }
            }
        }
    }
}

#[test]
fn a_quiet_context_changes_nothing_but_the_events_in_every_builtin() {
    let registry = grognard_rules::registry();
    let scenarios = grognard_rules::builtin::SCENARIOS
        .iter()
        .map(|b| registry.load_scenario(b.path, b.text).expect("valid"))
        .collect();
    let mut alike = Alike {
        scenarios,
        actions: 0,
        rolls: 0,
        events: 0,
    };
    grognard_rules::visit_all(&mut alike);
    assert!(alike.actions > 1_000, "{} actions", alike.actions);
    assert!(alike.rolls > 100, "{} rolls", alike.rolls);
    assert!(alike.events > alike.actions, "{} events", alike.events);
}
