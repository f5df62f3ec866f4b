//! Least-cost movement search (to be written).
