//! Passwords: hashed with Argon2id (RFC 9106) and a random salt, stored as the PHC
//! string; the password itself is never stored nor written anywhere.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

/// The shortest password taken.
pub const MIN_LEN: usize = 8;
/// The longest password taken, in bytes: Argon2 hashes any length, but a megabyte
/// of password is a way to make the server work.
pub const MAX_LEN: usize = 256;

/// What is wrong with a password, or with hashing it.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    /// Too short or too long.
    #[error("the password must be {MIN_LEN} to {MAX_LEN} bytes long; it is {0}")]
    Length(usize),
    /// The hasher failed.
    #[error("the password cannot be hashed: {0}")]
    Hash(String),
}

/// Checks a new password's length.
///
/// # Errors
/// Shorter than [`MIN_LEN`] or longer than [`MAX_LEN`] bytes.
pub fn check(password: &str) -> Result<(), PasswordError> {
    if (MIN_LEN..=MAX_LEN).contains(&password.len()) {
        Ok(())
    } else {
        Err(PasswordError::Length(password.len()))
    }
}

/// The Argon2id PHC string of `password` with a fresh 128-bit salt.
///
/// # Errors
/// The operating system has no random source, or the hasher fails.
pub fn hash(password: &str) -> Result<String, PasswordError> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| PasswordError::Hash(e.to_string()))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| PasswordError::Hash(e.to_string()))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| PasswordError::Hash(e.to_string()))
}

/// Whether `password` is the one `stored` was made from; a stored string that does
/// not parse matches nothing.
#[must_use]
pub fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

/// A hash to verify against when the name is unknown, so that an unknown name takes
/// as long to refuse as a wrong password.
#[must_use]
pub fn decoy() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash("no account has this password").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_is_argon2id_salted_and_verifies_only_its_password() {
        let a = hash("correct horse").unwrap();
        let b = hash("correct horse").unwrap();
        assert!(a.starts_with("$argon2id$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(!a.contains("correct horse"));
        assert!(verify("correct horse", &a));
        assert!(!verify("correct horsE", &a));
        assert!(!verify("correct horse", "not a hash"));
    }

    #[test]
    fn passwords_shorter_than_8_or_longer_than_256_bytes_are_refused() {
        assert!(check("1234567").is_err());
        assert!(check("12345678").is_ok());
        assert!(check(&"x".repeat(257)).is_err());
    }
}
