//! The record store's migrations keep every stored game: a database written by the first
//! version of `anqi import` (`tests/data/store-v1.sqlite.gz`: 68 games, players and points on
//! the games table) is opened by this version, on SQLite as it is and on PostgreSQL rebuilt
//! with the first version's schema, and every game comes back with its seats, sides and
//! points, under the same id and content hash.
//!
//! The fixture was made by `anqi import` of commit da53204 (the last before the seats table)
//! from the docs' examples, 40 corpus games and 24 simulated games with layouts.
#![cfg(feature = "store")]

use std::io::Read;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use records::core::Record;
use records::store::{GameFilter, Imported, Incoming, Store, scratch_postgres_database};

mod v1 {
    diesel::table! {
        games (id) {
            id -> BigInt,
            content_hash -> Text,
            game -> Text,
            preset -> Text,
            options -> Text,
            player1 -> Text,
            player2 -> Text,
            layout -> Nullable<Text>,
            start -> Nullable<Text>,
            actions -> Text,
            plies -> Integer,
            stated_outcome -> Nullable<Text>,
            stated_reason -> Nullable<Text>,
            derived_outcome -> Nullable<Text>,
            derived_reason -> Nullable<Text>,
            result -> Text,
            reason -> Nullable<Text>,
            first_flips -> Nullable<Text>,
            doubled -> Bool,
            points1 -> Integer,
            points2 -> Integer,
            played_on -> Nullable<Text>,
            source -> Text,
            imported_at -> Text,
            record -> Text,
        }
    }
}

/// A game row of the first version.
#[derive(Queryable, Insertable, Clone, Debug)]
#[diesel(table_name = v1::games)]
struct OldGame {
    id: i64,
    content_hash: String,
    game: String,
    preset: String,
    options: String,
    player1: String,
    player2: String,
    layout: Option<String>,
    start: Option<String>,
    actions: String,
    plies: i32,
    stated_outcome: Option<String>,
    stated_reason: Option<String>,
    derived_outcome: Option<String>,
    derived_reason: Option<String>,
    result: String,
    reason: Option<String>,
    first_flips: Option<String>,
    doubled: bool,
    points1: i32,
    points2: i32,
    played_on: Option<String>,
    source: String,
    imported_at: String,
    record: String,
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-migration");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    path
}

/// The first version's database, as a fresh file named `name` (each test its own: tests run in
/// parallel, and one's fresh copy must not replace a file another has open).
fn v1_sqlite(name: &str) -> std::path::PathBuf {
    let gz = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/store-v1.sqlite.gz"
    );
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(gz).unwrap())
        .read_to_end(&mut bytes)
        .unwrap();
    let path = scratch(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn old_games(path: &std::path::Path) -> Vec<OldGame> {
    let mut conn = SqliteConnection::establish(path.to_str().unwrap()).unwrap();
    v1::games::table
        .order(v1::games::id)
        .load(&mut conn)
        .unwrap()
}

/// Checks that every old game is in the migrated store, whole.
fn check(store: &Store, old: &[OldGame]) {
    let backend = store.backend();
    assert_eq!(store.count().unwrap(), old.len() as i64, "{backend}");
    for g in old {
        let (row, record) = store.get(g.id).unwrap().expect("every game is still there");
        assert_eq!(row.content_hash, g.content_hash, "{backend} {}", g.id);
        assert_eq!(
            serde_json::to_value(&record).unwrap(),
            serde_json::from_str::<serde_json::Value>(&g.record).unwrap()
        );
        assert_eq!(row.seats.len(), 2);
        assert_eq!(
            (row.seats[0].name.as_str(), row.seats[1].name.as_str()),
            (g.player1.as_str(), g.player2.as_str()),
            "{backend} {}",
            g.id
        );
        assert_eq!(
            (row.seats[0].points, row.seats[1].points),
            (g.points1, g.points2)
        );
        assert_eq!(
            (row.player1.as_str(), row.points2),
            (g.player1.as_str(), g.points2)
        );
        // The sides the migration could not know were filled in by replaying the record.
        let summary = records::games::summarize(&record).unwrap();
        for (seat, expected) in row.seats.iter().zip(&summary.seats) {
            assert_eq!(seat.side.as_deref(), expected.side, "{backend} {}", g.id);
            assert_eq!(
                seat.points, expected.points as i32,
                "points credited from the history"
            );
        }
        assert_eq!(
            (row.first_flips.as_deref(), row.doubled),
            (g.first_flips.as_deref(), g.doubled)
        );
    }
    assert!(
        old.iter()
            .any(|g| g.layout.is_some() && g.record.contains("\"a1\"")),
        "the fixture has flips whose identity only the layout gives"
    );
    // The players' counts were made from the stored games: finished, every seat named.
    let mut expected: std::collections::BTreeMap<(String, String, String, String, String), u64> =
        Default::default();
    for g in old {
        let record: Record = serde_json::from_str(&g.record).unwrap();
        let (row, _) = store.get(g.id).unwrap().unwrap();
        for seat in &row.seats {
            assert_eq!(
                seat.named,
                record.players.len() > seat.seat.index(),
                "{backend}"
            );
        }
        if g.result != "ongoing" && record.players.len() >= 2 {
            *expected
                .entry((
                    g.game.clone(),
                    g.preset.clone(),
                    g.player1.clone(),
                    g.player2.clone(),
                    g.result.clone(),
                ))
                .or_default() += 1;
        }
    }
    assert!(expected.len() > 3, "the fixture has named finished games");
    let mut presets: Vec<(String, String)> = expected
        .keys()
        .map(|k| (k.0.clone(), k.1.clone()))
        .collect();
    presets.dedup();
    let mut found = std::collections::BTreeMap::new();
    for (game, preset) in &presets {
        for m in store.meetings(game, preset).unwrap() {
            let key = (
                game.clone(),
                preset.clone(),
                m.players[0].clone(),
                m.players[1].clone(),
                m.outcome.to_string(),
            );
            found.insert(key, m.games);
        }
    }
    assert_eq!(found, expected, "{backend}");
    // Re-importing the same records finds them all: the content hash did not change.
    let again: Vec<Incoming> = old
        .iter()
        .map(|g| Incoming {
            record: serde_json::from_str::<Record>(&g.record).unwrap(),
            source: "again".into(),
        })
        .collect();
    for (g, outcome) in old.iter().zip(store.import(&again).unwrap()) {
        assert_eq!(
            outcome,
            Imported::Duplicate {
                id: g.id,
                hash: g.content_hash.clone()
            },
            "{backend}"
        );
    }
    // The player filter reads the seats.
    let name = &old[0].player2;
    let listed = store
        .list(&GameFilter {
            player: Some(name.clone()),
            limit: 1000,
            ..GameFilter::default()
        })
        .unwrap();
    let expected = old
        .iter()
        .filter(|g| &g.player1 == name || &g.player2 == name)
        .count();
    assert_eq!(listed.len(), expected, "{backend}");
    // And new games go in with their seats, after the old ids.
    let mut fresh = Record::new("banqi", "tcga", vec!["a1(K)".into(), "b1(k)".into()]);
    fresh.players = vec!["new one".into(), "new two".into()];
    let Imported::Stored { id, .. } = store
        .import(&[Incoming {
            record: fresh,
            source: "new".into(),
        }])
        .unwrap()[0]
        .clone()
    else {
        panic!("a new record is stored");
    };
    assert!(id > old.iter().map(|g| g.id).max().unwrap());
    let (row, _) = store.get(id).unwrap().unwrap();
    assert_eq!(row.seats[0].side.as_deref(), Some("red"));
}

#[test]
fn a_first_version_sqlite_database_keeps_every_game() {
    let path = v1_sqlite("v1-1.db");
    let old = old_games(&path);
    assert_eq!(old.len(), 68);
    let store = Store::open(path.to_str().unwrap()).unwrap();
    check(&store, &old);
    // Opening again is a no-op.
    drop(store);
    check_reopen(path.to_str().unwrap(), old.len() + 1);
    // Undoing the migration that dropped the games' `actions` gives the column back as it
    // was, from each record.
    let mut conn = SqliteConnection::establish(path.to_str().unwrap()).unwrap();
    conn.batch_execute(DROP_ACTIONS_DOWN_SQLITE).unwrap();
    check_actions_back(diesel::sql_query(ACTIONS).load(&mut conn).unwrap(), &old);
}

const DROP_ACTIONS_DOWN_SQLITE: &str =
    include_str!("../../migrations/sqlite/2026-11-25-000005_drop_actions/down.sql");
const DROP_ACTIONS_DOWN_POSTGRES: &str =
    include_str!("../../migrations/postgres/2026-11-25-000005_drop_actions/down.sql");

/// Every old game's `actions` column (`rows`, after the down migration) is what the first
/// version wrote.
fn check_actions_back(rows: Vec<ActionsRow>, old: &[OldGame]) {
    for g in old {
        let row = rows
            .iter()
            .find(|r| r.id == g.id)
            .expect("the game is there");
        assert_eq!(row.actions, g.actions, "game {}", g.id);
    }
}

const ACTIONS: &str = "SELECT id, actions FROM games ORDER BY id";

#[derive(QueryableByName)]
struct ActionsRow {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    id: i64,
    #[diesel(sql_type = diesel::sql_types::Text)]
    actions: String,
}

fn check_reopen(url: &str, games: usize) {
    let store = Store::open(url).unwrap();
    assert_eq!(store.count().unwrap(), games as i64);
}

#[test]
fn a_first_version_postgres_database_keeps_every_game() {
    let Ok(admin) = std::env::var("ANQI_TEST_POSTGRES_URL") else {
        assert!(
            std::env::var_os("ANQI_REQUIRE_POSTGRES").is_none(),
            "ANQI_REQUIRE_POSTGRES is set but ANQI_TEST_POSTGRES_URL is not"
        );
        eprintln!(
            "note: ANQI_TEST_POSTGRES_URL is not set: the PostgreSQL migration is not tested"
        );
        return;
    };
    let old = old_games(&v1_sqlite("v1-2.db"));
    let url = scratch_postgres_database(&admin, "anqi_migration_v1").unwrap();
    // The first version's schema, exactly as its migration made it, and its games.
    let mut conn = PgConnection::establish(&url).unwrap();
    conn.batch_execute(include_str!(
        "../../migrations/postgres/2026-11-22-000001_create_games/up.sql"
    ))
    .unwrap();
    conn.batch_execute(
        "CREATE TABLE __diesel_schema_migrations (version VARCHAR(50) PRIMARY KEY NOT NULL, \
         run_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP); \
         INSERT INTO __diesel_schema_migrations (version) VALUES ('20261122000001');",
    )
    .unwrap();
    diesel::insert_into(v1::games::table)
        .values(&old)
        .execute(&mut conn)
        .unwrap();
    conn.batch_execute(
        "SELECT setval(pg_get_serial_sequence('games', 'id'), (SELECT max(id) FROM games));",
    )
    .unwrap();
    drop(conn);
    let store = Store::open(&url).unwrap();
    check(&store, &old);
    drop(store);
    check_reopen(&url, old.len() + 1);
    let mut conn = PgConnection::establish(&url).unwrap();
    conn.batch_execute(DROP_ACTIONS_DOWN_POSTGRES).unwrap();
    check_actions_back(diesel::sql_query(ACTIONS).load(&mut conn).unwrap(), &old);
}
