//! The rules indexes (`docs/rules/*.md`): every rule ID has code that cites it and a
//! test that names it.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// A row of an index: `| ID | rule | source | code | test |`.
struct Row {
    id: String,
    source: String,
    code: String,
    test: String,
    line: usize,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rows(doc: &Path) -> Vec<Row> {
    let text = fs::read_to_string(doc).unwrap();
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let cells: Vec<&str> = line
                .trim()
                .trim_matches('|')
                .split('|')
                .map(str::trim)
                .collect();
            let id = *cells.first()?;
            let looks_like_id = id.contains('-')
                && id
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
                && id.chars().next().is_some_and(|c| c.is_ascii_uppercase());
            (looks_like_id && cells.len() >= 5).then(|| Row {
                id: id.to_owned(),
                source: cells[2].to_owned(),
                code: cells[3].trim_matches('`').to_owned(),
                test: cells[4].trim_matches('`').to_owned(),
                line: i + 1,
            })
        })
        .collect()
}

fn read_tree(dir: &Path) -> String {
    let mut out = String::new();
    if let Ok(entries) = fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.push_str(&read_tree(&p));
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push_str(&fs::read_to_string(&p).unwrap());
            }
        }
    }
    out
}

/// What a test calls to check behaviour: the standard assertions and the harnesses'
/// asserting helpers (each panics unless the action is accepted, refused or explained
/// under the expected rule).
const ASSERTS: &[&str] = &[
    "assert",
    "panic!",
    ".refuses(",
    ".allows(",
    ".ok(",
    ".refused(",
    ".refused_first(",
    ".rejects(",
    ".explains(",
];

/// A test function as written: its attributes and its body.
struct TestFn<'a> {
    attributes: &'a str,
    body: &'a str,
}

/// Finds `fn name()` in `text`, with the attribute lines above it and its braced body.
fn test_fn<'a>(text: &'a str, name: &str) -> Option<TestFn<'a>> {
    let at = text.find(&format!("fn {name}("))?;
    // The attributes are the lines just above that start with `#[`.
    let mut start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    while start > 0 {
        let prev = text[..start - 1].rfind('\n').map_or(0, |i| i + 1);
        if text[prev..start].trim_start().starts_with("#[") {
            start = prev;
        } else {
            break;
        }
    }
    let open = at + text[at..].find('{')?;
    let mut depth = 0usize;
    let mut end = open;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    end = open + i;
                    break;
                }
            }
            _ => {}
        }
    }
    Some(TestFn {
        attributes: &text[start..at],
        body: &text[open..end],
    })
}

/// True when `text` names `id` as a whole word (rule 1 is not cited by a mention of rule 12).
fn cites(text: &str, id: &str) -> bool {
    text.match_indices(id).any(|(i, _)| {
        !text[i + id.len()..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

/// The rule IDs a text cites: `XX-WORD-N` with a known ruleset prefix.
fn cited_ids(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for prefix in ["MP-", "BC-", "JO-", "SK-"] {
        for (i, _) in text.match_indices(prefix) {
            if text[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
            {
                continue;
            }
            let rest = &text[i + prefix.len()..];
            let word: String = rest.chars().take_while(char::is_ascii_uppercase).collect();
            let after = &rest[word.len()..];
            let Some(digits) = after.strip_prefix('-') else {
                continue;
            };
            let n: String = digits.chars().take_while(char::is_ascii_digit).collect();
            if word.is_empty() || n.is_empty() {
                continue;
            }
            out.insert(format!("{prefix}{word}-{n}"));
        }
    }
    out
}

#[test]
fn every_cited_rule_id_is_in_an_index() {
    let mut known = BTreeSet::new();
    for entry in fs::read_dir(root().join("docs/rules")).expect("docs/rules exists") {
        let doc = entry.unwrap().path();
        if doc.extension().is_some_and(|x| x == "md") {
            known.extend(rows(&doc).into_iter().map(|r| r.id));
        }
    }
    let mut text = read_tree(&root().join("crates/rules/src"));
    text.push_str(&read_tree(&root().join("crates/rules/tests")));
    let unknown: Vec<String> = cited_ids(&text)
        .into_iter()
        .filter(|id| !known.contains(id))
        .collect();
    assert!(
        unknown.is_empty(),
        "rule IDs cited in crates/rules but in no docs/rules index: {unknown:?}"
    );
}

#[test]
fn every_rule_id_has_code_and_a_test() {
    let docs = root().join("docs/rules");
    let mut checked = 0;
    let mut problems = Vec::new();
    for entry in fs::read_dir(&docs).expect("docs/rules exists") {
        let doc = entry.unwrap().path();
        if doc.extension().is_none_or(|x| x != "md") {
            continue;
        }
        let folder = doc.file_stem().unwrap().to_str().unwrap().replace('-', "_");
        let src_dir = root().join("crates/rules/src").join(&folder);
        let tests = read_tree(&root().join("crates/rules/tests").join(&folder));
        let mut seen = BTreeSet::new();
        let name = doc.file_name().unwrap().to_string_lossy().to_string();
        for row in rows(&doc) {
            let at = format!("docs/rules/{name}:{}: {}", row.line, row.id);
            if !seen.insert(row.id.clone()) {
                problems.push(format!("{at}: duplicate ID"));
            }
            if !["seed", "recovered", "provisional"].contains(&row.source.as_str()) {
                problems.push(format!(
                    "{at}: source must be seed, recovered or provisional, not `{}`",
                    row.source
                ));
            }
            // Every file the row names exists and cites the ID: a row that sends the reader
            // to a file without the rule is as wrong as a row without code.
            for file in row.code.split(',').map(str::trim) {
                match fs::read_to_string(src_dir.join(file)) {
                    Ok(text) if cites(&text, &row.id) => {}
                    Ok(_) => problems.push(format!(
                        "{at}: crates/rules/src/{folder}/{file} does not cite it"
                    )),
                    Err(_) => problems.push(format!(
                        "{at}: crates/rules/src/{folder}/{file} does not exist"
                    )),
                }
            }
            let snake = row.id.to_lowercase().replace('-', "_");
            if !row.test.starts_with(&snake) {
                problems.push(format!(
                    "{at}: test `{}` must start with `{snake}`",
                    row.test
                ));
            }
            match test_fn(&tests, &row.test) {
                None => problems.push(format!(
                    "{at}: no test `fn {}()` under crates/rules/tests/{folder}/",
                    row.test
                )),
                Some(t) => {
                    if !t.attributes.contains("#[test]") {
                        problems.push(format!("{at}: `{}` is not a #[test]", row.test));
                    }
                    if t.attributes.contains("#[ignore") {
                        problems.push(format!(
                            "{at}: `{}` is ignored, so nothing checks the rule",
                            row.test
                        ));
                    }
                    if !ASSERTS.iter().any(|a| t.body.contains(a)) {
                        problems.push(format!(
                            "{at}: `{}` asserts nothing (none of {ASSERTS:?})",
                            row.test
                        ));
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(checked > 0, "no rule IDs found in docs/rules");
}
