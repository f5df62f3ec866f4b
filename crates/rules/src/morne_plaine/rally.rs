//! The rally phase (docs/rules/morne-plaine.md, MP-RAL-1: not recovered, so provisional;
//! `data.toml` [rally]).

use super::{Event, MornePlaine, State};
use grognard_engine::{Ctx, UnitId};

/// MP-RAL-1 (provisional): at its side's rally phase, every unit out of contact with
/// the enemy regains morale points, never above its starting value.
pub(crate) fn rally(rules: &MornePlaine, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    let gain = rules.data.rally.gain;
    let occ = rules.occupancy(state);
    for i in 0..rules.counters.len() {
        let u = UnitId(u16::try_from(i).expect("unit count fits u16"));
        let c = &rules.counters[i];
        let s = &state.units[i];
        if c.side != state.active || s.hex.is_none() || s.mv >= c.mv {
            continue;
        }
        if rules.enemies_in_contact(state, u, &occ).next().is_some() {
            continue;
        }
        let regained = gain.min(c.mv - s.mv);
        state.units[i].mv += regained;
        ctx.emit_with(|| Event::Rallied {
            unit: u,
            morale: regained,
            rule: "MP-RAL-1".into(),
        });
    }
}
