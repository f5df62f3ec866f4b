//! The lean forms of the game object (issue 17): the log's entries after the `n` a
//! client holds (`?since=K`), and the legal actions grouped by what they share
//! (`?legal=compact`) or left out (`?legal=none`). Without either, the object is the
//! full one, as it always was.

use super::{Table, Viewer, LOG_TAIL};
use grognard_engine::{AnyGame, Seat};
use serde::Deserialize;
use serde_json::{json, Map, Value};
use std::sync::Arc;

/// How the legal actions are written in a game object.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Legal {
    /// `actions`: every legal action whole, as `POST .../actions` takes it.
    #[default]
    Full,
    /// `legal`: the actions in groups ([`compact`]), which [`expand`] turns back into
    /// `actions`, in the same order.
    Compact,
    /// Neither: the client asks `GET .../legal?unit=U` when it needs them.
    None,
}

/// The form of a game object a client asks for: the query of `GET /api/games/{id}`,
/// `POST .../actions`, `POST .../undo` and the WebSocket.
#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub struct Form {
    /// Only the log's entries after the first `since` (`log_from` says from where).
    pub since: Option<u64>,
    /// The `undos` of the object the client holds, with `since`: when the game has
    /// taken actions back since, the entries the client holds past what is still
    /// the game's are sent again.
    pub undos: Option<u64>,
    /// How the legal actions are written.
    #[serde(default)]
    pub legal: Legal,
}

impl Form {
    /// The full object, as without any parameter.
    #[must_use]
    pub fn is_full(&self) -> bool {
        self.since.is_none() && self.legal == Legal::Full
    }
}

/// Groups `actions` without changing their order: a run of consecutive actions with
/// the same fields that differ in one field only becomes one group,
/// `{"common": {fields they share}, "vary": FIELD, "values": [its value in each]}`;
/// an action in no run, `{"common": action}`. An action that is not a JSON object is
/// `{"action": action}`.
#[must_use]
pub fn compact(actions: Vec<Value>) -> Vec<Value> {
    let mut out = Vec::new();
    let mut run: Option<Run> = None;
    for action in actions {
        let Value::Object(fields) = action else {
            out.extend(run.take().map(Run::into_value));
            out.push(json!({ "action": action }));
            continue;
        };
        run = Some(match run.take() {
            None => Run::new(fields),
            Some(r) => match r.join(fields) {
                Ok(r) => r,
                Err((r, fields)) => {
                    out.push(r.into_value());
                    Run::new(fields)
                }
            },
        });
    }
    out.extend(run.map(Run::into_value));
    out
}

/// The actions of [`compact`]'s groups, in order: its inverse.
#[must_use]
pub fn expand(groups: &[Value]) -> Vec<Value> {
    let mut out = Vec::new();
    for g in groups {
        if let Some(a) = g.get("action") {
            out.push(a.clone());
            continue;
        }
        let common = g.get("common").and_then(Value::as_object);
        let vary = g.get("vary").and_then(Value::as_str);
        let values = g.get("values").and_then(Value::as_array);
        match (common, vary, values) {
            (Some(c), Some(k), Some(vs)) => {
                for v in vs {
                    let mut a = c.clone();
                    a.insert(k.to_owned(), v.clone());
                    out.push(Value::Object(a));
                }
            }
            (Some(c), _, _) => out.push(Value::Object(c.clone())),
            _ => {}
        }
    }
    out
}

/// A run of actions being grouped.
struct Run {
    common: Map<String, Value>,
    vary: Option<(String, Vec<Value>)>,
}

impl Run {
    fn new(fields: Map<String, Value>) -> Run {
        Run {
            common: fields,
            vary: None,
        }
    }

    /// The run with `next` added, or the run and `next` when it does not fit.
    fn join(mut self, mut next: Map<String, Value>) -> Result<Run, (Run, Map<String, Value>)> {
        match &mut self.vary {
            Some((key, values)) => {
                let fits = next.len() == self.common.len() + 1
                    && next.contains_key(key.as_str())
                    && self
                        .common
                        .iter()
                        .all(|(k, v)| next.get(k.as_str()) == Some(v));
                if !fits {
                    return Err((self, next));
                }
                values.extend(next.remove(key.as_str()));
                Ok(self)
            }
            None => {
                if next.len() != self.common.len() {
                    return Err((self, next));
                }
                let mut differ = self
                    .common
                    .iter()
                    .filter(|(k, v)| next.get(k.as_str()) != Some(*v));
                let (Some((key, _)), None) = (differ.next(), differ.next()) else {
                    return Err((self, next));
                };
                let key = key.clone();
                if !next.contains_key(key.as_str()) {
                    return Err((self, next));
                }
                let first = self.common.remove(key.as_str()).unwrap_or(Value::Null);
                let second = next.remove(key.as_str()).unwrap_or(Value::Null);
                self.vary = Some((key, vec![first, second]));
                Ok(self)
            }
        }
    }

    fn into_value(self) -> Value {
        match self.vary {
            Some((key, values)) => json!({"common": self.common, "vary": key, "values": values}),
            None => json!({ "common": self.common }),
        }
    }
}

impl Table {
    /// The game object for `viewer` in `form`, as JSON text: the full object
    /// ([`Table::object_text`]) when the form is full; else everything but the log
    /// and the legal actions as [`Table::object`] has them, the legal actions as the
    /// form asks (built once per viewer, action and form, and shared), then
    /// `log_from` and the entries of the seat's log after it, which the engine writes
    /// for this request alone: the cost does not grow with the game's length.
    pub fn object_in(&self, game: &dyn AnyGame, viewer: &Viewer, form: Form) -> Arc<str> {
        if form.is_full() {
            return self.object_text(game, viewer);
        }
        let viewer = &self.resolve(game, viewer);
        let key = format!("{}\u{0}{:?}", viewer.name(), form.legal);
        let head = self.cached_text(&key, game.len(), || {
            let mut text = self.object_text_in(game, viewer, form.legal, false);
            // Open, for the log to follow.
            text.pop();
            text
        });
        let n = game.len();
        let over = game.outcome().is_some();
        let seat = if over {
            Seat::Omniscient
        } else {
            viewer.seat()
        };
        let from = match form.since.and_then(|k| usize::try_from(k).ok()) {
            None => n.saturating_sub(LOG_TAIL),
            Some(k) => {
                // Each undo since the client's object took back one entry at most of
                // those it holds.
                let taken = form
                    .undos
                    .map_or(0, |u| self.undos().saturating_sub(u))
                    .try_into()
                    .unwrap_or(usize::MAX);
                let k = k.saturating_sub(taken).min(n);
                // Once over, the last entries are shown whole: they are sent again.
                if over {
                    k.min(n.saturating_sub(LOG_TAIL))
                } else {
                    k
                }
            }
        };
        let log = Value::Array(game.log_from(&seat, from));
        let sep = if head.len() > 1 { "," } else { "" };
        format!("{head}{sep}\"log_from\":{from},\"log\":{log}}}").into()
    }
}

#[cfg(test)]
mod tests {
    use super::{compact, expand};
    use serde_json::{json, Value};

    #[test]
    fn compact_then_expand_gives_back_the_list_in_order() {
        let actions: Vec<Value> = vec![
            json!({"type": "move", "unit": "a", "to": "0101"}),
            json!({"type": "move", "unit": "a", "to": "0102"}),
            json!({"type": "move", "unit": "a", "to": "0103"}),
            json!({"type": "move", "unit": "b", "to": "0201"}),
            json!({"type": "attack", "unit": "b", "target": "c"}),
            json!({"type": "attack", "unit": "b", "target": "d"}),
            json!({"type": "move", "unit": "a", "to": "0104"}),
            json!({"type": "charge", "unit": "a", "path": ["0101", "0102"]}),
            json!({"type": "charge", "unit": "a", "path": ["0101", "0201"]}),
            json!("not an object"),
            json!({"type": "end_phase"}),
        ];
        let groups = compact(actions.clone());
        assert_eq!(expand(&groups), actions);
        assert_eq!(
            groups[0],
            json!({"common": {"type": "move", "unit": "a"}, "vary": "to", "values": ["0101", "0102", "0103"]})
        );
        // A move of b and its attacks have different fields: they do not group.
        assert_eq!(
            groups[1],
            json!({"common": {"type": "move", "unit": "b", "to": "0201"}})
        );
        assert_eq!(groups.len(), 7, "{groups:?}");
        assert_eq!(compact(Vec::new()), Vec::<Value>::new());
    }
}
