//! A malformed position part is refused at load, every problem with file:line:column
//! and what is wrong, as `grognard validate` prints them.

/// The problems of a built-in scenario with `part` added at its end.
fn problems(id: &str, part: &str) -> (String, Vec<String>) {
    let b = grognard_rules::builtin::find(id).expect("built-in");
    let text = format!("{}\n{part}", b.text);
    let problems = grognard_rules::registry()
        .load_scenario("position.toml", &text)
        .expect_err("the part is refused");
    (text, problems.iter().map(ToString::to_string).collect())
}

/// `position.toml:LINE:COLUMN: ` of the first occurrence of `needle` after the
/// `[position]` header of `text`.
fn at(text: &str, needle: &str) -> String {
    let start = text.find("[position]").expect("a position part");
    let offset = start + text[start..].find(needle).expect("needle in the part");
    let line = text[..offset].matches('\n').count() + 1;
    let column = offset - text[..offset].rfind('\n').map_or(0, |i| i + 1) + 1;
    format!("position.toml:{line}:{column}: ")
}

#[test]
fn position_with_an_unknown_status_is_refused_at_its_value() {
    let part = "[position]\nturn = 2\n\n[position.units.r-aldren]\nhex = \"0609\"\nfacing = \"n\"\ndamage = 0\nmp = 3\nquick = false\ncomplex = false\nmelee = false\ndizzy = true\n";
    let (text, problems) = problems("broken-cairn", part);
    assert_eq!(problems.len(), 1, "{problems:?}");
    // At the value: the file's positions are the values'.
    let want = at(&text, "true");
    assert!(problems[0].starts_with(&want), "{problems:?} at {want}");
    assert!(
        problems[0].contains("unknown key `dizzy` for unit `r-aldren`"),
        "{problems:?}"
    );
    assert!(
        problems[0].contains("dazed"),
        "the message lists the statuses: {problems:?}"
    );
}

#[test]
fn position_with_strength_above_the_full_strength_is_refused_at_the_value() {
    let part =
        "[position]\n\n[position.units.o-vauclair]\nhex = \"0805\"\ncs = 9\nmv = 0\nmp = 8\n";
    let (text, problems) = problems("bridge-at-morne", part);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with(&at(&text, "9")), "{problems:?}");
    assert!(
        problems[0].ends_with("combat strength 9 is above the unit's full strength 2"),
        "{problems:?}"
    );
}

#[test]
fn position_with_morale_above_its_maximum_is_refused_at_the_value() {
    let part = "[position]\n\n[position.units.o-1-line]\nhex = \"0806\"\ncs = 6\nmv = 9\nmp = 4\n";
    let (text, problems) = problems("bridge-at-morne", part);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].starts_with(&at(&text, "9")), "{problems:?}");
    assert!(
        problems[0].contains("morale value 9 is above the unit's full morale 4"),
        "{problems:?}"
    );
}

#[test]
fn position_with_a_card_more_often_than_the_deck_has_it_is_refused_at_the_extra_copy() {
    let part = "[position]\ndeck = []\n\n[position.hands]\nblue = [\"general_advance\", \"general_advance\", \"general_advance\", \"general_advance\"]\n";
    let (text, problems) = problems("crossing-at-hollins-ford", part);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let fourth = text.rfind("\"general_advance\"").expect("fourth copy");
    let line = text[..fourth].matches('\n').count() + 1;
    let column = fourth - text[..fourth].rfind('\n').map_or(0, |i| i + 1) + 1;
    assert!(
        problems[0].starts_with(&format!("position.toml:{line}:{column}: ")),
        "{problems:?}"
    );
    assert!(
        problems[0].ends_with("card `general_advance` is there 4 times, but the deck has 3"),
        "{problems:?}"
    );
}

#[test]
fn position_with_an_unknown_unit_is_refused_at_its_table() {
    let part = "[position]\n\n[position.units.nobody]\nhex = \"0805\"\n";
    let (text, problems) = problems("passage-of-the-saale", part);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with(&at(&text, "[position.units.nobody]")),
        "{problems:?}"
    );
    assert!(
        problems[0].ends_with("unknown unit `nobody`: the scenario has no such unit"),
        "{problems:?}"
    );
}

#[test]
fn position_with_an_unknown_phase_is_refused_at_the_value_naming_the_phases() {
    let part = "[position]\nturn = 3\nphase = \"tea_time\"\n";
    let (text, problems) = problems("bridge-at-morne", part);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with(&at(&text, "\"tea_time\"")),
        "{problems:?}"
    );
    assert!(
        problems[0].contains("`phase`: unknown variant `tea_time`, expected one of"),
        "{problems:?}"
    );
}

#[test]
fn position_with_an_unknown_side_to_act_is_refused_naming_the_sides() {
    let part = "[position]\nactive = \"green\"\n";
    let (text, problems) = problems("broken-cairn", part);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].starts_with(&at(&text, "\"green\"")),
        "{problems:?}"
    );
    assert!(
        problems[0].ends_with("`green` is not a side; the sides are: red, blue"),
        "{problems:?}"
    );
}

#[test]
fn position_over_the_start_leaves_what_it_does_not_give_as_it_was() {
    let b = grognard_rules::builtin::find("bridge-at-morne").expect("built-in");
    let registry = grognard_rules::registry();
    let start = registry
        .new_game(registry.load_scenario(b.path, b.text).expect("ok"), Some(1))
        .expect("game");
    let text = format!("{}\n[position]\nturn = 3\n", b.text);
    let game = registry
        .new_game(
            registry.load_scenario("p.toml", &text).expect("ok"),
            Some(1),
        )
        .expect("game");
    assert_eq!(game.state()["turn"], 3);
    let mut a = game.state();
    a["turn"] = start.state()["turn"].clone();
    assert_eq!(a, start.state());
}
