//! Losses: a unit loses one figure (Battle Cry) or stand (JOMINI) a hit.

/// Figures or stands removed by one set of hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loss {
    /// Removed.
    pub lost: u8,
    /// Left; none means the unit is eliminated.
    pub left: u8,
}

impl Loss {
    /// The unit has nothing left and leaves the battlefield.
    #[must_use]
    pub fn eliminated(self) -> bool {
        self.left == 0
    }
}

/// BC-HIT-2, BC-HIT-3, JO-COM-7: removes up to `hits` of the `have` a unit has; hits
/// beyond its last are wasted. `None` when nothing is removed.
pub fn take(have: &mut u8, hits: u8) -> Option<Loss> {
    let lost = hits.min(*have);
    if lost == 0 {
        return None;
    }
    *have -= lost;
    Some(Loss { lost, left: *have })
}
