//! A Luzhanqi position as an SVG picture: the 5×12 board, rank 12 at the top; the railway
//! drawn double, roads single, camps as circles, headquarters as arches (rectangles), the two
//! mountains between the halves; pieces as their Chinese names in their side's colour,
//! face-down pieces and unidentified enemy pieces (a dark seat's view) as backs, the last
//! action's points marked.

use std::fmt::Write;

use crate::core::glyphs::{Anchor, Glyphs, escape};

use super::board::{CAMPS, HQS, MOUNTAIN_RING, Point, neighbours_of, rail_neighbours_of};
use super::notation::Action;
use super::pieces::{Piece, Side};
use super::position::{Cell, FlagState, Position};

const GAP_X: u32 = 80;
const GAP_Y: u32 = 52;
const FRONT: u32 = 40;
const MARGIN: u32 = 40;
/// Room at the left for the ranks' numbers and under the board for the files' letters, outside
/// the pieces.
const LEFT: u32 = 76;
const BOTTOM: u32 = 64;

/// What a point shows.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Shown {
    Empty,
    /// Face down (flip games).
    Covered,
    /// An enemy piece the seat may not identify (dark views): a back in its side's colour.
    Unknown(Side),
    Piece(Piece),
}

impl Shown {
    /// The point as a seat's view writes it: a piece letter, `X` face down, `?` an enemy piece
    /// not identified, `-` empty.
    pub fn letter(self) -> char {
        match self {
            Shown::Empty => '-',
            Shown::Covered => 'X',
            Shown::Unknown(_) => '?',
            Shown::Piece(p) => p.char(),
        }
    }
}

/// Every point's name, centre and how far a click on it may land (`Pictures::points`).
pub fn points() -> Vec<(String, u32, u32, u32)> {
    Point::all()
        .map(|p| {
            let (x, y) = centre(p);
            (p.to_string(), x, y, GAP_Y / 2 - 2)
        })
        .collect()
}

fn centre(p: Point) -> (u32, u32) {
    if p.is_mountain() {
        let x = LEFT + p.file() as u32 * GAP_X;
        return (x, MARGIN + 6 * GAP_Y - GAP_Y + FRONT / 2 + GAP_Y / 2);
    }
    let row = 11 - p.rank() as u32; // 0 for rank 12
    let y = MARGIN + row * GAP_Y + if row >= 6 { FRONT } else { 0 };
    (LEFT + p.file() as u32 * GAP_X, y)
}

/// The SVG of `pos`, the points of `last` marked.
pub fn svg(pos: &Position, last: Option<&Action>) -> String {
    let shown = |p: Point| match pos.cell(p) {
        Cell::Empty => Shown::Empty,
        Cell::Covered => Shown::Covered,
        Cell::Piece(q) => Shown::Piece(q),
    };
    let carried: Vec<Point> = Side::ALL
        .iter()
        .filter_map(|s| match pos.flag_state(*s) {
            FlagState::Carried(p) | FlagState::Under(p) => Some(p),
            FlagState::Alone => None,
        })
        .collect();
    picture(&shown, &carried, last, &pos.to_string())
}

/// The picture of any board: `shown` says what each point shows; `flags` the points where a
/// flag shares a point.
pub fn picture(
    shown: &dyn Fn(Point) -> Shown,
    flags: &[Point],
    last: Option<&Action>,
    title: &str,
) -> String {
    let (w, h) = (
        LEFT + 4 * GAP_X + MARGIN,
        MARGIN + 11 * GAP_Y + FRONT + BOTTOM,
    );
    let mut s = String::with_capacity(24 * 1024);
    let mut glyphs = Glyphs::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="'Noto Serif CJK TC','Noto Serif TC','Songti TC','SimSun',serif"><title>{}</title><rect x="0" y="0" width="{w}" height="{h}" fill="#e9dcb8"/>"##,
        escape(title)
    );
    // Edges: roads thin, railways thick and dashed like sleepers.
    for p in Point::all() {
        let (x1, y1) = centre(p);
        for q in neighbours_of(p).filter(|q| *q > p) {
            let (x2, y2) = centre(q);
            let rail = rail_neighbours_of(p).contains(q);
            let style = if rail {
                r##"stroke="#222" stroke-width="5" class="rail""##
            } else {
                r##"stroke="#6b5330" stroke-width="1.5" class="road""##
            };
            let _ = write!(
                s,
                r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" {style}/>"##
            );
        }
    }
    let board_point = |f: u8, r: u8| Point::new(r * 5 + f).map(centre);
    s.push_str(&glyphs.coordinates(
        (0..5u8).filter_map(|f| Some((board_point(f, 0)?.0, ((b'a' + f) as char).to_string()))),
        h - BOTTOM + 40,
        (0..12u8).filter_map(|r| Some((board_point(0, r)?.1, (r + 1).to_string()))),
        LEFT - 34,
    ));
    for (i, ring) in MOUNTAIN_RING.iter().enumerate() {
        let m = Point::new((Point::BOARD + i) as u8).expect("a mountain");
        let (cx, cy) = centre(m);
        let _ = write!(
            s,
            r##"<g class="mountain" data-point="{m}" data-ring="{}"><path d="M{} {} L{cx} {} L{} {} Z" fill="#8d7a52" opacity="0.6"/>{}</g>"##,
            ring.map(|p| p.to_string()).collect::<Vec<_>>().join(" "),
            cx - 26,
            cy + 12,
            cy - 14,
            cx + 26,
            cy + 12,
            glyphs.text(
                cx as f64,
                (cy + 26) as f64,
                13.0,
                Anchor::Middle,
                "#3d2412",
                "山界"
            )
        );
    }
    for p in Point::all() {
        let (cx, cy) = centre(p);
        if CAMPS.contains(p) {
            let _ = write!(
                s,
                r##"<circle class="camp" cx="{cx}" cy="{cy}" r="20" fill="#f6efd8" stroke="#6b5330" stroke-width="1.5"/>"##
            );
        } else if HQS.contains(p) {
            let _ = write!(
                s,
                r##"<rect class="hq" x="{}" y="{}" width="52" height="36" rx="14" fill="#f6efd8" stroke="#6b5330" stroke-width="1.5"/>"##,
                cx - 26,
                cy - 18
            );
        }
    }
    let marked: Vec<Point> = match last {
        Some(Action::Flip { point, .. }) => vec![*point],
        Some(Action::Move { from, to, .. }) => vec![*from, *to],
        _ => Vec::new(),
    };
    for p in marked {
        let (cx, cy) = centre(p);
        let _ = write!(
            s,
            r##"<rect class="last" x="{}" y="{}" width="64" height="34" rx="5" fill="#f6d55c" data-point="{p}"/>"##,
            cx - 32,
            cy - 17
        );
    }
    for i in 0..Point::COUNT as u8 {
        let p = Point::new(i).expect("a point");
        let (cx, cy) = centre(p);
        let (x, y) = (cx - 28, cy - 14);
        match shown(p) {
            Shown::Empty => {}
            Shown::Covered => {
                let _ = write!(
                    s,
                    r##"<rect class="covered" data-point="{p}" x="{x}" y="{y}" width="56" height="28" rx="4" fill="#7a4b2a" stroke="#3d2412" stroke-width="2"/>"##
                );
            }
            Shown::Unknown(side) => {
                let fill = side_colour(side);
                let _ = write!(
                    s,
                    r##"<rect class="unknown" data-point="{p}" data-side="{}" x="{x}" y="{y}" width="56" height="28" rx="4" fill="{fill}" stroke="#3d2412" stroke-width="2"/>"##,
                    side.name()
                );
            }
            Shown::Piece(piece) => {
                let ink = side_colour(piece.side);
                let flag = if flags.contains(&p) { "+旗" } else { "" };
                let _ = write!(
                    s,
                    r##"<g class="piece" data-point="{p}" data-piece="{}" data-side="{}"><rect x="{x}" y="{y}" width="56" height="28" rx="4" fill="#fbf6e6" stroke="{ink}" stroke-width="2"/>{}</g>"##,
                    piece.char(),
                    piece.side.name(),
                    glyphs.text(
                        cx as f64,
                        (cy + 6) as f64,
                        18.0,
                        Anchor::Middle,
                        ink,
                        &format!("{}{flag}", piece.role.chinese())
                    )
                );
            }
        }
    }
    s.push_str(&glyphs.defs());
    s.push_str("</svg>");
    s
}

fn side_colour(side: Side) -> &'static str {
    match side {
        Side::Red => "#b3121b",
        Side::Black => "#1a1a1a",
    }
}
