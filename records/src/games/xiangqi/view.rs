//! What one seat may see of a third-generation xiangqi game (RULES.md §9): every piece's face,
//! its own pieces' backs, and of the opponent's backs only those a wrong soldier flip showed.
//! Captured pieces' backs are never shown.

use serde::Serialize;

use crate::core::Seat;

use super::board::{FILES, RANKS, Square};
use super::layout::{Backs, SideBacks};
use super::pieces::{Back, Side};
use super::position::Position;
use super::rules::Match;
use crate::core::Engine as _;

/// One seat's view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = XiangqiView))]
pub struct SeatView {
    pub player: Seat,
    /// `red` (player 1) or `black`.
    pub side: &'static str,
    pub to_move: Seat,
    pub your_turn: bool,
    pub in_check: bool,
    /// The position string with the opponent's backs `?` unless shown (a position the seat
    /// may play from with its own backs).
    pub position: String,
    /// The board, rank 9 first, files a→i: piece letters, `-` empty.
    pub board: Vec<String>,
    /// The backs the seat knows, rank 9 first: its own pieces', the opponent's shown ones, `?`
    /// for the other opponent backs, `-` where no piece has a back.
    pub backs: Vec<String>,
    /// The seat's legal actions when it is its turn (flips without what they reveal).
    pub actions: Vec<String>,
}

fn side_of(seat: Seat) -> Side {
    if seat == Seat::FIRST {
        Side::Red
    } else {
        Side::Black
    }
}

/// The position string as `seat` may see it.
pub fn masked(pos: &Position, seat: Seat) -> Position {
    pos.masked(side_of(seat))
}

pub fn seat_view(m: &Match, seat: Seat) -> SeatView {
    let pos = &m.pos;
    let own = side_of(seat);
    let to_move = Position::seat_of(pos.turn());
    let your_turn = to_move == seat && m.end().is_none();
    let mut actions = Vec::new();
    if your_turn {
        pos.legal_actions(&mut actions);
    }
    let rows = |f: &dyn Fn(Square) -> char| -> Vec<String> {
        (0..RANKS)
            .rev()
            .map(|r| {
                (0..FILES)
                    .map(|c| f(Square::from_coords(c as i8, r as i8).expect("on the board")))
                    .collect()
            })
            .collect()
    };
    let board = rows(&|s| pos.piece(s).map_or('-', |p| p.char()));
    let backs = rows(&|s| match pos.piece(s) {
        None => '-',
        Some(p) => match p.back {
            Back::None => '-',
            Back::Known(k) if p.side == own || p.back_public => {
                super::pieces::side_case(k.letter(), p.side)
            }
            _ => '?',
        },
    });
    SeatView {
        player: seat,
        side: own.name(),
        to_move,
        your_turn,
        in_check: pos.in_check(own),
        position: masked(pos, seat).to_string(),
        board,
        backs,
        actions: actions.iter().map(|a| a.to_string()).collect(),
    }
}

/// Other backs `seat` cannot tell from `backs` after `m`: each group of the opponent's backs
/// that no flip has shown is dealt again at random (the pairs' order, the soldiers'
/// permutation), when that changes nothing the seat sees.
pub fn disguise<R: rand::RngExt + ?Sized>(
    backs: &Backs,
    m: &Match,
    seat: Seat,
    rng: &mut R,
) -> Backs {
    let enemy = side_of(seat).other();
    let fresh = SideBacks::random(enemy, rng);
    let shown = m.shown[enemy.index()];
    let old = match enemy {
        Side::Red => backs.red,
        Side::Black => backs.black,
    };
    let mixed = old.mix(&fresh, shown);

    match enemy {
        Side::Red => Backs {
            red: mixed,
            black: backs.black,
        },
        Side::Black => Backs {
            red: backs.red,
            black: mixed,
        },
    }
}
