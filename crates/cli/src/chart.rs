//! The arena's results as a picture (`grognard arena --svg FILE`): each player's and
//! side's score with its 95% interval, scenario by scenario, and, when the games held
//! searched decisions, how their estimates of winning met the results.

use grognard_ai::arena::Band;
use grognard_engine::svg::escape;
use std::fmt::Write;

/// One line of the arena's table: a player's (or, with one player on both seats, a
/// side's) score in one scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub scenario: String,
    pub player: String,
    /// A side's id, or `None` for the player's games on both sides.
    pub side: Option<String>,
    pub games: usize,
    /// Wins, and a half for each draw or stopped game.
    pub points: f64,
    /// The 95% Wilson interval of the share, from 0 to 1.
    pub interval: (f64, f64),
}

impl Row {
    /// The share of the points, from 0 to 1.
    #[must_use]
    pub fn share(&self) -> f64 {
        #[expect(clippy::cast_precision_loss, reason = "game counts are small")]
        let n = self.games.max(1) as f64;
        self.points / n
    }
}

/// What the picture says above its rows.
pub struct Heading<'a> {
    /// The two players (the same one twice when it played both seats).
    pub players: [&'a str; 2],
    /// Games played in all.
    pub games: usize,
}

const WIDTH: f64 = 980.0;
const LABEL_X: f64 = 16.0;
/// Where 0% and 100% stand.
const X0: f64 = 330.0;
const X1: f64 = 730.0;
const ROW: f64 = 22.0;
const TOP: f64 = 72.0;
/// The calibration's square, in pixels.
const SQUARE: f64 = 240.0;

/// The picture, as an SVG document. With one player on both seats the rows are the
/// sides' shares and the band of a balanced scenario (35% to 65%, issue 13) is shaded;
/// between two players a line marks an even score.
#[must_use]
pub fn svg(heading: &Heading<'_>, rows: &[Row], bands: &[Band]) -> String {
    let same = heading.players[0] == heading.players[1];
    let mut scenarios: Vec<&str> = Vec::new();
    for r in rows {
        if !scenarios.contains(&r.scenario.as_str()) {
            scenarios.push(&r.scenario);
        }
    }
    let shown: Vec<&Row> = rows.iter().filter(|r| r.games > 0).collect();
    #[expect(clippy::cast_precision_loss, reason = "row counts are small")]
    let lines = (shown.len() + scenarios.len()) as f64;
    let chart_bottom = TOP + lines * ROW + 8.0;
    let calibration_top = chart_bottom + 84.0;
    let height = if bands.is_empty() {
        chart_bottom + 44.0
    } else {
        calibration_top + SQUARE + 64.0
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="13">"#
    );
    let _ = writeln!(
        s,
        r##"<rect width="{WIDTH}" height="{height}" fill="#fffdf7"/>"##
    );
    let title = if same {
        format!(
            "{} against itself: each side's share, {} games",
            heading.players[0], heading.games
        )
    } else {
        format!(
            "{} against {}: each one's score, {} games",
            heading.players[0], heading.players[1], heading.games
        )
    };
    let _ = writeln!(
        s,
        r#"<text x="{LABEL_X}" y="26" font-size="16" font-weight="bold">{}</text>"#,
        escape(&title)
    );
    axis(&mut s, same, chart_bottom);
    let mut y = TOP;
    for scenario in &scenarios {
        let _ = writeln!(
            s,
            r#"<text x="{LABEL_X}" y="{:.1}" font-weight="bold">{}</text>"#,
            y + 15.0,
            escape(scenario)
        );
        y += ROW;
        for r in shown.iter().filter(|r| r.scenario == *scenario) {
            row(&mut s, r, y, r.player != heading.players[0]);
            y += ROW;
        }
    }
    let _ = writeln!(
        s,
        r##"<text x="{LABEL_X}" y="{:.1}" fill="#555">Bars: the score's share (a draw or a stopped game a half); whiskers: the 95% Wilson interval.</text>"##,
        chart_bottom + 26.0
    );
    if !bands.is_empty() {
        calibration(&mut s, bands, calibration_top);
    }
    s.push_str("</svg>\n");
    s
}

/// The x of a share from 0 to 1.
fn x_of(share: f64) -> f64 {
    X0 + share.clamp(0.0, 1.0) * (X1 - X0)
}

/// The grid of tenths, the labels of every fifth, and the mark of a fair result.
fn axis(s: &mut String, same: bool, bottom: f64) {
    if same {
        let _ = writeln!(
            s,
            r##"<rect class="balanced" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#e3f1de"/>"##,
            x_of(0.35),
            TOP - 4.0,
            x_of(0.65) - x_of(0.35),
            bottom - TOP + 4.0
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#4a7a3d">balanced: 35% to 65%</text>"##,
            x_of(0.5),
            TOP - 24.0
        );
    }
    for tenth in 0..=10 {
        let share = f64::from(tenth) / 10.0;
        let x = x_of(share);
        let (stroke, dash) = if !same && tenth == 5 {
            ("#888", r#" stroke-dasharray="5 4""#)
        } else {
            ("#e4e0d6", "")
        };
        let _ = writeln!(
            s,
            r#"<line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{bottom:.1}" stroke="{stroke}"{dash}/>"#,
            TOP - 4.0
        );
        if tenth % 2 == 0 {
            let _ = writeln!(
                s,
                r##"<text x="{x:.1}" y="{:.1}" text-anchor="middle" fill="#555">{}%</text>"##,
                TOP - 8.0,
                tenth * 10
            );
        }
    }
}

/// One player's or side's bar, interval and figures at `y`.
fn row(s: &mut String, r: &Row, y: f64, second: bool) {
    let colour = if second { "#d98c3f" } else { "#3f6fb0" };
    let mid = y + ROW / 2.0;
    let label = match &r.side {
        Some(side) => format!("{} as {side}", r.player),
        None => format!("{}, both sides", r.player),
    };
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}">{}</text>"#,
        LABEL_X + 14.0,
        mid + 4.5,
        escape(&label)
    );
    let share = r.share();
    let _ = writeln!(
        s,
        r#"<rect class="score" x="{X0:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{colour}" fill-opacity="0.55"/>"#,
        y + 4.0,
        x_of(share) - X0,
        ROW - 8.0
    );
    let (lo, hi) = (x_of(r.interval.0), x_of(r.interval.1));
    let _ = writeln!(
        s,
        r#"<path class="interval" d="M{lo:.1} {mid:.1}H{hi:.1}M{lo:.1} {:.1}V{:.1}M{hi:.1} {:.1}V{:.1}" stroke="{colour}" stroke-width="1.6" fill="none"/>"#,
        mid - 5.0,
        mid + 5.0,
        mid - 5.0,
        mid + 5.0
    );
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}">{:.1} of {} ({:.0}%) [{:.0}%, {:.0}%]</text>"#,
        X1 + 10.0,
        mid + 4.5,
        r.points,
        r.games,
        share * 100.0,
        r.interval.0 * 100.0,
        r.interval.1 * 100.0
    );
}

/// The searched decisions' estimates of winning (x) against the share of them made by
/// the side that won (y): a dot a band, its area by the decisions in it, on the
/// diagonal where an estimate means what it says.
fn calibration(s: &mut String, bands: &[Band], top: f64) {
    let left = X0;
    let bottom = top + SQUARE;
    let at = |share: f64| share.clamp(0.0, 1.0) * SQUARE;
    let _ = writeln!(
        s,
        r#"<text x="{LABEL_X}" y="{:.1}" font-size="15" font-weight="bold">The search's estimates of winning against the results</text>"#,
        top - 22.0
    );
    let _ = writeln!(
        s,
        r##"<rect x="{left:.1}" y="{top:.1}" width="{SQUARE}" height="{SQUARE}" fill="none" stroke="#bbb"/>"##
    );
    let _ = writeln!(
        s,
        r##"<line x1="{left:.1}" y1="{bottom:.1}" x2="{:.1}" y2="{top:.1}" stroke="#888" stroke-dasharray="5 4"/>"##,
        left + SQUARE
    );
    for quarter in 0..=4 {
        let share = f64::from(quarter) / 4.0;
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#555">{}%</text>"##,
            left + at(share),
            bottom + 16.0,
            quarter * 25
        );
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555">{}%</text>"##,
            left - 6.0,
            bottom - at(share) + 4.0,
            quarter * 25
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#555">win estimated at the decision</text>"##,
        left + SQUARE / 2.0,
        bottom + 34.0
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" text-anchor="end" fill="#555">won</text>"##,
        left - 40.0,
        top + SQUARE / 2.0
    );
    let most = bands.iter().map(|b| b.decisions).max().unwrap_or(1).max(1);
    for b in bands {
        #[expect(clippy::cast_precision_loss, reason = "decision counts are small")]
        let radius = 3.0 + 9.0 * (b.decisions as f64 / most as f64).sqrt();
        let _ = writeln!(
            s,
            r##"<circle class="band" cx="{:.1}" cy="{:.1}" r="{radius:.1}" fill="#3f6fb0" fill-opacity="0.6"><title>{} decisions: estimated {:.0}%, won {:.0}%</title></circle>"##,
            left + at(b.predicted),
            bottom - at(b.won),
            b.decisions,
            b.predicted * 100.0,
            b.won * 100.0
        );
    }
    for (line, dy) in [
        (
            "A dot a tenth of the estimates, its area by the decisions in it;",
            20.0,
        ),
        (
            "on the dashed diagonal an estimate means what it says.",
            38.0,
        ),
    ] {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" fill="#555">{line}</text>"##,
            left + SQUARE + 24.0,
            top + dy
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(scenario: &str, player: &str, side: &str, games: usize, points: f64) -> Row {
        Row {
            scenario: scenario.into(),
            player: player.into(),
            side: (side != "both").then(|| side.into()),
            games,
            points,
            interval: grognard_ai::arena::wilson(points, games),
        }
    }

    fn count(hay: &str, needle: &str) -> usize {
        hay.matches(needle).count()
    }

    /// Issue 13, the arena: every row with games gets a bar and an interval, at the
    /// share it scored; a row without games is left out; names are escaped.
    #[test]
    fn every_row_with_games_is_a_bar_and_an_interval_at_its_share() {
        let rows = [
            row("s<1>", "normal", "red", 20, 15.0),
            row("s<1>", "normal", "blue", 20, 10.5),
            row("s<1>", "easy", "red", 0, 0.0),
            row("s&2", "normal", "both", 40, 40.0),
        ];
        let heading = Heading {
            players: ["normal", "easy"],
            games: 80,
        };
        let svg = svg(&heading, &rows, &[]);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert_eq!(count(&svg, "class=\"score\""), 3);
        assert_eq!(count(&svg, "class=\"interval\""), 3);
        assert!(svg.contains("s&lt;1&gt;") && svg.contains("s&amp;2"));
        assert!(!svg.contains("s<1>"));
        // 15 of 20 is three quarters of the way from 0% to 100%.
        let width = format!("width=\"{:.1}\"", 0.75 * (X1 - X0));
        assert!(svg.contains(&width), "{svg}");
        assert!(svg.contains("15.0 of 20 (75%)"));
        assert!(svg.contains("40.0 of 40 (100%)"));
        assert!(svg.contains("normal as blue") && svg.contains("normal, both sides"));
        // Between two players: an even score is marked, no balance band, no
        // calibration without searched decisions.
        assert!(svg.contains("stroke-dasharray"));
        assert!(!svg.contains("class=\"balanced\""));
        assert!(!svg.contains("class=\"band\""));
    }

    /// Issue 13, item 7: one player on both seats shades a balanced scenario's band.
    #[test]
    fn one_player_on_both_seats_shades_the_balanced_band() {
        let rows = [
            row("broken-cairn", "normal", "red", 40, 22.0),
            row("broken-cairn", "normal", "blue", 40, 18.0),
        ];
        let heading = Heading {
            players: ["normal", "normal"],
            games: 40,
        };
        let svg = svg(&heading, &rows, &[]);
        assert_eq!(count(&svg, "class=\"balanced\""), 1);
        assert!(svg.contains("35% to 65%"));
        assert!(svg.contains("normal against itself"));
    }

    /// Issue 13, the `win` shown: each band of estimates is a dot at its estimate and
    /// its result.
    #[test]
    fn the_estimates_of_winning_are_a_dot_a_band() {
        let bands = [
            Band {
                from: 0.1,
                decisions: 40,
                predicted: 0.15,
                won: 0.1,
            },
            Band {
                from: 0.8,
                decisions: 10,
                predicted: 0.85,
                won: 0.9,
            },
        ];
        let heading = Heading {
            players: ["normal", "easy"],
            games: 2,
        };
        let svg = svg(&heading, &[row("s", "normal", "a", 2, 1.0)], &bands);
        assert_eq!(count(&svg, "class=\"band\""), 2);
        assert!(svg.contains("40 decisions: estimated 15%, won 10%"));
        // The fuller band has the bigger dot.
        assert!(
            svg.contains("r=\"12.0\"") && svg.contains("r=\"7.5\""),
            "{svg}"
        );
    }
}
