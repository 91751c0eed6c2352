//! What a seat sees never depends on what it may not know, for every game of the registry.
//!
//! Random games are dealt and played; at the end, for every seat, the match is replayed with
//! the dealt hidden truth and with others that seat cannot tell from it ([`Rules::disguise`]:
//! Banqi shuffles the pieces still face down). The seat's view must be the same bytes each
//! time: had any hidden identity leaked into it, some disguise would change it. The engine's
//! analysis for the seat ([`Search::analyze`](records::core::analysis::Search)) too.

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use records::core::analysis::{Analysis, Limits};
use records::core::replay::final_match;
use records::core::rules::parts::*;
use records::core::{Record, Rules, Seat, Told};
use records::games::GameKind;
use records::with_game;
use serde_json::Map;

/// A random game of `G` from `seed`, stopped after at most `plies`: its record with the
/// hidden truth.
fn random_record<G: Rules>(preset: usize, seed: u64, plies: usize) -> Record {
    records::core::play::random_record::<G>(&G::PRESETS[preset % G::PRESETS.len()], seed, plies)
}

fn views_hide_what_a_seat_may_not_know<G: Rules>(preset: usize, seed: u64, plies: usize) {
    let record = random_record::<G>(preset, seed, plies);
    let m = final_match::<G>(&record).unwrap();
    let rules = records::core::rules::ruleset::<G>(record.preset.as_deref(), &Map::new()).unwrap();
    // A game that hides nothing (plain xiangqi) has no truth to disguise.
    let Some(layout) = record.layout.as_ref() else {
        return;
    };
    let hidden = G::parse_hidden(layout).unwrap();
    let mut rng = StdRng::seed_from_u64(seed ^ 0xD15C);
    for seat in Seat::all(G::seats(&rules)) {
        let seen = serde_json::to_vec(&G::view(&m, seat)).unwrap();
        let told = G::told(&m, seat);
        let told_text = told.to_string();
        let read_back = Told::<G>::parse(&told_text)
            .unwrap_or_else(|e| panic!("{} {told_text:?} reads back: {e}", G::NAME));
        assert_eq!(
            read_back.to_string(),
            told_text,
            "{}: told reads back",
            G::NAME
        );
        assert_eq!(
            read_back.svg(None),
            told.svg(None),
            "{}: told draws alike",
            G::NAME
        );
        let analysis = |m: &G::Match| {
            let limits = Limits {
                nodes: Some(400),
                ..Limits::default()
            };
            G::analyze(m, Some(seat), &limits).map(|a| Analysis { millis: 0, ..a })
        };
        let analysed = analysis(&m);
        for i in 0..4 {
            let other = G::disguise(&hidden, &m, seat, &mut rng);
            let mut disguised = record.clone();
            disguised.layout = Some(G::hidden_value(&other));
            let m2 = final_match::<G>(&disguised).expect("a disguise replays the same actions");
            let seen2 = serde_json::to_vec(&G::view(&m2, seat)).unwrap();
            // The engine, asked for this seat, reads only what it knows (one disguise: a
            // search costs more than a view).
            if i == 0 {
                assert_eq!(
                    analysis(&m2),
                    analysed,
                    "{} seed {seed}: the engine's answer to {seat} changed with what it cannot know",
                    G::NAME
                );
            }
            assert_eq!(
                String::from_utf8_lossy(&seen),
                String::from_utf8_lossy(&seen2),
                "{} seed {seed}: {seat}'s view changed with what it cannot know",
                G::NAME
            );
            let told2 = G::told(&m2, seat);
            assert_eq!(
                told2.to_string(),
                told_text,
                "{}: {seat} is told alike",
                G::NAME
            );
            assert_eq!(
                told2.svg(None),
                told.svg(None),
                "{}: {seat}'s picture",
                G::NAME
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn no_view_shows_a_hidden_identity(preset in 0usize..16, seed in any::<u64>(), plies in 0usize..200) {
        for kind in GameKind::ALL {
            with_game!(*kind, G => views_hide_what_a_seat_may_not_know::<G>(preset, seed, plies));
        }
    }
}

/// The test would notice a leak: a Banqi view that named what lies under a covered square
/// changes with the disguise.
#[test]
fn a_leaking_view_would_be_caught() {
    use records::games::banqi::{Banqi, Layout};
    let record = random_record::<Banqi>(0, 7, 10);
    let m = final_match::<Banqi>(&record).unwrap();
    let layout: Layout = Banqi::parse_hidden(record.layout.as_ref().unwrap()).unwrap();
    let leaky = |layout: &Layout| {
        let pos = m.position();
        pos.covered()
            .map(|sq| layout.piece(sq).char())
            .collect::<String>()
    };
    let mut rng = StdRng::seed_from_u64(1);
    let changed = (0..8).any(|_| {
        let other = Banqi::disguise(&layout, &m, Seat::FIRST, &mut rng);
        leaky(&other) != leaky(&layout)
    });
    assert!(changed, "disguises move the covered identities");
}

/// In a dark Luzhanqi game the disguises change the enemy's identities (those it has not
/// shown by moving or fighting): a view that wrote the referee's position would be caught.
#[test]
fn a_leaking_dark_luzhanqi_view_would_be_caught() {
    use records::games::luzhanqi::{Layout, Luzhanqi};
    let record = random_record::<Luzhanqi>(0, 11, 30);
    assert_eq!(record.preset.as_deref(), Some("dark"));
    let m = final_match::<Luzhanqi>(&record).unwrap();
    let layout: Layout = Luzhanqi::parse_hidden(record.layout.as_ref().unwrap()).unwrap();
    let mut rng = StdRng::seed_from_u64(1);
    for seat in [Seat::FIRST, Seat::SECOND] {
        let changed = (0..8).any(|_| {
            let other = Luzhanqi::disguise(&layout, &m, seat, &mut rng);
            let mut disguised = record.clone();
            disguised.layout = Some(Luzhanqi::hidden_value(&other));
            let m2 = final_match::<Luzhanqi>(&disguised).expect("a disguise replays");
            m2.position().to_string() != m.position().to_string()
        });
        assert!(changed, "{seat}: disguises move the enemy's identities");
    }
}

/// What each preset's positions let a seat see: the referee tells a player only a masked
/// position where it is `Secret`, and keeps a layout only where there is one. Pinned preset by
/// preset, so that no game's answer changes by accident.
#[test]
fn every_preset_says_what_a_seat_may_see() {
    use records::core::Visibility::{Covered, Open, Secret};
    let mut seen = Vec::new();
    for kind in GameKind::ALL {
        with_game!(*kind, G => {
            for preset in G::PRESETS {
                seen.push((preset.name, G::visibility(&preset.ruleset)));
            }
        });
    }
    let expected = [
        ("tcga", Covered),
        ("olympiad", Covered),
        ("taiwan", Covered),
        ("taiwan-full", Covered),
        ("mainland", Covered),
        ("gametower", Covered),
        ("gametower-chain", Covered),
        ("gametower-dark-chain", Covered),
        ("three-kingdoms", Covered),
        ("three-kingdoms-recall", Covered),
        ("three-kingdoms-points", Covered),
        ("three-kingdoms-race", Covered),
        ("open", Covered),
        ("dark", Secret),
        ("flip", Covered),
        ("dark-house", Secret),
        ("xiangqi-3g", Secret),
        ("xiangqi-3g-anywhere", Secret),
        ("xiangqi", Open),
    ];
    for (name, visibility) in expected {
        assert!(
            seen.contains(&(name, visibility)),
            "{name}: {visibility:?} expected in {seen:?}"
        );
    }
    assert_eq!(
        seen.len(),
        expected.len(),
        "a preset without its line here: {seen:?}"
    );
}
