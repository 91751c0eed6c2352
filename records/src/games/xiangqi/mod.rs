//! Xiangqi (RULES.md §9 "Base game"): the board (90 points as 128-bit bitboards), pieces,
//! FEN, legal moves and perft: the exact base of third-generation xiangqi (番兵象棋).

pub mod board;
mod movegen;
pub mod pieces;
mod position;

pub use board::{Bitboard, Square};
pub use movegen::{Move, ParseMoveError};
pub use pieces::{Kind, Piece, Side};
pub use position::{ParseFenError, Position, START_FEN};
