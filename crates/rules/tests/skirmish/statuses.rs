//! statuses
