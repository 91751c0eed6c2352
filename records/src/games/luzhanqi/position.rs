//! A Luzhanqi position the rules can play from (RULES.md §8): the board (the mountains
//! included), the face-down pool of a flip game, where each flag lies when it shares a point,
//! the side to move and the counters.
//!
//! In open and dark games the position holds every identity: it is the referee's. What a side
//! may see of it is its [`crate::games::luzhanqi::view`].

use thiserror::Error;

use crate::core::Turn as _;

use super::board::{BOARD, CAMPS, HQS, Point, Points};
use super::notation::Setup;
use super::pieces::{Piece, Pool, Role, Side};

/// What stands on a point.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    Empty,
    /// A face-down piece (flip mode).
    Covered,
    Piece(Piece),
}

/// Where a flag is when it shares its point with another piece (flip mode); a flag alone on
/// its point is simply the piece there.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FlagState {
    /// On its own point, or (open and dark games) wherever the board shows it.
    Alone,
    /// Carried by the enemy piece on this point.
    Carried(Point),
    /// Lying on this point under a piece that does not carry it.
    Under(Point),
}

/// Why a well-formed setup is not a position the rules can reach.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    #[error("too many {piece}: {count} on the board and face down; a side has {max}")]
    TooMany { piece: char, count: u32, max: u8 },
    #[error("{board} face-down points on the board but {pool} pieces in the face-down pool")]
    CoveredMismatch { board: u32, pool: u32 },
    #[error(
        "a face-down piece on {0}: face-down pieces never move, and no camp holds one at the start"
    )]
    CoveredInCamp(Point),
    #[error("{0} on a mountain: mines, flags and face-down pieces never go there")]
    ImmovableOnMountain(Point),
    #[error("pieces are face up but no side is to move (the first flip decides the colours)")]
    NoSide,
    #[error("the flag {flag} is said to share {point}, which holds {found}")]
    FlagPlace {
        flag: char,
        point: Point,
        found: String,
    },
    #[error("no-progress ({no_progress}) exceeds the ply count ({ply})")]
    Counters { no_progress: u32, ply: u32 },
    #[error("{0}'s flag is gone but the game goes on past its capture")]
    FlagGone(&'static str),
}

/// A Luzhanqi position. Copy it freely (about 150 bytes).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(crate) cells: [Cell; Point::COUNT],
    /// Face-up pieces of each side (in open and dark games, every piece).
    pub(crate) sides: [Points; 2],
    pub(crate) covered: Points,
    /// The face-down pieces (flip mode).
    pub(crate) pool: Pool,
    /// Face-up pieces on the board, counted (so that "all mines gone" and "the 司令 died"
    /// need no scan).
    pub(crate) alive: Pool,
    pub(crate) flags: [FlagState; 2],
    /// The side to move; none before the first flip of a flip game.
    pub(crate) turn: Option<Side>,
    pub(crate) no_progress: u16,
    pub(crate) ply: u32,
}

impl Position {
    /// A flip game's start: 50 pieces face down on every point but the camps.
    pub fn flip_start() -> Position {
        let mut pos = Position::empty();
        for p in (BOARD & !CAMPS).into_iter() {
            pos.cells[p.index()] = Cell::Covered;
        }
        pos.covered = BOARD & !CAMPS;
        pos.pool = Pool::full();
        pos
    }

    /// The start of an open or dark game from both sides' setups (checked by [`Setup`]).
    pub fn from_setups(
        red: &super::layout::SideSetup,
        black: &super::layout::SideSetup,
    ) -> Position {
        let mut pos = Position::empty();
        for (point, piece) in red.pieces().chain(black.pieces()) {
            pos.put(point, piece);
        }
        pos.turn = Some(Side::Red);
        pos
    }

    pub(crate) fn empty() -> Position {
        Position {
            cells: [Cell::Empty; Point::COUNT],
            sides: [Points::EMPTY; 2],
            covered: Points::EMPTY,
            pool: Pool::default(),
            alive: Pool::default(),
            flags: [FlagState::Alone; 2],
            turn: None,
            no_progress: 0,
            ply: 0,
        }
    }

    /// Puts a face-up piece on an empty point.
    #[inline]
    pub(crate) fn put(&mut self, p: Point, piece: Piece) {
        self.cells[p.index()] = Cell::Piece(piece);
        self.sides[piece.side.index()] = self.sides[piece.side.index()].with(p);
        self.alive.add(piece);
    }

    /// Removes the face-up piece on `p`.
    #[inline]
    pub(crate) fn take(&mut self, p: Point) -> Piece {
        let Cell::Piece(piece) = self.cells[p.index()] else {
            unreachable!("a face-up piece on {p}");
        };
        self.cells[p.index()] = Cell::Empty;
        self.sides[piece.side.index()] = self.sides[piece.side.index()].without(p);
        self.alive.remove(piece);
        piece
    }

    /// Turns the face-down piece on `p` up as `piece`.
    #[inline]
    pub(crate) fn uncover(&mut self, p: Point, piece: Piece) {
        self.covered = self.covered.without(p);
        self.pool.remove(piece);
        self.cells[p.index()] = Cell::Empty;
        self.put(p, piece);
    }

    /// A checked position from a parsed setup.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut pos = Position::empty();
        for (i, cell) in setup.cells.iter().enumerate() {
            let p = Point::new(i as u8).expect("62 cells");
            match *cell {
                Cell::Empty => {}
                Cell::Covered => {
                    if p.is_mountain() || CAMPS.contains(p) {
                        return Err(if p.is_mountain() {
                            PositionError::ImmovableOnMountain(p)
                        } else {
                            PositionError::CoveredInCamp(p)
                        });
                    }
                    pos.cells[i] = Cell::Covered;
                    pos.covered = pos.covered.with(p);
                }
                Cell::Piece(piece) => {
                    if p.is_mountain() && !piece.role.movable() {
                        return Err(PositionError::ImmovableOnMountain(p));
                    }
                    pos.put(p, piece);
                }
            }
        }
        pos.pool = setup.pool;
        if pos.covered.count() != pos.pool.total() {
            return Err(PositionError::CoveredMismatch {
                board: pos.covered.count(),
                pool: pos.pool.total(),
            });
        }
        for piece in Piece::all() {
            let count = pos.alive.count(piece) as u32 + pos.pool.count(piece) as u32;
            if count > piece.role.count() as u32 {
                return Err(PositionError::TooMany {
                    piece: piece.char(),
                    count,
                    max: piece.role.count(),
                });
            }
        }
        pos.turn = setup.turn;
        if pos.turn.is_none() && !(pos.sides[0] | pos.sides[1]).is_empty() {
            return Err(PositionError::NoSide);
        }
        for side in Side::ALL {
            let flag = Piece::new(side, Role::Flag);
            match setup.flags[side.index()] {
                FlagState::Alone => {}
                FlagState::Carried(p) | FlagState::Under(p) => {
                    let carried = matches!(setup.flags[side.index()], FlagState::Carried(_));
                    let ok = match pos.cells[p.index()] {
                        Cell::Piece(q) => q.role != Role::Flag && (!carried || q.side != side),
                        _ => false,
                    };
                    if !ok || pos.alive.count(flag) + pos.pool.count(flag) != 0 {
                        return Err(PositionError::FlagPlace {
                            flag: flag.char(),
                            point: p,
                            found: match pos.cells[p.index()] {
                                Cell::Empty => "nothing".into(),
                                Cell::Covered => "a face-down piece".into(),
                                Cell::Piece(q) => q.char().to_string(),
                            },
                        });
                    }
                }
            }
            pos.flags[side.index()] = setup.flags[side.index()];
        }
        if setup.no_progress as u32 > setup.ply {
            return Err(PositionError::Counters {
                no_progress: setup.no_progress as u32,
                ply: setup.ply,
            });
        }
        pos.no_progress = setup.no_progress;
        pos.ply = setup.ply;
        Ok(pos)
    }

    /// The position as written (see [`Setup`]).
    pub fn to_setup(&self) -> Setup {
        Setup {
            cells: self.cells,
            turn: self.turn,
            pool: self.pool,
            flags: self.flags,
            no_progress: self.no_progress,
            ply: self.ply,
        }
    }

    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        self.cells[p.index()]
    }

    /// The face-up piece on `p`, if any.
    #[inline]
    pub fn piece(&self, p: Point) -> Option<Piece> {
        match self.cells[p.index()] {
            Cell::Piece(piece) => Some(piece),
            _ => None,
        }
    }

    /// The side to move (none before the first flip of a flip game).
    #[inline]
    pub fn turn(&self) -> Option<Side> {
        self.turn
    }

    /// The side `seat` plays, once known (player 1 is red in open and dark games; in a flip
    /// game the first flip decides).
    pub fn side_of(&self, seat: crate::core::Seat) -> Option<Side> {
        let turn = self.turn?;
        Some(if seat == self.to_move() {
            turn
        } else {
            turn.other()
        })
    }

    #[inline]
    pub fn no_progress(&self) -> u16 {
        self.no_progress
    }

    /// Face-up pieces of `side`.
    #[inline]
    pub fn side_points(&self, side: Side) -> Points {
        self.sides[side.index()]
    }

    /// Face-down points.
    #[inline]
    pub fn covered(&self) -> Points {
        self.covered
    }

    /// The face-down pieces as a multiset.
    #[inline]
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Every occupied point.
    #[inline]
    pub fn occupied(&self) -> Points {
        self.sides[0] | self.sides[1] | self.covered
    }

    /// How many `piece`s are still in the game, face up or down.
    #[inline]
    pub fn remaining(&self, piece: Piece) -> u8 {
        self.alive.count(piece) + self.pool.count(piece)
    }

    /// Where `side`'s flag shares a point, if it does.
    #[inline]
    pub fn flag_state(&self, side: Side) -> FlagState {
        self.flags[side.index()]
    }

    /// The point of `side`'s flag: alone, carried or lying under a piece; none when it is
    /// face down or gone.
    pub fn flag_point(&self, side: Side) -> Option<Point> {
        match self.flags[side.index()] {
            FlagState::Carried(p) | FlagState::Under(p) => Some(p),
            FlagState::Alone => {
                let flag = Piece::new(side, Role::Flag);
                (self.sides[side.index()] & super::board::BOARD)
                    .find(|&p| self.cells[p.index()] == Cell::Piece(flag))
            }
        }
    }

    /// The headquarters of `side`.
    pub fn headquarters(side: Side) -> Points {
        HQS & super::board::half(side == Side::Red)
    }
}

impl crate::core::Turn for Position {
    /// The seat to move: seats alternate, player 1 first.
    #[inline]
    fn to_move(&self) -> crate::core::Seat {
        crate::core::Seat::at_ply(self.ply, 2)
    }

    #[inline]
    fn ply(&self) -> u32 {
        self.ply
    }
}
