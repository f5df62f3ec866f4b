//! How a ruleset's state is copied: field by field, so that `clone_from` reuses the
//! room of the vectors it already has. The search copies a position for every plan it
//! weighs in a simulation (`grognard_ai`'s unit plans); a derived `Clone` would make
//! each copy allocate every vector anew.

/// Writes `impl Clone` for a struct, naming every field: `clone` clones each, and
/// `clone_from` clones each into the field it replaces (a vector keeps its room, a
/// `Copy` field is copied). Both name the fields without `..`, so that a field added
/// to the struct and not to the list is a compile error, never a field left stale.
///
/// ```text
/// clone_by_field!(State: turn, active, phase, pieces, held, outcome);
/// ```
macro_rules! clone_by_field {
    ($ty:ident: $($field:ident),+ $(,)?) => {
        impl Clone for $ty {
            fn clone(&self) -> $ty {
                $ty {
                    $($field: self.$field.clone()),+
                }
            }

            fn clone_from(&mut self, source: &$ty) {
                let $ty { $($field),+ } = source;
                $(self.$field.clone_from($field);)+
            }
        }
    };
}

pub(crate) use clone_by_field;

/// Writes `impl Debug` for a state with a `stamp` field (the kept boards' bookkeeping,
/// never part of the game), as a derived `Debug` would without it: the text of a state
/// is its game alone. Every other field is named, without `..`, so that a field added
/// to the struct and not to the list is a compile error; other bookkeeping left out of
/// the text is named after `kept:`.
///
/// ```text
/// debug_without_stamp!(State: turn, active, phase, units, outcome);
/// debug_without_stamp!(State: turn, active, phase, units, outcome; kept: orders);
/// ```
macro_rules! debug_without_stamp {
    ($ty:ident: $($field:ident),+ $(,)? $(; kept: $($kept:ident),+)?) => {
        impl std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                let $ty { $($field,)+ stamp: _, $($($kept: _,)+)? } = self;
                f.debug_struct(stringify!($ty))
                    $(.field(stringify!($field), $field))+
                    .finish()
            }
        }
    };
}

pub(crate) use debug_without_stamp;

#[cfg(test)]
mod tests {
    #[derive(Debug, PartialEq)]
    struct Sample {
        turn: u32,
        pieces: Vec<u8>,
        outcome: Option<String>,
    }

    clone_by_field!(Sample: turn, pieces, outcome);

    #[test]
    fn clone_from_copies_every_field_and_keeps_the_vectors_room() {
        let source = Sample {
            turn: 7,
            pieces: vec![1, 2, 3],
            outcome: Some("won".into()),
        };
        let mut into = Sample {
            turn: 1,
            pieces: Vec::with_capacity(64),
            outcome: None,
        };
        let room = into.pieces.as_ptr();
        into.clone_from(&source);
        assert_eq!(into, source);
        assert_eq!(into.pieces.as_ptr(), room, "the vector's buffer is reused");
        assert_eq!(source.clone(), source);
    }
}
