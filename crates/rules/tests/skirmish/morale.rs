//! morale
