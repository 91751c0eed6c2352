//! Random playouts: uniform over all legal actions, flips included, with the revealed pieces
//! taken from a dealt layout. Used by the benchmark, the property tests and the simulator.

use rand::RngExt;

use crate::core::End;

use super::action::Action;
use super::layout::Layout;
use super::matches::Match;
use super::movegen::SingleHopActions;
use super::ruleset::Ruleset;
use crate::core::{Engine as _, Turn as _};

/// Fills every identity an action leaves open (a flip, a dark capture) from the layout.
#[inline]
pub fn reveal_from_layout(m: &Match, layout: &Layout, action: &mut Action) {
    match action {
        Action::Flip { square, reveal } => *reveal = Some(layout.piece(*square)),
        Action::Move(path) => {
            let covered = m.position().covered();
            for hop in path.hops_mut() {
                if covered.contains(hop.to()) {
                    hop.set_reveal(Some(layout.piece(hop.to())));
                }
            }
        }
    }
}

/// Plays a uniformly random game on `layout` until the rules end it or `max_plies` pass
/// (then `None`). `buffer` is reused for the legal action lists, so a warmed-up buffer
/// makes the playout allocation-free; `on_ply` sees every action played.
pub fn random_playout<R: RngExt + ?Sized>(
    rules: &Ruleset,
    layout: &Layout,
    rng: &mut R,
    max_plies: u32,
    buffer: &mut Vec<Action>,
    mut on_ply: impl FnMut(&Match, &Action),
) -> (Match, Option<End>) {
    let mut game = Match::new(*rules);
    loop {
        // Without chains or a biting long-chase rule every action is one hop or a flip:
        // count them and pick one without listing them.
        let mut action = if !rules.allows_chain() && !game.long_chase_may_bite() {
            let actions = SingleHopActions::new(game.position(), rules);
            if let Some(end) = game.end_given(actions.count > 0) {
                return (game, Some(end));
            }
            if game.position().ply() >= max_plies {
                return (game, None);
            }
            actions.nth(rng.random_range(0..actions.count))
        } else {
            game.legal_actions(buffer);
            if let Some(end) = game.end_given(!buffer.is_empty()) {
                return (game, Some(end));
            }
            if game.position().ply() >= max_plies {
                return (game, None);
            }
            buffer[rng.random_range(0..buffer.len())]
        };
        reveal_from_layout(&game, layout, &mut action);
        on_ply(&game, &action);
        game.play_generated(&action)
            .expect("a generated action with its revealed pieces is legal");
    }
}
