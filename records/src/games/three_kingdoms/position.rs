//! A Three Kingdoms position the rules can play from (RULES.md §7): the board, the covered
//! pool, each seat's faction, captures and place, the seat to move and the counters.

use thiserror::Error;

use crate::core::pieces::{Cell, Piece, Pool};
use crate::core::{Seat, Turn};

use super::notation::Setup;
use super::pieces::{Faction, Split, points};
use super::points::{Point, Points};

/// A seat's faction field when it has none.
pub(crate) const NONE: u8 = 3;

/// Why a well-formed setup is not a position the rules can reach.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    #[error("{board} covered points on the board but {pool} pieces in the covered pool")]
    CoveredMismatch { board: u32, pool: u32 },
    #[error("too many {piece}: {count} on the board, covered and captured; a set has {max}")]
    TooMany { piece: char, count: u32, max: u8 },
    #[error("two seats claim the same faction")]
    SharedFaction,
    #[error("two seats have factions but the third has none (it gets the last one at once)")]
    ThirdUnclaimed,
    #[error("no faction is claimed, yet pieces are revealed, captured or seats placed")]
    NothingClaimed,
    #[error("{seat} captured {piece}, a piece of its own faction or while it had none")]
    OwnCapture { seat: Seat, piece: char },
    #[error(
        "{seat} has a place but is not out: its faction still has pieces (or it could claim one)"
    )]
    PlacedInPlay { seat: Seat },
    #[error(
        "{seat} plays on, but its faction has no piece left (or it has none and none is covered)"
    )]
    NotOut { seat: Seat },
    #[error("{seat} is to move but is out of the game")]
    MoverOut { seat: Seat },
    #[error("no-progress ({no_progress}) exceeds the ply count ({ply})")]
    Counters { no_progress: u32, ply: u32 },
}

/// A Three Kingdoms position. Copy it freely (about 200 bytes).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// 0 empty, 1 covered, 2 + [`Piece::index`] revealed.
    pub(crate) cells: [u8; Point::COUNT],
    pub(crate) covered: Points,
    /// Revealed pieces by faction.
    pub(crate) revealed: [Points; 3],
    pub(crate) pool: Pool,
    /// What each seat captured.
    pub(crate) captured: [Pool; 3],
    pub(crate) captured_points: [u32; 3],
    /// Each seat's faction index, [`NONE`] before it has one.
    pub(crate) factions: [u8; 3],
    /// Each seat's place once it is out (recalled or eliminated), 0 while it plays.
    pub(crate) places: [u8; 3],
    pub(crate) split: Split,
    pub(crate) turn: u8,
    pub(crate) no_progress: u32,
    pub(crate) ply: u32,
}

impl Position {
    /// The start: the 32 pieces face down on the four corner blocks, player 1 to move.
    pub fn start(split: Split) -> Position {
        let mut cells = [0; Point::COUNT];
        for p in Points::START {
            cells[p.index()] = 1;
        }
        Position {
            cells,
            covered: Points::START,
            revealed: [Points::EMPTY; 3],
            pool: Pool::FULL,
            captured: [Pool::default(); 3],
            captured_points: [0; 3],
            factions: [NONE; 3],
            places: [0; 3],
            split,
            turn: 0,
            no_progress: 0,
            ply: 0,
        }
    }

    /// Checks a setup against the rules (see [`PositionError`]).
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let split = setup.split.unwrap_or_default();
        let mut pos = Position {
            cells: [0; Point::COUNT],
            covered: Points::EMPTY,
            revealed: [Points::EMPTY; 3],
            pool: setup.pool,
            captured: setup.captured,
            captured_points: [0; 3],
            factions: setup.factions.map(|f| f.map_or(NONE, |f| f.0)),
            places: setup.places.map(|p| p.unwrap_or(0)),
            split,
            turn: setup.turn.index() as u8,
            no_progress: setup.no_progress,
            ply: setup.ply,
        };
        let mut seen = pos.pool;
        for (i, cell) in setup.board.iter().enumerate() {
            let p = Point::new(i as u8).expect("45 points");
            match cell {
                Cell::Empty => {}
                Cell::Covered => {
                    pos.cells[i] = 1;
                    pos.covered.insert(p);
                }
                Cell::Revealed(piece) => {
                    pos.cells[i] = 2 + piece.index() as u8;
                    pos.revealed[split.faction(*piece).0 as usize].insert(p);
                    seen.add(*piece);
                }
            }
        }
        if pos.covered.count() != pos.pool.total() {
            return Err(PositionError::CoveredMismatch {
                board: pos.covered.count(),
                pool: pos.pool.total(),
            });
        }
        for seat in Seat::all(3) {
            let captured = &pos.captured[seat.index()];
            pos.captured_points[seat.index()] = points_of(captured);
            for piece in Piece::all().filter(|p| captured.count(*p) > 0) {
                if pos.faction_of(seat) == Some(split.faction(piece))
                    || pos.faction_of(seat).is_none()
                {
                    return Err(PositionError::OwnCapture {
                        seat,
                        piece: piece.char(),
                    });
                }
                for _ in 0..captured.count(piece) {
                    seen.add(piece);
                }
            }
        }
        for piece in Piece::all() {
            let max = Pool::FULL.count(piece);
            if seen.count(piece) > max {
                return Err(PositionError::TooMany {
                    piece: piece.char(),
                    count: seen.count(piece) as u32,
                    max,
                });
            }
        }
        pos.check_factions()?;
        if pos.no_progress > pos.ply {
            return Err(PositionError::Counters {
                no_progress: pos.no_progress,
                ply: pos.ply,
            });
        }
        Ok(pos)
    }

    fn check_factions(&self) -> Result<(), PositionError> {
        let claimed: Vec<u8> = self
            .factions
            .iter()
            .copied()
            .filter(|f| *f != NONE)
            .collect();
        if claimed.len() >= 2 && claimed[0] == claimed[1]
            || claimed.len() == 3 && (claimed[2] == claimed[0] || claimed[2] == claimed[1])
        {
            return Err(PositionError::SharedFaction);
        }
        if claimed.len() == 2 {
            return Err(PositionError::ThirdUnclaimed);
        }
        let anything_played = self.revealed.iter().any(|r| !r.is_empty())
            || self.captured.iter().any(|c| c.total() > 0)
            || self.places.iter().any(|p| *p != 0);
        if claimed.is_empty() && anything_played {
            return Err(PositionError::NothingClaimed);
        }
        for seat in Seat::all(3) {
            match (self.place(seat), self.could_play(seat)) {
                (Some(_), true) => return Err(PositionError::PlacedInPlay { seat }),
                (None, false) => return Err(PositionError::NotOut { seat }),
                _ => {}
            }
        }
        let mover = self.to_move();
        if self.seats_in_play() >= 2 && self.place(mover).is_some() {
            return Err(PositionError::MoverOut { seat: mover });
        }
        Ok(())
    }

    /// Whether `seat` could still play: its faction has pieces, or it has none yet and a
    /// covered piece is left to claim one with.
    pub(crate) fn could_play(&self, seat: Seat) -> bool {
        match self.faction_of(seat) {
            Some(f) => self.faction_alive(f),
            None => !self.covered.is_empty(),
        }
    }

    /// What stands on `p`.
    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        match self.cells[p.index()] {
            0 => Cell::Empty,
            1 => Cell::Covered,
            c => Cell::Revealed(Piece::from_index(c as usize - 2)),
        }
    }

    pub fn split(&self) -> Split {
        self.split
    }

    /// The covered points.
    pub fn covered(&self) -> Points {
        self.covered
    }

    /// The revealed pieces of `faction`.
    pub fn revealed(&self, faction: Faction) -> Points {
        self.revealed[faction.0 as usize]
    }

    /// Every revealed piece.
    #[inline]
    pub fn revealed_all(&self) -> Points {
        self.revealed[0] | self.revealed[1] | self.revealed[2]
    }

    #[inline]
    pub fn occupied(&self) -> Points {
        self.covered | self.revealed_all()
    }

    /// The covered pieces as a multiset (public: the set minus what is seen or captured).
    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// What `seat` has captured.
    pub fn captured(&self, seat: Seat) -> &Pool {
        &self.captured[seat.index()]
    }

    /// The points of what `seat` has captured.
    pub fn captured_points(&self, seat: Seat) -> u32 {
        self.captured_points[seat.index()]
    }

    #[inline]
    pub fn faction_of(&self, seat: Seat) -> Option<Faction> {
        match self.factions[seat.index()] {
            NONE => None,
            f => Some(Faction(f)),
        }
    }

    /// The seat that claimed `faction`.
    pub fn owner(&self, faction: Faction) -> Option<Seat> {
        Seat::all(3).find(|s| self.factions[s.index()] == faction.0)
    }

    /// A seat's place once it is out of the game (recalled or eliminated).
    pub fn place(&self, seat: Seat) -> Option<u8> {
        match self.places[seat.index()] {
            0 => None,
            p => Some(p),
        }
    }

    pub fn seats_in_play(&self) -> usize {
        self.places.iter().filter(|p| **p == 0).count()
    }

    pub fn no_progress(&self) -> u32 {
        self.no_progress
    }

    /// The covered pieces of `faction` (a count anyone can work out from the pool).
    pub fn covered_of(&self, faction: Faction) -> u32 {
        Piece::all()
            .filter(|p| self.split.faction(*p) == faction)
            .map(|p| self.pool.count(p) as u32)
            .sum()
    }

    /// Whether `faction` has a piece left, revealed or covered.
    pub fn faction_alive(&self, faction: Faction) -> bool {
        !self.revealed(faction).is_empty() || self.covered_of(faction) > 0
    }

    /// The points of `faction`'s pieces that other seats captured.
    pub fn lost_points(&self, faction: Faction) -> u32 {
        let mut lost = 0;
        for captured in &self.captured {
            for piece in Piece::all().filter(|p| self.split.faction(*p) == faction) {
                lost += captured.count(piece) as u32 * points(piece.role);
            }
        }
        lost
    }

    /// A seat's points in the sense of seed 003's 計分法: its faction's starting points
    /// minus the points it lost plus the points it captured (0 for a seat without a faction).
    pub fn points_score(&self, seat: Seat) -> i64 {
        let captured = self.captured_points(seat) as i64;
        match self.faction_of(seat) {
            Some(f) => self.split.total_points(f) as i64 - self.lost_points(f) as i64 + captured,
            None => captured,
        }
    }
}

/// The points of the pieces in `pool`.
pub(crate) fn points_of(pool: &Pool) -> u32 {
    Piece::all()
        .map(|p| pool.count(p) as u32 * points(p.role))
        .sum()
}

impl Turn for Position {
    #[inline]
    fn to_move(&self) -> Seat {
        Seat::new(self.turn as usize).expect("three seats")
    }

    fn ply(&self) -> u32 {
        self.ply
    }
}
