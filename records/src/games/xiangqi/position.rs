//! A xiangqi position (RULES.md §9): the pieces, the side to move and the counters (read from
//! and written as position strings by `fen`).

use crate::core::{Seat, Turn};

use super::board::{Bitboard, Square};
use super::pieces::{Back, Kind, Piece, Side, Slot};

/// The start position's FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// A position: copy it freely (about 270 bytes).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(crate) board: [Slot; Square::COUNT],
    pub(crate) occupied: [Bitboard; 2],
    /// Pieces whose attacks the reverse lookup of xiangqi's kinds does not see: second
    /// identities, and soldier-born advisors and elephants (other bounds).
    pub(crate) exotic: [Bitboard; 2],
    pub(crate) generals: [Option<Square>; 2],
    pub(crate) turn: Side,
    /// Plies since the last capture.
    pub(crate) no_capture: u16,
    pub(crate) ply: u32,
    /// Per side, where its most recently moved piece went and the rule it moved by: what
    /// the other side's 骉 borrows (RULES.md §9: a 骉 always borrows its opponent's most
    /// recent move). None after that side's flip (no piece moved), at the start, or when a
    /// position string does not say it.
    pub(crate) last: [Option<(Square, Kind)>; 2],
    /// Whether each side was in check at the start of its most recent turn (a double flip
    /// needs a first check).
    pub(crate) checked: [bool; 2],
    /// A side that lost by naming the wrong advisor in a double flip.
    pub(crate) lost: Option<Side>,
    /// The pieces' part of the repetition key: the XOR of [`point_key`] over the occupied
    /// points, kept up by [`Self::put`] and [`Self::take`].
    pub(crate) pieces_key: u64,
}

/// A point's share of the repetition key: its index and everything its piece shows (kind,
/// side, back, marks), mixed (SplitMix64's finaliser).
#[inline]
pub(crate) fn point_key(s: Square, slot: Slot) -> u64 {
    let mut z = (s.index() as u64) << 16 | slot.bits() as u64;
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Position {
    pub fn start() -> Position {
        START_FEN.parse().expect("the start FEN parses")
    }

    pub(crate) fn empty(turn: Side) -> Position {
        Position {
            board: [Slot::EMPTY; Square::COUNT],
            occupied: [Bitboard::EMPTY; 2],
            exotic: [Bitboard::EMPTY; 2],
            generals: [None; 2],
            turn,
            no_capture: 0,
            ply: 0,
            last: [None; 2],
            checked: [false; 2],
            lost: None,
            pieces_key: 0,
        }
    }

    #[inline]
    pub fn piece(&self, s: Square) -> Option<Piece> {
        self.board[s.index()].get()
    }

    /// Every piece on the board, rank by rank.
    pub(crate) fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        self.board.iter().filter_map(|s| s.get())
    }

    #[inline]
    pub fn turn(&self) -> Side {
        self.turn
    }

    #[inline]
    pub fn no_capture(&self) -> u16 {
        self.no_capture
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied[0] | self.occupied[1]
    }

    #[inline]
    pub fn side_pieces(&self, side: Side) -> Bitboard {
        self.occupied[side.index()]
    }

    #[inline]
    pub fn general(&self, side: Side) -> Option<Square> {
        self.generals[side.index()]
    }

    #[inline]
    pub(crate) fn put(&mut self, s: Square, piece: Piece) {
        self.put_slot(s, Slot::of(piece));
    }

    #[inline]
    pub(crate) fn take(&mut self, s: Square) -> Option<Piece> {
        self.take_slot(s).get()
    }

    /// Puts a piece (`slot`, not empty) on the empty point `s`.
    #[inline]
    pub(crate) fn put_slot(&mut self, s: Square, slot: Slot) {
        self.put_slot_as::<true>(s, slot);
    }

    /// Empties `s`, returning what stood there.
    #[inline]
    pub(crate) fn take_slot(&mut self, s: Square) -> Slot {
        self.take_slot_as::<true>(s)
    }

    /// [`Self::put_slot`], the repetition key kept up only when `KEYED` (a move tried and
    /// taken back leaves it as it was).
    #[inline]
    pub(crate) fn put_slot_as<const KEYED: bool>(&mut self, s: Square, slot: Slot) {
        let i = slot.side().index();
        self.board[s.index()] = slot;
        self.occupied[i] = self.occupied[i].with(s);
        if slot.is_exotic() {
            self.exotic[i] = self.exotic[i].with(s);
        }
        if slot.kind() == Kind::General {
            self.generals[i] = Some(s);
        }
        if KEYED {
            self.pieces_key ^= point_key(s, slot);
        }
    }

    /// [`Self::take_slot`], the repetition key kept up only when `KEYED`.
    #[inline]
    pub(crate) fn take_slot_as<const KEYED: bool>(&mut self, s: Square) -> Slot {
        let slot = std::mem::take(&mut self.board[s.index()]);
        if slot.is_empty() {
            return slot;
        }
        let i = slot.side().index();
        self.occupied[i] = self.occupied[i].without(s);
        self.exotic[i] = self.exotic[i].without(s);
        if slot.kind() == Kind::General && self.generals[i] == Some(s) {
            self.generals[i] = None;
        }
        if KEYED {
            self.pieces_key ^= point_key(s, slot);
        }
        slot
    }

    /// [`Self::pieces_key`] computed afresh (what the kept one must equal).
    pub(crate) fn pieces_key_from_scratch(&self) -> u64 {
        self.occupied()
            .fold(0, |key, s| key ^ point_key(s, self.board[s.index()]))
    }

    /// Replaces the piece on `s` (a flip).
    pub(crate) fn set(&mut self, s: Square, piece: Piece) {
        self.take(s);
        self.put(s, piece);
    }

    /// The side that lost by a wrong double flip, if one did.
    pub fn lost(&self) -> Option<Side> {
        self.lost
    }

    /// Where the last-moved piece went and the rule it moved by (the move of the side that
    /// just played: what the side to move's 骉 borrows).
    pub fn last_move(&self) -> Option<(Square, Kind)> {
        self.last[self.turn.other().index()]
    }
}

impl Position {
    /// Whether two pieces of one side look the same (kind and marks) while their backs are
    /// unknown here: they might have changed places without the position showing it.
    pub fn has_indistinguishable_unknown_backs(&self) -> bool {
        let unknown: Vec<Piece> = self.pieces().filter(|p| p.back == Back::Unknown).collect();
        unknown
            .iter()
            .enumerate()
            .any(|(i, p)| unknown[i + 1..].contains(p))
    }

    /// This position as `own` may know it: the backs of the other side's pieces it has not
    /// seen are unknown (written `?`). What a seat is told and shown; the referee plays on
    /// from the full position.
    pub fn masked(&self, own: Side) -> Position {
        let mut pos = self.clone();
        for s in pos.occupied[own.other().index()] {
            if let Some(mut p) = pos.piece(s)
                && !p.back_public
                && matches!(p.back, Back::Known(_))
            {
                p.back = Back::Unknown;
                pos.set(s, p);
            }
        }
        pos
    }
}

impl Turn for Position {
    #[inline]
    fn to_move(&self) -> Seat {
        Position::seat_of(self.turn)
    }

    #[inline]
    fn ply(&self) -> u32 {
        self.ply
    }
}
