//! Symbol dice, as the Commands & Colors family rolls them: a die is a list of face
//! symbols, a pool is N such dice, and what matters is how many of each symbol came up.
//!
//! [`roll`] rolls a pool through [`Ctx`] (each die recorded as a [`crate::Roll`]);
//! [`distribution`] gives the exact chance of every count of symbol classes, a
//! multinomial, so that a ruleset can show exact odds before the dice roll.
//!
//! ```
//! use grognard_engine::dice_pool::{chances, distribution};
//!
//! // Two dice of six faces: 2 faces hit, 1 face is a flag, 3 faces do nothing.
//! let (dist, den) = distribution(&[2, 1, 3], 2, |counts| (counts[0], counts[1]));
//! assert_eq!(den, 36);
//! assert_eq!(dist[&(2, 0)], 4); // both dice hit: 2 * 2 ways
//! assert_eq!(dist[&(1, 1)], 4); // one hit and one flag, in either order
//! assert_eq!(dist.values().sum::<u64>(), 36);
//! let c = chances(&dist, den, |&(hits, flags)| serde_json::json!([hits, flags]));
//! assert_eq!((c[0].num, c[0].den), (1, 4)); // (0, 0): 3 * 3 of 36
//! ```

use crate::dice::Ctx;
use crate::ruleset::Chance;
use crate::{Roll, Text};
use std::collections::BTreeMap;

/// Rolls `n` dice whose faces are `faces` (face 1 of the d`faces.len()` first) for
/// the purpose `purpose` writes (cite the rule ID), recording each roll; returns the
/// symbols shown. The purpose is written once, and not at all in a quiet context
/// ([`Ctx::quiet`]); a `String` is shared by the pool's dice (one copy), a [`Text`] as
/// it is.
///
/// # Panics
/// When `faces` is empty or has more than `u32::MAX` faces.
pub fn roll<S: Copy, E: From<Roll>, P: Into<Text>>(
    ctx: &mut Ctx<'_, E>,
    faces: &[S],
    n: u32,
    purpose: impl FnOnce() -> P,
) -> Vec<S> {
    let sides = u32::try_from(faces.len()).expect("a die of few faces");
    assert!(sides > 0, "a die has at least one face");
    let mut purpose = Some(purpose);
    // Written once, then shared by the pool's dice: a clone a die, no copy.
    let mut text = None;
    (0..n)
        .map(|_| {
            let face = ctx.roll_text(sides, || {
                text.get_or_insert_with(|| {
                    let write = purpose.take().expect("written once");
                    write().into()
                })
                .clone()
            });
            faces[face as usize - 1]
        })
        .collect()
}

/// How many faces of `faces` fall in each class: `class` maps a face to its class
/// index, below `classes`.
///
/// ```
/// use grognard_engine::dice_pool::class_faces;
/// let faces = ['i', 'i', 'c', 'f'];
/// assert_eq!(class_faces(&faces, 3, |&f| match f { 'i' => 0, 'f' => 1, _ => 2 }), [2, 1, 1]);
/// ```
#[must_use]
pub fn class_faces<S>(faces: &[S], classes: usize, class: impl Fn(&S) -> usize) -> Vec<u64> {
    let mut out = vec![0u64; classes];
    for f in faces {
        out[class(f)] += 1;
    }
    out
}

/// The greatest common divisor, for reducing fractions.
///
/// ```
/// assert_eq!(grognard_engine::dice_pool::gcd(12, 18), 6);
/// ```
#[must_use]
pub fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// C(n, k), exactly.
fn binomial(n: u64, k: u64) -> u64 {
    let k = k.min(n - k);
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// The exact distribution of `n` dice whose faces fall in classes of sizes
/// `class_faces` (the faces of one die, class by class): for every way the `n` dice
/// can split among the classes, `key` of the counts, with the number of the
/// `sides^n` equally likely rolls that give it. Returns the tally by key and the
/// denominator `sides^n`, `sides` being the sum of `class_faces`.
///
/// # Panics
/// When the numbers overflow `u64` (more than about 20 six-sided dice).
pub fn distribution<K: Ord>(
    class_faces: &[u64],
    n: u32,
    mut key: impl FnMut(&[u32]) -> K,
) -> (BTreeMap<K, u64>, u64) {
    let sides: u64 = class_faces.iter().sum();
    let den = sides.pow(n);
    let mut out = BTreeMap::new();
    let k = class_faces.len();
    if k == 0 {
        return (out, den);
    }
    let mut counts = vec![0u32; k];
    split(class_faces, n, 0, &mut counts, 1, &mut |counts, ways| {
        if ways > 0 {
            *out.entry(key(counts)).or_insert(0) += ways;
        }
    });
    (out, den)
}

/// Walks every split of `left` dice among classes `i..`, with the ways so far.
fn split(
    class_faces: &[u64],
    left: u32,
    i: usize,
    counts: &mut [u32],
    ways: u64,
    visit: &mut impl FnMut(&[u32], u64),
) {
    if i + 1 == class_faces.len() {
        counts[i] = left;
        visit(counts, ways * class_faces[i].pow(left));
        return;
    }
    for c in 0..=left {
        counts[i] = c;
        let ways = ways * binomial(u64::from(left), u64::from(c)) * class_faces[i].pow(c);
        split(class_faces, left - c, i + 1, counts, ways, visit);
    }
}

/// The tally of [`distribution`] as reduced [`Chance`]s, in key order.
pub fn chances<K>(
    tally: &BTreeMap<K, u64>,
    den: u64,
    result: impl Fn(&K) -> serde_json::Value,
) -> Vec<Chance> {
    tally
        .iter()
        .map(|(k, &num)| {
            let g = gcd(num, den).max(1);
            Chance::new(result(k), num / g, den / g)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_multinomial_adds_up_and_matches_a_brute_force_count() {
        let faces = [2u64, 1, 1, 2];
        for n in 0..6u32 {
            let (dist, den) = distribution(&faces, n, <[u32]>::to_vec);
            assert_eq!(dist.values().sum::<u64>(), den);
            // Brute force over every roll of n d6 with faces classed 0,0,1,2,3,3.
            let class = [0usize, 0, 1, 2, 3, 3];
            let mut brute: BTreeMap<Vec<u32>, u64> = BTreeMap::new();
            for r in 0..6u64.pow(n) {
                let mut c = vec![0u32; 4];
                let mut x = r;
                for _ in 0..n {
                    c[class[(x % 6) as usize]] += 1;
                    x /= 6;
                }
                *brute.entry(c).or_default() += 1;
            }
            assert_eq!(dist, brute, "{n} dice");
        }
    }

    #[test]
    fn rolling_records_each_die() {
        let mut dice = crate::Dice::new(3);
        dice.force([1, 3, 2]);
        let mut events: Vec<Roll> = Vec::new();
        let mut ctx = Ctx::new(&mut dice, &mut events);
        let got = roll(&mut ctx, &['a', 'b', 'c'], 3, || "test".to_owned());
        assert_eq!(got, ['a', 'c', 'b']);
        assert_eq!(events.len(), 3);
        assert!(events.iter().all(|r| r.sides == 3 && r.purpose == "test"));
    }

    #[test]
    fn a_quiet_roll_shows_the_same_faces_and_writes_no_purpose() {
        let mut dice = crate::Dice::new(3);
        dice.force([1, 3, 2]);
        let mut events: Vec<Roll> = Vec::new();
        let mut ctx = Ctx::quiet(&mut dice, &mut events);
        let got = roll(&mut ctx, &['a', 'b', 'c'], 3, || -> String {
            panic!("a quiet roll writes no purpose")
        });
        assert_eq!(got, ['a', 'c', 'b']);
        assert_eq!(ctx.rolls(), 3);
        assert!(events.is_empty());
    }
}
