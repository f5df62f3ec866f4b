//! combat
