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
            let cites = row.code.split(',').map(str::trim).any(|file| {
                fs::read_to_string(src_dir.join(file)).is_ok_and(|t| t.contains(&row.id))
            });
            if !cites {
                problems.push(format!(
                    "{at}: no file of `{}` under crates/rules/src/{folder}/ cites it",
                    row.code
                ));
            }
            let snake = row.id.to_lowercase().replace('-', "_");
            if !row.test.starts_with(&snake) {
                problems.push(format!(
                    "{at}: test `{}` must start with `{snake}`",
                    row.test
                ));
            }
            if !tests.contains(&format!("fn {}(", row.test)) {
                problems.push(format!(
                    "{at}: no test `fn {}()` under crates/rules/tests/{folder}/",
                    row.test
                ));
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
