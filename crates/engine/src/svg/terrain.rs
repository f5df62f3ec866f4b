//! The marks drawn over the terrain's fill that say what a hex is (trees in woods,
//! buildings in a town, contours on a hill), from the palette's [`MARKS`] table: the
//! same drawings as the web client's `web/js/terrain.js`.
//!
//! [`MARKS`]: crate::palette::MARKS

use super::{n, Scenario, SIZE};
use crate::palette::mark;
use grognard_hex::Hex;
use std::fmt::Write;

/// The drawing of each mark, centred on the hex's centre for a hex of circumradius 40
/// (the SVG's and the web client's size); `web/js/terrain.js` holds the same drawings.
pub(super) const DRAWINGS: &[(&str, &str)] = &[
    ("plain", r##""##),
    (
        "rough",
        r##"<circle cx="-16" cy="-8" r="1.3" fill="#8f7a48"/><circle cx="-6" cy="-14" r="1.3" fill="#8f7a48"/><circle cx="8" cy="-10" r="1.3" fill="#8f7a48"/><circle cx="17" cy="-2" r="1.3" fill="#8f7a48"/><circle cx="-12" cy="4" r="1.3" fill="#8f7a48"/><circle cx="2" cy="0" r="1.3" fill="#8f7a48"/><circle cx="12" cy="10" r="1.3" fill="#8f7a48"/><circle cx="-4" cy="12" r="1.3" fill="#8f7a48"/><circle cx="-20" cy="8" r="1.3" fill="#8f7a48"/>"##,
    ),
    (
        "rocks",
        r##"<path d="M-17 -3l2 -6l5 -2l4 4l-1 4z" fill="#8d8578" stroke="#4e483f" stroke-width="0.8"/><path d="M1 -9l2 -6l5 -2l4 4l-1 4z" fill="#8d8578" stroke="#4e483f" stroke-width="0.8"/><path d="M7 7l2 -6l5 -2l4 4l-1 4z" fill="#8d8578" stroke="#4e483f" stroke-width="0.8"/><path d="M-9 11l2 -6l5 -2l4 4l-1 4z" fill="#8d8578" stroke="#4e483f" stroke-width="0.8"/><path d="M-23 11l2 -6l5 -2l4 4l-1 4z" fill="#8d8578" stroke="#4e483f" stroke-width="0.8"/>"##,
    ),
    (
        "brush",
        r##"<circle cx="-14" cy="-8" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="0" cy="-12" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="14" cy="-6" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="-8" cy="4" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="8" cy="6" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="-16" cy="12" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="16" cy="12" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/><circle cx="0" cy="16" r="3.6" fill="#7f9f52" stroke="#5c7a38" stroke-width="0.6"/>"##,
    ),
    (
        "orchard",
        r##"<circle cx="-11" cy="-11" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="-11" cy="0" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="-11" cy="11" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="0" cy="-11" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="0" cy="0" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="0" cy="11" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="11" cy="-11" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="11" cy="0" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/><circle cx="11" cy="11" r="3.4" fill="#6f9a4a" stroke="#4d7034" stroke-width="0.6"/>"##,
    ),
    (
        "trees",
        r##"<circle cx="-13" cy="-6" r="7.5" fill="#4f7d3a" stroke="#35572a" stroke-width="0.8"/><circle cx="-14.5" cy="-7.5" r="2.5" fill="#8fb86e"/><circle cx="1" cy="-12" r="7.5" fill="#4f7d3a" stroke="#35572a" stroke-width="0.8"/><circle cx="-0.5" cy="-13.5" r="2.5" fill="#8fb86e"/><circle cx="14" cy="-4" r="7.5" fill="#4f7d3a" stroke="#35572a" stroke-width="0.8"/><circle cx="12.5" cy="-5.5" r="2.5" fill="#8fb86e"/><circle cx="-6" cy="8" r="7.5" fill="#4f7d3a" stroke="#35572a" stroke-width="0.8"/><circle cx="-7.5" cy="6.5" r="2.5" fill="#8fb86e"/><circle cx="9" cy="9" r="7.5" fill="#4f7d3a" stroke="#35572a" stroke-width="0.8"/><circle cx="7.5" cy="7.5" r="2.5" fill="#8fb86e"/>"##,
    ),
    (
        "palms",
        r##"<path d="M-12 4v-10m0 0l-7 -3m7 3l7 -3m-7 3l-6 4m6 -4l6 4" stroke="#5f7f2a" stroke-width="1.6" fill="none" stroke-linecap="round"/><path d="M10 0v-10m0 0l-7 -3m7 3l7 -3m-7 3l-6 4m6 -4l6 4" stroke="#5f7f2a" stroke-width="1.6" fill="none" stroke-linecap="round"/><path d="M0 18v-10m0 0l-7 -3m7 3l7 -3m-7 3l-6 4m6 -4l6 4" stroke="#5f7f2a" stroke-width="1.6" fill="none" stroke-linecap="round"/>"##,
    ),
    (
        "village",
        r##"<rect x="-14" y="-11" width="8" height="6" transform="rotate(-12 -10 -8)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="3" y="-13" width="8" height="6" transform="rotate(8 7 -10)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="-8" y="3" width="8" height="6" transform="rotate(15 -4 6)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="7" y="2" width="8" height="6" transform="rotate(-6 11 5)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/>"##,
    ),
    (
        "hamlet",
        r##"<rect x="-11" y="-7" width="8" height="6" transform="rotate(-10 -7 -4)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="4" y="1" width="8" height="6" transform="rotate(12 8 4)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/>"##,
    ),
    (
        "town",
        r##"<rect x="-6" y="-6" width="12" height="12" fill="#8c8272" stroke="#4f473c" stroke-width="0.6"/><rect x="-19" y="-13" width="8" height="6" transform="rotate(0 -15 -10)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="-5" y="-19" width="8" height="6" transform="rotate(0 -1 -16)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="9" y="-14" width="8" height="6" transform="rotate(0 13 -11)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="-21" y="1" width="8" height="6" transform="rotate(0 -17 4)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="11" y="0" width="8" height="6" transform="rotate(0 15 3)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="-13" y="12" width="8" height="6" transform="rotate(0 -9 15)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/><rect x="3" y="12" width="8" height="6" transform="rotate(0 7 15)" fill="#a0473a" stroke="#5b2a22" stroke-width="0.6"/>"##,
    ),
    (
        "fort",
        r##"<polygon points="0,-20 6,-8 19,-6 10,3 12,16 0,10 -12,16 -10,3 -19,-6 -6,-8" fill="#bfb49a" stroke="#5d5443" stroke-width="2"/>"##,
    ),
    (
        "hill",
        r##"<ellipse cx="0" cy="2" rx="27" ry="18" fill="#b08a52" fill-opacity="0.25" stroke="#8a6432" stroke-width="1.2"/><ellipse cx="0" cy="1" rx="16" ry="10" fill="#b08a52" fill-opacity="0.3" stroke="#8a6432" stroke-width="1.2"/><ellipse cx="0" cy="0" rx="6" ry="3.5" fill="none" stroke="#8a6432" stroke-width="1.2"/>"##,
    ),
    (
        "mountain",
        r##"<path d="M-24 12L-9 -14L6 12zM-2 12L12 -8L26 12z" fill="#8a7560" stroke="#4f4032" stroke-width="1"/><path d="M-13 -7L-9 -14L-5 -7zM9 -3L12 -8L15 -3z" fill="#f4f4f4"/>"##,
    ),
    (
        "water",
        r##"<path d="M-22 -7q5.5 -5 11 0t11 0t11 0t11 0M-22 5q5.5 -5 11 0t11 0t11 0t11 0" stroke="#3f78bf" stroke-width="1.4" fill="none"/>"##,
    ),
    (
        "ford",
        r##"<path d="M-22 -7q5.5 -5 11 0t11 0t11 0t11 0M-22 5q5.5 -5 11 0t11 0t11 0t11 0" stroke="#3f78bf" stroke-width="1.4" fill="none"/><path d="M-24 0h48" stroke="#e8d49a" stroke-width="7" stroke-dasharray="5 4"/>"##,
    ),
    (
        "bridge",
        r##"<path d="M-22 -7q5.5 -5 11 0t11 0t11 0t11 0M-22 5q5.5 -5 11 0t11 0t11 0t11 0" stroke="#3f78bf" stroke-width="1.4" fill="none"/><rect x="-24" y="-6" width="48" height="12" fill="#d9cdb5" stroke="#6b421c" stroke-width="1.4"/><path d="M-24 -6h48M-24 6h48" stroke="#6b421c" stroke-width="2.4"/>"##,
    ),
    (
        "marsh",
        r##"<path d="M-17 -4h10M-15 -4v-5M-12 -4v-7M-9 -4v-5" stroke="#3f7a66" stroke-width="1.1" fill="none"/><path d="M3 -8h10M5 -8v-5M8 -8v-7M11 -8v-5" stroke="#3f7a66" stroke-width="1.1" fill="none"/><path d="M-7 10h10M-5 10v-5M-2 10v-7M1 10v-5" stroke="#3f7a66" stroke-width="1.1" fill="none"/><path d="M9 8h10M11 8v-5M14 8v-7M17 8v-5" stroke="#3f7a66" stroke-width="1.1" fill="none"/>"##,
    ),
    (
        "dunes",
        r##"<path d="M-22 -6q6 -7 12 0M-2 -10q6 -7 12 0M-14 8q6 -7 12 0M6 12q6 -7 12 0" stroke="#b8974e" stroke-width="1.4" fill="none"/>"##,
    ),
    (
        "fields",
        r##"<path d="M-20 -12h40M-24 -6h48M-24 0h48M-24 6h48M-20 12h40" stroke="#c2ae4e" stroke-width="1.2" fill="none"/>"##,
    ),
    (
        "snow",
        r##"<path d="M-15 -8h6M-12 -11v6" stroke="#9aa8c4" stroke-width="1"/><path d="M3 -12h6M6 -15v6" stroke="#9aa8c4" stroke-width="1"/><path d="M11 2h6M14 -1v6" stroke="#9aa8c4" stroke-width="1"/><path d="M-7 6h6M-4 3v6" stroke="#9aa8c4" stroke-width="1"/><path d="M-19 10h6M-16 7v6" stroke="#9aa8c4" stroke-width="1"/><path d="M5 14h6M8 11v6" stroke="#9aa8c4" stroke-width="1"/>"##,
    ),
];

/// The drawing of a mark, centred on (0, 0) for a hex of circumradius 40.
pub(super) fn drawing(mark: &str) -> Option<&'static str> {
    DRAWINGS
        .iter()
        .find(|(name, _)| *name == mark)
        .map(|&(_, d)| d)
}

/// The marks of every hex whose terrain the palette knows, as the layer `marks`.
pub(super) fn draw_marks(s: &Scenario, out: &mut String, hexes: &[Hex]) {
    out.push_str("<g id=\"marks\">\n");
    let scale = SIZE / 40.0;
    for &h in hexes {
        let Some(m) = s.terrain_at(h).and_then(mark) else {
            continue;
        };
        let Some(d) = drawing(m).filter(|d| !d.is_empty()) else {
            continue;
        };
        let (cx, cy) = s.map.center(h, SIZE);
        let _ = writeln!(
            out,
            r#"<g class="mark" data-hex="{}" data-mark="{m}" transform="translate({} {}) scale({})">{d}</g>"#,
            s.label(h),
            n(cx),
            n(cy),
            n(scale)
        );
    }
    out.push_str("</g>\n");
}

/// A mark drawn small, for the legend's swatch centred at `at`.
pub(super) fn swatch(out: &mut String, terrain: &str, at: (f64, f64)) {
    if let Some(d) = mark(terrain).and_then(drawing).filter(|d| !d.is_empty()) {
        let _ = writeln!(
            out,
            r#"<g class="mark" data-mark="{}" transform="translate({} {}) scale(0.3)">{d}</g>"#,
            mark(terrain).unwrap_or(""),
            n(at.0),
            n(at.1)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::palette::MARKS;

    #[test]
    fn every_mark_has_a_drawing() {
        for (names, m) in MARKS {
            assert!(drawing(m).is_some(), "{m} (for {names:?}) has no drawing");
        }
        for (m, _) in DRAWINGS {
            assert!(
                MARKS.iter().any(|(_, x)| x == m),
                "{m} is drawn but no terrain has it"
            );
        }
    }
}
