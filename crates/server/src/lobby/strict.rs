//! Strict input: an action holds only fields its ruleset reads.

use crate::error::ApiError;
use serde_json::Value;

/// Refuses `given` when it holds a field `canonical` (the same action as the ruleset
/// writes it) lacks: a field the rules do not read. A field left out of the canonical
/// form because its value is empty (`null`, `false`, `[]`, `{}`: how rulesets leave
/// out an absent option) is no such field, and is not stored either.
///
/// # Errors
/// 400 `json`, naming the first such field by its path (`action.unit.extra`).
pub fn no_unknown_field(given: &Value, canonical: &Value) -> Result<(), ApiError> {
    match unknown(given, canonical, "action") {
        None => Ok(()),
        Some(path) => Err(ApiError::BadRequest {
            rule: "json".into(),
            message: format!(
                "unknown field `{path}`: the rules do not read it; send the action as the \
                 game object lists it"
            ),
        }),
    }
}

fn unknown(given: &Value, canonical: &Value, path: &str) -> Option<String> {
    match (given, canonical) {
        (Value::Object(g), Value::Object(c)) => g.iter().find_map(|(k, v)| match c.get(k) {
            Some(cv) => unknown(v, cv, &format!("{path}.{k}")),
            None if is_empty(v) => None,
            None => Some(format!("{path}.{k}")),
        }),
        (Value::Array(g), Value::Array(c)) => g
            .iter()
            .zip(c)
            .enumerate()
            .find_map(|(i, (v, cv))| unknown(v, cv, &format!("{path}[{i}]"))),
        _ => None,
    }
}

fn is_empty(v: &Value) -> bool {
    match v {
        Value::Null | Value::Bool(false) => true,
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_field_the_canonical_form_lacks_is_named_by_its_path() {
        let canonical =
            json!({"type": "move", "unit": "b-1", "to": "0809", "path": [{"hex": "0808"}]});
        assert!(no_unknown_field(&canonical, &canonical).is_ok());
        let e = no_unknown_field(
            &json!({"type": "move", "unit": "b-1", "to": "0809", "x": 1}),
            &canonical,
        )
        .unwrap_err();
        assert!(e.to_string().contains("`action.x`"), "{e}");
        let e = no_unknown_field(
            &json!({"type": "move", "unit": "b-1", "to": "0809", "path": [{"hex": "0808", "pad": "x"}]}),
            &canonical,
        )
        .unwrap_err();
        assert!(e.to_string().contains("`action.path[0].pad`"), "{e}");
        assert!(no_unknown_field(
            &json!({"type": "move", "unit": "b-1", "to": "0809", "attacker": null}),
            &canonical
        )
        .is_ok());
    }
}
