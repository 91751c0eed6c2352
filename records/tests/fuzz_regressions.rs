//! The fuzz targets (`records::fuzzing`, fuzzed by libFuzzer in `fuzz/`) on their seed corpora
//! and on every input a fuzzer ever found a crash with (`fuzz/regressions/<target>/`, each
//! file kept when its bug was fixed). With `ANQI_FUZZ_SEEDS_DIR` set, the seed corpora are also
//! written there, one directory per target, for a fuzzer to start from (fuzz/README.md).

mod common;

use std::path::{Path, PathBuf};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use records::core::rules::parts::*;
use records::fuzzing;
use records::games::GameKind;
use records::with_game;

const TARGETS: [(&str, fn(&[u8])); 3] = [
    ("notation", fuzzing::notation),
    ("records", fuzzing::records),
    ("replay", fuzzing::replay),
];

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz")
}

/// Positions, actions and hidden truths along a random game of `G` (game index `g`) under
/// each preset, as the notation target reads them: game byte, parser byte, text.
fn notation_seeds<G: Rules>(g: u8, out: &mut Vec<Vec<u8>>) {
    for p in 0..G::PRESETS.len() {
        let game = common::random_game::random_game::<G>(p, p as u64, 60);
        let seed = |which: u8, text: &str| [&[g, which][..], text.as_bytes()].concat();
        out.push(seed(2, &game.hidden));
        out.extend(game.positions.iter().step_by(10).map(|t| seed(0, t)));
        out.extend(game.actions.iter().step_by(5).map(|t| seed(1, t)));
    }
}

/// Each target's seeds: real records and positions of every game.
fn seeds() -> Vec<(&'static str, Vec<Vec<u8>>)> {
    let mut notation = Vec::new();
    for (g, kind) in GameKind::ALL.iter().enumerate() {
        with_game!(*kind, G => notation_seeds::<G>(g as u8, &mut notation));
    }
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/examples");
    let mut records: Vec<Vec<u8>> = std::fs::read_dir(&docs)
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    records.extend(
        common::corpus_texts()
            .into_iter()
            .take(40)
            .map(|(_, text)| text.into_bytes()),
    );
    let mut replay = Vec::new();
    let mut rng = StdRng::seed_from_u64(15);
    for g in 0..GameKind::ALL.len() as u8 {
        for preset in 0..4u8 {
            let mut input = vec![g, preset];
            input.extend((0..8 + 200).map(|_| rng.random::<u8>()));
            replay.push(input);
        }
    }
    vec![
        ("notation", notation),
        ("records", records),
        ("replay", replay),
    ]
}

#[test]
fn the_fuzz_targets_hold_on_their_seeds() {
    let write_to = std::env::var_os("ANQI_FUZZ_SEEDS_DIR").map(PathBuf::from);
    for (name, inputs) in seeds() {
        let target = TARGETS.iter().find(|t| t.0 == name).unwrap().1;
        assert!(inputs.len() >= 10, "{name}: {} seeds", inputs.len());
        for (i, input) in inputs.iter().enumerate() {
            target(input);
            if let Some(dir) = &write_to {
                let dir = dir.join(name);
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join(format!("seed-{i:04}")), input).unwrap();
            }
        }
    }
}

/// Every crash a fuzzer found stays fixed.
#[test]
fn every_crash_found_stays_fixed() {
    for (name, target) in TARGETS {
        let dir = fuzz_dir().join("regressions").join(name);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                continue;
            }
            let input = std::fs::read(&path).unwrap();
            let outcome = std::panic::catch_unwind(|| target(&input));
            assert!(outcome.is_ok(), "{name}: {} panics again", path.display());
        }
    }
}
