//! A random game of any game, for the tests that need real inputs of every game (the parsers'
//! mutation tests, the fuzz targets' seeds).

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use records::core::rules::parts::*;

/// One game of `G` under its preset number `preset` (modulo the presets), dealt and played at
/// random from `seed` for at most `plies` plies.
pub struct RandomGame {
    /// The start, then the position after each ply.
    pub positions: Vec<String>,
    /// The actions as written, every revealed identity in them.
    pub actions: Vec<String>,
    /// The hidden truth as a record's `layout` holds it (JSON text).
    pub hidden: String,
}

pub fn random_game<G: Rules>(preset: usize, seed: u64, plies: usize) -> RandomGame {
    let preset = &G::PRESETS[preset % G::PRESETS.len()];
    let mut rng = StdRng::seed_from_u64(seed);
    let hidden = G::deal(&preset.ruleset, &mut rng);
    let mut m = G::Match::from_position(
        preset.ruleset,
        G::start(&preset.ruleset, Some(&hidden)).unwrap(),
    );
    let (mut positions, mut actions) = (vec![m.position().to_string()], Vec::new());
    let mut legal = Vec::new();
    for _ in 0..plies {
        if m.end().is_some() {
            break;
        }
        m.legal_actions(&mut legal);
        let pick = legal[rng.random_range(0..legal.len())].clone();
        let action = G::reveal(pick, m.position(), Some(&hidden)).unwrap();
        m.play(&action).unwrap();
        actions.push(action.to_string());
        positions.push(m.position().to_string());
    }
    RandomGame {
        positions,
        actions,
        hidden: G::hidden_value(&hidden).to_string(),
    }
}
