//! Players' names: what an account may be called.

/// The shortest name.
pub const MIN_LEN: usize = 3;
/// The longest name, in characters.
pub const MAX_LEN: usize = 20;

/// What is wrong with a name.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Too short or too long.
    #[error("a name is {MIN_LEN} to {MAX_LEN} characters long; `{0}` has {1}")]
    Length(String, usize),
    /// A character that is not a letter, digit, `_` or `-` (ASCII).
    #[error("a name holds only the letters A-Z and a-z, the digits, `_` and `-`; {0:?} is not one of them")]
    Character(char),
    /// Starts with `_` or `-`.
    #[error("a name starts with a letter or a digit")]
    Start,
}

/// Checks a name: 3 to 20 ASCII letters, digits, `_` or `-`, starting with a letter
/// or a digit. Names are unique without regard to case.
///
/// # Errors
/// The first thing wrong with it.
pub fn check(name: &str) -> Result<(), NameError> {
    let len = name.chars().count();
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(NameError::Character(c));
    }
    if !(MIN_LEN..=MAX_LEN).contains(&len) {
        return Err(NameError::Length(name.chars().take(40).collect(), len));
    }
    if name.starts_with(['_', '-']) {
        return Err(NameError::Start);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_3_to_20_ascii_letters_digits_underscores_and_hyphens() {
        assert_eq!(check("ney"), Ok(()));
        assert_eq!(check("Marshal_Ney-1815"), Ok(()));
        assert_eq!(check("ab"), Err(NameError::Length("ab".into(), 2)));
        assert!(matches!(
            check(&"a".repeat(21)),
            Err(NameError::Length(_, 21))
        ));
        assert_eq!(check("ney ney"), Err(NameError::Character(' ')));
        assert_eq!(check("néy"), Err(NameError::Character('é')));
        assert_eq!(check("-ney"), Err(NameError::Start));
    }
}
