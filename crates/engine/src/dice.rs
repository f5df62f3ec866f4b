//! Deterministic, portable dice.
//!
//! The generator is SplitMix64 from a 64-bit seed: a few lines that give the same
//! sequence on every platform and every version of Rust, unlike `StdRng`, whose
//! algorithm may change; or, for games with a human seat, ChaCha20 keyed by 256 secret
//! bits (see [`crate::dice_stream`]). Both go through the same unbiased reduction.
//! Every roll goes through [`Ctx::roll`], which records it as an event; forced
//! results ([`Dice::force`]) are taken before the generator and marked as forced.

use crate::dice_stream::{self, DiceKey, Generator, Stream, StreamRepr};
use crate::Text;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// One die roll, as recorded in the event log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Roll {
    /// Number of faces (a d6 has 6; a 1-to-9 morale number has 9).
    pub sides: u32,
    /// The face rolled, 1 to `sides`.
    pub value: u32,
    /// True when the value came from the forced queue rather than the generator.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forced: bool,
    /// What the roll was for, in the rulebook's words, with the rule ID: a string written
    /// in the rules, or shared by the dice of one pool, costs no copy a roll.
    pub purpose: Text,
}

impl Roll {
    /// The roll in a short English sentence: its purpose without the rule ID it
    /// opens with (`MP-CMB-18: combat die, ...`), then the face.
    ///
    /// ```
    /// use grognard_engine::Roll;
    /// let r = Roll { sides: 6, value: 4, forced: false, purpose: "MP-CMB-18: combat die".into() };
    /// assert_eq!(r.text(), "Combat die: rolled 4 on a d6.");
    /// ```
    #[must_use]
    pub fn text(&self) -> String {
        let purpose = match self.purpose.split_once(": ") {
            Some((rule, rest)) if is_rule_id(rule) => rest,
            _ => self.purpose.as_str(),
        };
        let mut chars = purpose.chars();
        let purpose: String = match chars.next() {
            Some(c) => c.to_uppercase().chain(chars).collect(),
            None => "A die".into(),
        };
        let forced = if self.forced { " (forced)" } else { "" };
        format!(
            "{purpose}: rolled {}{forced} on a d{}.",
            self.value, self.sides
        )
    }
}

/// Whether `s` reads as a rule ID: capital letters, digits and dashes, e.g. `SK-MEL-3`.
fn is_rule_id(s: &str) -> bool {
    !s.is_empty()
        && s.contains('-')
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
}

/// A seeded generator plus a queue of forced results.
///
/// ```
/// use grognard_engine::Dice;
/// let mut a = Dice::new(1805);
/// let mut b = Dice::new(1805);
/// let rolls_a: Vec<u32> = (0..10).map(|_| a.next(6).0).collect();
/// let rolls_b: Vec<u32> = (0..10).map(|_| b.next(6).0).collect();
/// assert_eq!(rolls_a, rolls_b);
/// assert!(rolls_a.iter().all(|&v| (1..=6).contains(&v)));
/// a.force([4]);
/// assert_eq!(a.next(6), (4, true));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "DiceRepr", into = "DiceRepr")]
pub struct Dice {
    stream: Stream,
    forced: VecDeque<u32>,
    fault: Option<String>,
}

/// Dice as JSON: the stream's fields (SplitMix64's `state` as before) and the forced
/// queue.
#[derive(Clone, Serialize, Deserialize)]
struct DiceRepr {
    #[serde(flatten)]
    stream: StreamRepr,
    #[serde(default, skip_serializing_if = "VecDeque::is_empty")]
    forced: VecDeque<u32>,
}

impl From<Dice> for DiceRepr {
    fn from(d: Dice) -> DiceRepr {
        DiceRepr {
            stream: d.stream.repr(),
            forced: d.forced,
        }
    }
}

impl TryFrom<DiceRepr> for Dice {
    type Error = String;
    fn try_from(r: DiceRepr) -> Result<Dice, String> {
        Ok(Dice {
            stream: Stream::from_repr(r.stream)?,
            forced: r.forced,
            fault: None,
        })
    }
}

/// The face of a die with `sides` faces (at least 1) that word `x` gives, or `None`
/// for a word to draw again.
///
/// Rejection sampling keeps every face equally likely: a draw in the incomplete run of
/// `n` values at the top, at or above `u64::MAX - u64::MAX % n`, is drawn again. That run
/// starts above `u64::MAX - n`, so the bound (a division) is worked out only for a draw
/// beyond it.
#[inline]
fn face(x: u64, sides: u32) -> Option<u32> {
    let n = u64::from(sides);
    if x <= u64::MAX - n || x < u64::MAX - (u64::MAX % n) {
        #[expect(clippy::cast_possible_truncation, reason = "x % n < sides")]
        return Some((x % n) as u32 + 1);
    }
    None
}

impl Dice {
    /// A SplitMix64 generator from a seed: the fast one, for games without a human
    /// seat and for simulations.
    #[must_use]
    pub fn new(seed: u64) -> Dice {
        Dice {
            stream: Stream::SplitMix64(seed),
            forced: VecDeque::new(),
            fault: None,
        }
    }

    /// A ChaCha20 generator keyed by 256 secret bits.
    ///
    /// ```
    /// use grognard_engine::Dice;
    /// use grognard_engine::dice_stream::DiceKey;
    /// let mut a = Dice::chacha20(&DiceKey([7; 32]));
    /// let mut b = Dice::chacha20(&DiceKey([7; 32]));
    /// let rolls: Vec<u32> = (0..20).map(|_| a.next(6).0).collect();
    /// assert_eq!(rolls, (0..20).map(|_| b.next(6).0).collect::<Vec<_>>());
    /// assert!(rolls.iter().all(|&v| (1..=6).contains(&v)));
    /// ```
    #[must_use]
    pub fn chacha20(key: &DiceKey) -> Dice {
        Dice {
            stream: Stream::chacha20(key),
            forced: VecDeque::new(),
            fault: None,
        }
    }

    /// The dice a game with this generator starts with (`seed` is SplitMix64's).
    #[must_use]
    pub fn from_generator(generator: &Generator, seed: u64) -> Dice {
        match generator {
            Generator::SplitMix64 => Dice::new(seed),
            Generator::ChaCha20 { key } => Dice::chacha20(key),
        }
    }

    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.stream.next_u64()
    }

    /// The next face of a die with `sides` faces, and whether it was forced.
    ///
    /// A forced value that is not a face of this die (0, or above `sides`) is
    /// recorded as a fault, clamped, and makes [`crate::Game::apply`] refuse the
    /// action and change nothing.
    ///
    /// # Panics
    /// When `sides` is 0.
    #[inline]
    pub fn next(&mut self, sides: u32) -> (u32, bool) {
        assert!(sides > 0, "a die has at least one face");
        // The common roll, SplitMix64's with nothing forced, worked out without a call
        // (and so without the registers the other ways would save); the others, and
        // the rare second draw, by `next_other`. The same words and faces either way.
        if self.forced.is_empty() {
            if let Stream::SplitMix64(state) = &mut self.stream {
                if let Some(face) = face(dice_stream::split_mix64(state), sides) {
                    return (face, false);
                }
            }
        }
        self.next_other(sides)
    }

    /// [`Dice::next`] the general way: a forced value, or a draw from either stream
    /// until one falls within the die's faces.
    #[inline(never)]
    fn next_other(&mut self, sides: u32) -> (u32, bool) {
        if let Some(v) = self.forced.pop_front() {
            if v == 0 || v > sides {
                self.fault
                    .get_or_insert_with(|| format!("forced roll {v} is not a face of a d{sides}"));
                return (v.clamp(1, sides), true);
            }
            return (v, true);
        }
        loop {
            if let Some(face) = face(self.next_u64(), sides) {
                return (face, false);
            }
        }
    }

    /// Queues results that the next rolls take instead of the generator's.
    pub fn force(&mut self, values: impl IntoIterator<Item = u32>) {
        self.forced.extend(values);
    }

    /// The forced results not yet used.
    #[must_use]
    pub fn forced(&self) -> Vec<u32> {
        self.forced.iter().copied().collect()
    }

    /// Drops the forced results not yet used.
    pub fn clear_forced(&mut self) {
        self.forced.clear();
    }

    /// Takes the fault left by a forced value that did not fit its die.
    pub fn take_fault(&mut self) -> Option<String> {
        self.fault.take()
    }
}

/// What a ruleset's `apply` may touch besides the state: the dice and the event list.
pub struct Ctx<'a, E> {
    dice: &'a mut Dice,
    events: &'a mut Vec<E>,
    rolls: u32,
    forced_used: Vec<u32>,
    quiet: bool,
}

impl<'a, E: From<Roll>> Ctx<'a, E> {
    /// A context over the given dice and event list.
    pub fn new(dice: &'a mut Dice, events: &'a mut Vec<E>) -> Ctx<'a, E> {
        Ctx {
            dice,
            events,
            rolls: 0,
            forced_used: Vec::new(),
            quiet: false,
        }
    }

    /// A context that records no events: for the searches' simulations, which read
    /// none. The dice roll and are counted as in [`Ctx::new`]; what a ruleset writes
    /// through [`Ctx::emit_with`] and [`Ctx::roll_for`] is not even built.
    pub fn quiet(dice: &'a mut Dice, events: &'a mut Vec<E>) -> Ctx<'a, E> {
        Ctx {
            quiet: true,
            ..Ctx::new(dice, events)
        }
    }

    /// Whether this context records no events ([`Ctx::quiet`]): a ruleset may then
    /// leave out the words that only its events would carry.
    #[must_use]
    pub fn is_quiet(&self) -> bool {
        self.quiet
    }

    /// Rolls a die of `sides` faces for `purpose` (cite the rule ID), records the roll
    /// as an event (not in a [`Ctx::quiet`] context) and returns the face. A purpose
    /// written in the rules (`&'static str`) is recorded without a copy.
    pub fn roll(&mut self, sides: u32, purpose: impl Into<Text>) -> u32 {
        self.roll_text(sides, || purpose.into())
    }

    /// [`Ctx::roll`] with its purpose written only when the roll is recorded (not in a
    /// [`Ctx::quiet`] context): for a purpose that is formatted.
    pub fn roll_for(&mut self, sides: u32, purpose: impl FnOnce() -> String) -> u32 {
        self.roll_text(sides, || Text::owned(purpose()))
    }

    /// [`Ctx::roll_for`] with the purpose's [`Text`] as it is: for one shared between
    /// the dice of a pool.
    pub(crate) fn roll_text(&mut self, sides: u32, purpose: impl FnOnce() -> Text) -> u32 {
        let (value, forced) = self.dice.next(sides);
        self.rolls += 1;
        if forced {
            self.forced_used.push(value);
        }
        if !self.quiet {
            self.events.push(E::from(Roll {
                sides,
                value,
                forced,
                purpose: purpose(),
            }));
        }
        value
    }

    /// Records an event (not in a [`Ctx::quiet`] context).
    #[inline(always)]
    pub fn emit(&mut self, event: E) {
        if !self.quiet {
            self.events.push(event);
        }
    }

    /// Records the event `event` builds, built only when it is recorded (not in a
    /// [`Ctx::quiet`] context): what a ruleset's events with words or lists use.
    /// Inlined, as `emit` is: in a quiet context the call is all it would cost.
    #[inline(always)]
    pub fn emit_with(&mut self, event: impl FnOnce() -> E) {
        if !self.quiet {
            self.events.push(event());
        }
    }

    /// How many dice were rolled through this context.
    #[must_use]
    pub fn rolls(&self) -> u32 {
        self.rolls
    }

    /// The forced values used, in order.
    #[must_use]
    pub fn forced_used(&self) -> &[u32] {
        &self.forced_used
    }

    /// The events so far.
    #[must_use]
    pub fn events(&self) -> &[E] {
        self.events
    }
}
