//! Contact (docs/rules/morne-plaine.md, MP-CMB-5, MP-CMB-8): which units are on contact,
//! the question combat, the threats of the computer's evaluation and the combat phase's
//! legal list all ask.

use super::side_bits as sb;
use super::{MornePlaine, State};
use grognard_engine::UnitId;
use grognard_hex::{Direction, Hex};

impl MornePlaine {
    /// MP-CMB-8: units "on contact": adjacent, not separated by a river, a major river or a
    /// slope of more than one level. Reading (MP-CMB-5): contact follows movement, so a
    /// river crossed by a bridge or a ford does not separate.
    pub(crate) fn in_contact(&self, a: Hex, b: Hex) -> bool {
        a.direction_to(b)
            .is_some_and(|d| self.flags(a, d) & sb::NO_COMBAT == 0)
    }

    /// The enemy units in contact with `u` (MP-CMB-8), read from the board's
    /// [`MornePlaine::occupancy`].
    pub(crate) fn enemies_in_contact(
        &self,
        state: &State,
        u: UnitId,
        occ: &[u16],
    ) -> impl Iterator<Item = UnitId> + '_ {
        let at = state.units[u.index()].hex.and_then(|h| self.idx(h));
        let at = at.map_or(super::NO_HEX, |j| u32::try_from(j).expect("maps are small"));
        self.enemies_in_contact_at(u, at, occ)
    }

    /// [`MornePlaine::enemies_in_contact`] of unit `u` standing at hex index `at`
    /// ([`super::NO_HEX`]: off the map, in contact with nobody).
    pub(crate) fn enemies_in_contact_at(
        &self,
        u: UnitId,
        at: u32,
        occ: &[u16],
    ) -> impl Iterator<Item = UnitId> + '_ {
        let side = self.counters[u.index()].side;
        let mut found = [None; 6];
        if at != super::NO_HEX {
            let at = at as usize;
            for (k, d) in Direction::ALL.into_iter().enumerate() {
                let step = at * 6 + d.index();
                let j = self.nbr[step];
                if j == super::NO_HEX || self.side_flags[step] & sb::NO_COMBAT != 0 {
                    continue;
                }
                let o = occ[j as usize];
                found[k] = (o != 0)
                    .then(|| UnitId(o - 1))
                    .filter(|e| self.counters[e.index()].side != side);
            }
        }
        found.into_iter().flatten()
    }
}
