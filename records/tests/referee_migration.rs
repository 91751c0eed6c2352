//! A game in play when the ledger gained its games' life (migration 000007) keeps being
//! played: on SQLite and on PostgreSQL, a ledger made by migrations 1–6 holds a dealt Banqi
//! game with two plies; the store opened by this version migrates it, and the referee plays
//! on, resigns it and stores it.
#![cfg(feature = "referee")]

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use records::core::rules::parts::*;
use records::games::banqi::Banqi;
use records::referee::{Referee, Request, Settings};
use records::seal::{Binding, Keys};
use records::store::{Store, scratch_postgres_database};

#[path = "common/ledger.rs"]
mod ledger;

const BEFORE: [&str; 6] = [
    "2026-11-22-000001_create_games",
    "2026-11-23-000002_seats",
    "2026-11-24-000003_ledger",
    "2026-11-24-000004_lz4",
    "2026-11-25-000005_drop_actions",
    "2026-11-27-000006_players",
];

/// The schema of migrations 1–6, as diesel would have recorded them, and one game in play
/// with two committed plies, as the referee of that version wrote it.
fn older_ledger(conn: &mut impl SimpleConnection, backend: &str, token_keys: &Keys) -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations");
    conn.batch_execute(
        "CREATE TABLE __diesel_schema_migrations (version VARCHAR(50) PRIMARY KEY NOT NULL, \
         run_on TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP);",
    )
    .unwrap();
    for name in BEFORE {
        let up = std::fs::read_to_string(format!("{dir}/{backend}/{name}/up.sql")).unwrap();
        conn.batch_execute(&up).unwrap();
        let version: String = name.chars().take(17).filter(char::is_ascii_digit).collect();
        conn.batch_execute(&format!(
            "INSERT INTO __diesel_schema_migrations (version) VALUES ('{version}');"
        ))
        .unwrap();
    }
    let dealt =
        records::core::play::deal::<Banqi>(None, &Default::default(), vec![], Some(11), None)
            .unwrap();
    let binding = Binding {
        game: "banqi",
        preset: "tcga",
        game_id: "0123456789abcdef0123456789abcdef",
        seat: None,
    };
    let sealed = token_keys.seal::<Banqi>(binding, &dealt.hidden);
    // Two plies: the first two flips any deal allows.
    let rules = Banqi::PRESETS[0].ruleset;
    let start = Banqi::start(&rules, Some(&dealt.hidden)).unwrap();
    let mut m = <Banqi as records::core::rules::Game>::Match::from_position(rules, start);
    let mut plies = Vec::new();
    for _ in 0..2 {
        let mut legal = Vec::new();
        m.legal_actions(&mut legal);
        let action = Banqi::reveal(legal[0], m.position(), Some(&dealt.hidden)).unwrap();
        m.play(&action).unwrap();
        plies.push(action.to_string());
    }
    conn.batch_execute(&format!(
        "INSERT INTO ledger (game_id, game, preset, options, players, sealed_truth, seed, plies, \
         result, stored_game, created_at, updated_at) VALUES ('{}', 'banqi', 'tcga', '{{}}', \
         '[\"east\",\"west\"]', '{sealed}', NULL, 2, NULL, NULL, 0, {}); \
         INSERT INTO ledger_actions (game_id, ply, action) VALUES ('{0}', 0, '{}'), ('{0}', 1, '{}');",
        binding.game_id,
        records::store::unix_now(),
        plies[0],
        plies[1]
    ))
    .unwrap();
    token_keys.token(Binding {
        seat: Some("player1"),
        ..binding
    })
}

fn plays_on(url: &str, keys: Keys, token: &str) {
    let referee = Referee::new(Store::open(url).unwrap(), keys, Settings::default());
    let game_id = "0123456789abcdef0123456789abcdef";
    let life = referee
        .open::<Banqi, _>(game_id, token, |game| {
            assert_eq!(game.plies(), 2, "{url}: both plies kept");
            let life = game.life();
            // No clock, no claims, no events; every seat has moved.
            assert!(life.clock.is_none() && life.claimable_from_ms.is_none());
            assert!(!life.abortable);
            let listed = game.actions(2)?;
            game.play(&listed.actions[0], 2)?;
            game.request(Request::Resign, None)
        })
        .unwrap();
    assert_eq!(life.status, "ended", "{url}");
    let store = Store::open(url).unwrap();
    let (row, _) = store.ledger_game(game_id).unwrap().unwrap();
    let (_, record) = store.get(row.stored_game.unwrap()).unwrap().unwrap();
    assert_eq!(record.actions.len(), 3);
    assert_eq!(
        serde_json::to_value(record.result).unwrap(),
        serde_json::json!({"outcome": "player2", "reason": "resignation"})
    );
}

#[test]
fn a_game_in_play_before_the_games_life_plays_on_sqlite() {
    let keys = Keys::parse(ledger::KEY).unwrap();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-migration");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ledger-v6.db");
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    let url = path.display().to_string();
    let mut conn = SqliteConnection::establish(&url).unwrap();
    let token = older_ledger(&mut conn, "sqlite", &keys);
    drop(conn);
    plays_on(&url, keys, &token);
}

#[test]
fn a_game_in_play_before_the_games_life_plays_on_postgres() {
    let Ok(admin) = std::env::var("ANQI_TEST_POSTGRES_URL") else {
        assert!(
            std::env::var_os("ANQI_REQUIRE_POSTGRES").is_none(),
            "ANQI_REQUIRE_POSTGRES is set but ANQI_TEST_POSTGRES_URL is not"
        );
        return;
    };
    let keys = Keys::parse(ledger::KEY).unwrap();
    let url = scratch_postgres_database(&admin, "anqi_ledger_v6").unwrap();
    let mut conn = PgConnection::establish(&url).unwrap();
    let token = older_ledger(&mut conn, "postgres", &keys);
    drop(conn);
    plays_on(&url, keys, &token);
}
