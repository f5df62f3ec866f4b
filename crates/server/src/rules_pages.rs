//! The rules indexes (`docs/rules/*.md`) as pages of the site, so that every rule badge of
//! the client opens the rule it names: `GET /rules` lists them, `GET /rules/{page}` shows
//! one, each rule's row anchored by its ID (`/rules/morne-plaine#MP-MOV-6`).
//!
//! The indexes use a small part of Markdown (headings, paragraphs, lists, tables, code
//! spans, bold and italics, links), and that part is what [`render`] reads.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use std::fmt::Write as _;

/// Each page: its path under `/rules/`, its ruleset's name, the rule IDs' prefix, its text.
const PAGES: [(&str, &str, &str, &str); 4] = [
    (
        "morne-plaine",
        "Morne Plaine",
        "MP",
        include_str!("../../../docs/rules/morne-plaine.md"),
    ),
    (
        "battle-cry",
        "Battle Cry",
        "BC",
        include_str!("../../../docs/rules/battle-cry.md"),
    ),
    (
        "jomini",
        "JOMINI V2",
        "JO",
        include_str!("../../../docs/rules/jomini.md"),
    ),
    (
        "skirmish",
        "Futile Kingdoms",
        "SK",
        include_str!("../../../docs/rules/skirmish.md"),
    ),
];

fn shell(title: &str, body: &str) -> Response {
    let page = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{} · grognard</title><link rel=\"stylesheet\" href=\"/style.css\"></head>\
         <body class=\"rules-page\"><header class=\"topbar\"><a class=\"brand\" href=\"/\" \
         title=\"back to the lobby\">grognard</a><a href=\"/rules\">Rules</a>\
         <span class=\"title\">{}</span></header><main class=\"rules-text\">{body}</main></body></html>",
        escape(title),
        escape(title)
    );
    (
        [
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        Html(page),
    )
        .into_response()
}

/// `GET /rules`: the four rules indexes.
pub async fn index() -> Response {
    let mut body = String::from("<h1>The rules</h1><p>Every rule the engine applies, with its ID, where it comes from, the code that applies it and the test that names it.</p><ul>");
    for (path, name, prefix, _) in PAGES {
        let _ = write!(
            body,
            "<li><a href=\"/rules/{path}\">{name}</a> <span class=\"muted\">(rules {prefix}-…)</span></li>"
        );
    }
    body.push_str("</ul>");
    shell("Rules", &body)
}

/// `GET /rules/{page}`: one ruleset's rules index, or 404.
pub async fn page(Path(page): Path<String>) -> Response {
    match PAGES.iter().find(|(path, ..)| *path == page) {
        Some((_, name, _, text)) => shell(&format!("{name}: rules"), &render(text)),
        None => (
            StatusCode::NOT_FOUND,
            format!(
                "no rules page `{page}`: the pages are {}\n",
                PAGES.map(|p| p.0).join(", ")
            ),
        )
            .into_response(),
    }
}

/// The rules page and anchor of a rule ID (`MP-MOV-6` -> `/rules/morne-plaine#MP-MOV-6`).
#[must_use]
pub fn link(rule: &str) -> Option<String> {
    let prefix = rule.split('-').next()?;
    PAGES
        .iter()
        .find(|p| p.2 == prefix)
        .map(|p| format!("/rules/{}#{rule}", p.0))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Whether `s` is a rule ID: capitals, digits and dashes, two parts at least.
fn is_rule_id(s: &str) -> bool {
    s.contains('-')
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
}

/// Code spans, bold, italics and links of one line, the rest escaped.
fn inline(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('`') {
            if let Some(end) = r.find('`') {
                let _ = write!(out, "<code>{}</code>", escape(&r[..end]));
                rest = &r[end + 1..];
                continue;
            }
        }
        if let Some(r) = rest.strip_prefix("**") {
            if let Some(end) = r.find("**") {
                let _ = write!(out, "<b>{}</b>", inline(&r[..end]));
                rest = &r[end + 2..];
                continue;
            }
        }
        if let Some(r) = rest.strip_prefix('*') {
            if let Some(end) = r.find('*').filter(|&e| e > 0) {
                let _ = write!(out, "<i>{}</i>", inline(&r[..end]));
                rest = &r[end + 1..];
                continue;
            }
        }
        if let Some(r) = rest.strip_prefix('[') {
            if let Some((text, tail)) = r.split_once("](") {
                if let Some(end) = tail.find(')') {
                    // Links to other files of the repository are shown as their text.
                    out.push_str(&inline(text));
                    rest = &tail[end + 1..];
                    continue;
                }
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        out.push_str(&escape(&c.to_string()));
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The cells of a table row (`| a | b |`), a `\|` kept inside its cell.
fn cells(line: &str) -> Vec<String> {
    let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
    let mut out = vec![String::new()];
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                chars.next();
                if let Some(last) = out.last_mut() {
                    last.push('|');
                }
            }
            '|' => out.push(String::new()),
            _ => {
                if let Some(last) = out.last_mut() {
                    last.push(c);
                }
            }
        }
    }
    out.into_iter().map(|c| c.trim().to_owned()).collect()
}

/// The page's HTML from a rules index's Markdown.
#[must_use]
pub fn render(md: &str) -> String {
    let mut out = String::new();
    let mut para: Vec<&str> = Vec::new();
    let mut list = false;
    let mut table: Vec<&str> = Vec::new();
    let flush_para = |out: &mut String, para: &mut Vec<&str>| {
        if !para.is_empty() {
            let _ = write!(out, "<p>{}</p>", inline(&para.join(" ")));
            para.clear();
        }
    };
    let flush_table = |out: &mut String, table: &mut Vec<&str>| {
        if table.is_empty() {
            return;
        }
        // A wide table scrolls sideways: the keyboard reaches it (tabindex), and a
        // screen reader names the region.
        out.push_str(
            "<div class=\"table-wrap\" tabindex=\"0\" role=\"region\" aria-label=\"Table, scrolls sideways\"><table class=\"rules-table\">",
        );
        for (i, line) in table.iter().enumerate() {
            if i == 1 && line.contains("---") {
                continue;
            }
            let row = cells(line);
            let tag = if i == 0 { "th" } else { "td" };
            match row.first().filter(|c| i > 0 && is_rule_id(c)) {
                Some(id) => {
                    let _ = write!(out, "<tr id=\"{}\">", escape(id));
                }
                None => out.push_str("<tr>"),
            }
            for c in &row {
                let _ = write!(out, "<{tag}>{}</{tag}>", inline(c));
            }
            out.push_str("</tr>");
        }
        out.push_str("</table></div>");
        table.clear();
    };
    for line in md.lines() {
        let t = line.trim_end();
        if t.starts_with('|') {
            flush_para(&mut out, &mut para);
            table.push(t);
            continue;
        }
        flush_table(&mut out, &mut table);
        let heading = t.chars().take_while(|&c| c == '#').count();
        if (1..=4).contains(&heading) && t[heading..].starts_with(' ') {
            flush_para(&mut out, &mut para);
            if list {
                out.push_str("</ul>");
                list = false;
            }
            let text = t[heading..].trim();
            let _ = write!(out, "<h{heading}>{}</h{heading}>", inline(text));
        } else if let Some(item) = t.trim_start().strip_prefix("- ") {
            flush_para(&mut out, &mut para);
            if !list {
                out.push_str("<ul>");
                list = true;
            }
            let _ = write!(out, "<li>{}", inline(item));
        } else if t.trim().is_empty() {
            flush_para(&mut out, &mut para);
            if list {
                out.push_str("</ul>");
                list = false;
            }
        } else if list && line.starts_with("  ") {
            let _ = write!(out, " {}", inline(t.trim()));
        } else {
            para.push(t.trim());
        }
    }
    flush_table(&mut out, &mut table);
    flush_para(&mut out, &mut para);
    if list {
        out.push_str("</ul>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_row_is_anchored_by_its_id_and_its_words_are_escaped() {
        let html = render("# T\n\nSome `code` and **bold**.\n\n| ID | Rule |\n| --- | --- |\n| MP-MOV-6 | Rivers <b> \\| slopes |\n");
        assert!(html.contains("<h1>T</h1>"), "{html}");
        assert!(html.contains("<code>code</code>"), "{html}");
        assert!(html.contains("<b>bold</b>"), "{html}");
        assert!(html.contains("<tr id=\"MP-MOV-6\">"), "{html}");
        assert!(html.contains("Rivers &lt;b&gt; | slopes"), "{html}");
    }

    #[test]
    fn every_rule_id_links_to_its_rulesets_page() {
        assert_eq!(
            link("MP-MOV-6").as_deref(),
            Some("/rules/morne-plaine#MP-MOV-6")
        );
        assert_eq!(
            link("SK-STA-2").as_deref(),
            Some("/rules/skirmish#SK-STA-2")
        );
        assert_eq!(link("request"), None);
        for (path, _, prefix, text) in PAGES {
            let html = render(text);
            assert!(
                html.matches(&format!("<tr id=\"{prefix}-")).count() > 20,
                "{path} anchors its rules"
            );
        }
    }
}
