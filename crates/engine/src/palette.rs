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
];

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
}
