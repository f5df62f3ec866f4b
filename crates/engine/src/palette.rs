//! The terrain palette: the fill of each terrain, one table for every picture of a map.
//!
//! The SVG of `grognard show --svg` draws with it, and the server sends it with a
//! scenario's board (`GET /api/scenarios/{id}/board`, field `palette`) for the web client,
//! so the map looks the same wherever it is drawn. For people, never for rules.

/// Terrain fills: each row names the terrains that share a colour. The names are those
/// scenario files use (`legend` in docs/SCENARIO-FORMAT.md); a name missing here still
/// gets a colour of its own from [`terrain_colour`].
pub const TERRAIN: &[(&[&str], &str)] = &[
    (&["clear", "open", "plain"], "#e9e6c9"),
    (&["rough", "broken"], "#d6c79c"),
    (&["rocky", "rocky_ground", "rock", "rocks"], "#bdb5a6"),
    (&["coppice", "brush", "scrub"], "#c3d59a"),
    (&["orchard"], "#cddf9c"),
    (&["woods", "forest", "wood"], "#7fa464"),
    (&["palm_grove"], "#a9c47a"),
    (&["village"], "#e0cfa8"),
    (&["hamlet", "homestead", "farm"], "#e2d4ae"),
    (&["town", "city", "built_up"], "#d9c39b"),
    (&["marsh", "swamp", "bog"], "#b9d2c0"),
    (&["hill", "hills"], "#d3b887"),
    (&["mountain"], "#a89478"),
    (
        &["fort", "redoubt", "entrenchment", "fortification"],
        "#d0c7b0",
    ),
    (
        &[
            "river", "water", "lake", "sea", "waterway", "pond", "bridge",
        ],
        "#9cc1e8",
    ),
    (&["ford"], "#b4d2ea"),
    (&["dune", "dunes", "sand", "desert"], "#efdca6"),
    (&["field", "fields", "crops"], "#efe3a6"),
    (&["snow"], "#f8f8ff"),
    (&["road"], "#e2d4b0"),
    (&["large_river", "major_river"], "#8db5e2"),
];

/// What is drawn over a terrain's fill to say what it is: each row names the terrains
/// drawn alike and the mark's name, which the SVG writes as `data-mark` and the web
/// client (`web/js/terrain.js`) draws the same way. Every name of [`TERRAIN`] has one.
pub const MARKS: &[(&[&str], &str)] = &[
    (&["clear", "open", "plain", "road"], "plain"),
    (&["rough", "broken"], "rough"),
    (&["rocky", "rocky_ground", "rock", "rocks"], "rocks"),
    (&["coppice", "brush", "scrub"], "brush"),
    (&["orchard"], "orchard"),
    (&["woods", "forest", "wood"], "trees"),
    (&["palm_grove"], "palms"),
    (&["village"], "village"),
    (&["hamlet", "homestead", "farm"], "hamlet"),
    (&["town", "city", "built_up"], "town"),
    (&["marsh", "swamp", "bog"], "marsh"),
    (&["hill", "hills"], "hill"),
    (&["mountain"], "mountain"),
    (
        &["fort", "redoubt", "entrenchment", "fortification"],
        "fort",
    ),
    (
        &["river", "water", "lake", "sea", "waterway", "pond"],
        "water",
    ),
    (&["large_river", "major_river"], "water"),
    (&["bridge"], "bridge"),
    (&["ford"], "ford"),
    (&["dune", "dunes", "sand", "desert"], "dunes"),
    (&["field", "fields", "crops"], "fields"),
    (&["snow"], "snow"),
];

/// The mark drawn over a terrain (see [`MARKS`]), if the palette knows the name.
///
/// ```
/// use grognard_engine::palette::mark;
/// assert_eq!(mark("forest"), Some("trees"));
/// assert_eq!(mark("built_up"), Some("town"));
/// assert_eq!(mark("lava"), None);
/// ```
#[must_use]
pub fn mark(name: &str) -> Option<&'static str> {
    MARKS
        .iter()
        .find(|(names, _)| names.contains(&name))
        .map(|&(_, mark)| mark)
}

/// The palette's colour for a terrain, if it lists the name.
///
/// ```
/// use grognard_engine::palette::listed;
/// assert_eq!(listed("forest"), Some("#7fa464"));
/// assert_eq!(listed("lava"), None);
/// ```
#[must_use]
pub fn listed(name: &str) -> Option<&'static str> {
    TERRAIN
        .iter()
        .find(|(names, _)| names.contains(&name))
        .map(|&(_, colour)| colour)
}

/// The fill of a terrain: the palette's colour, or for a name it does not list a stable
/// pale colour whose hue comes from the name's hash (FNV-1a), so the same name always
/// looks the same.
///
/// ```
/// use grognard_engine::palette::terrain_colour;
/// assert_eq!(terrain_colour("woods"), "#7fa464");
/// assert_eq!(terrain_colour("lava"), terrain_colour("lava"));
/// assert!(terrain_colour("lava").starts_with("hsl("));
/// ```
#[must_use]
pub fn terrain_colour(name: &str) -> String {
    listed(name).map_or_else(|| hashed(name, 35, 75), str::to_owned)
}

/// A stable colour for a name no palette knows: its hash picks the hue.
#[must_use]
pub fn hashed(name: &str, saturation: u32, lightness: u32) -> String {
    let h = name.bytes().fold(0x811c_9dc5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    format!("hsl({}, {saturation}%, {lightness}%)", h % 360)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_listed_once() {
        let mut seen = std::collections::BTreeSet::new();
        for (names, colour) in TERRAIN {
            assert!(colour.starts_with('#') && colour.len() == 7, "{colour}");
            for name in *names {
                assert!(seen.insert(*name), "{name} is listed twice");
            }
        }
    }

    #[test]
    fn every_coloured_terrain_has_a_mark_and_no_other() {
        let coloured: Vec<&str> = TERRAIN
            .iter()
            .flat_map(|(names, _)| names.iter().copied())
            .collect();
        let marked: Vec<&str> = MARKS
            .iter()
            .flat_map(|(names, _)| names.iter().copied())
            .collect();
        for name in &coloured {
            assert!(mark(name).is_some(), "{name} has a colour and no mark");
        }
        for name in &marked {
            assert!(listed(name).is_some(), "{name} has a mark and no colour");
            assert_eq!(
                marked.iter().filter(|m| *m == name).count(),
                1,
                "{name} marked twice"
            );
        }
    }

    /// The terrain names the shipped scenarios' legends and the rulesets' data files use.
    fn shipped_terrain_names() -> std::collections::BTreeSet<String> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = Vec::new();
        for dir in ["scenarios", "crates/rules/src"] {
            let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            for sub in entries.flatten() {
                for f in std::fs::read_dir(sub.path())
                    .into_iter()
                    .flatten()
                    .flatten()
                {
                    if f.path().extension().is_some_and(|e| e == "toml") {
                        files.push(f.path());
                    }
                }
            }
        }
        assert!(
            files.len() >= 8,
            "scenarios and data files found: {files:?}"
        );
        let mut names = std::collections::BTreeSet::new();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            let doc: toml::Table = toml::from_str(&text).unwrap_or_default();
            if let Some(legend) = doc
                .get("map")
                .and_then(|m| m.get("legend"))
                .and_then(toml::Value::as_table)
            {
                names.extend(
                    legend
                        .values()
                        .filter_map(toml::Value::as_str)
                        .map(str::to_owned),
                );
            }
            if let Some(terrain) = doc.get("terrain").and_then(toml::Value::as_table) {
                names.extend(terrain.keys().cloned());
            }
        }
        names
    }

    #[test]
    fn every_shipped_terrain_has_a_colour_and_a_mark() {
        let names = shipped_terrain_names();
        for must in [
            "woods",
            "built_up",
            "large_river",
            "open",
            "brush",
            "rock",
            "palm_grove",
        ] {
            assert!(names.contains(must), "{must} not found among {names:?}");
        }
        for name in &names {
            assert!(
                listed(name).is_some(),
                "{name} has no colour of its own (it would be hashed)"
            );
            assert!(mark(name).is_some(), "{name} has no mark");
        }
    }
}
