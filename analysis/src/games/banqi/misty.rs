//! The `misty` bots: MistyBanqi's expectimax (`peers/misty`, MIT), called on what the side to
//! move sees, as the open engine Anqi's engine is measured against (docs/engine.md).
//!
//! `misty` is MistyBanqi as its author ships it: the configuration of its UCI engine's
//! `search_best` (`peers/misty/upstream/uci_main.rs`, "MistyBanqi 0.2.2"; a test reads the
//! values there), with the game's quiet plies since the last flip or capture as its
//! repetition history. `misty-735` is the configuration measured before (features 735, the
//! built-in value table, contempt 0.05, no general-safety term): weaker, kept under its own
//! name so that old figures can be reproduced.
//!
//! MistyBanqi's board is 8 files by 4 ranks where Anqi's is 4 by 8: a square's file and rank
//! swap, which keeps every adjacency and line (a cannon's jumps). It knows TCGA's rules with
//! a 40-ply no-progress clock; Anqi's TCGA preset draws at 60, so it is told the clock minus
//! the difference (its draw then falls where the game's does).

use records::core::Engine as _;
use records::games::banqi::{Action, Match, Position, Square};

use super::bots::ENGINE_NODES;

/// One configuration of MistyBanqi's search: the arguments of its `best_move`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// Its search features (bit flags).
    pub features: u32,
    /// Its piece values (general, advisor, elephant, chariot, horse, cannon, soldier); empty:
    /// its built-in table.
    pub values: &'static [f64],
    /// Its draw contempt, on its scale of −1 (lost) to 1 (won).
    pub contempt: f64,
    /// Quiescence search.
    pub quiescence: bool,
    /// Its deepest iteration.
    pub max_depth: i32,
    /// Its mobility weight.
    pub w_mob: f64,
    /// Its general-safety weight.
    pub w_king: f64,
}

/// MistyBanqi as shipped: its UCI engine's `search_best` (v0.2.2). Features 1018: table,
/// repetition, covered material, the general's worth by context, value-aware mobility,
/// adaptive domination, general safety, no draw-dodging sacrifice.
pub const SHIPPED: Config = Config {
    features: 1018,
    values: &[30.0, 14.0, 11.0, 9.0, 7.0, 16.0, 4.0],
    contempt: 0.1,
    quiescence: true,
    max_depth: 24,
    w_mob: 0.8,
    w_king: 28.0,
};

/// The configuration measured before MistyBanqi's shipped one was known (the bot `misty-735`):
/// ordering, table, reductions, repetition, covered material, value-aware mobility, adaptive
/// values, no draw-dodging sacrifice, its built-in (buggy, in its author's words) value table.
pub const FEATURES_735: Config = Config {
    features: 735,
    values: &[],
    contempt: 0.05,
    quiescence: true,
    max_depth: 64,
    w_mob: 0.8,
    w_king: 0.0,
};

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

/// The repetition keys of the game's positions since its last flip or capture, the current
/// one excluded, oldest first: what `best_move_with_moves` collects replaying the quiet plies
/// of its UCI window.
fn history(game: &Match, limit: Option<u16>) -> Vec<u64> {
    game.quiet_positions()
        .iter()
        .map(|p| {
            let (sq, bag, first, _) = encode(p, limit);
            misty_banqi::zkey_for(sq, bag, first, 0)
        })
        .collect()
}

/// MistyBanqi's choice among `actions` in `config` (None if it names none of them).
pub fn choose(
    config: &Config,
    game: &Match,
    actions: &[Action],
    millis: Option<u64>,
) -> Option<Action> {
    let limit = game.rules().no_progress;
    let (squares, bag, first_color, clock) = encode(game.position(), limit);
    let (budget, time) = match millis {
        Some(ms) => (u64::MAX, ms),
        None => (ENGINE_NODES, 0),
    };
    // `best_move` itself, given the window's keys, rather than `best_move_with_moves`,
    // which counts its clock up from the window's start: the clock it must be told is the
    // game's less 20 (above), and the window's start may be fewer than 20 plies back.
    let (from, to) = misty_banqi::best_move(
        squares,
        bag,
        first_color,
        0,
        clock,
        budget,
        config.contempt,
        config.quiescence,
        config.max_depth,
        config.w_mob,
        config.w_king,
        config.values.to_vec(),
        time,
        config.features,
        history(game, limit),
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

    /// The arguments `search_best` passes to `best_move_with_moves` in the shipped UCI engine,
    /// comments dropped, and the value of one of its constants.
    fn shipped_source() -> (Vec<String>, impl Fn(&str) -> String) {
        const SOURCE: &str = include_str!("../../../../peers/misty/upstream/uci_main.rs");
        let call = SOURCE
            .split("engine::best_move_with_moves(")
            .nth(1)
            .expect("search_best calls best_move_with_moves")
            .split(");")
            .next()
            .unwrap();
        let args = call
            .lines()
            .map(|l| l.split("//").next().unwrap().trim().trim_end_matches(','))
            .filter(|a| !a.is_empty())
            .map(str::to_string)
            .collect();
        let constant = |name: &str| {
            let line = SOURCE
                .lines()
                .find(|l| l.starts_with(&format!("const {name}:")))
                .unwrap_or_else(|| panic!("uci_main.rs defines {name}"));
            line.split('=')
                .nth(1)
                .unwrap()
                .trim()
                .trim_end_matches(';')
                .to_string()
        };
        (args, constant)
    }

    #[test]
    fn misty_is_mistybanqi_as_its_author_ships_it() {
        let (args, constant) = shipped_source();
        // best_move_with_moves(squares, bag, first_color, no_progress, window_moves,
        // node_budget, contempt, quiesce_on, max_depth, w_mob, w_king, values, time_ms,
        // features)
        assert_eq!(args.len(), 14, "{args:?}");
        assert_eq!(args[6].parse::<f64>().unwrap(), SHIPPED.contempt);
        assert_eq!(args[7].parse::<bool>().unwrap(), SHIPPED.quiescence);
        assert_eq!(args[8].parse::<i32>().unwrap(), SHIPPED.max_depth);
        assert_eq!(args[9].parse::<f64>().unwrap(), SHIPPED.w_mob);
        assert_eq!(args[10].parse::<f64>().unwrap(), SHIPPED.w_king);
        assert_eq!(args[11], "DEFAULT_VALUES.to_vec()");
        assert_eq!(args[13], "FEATURES");
        assert_eq!(
            constant("FEATURES").parse::<u32>().unwrap(),
            SHIPPED.features
        );
        let values: Vec<f64> = constant("DEFAULT_VALUES")
            .trim_matches(['[', ']'])
            .split(',')
            .map(|v| v.trim().parse().unwrap())
            .collect();
        assert_eq!(values, SHIPPED.values);
        // The old configuration is another engine, under another name.
        assert_ne!(FEATURES_735, SHIPPED);
    }

    #[test]
    fn its_repetition_history_is_the_one_its_uci_window_gives() {
        // A quiet shuffle after the last flip: red's general b1-b2-b1, black's a8-a7-a8.
        // MistyBanqi's UCI front end replays those plies from the window's start; the bot gives
        // `best_move` the same positions' keys. Same answer at a fixed budget, for every window.
        let mut m = <Match as records::core::Engine<_>>::from_position(
            Ruleset::TCGA,
            "k1X1/4/4/4/4/4/4/1KXG r p2 0 30".parse().unwrap(),
        );
        let start = m.position().clone();
        let mut moves = Vec::new();
        for ply in ["b1-b2", "a8-a7", "b2-b1", "a7-a8", "b1-b2"] {
            let action: Action = ply.parse().unwrap();
            let Action::Move(path) = &action else {
                unreachable!()
            };
            moves.push((square(path.from) as u8, square(path.last().to()) as u8));
            m.play(&action).unwrap();
            let mut actions = Vec::new();
            m.legal_actions(&mut actions);
            let ours = choose(&SHIPPED, &m, &actions, None).unwrap();
            let (sq, bag, first, _) = encode(&start, None);
            let (from, to) = misty_banqi::best_move_with_moves(
                sq,
                bag,
                first,
                0,
                moves.clone(),
                ENGINE_NODES,
                SHIPPED.contempt,
                SHIPPED.quiescence,
                SHIPPED.max_depth,
                SHIPPED.w_mob,
                SHIPPED.w_king,
                SHIPPED.values.to_vec(),
                0,
                SHIPPED.features,
            );
            let theirs = actions
                .iter()
                .find(|a| match a {
                    Action::Flip { square: s, .. } => from == to && square(*s) as u8 == from,
                    Action::Move(p) => {
                        square(p.from) as u8 == from && square(p.last().to()) as u8 == to
                    }
                })
                .unwrap();
            assert_eq!(ours, *theirs, "after {ply}");
        }
    }

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
        let chosen = choose(&SHIPPED, &m, &actions, None).expect("a legal action");
        assert_eq!(chosen.to_string(), "a1-a2", "the soldier takes the general");
    }
}
