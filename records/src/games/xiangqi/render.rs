//! A third-generation xiangqi position as an SVG picture: the 9×10 board with its river and
//! palaces (rank 9 at the top), pieces as their Chinese names, a piece's back as a small label
//! where the position knows it (a seat's masked position shows only that seat's own), the last
//! move marked.

use std::fmt::Write;

use crate::core::glyphs::{Anchor, Glyphs};

use super::action::Action;
use super::board::Square;
use super::pieces::{Back, Side, side_case};
use super::position::Position;

const GAP: u32 = 56;
const MARGIN: u32 = 40;
/// Room at the left for the ranks' numbers and under the board for the files' letters, outside
/// the pieces.
const LEFT: u32 = 64;
const BOTTOM: u32 = 62;

/// Every point's name, centre and how far a click on it may land (`Pictures::points`).
pub fn points() -> Vec<(String, u32, u32, u32)> {
    Square::all()
        .map(|p| {
            let (x, y) = centre(p);
            (p.to_string(), x, y, GAP / 2)
        })
        .collect()
}

fn centre(s: Square) -> (u32, u32) {
    (
        LEFT + s.file() as u32 * GAP,
        MARGIN + (9 - s.rank() as u32) * GAP,
    )
}

pub fn svg(pos: &Position, last: Option<&Action>) -> String {
    let (w, h) = (LEFT + 8 * GAP + MARGIN, MARGIN + 9 * GAP + BOTTOM);
    let mut s = String::with_capacity(16 * 1024);
    let mut glyphs = Glyphs::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="'Noto Serif CJK TC','Noto Serif TC','Songti TC','SimSun',serif"><title>{pos}</title><rect x="0" y="0" width="{w}" height="{h}" fill="#f0d9a8"/>"##
    );
    let line = |s: &mut String, a: (u32, u32), b: (u32, u32)| {
        let _ = write!(
            s,
            r##"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="#5a4020" stroke-width="1.5"/>"##,
            a.0, a.1, b.0, b.1
        );
    };
    let at = |f: i8, r: i8| centre(Square::from_coords(f, r).expect("on the board"));
    for r in 0..10 {
        line(&mut s, at(0, r), at(8, r));
    }
    for f in 0..9 {
        if f == 0 || f == 8 {
            line(&mut s, at(f, 0), at(f, 9));
        } else {
            // The river cuts the inner files.
            line(&mut s, at(f, 0), at(f, 4));
            line(&mut s, at(f, 5), at(f, 9));
        }
    }
    for (r0, r1) in [(0, 2), (7, 9)] {
        line(&mut s, at(3, r0), at(5, r1));
        line(&mut s, at(5, r0), at(3, r1));
    }
    s.push_str(&glyphs.coordinates(
        (0..9).map(|f| (at(f, 0).0, ((b'a' + f as u8) as char).to_string())),
        MARGIN + 9 * GAP + GAP / 2 + 12,
        (0..10).map(|r| (at(0, r).1, r.to_string())),
        LEFT - GAP / 2 - 6,
    ));
    let (rx, ry) = at(4, 5);
    let _ = write!(
        s,
        r##"<g class="river">{}</g>"##,
        glyphs.text(
            rx as f64,
            (ry + GAP / 2 + 8) as f64,
            22.0,
            Anchor::Middle,
            "#5a4020",
            "楚河　　漢界"
        )
    );
    let marked: Vec<Square> = match last {
        Some(Action::Move(m)) => vec![m.from, m.to],
        Some(Action::Flip { at, .. }) => vec![*at],
        Some(Action::DoubleFlip {
            general, advisor, ..
        }) => vec![*general, *advisor],
        None => Vec::new(),
    };
    let r = GAP / 2 - 4;
    for sq in marked {
        let (cx, cy) = centre(sq);
        let _ = write!(
            s,
            r##"<circle class="last" cx="{cx}" cy="{cy}" r="{}" fill="#f6d55c" data-point="{sq}"/>"##,
            r + 3
        );
    }
    for sq in Square::all() {
        let Some(p) = pos.piece(sq) else {
            continue;
        };
        let (cx, cy) = centre(sq);
        let ink = match p.side {
            Side::Red => "#b3121b",
            Side::Black => "#1a1a1a",
        };
        let _ = write!(
            s,
            r##"<g class="piece" data-point="{sq}" data-piece="{}" data-side="{}"><circle cx="{cx}" cy="{cy}" r="{r}" fill="#fbf1da" stroke="{ink}" stroke-width="2"/>{}"##,
            p.char(),
            p.side.name(),
            glyphs.text(
                cx as f64,
                (cy + 8) as f64,
                24.0,
                Anchor::Middle,
                ink,
                p.kind.chinese(p.side)
            )
        );
        if let Back::Known(k) = p.back {
            let _ = write!(
                s,
                r##"<g class="back" data-back="{}">{}</g>"##,
                side_case(k.letter(), p.side),
                glyphs.text(
                    (cx + r - 4) as f64,
                    (cy - r + 8) as f64,
                    12.0,
                    Anchor::Middle,
                    "#5a4020",
                    k.chinese(p.side)
                )
            );
        }
        s.push_str("</g>");
    }
    s.push_str(&glyphs.defs());
    s.push_str("</svg>");
    s
}
