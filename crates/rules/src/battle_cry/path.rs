//! The hexes a move enters (BC-MOV-1), as its event gives them: kept in place for the
//! moves of the shipped tables (up to four hexes: a general's or cavalry's three, and a
//! card's extra one), so that a move recorded builds no list on the heap.

use grognard_hex::Hex;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::Deref;

/// The hexes a move enters, in order, the last being where it ends. It reads, compares,
/// prints and serializes as the list of its hexes (their labels, in JSON).
#[derive(Clone)]
pub struct Path(Repr);

/// Hexes a path holds in place.
const SHORT: usize = 4;

#[derive(Clone)]
enum Repr {
    Short { len: u8, hexes: [Hex; SHORT] },
    Long(Vec<Hex>),
}

impl Path {
    /// A path of no hexes.
    #[must_use]
    pub fn new() -> Path {
        Path(Repr::Short {
            len: 0,
            hexes: [Hex::default(); SHORT],
        })
    }

    /// The path of the hexes `hexes`, in order.
    #[must_use]
    pub(crate) fn of(hexes: &[Hex]) -> Path {
        if hexes.len() > SHORT {
            return Path(Repr::Long(hexes.to_vec()));
        }
        let mut short = [Hex::default(); SHORT];
        short[..hexes.len()].copy_from_slice(hexes);
        Path(Repr::Short {
            len: u8::try_from(hexes.len()).expect("a short path"),
            hexes: short,
        })
    }

    /// Adds `hex` at the end.
    pub fn push(&mut self, hex: Hex) {
        match &mut self.0 {
            Repr::Short { len, hexes } if usize::from(*len) < SHORT => {
                hexes[usize::from(*len)] = hex;
                *len += 1;
            }
            Repr::Short { len, hexes } => {
                let mut v = hexes[..usize::from(*len)].to_vec();
                v.push(hex);
                self.0 = Repr::Long(v);
            }
            Repr::Long(v) => v.push(hex),
        }
    }

    /// The hexes, as a slice.
    #[must_use]
    pub fn as_slice(&self) -> &[Hex] {
        match &self.0 {
            Repr::Short { len, hexes } => &hexes[..usize::from(*len)],
            Repr::Long(v) => v,
        }
    }

    /// The hexes in reverse order: the way back.
    pub(crate) fn reverse(&mut self) {
        match &mut self.0 {
            Repr::Short { len, hexes } => hexes[..usize::from(*len)].reverse(),
            Repr::Long(v) => v.reverse(),
        }
    }
}

impl Default for Path {
    fn default() -> Path {
        Path::new()
    }
}

impl Deref for Path {
    type Target = [Hex];

    fn deref(&self) -> &[Hex] {
        self.as_slice()
    }
}

impl From<Vec<Hex>> for Path {
    fn from(v: Vec<Hex>) -> Path {
        let mut p = Path::new();
        if v.len() > SHORT {
            p.0 = Repr::Long(v);
        } else {
            for h in v {
                p.push(h);
            }
        }
        p
    }
}

impl From<Path> for Vec<Hex> {
    fn from(p: Path) -> Vec<Hex> {
        match p.0 {
            Repr::Long(v) => v,
            Repr::Short { .. } => p.as_slice().to_vec(),
        }
    }
}

impl PartialEq for Path {
    fn eq(&self, other: &Path) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for Path {}

impl PartialEq<Vec<Hex>> for Path {
    fn eq(&self, other: &Vec<Hex>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl fmt::Debug for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // As a `Vec<Hex>` prints.
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Serialize for Path {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        grognard_engine::wire::labels::serialize(self.as_slice(), s)
    }
}

impl<'de> Deserialize<'de> for Path {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Path, D::Error> {
        grognard_engine::wire::labels::deserialize(d).map(Path::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_its_list_of_hexes_short_or_long() {
        for n in [0, 1, SHORT, SHORT + 1, 9] {
            let hexes: Vec<Hex> = (0..n)
                .map(|i| Hex::new(i32::try_from(i).unwrap(), 1))
                .collect();
            let mut p = Path::new();
            for &h in &hexes {
                p.push(h);
            }
            assert_eq!(p, hexes);
            assert_eq!(p, Path::from(hexes.clone()));
            assert_eq!(p, Path::of(&hexes));
            assert_eq!(format!("{p:?}"), format!("{hexes:?}"));
            assert_eq!(format!("{p:#?}"), format!("{hexes:#?}"));
            p.reverse();
            let mut back = hexes.clone();
            back.reverse();
            assert_eq!(Vec::from(p), back);
        }
    }
}
