//! Helpers of the Banqi rule tests: rulesets, positions and actions from text.
#![allow(dead_code)]

use records::core::Engine as _;
use records::core::Violation;
use records::games::banqi::{Action, Effect, Match, Overrides, Position, Ruleset, legal_actions};

pub fn rules(preset: &str, overrides: &str) -> Ruleset {
    let o: Overrides = serde_json::from_str(overrides).unwrap();
    Ruleset::from_preset(preset, &o).unwrap()
}

pub fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The legal actions from `from`, as sorted notation.
pub fn moves_from(position: &str, rules: &Ruleset, from: &str) -> Vec<String> {
    let mut out = Vec::new();
    legal_actions(&pos(position), rules, &mut out);
    let mut v: Vec<String> = out
        .iter()
        .map(|a| a.to_string())
        .filter(|a| a.starts_with(from) && a.len() > 2 && a.as_bytes()[2] == b'-')
        .collect();
    v.sort();
    v
}

pub fn play(position: &str, rules: &Ruleset, action: &str) -> Result<(String, Effect), Violation> {
    let a: Action = action.parse().unwrap();
    pos(position)
        .play(rules, &a)
        .map(|(p, e)| (p.to_string(), e))
        .map_err(|e| e.reason)
}

/// Plays every action of a space-separated list, checking that the game goes on before each.
pub fn play_all(game: &mut Match, actions: &str) {
    for a in actions.split_whitespace() {
        assert_eq!(game.end(), None, "game ended before {a}");
        game.play(&a.parse().unwrap())
            .unwrap_or_else(|e| panic!("{a}: {e}"));
    }
}
