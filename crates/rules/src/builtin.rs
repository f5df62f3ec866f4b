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

/// The scenario `scenarios/<folder>/<id>.toml`, its text built into the binary.
macro_rules! builtin {
    ($folder:literal, $id:literal) => {
        Builtin {
            id: $id,
            path: concat!("scenarios/", $folder, "/", $id, ".toml"),
            text: include_str!(concat!("../../../scenarios/", $folder, "/", $id, ".toml")),
        }
    };
}

/// Every built-in scenario.
pub const SCENARIOS: &[Builtin] = &[
    builtin!("morne-plaine", "bridge-at-morne"),
    builtin!("morne-plaine", "heights-of-aubrac"),
    builtin!("battle-cry", "crossing-at-hollins-ford"),
    builtin!("skirmish", "broken-cairn"),
    builtin!("jomini", "passage-of-the-saale"),
];

/// The built-in scenario with this id.
#[must_use]
pub fn find(id: &str) -> Option<&'static Builtin> {
    SCENARIOS.iter().find(|b| b.id == id)
}
