//! MistyBanqi's engine (<https://github.com/brianhliou/misty-banqi>, MIT), as its upstream
//! file `banqi_rust/src/engine.rs`, unmodified, in `engine.rs` (SOURCE.md says which commit).
//! Anqi's own code never calls it: only the `misty` bot of `anqi simulate`, which measures
//! Anqi's engine against it (docs/engine.md).

#[allow(clippy::all, dead_code, unused)]
#[rustfmt::skip] // upstream's file stays byte for byte as it is (SOURCE.md gives its sha256)
mod engine;

pub use engine::{best_move, best_move_with_moves, zkey_for};
