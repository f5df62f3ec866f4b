//! The morale phase (`docs/rules/skirmish.md`, recovered order): effects start or
//! end; Wounded and Encumbered characters become Dazed; panic recovery, then panic
//! checks; berserk recovery; dazed recovery. At each step the active side goes first
//! (SK-MOR-1).

use super::{statuses, Event, Skirmish, State};
use grognard_engine::{Ctx, UnitId};

fn roll(rules: &Skirmish, u: UnitId, what: &str, rule: &str, ctx: &mut Ctx<'_, Event>) -> i32 {
    i32::try_from(ctx.roll_for(rules.data.dice.sides, || {
        [rule, ": ", what, " for ", rules.name(u)].concat()
    }))
    .expect("a die face")
}

fn checked(
    ctx: &mut Ctx<'_, Event>,
    u: UnitId,
    check: &'static str,
    total: i32,
    need: impl FnOnce() -> String,
    result: &str,
    rule: &'static str,
) {
    // What it needed is worded only for an event recorded (not in a quiet context).
    ctx.emit_with(|| Event::Checked {
        unit: u,
        check: check.into(),
        total,
        need: need(),
        result: result.into(),
        rule: rule.into(),
    });
}

/// SK-MOR-1: the morale phase, in its recovered order, the active side first at each
/// step.
pub(crate) fn morale_phase(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    let order: Vec<UnitId> = rules
        .side_ids(state.active)
        .chain(rules.side_ids(Skirmish::passive(state)))
        .collect();
    let half = super::half(state);
    // 1. Effects start or end: Defending ends (SK-MOR-6).
    for &u in &order {
        let c = &mut state.chars[u.index()];
        if c.defending.is_some_and(|h| h <= half) {
            c.defending = None;
            statuses::status(ctx, u, "defending", false, "SK-MOR-6", "Defending ends");
        }
    }
    // 2. Wounded and Encumbered characters become Dazed (SK-STA-4, SK-STA-5).
    for &u in &order {
        if !Skirmish::ch(state, u).in_play() {
            continue;
        }
        // The reason written out, not formatted: `daze` copies it only into an event.
        let why = if rules.wounded(state, u) {
            Some("Wounded characters become Dazed in the morale phase")
        } else if Skirmish::ch(state, u).encumbered {
            Some("Encumbered characters become Dazed in the morale phase")
        } else {
            None
        };
        if let Some(why) = why {
            statuses::daze(state, u, "SK-MOR-1", why, ctx);
        }
    }
    let p = &rules.data.panic;
    // 3. Panic recovery (SK-MOR-4), then panic checks (SK-MOR-3).
    for &u in &order {
        let c = Skirmish::ch(state, u);
        if !c.in_play() || !c.panicked {
            continue;
        }
        let total = roll(rules, u, "panic recovery", "SK-MOR-4", ctx)
            + i32::from(rules.chars[u.index()].morale);
        let ok = total >= p.recovery;
        checked(
            ctx,
            u,
            "panic_recovery",
            total,
            || format!("{} or more", p.recovery),
            if ok { "recovers" } else { "stays Panicked" },
            "SK-MOR-4",
        );
        if ok {
            state.chars[u.index()].panicked = false;
            statuses::status(ctx, u, "panicked", false, "SK-MOR-4", "recovers from Panic");
        }
    }
    for &u in &order {
        let c = Skirmish::ch(state, u);
        let due = c.shaken && c.in_play() && !c.panicked && !c.berserk;
        state.chars[u.index()].shaken = false;
        if !due {
            continue;
        }
        let total = roll(rules, u, "panic check", "SK-MOR-3", ctx)
            + i32::from(rules.chars[u.index()].morale);
        let ok = total >= p.check;
        let berserker = rules.chars[u.index()].berserker;
        checked(
            ctx,
            u,
            "panic_check",
            total,
            || format!("{} or more", p.check),
            match (ok, berserker) {
                (true, _) => "holds",
                (false, true) => "goes Berserk",
                (false, false) => "Panics",
            },
            "SK-MOR-3",
        );
        if ok {
            continue;
        }
        if berserker {
            // SK-MOR-5: a berserker who fails goes Berserk; SK-STA-3: never Dazed.
            let c = &mut state.chars[u.index()];
            c.berserk = true;
            let was_dazed = c.dazed;
            c.dazed = false;
            statuses::status(
                ctx,
                u,
                "berserk",
                true,
                "SK-MOR-5",
                "a berserker's failed panic check",
            );
            if was_dazed {
                statuses::status(
                    ctx,
                    u,
                    "dazed",
                    false,
                    "SK-STA-3",
                    "Berserk characters are never Dazed",
                );
            }
        } else {
            state.chars[u.index()].panicked = true;
            statuses::status(
                ctx,
                u,
                "panicked",
                true,
                "SK-MOR-3",
                "failed its panic check",
            );
        }
        statuses::lose_evasive(state, u, ctx);
    }
    // 4. Berserk recovery (SK-MOR-5).
    for &u in &order {
        let c = Skirmish::ch(state, u);
        if !c.in_play() || !c.berserk {
            continue;
        }
        let total = roll(rules, u, "berserk recovery", "SK-MOR-5", ctx)
            + i32::from(rules.chars[u.index()].morale);
        let ok = total >= p.berserk_recovery;
        checked(
            ctx,
            u,
            "berserk_recovery",
            total,
            || format!("{} or more", p.berserk_recovery),
            if ok { "calms down" } else { "stays Berserk" },
            "SK-MOR-5",
        );
        if ok {
            state.chars[u.index()].berserk = false;
            statuses::status(ctx, u, "berserk", false, "SK-MOR-5", "calms down");
        }
    }
    // 5. Dazed recovery (SK-MOR-2): die + Morale - 2 if Wounded - 3.
    let r = &rules.data.dazed_recovery;
    for &u in &order {
        let c = Skirmish::ch(state, u);
        if !c.in_play() || !c.dazed {
            continue;
        }
        let wounded = rules.wounded(state, u);
        let total = roll(rules, u, "dazed recovery", "SK-MOR-2", ctx)
            + i32::from(rules.chars[u.index()].morale)
            - if wounded { r.wounded } else { 0 }
            - r.base;
        let result = if total <= 0 {
            "stays Dazed"
        } else if total <= r.partial {
            "recovers, its next Complex and Quick Actions spent"
        } else {
            "recovers"
        };
        checked(
            ctx,
            u,
            "dazed_recovery",
            total,
            || {
                format!(
                    "1 to {} recovers with CA and QA spent, {} or more recovers",
                    r.partial,
                    r.partial + 1
                )
            },
            result,
            "SK-MOR-2",
        );
        if total > 0 {
            let c = &mut state.chars[u.index()];
            c.dazed = false;
            if total <= r.partial {
                c.spent = true;
            }
            statuses::status(ctx, u, "dazed", false, "SK-MOR-2", result);
        }
    }
}
