//! The generators behind [`crate::Dice`] (issue 19, item 6).
//!
//! - **SplitMix64** from the game's 64-bit seed: fast and portable, and predictable by
//!   anyone who learns or guesses the seed. The generator of every game saved before
//!   games named their generator, of the engine protocol's `load` unless asked
//!   otherwise, and of the computer's own simulations.
//! - **ChaCha20** keyed by 256 secret bits ([`DiceKey`]): a cryptographic stream, so
//!   that rolls seen tell nothing of the rolls to come. For games with a human seat
//!   (the server draws the key from the operating system and publishes a commitment to
//!   it). `rand_chacha` is value-stable: the same key gives the same rolls in every
//!   version of it.
//!
//! Both feed the same unbiased reduction to a die's faces ([`crate::Dice::next`]).

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};
use std::fmt;

/// 256 secret bits that key a game's ChaCha20 dice; written as 64 lowercase hex digits.
/// Its `Debug` does not show it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DiceKey(pub [u8; 32]);

impl DiceKey {
    /// The key as 64 lowercase hex digits.
    ///
    /// ```
    /// use grognard_engine::dice_stream::DiceKey;
    /// let k = DiceKey([0xab; 32]);
    /// assert_eq!(k.to_hex(), "ab".repeat(32));
    /// assert_eq!(k.to_hex().parse::<DiceKey>(), Ok(k));
    /// // Hex digits only: no sign, no space, whatever `from_str_radix` would take.
    /// assert!("+f".repeat(32).parse::<DiceKey>().is_err());
    /// ```
    #[must_use]
    pub fn to_hex(&self) -> String {
        use fmt::Write;
        self.0.iter().fold(String::with_capacity(64), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
    }
}

impl fmt::Debug for DiceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("DiceKey(..)")
    }
}

/// A dice key that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a dice key is 64 hex digits (256 bits); got {0} characters, or a character that is not a hex digit")]
pub struct BadKey(pub usize);

impl std::str::FromStr for DiceKey {
    type Err = BadKey;
    fn from_str(s: &str) -> Result<DiceKey, BadKey> {
        let bad = || BadKey(s.chars().count());
        if s.len() != 64 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let mut key = [0u8; 32];
        for (i, byte) in key.iter_mut().enumerate() {
            let pair = s.get(2 * i..2 * i + 2).ok_or_else(bad)?;
            *byte = u8::from_str_radix(pair, 16).map_err(|_| bad())?;
        }
        Ok(DiceKey(key))
    }
}

impl Serialize for DiceKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for DiceKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<DiceKey, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Which generator a game's dice use, as saves and replays name it:
/// `{"kind": "splitmix64"}` (from the game's seed) or
/// `{"kind": "chacha20", "key": "<64 hex digits>"}`. A save without it is SplitMix64,
/// the generator every game had before.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", deny_unknown_fields)]
pub enum Generator {
    /// SplitMix64 from the game's seed.
    #[default]
    #[serde(rename = "splitmix64")]
    SplitMix64,
    /// ChaCha20 (20 rounds, stream 0) keyed by 256 secret bits.
    #[serde(rename = "chacha20")]
    ChaCha20 {
        /// The key.
        key: DiceKey,
    },
}

impl Generator {
    /// True for SplitMix64, which a save leaves unwritten.
    #[must_use]
    pub fn is_splitmix(&self) -> bool {
        *self == Generator::SplitMix64
    }

    /// Its name as saves write it: `splitmix64` or `chacha20`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Generator::SplitMix64 => "splitmix64",
            Generator::ChaCha20 { .. } => "chacha20",
        }
    }
}

/// The stream of 64-bit words a [`crate::Dice`] reduces to faces.
#[derive(Clone, PartialEq, Eq)]
pub(crate) enum Stream {
    /// SplitMix64's state.
    SplitMix64(u64),
    /// A ChaCha20 stream (boxed: 300-odd bytes, which every fast `Dice` would carry).
    ChaCha20(Box<ChaCha20Rng>),
}

/// SplitMix64's next word from its state, which it advances.
#[inline]
pub(crate) fn split_mix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl fmt::Debug for Stream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stream::SplitMix64(s) => write!(f, "SplitMix64({s})"),
            Stream::ChaCha20(c) => write!(f, "ChaCha20(word {})", c.get_word_pos()),
        }
    }
}

impl Stream {
    pub(crate) fn chacha20(key: &DiceKey) -> Stream {
        Stream::ChaCha20(Box::new(ChaCha20Rng::from_seed(key.0)))
    }

    #[inline]
    pub(crate) fn next_u64(&mut self) -> u64 {
        match self {
            Stream::SplitMix64(state) => split_mix64(state),
            Stream::ChaCha20(rng) => rng.next_u64(),
        }
    }

    pub(crate) fn repr(&self) -> StreamRepr {
        match self {
            Stream::SplitMix64(s) => StreamRepr {
                state: Some(*s),
                chacha20: None,
            },
            Stream::ChaCha20(c) => StreamRepr {
                state: None,
                chacha20: Some(ChaChaRepr {
                    key: DiceKey(c.get_seed()),
                    word: c.get_word_pos().to_string(),
                }),
            },
        }
    }

    pub(crate) fn from_repr(r: StreamRepr) -> Result<Stream, String> {
        match (r.state, r.chacha20) {
            (Some(s), None) => Ok(Stream::SplitMix64(s)),
            (None, Some(c)) => {
                let word: u128 = c
                    .word
                    .parse()
                    .map_err(|e| format!("`word` of chacha20 dice: {e}"))?;
                let mut rng = ChaCha20Rng::from_seed(c.key.0);
                rng.set_word_pos(word);
                Ok(Stream::ChaCha20(Box::new(rng)))
            }
            _ => Err("dice have exactly one of `state` (splitmix64) or `chacha20`".into()),
        }
    }
}

/// A stream as JSON: SplitMix64's `state` as before, or `chacha20` with its key and
/// the position in its stream (a decimal string: it may pass 2^53).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct StreamRepr {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) state: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) chacha20: Option<ChaChaRepr>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ChaChaRepr {
    key: DiceKey,
    word: String,
}
