//! The map part of a scenario: its shape, terrain, elevation, hexsides, paths and places.

use super::*;

impl<'a> Check<'a> {
    pub(super) fn map_shape(&mut self) -> Option<MapShape> {
        let m = &self.spec.map;
        let size = |c: &mut Check<'_>, v: Option<&Spanned<i64>>, key: &str| -> Option<u32> {
            let Some(v) = v else {
                c.missing(m.span.start, format!("missing `{key}` in [map]"));
                return None;
            };
            match u32::try_from(*v.get_ref()) {
                Ok(n) if (1..=MAX_SIDE).contains(&n) => Some(n),
                _ => {
                    c.at_span(
                        v,
                        format!(
                            "`{key}` must be from 1 to {}, not {}",
                            MAX_SIDE,
                            v.get_ref()
                        ),
                    );
                    None
                }
            }
        };
        let cols = size(self, m.cols.as_ref(), "cols");
        let rows = size(self, m.rows.as_ref(), "rows");
        let orientation = match &m.orientation {
            None => Some(Orientation::FlatTop),
            Some(o) => match o.get_ref().as_str() {
                "flat" => Some(Orientation::FlatTop),
                "pointy" => Some(Orientation::PointyTop),
                other => {
                    self.at_span(
                        o,
                        format!("`orientation` must be \"flat\" or \"pointy\", not \"{other}\""),
                    );
                    None
                }
            },
        };
        let shove = match &m.shove {
            None => Some(Shove::Even),
            Some(s) => match s.get_ref().as_str() {
                "even" => Some(Shove::Even),
                "odd" => Some(Shove::Odd),
                other => {
                    self.at_span(
                        s,
                        format!("`shove` must be \"even\" or \"odd\", not \"{other}\""),
                    );
                    None
                }
            },
        };
        MapShape::new(orientation?, shove?, cols?, rows?)
    }

    /// The rows of a text grid with the byte offset of each token. Tokens are read
    /// from the source itself when the string is written as is, so every offset is
    /// exact; otherwise from the decoded string, all placed at the string's start.
    pub(super) fn rows(&self, grid: &'a GridSpec) -> Vec<Row<'a>> {
        let mut rows = Vec::new();
        for piece in &grid.pieces {
            let (base, text) = match self.content(piece) {
                Some((start, body)) => (Some(start), body),
                None => (None, piece.get_ref().as_str()),
            };
            let place = |off: usize| base.map_or(piece.span().start, |b| b + off);
            let mut line_start = 0;
            for line in text.split('\n') {
                let mut tokens = Vec::new();
                let mut start = None;
                for (i, ch) in line
                    .char_indices()
                    .chain(std::iter::once((line.len(), ' ')))
                {
                    match (ch.is_whitespace(), start) {
                        (true, Some(s)) => {
                            tokens.push((&line[s..i], place(line_start + s)));
                            start = None;
                        }
                        (false, None) => start = Some(i),
                        _ => {}
                    }
                }
                line_start += line.len() + 1;
                if let Some(&(_, at)) = tokens.first() {
                    rows.push(Row { at, tokens });
                }
            }
        }
        rows
    }

    /// Checks a grid's shape and calls `cell` for each token that names a hex.
    pub(super) fn grid_cells(
        &mut self,
        map: MapShape,
        grid: &'a GridSpec,
        key: &str,
        mut cell: impl FnMut(&mut Self, Hex, &'a str, usize),
    ) {
        let rows = self.rows(grid);
        let (cols, nrows) = (map.cols() as usize, map.rows() as usize);
        let w = map.label_digits();
        if rows.len() < nrows {
            self.at(
                grid.span.start,
                format!("`{key}` has {} rows but the map has {nrows}", rows.len()),
            );
        } else if rows.len() > nrows {
            self.at(
                rows[nrows].at,
                format!(
                    "`{key}` has {} rows but the map has {nrows}: this row is extra",
                    rows.len()
                ),
            );
        }
        for (r, row) in rows.iter().enumerate().take(nrows) {
            if row.tokens.len() < cols {
                self.at(
                    row.at,
                    format!(
                        "row {:0w$} of `{key}` has {} hexes but the map has {cols} columns",
                        r + 1,
                        row.tokens.len()
                    ),
                );
            } else if row.tokens.len() > cols {
                self.at(
                    row.tokens[cols].1,
                    format!(
                        "row {:0w$} of `{key}` has {} hexes but the map has {cols} columns: \
                         this one is extra",
                        r + 1,
                        row.tokens.len()
                    ),
                );
            }
            for (c, &(token, at)) in row.tokens.iter().enumerate().take(cols) {
                #[expect(
                    clippy::cast_possible_wrap,
                    clippy::cast_possible_truncation,
                    reason = "sides are at most 999"
                )]
                let hex = map.from_offset(c as i32, r as i32);
                cell(self, hex, token, at);
            }
        }
    }

    pub(super) fn terrain(&mut self, map: MapShape) -> Option<Grid<u8>> {
        let m = &self.spec.map;
        let vocab = self.vocab;
        let mut legend: BTreeMap<&str, u8> = BTreeMap::new();
        let mut ok = true;
        for (code, name) in &m.legend {
            let c = code.get_ref().as_str();
            if c.chars().count() > 2 || c.is_empty() || c.chars().any(char::is_whitespace) {
                self.at_span(
                    code,
                    format!("legend code `{c}` must be one or two characters without spaces"),
                );
                ok = false;
            }
            if let Some(i) = vocab.terrains.iter().position(|t| t == name.get_ref()) {
                #[expect(
                    clippy::cast_possible_truncation,
                    reason = "at most 256 terrains, checked"
                )]
                legend.insert(c, i as u8);
            } else {
                self.at_span(
                    name,
                    format!(
                        "unknown terrain `{}` in the legend; ruleset `{}` has: {}",
                        name.get_ref(),
                        vocab.ruleset,
                        list(&vocab.terrains)
                    ),
                );
                ok = false;
            }
        }
        let Some(grid) = &m.terrain else {
            self.missing(m.span.start, "missing `terrain` in [map]");
            return None;
        };
        let codes: Vec<String> = m.legend.iter().map(|(c, _)| c.get_ref().clone()).collect();
        let mut out = Grid::new(map, 0u8);
        let mut bad_codes = false;
        self.grid_cells(map, grid, "terrain", |c, hex, token, at| {
            match legend.get(token) {
                Some(&t) => {
                    out.set(hex, t);
                }
                // A legend entry with a bad terrain name is reported once, at the legend.
                None if codes.iter().any(|k| k == token) => {}
                None => {
                    bad_codes = true;
                    c.at(
                        at,
                        format!(
                            "unknown terrain code `{token}` in hex {}; the legend has: {}",
                            map.label(hex).unwrap_or_default(),
                            list(&codes)
                        ),
                    );
                }
            }
        });
        (ok && !bad_codes).then_some(out)
    }

    pub(super) fn elevation(&mut self, map: MapShape) -> Option<Grid<i8>> {
        let grid = self.spec.map.elevation.as_ref()?;
        let mut out = Grid::new(map, 0i8);
        self.grid_cells(map, grid, "elevation", |c, hex, token, at| {
            if let Ok(e) = token.parse::<i8>() {
                out.set(hex, e);
            } else {
                c.at(
                    at,
                    format!(
                        "elevation `{token}` in hex {} is not a whole number from -128 to 127",
                        map.label(hex).unwrap_or_default()
                    ),
                );
            }
        });
        Some(out)
    }

    /// One hexside entry: `"0304/0305"` or `"0304/n"`.
    pub(super) fn hexside(&mut self, map: MapShape, s: &Spanned<String>) -> Option<Hexside> {
        let text = s.get_ref();
        let Some((a, b)) = text.split_once('/') else {
            self.at_span(
                s,
                format!(
                    "`{text}` is not a hexside: write two adjacent hexes (\"0304/0305\") \
                     or a hex and a direction (\"0304/n\")"
                ),
            );
            return None;
        };
        let at_a = self.inside(s, 0);
        let at_b = self.inside(s, a.len() + 1);
        let ha = match map.parse_label(a.trim()) {
            Ok(h) => Some(h),
            Err(e) => {
                self.at(at_a, e.to_string());
                None
            }
        };
        if let Some(dir) = direction_named(map.orientation(), b.trim()) {
            return ha.map(|h| Hexside::new(h, dir));
        }
        let hb = match map.parse_label(b.trim()) {
            Ok(h) => Some(h),
            Err(e) => {
                self.at(
                    at_b,
                    format!(
                        "{e}; after the `/` give the hex across or a direction ({})",
                        direction_names(map.orientation())
                    ),
                );
                None
            }
        };
        let (ha, hb) = (ha?, hb?);
        let side = Hexside::between(ha, hb);
        if side.is_none() {
            self.at_span(
                s,
                format!("hexes `{}` and `{}` are not adjacent", a.trim(), b.trim()),
            );
        }
        side
    }

    pub(super) fn hexsides(&mut self, map: MapShape) -> Option<SideGrid<u16>> {
        let vocab = self.vocab;
        let mut out = SideGrid::new(map, 0u16);
        let mut ok = true;
        for entry in &self.spec.hexsides {
            let Some(feature) = &entry.feature else {
                self.missing(entry.span.start, "missing `feature` in [[hexsides]]");
                ok = false;
                continue;
            };
            let Some(i) = vocab
                .hexside_features
                .iter()
                .position(|f| f == feature.get_ref())
            else {
                self.at_span(
                    feature,
                    format!(
                        "unknown hexside feature `{}`; ruleset `{}` has: {}",
                        feature.get_ref(),
                        vocab.ruleset,
                        list(&vocab.hexside_features)
                    ),
                );
                ok = false;
                continue;
            };
            let bit = 1u16 << i;
            for s in &entry.sides {
                let Some(side) = self.hexside(map, s) else {
                    ok = false;
                    continue;
                };
                let (a, b) = side.hexes();
                if out.side(side) & bit != 0 {
                    self.at_span(
                        s,
                        format!(
                            "hexside {}/{} already has `{}`",
                            map.label(a).unwrap_or_default(),
                            map.label(b)
                                .unwrap_or_else(|| Self::direction_word(map, side)),
                            feature.get_ref()
                        ),
                    );
                }
                out.update(side, |v| *v |= bit);
            }
        }
        ok.then_some(out)
    }

    pub(super) fn direction_word(map: MapShape, side: Hexside) -> String {
        match map.orientation() {
            Orientation::FlatTop => side.direction().name(),
            Orientation::PointyTop => side.direction().pointy_name(),
        }
        .to_owned()
    }

    pub(super) fn paths(&mut self, map: MapShape) -> Option<(Vec<Path>, SideGrid<u8>, Grid<u8>)> {
        let vocab = self.vocab;
        let mut paths = Vec::new();
        let mut links = SideGrid::new(map, 0u8);
        let mut through = Grid::new(map, 0u8);
        let mut ok = true;
        for p in &self.spec.paths {
            let kind = match &p.kind {
                None => {
                    self.missing(p.span.start, "missing `kind` in [[paths]]");
                    None
                }
                Some(k) => {
                    let i = vocab.path_kinds.iter().position(|x| x == k.get_ref());
                    if i.is_none() {
                        self.at_span(
                            k,
                            format!(
                                "unknown path kind `{}`; ruleset `{}` has: {}",
                                k.get_ref(),
                                vocab.ruleset,
                                list(&vocab.path_kinds)
                            ),
                        );
                    }
                    i
                }
            };
            let word = p.kind.as_ref().map_or("path", |k| k.get_ref().as_str());
            if p.hexes.len() < 2 {
                self.at(
                    p.span.start,
                    format!("a {word} needs at least two hexes in `hexes`"),
                );
            }
            let mut hexes = Vec::new();
            let mut prev: Option<(Hex, &Spanned<String>)> = None;
            let mut whole = true;
            for s in &p.hexes {
                let Some(h) = self.label(&map, s) else {
                    whole = false;
                    prev = None;
                    continue;
                };
                if let Some((ph, ps)) = prev {
                    if ph.distance(h) != 1 {
                        self.at_span(
                            s,
                            format!(
                                "the {word} jumps from `{}` to `{}`: the hexes are not adjacent",
                                ps.get_ref().trim(),
                                s.get_ref().trim()
                            ),
                        );
                        whole = false;
                    }
                }
                prev = Some((h, s));
                hexes.push(h);
            }
            let Some(kind) = kind else {
                ok = false;
                continue;
            };
            if !whole || hexes.len() < 2 {
                ok = false;
                continue;
            }
            let bit = 1u8 << kind;
            for pair in hexes.windows(2) {
                if let Some(side) = Hexside::between(pair[0], pair[1]) {
                    links.update(side, |v| *v |= bit);
                }
            }
            for &h in &hexes {
                if let Some(v) = through.get_mut(h) {
                    *v |= bit;
                }
            }
            #[expect(
                clippy::cast_possible_truncation,
                reason = "at most 8 path kinds, checked"
            )]
            paths.push(Path {
                kind: kind as u8,
                name: p.name.as_ref().map(|n| n.get_ref().clone()),
                hexes,
                loc: self.loc(p.span.start),
            });
        }
        ok.then_some((paths, links, through))
    }

    pub(super) fn places(&mut self, map: MapShape, side_ids: &[String]) -> Option<Vec<Place>> {
        let mut out = Vec::new();
        let mut ok = true;
        let mut names: BTreeMap<&str, Loc> = BTreeMap::new();
        for p in &self.spec.places {
            let loc = self.loc(p.span.start);
            let name = if let Some(n) = &p.name {
                if let Some(first) = names.get(n.get_ref().as_str()) {
                    self.at_span(
                        n,
                        format!(
                            "there is already a place called `{}` (line {})",
                            n.get_ref(),
                            first.line
                        ),
                    );
                } else {
                    names.insert(n.get_ref(), loc);
                }
                Some(n.get_ref().clone())
            } else {
                self.missing(p.span.start, "missing `name` in [[places]]");
                None
            };
            let hex = if let Some(h) = &p.hex {
                self.label(&map, h)
            } else {
                self.missing(p.span.start, "missing `hex` in [[places]]");
                None
            };
            if let Some(o) = &p.owner {
                if !side_ids.contains(o.get_ref()) {
                    self.at_span(
                        o,
                        format!(
                            "unknown side `{}`; the sides are: {}",
                            o.get_ref(),
                            list(side_ids)
                        ),
                    );
                }
            }
            match (name, hex) {
                (Some(name), Some(hex)) => out.push(Place {
                    name,
                    hex,
                    objective: p.objective.as_ref().is_some_and(|o| *o.get_ref()),
                    value: p.value.as_ref().map(|v| *v.get_ref()),
                    owner: p.owner.as_ref().map(|o| o.get_ref().clone()),
                    loc,
                }),
                _ => ok = false,
            }
        }
        ok.then_some(out)
    }
}
