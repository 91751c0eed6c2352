//! 戲谷 tables in the record store (issue 61), on real SQLite and real PostgreSQL: a table is
//! opened with its first game, moves on by compare-and-swap (of two instances taking the same
//! step exactly one does), keeps each game's settlement once, and survives the store being
//! opened again.
#![cfg(feature = "store")]

use records::core::{Outcome, Table};
use records::referee::table::{Coins, TableSettlement, Terms};
use records::store::{Settled, Store, TableGameRow, TableRow, TableStep, test_databases};

fn urls(name: &str) -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-store-tables");
    test_databases(&dir, name)
}

const TERMS: Terms = Terms {
    table: Table {
        stake: 100,
        bonus_per_point: 5,
    },
    scene_fee: 0,
};

fn game(number: i32, game_id: &str, chairs: &str) -> TableGameRow {
    TableGameRow {
        table_id: "t1".into(),
        number,
        game_id: game_id.into(),
        chairs: chairs.into(),
        settlement: None,
        stored_game: None,
    }
}

#[test]
fn a_table_moves_on_once_per_step_and_outlives_its_store() {
    for url in urls("store_tables") {
        let store = Store::open(&url).unwrap();
        let mut coins = Coins::default();
        let table = TableRow {
            table_id: "t1".into(),
            terms: r#"{"preset":"gametower","stake":100,"bonus_per_point":5}"#.into(),
            players: r#"["ann","bo"]"#.into(),
            coins: serde_json::to_string(&coins).unwrap(),
            game_id: "g1".into(),
            closed: None,
            version: 0,
            created_at: 1_700_000_000,
            updated_at: 1_700_000_000,
        };
        store.table_open(&table, &game(1, "g1", "[0,1]")).unwrap();
        assert_eq!(store.table_row("t1").unwrap().as_ref(), Some(&table));
        // The first game is drawn, and both carry it: 0 to ann, then 255 to bo, as seed 002.
        let drawn = coins
            .settle(
                TERMS,
                "draw".parse::<Outcome>().unwrap(),
                [3, 4],
                false,
                [0, 0],
                [0, 1],
            )
            .unwrap();
        coins.answer(0, true).unwrap();
        coins.answer(1, true).unwrap();
        let drawn_json = serde_json::to_string(&drawn).unwrap();
        let coins_json = serde_json::to_string(&coins).unwrap();
        let next = game(2, "g2", "[1,0]");
        let step = TableStep {
            coins: &coins_json,
            closed: None,
            settled: Some(Settled {
                number: 1,
                settlement: &drawn_json,
                stored_game: Some(7),
            }),
            next: Some(&next),
            at_ms: 1_700_000_100_000,
        };
        assert!(store.table_step("t1", 0, &step).unwrap(), "{url}");
        // Another instance taking the same step from the same version: refused, nothing written.
        assert!(!store.table_step("t1", 0, &step).unwrap(), "{url}");
        let games = store.table_games("t1").unwrap();
        assert_eq!(games.len(), 2, "{url}: the next game once");
        assert_eq!(games[0].settlement.as_deref(), Some(drawn_json.as_str()));
        assert_eq!(
            (games[0].stored_game, games[1].game_id.as_str()),
            (Some(7), "g2")
        );
        let row = store.table_row("t1").unwrap().unwrap();
        assert_eq!((row.version, row.game_id.as_str()), (1, "g2"));
        // The store opened again (a restart): the table and its coins are there.
        drop(store);
        let store = Store::open(&url).unwrap();
        let row = store.table_row("t1").unwrap().unwrap();
        let mut coins: Coins = serde_json::from_str(&row.coins).unwrap();
        assert_eq!(coins.draws_carried, 1);
        let won = coins
            .settle(
                TERMS,
                "player1".parse::<Outcome>().unwrap(),
                [24, 13],
                false,
                [0, 0],
                [1, 0],
            )
            .unwrap();
        assert_eq!((won.settlement.amount, coins.balances), (255, [-255, 255]));
        let won_json = serde_json::to_string(&won).unwrap();
        let coins_json = serde_json::to_string(&coins).unwrap();
        let close = TableStep {
            coins: &coins_json,
            closed: Some("left"),
            settled: Some(Settled {
                number: 2,
                settlement: &won_json,
                stored_game: None,
            }),
            next: None,
            at_ms: 1_700_000_200_000,
        };
        assert!(store.table_step("t1", 1, &close).unwrap());
        // A closed table takes no step, whatever version it is asked at.
        assert!(!store.table_step("t1", 2, &close).unwrap());
        let games = store.table_games("t1").unwrap();
        let settled: TableSettlement =
            serde_json::from_str(games[1].settlement.as_deref().unwrap()).unwrap();
        assert_eq!(settled.settlement.formula, "(100 + 11 × 5) × 1 + 100 = 255");
        let row = store.table_row("t1").unwrap().unwrap();
        assert_eq!((row.closed.as_deref(), row.version), (Some("left"), 2));
        assert_eq!(store.table_row("t2").unwrap(), None);
    }
}
