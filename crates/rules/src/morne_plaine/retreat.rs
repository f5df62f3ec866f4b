//! Retreat after combat and after a charge (docs/rules/morne-plaine.md, MP-RET-*,
//! MP-ELIM-*), and losing morale.

use super::side_bits as sb;
use super::{Event, MornePlaine, State};
use grognard_engine::{Ctx, UnitId};
use grognard_hex::{Direction, Hex, Orientation};

impl MornePlaine {
    /// Twice the hex centre's height on the page, in integers (north is smaller).
    fn y2(&self, hex: Hex) -> i32 {
        match self.map.orientation() {
            Orientation::FlatTop => 2 * hex.r + hex.q,
            Orientation::PointyTop => hex.r,
        }
    }

    /// MP-RET-1 to MP-RET-9, MP-RET-11, MP-RET-12, MP-ZOC-9, MP-CHG-26: the hex a unit
    /// retreats to, chosen by the text's order of priority (never by the player, and
    /// whatever the zones of control), or `None` when it cannot retreat. `attacker` made
    /// the attack (or the charge); `causer` is the enemy whose result makes `u` retreat:
    /// the attacker when the defender retreats, the defender when the attacker fails its
    /// own morale check.
    ///
    /// Readings: "into a village" takes any built-up hex (village, hamlet, town).
    /// "Avoiding hexes adjacent to the attacking unit" (MP-RET-3) is the unit that
    /// attacked: for a retreating attacker every hex around it is, so it decides nothing;
    /// "the hexes adjacent to the unit that causes the retreat" (MP-RET-6) are the
    /// causer's, so a retreating attacker keeps away from the defender (for a retreating
    /// defender the two are one unit and MP-RET-6 repeats MP-RET-3). "Towards the north
    /// edge" (MP-RET-7) is a hex nearer the home edge than the one left, counted in hexes
    /// (the map row); "if there is still more than one possibility, ... the southern hex
    /// away from the attacking unit for the orange player, or the northern hex for the
    /// blue player" (MP-RET-8) then takes the hex lower (orange) or higher (blue) on the
    /// page. Hexes that tie on MP-RET-3 and MP-RET-4 lie in mirror pairs about the line
    /// through the attacker, so a finer MP-RET-7 (the height on the page) would always
    /// decide first and leave MP-RET-8 nothing; read so, MP-RET-8 decides when no hex
    /// leads nearer home, as when the attacker stands between the unit and its home
    /// edge: the unit then falls back away from it. A last tie goes by `data.toml`
    /// [retreat] (provisional).
    pub(crate) fn retreat_hex(
        &self,
        state: &State,
        u: UnitId,
        attacker: UnitId,
        causer: UnitId,
    ) -> Option<Hex> {
        let hex = state.units[u.index()].hex?;
        let side = self.counters[u.index()].side;
        let attacker_at = state.units[attacker.index()].hex;
        let causer_at = state.units[causer.index()].hex;
        let toward_enemy = causer_at.and_then(|e| hex.direction_to(e));
        let north = self.north[usize::from(side)];
        let here = self.map.to_offset(hex).1;
        Direction::ALL
            .into_iter()
            .filter_map(|d| {
                let to = hex.neighbor(d);
                // MP-RET-11, MP-RET-12, MP-CHG-21: free, on the map, crossable, and not a
                // fort held by the enemy.
                let blocked = !self.map.contains(to)
                    // MP-RET-13: units block, friend or foe.
                    || Self::occupant(state, to).is_some()
                    || self.flags(hex, d) & sb::IMPASSABLE != 0
                    || (self.is_fort(to) && self.fort_holder(state, to).is_some_and(|h| h != side));
                if blocked {
                    return None;
                }
                // MP-TER-4: "a village" is a town (villages and towns, not hamlets).
                let built_up = self.is_town(to);
                let near_attacker = attacker_at.is_some_and(|e| e.distance(to) <= 1);
                let opposite = toward_enemy.is_some_and(|t| t.opposite() == d);
                let stream = self.flags(hex, d) & sb::STREAM != 0;
                let near_causer = causer_at.is_some_and(|e| e.distance(to) <= 1);
                let row = self.map.to_offset(to).1;
                let nearer_home = if north { row < here } else { row > here };
                let y = self.y2(to);
                let key = (
                    !built_up,                        // MP-RET-1: into a village
                    self.terrain_name(to) != "woods", // MP-RET-2: into woods
                    near_attacker,                    // MP-RET-3: not next to the attacker
                    !opposite,                        // MP-RET-4: directly away from the enemy
                    stream,                           // MP-RET-5: not across a stream
                    near_causer,                      // MP-RET-6: not next to the causer
                    !nearer_home,                     // MP-RET-7: toward the home edge
                    if north { -y } else { y },       // MP-RET-8: south for orange, north for blue
                    self.data.retreat.place(d),       // MP-RET-8: the last tie (provisional)
                );
                Some((key, to))
            })
            .min_by_key(|(key, _)| *key)
            .map(|(_, to)| to)
    }

    /// Retreats `u` one hex away from `causer`, which charged or attacked it: returns the number of enemy zones of
    /// control entered besides the causer's (MP-RET-10, MP-CHG-19), or `None` when the
    /// unit could not retreat and was eliminated (`rule`: MP-RET-13 after combat,
    /// MP-CHG-21 after a charge; MP-ELIM-1).
    pub(crate) fn retreat(
        &self,
        state: &mut State,
        u: UnitId,
        causer: UnitId,
        rule: &str,
        ctx: &mut Ctx<'_, Event>,
    ) -> Option<u8> {
        self.retreat_from(state, u, causer, causer, rule, ctx)
    }

    /// [`MornePlaine::retreat`] after an attack made by `attacker` (which may be `u`
    /// itself, when the attacker fails its morale check).
    pub(crate) fn retreat_from(
        &self,
        state: &mut State,
        u: UnitId,
        attacker: UnitId,
        causer: UnitId,
        rule: &str,
        ctx: &mut Ctx<'_, Event>,
    ) -> Option<u8> {
        let from = state.units[u.index()].hex?;
        let Some(to) = self.retreat_hex(state, u, attacker, causer) else {
            self.eliminate(
                state,
                u,
                rule,
                format!(
                    "could not retreat from {} (other units, an enemy fort, a double slope or the map edge)",
                    self.label(from)
                ),
                ctx,
            );
            return None;
        };
        state.units[u.index()].hex = Some(to);
        self.take_place(state, u, to);
        let side = self.counters[u.index()].side;
        let zones = self
            .controllers(state, to, side)
            .into_iter()
            .filter(|&c| c != causer)
            .count();
        let zones = u8::try_from(zones).unwrap_or(u8::MAX);
        ctx.emit_with(|| Event::Retreated {
            unit: u,
            from,
            to,
            zones,
            rule: "MP-RET-9".into(),
        });
        Some(zones)
    }

    /// MP-ELIM-1: removes a unit from the map.
    pub(crate) fn eliminate(
        &self,
        state: &mut State,
        u: UnitId,
        rule: &str,
        reason: String,
        ctx: &mut Ctx<'_, Event>,
    ) {
        let s = &mut state.units[u.index()];
        s.hex = None;
        s.cs = 0;
        ctx.emit_with(|| Event::Eliminated {
            unit: u,
            rule: rule.into(),
            reason,
        });
    }

    /// MP-CHG-27, MP-DEM-1: a unit loses morale points; once its morale is gone the
    /// rest come off its strength, and at strength 0 it is eliminated (MP-CMB-20).
    /// Leaders have no morale (MP-REF-7): their morale losses are ignored (MP-CHG-22).
    /// Returns true when the unit was eliminated.
    pub(crate) fn lose_morale(
        &self,
        state: &mut State,
        u: UnitId,
        points: u8,
        rule: &str,
        ctx: &mut Ctx<'_, Event>,
    ) -> bool {
        if points == 0
            || state.units[u.index()].hex.is_none()
            || self.counters[u.index()].class == super::units::Class::Leader
        {
            return false;
        }
        let morale = points.min(state.units[u.index()].mv);
        self.lose_points(state, u, morale, points - morale, rule, ctx)
    }

    /// MP-CMB-20: a unit loses morale and strength points (never more than it has), and
    /// at strength 0 it is eliminated. Returns true when it was.
    pub(crate) fn lose_points(
        &self,
        state: &mut State,
        u: UnitId,
        morale: u8,
        strength: u8,
        rule: &str,
        ctx: &mut Ctx<'_, Event>,
    ) -> bool {
        let s = &mut state.units[u.index()];
        let morale = morale.min(s.mv);
        let strength = strength.min(s.cs);
        s.mv -= morale;
        s.cs -= strength;
        let dead = s.cs == 0;
        ctx.emit_with(|| Event::Shaken {
            unit: u,
            morale,
            strength,
            rule: rule.into(),
        });
        if dead {
            self.eliminate(
                state,
                u,
                "MP-CMB-20",
                "its combat strength fell to 0".into(),
                ctx,
            );
        }
        dead
    }
}
