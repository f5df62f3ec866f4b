//! retreat
