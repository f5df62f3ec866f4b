//! Seat tokens: 128 random bits written as 32 hex digits. The server keeps only their
//! SHA-256, so a copy of the database does not let anyone play a seat, and compares
//! hashes in constant time.

use grognard_engine::dice_stream::{DiceKey, Generator};
use sha2::{Digest, Sha256};

/// A fresh token: 128 bits from the operating system's generator, as lowercase hex.
///
/// # Panics
/// When the operating system has no random source.
#[must_use]
pub fn fresh() -> String {
    hex(&random_bytes::<16>())
}

/// A fresh game id: 64 random bits as lowercase hex (public, unlike tokens).
#[must_use]
pub fn game_id() -> String {
    hex(&random_bytes::<8>())
}

/// A random seed for a game's dice: 64 bits from the operating system's generator.
#[must_use]
pub fn seed() -> u64 {
    u64::from_le_bytes(random_bytes::<8>())
}

/// The commitment a game publishes to its seed: the lowercase hex SHA-256 of the
/// ASCII text `grognard-seed/1:{game_id}:{seed}`, the seed in decimal. Anyone can
/// check it once the seed is revealed:
/// `printf 'grognard-seed/1:%s:%s' GAME_ID SEED | sha256sum`. The game id inside
/// binds the commitment to its game, so one game's seed cannot be shown for another.
#[must_use]
pub fn commitment(game_id: &str, seed: u64) -> String {
    hex(&Sha256::digest(
        format!("grognard-seed/1:{game_id}:{seed}").as_bytes(),
    ))
}

/// A fresh key for a game's ChaCha20 dice: 256 bits from the operating system's
/// generator (issue 19, item 6).
#[must_use]
pub fn dice_key() -> DiceKey {
    DiceKey(random_bytes::<32>())
}

/// The commitment a game publishes to its dice. For SplitMix64 dice (games from before
/// issue 19, and games whose seed was asked for) it is [`commitment`] to the seed. For
/// ChaCha20 dice it covers the whole key: the lowercase hex SHA-256 of the ASCII text
/// `grognard-dice/2:{game_id}:{seed}:chacha20:{key}`, the seed in decimal and the key
/// as its 64 lowercase hex digits:
/// `printf 'grognard-dice/2:%s:%s:chacha20:%s' GAME_ID SEED KEY | sha256sum`.
#[must_use]
pub fn dice_commitment(game_id: &str, seed: u64, generator: &Generator) -> String {
    match generator {
        Generator::SplitMix64 => commitment(game_id, seed),
        Generator::ChaCha20 { key } => hex(&Sha256::digest(
            format!("grognard-dice/2:{game_id}:{seed}:chacha20:{}", key.to_hex()).as_bytes(),
        )),
    }
}

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes
}

/// The lowercase hex SHA-256 of a token, as stored.
#[must_use]
pub fn digest(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Whether `token` hashes to `stored`, in time that does not depend on where they
/// differ.
#[must_use]
pub fn matches(token: &str, stored: &str) -> bool {
    let given = digest(token);
    let (a, b) = (given.as_bytes(), stored.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// What is wrong with an `Authorization` header.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum AuthorizationError {
    /// A bare value, as if it were the token.
    #[error("the Authorization header has no scheme: send `Authorization: Bearer TOKEN`")]
    NoScheme,
    /// A scheme other than `Bearer`.
    #[error("the Authorization scheme `{0}` is not accepted: send `Authorization: Bearer TOKEN`")]
    Scheme(String),
    /// `Bearer` and nothing after it.
    #[error("the Authorization header names the Bearer scheme but no token: send `Authorization: Bearer TOKEN`")]
    NoToken,
}

/// The token of an `Authorization` header: `Bearer TOKEN`, the scheme in any case
/// (RFC 9110, 11.1), with any spaces around the token.
///
/// # Errors
/// The value has no scheme, another scheme, or no token.
pub fn from_authorization(value: &str) -> Result<&str, AuthorizationError> {
    let value = value.trim();
    let Some((scheme, token)) = value.split_once([' ', '\t']) else {
        return Err(if value.eq_ignore_ascii_case("bearer") {
            AuthorizationError::NoToken
        } else {
            AuthorizationError::NoScheme
        });
    };
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(AuthorizationError::Scheme(
            scheme.chars().take(32).collect(),
        ));
    }
    match token.trim() {
        "" => Err(AuthorizationError::NoToken),
        token => Ok(token),
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_32_hex_digits_and_differ() {
        let (a, b) = (fresh(), fresh());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn the_commitment_is_the_sha256_of_its_documented_text() {
        // printf 'grognard-seed/1:fc1c3ca6191e1d4f:42' | sha256sum
        assert_eq!(
            commitment("fc1c3ca6191e1d4f", 42),
            "7f8341c6dd79df2df2dd43f75f97017703ba79bb7db75fcc388d3c083d7cc0dc"
        );
        assert_ne!(
            commitment("fc1c3ca6191e1d4f", 43),
            commitment("fc1c3ca6191e1d4f", 42)
        );
        assert_ne!(
            commitment("fc1c3ca6191e1d4e", 42),
            commitment("fc1c3ca6191e1d4f", 42)
        );
    }

    #[test]
    fn the_bearer_scheme_is_read_in_any_case_and_a_bare_token_is_refused() {
        for v in ["Bearer abc", "bearer abc", "BEARER  abc ", "BeArEr\tabc"] {
            assert_eq!(from_authorization(v), Ok("abc"), "{v}");
        }
        assert_eq!(from_authorization("abc"), Err(AuthorizationError::NoScheme));
        assert_eq!(from_authorization(""), Err(AuthorizationError::NoScheme));
        assert_eq!(
            from_authorization("Bearer"),
            Err(AuthorizationError::NoToken)
        );
        assert_eq!(
            from_authorization("Bearer  "),
            Err(AuthorizationError::NoToken)
        );
        assert_eq!(
            from_authorization("Basic YWJj"),
            Err(AuthorizationError::Scheme("Basic".into()))
        );
    }

    #[test]
    fn only_the_token_matches_its_digest() {
        let t = fresh();
        let d = digest(&t);
        assert!(matches(&t, &d));
        assert!(!matches(&fresh(), &d));
        assert!(!matches("", &d));
        assert_eq!(
            digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
