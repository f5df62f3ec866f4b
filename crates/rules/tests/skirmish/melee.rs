//! melee
