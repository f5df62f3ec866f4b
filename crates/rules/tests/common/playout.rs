//! Random playouts and the checks every ruleset makes on the states they meet: the legal
//! list is exactly the candidate actions `explain` accepts (one gate per rule), and a
//! listed action applies while a refused one changes nothing.

use grognard_engine::dice_pool::gcd;
use grognard_engine::{Ctx, Dice, Game, Ruleset, UnitId};
use grognard_hex::Hex;

/// Plays `game` at random (picking with `pick`) until it ends or `max` actions, asserting
/// that there is always something to do and that every picked action applies.
/// `check(game, legal, n, pick)` sees every state before its action, and the last one
/// with no legal list; `after(game, action)` sees each action once applied. Returns
/// the number of actions played.
///
/// # Panics
/// At a dead end or a refused legal action.
pub fn play<R: Ruleset>(
    game: &mut Game<R>,
    pick: &mut Dice,
    max: usize,
    mut check: impl FnMut(&Game<R>, &[R::Action], usize, &mut Dice),
    mut after: impl FnMut(&Game<R>, &R::Action),
) -> usize {
    let mut n = 0;
    while game.rules().outcome(game.state()).is_none() && n < max {
        let legal = game.legal_actions();
        assert!(!legal.is_empty(), "dead end at action {n}");
        check(game, &legal, n, pick);
        let i = (pick.next(u32::try_from(legal.len()).unwrap()).0 - 1) as usize;
        let action = legal[i].clone();
        if let Err(e) = game.apply(action.clone()) {
            panic!("action {n}: legal {action:?} refused: {e}");
        }
        after(game, &action);
        n += 1;
    }
    check(game, &[], n, pick);
    n
}

/// Asserts that the legal list holds no action twice, only candidates, and exactly the
/// candidates `explain` accepts, as `allows` does; returns how many candidates were
/// judged.
///
/// # Panics
/// When they differ.
pub fn assert_gates<R: Ruleset>(
    rules: &R,
    state: &R::State,
    candidates: &[R::Action],
    at: &str,
) -> usize {
    let legal = super::legal(rules, state);
    for (i, a) in legal.iter().enumerate() {
        assert!(candidates.contains(a), "{at}: listed {a:?} is no candidate");
        assert!(!legal[..i].contains(a), "{at}: {a:?} listed twice");
    }
    for a in candidates {
        let e = rules.explain(state, a);
        assert_eq!(
            e.legal,
            legal.contains(a),
            "{at}: {a:?}: explain says {:?}",
            e.reasons
        );
        assert_eq!(
            rules.allows(state, a),
            e.legal,
            "{at}: {a:?}: allows and explain differ"
        );
    }
    candidates.len()
}

/// Every unit of a ruleset's scenario and every hex of its map, the raw material of
/// the candidate actions [`assert_gates`] judges.
pub fn units_and_hexes<R: Ruleset>(rules: &R) -> (Vec<UnitId>, Vec<Hex>) {
    let names = rules.names();
    let units = (0..names.unit_count())
        .map(|i| UnitId(u16::try_from(i).unwrap()))
        .collect();
    let map = names.map();
    (units, (0..map.len()).map(|i| map.hex_at(i)).collect())
}

/// What a sample of candidate actions is made of, rolled on `dice`: `(unit, target, hex,
/// near)`, a random unit, a random target, a random hex of the map and a random neighbour
/// of the unit (the random hex when the unit is off the map), `hex_of` giving where a
/// unit is.
pub fn sample<R: Ruleset>(
    rules: &R,
    dice: &mut Dice,
    hex_of: impl Fn(UnitId) -> Option<Hex>,
) -> (UnitId, UnitId, Hex, Hex) {
    let n = u32::try_from(rules.names().unit_count()).unwrap();
    let mut roll = |k: u32| dice.next(k).0 - 1;
    let unit = UnitId(u16::try_from(roll(n)).unwrap());
    let target = UnitId(u16::try_from(roll(n)).unwrap());
    let map = rules.names().map();
    let hex = map.hex_at(roll(u32::try_from(map.len()).unwrap()) as usize);
    let near = hex_of(unit).map_or(hex, |h| h.neighbors()[roll(6) as usize]);
    (unit, target, hex, near)
}

/// [`assert_gates`] on fixed positions, each `(name, seed, actions, _)` being the game
/// `position(seed, actions)`.
///
/// # Panics
/// As [`assert_gates`].
pub fn assert_gates_at<R: Ruleset>(
    positions: &[(&str, u64, usize, u32)],
    position: impl Fn(u64, usize) -> Game<R>,
    candidates: impl Fn(&R, &R::State) -> Vec<R::Action>,
) {
    for &(name, seed, n, _) in positions {
        let g = position(seed, n);
        let (rules, state) = (g.rules(), g.state());
        assert_gates(rules, state, &candidates(rules, state), name);
    }
}

/// [`assert_gates`] on the states of random games: one from `start(seed)` for each seed,
/// picking with dice seeded `seed ^ salt`, checked at every `every`-th action and at the
/// end; returns how many states were checked before the ends.
///
/// # Panics
/// As [`assert_gates`] and [`play`].
pub fn assert_gates_in_play<R: Ruleset>(
    seeds: std::ops::Range<u64>,
    start: impl Fn(u64) -> Game<R>,
    (salt, every): (u64, usize),
    candidates: impl Fn(&R, &R::State) -> Vec<R::Action>,
) -> usize {
    let mut states = 0;
    for seed in seeds {
        let mut g = start(seed);
        let mut pick = Dice::new(seed ^ salt);
        let check = |g: &Game<R>, legal: &[R::Action], n: usize, _: &mut Dice| {
            let (rules, state) = (g.rules(), g.state());
            if legal.is_empty() {
                let at = format!("seed {seed}, the end");
                assert_gates(rules, state, &candidates(rules, state), &at);
            } else if n % every == 0 {
                let at = format!("seed {seed}, action {n}");
                assert_gates(rules, state, &candidates(rules, state), &at);
                states += 1;
            }
        };
        play(&mut g, &mut pick, usize::MAX, check, |_, _| {});
    }
    states
}

/// Asserts, for a sample of candidates (legal or not), that `explain` agrees with the
/// legal list and gives a reason whose rule starts with `prefix` (for refusals, or for
/// every action when `all_cite`), and that `apply` takes a listed action and refuses
/// another without changing the state.
///
/// # Panics
/// When they disagree.
pub fn assert_candidates<R: Ruleset>(
    rules: &R,
    state: &R::State,
    legal: &[R::Action],
    candidates: &[R::Action],
    (prefix, all_cite): (&str, bool),
    at: &str,
) {
    for a in candidates {
        let e = rules.explain(state, a);
        let listed = legal.contains(a);
        assert_eq!(e.legal, listed, "{at}: {a:?}: {:?}", e.reasons);
        assert!(!e.reasons.is_empty(), "{at}: {a:?} without a reason");
        if all_cite || !e.legal {
            assert!(
                e.reasons[0].rule.starts_with(prefix),
                "{at}: {a:?} without a rule ID"
            );
        }
        let mut next = state.clone();
        let (mut d, mut ev) = (Dice::new(0), Vec::new());
        let r = rules.apply(&mut next, a, &mut Ctx::new(&mut d, &mut ev));
        assert_eq!(r.is_ok(), listed, "{at}: {a:?}: apply says {r:?}");
        if r.is_err() {
            assert!(&next == state, "{at}: a refused action changed the state");
        }
    }
}

/// Asserts that `explain` accepts every listed action, and that the preview of each one
/// `previewed` picks is an exact distribution: its chances add up to 1.
///
/// # Panics
/// When one is refused or a preview does not add up.
pub fn assert_listed<R: Ruleset>(
    rules: &R,
    state: &R::State,
    legal: &[R::Action],
    previewed: impl Fn(&R::Action) -> bool,
    at: &str,
) {
    for a in legal {
        let e = rules.explain(state, a);
        assert!(
            e.legal,
            "{at}: listed {a:?} explained illegal: {:?}",
            e.reasons
        );
        if previewed(a) {
            let p = rules.preview(state, a).unwrap();
            let lcm = p
                .outcomes
                .iter()
                .fold(1u64, |l, c| l / gcd(l, c.den) * c.den);
            let total: u64 = p.outcomes.iter().map(|c| c.num * (lcm / c.den)).sum();
            assert_eq!(total, lcm, "{at}: {a:?} preview does not add up");
        }
    }
}

/// Asserts that a game saved and loaded again through the registry has the same state.
///
/// # Panics
/// When it differs.
pub fn assert_replays<R: Ruleset>(game: &Game<R>, at: &str) {
    let again = grognard_rules::registry().load_game(&game.save()).unwrap();
    let names = game.rules().names();
    let original = names.scope(|| serde_json::to_value(game.state()).unwrap());
    assert_eq!(again.state(), original, "{at}: replay differs");
}

/// Asserts that a random game of `n` actions (seed `seed`) has ended and, when `replay`,
/// that it replays ([`assert_replays`]).
///
/// # Panics
/// When it has not ended or replays to another state.
pub fn assert_ended<R: Ruleset>(game: &Game<R>, n: usize, seed: u64, replay: bool) {
    assert!(
        game.rules().outcome(game.state()).is_some(),
        "seed {seed}: unfinished after {n}"
    );
    if replay {
        assert_replays(game, &format!("seed {seed}"));
    }
}

/// The two gate tests of a ruleset whose golden positions are games of random play (the
/// `POSITIONS` and `position` of its `golden.rs`) and whose gates module has the
/// `candidates` of a state: [`assert_gates_at`] on those positions, and
/// [`assert_gates_in_play`] on games of its built-in scenario (`harness::builtin`), one
/// per seed of `seeds`, checked every `every`-th action, 200 states at least.
macro_rules! gate_tests {
    ($rules:ty, $seeds:expr, $every:expr) => {
        #[test]
        fn legal_list_is_explain_accepted_candidates_on_golden_positions() {
            $crate::common::playout::assert_gates_at(&POSITIONS, position, candidates);
        }

        #[test]
        fn legal_list_is_explain_accepted_candidates_on_random_playout_states() {
            let start = |seed| Game::<$rules>::new(harness::builtin(), Some(seed)).unwrap();
            let states = $crate::common::playout::assert_gates_in_play(
                $seeds,
                start,
                (0x6A7E, $every),
                candidates,
            );
            assert!(states >= 200, "only {states} states checked");
        }
    };
}
pub(crate) use gate_tests;
