//! The `impl Ruleset` items a ruleset writes the same way as every other, after the
//! skeleton of `docs/ADDING-A-RULESET.md`: `mod.rs` holds the types, `setup.rs` binds a
//! scenario, `turn.rs` sequences and `view.rs` shows.

/// Writes, inside an `impl Ruleset`, each named item as the skeleton delegates it:
///
/// | item | written as |
/// |---|---|
/// | `types` | the `State`, `Action`, `Event` and `NAME` of the ruleset's `mod.rs` |
/// | `new` | `setup::build` |
/// | `initial_state` | `setup::initial_state` |
/// | `names` | the rules' `names` |
/// | `to_act` | `to_act` and `acting`, both from `turn::acting` |
/// | `legal_actions` | `turn::legal_actions` |
/// | `explain` | `turn::check`, its reasons or refusal as the explanation |
/// | `apply_unchecked` | `turn::apply` |
/// | `outcome` | the state's `outcome` |
/// | `view` | `view::view`, and `view_text` as `view::view_text` |
/// | `public_views` | `views_are_public` true: a ruleset that hides nothing from any seat |
/// | `evaluation` | `evaluate` as `ai::score`, `evaluation_terms` as `ai::terms` |
/// | `turn` | the state's `turn` |
/// | `position` | `position::write` and `position::read` (issue 19, item 4) |
///
/// The paths are the calling ruleset's own (`setup`, `turn` and `view` are its files);
/// an item a ruleset does otherwise is left out of the list and written in full beside it.
///
/// ```text
/// impl Ruleset for Jomini {
///     skeleton! { types, new, names, to_act, legal_actions, apply_unchecked, outcome, turn }
///     // ... the items of its own
/// }
/// ```
macro_rules! skeleton {
    ($($item:ident),+ $(,)?) => {
        $($crate::common::skeleton::skeleton!(@ $item);)+
    };
    (@ types) => {
        type State = State;
        type Action = Action;
        type Event = Event;

        const NAME: &'static str = NAME;
    };
    (@ new) => {
        fn new(
            scenario: &grognard_engine::scenario::Scenario,
        ) -> Result<Self, grognard_engine::scenario::Problems> {
            setup::build(scenario)
        }
    };
    (@ position) => {
        fn write_position(
            &self,
            scenario: &grognard_engine::scenario::Scenario,
            state: &Self::State,
        ) -> toml::Table {
            position::write(self, scenario, state)
        }
        fn read_position(
            &self,
            scenario: &grognard_engine::scenario::Scenario,
            raw: &grognard_engine::scenario::RawTable,
        ) -> Result<Self::State, grognard_engine::scenario::Problems> {
            position::read(self, scenario, raw)
        }
    };
    (@ initial_state) => {
        fn initial_state(&self) -> Self::State {
            setup::initial_state(self)
        }
    };
    (@ names) => {
        fn names(&self) -> &grognard_engine::Names {
            &self.names
        }
    };
    (@ to_act) => {
        fn to_act(&self, state: &Self::State) -> Option<grognard_engine::Decision> {
            turn::acting(self, state).map(grognard_engine::Acting::decision)
        }

        fn acting(&self, state: &Self::State) -> Option<grognard_engine::Acting<'_>> {
            turn::acting(self, state)
        }
    };
    (@ legal_actions) => {
        // Inlined, as `apply_unchecked` and `outcome` are: a playout or a search calls
        // each once an action, from another crate.
        #[inline]
        fn legal_actions(&self, state: &Self::State, out: &mut Vec<Self::Action>) {
            turn::legal_actions(self, state, out);
        }
    };
    (@ explain) => {
        fn explain(
            &self,
            state: &Self::State,
            action: &Self::Action,
        ) -> grognard_engine::Explanation {
            grognard_engine::Explanation::from(turn::check(self, state, action))
        }
    };
    (@ apply_unchecked) => {
        #[inline]
        fn apply_unchecked(
            &self,
            state: &mut Self::State,
            action: &Self::Action,
            ctx: &mut grognard_engine::Ctx<'_, Self::Event>,
        ) {
            turn::apply(self, state, action, ctx);
        }
    };
    (@ outcome) => {
        #[inline]
        fn outcome(&self, state: &Self::State) -> Option<grognard_engine::Outcome> {
            state.outcome.clone()
        }
    };
    (@ view) => {
        fn view(&self, state: &Self::State, seat: &grognard_engine::Seat) -> serde_json::Value {
            view::view(self, state, seat)
        }

        fn view_text(&self, state: &Self::State, seat: &grognard_engine::Seat) -> String {
            view::view_text(self, state, seat)
        }
    };
    (@ public_views) => {
        fn views_are_public(&self) -> bool {
            true
        }
    };
    (@ evaluation) => {
        fn evaluate(&self, state: &Self::State, side: &str) -> f64 {
            ai::score(self, state, side)
        }

        fn evaluation_terms(
            &self,
            state: &Self::State,
            side: &str,
            out: &mut Vec<grognard_engine::Term>,
        ) {
            ai::terms(self, state, side, out);
        }
    };
    (@ turn) => {
        fn turn(&self, state: &Self::State) -> u32 {
            state.turn
        }
    };
}

pub(crate) use skeleton;
