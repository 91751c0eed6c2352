//! Three Kingdoms Banqi (三國暗棋, RULES.md §7): work in progress (issue 12). So far the
//! board (its points, bitboards and the moves of every piece) and the pieces (points,
//! factions under both splits); the game is not registered yet.

pub mod pieces;
pub mod points;
