//! Mechanics shared by the Commands & Colors family, the rulesets that roll symbol dice
//! (Battle Cry, JOMINI V2): the dice a unit rolls and the symbols counted ([`dice`]),
//! figures or stands lost to hits ([`losses`]), retreats toward a side's own edge
//! ([`retreat`]), and what the computer opponent judges alike ([`ai`]). Each function cites the rule IDs it applies in both rules indexes,
//! `docs/rules/battle-cry.md` and `docs/rules/jomini.md`; what differs between the two
//! games (which face hits what, what an elimination scores, who retreats with a unit)
//! stays in the ruleset.

pub mod ai;
pub mod dice;
pub mod losses;
pub mod retreat;
