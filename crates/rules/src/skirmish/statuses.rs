//! Statuses (`docs/rules/skirmish.md`): Dazed (SK-STA-1), Panicked (SK-STA-2),
//! Berserk (SK-STA-3), Wounded (SK-STA-4), Encumbered (SK-STA-5), out of action
//! (SK-STA-7); Engaged is in [`super::zones_of_control`]. What a status does to attack
//! and defense is in [`super::melee`], to movement in [`super::movement`].

use super::{board, Event, Skirmish, State};
use grognard_engine::scenario::Edge;
use grognard_engine::{Ctx, Outcome, UnitId};
use grognard_hex::Hex;
use std::rc::Rc;

impl Skirmish {
    /// SK-STA-7 (provisional): the damage a character takes before going out of action.
    pub(crate) fn health(&self, u: UnitId) -> u8 {
        self.chars[u.index()].vigor + self.data.wounds.base
    }

    /// SK-STA-4 (provisional): Wounded from half its health, rounded up.
    pub(crate) fn wounded(&self, state: &State, u: UnitId) -> bool {
        let d = Self::ch(state, u).damage;
        d > 0 && 2 * u32::from(d) >= u32::from(self.health(u))
    }

    /// SK-STA-4, SK-STA-5: Wounded or Encumbered (the penalties do not add up).
    pub(crate) fn hindered(&self, state: &State, u: UnitId) -> bool {
        self.wounded(state, u) || Self::ch(state, u).encumbered
    }

    /// SK-MOV-4: Finesse + 3 movement points, 2 fewer when Wounded or Encumbered;
    /// SK-STA-2: a Panicked character gains its Morale in extra points.
    pub(crate) fn allowance(&self, state: &State, u: UnitId) -> u8 {
        let c = &self.chars[u.index()];
        let m = &self.data.movement;
        let mut mp = (c.finesse + m.base).saturating_sub(if self.hindered(state, u) {
            m.hindered
        } else {
            0
        });
        if Self::ch(state, u).panicked {
            mp += c.morale;
        }
        mp
    }

    /// SK-SHM-2: a short move has Finesse // 2 points, with the same modifiers.
    pub(crate) fn short_allowance(&self, state: &State, u: UnitId) -> u8 {
        let c = &self.chars[u.index()];
        (c.finesse / 2).saturating_sub(if self.hindered(state, u) {
            self.data.movement.hindered
        } else {
            0
        })
    }

    /// SK-ACT-1: one Melee Action a turn unless Dazed.
    pub(crate) fn melee_actions(state: &State, u: UnitId) -> u8 {
        u8::from(!Self::ch(state, u).dazed)
    }

    /// SK-CHG-12: a character makes as many counterattacks and attacks of opportunity a
    /// phase as it has Melee Actions.
    pub(crate) fn can_riposte(state: &State, u: UnitId) -> bool {
        let c = Self::ch(state, u);
        c.in_play() && c.ripostes < Self::melee_actions(state, u)
    }

    /// The indices of the hexes along a side's home edge (SK-STA-2), in map order.
    pub(crate) fn edge_hexes(&self, side: u8) -> Vec<usize> {
        self.map
            .hexes()
            .enumerate()
            .filter(|&(_, h)| self.on_edge(side, h))
            .map(|(i, _)| i)
            .collect()
    }

    /// SK-STA-2: each hex's distance by points to `u`'s home edge, through free hexes and
    /// friends (whom it may pass). Exact for `u`'s own hex and for whatever costs no
    /// more than it (all a flight's steps from there read, see [`board::field`]).
    pub(crate) fn flight_field(&self, state: &State, u: UnitId) -> Rc<[u32]> {
        let standing = state.chars.iter().map(|c| c.hex);
        board::memo(self.id, board::Kind::Flight(u.0), standing, || {
            self.flight_field_now(state, u)
        })
    }

    /// [`Skirmish::flight_field`], computed: who stands where read as bit sets where the
    /// map has them (no tables to allocate), and the field on them, the same as
    /// [`Skirmish::flight_field_walked`] at every hex costing no more than the character's.
    fn flight_field_now(&self, state: &State, u: UnitId) -> Vec<u32> {
        let Some(open) = self.cells.open_bits() else {
            return self.flight_field_walked(state, u);
        };
        let side = self.side_of(u);
        let me = Self::ch(state, u).hex.and_then(|h| self.idx(h));
        // The hexes holding someone, two or more, an enemy.
        let (mut one, mut two, mut enemy) = (0u128, 0u128, 0u128);
        for (i, c) in state.chars.iter().enumerate() {
            if let Some(k) = c.hex.and_then(|h| self.idx(h)) {
                let bit = 1u128 << k;
                two |= one & bit;
                one |= bit;
                if self.chars[i].side != side {
                    enemy |= bit;
                }
            }
        }
        let mine = me.map_or(0, |k| 1u128 << k);
        let goals: Vec<usize> = self.edges[usize::from(side)]
            .iter()
            .copied()
            .filter(|&k| open >> k & 1 == 1 && (Some(k) == me || one >> k & 1 == 0))
            .collect();
        let through = open & (mine | !enemy) & !two;
        // The field on the bit sets leaves `u32::MAX` where [`board::field`] leaves a
        // cost above the fleeing character's own: every reader asks only whether a step
        // from that hex goes down the field to a neighbour (SK-STA-2), and a neighbour
        // costing more than the hex itself answers no either way.
        let Some(field) = board::field_bits(&self.cells, &goals, through, me) else {
            return board::field(&self.cells, &goals, |k| through >> k & 1 == 1, me);
        };
        if cfg!(debug_assertions) {
            let slow = self.flight_field_walked(state, u);
            let known = me.map_or(u32::MAX, |k| slow[k]);
            for (k, (&fast, &slow)) in field.iter().zip(&slow).enumerate() {
                let expected = if slow <= known { slow } else { u32::MAX };
                assert_eq!(fast, expected, "{u:?}'s flight field at hex {k}");
            }
        }
        field
    }

    /// [`Skirmish::flight_field_now`] from tables of each hex's occupants, on any map.
    fn flight_field_walked(&self, state: &State, u: UnitId) -> Vec<u32> {
        let side = self.side_of(u);
        let me = Self::ch(state, u).hex.and_then(|h| self.idx(h));
        // Each hex's occupants counted once: how many, and whether an enemy is among them.
        let mut count = vec![0u8; self.map.len()];
        let mut enemy = vec![false; self.map.len()];
        for (i, c) in state.chars.iter().enumerate() {
            if let Some(k) = c.hex.and_then(|h| self.idx(h)) {
                count[k] = count[k].saturating_add(1);
                enemy[k] |= self.chars[i].side != side;
            }
        }
        let goals: Vec<usize> = self.edges[usize::from(side)]
            .iter()
            .copied()
            .filter(|&k| self.cells.open(k) && (Some(k) == me || count[k] == 0))
            .collect();
        board::field(
            &self.cells,
            &goals,
            |k| self.cells.open(k) && (Some(k) == me || !enemy[k]) && count[k] < 2,
            me,
        )
    }

    /// Whether a hex lies on a side's home edge.
    pub(crate) fn on_edge(&self, side: u8, hex: Hex) -> bool {
        let (c, r) = self.map.to_offset(hex);
        let (cols, rows) = (
            i32::try_from(self.map.cols()).expect("small map"),
            i32::try_from(self.map.rows()).expect("small map"),
        );
        match self.home[usize::from(side)] {
            Edge::North => r == 0,
            Edge::South => r == rows - 1,
            Edge::West => c == 0,
            Edge::East => c == cols - 1,
        }
    }
}

/// Emits a status change.
pub(crate) fn status(
    ctx: &mut Ctx<'_, Event>,
    unit: UnitId,
    status: &'static str,
    on: bool,
    rule: &'static str,
    reason: impl Into<String>,
) {
    ctx.emit_with(|| Event::Status {
        unit,
        status: status.into(),
        on,
        rule: rule.into(),
        reason: reason.into(),
    });
}

/// A reason worded only when an event takes it ([`status`] and the like turn theirs into
/// a `String` inside the event's closure, never in a quiet context): for a reason that
/// is formatted.
pub(crate) struct Later<F>(pub F);

impl<F: FnOnce() -> String> From<Later<F>> for String {
    fn from(later: Later<F>) -> String {
        (later.0)()
    }
}

/// SK-MOV-15: a Dazed, Panicked or Berserk character loses the benefit of evasive
/// movement at once.
pub(crate) fn lose_evasive(state: &mut State, u: UnitId, ctx: &mut Ctx<'_, Event>) {
    let c = &mut state.chars[u.index()];
    if c.evasive {
        c.evasive = false;
        status(
            ctx,
            u,
            "evasive",
            false,
            "SK-MOV-15",
            "Dazed, Panicked and Berserk characters lose the benefit of evasive movement",
        );
    }
}

/// SK-STA-1: dazes a character; SK-STA-3: a Berserk one is never Dazed. True when it
/// became Dazed.
pub(crate) fn daze(
    state: &mut State,
    u: UnitId,
    rule: &'static str,
    reason: impl Into<String>,
    ctx: &mut Ctx<'_, Event>,
) -> bool {
    let c = &state.chars[u.index()];
    if c.dazed || c.berserk || !c.in_play() {
        return false;
    }
    state.chars[u.index()].dazed = true;
    status(ctx, u, "dazed", true, rule, reason);
    lose_evasive(state, u, ctx);
    true
}

/// Damage from a hit (SK-MEL-6): wounds (SK-STA-4), out of action (SK-STA-7), a daze
/// from a heavy blow. Returns whether the character was dazed by it.
pub(crate) fn hurt(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    damage: u8,
    ctx: &mut Ctx<'_, Event>,
) -> bool {
    if damage == 0 || !Skirmish::ch(state, u).in_play() {
        return false;
    }
    let was_wounded = rules.wounded(state, u);
    let c = &mut state.chars[u.index()];
    c.damage = c.damage.saturating_add(damage);
    if c.damage >= rules.health(u) {
        take_out(rules, state, u, false, ctx);
        return false;
    }
    if !was_wounded && rules.wounded(state, u) {
        status(
            ctx,
            u,
            "wounded",
            true,
            "SK-STA-4",
            Later(|| {
                format!(
                    "{} damage of {}: Wounded from half",
                    Skirmish::ch(state, u).damage,
                    rules.health(u)
                )
            }),
        );
        // SK-MOR-3: a wound calls for a panic check.
        state.chars[u.index()].shaken = true;
    }
    if damage >= rules.data.wounds.daze_at {
        return daze(
            state,
            u,
            "SK-MEL-6",
            Later(|| {
                format!(
                    "a blow of {damage} points (a hit of {} or more dazes)",
                    rules.data.wounds.daze_at
                )
            }),
            ctx,
        );
    }
    false
}

/// SK-STA-7, SK-STA-2: a character leaves the fight, out of action or fled; friends
/// nearby are shaken (SK-MOR-3) and the game may be over (SK-TURN-3).
pub(crate) fn take_out(
    rules: &Skirmish,
    state: &mut State,
    u: UnitId,
    fled: bool,
    ctx: &mut Ctx<'_, Event>,
) {
    let Some(hex) = Skirmish::ch(state, u).hex else {
        return;
    };
    let c = &mut state.chars[u.index()];
    c.hex = None;
    c.dazed = false;
    c.panicked = false;
    c.berserk = false;
    c.evasive = false;
    c.defending = None;
    if fled {
        c.fled = true;
        ctx.emit_with(|| Event::Fled {
            unit: u,
            rule: "SK-STA-2".into(),
        });
    } else {
        c.out = true;
        ctx.emit_with(|| Event::OutOfAction {
            unit: u,
            rule: "SK-STA-7".into(),
        });
    }
    let side = rules.side_of(u);
    for f in rules.side_ids(side) {
        if Skirmish::ch(state, f)
            .hex
            .is_some_and(|h| h.distance(hex) <= rules.data.panic.radius)
        {
            state.chars[f.index()].shaken = true;
        }
    }
    wipeout(rules, state, ctx);
}

/// The characters of each side still in the fight.
fn standing(rules: &Skirmish, state: &State) -> [usize; 2] {
    [0u8, 1].map(|s| {
        rules
            .side_ids(s)
            .filter(|&u| Skirmish::ch(state, u).in_play())
            .count()
    })
}

/// SK-TURN-3: a side with nobody left in the fight has lost, at once. Judged here, where
/// a character leaves the fight, not by the sequencer after the action: of two blows
/// struck together (SK-MEL-7), the first to empty a band decides the game.
pub(crate) fn wipeout(rules: &Skirmish, state: &mut State, ctx: &mut Ctx<'_, Event>) {
    if state.outcome.is_some() {
        return;
    }
    let left = standing(rules, state);
    let outcome = match left {
        [0, 0] => Outcome {
            winner: None,
            reason: "both bands are out of the fight".into(),
            rule: Some("SK-TURN-3".into()),
        },
        [0, _] | [_, 0] => {
            let w = u8::from(left[0] == 0);
            Outcome {
                winner: Some(rules.side_name(w).to_owned()),
                reason: format!("{} has nobody left in the fight", rules.side_title(1 - w)),
                rule: Some("SK-TURN-3".into()),
            }
        }
        _ => return,
    };
    ctx.emit_with(|| Event::GameOver {
        outcome: outcome.clone(),
    });
    state.outcome = Some(outcome);
    state.window = None;
    state.charge = None;
    state.moving = None;
}
