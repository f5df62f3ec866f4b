//! Hand-written positions that no game reached: a written position with one value
//! changed is refused with its problems, or loads into a game that plays on; never a
//! panic (issue 19, item 4: bad input gets a clear error and changes nothing).

use super::next;

/// The position part of `text` with one value of one of its lines changed: a number
/// to another, or a quoted word to another the part uses.
fn mutate(text: &str, x: &mut u64) -> Option<String> {
    let start = text.find("[position]")?;
    let (head, part) = text.split_at(start);
    let mut lines: Vec<String> = part.lines().map(str::to_owned).collect();
    let with_value: Vec<usize> = (1..lines.len())
        .filter(|&i| lines[i].contains('='))
        .collect();
    if with_value.is_empty() {
        return None;
    }
    let i = with_value[(next(x) % with_value.len() as u64) as usize];
    let line = &lines[i];
    let words: Vec<&str> = part.split('"').skip(1).step_by(2).collect();
    let changed = if let Some(d) = line.find(|c: char| c.is_ascii_digit()) {
        let end = line[d..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(line.len(), |e| d + e);
        let numbers = ["0", "1", "2", "3", "7", "99", "1000"];
        let n = numbers[(next(x) % numbers.len() as u64) as usize];
        format!("{}{n}{}", &line[..d], &line[end..])
    } else if let (Some(q), false) = (line.find('"'), words.is_empty()) {
        let end = line[q + 1..].find('"').map_or(line.len(), |e| q + 1 + e);
        let w = words[(next(x) % words.len() as u64) as usize];
        format!("{}\"{w}{}", &line[..q], &line[end..])
    } else {
        return None;
    };
    lines[i] = changed;
    Some(format!("{head}{}\n", lines.join("\n")))
}

#[test]
fn a_position_with_a_value_changed_is_refused_or_plays_on_never_a_panic() {
    let registry = grognard_rules::registry();
    let mut x = 0x5EED_u64;
    let (mut refused, mut played) = (0usize, 0usize);
    for b in grognard_rules::builtin::SCENARIOS {
        let scenario = registry.load_scenario(b.path, b.text).expect("built-in");
        let mut game = registry.new_game(scenario, Some(3)).expect("valid");
        let mut texts = Vec::new();
        for n in 0..240 {
            let legal = game.legal();
            if legal.is_empty() || game.outcome().is_some() {
                break;
            }
            if n % 12 == 5 {
                texts.push(game.position());
            }
            let pick = (next(&mut x) % legal.len() as u64) as usize;
            game.apply(&legal[pick]).expect("a legal action applies");
        }
        for _ in 0..40 {
            let Some(text) = texts.get((next(&mut x) % texts.len().max(1) as u64) as usize) else {
                break;
            };
            let Some(changed) = mutate(text, &mut x) else {
                continue;
            };
            let Ok(s) = registry.load_scenario("changed.toml", &changed) else {
                refused += 1;
                continue;
            };
            let Ok(mut again) = registry.new_game(s, Some(5)) else {
                refused += 1;
                continue;
            };
            for _ in 0..30 {
                let legal = again.legal();
                if legal.is_empty() || again.outcome().is_some() {
                    break;
                }
                let pick = (next(&mut x) % legal.len() as u64) as usize;
                again.apply(&legal[pick]).expect("a legal action applies");
                for seat in super::seats(again.as_ref()) {
                    let _ = again.view(&seat);
                }
            }
            played += 1;
        }
    }
    eprintln!("changed positions: {refused} refused, {played} played on");
    assert!(
        refused > 0 && played > 0,
        "{refused} refused, {played} played"
    );
}
