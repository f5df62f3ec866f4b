//! turn
