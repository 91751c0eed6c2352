//! What one side may see of a Luzhanqi game (RULES.md §8 "Modes").
//!
//! Open: everything. Flip: every face-up piece, and the face-down ones as a multiset. Dark:
//! its own pieces; of the enemy's, only where they stand, which have moved or fought, the
//! attacks as announced (win / loss / both die), and the flag once the enemy 司令 has died
//! (`flag_reveal`). Never an enemy identity otherwise.

use serde::Serialize;

use crate::core::Seat;

use super::board::Point;
use super::layout::{Layout, SideSetup};
use super::masked::MaskedPosition;
use super::pieces::{Piece, Role, Side};
use super::position::{Cell, Position};
use super::render::Shown;
use super::rules::Luzhanqi;
use super::rules::{Announcement, Match};
use super::ruleset::{Mode, Ruleset};
use crate::core::Told;
use crate::core::Turn as _;

/// One seat's view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LuzhanqiView))]
pub struct SeatView {
    pub player: Seat,
    /// `open`, `dark` or `flip`.
    pub mode: &'static str,
    /// The side the seat plays; absent before the first flip of a flip game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<&'static str>,
    pub to_move: Seat,
    pub your_turn: bool,
    /// The position string as this seat may see it: in a dark game every enemy piece it may
    /// not identify is `?` (so it is not a position to play from: a dark game's referee
    /// position stays with the referee).
    pub position: String,
    /// The board, rank 12 first, each rank files a→e: a piece letter, `X` face down, `?` an
    /// enemy piece not identified, `-` empty.
    pub board: Vec<String>,
    /// What stands on the mountains `bm` and `dm`, as on the board.
    pub mountains: String,
    /// Face-down pieces as a multiset (flip games, public knowledge), or `-`.
    pub covered: String,
    /// The enemy pieces that have moved or fought since the match began (so none of them is a
    /// mine or the flag, if they moved): public knowledge.
    pub enemy_touched: Vec<String>,
    /// The attacks of the match as the referee announced them.
    pub announcements: Vec<Announcement>,
    /// The seat's legal actions when it is its turn; empty otherwise.
    pub actions: Vec<String>,
}

/// Whether `seat`, playing `own`, may see the identity of `piece` on `p`.
pub(super) fn visible(rules: &Ruleset, pos: &Position, own: Option<Side>, piece: Piece) -> bool {
    if rules.mode != Mode::Dark || Some(piece.side) == own {
        return true;
    }
    piece.role == Role::Flag
        && rules.flag_reveal
        && pos.remaining(Piece::new(piece.side, Role::Marshal)) == 0
}

/// The side `seat` plays; None before a flip game's first flip.
fn seat_side(m: &Match, seat: Seat) -> Option<Side> {
    m.pos.side_of(seat).or(match m.rules.mode {
        Mode::Flip => None,
        _ => Some(if seat == Seat::FIRST {
            Side::Red
        } else {
            Side::Black
        }),
    })
}

/// The view of `m` for `seat`.
pub fn seat_view(m: &Match, seat: Seat) -> SeatView {
    let pos = &m.pos;
    let own = seat_side(m, seat);
    let masked = masked(m, own);
    let board = masked.rows();
    let mountains = masked.mountains();
    let to_move = pos.to_move();
    let your_turn = to_move == seat && pos.end(&m.rules).is_none();
    let mut actions = Vec::new();
    if your_turn {
        pos.legal_actions(&m.rules, &mut actions);
    }
    let enemy_touched = match own {
        Some(side) => (m.touched & pos.side_points(side.other()))
            .map(|p| p.to_string())
            .collect(),
        None => Vec::new(),
    };
    SeatView {
        player: seat,
        mode: m.rules.mode.code(),
        side: own.filter(|_| pos.turn().is_some()).map(Side::name),
        to_move,
        your_turn,
        position: masked.to_string(),
        board,
        mountains,
        covered: pos.pool().letters(),
        enemy_touched,
        announcements: m.announcements.clone(),
        actions: actions.iter().map(|a| a.to_string()).collect(),
    }
}

/// The position as a seat playing `own` is told it (`own` None: before a flip game's first
/// flip).
fn masked(m: &Match, own: Option<Side>) -> MaskedPosition {
    masked_position(&m.rules, &m.pos, own)
}

/// `pos` under `rules` as a seat playing `own` sees it; `own` None: what every seat sees (the
/// pieces' places and sides, and a flag once shown).
pub fn masked_position(rules: &Ruleset, pos: &Position, own: Option<Side>) -> MaskedPosition {
    let shown = |p: Point| match pos.cell(p) {
        Cell::Empty => Shown::Empty,
        Cell::Covered => Shown::Covered,
        Cell::Piece(piece) if visible(rules, pos, own, piece) => Shown::Piece(piece),
        Cell::Piece(piece) => Shown::Unknown(piece.side),
    };
    let full = pos.to_string();
    let rest = full.splitn(3, ' ').nth(2).unwrap_or_default();
    MaskedPosition::new(shown, rest.to_owned(), own.is_none())
}

/// What `seat` is told of the match's position: its masked position in a dark game.
pub fn told(m: &Match, seat: Seat) -> Told<Luzhanqi> {
    if m.rules.mode == Mode::Dark {
        Told::Masked(masked(m, seat_side(m, seat)))
    } else {
        Told::Position(m.pos.clone())
    }
}

/// Another pair of setups the dark game's `seat` cannot tell from `layout` after `m`: the
/// enemy pieces that have neither moved nor fought change places among themselves (keeping
/// every setup rule, and the shown flag where it is), when that changes nothing the seat sees.
pub fn disguise_setups<R: rand::RngExt + ?Sized>(
    layout: &Layout,
    m: &Match,
    seat: Seat,
    rng: &mut R,
) -> Layout {
    let Layout::Setups { red, black } = layout else {
        return layout.clone();
    };
    let own = if seat == Seat::FIRST {
        Side::Red
    } else {
        Side::Black
    };
    let enemy = own.other();
    let pos = &m.pos;
    let flag_shown = m.rules.flag_reveal && pos.remaining(Piece::new(enemy, Role::Marshal)) == 0;
    let quiet: Vec<Point> = (pos.side_points(enemy) & !m.touched)
        .filter(|p| !p.is_mountain())
        .filter(|p| !(flag_shown && pos.piece(*p).is_some_and(|q| q.role == Role::Flag)))
        .collect();
    let setup = if enemy == Side::Red { red } else { black };
    for _ in 0..16 {
        if quiet.len() < 2 {
            break;
        }
        let a = quiet[rng.random_range(0..quiet.len())];
        let b = quiet[rng.random_range(0..quiet.len())];
        let Some(swapped) = setup.swapped(a, b) else {
            continue;
        };
        let mut moved = m.pos;
        let (pa, pb) = (moved.take(a), moved.take(b));
        moved.put(a, pb);
        moved.put(b, pa);
        if moved.end(&m.rules) != pos.end(&m.rules) {
            continue;
        }
        return match enemy {
            Side::Red => Layout::Setups {
                red: swapped,
                black: *black,
            },
            Side::Black => Layout::Setups {
                red: *red,
                black: swapped,
            },
        };
    }
    layout.clone()
}

impl SideSetup {
    /// The setup with the pieces on `a` and `b` exchanged, if still legal and different.
    pub(crate) fn swapped(&self, a: Point, b: Point) -> Option<SideSetup> {
        let mut text: Vec<(Point, Piece)> = self.pieces().collect();
        let ia = text.iter().position(|(p, _)| *p == a)?;
        let ib = text.iter().position(|(p, _)| *p == b)?;
        if text[ia].1 == text[ib].1 {
            return None;
        }
        let (x, y) = (text[ia].1, text[ib].1);
        text[ia].1 = y;
        text[ib].1 = x;
        SideSetup::from_pieces(self.side, &text).ok()
    }
}
