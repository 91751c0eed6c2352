//! Random playouts: the benchmark of the move generator, and a quick source of games.

use super::layout::Layout;
use super::position::Position;
use super::ruleset::Ruleset;

/// Plays uniformly random legal actions from the start, flips revealed from `layout`, until
/// the game ends or `max_plies` are played; calls `on_ply` with each action as played. The
/// `buffer` is reused: no allocation per ply.
pub fn random_playout<R: rand::RngExt + ?Sized>(
    rules: &Ruleset,
    layout: &Layout,
    rng: &mut R,
    max_plies: u32,
    buffer: &mut Vec<super::notation::Action>,
    mut on_ply: impl FnMut(&Position, &super::notation::Action),
) -> Position {
    let mut pos = Position::start(rules.split);
    while pos.ply() < max_plies && pos.end(rules).is_none() {
        pos.legal_actions(rules, buffer);
        let pick = buffer[rng.random_range(0..buffer.len())];
        let action = layout.fill(pick).expect("a layout fills its own flips");
        pos.play(rules, &action)
            .expect("a generated action is legal");
        on_ply(&pos, &action);
    }
    pos
}
