//! bombardment
