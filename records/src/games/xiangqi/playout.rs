//! Random playouts: the benchmark of the rules, and a quick source of games.

use super::action::Action;
use super::layout::Backs;
use super::rules::Match;
use super::ruleset::Ruleset;

/// Plays uniformly random legal actions from the start `backs` set up (or plain xiangqi's
/// start) until the game ends or `max_plies` are played; calls `on_ply` after each. The
/// `buffer` is reused.
pub fn random_playout<R: rand::RngExt + ?Sized>(
    rules: &Ruleset,
    backs: Option<&Backs>,
    rng: &mut R,
    max_plies: u32,
    buffer: &mut Vec<Action>,
    mut on_ply: impl FnMut(&Match, &Action),
) -> Match {
    let start = match backs {
        Some(b) if rules.backs => b.start(),
        _ => super::position::Position::start(),
    };
    let mut m = Match::new(*rules, start);
    while m.pos.ply() < max_plies && m.end().is_none() {
        m.pos.legal_actions(buffer);
        let pick = buffer[rng.random_range(0..buffer.len())];
        let action = m.pos.fill(pick).expect("the backs fill their own flips");
        m.play(&action).expect("a generated action is legal");
        on_ply(&m, &action);
    }
    m
}
