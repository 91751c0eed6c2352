//! The record store on real SQLite and real PostgreSQL: the same tests on both backends.
#![cfg(feature = "store")]

use records::core::Record;
use records::games::banqi::tcga;
use records::store::{GameFilter, Imported, Incoming, Store, test_databases};

mod common;

fn corpus() -> Vec<Incoming> {
    common::corpus_records()
        .into_iter()
        .map(|(source, record)| Incoming { record, source })
        .collect()
}

/// Where these tests' SQLite files are.
fn tests_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-store-tests")
}

fn stores(name: &str) -> Vec<Store> {
    test_databases(&tests_dir(), name)
        .iter()
        .map(|url| Store::open(url).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

fn incoming(record: Record) -> Incoming {
    Incoming {
        record,
        source: "test".into(),
    }
}

#[test]
fn the_corpus_imports_once() {
    let games = corpus();
    assert_eq!(games.len(), 2338);
    for store in stores("corpus") {
        // 187 games of the corpus are in it twice (the same game under two file names).
        let first = store.import(&games).unwrap();
        let stored = first
            .iter()
            .filter(|o| matches!(o, Imported::Stored { .. }))
            .count();
        let duplicates = first
            .iter()
            .filter(|o| matches!(o, Imported::Duplicate { .. }))
            .count();
        assert_eq!((stored, duplicates), (2151, 187), "{}", store.backend());
        assert_eq!(store.count().unwrap(), 2151);
        // Again: everything is a duplicate, with the same ids.
        let again = store.import(&games).unwrap();
        for (a, b) in first.iter().zip(&again) {
            let (
                Imported::Stored { id: x, hash: h } | Imported::Duplicate { id: x, hash: h },
                Imported::Duplicate { id: y, hash: k },
            ) = (a, b)
            else {
                panic!("{a:?} then {b:?}");
            };
            assert_eq!((x, h), (y, k));
        }
        assert_eq!(store.count().unwrap(), 2151);
        // A stored game gives back its record, which exports to the same TCGA text.
        let Imported::Stored { id, .. } = first[10] else {
            panic!()
        };
        let (row, record) = store.get(id).unwrap().unwrap();
        assert_eq!(record, games[10].record);
        assert_eq!(row.plies as usize, record.actions.len());
        assert_eq!(row.source, games[10].source);
        assert!(tcga::export(&record).is_ok());
        assert!(store.get(1_000_000).unwrap().is_none());
    }
}

/// A batch of games partly stored: on PostgreSQL the copy that does not look first fails,
/// and the chunk is copied again after finding the stored ones. The stored keep their ids;
/// the new get new ids, after the old, each with its seats.
#[test]
fn a_batch_partly_stored_stores_only_the_new() {
    let games = corpus();
    for store in stores("partly") {
        let first = store.import(&games[..1000]).unwrap();
        let id = |o: &Imported| match o {
            Imported::Stored { id, .. } | Imported::Duplicate { id, .. } => *id,
            Imported::Invalid { error } => panic!("{error}"),
        };
        let last_old = first.iter().map(id).max().unwrap();
        let all = store.import(&games).unwrap();
        for (a, b) in first.iter().zip(&all) {
            assert!(matches!(b, Imported::Duplicate { .. }), "{b:?}");
            assert_eq!(id(a), id(b), "{}", store.backend());
        }
        let new: Vec<i64> = all[1000..]
            .iter()
            .filter(|o| matches!(o, Imported::Stored { .. }))
            .map(id)
            .collect();
        assert_eq!(store.count().unwrap(), 2151, "{}", store.backend());
        let stored_first = first
            .iter()
            .filter(|o| matches!(o, Imported::Stored { .. }))
            .count();
        assert!(
            stored_first > 900 && new.len() > 1000,
            "{}",
            store.backend()
        );
        assert_eq!(stored_first + new.len(), 2151, "{}", store.backend());
        for &n in &new {
            assert!(n > last_old, "{}", store.backend());
            let (row, _) = store.get(n).unwrap().unwrap();
            assert_eq!(row.seats.len(), 2, "{}", store.backend());
        }
    }
}

#[test]
fn invalid_records_are_reported_and_not_stored() {
    for store in stores("invalid") {
        let good = Record::new("banqi", "tcga", vec!["b8(G)".into(), "d8(g)".into()]);
        let bad = Record::new("banqi", "tcga", vec!["b8(G)".into(), "b8(g)".into()]);
        let batch = [incoming(good.clone()), incoming(bad), incoming(good)];
        let outcomes = store.import(&batch).unwrap();
        assert!(
            matches!(outcomes[0], Imported::Stored { .. }),
            "{outcomes:?}"
        );
        let Imported::Invalid { error } = &outcomes[1] else {
            panic!("{outcomes:?}")
        };
        assert_eq!(error.code(), "not_covered");
        // The same record twice in one batch: stored once.
        assert!(
            matches!(outcomes[2], Imported::Duplicate { .. }),
            "{outcomes:?}"
        );
        assert_eq!(store.count().unwrap(), 1);
    }
}

#[test]
fn lists_filter_and_paginate() {
    let games = corpus();
    for store in stores("list") {
        store.import(&games).unwrap();
        let all = |f: GameFilter| {
            let mut out = Vec::new();
            let mut f = f;
            loop {
                let page = store.list(&f).unwrap();
                if page.is_empty() {
                    break;
                }
                f.after = Some(page.last().unwrap().id);
                out.extend(page);
            }
            out
        };
        // Pages of 500 cover everything once, in id order.
        let every = all(GameFilter {
            limit: 500,
            ..GameFilter::default()
        });
        assert_eq!(every.len(), 2151);
        assert!(every.windows(2).all(|w| w[0].id < w[1].id));
        // By player (either seat), result and date; compare with filtering in memory.
        let player = every[0].player1.clone();
        let by_player = all(GameFilter {
            player: Some(player.clone()),
            limit: 100,
            ..GameFilter::default()
        });
        let expected = every
            .iter()
            .filter(|g| g.player1 == player || g.player2 == player)
            .count();
        assert_eq!(by_player.len(), expected);
        assert!(expected > 0);
        let draws = all(GameFilter {
            result: Some("draw".into()),
            limit: 1000,
            ..GameFilter::default()
        });
        assert_eq!(
            draws.len(),
            every.iter().filter(|g| g.result == "draw").count()
        );
        assert!(!draws.is_empty());
        let day = every[0].played_on.clone().expect("TCGA records have dates");
        let on_day = all(GameFilter {
            date_from: Some(day.clone()),
            date_to: Some(day.clone()),
            limit: 1000,
            ..GameFilter::default()
        });
        assert_eq!(
            on_day.len(),
            every
                .iter()
                .filter(|g| g.played_on.as_deref() == Some(&day))
                .count()
        );
        let none = store
            .list(&GameFilter {
                preset: Some("olympiad".into()),
                ..GameFilter::default()
            })
            .unwrap();
        assert!(none.is_empty());
        // The game filter: every stored game is Banqi, none is another game.
        let by_game = |game: &str| {
            store
                .list(&GameFilter {
                    game: Some(game.into()),
                    limit: 1000,
                    ..GameFilter::default()
                })
                .unwrap()
                .len()
        };
        assert_eq!(by_game("banqi"), every.len().min(1000));
        // Newest first, a page at a time by `before`: every game once, ids falling.
        let mut newest = Vec::new();
        let mut before = None;
        loop {
            let page = store
                .list(&GameFilter {
                    order: records::store::ListOrder::Newest,
                    before,
                    limit: 300,
                    ..GameFilter::default()
                })
                .unwrap();
            newest.extend(page.iter().map(|g| g.id));
            if page.len() < 300 {
                break;
            }
            before = page.last().map(|g| g.id);
        }
        let mut oldest: Vec<i64> = every.iter().map(|g| g.id).collect();
        oldest.reverse();
        assert_eq!(newest, oldest, "newest first is oldest first reversed");
        assert_eq!(by_game("luzhanqi"), 0);
        // Every game has its two seats, sides known once a piece was flipped.
        assert!(
            every
                .iter()
                .all(|g| g.seats.len() == 2 && g.seats[0].name == g.player1)
        );
        assert!(
            every
                .iter()
                .all(|g| g.seats[0].side.is_some() == g.seats[1].side.is_some())
        );
        // Scoring went in: points are consistent with the result where someone was eliminated.
        assert!(every.iter().all(|g| g.points1 <= 50 && g.points2 <= 50));
    }
}

/// Three Kingdoms games: three seats each, with their factions, captured points and places;
/// a second import finds them all; the game filter tells the games apart.
#[test]
fn three_kingdoms_games_keep_three_seats() {
    use rand::SeedableRng;
    use records::core::play::random_playout;
    use records::core::play::stated_result;
    use records::games::three_kingdoms::{Layout, PRESETS, ThreeKingdoms};
    let mut games = Vec::new();
    for seed in 0..40u64 {
        let preset = &PRESETS[seed as usize % PRESETS.len()];
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let layout = Layout::shuffled(&mut rng);
        let mut actions = Vec::new();
        let mut buffer = Vec::new();
        let end = random_playout::<ThreeKingdoms, _>(
            preset.ruleset,
            &layout,
            &mut rng,
            400,
            &mut buffer,
            |_, a| actions.push(a.to_string()),
        )
        .pos;
        let mut record = Record::new("three-kingdoms", preset.name, actions);
        record.players = vec!["Wei".into(), "Shu".into(), "Wu".into()];
        record.layout = Some(serde_json::Value::from(layout.to_string()));
        record.result = Some(stated_result(end.end(&preset.ruleset)));
        games.push((incoming(record), end));
    }
    let incoming: Vec<Incoming> = games.iter().map(|(i, _)| i.clone()).collect();
    for store in stores("three_kingdoms") {
        let first = store.import(&incoming).unwrap();
        assert!(
            first.iter().all(|o| matches!(o, Imported::Stored { .. })),
            "{first:?}"
        );
        let again = store.import(&incoming).unwrap();
        assert!(
            again
                .iter()
                .all(|o| matches!(o, Imported::Duplicate { .. }))
        );
        let listed = |game: &str| {
            store
                .list(&GameFilter {
                    game: Some(game.into()),
                    limit: 1000,
                    ..GameFilter::default()
                })
                .unwrap()
        };
        assert_eq!(listed("three-kingdoms").len(), 40, "{}", store.backend());
        assert!(listed("banqi").is_empty());
        for (outcome, (sent, end)) in first.iter().zip(&games) {
            let Imported::Stored { id, .. } = outcome else {
                panic!()
            };
            let (row, record) = store.get(*id).unwrap().unwrap();
            assert_eq!(record, sent.record);
            assert_eq!(row.game, "three-kingdoms");
            assert_eq!(row.seats.len(), 3);
            for (i, seat) in row.seats.iter().enumerate() {
                let s = records::core::Seat::new(i).unwrap();
                assert_eq!(seat.name, ["Wei", "Shu", "Wu"][i]);
                let faction = end.faction_of(s).map(|f| end.split().name(f));
                assert_eq!(seat.side.as_deref(), faction);
                assert_eq!(seat.points as u32, end.captured_points(s));
            }
        }
    }
}

/// Luzhanqi games of every mode: stored with their setups or layout, two seats with their
/// sides, found again on a second import; the game filter tells them apart.
#[test]
fn luzhanqi_games_of_every_mode_are_stored() {
    use rand::SeedableRng;
    use records::core::play::random_playout;
    use records::core::play::stated_result;
    use records::core::rules::parts::*;
    use records::games::luzhanqi::{Luzhanqi, PRESETS};
    let mut games = Vec::new();
    for seed in 0..24u64 {
        let preset = &PRESETS[seed as usize % PRESETS.len()];
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let layout = Luzhanqi::deal(&preset.ruleset, &mut rng);
        let mut actions = Vec::new();
        let mut buffer = Vec::new();
        let end = random_playout::<Luzhanqi, _>(
            preset.ruleset,
            &layout,
            &mut rng,
            300,
            &mut buffer,
            |_, a| actions.push(a.to_string()),
        )
        .pos;
        let mut record = Record::new("luzhanqi", preset.name, actions);
        record.players = vec!["Lin".into(), "Zhao".into()];
        record.layout = Some(Luzhanqi::hidden_value(&layout));
        record.result = Some(stated_result(end.end(&preset.ruleset)));
        games.push((incoming(record), end));
    }
    let incoming: Vec<Incoming> = games.iter().map(|(i, _)| i.clone()).collect();
    for store in stores("luzhanqi") {
        let first = store.import(&incoming).unwrap();
        assert!(
            first.iter().all(|o| matches!(o, Imported::Stored { .. })),
            "{first:?}"
        );
        let again = store.import(&incoming).unwrap();
        assert!(
            again
                .iter()
                .all(|o| matches!(o, Imported::Duplicate { .. }))
        );
        let listed = store
            .list(&GameFilter {
                game: Some("luzhanqi".into()),
                limit: 1000,
                ..GameFilter::default()
            })
            .unwrap();
        assert_eq!(listed.len(), 24, "{}", store.backend());
        for (outcome, (sent, end)) in first.iter().zip(&games) {
            let Imported::Stored { id, .. } = outcome else {
                panic!()
            };
            let (row, record) = store.get(*id).unwrap().unwrap();
            assert_eq!(
                record, sent.record,
                "the setups or layout come back as sent"
            );
            assert_eq!((row.game.as_str(), row.seats.len()), ("luzhanqi", 2));
            for (i, seat) in row.seats.iter().enumerate() {
                let s = records::core::Seat::new(i).unwrap();
                assert_eq!(seat.side.as_deref(), end.side_of(s).map(|x| x.name()));
            }
        }
    }
}

/// Third-generation xiangqi games: stored with their backs, found again, told apart.
#[test]
fn xiangqi_games_are_stored_with_their_backs() {
    use rand::SeedableRng;
    use records::core::play::random_playout;
    use records::core::play::stated_result;
    use records::core::rules::parts::*;
    use records::games::xiangqi::{Backs, PRESETS, Xiangqi3g};
    let mut games = Vec::new();
    for seed in 0..18u64 {
        let preset = &PRESETS[seed as usize % PRESETS.len()];
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let backs = Backs::random(&mut rng);
        let mut actions = Vec::new();
        let mut buffer = Vec::new();
        let m = random_playout::<Xiangqi3g, _>(
            preset.ruleset,
            &backs,
            &mut rng,
            200,
            &mut buffer,
            |_, a| actions.push(a.to_string()),
        );
        let mut record = Record::new("xiangqi-3g", preset.name, actions);
        record.players = vec!["Zhang".into(), "Li".into()];
        if preset.ruleset.backs {
            record.layout = Some(Xiangqi3g::hidden_value(&backs));
        }
        record.result = Some(stated_result(m.end()));
        games.push(incoming(record));
    }
    for store in stores("xiangqi") {
        let first = store.import(&games).unwrap();
        assert!(
            first.iter().all(|o| matches!(o, Imported::Stored { .. })),
            "{first:?}"
        );
        let again = store.import(&games).unwrap();
        assert!(
            again
                .iter()
                .all(|o| matches!(o, Imported::Duplicate { .. }))
        );
        let listed = store
            .list(&GameFilter {
                game: Some("xiangqi-3g".into()),
                limit: 1000,
                ..GameFilter::default()
            })
            .unwrap();
        assert_eq!(listed.len(), 18, "{}", store.backend());
        for (outcome, sent) in first.iter().zip(&games) {
            let Imported::Stored { id, .. } = outcome else {
                panic!()
            };
            let (row, record) = store.get(*id).unwrap().unwrap();
            assert_eq!(record, sent.record);
            assert_eq!(row.seats[0].side.as_deref(), Some("red"));
        }
    }
}

/// PostgreSQL compresses a stored game's record with lz4 (the migration of 2026-11-24: pglz
/// took half the server's time of a bulk import), and the games read back. The `actions`
/// column it also compressed is gone since migration 5.
#[test]
fn postgresql_compresses_large_columns_with_lz4() {
    use diesel::prelude::*;
    #[derive(QueryableByName)]
    struct Compression {
        #[diesel(sql_type = diesel::sql_types::Text)]
        column: String,
        #[diesel(sql_type = diesel::sql_types::Text)]
        method: String,
    }
    let dir = tests_dir();
    for url in test_databases(&dir, "lz4") {
        if !url.starts_with("postgres") {
            continue;
        }
        let store = Store::open(&url).unwrap();
        let games = corpus();
        store.import(&games[..50]).unwrap();
        let mut conn = diesel::PgConnection::establish(&url).unwrap();
        let found: Vec<Compression> = diesel::sql_query(
            "SELECT attname::text AS column, attcompression::text AS method FROM pg_attribute \
             WHERE attrelid = 'games'::regclass AND attname IN ('record', 'actions') \
             ORDER BY attname",
        )
        .load(&mut conn)
        .unwrap();
        let found: Vec<(String, String)> =
            found.into_iter().map(|c| (c.column, c.method)).collect();
        assert_eq!(found, [("record".to_owned(), "l".to_owned())]);
        let page = store.records(0, 100).unwrap();
        assert_eq!(page.len(), 50);
        for ((_, _, record), game) in page.iter().zip(&games) {
            assert_eq!(record, &game.record);
        }
    }
}

/// A long import's session (`Store::import_session`) on SQLite has a thread of its own copy
/// the log into the database file after each commit (docs/store.md): once the session is
/// dropped, the file alone, its log left aside, holds every game. The corpus's log is smaller
/// than SQLite's own threshold for copying it (1,000 pages): without the thread, the file
/// would hold none. On PostgreSQL the session imports as any other.
#[test]
fn an_import_session_copies_the_log_into_the_database_file() {
    let games = corpus();
    let dir = tests_dir();
    for url in test_databases(&dir, "checkpoints") {
        let store = Store::open(&url).unwrap();
        {
            let mut session = store.import_session().unwrap();
            for batch in games.chunks(400) {
                store.import_in(&mut session, batch).unwrap();
            }
        }
        assert_eq!(store.count().unwrap(), 2151, "{}", store.backend());
        let Some(path) = records::store::sqlite_path(&url) else {
            continue;
        };
        let alone = dir.join("checkpoints-file-alone.db");
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", alone.display()));
        }
        std::fs::copy(&path, &alone).unwrap();
        let copy = Store::open(&alone.display().to_string()).unwrap();
        assert_eq!(copy.count().unwrap(), 2151);
        // The explorer's counts were copied with the games.
        let start = copy
            .explore(
                &records::store::Lookup {
                    game: "banqi".into(),
                    preset: Some("tcga".into()),
                    ..Default::default()
                },
                &records::store::RatingsCache::default(),
            )
            .unwrap();
        assert!(start.games > 1000, "{}", start.games);
    }
}

/// A SQLite store read through a memory map (the service's way: `Store::open_mapped`) gives
/// the same games and the same explorer answers as one read by copying pages, while another
/// connection writes to it; on PostgreSQL the map is ignored.
#[test]
fn a_mapped_store_reads_what_a_plain_one_reads() {
    let games = corpus();
    let dir = tests_dir();
    for url in test_databases(&dir, "mapped") {
        let plain = Store::open(&url).unwrap();
        plain.import(&games[..400]).unwrap();
        let mapped = Store::open_mapped(&url, 64 << 20).unwrap();
        // Written by the plain store after the mapped one opened: read by the mapped one.
        plain.import(&games[400..800]).unwrap();
        assert_eq!(mapped.count().unwrap(), plain.count().unwrap());
        let ratings = records::store::RatingsCache::default();
        let lookup = records::store::Lookup {
            game: "banqi".into(),
            ..Default::default()
        };
        let (a, b) = (
            plain.explore(&lookup, &ratings).unwrap(),
            mapped.explore(&lookup, &ratings).unwrap(),
        );
        assert!(a.games > 0, "{}", plain.backend());
        assert_eq!(a, b, "{}", plain.backend());
        for id in [1, 400, 800] {
            assert_eq!(mapped.get(id).unwrap(), plain.get(id).unwrap());
        }
    }
}
