//! The fuzz targets' bodies: each takes arbitrary bytes and checks what must hold for any
//! input. The coverage-guided fuzzers (`fuzz/`, libFuzzer) call them; so does the regression
//! test (`records/tests/fuzz_regressions.rs`), on the seed corpora and on every input a fuzzer
//! ever crashed on (`fuzz/regressions/`). A panic, or a failed assertion, is a finding.

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::core::Engine as _;
use crate::core::{Record, Rules};
use crate::formats::{Format, parse_records};
use crate::games::GameKind;
use crate::with_game;

/// The game a fuzz input is about: its first byte.
fn game_of(data: &[u8]) -> (GameKind, &[u8]) {
    match data.split_first() {
        Some((&first, rest)) => (GameKind::ALL[first as usize % GameKind::ALL.len()], rest),
        None => (GameKind::ALL[0], data),
    }
}

/// Notation: a position string, an action or a hidden truth of the game the first byte picks
/// (the second picks which). What parses prints itself back to the same value; a position that
/// fits a preset gives legal actions, each of which plays.
pub fn notation(data: &[u8]) {
    let (kind, rest) = game_of(data);
    let Some((&which, text)) = rest.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    with_game!(kind, G => notation_of::<G>(which, text));
}

fn notation_of<G: Rules>(which: u8, text: &str) {
    match which % 3 {
        0 => {
            let Ok(pos) = G::parse_position(text) else {
                return;
            };
            let again = G::parse_position(&pos.to_string());
            assert_eq!(again.as_ref().ok(), Some(&pos), "{}: {text:?}", G::NAME);
            for preset in G::PRESETS {
                if G::position_fits(&preset.ruleset, &pos).is_err() {
                    continue;
                }
                let m = G::Match::from_position(preset.ruleset, pos.clone());
                if m.end().is_some() {
                    continue;
                }
                let mut legal = Vec::new();
                m.legal_actions(&mut legal);
                for action in legal {
                    // A flip's identity is not in the position: any fitting piece will do,
                    // and a position whose pool has none is not the engine's to play.
                    let Ok(action) = G::reveal(action, m.position(), None) else {
                        continue;
                    };
                    let mut next = m.clone();
                    let _ = next.play(&action);
                }
            }
        }
        1 => {
            if let Ok(action) = G::parse_action(text) {
                let again = G::parse_action(&action.to_string());
                assert_eq!(again.ok(), Some(action), "{}: {text:?}", G::NAME);
            }
        }
        _ => {
            let Ok(value) = serde_json::from_str(text) else {
                return;
            };
            if let Ok(hidden) = G::parse_hidden(&value) {
                let again = G::parse_hidden(&G::hidden_value(&hidden));
                assert_eq!(again.ok(), Some(hidden), "{}", G::NAME);
            }
        }
    }
}

/// Record files: the bytes as JSON, JSON Lines and TCGA text; every record read replays to a
/// verdict (never a panic), and a valid one replays again to the same verdict.
pub fn records(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for format in [Format::Json, Format::JsonLines, Format::text()] {
        for record in parse_records(text, format).into_iter().flatten() {
            let verdict = crate::games::validate(&record);
            let again = crate::games::validate(&record);
            assert_eq!(verdict, again, "replay is deterministic");
        }
    }
}

/// Replay: a game the bytes play. The first byte picks the game, the next the preset, eight
/// more seed the deal; then each byte picks one of the legal actions. Every action played is
/// written, read back and replayed: the record of a game the engine played is valid, and ends
/// as the engine's game ended.
pub fn replay(data: &[u8]) {
    let (kind, rest) = game_of(data);
    with_game!(kind, G => replay_of::<G>(rest));
}

fn replay_of<G: Rules>(data: &[u8]) {
    let Some((&preset, rest)) = data.split_first() else {
        return;
    };
    let preset = &G::PRESETS[preset as usize % G::PRESETS.len()];
    let (seed, choices) = rest.split_at(rest.len().min(8));
    let mut seed_bytes = [0u8; 8];
    seed_bytes[..seed.len()].copy_from_slice(seed);
    let mut rng = StdRng::seed_from_u64(u64::from_le_bytes(seed_bytes));
    let hidden = G::deal(&preset.ruleset, &mut rng);
    let start = G::start(&preset.ruleset, Some(&hidden)).expect("a dealt game starts");
    let mut m = G::Match::from_position(preset.ruleset, start);
    let mut record = Record::new(G::NAME, preset.name, Vec::new());
    if G::visibility(&preset.ruleset).has_hidden() {
        record.layout = Some(G::hidden_value(&hidden));
    }
    let mut legal = Vec::new();
    for &choice in choices {
        if m.end().is_some() {
            break;
        }
        m.legal_actions(&mut legal);
        assert!(!legal.is_empty(), "{}: no legal action and no end", G::NAME);
        let pick = legal[choice as usize % legal.len()].clone();
        let action = G::reveal(pick, m.position(), Some(&hidden)).expect("a legal action");
        m.play(&action).expect("a legal action plays");
        let written = action.to_string();
        assert_eq!(G::parse_action(&written).ok(), Some(action), "{written}");
        record.actions.push(written);
        let pos = m.position();
        assert_eq!(
            G::parse_position(&pos.to_string()).ok().as_ref(),
            Some(pos),
            "{}",
            G::NAME
        );
    }
    let verdict = crate::games::validate(&record);
    assert!(verdict.valid, "{}: {:?}", G::NAME, verdict.error);
    assert_eq!(verdict.final_position, m.position().to_string());
}
