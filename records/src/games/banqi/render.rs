//! A Banqi position as an SVG picture: the 4×8 board with rank 8 at the top (as the position
//! string reads), pieces as their Chinese characters, covered pieces as plain backs, and the
//! squares of a last action highlighted.

use std::fmt::Write;

use crate::core::glyphs::{Anchor, Glyphs};

use super::action::Action;
use super::position::{Cell, Position};
use super::types::{Color, Square};

const CELL: u32 = 60;
const MARGIN: u32 = 28;

/// What to draw besides the position.
#[derive(Clone, Debug, Default)]
pub struct RenderOptions {
    /// Squares to highlight, e.g. those of the last action.
    pub highlight: Vec<Square>,
}

impl RenderOptions {
    /// Highlights every square an action touches (a flip's square; a move's origin and hops).
    pub fn last_action(action: &Action) -> RenderOptions {
        let highlight = match action {
            Action::Flip { square, .. } => vec![*square],
            Action::Move(path) => std::iter::once(path.from)
                .chain(path.hops().iter().map(|h| h.to()))
                .collect(),
        };
        RenderOptions { highlight }
    }
}

/// The SVG document of `pos`.
pub fn svg(pos: &Position, options: &RenderOptions) -> String {
    let (w, h) = (MARGIN + 4 * CELL + 8, 8 + 8 * CELL + MARGIN);
    let mut s = String::with_capacity(8 * 1024);
    let mut glyphs = Glyphs::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="'Noto Serif CJK TC','Noto Serif TC','Songti TC','SimSun',serif">"##
    );
    let _ = write!(s, "<title>{pos}</title>");
    let _ = write!(
        s,
        r##"<rect x="0" y="0" width="{w}" height="{h}" fill="#f3e3c0"/>"##
    );
    let (x0, y0) = (MARGIN, 8);
    for sq in Square::all() {
        let (x, y) = corner(sq);
        let fill = if options.highlight.contains(&sq) {
            "#f6d55c"
        } else if (sq.file() + sq.rank()) % 2 == 0 {
            "#e8cf9c"
        } else {
            "#eedaae"
        };
        // The last action's squares are marked for the pages (`.last`), like the other games'.
        let class = if options.highlight.contains(&sq) {
            r#" class="last""#
        } else {
            ""
        };
        let _ = write!(
            s,
            r##"<rect{class} x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#8a6a3a" stroke-width="1"/>"##
        );
    }
    let _ = write!(
        s,
        r##"<rect x="{x0}" y="{y0}" width="{}" height="{}" fill="none" stroke="#5a4020" stroke-width="2"/>"##,
        4 * CELL,
        8 * CELL
    );
    s.push_str(&glyphs.coordinates(
        (0..4u32).map(|f| {
            (
                x0 + f * CELL + CELL / 2,
                ((b'a' + f as u8) as char).to_string(),
            )
        }),
        y0 + 8 * CELL + 18,
        (0..8u32).map(|r| (y0 + (7 - r) * CELL + CELL / 2, (r + 1).to_string())),
        MARGIN - 8,
    ));
    for sq in Square::all() {
        let (x, y) = corner(sq);
        let (cx, cy, r) = (x + CELL / 2, y + CELL / 2, CELL / 2 - 5);
        match pos.cell(sq) {
            Cell::Empty => {}
            Cell::Covered => {
                let _ = write!(
                    s,
                    r##"<g class="covered" data-square="{sq}"><circle cx="{cx}" cy="{cy}" r="{r}" fill="#7a4b2a" stroke="#3d2412" stroke-width="2"/><circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="#d9b27c" stroke-width="2"/></g>"##,
                    r - 6
                );
            }
            Cell::Revealed(piece) => {
                let ink = match piece.side {
                    Color::Red => "#b3121b",
                    Color::Black => "#1a1a1a",
                };
                let _ = write!(
                    s,
                    r##"<g class="piece" data-square="{sq}" data-piece="{}" data-side="{}"><circle cx="{cx}" cy="{cy}" r="{r}" fill="#fbf1da" stroke="{ink}" stroke-width="2"/><circle cx="{cx}" cy="{cy}" r="{}" fill="none" stroke="{ink}" stroke-width="1"/>{}</g>"##,
                    piece.char(),
                    piece.side.name(),
                    r - 4,
                    glyphs.text(
                        cx as f64,
                        (cy + 10) as f64,
                        28.0,
                        Anchor::Middle,
                        ink,
                        &piece.chinese().to_string()
                    )
                );
            }
        }
    }
    s.push_str(&glyphs.defs());
    s.push_str("</svg>");
    s
}

/// Every square's name, centre and half a cell (`Pictures::points`).
pub fn points() -> Vec<(String, u32, u32, u32)> {
    Square::all()
        .map(|sq| {
            let (x, y) = corner(sq);
            (sq.to_string(), x + CELL / 2, y + CELL / 2, CELL / 2)
        })
        .collect()
}

/// The top-left corner of a square's cell: rank 8 at the top, file a at the left.
fn corner(sq: Square) -> (u32, u32) {
    (
        MARGIN + sq.file() as u32 * CELL,
        8 + (7 - sq.rank() as u32) * CELL,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_pieces_backs_and_highlights() {
        let pos: Position = "k3/4/4/4/4/4/4/X2P r P1 0 9".parse().unwrap();
        let action: Action = "d1-d2".parse().unwrap();
        let svg = svg(&pos, &RenderOptions::last_action(&action));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains("將") && svg.contains("兵"));
        assert_eq!(svg.matches(r#"class="covered""#).count(), 1);
        assert_eq!(svg.matches(r#"class="piece""#).count(), 2);
        assert_eq!(svg.matches("#f6d55c").count(), 2, "d1 and d2 highlighted");
        assert_eq!(svg.matches(r#"class="last""#).count(), 2);
        assert!(svg.contains(r#"data-square="a8" data-piece="k" data-side="black""#));
        for label in ["a", "d", "1", "8"] {
            assert!(
                svg.contains(&format!(r#"data-coordinate="{label}""#)),
                "{label}"
            );
        }
    }
}
