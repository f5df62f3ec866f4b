//! The scenarios built into the binary.

/// A built-in scenario file.
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    /// Its id (the file's stem).
    pub id: &'static str,
    /// Its path in the repository, for located problems.
    pub path: &'static str,
    /// The file's text.
    pub text: &'static str,
}

/// Every built-in scenario.
pub const SCENARIOS: &[Builtin] = &[
    Builtin {
        id: "bridge-at-morne",
        path: "scenarios/morne-plaine/bridge-at-morne.toml",
        text: include_str!("../../../scenarios/morne-plaine/bridge-at-morne.toml"),
    },
    Builtin {
        id: "heights-of-aubrac",
        path: "scenarios/morne-plaine/heights-of-aubrac.toml",
        text: include_str!("../../../scenarios/morne-plaine/heights-of-aubrac.toml"),
    },
    Builtin {
        id: "crossing-at-hollins-ford",
        path: "scenarios/battle-cry/crossing-at-hollins-ford.toml",
        text: include_str!("../../../scenarios/battle-cry/crossing-at-hollins-ford.toml"),
    },
    Builtin {
        id: "broken-cairn",
        path: "scenarios/skirmish/broken-cairn.toml",
        text: include_str!("../../../scenarios/skirmish/broken-cairn.toml"),
    },
    Builtin {
        id: "passage-of-the-saale",
        path: "scenarios/jomini/passage-of-the-saale.toml",
        text: include_str!("../../../scenarios/jomini/passage-of-the-saale.toml"),
    },
];

/// The built-in scenario with this id.
#[must_use]
pub fn find(id: &str) -> Option<&'static Builtin> {
    SCENARIOS.iter().find(|b| b.id == id)
}
