//! A Three Kingdoms position as an SVG picture: the 9×5 intersections of half a xiangqi
//! board, rank 5 at the top (as the position string reads), pieces on the points as their
//! Chinese characters ringed in their faction's colour, covered pieces as plain backs, the
//! last action's points marked, and a legend of the seats' factions.

use std::fmt::Write;

use crate::core::glyphs::{Anchor, Glyphs};

use crate::core::Seat;
use crate::core::Side;
use crate::core::pieces::Cell;

use super::notation::Action;
use super::pieces::Faction;
use super::points::Point;
use super::position::Position;
use crate::core::Turn as _;

const GAP: u32 = 64;
const MARGIN: u32 = 40;
/// Room at the left for the ranks' numbers and under the board for the files' letters, outside
/// the pieces.
const LEFT: u32 = 66;
const BOTTOM: u32 = 66;
const LEGEND: u32 = 34;

/// Each faction's colour, by index (the first split's generals, red, black).
const FACTION_COLOURS: [&str; 3] = ["#2e7d32", "#b3121b", "#1f3a8a"];

/// The points an action touches.
fn marked(last: Option<&Action>) -> Vec<Point> {
    match last {
        Some(Action::Flip { point, .. }) => vec![*point],
        Some(Action::Move { from, to }) => vec![*from, *to],
        Some(Action::Recall) | None => Vec::new(),
    }
}

/// Every point's name, centre and how far a click on it may land (`Pictures::points`).
pub fn points() -> Vec<(String, u32, u32, u32)> {
    Point::all()
        .map(|p| {
            let (x, y) = centre(p);
            (p.to_string(), x, y, GAP / 2 - 2)
        })
        .collect()
}

fn centre(p: Point) -> (u32, u32) {
    (
        LEFT + p.file() as u32 * GAP,
        MARGIN + (4 - p.rank() as u32) * GAP,
    )
}

/// The SVG document of `pos`, the points of `last` marked.
pub fn svg(pos: &Position, last: Option<&Action>) -> String {
    let (w, h) = (LEFT + 8 * GAP + MARGIN, MARGIN + 4 * GAP + BOTTOM + LEGEND);
    let mut s = String::with_capacity(12 * 1024);
    let mut glyphs = Glyphs::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="'Noto Serif CJK TC','Noto Serif TC','Songti TC','SimSun',serif"><title>{pos}</title><rect x="0" y="0" width="{w}" height="{h}" fill="#f3e3c0"/>"##
    );
    for rank in 0..5 {
        let y = MARGIN + rank * GAP;
        let _ = write!(
            s,
            r##"<line x1="{LEFT}" y1="{y}" x2="{}" y2="{y}" stroke="#5a4020" stroke-width="1.5"/>"##,
            LEFT + 8 * GAP,
        );
    }
    for file in 0..9 {
        let x = LEFT + file * GAP;
        let _ = write!(
            s,
            r##"<line x1="{x}" y1="{MARGIN}" x2="{x}" y2="{}" stroke="#5a4020" stroke-width="1.5"/>"##,
            MARGIN + 4 * GAP,
        );
    }
    s.push_str(&glyphs.coordinates(
        (0..9u32).map(|f| (LEFT + f * GAP, ((b'a' + f as u8) as char).to_string())),
        MARGIN + 4 * GAP + GAP / 2 + 16,
        (0..5u32).map(|r| (MARGIN + r * GAP, (5 - r).to_string())),
        LEFT - GAP / 2 - 6,
    ));
    let r = GAP / 2 - 5;
    for p in marked(last) {
        let (cx, cy) = centre(p);
        let _ = write!(
            s,
            r##"<circle class="last" cx="{cx}" cy="{cy}" r="{}" fill="#f6d55c" data-point="{p}"/>"##,
            r + 4
        );
    }
    for p in Point::all() {
        let (cx, cy) = centre(p);
        match pos.cell(p) {
            Cell::Empty => {}
            Cell::Covered => {
                let _ = write!(
                    s,
                    r##"<g class="covered" data-point="{p}"><circle cx="{cx}" cy="{cy}" r="{r}" fill="#7a4b2a" stroke="#3d2412" stroke-width="2"/><circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#d9b27c" stroke-width="2"/></g>"##,
                    r - 6
                );
            }
            Cell::Revealed(piece) => {
                let faction = pos.split().faction(piece);
                let ring = FACTION_COLOURS[faction.0 as usize];
                let ink = match piece.side {
                    Side::Red => "#b3121b",
                    Side::Black => "#1a1a1a",
                };
                let _ = write!(
                    s,
                    r##"<g class="piece" data-point="{p}" data-piece="{}" data-faction="{}" data-side="{}"><circle cx="{cx}" cy="{cy}" r="{r}" fill="#fbf1da" stroke="{ring}" stroke-width="4"/>{}</g>"##,
                    piece.char(),
                    pos.split().name(faction),
                    pos.split().name(faction),
                    glyphs.text(
                        cx as f64,
                        (cy + 9) as f64,
                        26.0,
                        Anchor::Middle,
                        ink,
                        &piece.chinese().to_string()
                    )
                );
            }
        }
    }
    legend(&mut s, &mut glyphs, pos, h - LEGEND + 8);
    s.push_str(&glyphs.defs());
    s.push_str("</svg>");
    s
}

/// A line under the board: each seat, its faction in its colour, and who is to move.
fn legend(s: &mut String, glyphs: &mut Glyphs, pos: &Position, y: u32) {
    for seat in Seat::all(3) {
        let x = LEFT + seat.index() as u32 * 3 * GAP;
        let (name, colour) = match pos.faction_of(seat) {
            Some(Faction(f)) => (pos.split().name(Faction(f)), FACTION_COLOURS[f as usize]),
            None => ("no faction", "#8a6a3a"),
        };
        let mark = if pos.to_move() == seat { " ◀" } else { "" };
        let _ = write!(
            s,
            r##"<g class="seat" data-seat="{}"><circle cx="{x}" cy="{}" r="7" fill="{colour}"/>{}</g>"##,
            seat.code(),
            y + 6,
            glyphs.text(
                (x + 12) as f64,
                (y + 11) as f64,
                14.0,
                Anchor::Start,
                "#3d2412",
                &format!("{seat}: {name}{mark}")
            )
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_points_factions_and_the_last_move() {
        let pos: Position = "K3X4/p8/9/9/4R3m rgb 2 k1 -/-/- --- 0 9".parse().unwrap();
        let action: Action = "e1-e2".parse().unwrap();
        let svg = svg(&pos, Some(&action));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(
            svg.contains("帥") && svg.contains("俥") && svg.contains("卒") && svg.contains("象")
        );
        assert_eq!(svg.matches(r#"class="covered""#).count(), 1);
        assert_eq!(svg.matches(r#"class="piece""#).count(), 4);
        assert_eq!(svg.matches(r#"class="last""#).count(), 2);
        assert!(svg.contains(
            r#"data-point="a5" data-piece="K" data-faction="generals" data-side="generals""#
        ));
        assert!(svg.contains("player 2: generals ◀"));
        for label in ["a", "i", "1", "5"] {
            assert!(
                svg.contains(&format!(r#"data-coordinate="{label}""#)),
                "{label}"
            );
        }
    }
}
