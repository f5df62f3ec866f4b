//! Hex geometry for hex-and-counter wargames.
//!
//! Axial coordinates ([`Hex`]), six numbered [`Direction`]s, printed map labels
//! (`CCRR`, see [`MapShape`]), hexsides as first-class values ([`Hexside`]), dense
//! per-hex and per-hexside storage ([`Grid`], [`SideGrid`]), an exact integer line of
//! sight ([`line()`]) and a least-cost movement search ([`search::Search`]).
//!
//! ```
//! use grognard_hex::{Direction, Hex, Hexside, MapShape, Orientation, Shove};
//!
//! let map = MapShape::new(Orientation::FlatTop, Shove::Even, 12, 10).unwrap();
//! let hex = map.parse_label("0304").unwrap();
//! assert_eq!(map.label(hex).unwrap(), "0304");
//! let north = hex.neighbor(Direction::N);
//! assert_eq!(map.label(north).unwrap(), "0303");
//! // One hexside, whichever side names it.
//! assert_eq!(Hexside::new(hex, Direction::N), Hexside::new(north, Direction::S));
//! ```
//!
//! # Direction numbering
//!
//! Directions are numbered clockwise from 0, and each number names the same axial
//! step in both layouts; only its compass name differs:
//!
//! ```text
//!        flat-top                      pointy-top
//!           5 N                      5 NW    0 NE
//!     4 NW  ____  0 NE                  /\  /\
//!          /    \                      /  \/  \
//!          \____/                 4 W |  hex   | 1 E
//!     3 SW        1 SE                 \  /\  /
//!           2 S                         \/  \/
//!                                    3 SW    2 SE
//!
//!  0 = (+1,-1)  1 = (+1,0)  2 = (0,+1)  3 = (-1,+1)  4 = (-1,0)  5 = (0,-1)   (q, r)
//! ```
#![forbid(unsafe_code)]
#![warn(missing_docs, clippy::pedantic)]

mod coord;
mod direction;
mod grid;
mod hexside;
mod layout;
pub mod los;
pub mod search;

pub use coord::Hex;
pub use direction::Direction;
pub use grid::{Grid, SideGrid};
pub use hexside::Hexside;
pub use layout::{LabelError, MapShape, Orientation, Shove};
pub use los::{line, LineStep};
