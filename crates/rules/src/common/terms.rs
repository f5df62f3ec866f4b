//! An evaluation kept as one table of named terms (`Ruleset::evaluation_terms`): the
//! score is the sum of weight × value, and the fit of the weights reads the same parts.

use grognard_engine::Term;

/// The evaluation: each of `parts` times the weight of its term in `table`.
pub(crate) fn weighed(parts: &[f64], table: &[(&'static str, f64)]) -> f64 {
    parts.iter().zip(table).map(|(v, (_, w))| v * w).sum()
}

/// Appends `parts` to `out`, each named and weighed by its term in `table`.
pub(crate) fn named(parts: &[f64], table: &[(&'static str, f64)], out: &mut Vec<Term>) {
    out.extend(
        parts
            .iter()
            .zip(table)
            .map(|(&v, &(name, w))| Term::new(name, v, w)),
    );
}
