//! Validation of the position part.
