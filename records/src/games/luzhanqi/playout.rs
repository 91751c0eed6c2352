//! Random playouts: the benchmark of the move generator, and a quick source of games.

use super::layout::Layout;
use super::notation::Action;
use super::position::Position;
use super::ruleset::{Mode, Ruleset};

/// Plays uniformly random legal actions from the start `layout` sets up (flips and attacks on
/// face-down pieces revealed from it) until the game ends or `max_plies` are played; calls
/// `on_ply` after each. The `buffer` is reused: no allocation per ply.
pub fn random_playout<R: rand::RngExt + ?Sized>(
    rules: &Ruleset,
    layout: &Layout,
    rng: &mut R,
    max_plies: u32,
    buffer: &mut Vec<Action>,
    mut on_ply: impl FnMut(&Position, &Action),
) -> Position {
    let mut pos = match rules.mode {
        Mode::Flip => Position::flip_start(),
        _ => layout.start().expect("setups for an open or dark game"),
    };
    while pos.ply() < max_plies && pos.end(rules).is_none() {
        pos.legal_actions(rules, buffer);
        let pick = buffer[rng.random_range(0..buffer.len())];
        let action = layout
            .fill(pick, &pos)
            .expect("a layout fills its own flips");
        pos.play(rules, &action)
            .expect("a generated action is legal");
        on_ply(&pos, &action);
    }
    pos
}
