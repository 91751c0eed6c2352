//! The `misty` bot: MistyBanqi's expectimax (`peers/misty`, MIT), called on what the side to
//! move sees, as the open engine Anqi's engine is measured against (docs/engine.md).
//!
//! MistyBanqi's board is 8 files by 4 ranks where Anqi's is 4 by 8: a square's file and rank
//! swap, which keeps every adjacency and line (a cannon's jumps). It knows TCGA's rules with
//! a 40-ply no-progress clock; Anqi's TCGA preset draws at 60, so it is told the clock minus
//! the difference (its draw then falls where the game's does). It gets the game's positions
//! since the last flip or capture, as its own UCI front end gives them, so that it sees
//! repetitions coming.

use records::core::Engine as _;
use records::games::banqi::{Action, Match, Position, Square};

use super::bots::ENGINE_NODES;

/// MistyBanqi's search features (its bit flags): move ordering, transposition table,
/// late-move reductions, repetition, covered material, value-aware mobility, adaptive piece
/// values and no draw-dodging sacrifice: of the configurations tried against Anqi's engine
/// (docs/engine.md), the strongest.
pub const FEATURES: u32 = 1 | 2 | 4 | 8 | 16 | 64 | 128 | 512;
/// Its draw contempt, on its scale of −1 (lost) to 1 (won).
pub const CONTEMPT: f64 = 0.05;
/// Its mobility weight (its default).
const W_MOB: f64 = 0.8;
/// Its clock: the no-progress draw it knows.
const ITS_NO_PROGRESS: u32 = 40;

/// MistyBanqi's square for one of Anqi's.
fn square(s: Square) -> usize {
    let (file, rank) = (s.index() % 4, s.index() / 4);
    file * 8 + rank
}

/// Anqi's square for one of MistyBanqi's.
fn from_square(m: u8) -> Square {
    let (file, rank) = (m as usize / 8, m as usize % 8);
    Square::new((rank * 4 + file) as u8).expect("MistyBanqi answers a board square")
}

/// A position in MistyBanqi's encoding: squares, covered pool, the colour to move (as the
/// first colour at ply 0), the no-progress clock on its scale.
fn encode(pos: &Position, limit: Option<u16>) -> (Vec<i16>, Vec<u32>, i16, u32) {
    let mut squares = vec![-1i16; 32];
    for s in Square::all() {
        squares[square(s)] = if pos.covered().contains(s) {
            -2
        } else if let Some(p) = pos.piece_at(s) {
            p.index() as i16
        } else {
            -1
        };
    }
    let bag = pos.pool().counts().iter().map(|&n| n as u32).collect();
    let first_color = pos.turn().map_or(-1, |c| c.index() as i16);
    let clock = match limit {
        Some(n) => (pos.no_progress() + ITS_NO_PROGRESS).saturating_sub(n as u32),
        None => 0,
    };
    (squares, bag, first_color, clock)
}

/// MistyBanqi's choice among `actions` (None if it names none of them).
pub fn choose(game: &Match, actions: &[Action], millis: Option<u64>) -> Option<Action> {
    let limit = game.rules().no_progress;
    let (squares, bag, first_color, clock) = encode(game.position(), limit);
    let history = game
        .quiet_positions()
        .iter()
        .map(|p| {
            let (sq, bag, first, _) = encode(p, limit);
            misty_banqi::zkey_for(sq, bag, first, 0)
        })
        .collect();
    let (budget, time) = match millis {
        Some(ms) => (u64::MAX, ms),
        None => (ENGINE_NODES, 0),
    };
    let (from, to) = misty_banqi::best_move(
        squares,
        bag,
        first_color,
        0,
        clock,
        budget,
        CONTEMPT,
        true,
        64,
        W_MOB,
        0.0,
        Vec::new(),
        time,
        FEATURES,
        history,
    );
    if from == 255 {
        return None;
    }
    let (from, to) = (from_square(from), from_square(to));
    actions.iter().copied().find(|a| match a {
        Action::Flip { square, .. } => from == to && *square == from,
        Action::Move(path) => path.from == from && path.last().to() == to,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use records::games::banqi::Ruleset;

    #[test]
    fn squares_swap_file_and_rank_and_back() {
        for s in Square::all() {
            assert_eq!(from_square(square(s) as u8), s);
        }
        // a1 is MistyBanqi's first square; a2, the next rank, is its next file; b1 its next rank.
        let at = |t: &str| square(t.parse().unwrap());
        assert_eq!((at("a1"), at("a2"), at("b1"), at("d8")), (0, 1, 8, 31));
    }

    #[test]
    fn its_position_is_what_the_side_to_move_sees() {
        let pos: Position = "4/4/4/4/4/4/X3/K2p r k1 12 20".parse().unwrap();
        let (squares, bag, first, clock) = encode(&pos, Some(60));
        assert_eq!(squares[0], 0, "red's general (code 0) on a1");
        assert_eq!(squares[1], -2, "a2 covered");
        assert_eq!(squares[24], 13, "black's soldier (code 13) on d1");
        assert_eq!(bag[7], 1, "black's general in the pool");
        assert_eq!(first, 0, "red to move");
        // Its 40-ply clock 20 plies short of the game's 60: 12 + 40 - 60, never below 0.
        assert_eq!(clock, 0);
        let (_, _, _, later) = encode(&"4/4/4/4/4/4/X3/K2p r k1 30 40".parse().unwrap(), Some(60));
        assert_eq!(later, 10);
    }

    #[test]
    fn it_answers_one_of_the_legal_actions() {
        let m = <Match as records::core::Engine<_>>::from_position(
            Ruleset::TCGA,
            "4/4/4/4/4/p3/k3/P2K r - 0 10".parse().unwrap(),
        );
        let mut actions = Vec::new();
        m.legal_actions(&mut actions);
        let chosen = choose(&m, &actions, None).expect("a legal action");
        assert_eq!(chosen.to_string(), "a1-a2", "the soldier takes the general");
    }
}
