//! Every parser against mutated real inputs (property tests driven by proptest; a step towards
//! issue 15's fuzzing): position strings, actions and hidden truths of every game, JSON records
//! and TCGA text, and the replay of whatever parses. Nothing may panic; what parses writes
//! itself back to the same value.

mod common;

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use records::core::{Record, Rules};
use records::formats::{Format, parse_records};
use records::games::GameKind;
use records::with_game;

/// `text` with `edits` random edits: a character replaced, inserted or removed, from the
/// characters notations use.
fn mutate(text: &str, edits: &[(u8, usize, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(kind, at, c) in edits {
        let i = if chars.is_empty() {
            0
        } else {
            at % (chars.len() + 1)
        };
        match kind % 3 {
            0 if i < chars.len() => chars[i] = c,
            1 => chars.insert(i.min(chars.len()), c),
            _ if i < chars.len() => {
                chars.remove(i);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn edit() -> impl Strategy<Value = (u8, usize, char)> {
    (
        any::<u8>(),
        any::<usize>(),
        prop::sample::select(
            "abcdefghijkl0123456789/-()=^@?* ,KGMRNCPAEBFLTXZQOSDJkgmrncpaebfltxzqosdj{}\":[]\n"
                .chars()
                .collect::<Vec<_>>(),
        ),
    )
}

/// How many mutated inputs parsed (the success branch must be exercised too).
static PARSED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn parsers_hold<G: Rules>(seed: u64, edits: &[(u8, usize, char)]) {
    // Valid inputs to mutate: positions and actions along a random game, and its hidden truth.
    let common::random_game::RandomGame {
        positions,
        actions,
        hidden,
    } = common::random_game::random_game::<G>(seed as usize, seed, 40);
    for text in &positions {
        let bad = mutate(text, edits);
        if let Ok(pos) = G::parse_position(&bad) {
            PARSED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let again = G::parse_position(&pos.to_string());
            assert_eq!(again.as_ref().ok(), Some(&pos), "{}: {bad:?}", G::NAME);
        }
    }
    for text in &actions {
        let bad = mutate(text, edits);
        if let Ok(a) = G::parse_action(&bad) {
            PARSED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            assert_eq!(
                G::parse_action(&a.to_string()).ok(),
                Some(a),
                "{}: {bad:?}",
                G::NAME
            );
        }
    }
    let bad = mutate(&hidden, edits);
    if let Ok(value) = serde_json::from_str(&bad)
        && let Ok(h) = G::parse_hidden(&value)
    {
        assert_eq!(
            G::parse_hidden(&G::hidden_value(&h)).ok(),
            Some(h),
            "{}",
            G::NAME
        );
    }
    // A record of mutated actions replays to a verdict, never a panic.
    let mut record = Record::new(
        G::NAME,
        G::PRESETS[seed as usize % G::PRESETS.len()].name,
        Vec::new(),
    );
    record.layout = serde_json::from_str(&hidden).ok();
    record.actions = actions.iter().map(|a| mutate(a, edits)).collect();
    let _ = records::games::validate(&record);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn every_games_parsers_survive_mutation(seed in 0u64..64, edits in prop::collection::vec(edit(), 1..6)) {
        for kind in GameKind::ALL {
            with_game!(*kind, G => parsers_hold::<G>(seed, &edits));
        }
    }

    #[test]
    fn mutations_also_parse(seed in 0u64..4) {
        // Light edits of real inputs often stay valid: the round trip above is exercised.
        for kind in GameKind::ALL {
            with_game!(*kind, G => parsers_hold::<G>(seed, &[(1, 0, ' '), (2, 0, ' ')]));
        }
        prop_assert!(PARSED.load(std::sync::atomic::Ordering::Relaxed) > 0);
    }

    #[test]
    fn json_records_survive_mutation(pick in 0usize..6, edits in prop::collection::vec(edit(), 1..8)) {
        let docs = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/examples/");
        let names = ["taiwan-full-record.json", "tcga-override-record.json", "three-kingdoms-record.json",
            "luzhanqi-record.json", "xiangqi-3g-record.json", "series.jsonl"];
        let text = std::fs::read_to_string(format!("{docs}{}", names[pick])).unwrap();
        let bad = mutate(&text, &edits);
        for format in [Format::Json, Format::JsonLines] {
            for record in parse_records(&bad, format).into_iter().flatten() {
                let _ = records::games::validate(&record);
            }
        }
    }
}

#[test]
fn tcga_text_survives_mutation() {
    let texts = common::corpus_texts();
    let mut rng = StdRng::seed_from_u64(15);
    let alphabet: Vec<char> = "abcdefgh0123456789()-*.# \nKGMRNCPkgmrncpX"
        .chars()
        .collect();
    for i in 0..2_000 {
        let (_, text) = &texts[i % texts.len()];
        let edits: Vec<(u8, usize, char)> = (0..rand::RngExt::random_range(&mut rng, 1..10))
            .map(|_| {
                (
                    rand::RngExt::random::<u8>(&mut rng),
                    rand::RngExt::random::<u32>(&mut rng) as usize,
                    alphabet[rand::RngExt::random_range(&mut rng, 0..alphabet.len())],
                )
            })
            .collect();
        let bad = mutate(text, &edits);
        for record in parse_records(&bad, Format::text()).into_iter().flatten() {
            let _ = records::games::validate(&record);
        }
    }
}
