//! golden
