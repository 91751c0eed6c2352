//! The players' counts the store keeps (`meetings`) and the ratings fitted from them, on
//! SQLite and (when configured) PostgreSQL: the counts equal a count of the imported records
//! made here, whatever the import's chunks and duplicates; unnamed seats, unfinished games and
//! self-play are where they belong; a leaderboard is the fit of those counts, and follows the
//! games as they are stored.
#![cfg(feature = "store")]

use std::collections::BTreeMap;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use records::core::{Outcome, Record};
use records::rating::{Meeting, Model, fit};
use records::store::{Imported, Incoming, RatingsCache, Store, test_databases};
use serde_json::json;

/// A game of `players` (two names: Banqi; three: Three Kingdoms) that ended in `outcome` (a
/// record's outcome code; None: unfinished), told apart from the others by `n`.
fn game(players: &[&str], outcome: Option<&str>, n: usize) -> Record {
    let mut record = if players.len() == 3 {
        Record::new("three-kingdoms", "three-kingdoms", vec![])
    } else {
        Record::new("banqi", "tcga", vec!["a1(K)".into(), "b1(k)".into()])
    };
    record.players = players.iter().map(|p| p.to_string()).collect();
    record.metadata.insert("round".into(), json!(n));
    if let Some(outcome) = outcome {
        let reason = if outcome == "draw" {
            "agreement"
        } else {
            "resignation"
        };
        record.result =
            Some(serde_json::from_value(json!({"outcome": outcome, "reason": reason})).unwrap());
    }
    record
}

/// A log: four players of graded strength in every pairing and both seats (the stronger wins
/// mostly, the first mover a little more), some draws; self-play of a bot; games with a seat
/// unnamed; unfinished games; and a few three-seat games.
fn log() -> Vec<Record> {
    let names = ["ann", "bo", "cy", "di"];
    let mut out = Vec::new();
    let mut n = 0;
    let mut rng = StdRng::seed_from_u64(7);
    let mut next = || rng.random::<f64>();
    for (i, a) in names.iter().enumerate() {
        for (j, b) in names.iter().enumerate() {
            if i == j {
                continue;
            }
            for _ in 0..30 {
                n += 1;
                // Strength falls by 0.8 per place; the first move is worth 0.3.
                let p = 1.0 / (1.0 + ((i as f64 - j as f64) * 0.8 - 0.3).exp());
                let draw = next() < 0.1;
                let outcome = if draw {
                    "draw"
                } else if next() < p {
                    "player1"
                } else {
                    "player2"
                };
                out.push(game(&[a, b], Some(outcome), n));
            }
        }
    }
    for k in 0..20 {
        n += 1;
        let outcome = if k % 3 == 0 { "player2" } else { "player1" };
        out.push(game(&["bot", "bot"], Some(outcome), n));
    }
    for _ in 0..5 {
        n += 1;
        out.push(game(&["ann"], Some("player1"), n)); // seat 2 unnamed
        n += 1;
        out.push(game(&["ann", "bo"], None, n));
    }
    for (k, outcome) in ["player1>player2>player3", "player3>player1>player2", "draw"]
        .iter()
        .cycle()
        .take(9)
        .enumerate()
    {
        n += 1;
        let seats = if k % 2 == 0 {
            ["wei", "shu", "wu"]
        } else {
            ["wu", "wei", "shu"]
        };
        out.push(game(&seats, Some(outcome), n));
    }
    out
}

/// The meetings of `game` counted here from the records: finished, every seat named.
fn counted(records: &[Record], game: &str) -> Vec<Meeting> {
    let mut counts: BTreeMap<(Vec<String>, String), u64> = BTreeMap::new();
    for r in records.iter().filter(|r| r.game == game) {
        let Some(result) = r.result else { continue };
        if r.players.len() < if game == "banqi" { 2 } else { 3 } {
            continue;
        }
        let outcome = result.outcome.outcome().unwrap();
        *counts
            .entry((r.players.clone(), outcome.to_string()))
            .or_default() += 1;
    }
    counts
        .into_iter()
        .map(|((players, outcome), games)| {
            let mut outcome: Outcome = outcome.parse().unwrap();
            if players.len() == 3 && outcome.is_draw() {
                outcome = Outcome::draw(3);
            }
            Meeting {
                players,
                outcome,
                games,
            }
        })
        .collect()
}

fn sorted(mut m: Vec<Meeting>) -> Vec<(Vec<String>, String, u64)> {
    let mut out: Vec<_> = m
        .drain(..)
        .map(|m| (m.players, m.outcome.to_string(), m.games))
        .collect();
    out.sort();
    out
}

fn incoming(records: &[Record]) -> Vec<Incoming> {
    records
        .iter()
        .map(|r| Incoming {
            record: r.clone(),
            source: "log".into(),
        })
        .collect()
}

#[test]
fn the_counts_and_the_leaderboard_follow_the_stored_games() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-store-players");
    let records = log();
    for url in test_databases(&dir, "players") {
        let store = Store::open(&url).unwrap();
        let backend = store.backend();
        // Imported in two batches, the second repeating part of the first: each game counts
        // once.
        let (first, second) = records.split_at(200);
        let outcomes = store.import(&incoming(first)).unwrap();
        assert!(
            outcomes
                .iter()
                .all(|o| matches!(o, Imported::Stored { .. }))
        );
        let cache = RatingsCache::default();
        let early = cache.leaderboard(&store, "banqi", "tcga", 0, 10).unwrap();
        assert_eq!(
            early.games,
            counted(first, "banqi").iter().map(|m| m.games).sum::<u64>()
        );
        store.import(&incoming(&records[150..])).unwrap();
        assert_eq!(second.len(), records.len() - 200);

        for game in ["banqi", "three-kingdoms"] {
            let preset = if game == "banqi" {
                "tcga"
            } else {
                "three-kingdoms"
            };
            let expected = counted(&records, game);
            assert_eq!(
                sorted(store.meetings(game, preset).unwrap()),
                sorted(expected.clone()),
                "{backend} {game}"
            );
            // The leaderboard is the fit of those counts (the same model as the report's).
            let board = cache.leaderboard(&store, game, preset, 0, 100).unwrap();
            let fitted = fit(&expected, &Model::default()).unwrap();
            assert_eq!(board.games, fitted.games, "{backend} {game}");
            assert_eq!(board.rated, fitted.players.len());
            for (ranked, rated) in board.ranking.iter().zip(&fitted.players) {
                assert_eq!(ranked.name, rated.name, "{backend} {game}");
                assert!((ranked.rating.value - rated.rating.value).abs() < 1e-9);
            }
        }
        // Unnamed seats and unfinished games count for nobody; self-play for the seats only.
        let board = cache.leaderboard(&store, "banqi", "tcga", 0, 100).unwrap();
        let names: Vec<&str> = board.ranking.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            ["ann", "bo", "cy", "di"],
            "{backend}: strongest first"
        );
        assert_eq!(board.self_play, 20);
        assert!(
            board.seat_terms[0].value > 0.0,
            "{backend}: the first move is worth something here"
        );
        // Pages.
        let page = cache.leaderboard(&store, "banqi", "tcga", 1, 2).unwrap();
        assert_eq!(
            page.ranking.iter().map(|r| r.rank).collect::<Vec<_>>(),
            [Some(2), Some(3)]
        );
        assert_eq!(page.next, Some(3));
        let last = cache.leaderboard(&store, "banqi", "tcga", 3, 2).unwrap();
        assert_eq!((last.ranking.len(), last.next), (1, None));

        // A player's page: results counted here, the rating and rank of the leaderboard.
        let page = cache.player(&store, "ann", 5).unwrap().unwrap();
        let banqi = page.presets.iter().find(|p| p.game == "banqi").unwrap();
        let mine = records.iter().filter(|r| {
            r.game == "banqi"
                && r.players.len() == 2
                && r.result.is_some()
                && r.players[0] != r.players[1]
        });
        let (mut wins, mut draws, mut losses) = (0, 0, 0);
        for r in mine {
            let Some(seat) = r.players.iter().position(|p| p == "ann") else {
                continue;
            };
            match r
                .result
                .unwrap()
                .outcome
                .outcome()
                .unwrap()
                .to_string()
                .as_str()
            {
                "draw" => draws += 1,
                w if w == ["player1", "player2"][seat] => wins += 1,
                _ => losses += 1,
            }
        }
        assert_eq!(
            (banqi.wins, banqi.draws, banqi.losses),
            (Some(wins), Some(draws), Some(losses)),
            "{backend}"
        );
        assert_eq!(banqi.games, wins + draws + losses);
        assert_eq!(banqi.rank, Some(1));
        assert_eq!(banqi.rating, Some(board.ranking[0].rating));
        // Every stored game naming her: rated, against the unnamed, unfinished.
        let all = records
            .iter()
            .filter(|r| r.players.iter().any(|p| p == "ann"))
            .count();
        assert_eq!(page.games, all as i64);
        assert_eq!(page.recent.len(), 5);
        assert!(
            page.recent.windows(2).all(|w| w[0].id > w[1].id),
            "newest first"
        );
        let wei = cache.player(&store, "wei", 5).unwrap().unwrap();
        assert_eq!(
            wei.presets[0]
                .places
                .as_ref()
                .map(|p| p.iter().sum::<u64>()),
            Some(9)
        );
        let bot = cache.player(&store, "bot", 5).unwrap().unwrap();
        assert_eq!((bot.presets[0].games, bot.presets[0].self_play), (0, 20));
        assert!(cache.player(&store, "nobody", 5).unwrap().is_none());
        assert!(
            cache.player(&store, "player 2", 5).unwrap().is_none(),
            "{backend}: a stand-in name is nobody"
        );

        // Kept current: di wins thirty more against ann, and the next request sees it.
        let before = board
            .ranking
            .iter()
            .find(|r| r.name == "di")
            .unwrap()
            .rating;
        let more: Vec<Record> = (0..30)
            .map(|k| game(&["di", "ann"], Some("player1"), 10_000 + k))
            .collect();
        store.import(&incoming(&more)).unwrap();
        let after = cache.leaderboard(&store, "banqi", "tcga", 0, 10).unwrap();
        let di = after.ranking.iter().find(|r| r.name == "di").unwrap();
        assert!(di.rating.value > before.value + 50.0, "{backend}: {di:?}");
        assert_eq!(after.games, board.games + 30);
    }
}
