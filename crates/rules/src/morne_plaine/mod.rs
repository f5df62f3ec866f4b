//! Morne Plaine: Napoleonic grand tactics (rules of 2008).
//!
//! Files follow the rulebook's chapters: [`turn`] (the sequence of play),
//! [`movement`], [`zones_of_control`], [`charge`], [`retreat`]. The tables are in
//! `data.toml`; rule IDs are listed in `docs/rules/morne-plaine.md`.

pub mod ai;
pub(crate) mod board;
pub mod bombardment;
pub mod charge;
pub mod combat;
pub(crate) mod contact;
pub mod data;
pub mod movement;
pub mod position;
pub mod rally;
pub(crate) mod reach;
pub mod retreat;
pub mod setup;
pub(crate) mod text;
pub mod turn;
pub mod units;
pub mod victory;
pub mod view;
pub mod zones_of_control;

use crate::common::{
    skeleton::skeleton,
    state::{clone_by_field, debug_without_stamp},
};
use data::Data;
use grognard_engine::scenario::{OptionSpec, Scenario, ValueKind, Vocabulary};
use grognard_engine::{
    Explanation, Names, Outcome, Preview, Reached, Reason, Refusal, Roll, Ruleset, UnitId,
};
use grognard_hex::{Direction, Hex, MapShape};
use serde::{Deserialize, Serialize};
pub use turn::Phase;
use units::{Class, Counter, UnitState};

pub(crate) use board::{cell_bits, side_bits, StepInfo, NO_HEX};

/// The ruleset's name in scenario files.
pub const NAME: &str = "morne_plaine";

/// The rules of Morne Plaine bound to one scenario.
#[derive(Debug)]
pub struct MornePlaine {
    /// Tells apart the bindings a thread's caches have seen.
    pub(crate) id: u64,
    pub(crate) data: Data,
    pub(crate) names: Names,
    pub(crate) map: MapShape,
    /// Side ids in play order.
    pub(crate) sides: [String; 2],
    /// Each side's home edge is north (true) or south (false) (MP-RET-7).
    pub(crate) north: [bool; 2],
    pub(crate) counters: Vec<Counter>,
    /// The indices of each side's units, in scenario order.
    pub(crate) side_units: [Vec<u16>; 2],
    /// Terrain row of each hex (index into `terrain_rows`).
    pub(crate) terrain: Vec<u8>,
    pub(crate) terrain_names: Vec<String>,
    pub(crate) terrain_rows: Vec<data::TerrainRow>,
    pub(crate) elevation: Vec<i8>,
    /// Per hex and direction: `side_bits`.
    pub(crate) side_flags: Vec<u16>,
    /// Per hex and direction: the step's [`StepInfo`].
    pub(crate) steps: Vec<StepInfo>,
    /// Per hex and direction: the neighbour's index, or [`NO_HEX`].
    pub(crate) nbr: Vec<u32>,
    /// Per hex: [`cell_bits`].
    pub(crate) cell: Vec<u8>,
    /// Per hex: a fort or a scenario place stands there (taken by a unit entering it).
    pub(crate) place: Vec<bool>,
    pub(crate) road_cost: u8,
    pub(crate) track_cost: u8,
    /// Fort hexes and the side holding each at the start.
    pub(crate) forts: Vec<(Hex, Option<u8>)>,
    pub(crate) turns: u32,
    pub(crate) victory: victory::VictoryRules,
    /// Option `bog_test`: marsh calls for the recovered bog test.
    pub(crate) bog_test: bool,
    pub(crate) scenario: Scenario,
    /// The combat table as the computer's threats read it ([`ai::Odds`]), built at the
    /// first evaluation.
    pub(crate) odds: std::sync::OnceLock<ai::Odds>,
}

/// The changing part of a game.
#[derive(PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Game turn, from 1.
    pub turn: u32,
    /// The side whose player turn it is: 0 plays first.
    pub active: u8,
    /// The phase of that player turn.
    pub phase: Phase,
    /// Every unit, in scenario order.
    pub units: Vec<UnitState>,
    /// The unit selected by its last step, the direction of that step and whether it
    /// entered clear terrain: a charge continues it (MP-CHG-6, MP-CHG-10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moving: Option<(UnitId, Direction, bool)>,
    /// Who holds each fort now (index as in the scenario's fort hexes).
    pub forts: Vec<Option<u8>>,
    /// Who holds each scenario place now (the last side to enter it, else its owner).
    pub held: Vec<Option<u8>>,
    /// Set once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// Which state this is, and what its last step changed (the movement board's
    /// bookkeeping, never part of the game: not written, not compared, not shown).
    #[serde(skip)]
    pub(crate) stamp: board::Stamp,
}

clone_by_field!(State: turn, active, phase, units, moving, forts, held, outcome, stamp);

// Its text leaves out the [`board::Stamp`]: the text of a state is its game alone.
debug_without_stamp!(State: turn, active, phase, units, moving, forts, held, outcome);

/// What a player does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Action {
    /// Step one hex toward one of the six directions (MP-MOV-2, MP-MOV-5).
    Move {
        /// The unit.
        unit: UnitId,
        /// The adjacent hex.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
    },
    /// Continue a step on clear terrain in the same direction as a charging action
    /// against the unit in line (MP-CHG-4 to MP-CHG-10).
    Charge {
        /// The mounted unit.
        unit: UnitId,
        /// The enemy unit in line.
        target: UnitId,
    },
    /// A battery fires at a hex holding an enemy unit (MP-BMB-1).
    Bombard {
        /// The battery.
        unit: UnitId,
        /// The target hex.
        #[serde(with = "grognard_engine::wire::label")]
        target: Hex,
    },
    /// Attack an adjacent enemy unit (MP-CMB-2).
    Attack {
        /// The attacking unit.
        unit: UnitId,
        /// The defending unit.
        target: UnitId,
    },
    /// End the current phase.
    EndPhase,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A die was rolled.
    Roll(Roll),
    /// A phase began.
    PhaseBegan {
        /// Game turn.
        turn: u32,
        /// The side whose player turn it is.
        side: String,
        /// The phase.
        phase: Phase,
    },
    /// A unit stepped into a hex.
    Moved {
        /// The unit.
        unit: UnitId,
        /// From.
        #[serde(with = "grognard_engine::wire::label")]
        from: Hex,
        /// To.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
        /// Points spent.
        cost: u8,
        /// Points left.
        left: u8,
        /// The rules that priced the step.
        rules: StepRules,
    },
    /// A unit may move no further this phase.
    Halted {
        /// The unit.
        unit: UnitId,
        /// The rule.
        rule: String,
        /// Why.
        reason: String,
    },
    /// A charge was resolved.
    Charged {
        /// The charging unit.
        unit: UnitId,
        /// The target.
        target: UnitId,
        /// The target's morale value for the test, after slope and stream modifiers.
        morale: i32,
        /// The correction to the roll: the charger's strength minus the target's.
        modifier: i32,
        /// The final number compared with the morale.
        result: i32,
        /// True when the target failed the test and the charge succeeded.
        success: bool,
    },
    /// A unit lost morale, then strength once its morale was gone (MP-CHG-27).
    Shaken {
        /// The unit.
        unit: UnitId,
        /// Morale points lost.
        morale: u8,
        /// Strength points lost because morale ran out.
        strength: u8,
        /// The rule.
        rule: String,
    },
    /// A unit retreated.
    Retreated {
        /// The unit.
        unit: UnitId,
        /// From.
        #[serde(with = "grognard_engine::wire::label")]
        from: Hex,
        /// To.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
        /// Enemy zones of control entered, the causing unit's aside.
        zones: u8,
        /// The rule that chose the hex.
        rule: String,
    },
    /// A unit took another's hex (a charge, an advance after combat).
    TookHex {
        /// The unit.
        unit: UnitId,
        /// Its new hex.
        #[serde(with = "grognard_engine::wire::label")]
        to: Hex,
        /// The rule.
        rule: String,
    },
    /// A unit was eliminated.
    Eliminated {
        /// The unit.
        unit: UnitId,
        /// The rule.
        rule: String,
        /// Why.
        reason: String,
    },
    /// A battery fired.
    Bombarded {
        /// The battery.
        unit: UnitId,
        /// The unit in the target hex.
        target: UnitId,
        /// 1d6 + BV - distance.
        result: i32,
    },
    /// An attack was resolved on the table.
    Attacked {
        /// The attacking unit.
        unit: UnitId,
        /// The defending unit.
        target: UnitId,
        /// Attacking total.
        attack: u32,
        /// Defending total.
        defence: u32,
        /// The table column.
        odds: String,
        /// The die modifier.
        modifier: i32,
        /// The final die, 0 to 7.
        die: u8,
        /// The table's cell.
        result: data::CrtResult,
        /// Offensive supports.
        supports: Vec<UnitId>,
        /// Defensive supports.
        defence_supports: Vec<UnitId>,
    },
    /// A morale check after combat.
    MoraleChecked {
        /// The unit.
        unit: UnitId,
        /// Its morale value.
        morale: u8,
        /// The 1-9 number.
        roll: u8,
        /// Failed: the unit retreats.
        failed: bool,
    },
    /// A unit regained morale.
    Rallied {
        /// The unit.
        unit: UnitId,
        /// Points regained.
        morale: u8,
        /// The rule.
        rule: String,
    },
    /// A reinforcement came on.
    Arrived {
        /// The unit.
        unit: UnitId,
        /// Where.
        #[serde(with = "grognard_engine::wire::label")]
        at: Hex,
        /// The rule.
        rule: String,
    },
    /// A bombardment or combat phase passed by itself, right after it began: nothing
    /// could fire or attack (MP-TURN-2).
    PhasePassed {
        /// Game turn.
        turn: u32,
        /// The side whose phase it was.
        side: String,
        /// The phase.
        phase: Phase,
        /// MP-TURN-2.
        rule: String,
        /// Why, in words.
        reason: String,
        /// In a combat phase, each enemy next to a unit of the side, with why that unit
        /// may not attack it (across a river, MP-CMB-5; demoralised, MP-DEM-3; ...).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        refused: Vec<Unattackable>,
    },
    /// The game ended.
    GameOver {
        /// The result.
        outcome: Outcome,
    },
}

/// An enemy next to a unit in its side's combat phase that the unit may not attack, with
/// the rules that say so (what [`Event::PhasePassed`] lists).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unattackable {
    /// The unit that may not attack.
    pub unit: UnitId,
    /// The enemy next to it.
    pub target: UnitId,
    /// Why not, as `explain` gives it.
    pub reasons: Vec<Reason>,
}

/// The rules that priced a step, as the event log shows them: `MP-MOV-3` and then each
/// rule that applied. Kept as bits, written as a list of IDs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepRules(u16);

impl StepRules {
    /// The rule IDs, `MP-MOV-3` first.
    pub fn ids(self) -> impl Iterator<Item = &'static str> {
        std::iter::once("MP-MOV-3").chain(
            movement::WHY
                .iter()
                .filter(move |w| self.0 & w.0 != 0)
                .map(|w| w.1),
        )
    }
}

impl serde::Serialize for StepRules {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.ids())
    }
}

impl<'de> serde::Deserialize<'de> for StepRules {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<StepRules, D::Error> {
        let ids = Vec::<String>::deserialize(d)?;
        let mut bits = 0;
        for id in &ids {
            match movement::WHY.iter().find(|w| w.1 == id) {
                Some(w) => bits |= w.0,
                None if id == "MP-MOV-3" => {}
                None => {
                    return Err(serde::de::Error::custom(format!(
                        "unknown step rule `{id}`"
                    )))
                }
            }
        }
        Ok(StepRules(bits))
    }
}

impl From<Roll> for Event {
    fn from(r: Roll) -> Event {
        Event::Roll(r)
    }
}

impl MornePlaine {
    pub(crate) fn idx(&self, hex: Hex) -> Option<usize> {
        self.map.index(hex)
    }

    pub(crate) fn row(&self, hex: Hex) -> Option<&data::TerrainRow> {
        self.idx(hex)
            .map(|i| &self.terrain_rows[usize::from(self.terrain[i])])
    }

    pub(crate) fn terrain_name(&self, hex: Hex) -> &str {
        self.idx(hex).map_or("off map", |i| {
            self.terrain_names[usize::from(self.terrain[i])].as_str()
        })
    }

    /// MP-TER-4: whether a hex is a town in the texts' sense. Reading: the Movement Cost
    /// Chart has a village row and no town row, so the texts' "towns" (zones of control,
    /// charge targets, advance ranks and objectives, line of sight) and "village" (the
    /// retreat's first choice) are one terrain class: villages and towns (the terrain
    /// table's `town`), not hamlets. Every rule that asks about towns asks here.
    pub(crate) fn is_town(&self, hex: Hex) -> bool {
        self.cell_is(hex, cell_bits::TOWN)
    }

    /// Whether a hex has a [`cell_bits`] bit (false off the map).
    pub(crate) fn cell_is(&self, hex: Hex, bit: u8) -> bool {
        self.idx(hex).is_some_and(|i| self.cell[i] & bit != 0)
    }

    /// The neighbour of hex index `i` toward `dir`, if on the map.
    pub(crate) fn nbr_at(&self, i: usize, dir: Direction) -> Option<usize> {
        let j = self.nbr[i * 6 + dir.index()];
        (j != NO_HEX).then_some(j as usize)
    }

    pub(crate) fn flags(&self, hex: Hex, dir: Direction) -> u16 {
        self.idx(hex)
            .map_or(0, |i| self.side_flags[i * 6 + dir.index()])
    }

    pub(crate) fn elev(&self, hex: Hex) -> i8 {
        self.idx(hex).map_or(0, |i| self.elevation[i])
    }

    pub(crate) fn label(&self, hex: Hex) -> String {
        self.names.label(hex)
    }

    /// A unit as sentences name it: its scenario name.
    pub(crate) fn unit_name(&self, u: UnitId) -> &str {
        self.names.unit_title(u)
    }

    /// A unit's scenario id, for JSON.
    pub(crate) fn unit_id(&self, u: UnitId) -> &str {
        &self.counters[u.index()].id
    }

    /// Whether `u` is a mounted unit (cavalry or a leader; MP-CHG-1, MP-CHG-2: only
    /// mounted units charge, and dromedaries are not mounted); false for no such unit.
    #[must_use]
    pub fn mounted(&self, u: UnitId) -> bool {
        self.counters.get(u.index()).is_some_and(|c| c.mounted)
    }

    /// The unit in a hex, if any.
    pub(crate) fn occupant(state: &State, hex: Hex) -> Option<UnitId> {
        state
            .units
            .iter()
            .position(|u| u.hex == Some(hex))
            .map(|i| UnitId(u16::try_from(i).expect("unit count fits u16")))
    }

    /// Per hex, the unit there as its index + 1 (0: empty): built once per question so
    /// that the hot paths (legal actions) ask "who is there" in one lookup. One unit a
    /// hex at most (MP-MOV-7).
    pub(crate) fn occupancy(&self, state: &State) -> Vec<u16> {
        let mut occ = Vec::new();
        self.occupancy_into(state, &mut occ);
        occ
    }

    /// [`MornePlaine::occupancy`] into a buffer.
    pub(crate) fn occupancy_into(&self, state: &State, occ: &mut Vec<u16>) {
        occ.clear();
        occ.resize(self.map.len(), 0);
        for (i, s) in state.units.iter().enumerate() {
            if let Some(j) = s.hex.and_then(|h| self.idx(h)) {
                occ[j] = u16::try_from(i + 1).expect("unit count fits u16");
            }
        }
    }

    /// The unit in a hex, read from an [`MornePlaine::occupancy`] table.
    pub(crate) fn occupant_in(&self, occ: &[u16], hex: Hex) -> Option<UnitId> {
        let v = occ[self.idx(hex)?];
        (v != 0).then(|| UnitId(v - 1))
    }

    /// [`MornePlaine::occupant_in`] without the table: the last unit standing in `hex`
    /// in the scenario's order, as [`MornePlaine::occupancy`] records it.
    pub(crate) fn occupant_scan(&self, state: &State, hex: Hex) -> Option<UnitId> {
        let i = state.units.iter().rposition(|s| s.hex == Some(hex))?;
        Some(UnitId(u16::try_from(i).expect("unit count fits u16")))
    }

    /// Demoralised: morale 0 (MP-DEM-1); leaders have no morale and never are.
    pub(crate) fn demoralised(&self, state: &State, u: UnitId) -> bool {
        self.counters[u.index()].class != Class::Leader && state.units[u.index()].mv == 0
    }

    pub(crate) fn side_name(&self, side: u8) -> &str {
        &self.sides[usize::from(side)]
    }

    /// A side as sentences name it: its scenario name.
    pub(crate) fn side_title(&self, side: u8) -> &str {
        self.names.side_title(self.side_name(side))
    }

    pub(crate) fn unit_ids(&self) -> impl Iterator<Item = UnitId> {
        (0..self.counters.len()).map(|i| UnitId(u16::try_from(i).expect("unit count fits u16")))
    }
}

impl Ruleset for MornePlaine {
    // The items every ruleset delegates alike; below, this ruleset's own.
    skeleton! {
        types, new, names, to_act, legal_actions, apply_unchecked, outcome, view, turn, position,
        // Morne Plaine hides nothing: every seat sees the whole board.
        public_views
    }

    fn vocabulary() -> Vocabulary {
        let data = Data::shipped();
        let mut v = Vocabulary::new(NAME)
            .terrains(data.terrain.keys().cloned())
            .hexside_features(data.hexside.keys().cloned())
            .path_kinds(data.path.keys().cloned())
            .sides(["orange", "blue"])
            .option(OptionSpec::new(
                "bog_test",
                ValueKind::Bool,
                true,
                "marsh calls for the recovered bog test; off, marsh costs its points and nothing more",
            ));
        for t in units::unit_types() {
            v = v.unit_type(t);
        }
        v
    }

    fn initial_state(&self) -> State {
        turn::initial_state(self)
    }

    fn explain(&self, state: &State, action: &Action) -> Explanation {
        turn::explain(self, state, action)
    }

    fn allows(&self, state: &State, action: &Action) -> bool {
        turn::allows(self, state, action)
    }

    fn event_text(&self, event: &Event) -> String {
        text::event(self, event)
    }

    fn preview(&self, state: &State, action: &Action) -> Result<Preview, Refusal> {
        let mut preview = match action {
            Action::Charge { unit, target } => charge::preview(self, state, *unit, *target),
            Action::Move { unit, to } => movement::preview(self, state, *unit, *to),
            Action::Bombard { unit, target } => bombardment::preview(self, state, *unit, *target),
            Action::Attack { unit, target } => combat::preview(self, state, *unit, *target),
            Action::EndPhase => Err(Refusal::new("MP-TURN-1", "ending a phase rolls no dice")),
        }?;
        text::preview(self, state, action, &mut preview);
        Ok(preview)
    }

    fn reachable(&self, state: &State, unit: UnitId) -> Result<Vec<Reached>, Refusal> {
        reach::reachable(self, state, unit)
    }

    fn evaluate(&self, state: &State, side: &str) -> f64 {
        self.score(state, side)
    }

    fn evaluation_terms(&self, state: &State, side: &str, out: &mut Vec<grognard_engine::Term>) {
        self.terms(state, side, out);
    }

    fn plans(&self, state: &State, out: &mut Vec<grognard_engine::Plan<Action>>) {
        self.ai_plans(state, out);
    }

    fn pass(&self, state: &State) -> Option<Action> {
        state.outcome.is_none().then_some(Action::EndPhase)
    }
}
