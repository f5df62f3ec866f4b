//! The forces of a scenario: its sides and their units.

use super::*;

impl<'a> Check<'a> {
    pub(super) fn sides(&mut self, orientation: Option<Orientation>) -> Vec<Side> {
        let vocab = self.vocab;
        let mut out: Vec<Side> = Vec::new();
        for s in &self.spec.sides {
            let loc = self.loc(s.span.start);
            let Some(id) = self.id(s.id.as_ref(), s.span.start, "side `id`") else {
                continue;
            };
            let id_span = s.id.as_ref().map_or(s.span.start, |i| i.span().start);
            if let Some(first) = out.iter().find(|o| o.id == id) {
                let line = first.loc.line;
                self.at(
                    id_span,
                    format!("duplicate side id `{id}` (first at line {line})"),
                );
                continue;
            }
            if let Some(fixed) = &vocab.sides {
                if !fixed.contains(&id) {
                    self.at(
                        id_span,
                        format!(
                            "ruleset `{}` has no side `{id}`; its sides are: {}",
                            vocab.ruleset,
                            list(fixed)
                        ),
                    );
                }
            }
            let home_edge = s.home_edge.as_ref().and_then(|e| {
                let edge = Edge::from_name(e.get_ref());
                if edge.is_none() {
                    self.at_span(
                        e,
                        format!(
                            "`home_edge` must be \"north\", \"south\", \"east\" or \"west\", not \"{}\"",
                            e.get_ref()
                        ),
                    );
                }
                edge
            });
            let values_at = s.values.as_ref().map_or(s.span.start, |v| v.span().start);
            let given = s
                .values
                .as_ref()
                .map_or(&[][..], |v| v.get_ref().as_slice());
            let values = self.values(
                given,
                &vocab.side_values,
                &format!("side `{id}`"),
                values_at,
                orientation,
            );
            out.push(Side {
                name: s
                    .name
                    .as_ref()
                    .map_or_else(|| id.clone(), |n| n.get_ref().clone()),
                id,
                home_edge,
                values,
                loc,
            });
        }
        if let Some(fixed) = &vocab.sides {
            for id in fixed {
                if !out.iter().any(|s| s.id == *id) {
                    self.at(
                        self.spec.scenario.span.start,
                        format!(
                            "side `{id}` of ruleset `{}` is not declared in [[sides]]",
                            vocab.ruleset
                        ),
                    );
                }
            }
        }
        if out.is_empty() && vocab.sides.is_none() && self.spec.problems.is_empty() {
            self.at(
                self.spec.scenario.span.start,
                "no [[sides]]: a scenario needs at least one side",
            );
        }
        out
    }

    #[expect(
        clippy::too_many_lines,
        reason = "one check after another, in file order"
    )]
    pub(super) fn units(
        &mut self,
        map: Option<MapShape>,
        side_ids: &[String],
        turns: Option<u32>,
    ) -> Vec<Unit> {
        let vocab = self.vocab;
        let orientation = map.map(|m| m.orientation());
        let mut out: Vec<Unit> = Vec::new();
        let mut ids: BTreeMap<&str, Loc> = BTreeMap::new();
        let mut occupants: BTreeMap<Hex, Vec<usize>> = BTreeMap::new();
        for u in &self.spec.units {
            let loc = self.loc(u.span.start);
            let id = self.id(u.id.as_ref(), u.span.start, "unit `id`");
            if let (Some(id), Some(s)) = (&id, &u.id) {
                if let Some(first) = ids.get(id.as_str()) {
                    self.at_span(
                        s,
                        format!("duplicate unit id `{id}` (first at line {})", first.line),
                    );
                } else {
                    ids.insert(s.get_ref(), loc);
                }
            }
            let name = id.clone().unwrap_or_else(|| "?".to_owned());
            match &u.side {
                Some(s) if !side_ids.contains(s.get_ref()) => self.at_span(
                    s,
                    format!(
                        "unit `{name}` belongs to unknown side `{}`; the sides are: {}",
                        s.get_ref(),
                        list(side_ids)
                    ),
                ),
                Some(_) => {}
                None => self.missing(u.span.start, "missing `side` in [[units]]"),
            }
            let unit_type = if let Some(k) = &u.kind {
                let t = vocab.unit_type_named(k.get_ref());
                if t.is_none() {
                    let types: Vec<String> =
                        vocab.unit_types.iter().map(|t| t.name.clone()).collect();
                    self.at_span(
                        k,
                        format!(
                            "unknown unit type `{}`; ruleset `{}` has: {}",
                            k.get_ref(),
                            vocab.ruleset,
                            list(&types)
                        ),
                    );
                }
                t
            } else {
                self.missing(u.span.start, "missing `type` in [[units]]");
                None
            };
            let hex = match (map, &u.at) {
                (Some(m), Some(at)) => self.label(&m, at),
                _ => None,
            };
            let enters = match (&u.enters, map) {
                (Some(e), Some(m)) => {
                    let turn = e.turn.as_ref().and_then(|t| {
                        let n = *t.get_ref();
                        match u32::try_from(n) {
                            Ok(n) if n >= 1 && turns.is_none_or(|max| n <= max) => Some(n),
                            _ => {
                                let upto = turns
                                    .map_or(String::new(), |max| format!(" and at most {max}"));
                                self.at_span(
                                    t,
                                    format!("`turn` must be at least 1{upto}, not {n}"),
                                );
                                None
                            }
                        }
                    });
                    let h = e.hex.as_ref().and_then(|h| self.label(&m, h));
                    turn.zip(h).map(|(turn, hex)| Entry { turn, hex })
                }
                _ => None,
            };
            match (&u.at, &u.enters) {
                (Some(_), Some(e)) => self.at(
                    e.span.start,
                    format!("unit `{name}` has both `at` and `enters`: give one"),
                ),
                (None, None) => self.missing(
                    u.span.start,
                    format!("unit `{name}` has neither `at` nor `enters`: give one"),
                ),
                _ => {}
            }
            let facing = match (&u.facing, orientation) {
                (Some(f), Some(o)) => {
                    let d = direction_named(o, f.get_ref());
                    if d.is_none() {
                        self.at_span(
                            f,
                            format!(
                                "`facing` = \"{}\" is not a direction; use one of {}",
                                f.get_ref(),
                                direction_names(o)
                            ),
                        );
                    }
                    d
                }
                _ => None,
            };
            let values = match unit_type {
                Some(t) => {
                    let at = u.values.as_ref().map_or(u.span.start, |v| v.span().start);
                    let given = u
                        .values
                        .as_ref()
                        .map_or(&[][..], |v| v.get_ref().as_slice());
                    self.values(
                        given,
                        &t.values,
                        &format!("unit `{name}` ({})", t.name),
                        at,
                        orientation,
                    )
                }
                None => BTreeMap::new(),
            };
            let index = out.len();
            if let (Some(h), Some(at), Some(kind)) = (hex, &u.at, &u.kind) {
                let here = occupants.entry(h).or_default();
                let clash = here
                    .iter()
                    .map(|&i| &out[i])
                    .find(|other| !vocab.may_share(&other.kind, kind.get_ref()));
                if let Some(other) = clash {
                    let (other_id, line) = (other.id.clone(), other.loc.line);
                    self.at_span(
                        at,
                        format!(
                            "two units in hex {}: `{name}` and `{other_id}` (line {line})",
                            at.get_ref().trim()
                        ),
                    );
                }
                occupants.entry(h).or_default().push(index);
            }
            out.push(Unit {
                id: name,
                side: u
                    .side
                    .as_ref()
                    .map(|s| s.get_ref().clone())
                    .unwrap_or_default(),
                kind: u
                    .kind
                    .as_ref()
                    .map(|k| k.get_ref().clone())
                    .unwrap_or_default(),
                name: u.name.as_ref().map(|n| n.get_ref().clone()),
                hex,
                enters,
                facing,
                values,
                loc,
            });
        }
        out
    }
}
