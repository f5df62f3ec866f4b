//! What a seat sees: the engine's view envelope (`turn`, `turns`, `phase`, `active`,
//! `units` with `id`, `side` and `hex`; docs/ENGINE-PROTOCOL.md) and Morne Plaine's own
//! part (each unit's values and marks, the outcome).

use super::{MornePlaine, State};
use grognard_engine::Seat;

/// The view of `state` for a seat. Morne Plaine has no hidden information: every seat
/// sees the whole board, so nothing is redacted.
pub(super) fn view(rules: &MornePlaine, state: &State, _seat: &Seat) -> serde_json::Value {
    serde_json::json!({
        "turn": state.turn,
        "turns": rules.turns,
        "active": rules.side_name(state.active),
        "phase": state.phase,
        "units": rules.unit_ids().map(|u| {
            let c = &rules.counters[u.index()];
            let s = &state.units[u.index()];
            serde_json::json!({
                "id": c.id,
                "side": rules.side_name(c.side),
                "class": c.class,
                "mounted": c.mounted,
                "hex": s.hex.map(|h| rules.label(h)),
                "cs": s.cs, "mv": s.mv, "mp": s.mp, "ma": c.ma,
                "stripes": c.stripes, "bv": c.bv, "range": c.range,
                "moved": s.moved, "stopped": s.stopped, "fired": s.fired,
                "attacked": s.attacked, "defended": s.defended, "victorious": s.victorious,
                "demoralised": rules.demoralised(state, u),
            })
        }).collect::<Vec<_>>(),
        "outcome": state.outcome,
    })
}
