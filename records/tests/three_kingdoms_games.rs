//! Three Kingdoms property tests: random games under every preset and both splits replay
//! deterministically to the same positions and result, every position string round-trips,
//! the covered pool always matches the layout under the covered points; and 10,000 random
//! games play to an end without a panic.

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use records::core::play::stated_result;
use records::core::{Engine as _, Turn as _};
use records::core::{Record, Seat, Status};
use records::games::banqi::Piece;
use records::games::three_kingdoms::{
    Layout, Match, PRESETS, Position, Ruleset, Split, ThreeKingdoms,
};
use serde_json::{Map, Value};

/// A seeded random game: its record (layout, options, result) and the position after
/// every ply.
fn random_game(preset: usize, second_split: bool, seed: u64) -> (Record, Vec<Position>) {
    let preset = &PRESETS[preset % PRESETS.len()];
    let mut rules: Ruleset = preset.ruleset;
    let mut options = Map::new();
    if second_split {
        rules.split = Split::Soldiers;
        options.insert("split".into(), Value::from("soldiers"));
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let layout = Layout::shuffled(&mut rng);
    let mut m = Match::from_position(rules, Position::start(rules.split));
    let (mut actions, mut positions, mut legal) = (Vec::new(), Vec::new(), Vec::new());
    while m.pos.end(&rules).is_none() && actions.len() < 600 {
        m.pos.legal_actions(&rules, &mut legal);
        assert!(
            !legal.is_empty(),
            "the seat to move has an action: {}",
            m.pos
        );
        let action = layout
            .fill(legal[rng.random_range(0..legal.len())])
            .unwrap();
        m.pos.play(&rules, &action).unwrap();
        actions.push(action.to_string());
        positions.push(m.pos);
    }
    let mut record = Record::new("three-kingdoms", preset.name, actions);
    record.options = options;
    record.players = vec!["a".into(), "b".into(), "c".into()];
    record.layout = Some(Value::from(layout.to_string()));
    record.result = Some(stated_result(m.pos.end(&rules)));
    (record, positions)
}

fn check_game(preset: usize, second_split: bool, seed: u64) {
    let (record, positions) = random_game(preset, second_split, seed);
    let layout: Layout = record
        .layout
        .as_ref()
        .unwrap()
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    // The record replays to the same positions, and its stated result is the derived one.
    let (replayed, verdict) = records::core::replay::replay::<ThreeKingdoms>(&record);
    assert!(verdict.valid, "{:?}", verdict.error);
    assert_eq!(replayed, positions);
    if record.result.unwrap().outcome.outcome().is_some() {
        assert!(matches!(verdict.derived, Status::Ended { .. }));
    }
    for p in &positions {
        // Position strings round-trip.
        let text = p.to_string();
        assert_eq!(text.parse::<Position>().as_ref(), Ok(p), "{text}");
        // The covered pool is what the layout has under the covered points.
        let mut pool = *p.pool();
        for point in p.covered() {
            assert!(pool.take(layout.piece(point).unwrap()), "{text}");
        }
        assert_eq!(pool.total(), 0, "{text}");
        // Every piece is on the board, covered or captured (nothing else removes one but a
        // recall).
        let on_board = Piece::all()
            .map(|k| {
                records::games::three_kingdoms::Point::all()
                    .filter(|q| p.cell(*q) == records::games::banqi::Cell::Revealed(k))
                    .count() as u32
            })
            .sum::<u32>();
        let captured: u32 = Seat::all(3).map(|s| p.captured(s).total()).sum();
        let recalled = p.place(Seat::FIRST).is_some()
            || p.place(Seat::SECOND).is_some()
            || p.place(Seat::THIRD).is_some();
        if !recalled {
            assert_eq!(on_board + p.pool().total() + captured, 32, "{text}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    #[test]
    fn random_games_replay_exactly(preset in 0usize..4, second_split in any::<bool>(), seed in any::<u64>()) {
        check_game(preset, second_split, seed);
    }

    #[test]
    fn action_notation_round_trips(text in "[a-i][1-5](\\([KGMRNCPkgmrncp]\\))?|[a-i][1-5]-[a-i][1-5]|recall") {
        let action: records::games::three_kingdoms::Action = text.parse().unwrap();
        prop_assert_eq!(action.to_string(), text);
    }
}

/// 10,000 random games, every preset and both splits, to an end: none panics, none stalls
/// (the no-progress limit ends every game), every one ends with a ranking of three seats.
#[test]
fn ten_thousand_random_games_end() {
    let mut rng = StdRng::seed_from_u64(12);
    let mut legal = Vec::new();
    let mut endings = std::collections::BTreeMap::new();
    for game in 0..10_000u32 {
        let mut rules = PRESETS[game as usize % 4].ruleset;
        if game % 8 >= 4 {
            rules.split = Split::Soldiers;
        }
        let layout = Layout::shuffled(&mut rng);
        let mut m = Match::from_position(rules, Position::start(rules.split));
        let end = loop {
            if let Some(end) = m.pos.end(&rules) {
                break end;
            }
            m.pos.legal_actions(&rules, &mut legal);
            let action = layout
                .fill(legal[rng.random_range(0..legal.len())])
                .unwrap();
            m.pos.play(&rules, &action).unwrap();
            assert_eq!(m.pos.covered().count(), m.pos.pool().total());
            assert!(m.pos.ply() < 5_000, "game {game} does not end");
        };
        assert_eq!(end.outcome.seats(), 3);
        *endings.entry(end.reason.code()).or_insert(0u32) += 1;
    }
    // Every ending of the presets happens.
    for reason in ["elimination", "recall", "points", "race"] {
        assert!(endings.get(reason).copied().unwrap_or(0) > 0, "{endings:?}");
    }
}
