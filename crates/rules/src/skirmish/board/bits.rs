//! The least-cost searches of `board.rs` on bit sets, for maps of at most 128 hexes: the
//! hexes of one cost are settled together and their neighbours added to the cost each
//! is entered at with a few operations a hex, instead of one queue entry a neighbour.
//! They answer as the bucket queue does (the tests below hold them to it).

use super::{Bits, Cells};

/// The levels of cost [`reach`] keeps at once: more than the dearest hex costs.
pub(super) const LEVELS: usize = 16;

/// [`super::reach`] on the bit sets: the same hexes told to `settled` at the same costs (those of
/// one cost in map order), the search stopped at the same point; `dist` is written for
/// the hexes told and left `u32::MAX` elsewhere.
pub(super) fn reach(
    bits: &Bits,
    ring: usize,
    from: usize,
    limit: u32,
    through: impl Fn(usize) -> bool,
    mut settled: impl FnMut(usize) -> bool,
    dist: &mut [u32],
) {
    let mask = ring - 1;
    let n = bits.prices.len();
    // The hexes entered at each cost to come, by cost modulo `ring` (a step costs less
    // than `ring`, so the costs waiting never wrap onto each other).
    let mut level = [0u128; LEVELS];
    let mut done = 0u128;
    level[0] = 1u128 << from;
    let mut d = 0u32;
    while d <= limit && level.iter().any(|&l| l & !done != 0) {
        let slot = d as usize & mask;
        // A hex entered for nothing joins this cost while it is settled.
        loop {
            let mut fresh = level[slot] & !done;
            if fresh == 0 {
                break;
            }
            done |= fresh;
            while fresh != 0 {
                let i = fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                dist[i] = d;
                if settled(i) {
                    return;
                }
                if i != from && !through(i) {
                    continue;
                }
                let row = &bits.nbr[i * n..(i + 1) * n];
                for (&price, &next) in bits.prices.iter().zip(row) {
                    let next = next & !done;
                    if next != 0 {
                        level[d.saturating_add(price) as usize & mask] |= next;
                    }
                }
            }
        }
        level[slot] = 0;
        d += 1;
    }
}

/// The neighbours of the hexes of `set`, a few shifts of it.
fn neighbours(bits: &Bits, set: u128) -> u128 {
    let up = bits
        .up
        .iter()
        .fold(0, |n, &(by, group)| n | (set & group) << by);
    bits.down
        .iter()
        .fold(up, |n, &(by, group)| n | (set & group) >> by)
}

/// [`super::reach_goals`]: the hexes of one cost settled together, and their neighbours
/// (those that go on) entered all at once, a shift a direction. Also the hexes settled,
/// the only ones whose `through` and `goals` bits the search read.
pub(super) fn reach_goals(
    bits: &Bits,
    ring: usize,
    from: usize,
    limit: u32,
    through: u128,
    goals: &[u128],
) -> (u64, u128) {
    let mask = ring - 1;
    let wanted = goals
        .iter()
        .enumerate()
        .filter(|(_, &g)| g != 0)
        .fold(0u64, |w, (k, _)| w | 1 << k);
    let mut found = 0u64;
    if wanted == 0 {
        return (found, 0);
    }
    let go_on = through | 1u128 << from;
    let any_goal = goals.iter().fold(0u128, |a, &g| a | g);
    let mut level = [0u128; LEVELS];
    let mut done = 0u128;
    level[0] = 1u128 << from;
    // Every hex ever entered: those not settled wait in some level.
    let mut waiting = level[0];
    let mut d = 0u32;
    while d <= limit && waiting & !done != 0 {
        let slot = d as usize & mask;
        // A hex entered for nothing joins this cost while it is settled.
        loop {
            let fresh = level[slot] & !done;
            if fresh == 0 {
                break;
            }
            done |= fresh;
            if fresh & any_goal != 0 {
                for (k, &g) in goals.iter().enumerate() {
                    if g & fresh != 0 {
                        found |= 1 << k;
                    }
                }
                if found == wanted {
                    return (found, done);
                }
            }
            let next = neighbours(bits, fresh & go_on) & !done;
            if next == 0 {
                continue;
            }
            waiting |= next;
            for (&price, &entry) in bits.prices.iter().zip(&bits.entry) {
                let s = next & entry;
                if s != 0 {
                    level[d.saturating_add(price) as usize & mask] |= s;
                }
            }
        }
        level[slot] = 0;
        d += 1;
    }
    (found, done)
}

/// [`super::field_bits`]: the hexes of one cost settled together, and the neighbours
/// of those of each price entered all at once (a few shifts); the hexes not settled
/// before it stops are left `u32::MAX`.
pub(super) fn field_sets(
    bits: &Bits,
    ring: usize,
    goals: &[usize],
    through: u128,
    settle: Option<usize>,
    dist: &mut [u32],
) {
    let mask = ring - 1;
    let mut level = [0u128; LEVELS];
    for &g in goals {
        if g < dist.len() {
            level[0] |= 1u128 << g;
        }
    }
    let mut waiting = level[0];
    let mut done = 0u128;
    let mut d = 0u32;
    while waiting & !done != 0 {
        // The hexes settled at a lower cost than `d` include `settle`: it is known.
        if settle.is_some_and(|s| s < dist.len() && done >> s & 1 == 1) {
            break;
        }
        let slot = d as usize & mask;
        loop {
            let fresh = level[slot] & !done;
            if fresh == 0 {
                break;
            }
            done |= fresh;
            let mut each = fresh;
            while each != 0 {
                dist[each.trailing_zeros() as usize] = d;
                each &= each - 1;
            }
            for (&price, &entry) in bits.prices.iter().zip(&bits.entry) {
                let from = fresh & entry;
                if from == 0 {
                    continue;
                }
                let next = neighbours(bits, from) & through & !done;
                if next != 0 {
                    level[d.saturating_add(price) as usize & mask] |= next;
                    waiting |= next;
                }
            }
        }
        level[slot] = 0;
        d += 1;
    }
}

/// [`super::field`] on the bit sets: the same costs, the same hexes settled before it stops, and
/// the same costs left in the hexes it did not settle.
pub(super) fn field(
    bits: &Bits,
    cells: &Cells,
    goals: &[usize],
    through: impl Fn(usize) -> bool,
    settle: Option<usize>,
    dist: &mut [u32],
) {
    let mask = cells.ring - 1;
    let mut level = [0u128; LEVELS];
    for &g in goals {
        if g < dist.len() {
            dist[g] = 0;
            level[0] |= 1u128 << g;
        }
    }
    let mut done = 0u128;
    let mut d = 0u32;
    while level.iter().any(|&l| l & !done != 0) {
        // The hexes settled at a lower cost than `d` include `settle`: it is known.
        if settle.is_some_and(|s| s < dist.len() && dist[s] < d) {
            break;
        }
        let slot = d as usize & mask;
        loop {
            let mut fresh = level[slot] & !done;
            if fresh == 0 {
                break;
            }
            done |= fresh;
            while fresh != 0 {
                let i = fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                let nd = d.saturating_add(cells.cost[i]);
                let mut next = bits.all[i] & !done;
                while next != 0 {
                    let j = next.trailing_zeros() as usize;
                    next &= next - 1;
                    if nd < dist[j] && through(j) {
                        dist[j] = nd;
                        level[nd as usize & mask] |= 1u128 << j;
                    }
                }
            }
        }
        level[slot] = 0;
        d += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::{field_buckets, reach_buckets};
    use super::*;

    /// A pure pattern of hexes a route may go on from, different for each `salt`.
    fn through(cells: &Cells, salt: usize) -> impl Fn(usize) -> bool + '_ {
        move |i| cells.open(i) && (i * 7 + salt) % 5 != 0
    }

    /// From every hex of *Broken Cairn*, within several limits and through several
    /// patterns of free hexes: the bit sets tell the same hexes at the same costs as the
    /// bucket queue, and stop with the same goals found when the goals are all found.
    #[test]
    fn the_bit_set_reach_tells_what_the_bucket_queue_tells() {
        let (rules, _) = crate::skirmish::test_games::random_states(1, 1, 1);
        let cells = &rules.cells;
        let bits = cells.bits.as_ref().expect("a map of at most 128 hexes");
        for from in 0..cells.len() {
            for (limit, salt) in [(0, 0), (3, 1), (6, 2), (9, 3), (40, 4)] {
                let goals = [(from * 13 + 5) % cells.len(), (from * 29 + 1) % cells.len()];
                let mut told = [Vec::new(), Vec::new()];
                let mut found = [[false; 2]; 2];
                let mut dist = [vec![u32::MAX; cells.len()], vec![u32::MAX; cells.len()]];
                for k in 0..2 {
                    let (told_k, found_k) = (&mut told[k], &mut found[k]);
                    let settled = |i: usize| {
                        told_k.push(i);
                        for (g, f) in goals.iter().zip(found_k.iter_mut()) {
                            *f |= *g == i;
                        }
                        found_k.iter().all(|&f| f)
                    };
                    if k == 0 {
                        reach(
                            bits,
                            cells.ring,
                            from,
                            limit,
                            through(cells, salt),
                            settled,
                            &mut dist[0],
                        );
                    } else {
                        reach_buckets(
                            cells,
                            from,
                            limit,
                            through(cells, salt),
                            settled,
                            &mut dist[1],
                        );
                    }
                }
                assert_eq!(found[0], found[1], "from {from}, limit {limit}");
                let settled_at = |k: usize| {
                    let mut v: Vec<(u32, usize)> =
                        told[k].iter().map(|&i| (dist[k][i], i)).collect();
                    v.sort_unstable();
                    v
                };
                if found[0].iter().all(|&f| f) {
                    // Stopped at the last goal: the costs told agree up to the cost before it.
                    let last = told[0].last().map_or(0, |&i| dist[0][i]);
                    let below = |k: usize| -> Vec<(u32, usize)> {
                        settled_at(k)
                            .into_iter()
                            .filter(|&(d, _)| d < last)
                            .collect()
                    };
                    assert_eq!(below(0), below(1), "from {from}, limit {limit}");
                } else {
                    assert_eq!(settled_at(0), settled_at(1), "from {from}, limit {limit}");
                }
            }
        }
    }

    /// From every hex of *Broken Cairn*, within several limits and through several
    /// patterns of free hexes: the goal sets found by the shifts are those holding a hex
    /// the bucket queue settles within the limit.
    #[test]
    fn the_shifted_reach_finds_the_goals_the_bucket_queue_settles() {
        let (rules, _) = crate::skirmish::test_games::random_states(1, 1, 1);
        let cells = &rules.cells;
        let bits = cells.bits.as_ref().expect("a map of at most 128 hexes");
        let n = cells.len();
        for from in 0..n {
            for (limit, salt) in [(0, 0), (2, 1), (5, 2), (9, 3), (40, 4)] {
                let goals: Vec<u128> = (0..5)
                    .map(|k| {
                        (0..n)
                            .filter(|&i| (i * (k + 3) + from + salt) % 17 == 0)
                            .fold(0u128, |g, i| g | 1u128 << i)
                    })
                    .chain([0])
                    .collect();
                let through_bits = (0..n)
                    .filter(|&i| through(cells, salt)(i))
                    .fold(0u128, |t, i| t | 1u128 << i);
                let mut dist = vec![u32::MAX; n];
                reach_buckets(
                    cells,
                    from,
                    limit,
                    through(cells, salt),
                    |_| false,
                    &mut dist,
                );
                let settled = (0..n)
                    .filter(|&i| dist[i] <= limit)
                    .fold(0u128, |s, i| s | 1u128 << i);
                let want = goals
                    .iter()
                    .enumerate()
                    .filter(|(_, &g)| g & settled != 0)
                    .fold(0u64, |w, (k, _)| w | 1 << k);
                let (got, read) = reach_goals(bits, cells.ring, from, limit, through_bits, &goals);
                assert_eq!(read & !settled, 0, "from {from}, limit {limit}");
                assert_eq!(got, want, "from {from}, limit {limit}");
            }
        }
    }

    /// For goals all over *Broken Cairn*, with and without a hex to settle: the field
    /// of the shifts is the bucket queue's at every hex it settled (every hex costing at
    /// most as much as the hex to settle), and `u32::MAX` at the others.
    #[test]
    fn the_shifted_field_is_the_bucket_queue_field_where_settled() {
        let (rules, _) = crate::skirmish::test_games::random_states(1, 1, 1);
        let cells = &rules.cells;
        let bits = cells.bits.as_ref().expect("a map of at most 128 hexes");
        let n = cells.len();
        for g in 0..n {
            let goals = [g, (g * 17 + 3) % n];
            for (settle, salt) in [(None, 0), (Some((g * 31 + 7) % n), 1), (Some(g), 2)] {
                let through_bits = (0..n)
                    .filter(|&i| through(cells, salt)(i))
                    .fold(0u128, |t, i| t | 1u128 << i);
                let mut a = vec![u32::MAX; n];
                let mut b = vec![u32::MAX; n];
                field_sets(bits, cells.ring, &goals, through_bits, settle, &mut a);
                field_buckets(cells, &goals, through(cells, salt), settle, &mut b);
                let known = settle.map_or(u32::MAX, |s| b[s]);
                for i in 0..n {
                    if b[i] <= known {
                        assert_eq!(a[i], b[i], "goals {goals:?}, settle {settle:?}, hex {i}");
                    } else {
                        assert_eq!(
                            a[i],
                            u32::MAX,
                            "goals {goals:?}, settle {settle:?}, hex {i}"
                        );
                    }
                }
            }
        }
    }

    /// For goals all over *Broken Cairn*, with and without a hex to settle: the bit-set
    /// field is the bucket queue's to the last hex, the costs it left unsettled included.
    #[test]
    fn the_bit_set_field_is_the_bucket_queue_field() {
        let (rules, _) = crate::skirmish::test_games::random_states(1, 1, 1);
        let cells = &rules.cells;
        let bits = cells.bits.as_ref().expect("a map of at most 128 hexes");
        for g in 0..cells.len() {
            let goals = [g, (g * 17 + 3) % cells.len()];
            for (settle, salt) in [
                (None, 0),
                (Some((g * 31 + 7) % cells.len()), 1),
                (Some(g), 2),
            ] {
                let mut a = vec![u32::MAX; cells.len()];
                let mut b = vec![u32::MAX; cells.len()];
                field(bits, cells, &goals, through(cells, salt), settle, &mut a);
                field_buckets(cells, &goals, through(cells, salt), settle, &mut b);
                assert_eq!(a, b, "goals {goals:?}, settle {settle:?}");
            }
        }
    }
}
