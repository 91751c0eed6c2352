//! The dataset's `explorer` table against the store's explorer: the same simulated games,
//! imported into a store and exported as Parquet; summed by node and action, the table's rows
//! are what `anqi explore` (the store, `GET /v1/explorer`'s answer) says, along the most
//! played line from the start, for a two-seat and a three-seat game.

mod tool;

use std::collections::HashMap;
use std::path::Path;

use polars::prelude::*;
use serde_json::Value;
use tool::{anqi, simulated_logs};

/// (games, wins, draws, losses, next) by (node, action), summed from the Parquet table.
type Sums = HashMap<(String, String), (i64, i64, i64, i64, String)>;

fn sums(data: &Path) -> Sums {
    let glob = data.join("explorer").join("**").join("*.parquet");
    let df = LazyFrame::scan_parquet(
        PlRefPath::new(glob.display().to_string()),
        ScanArgsParquet {
            hive_options: HiveOptions::new_enabled(),
            ..Default::default()
        },
    )
    .unwrap()
    .group_by([col("node"), col("action")])
    .agg([
        len().cast(DataType::Int64).alias("games"),
        col("score")
            .eq(lit(1.0))
            .sum()
            .cast(DataType::Int64)
            .alias("wins"),
        col("score")
            .eq(lit(0.5))
            .sum()
            .cast(DataType::Int64)
            .alias("draws"),
        col("score")
            .eq(lit(0.0))
            .sum()
            .cast(DataType::Int64)
            .alias("losses"),
        col("next").first().alias("next"),
    ])
    .collect()
    .unwrap();
    let text = |name: &str| -> Vec<String> {
        df.column(name)
            .unwrap()
            .str()
            .unwrap()
            .iter()
            .map(|v| v.unwrap().to_owned())
            .collect()
    };
    let int = |name: &str| -> Vec<i64> {
        df.column(name)
            .unwrap()
            .i64()
            .unwrap()
            .iter()
            .map(|v| v.unwrap())
            .collect()
    };
    let (nodes, actions, next) = (text("node"), text("action"), text("next"));
    let (games, wins, draws, losses) = (int("games"), int("wins"), int("draws"), int("losses"));
    (0..df.height())
        .map(|i| {
            (
                (nodes[i].clone(), actions[i].clone()),
                (games[i], wins[i], draws[i], losses[i], next[i].clone()),
            )
        })
        .collect()
}

#[test]
fn the_datasets_explorer_table_sums_to_the_stores_explorer() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-explorer-dataset");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let logs = simulated_logs(
        &dir,
        &[
            &["--games", "300", "--seed", "11", "--bot", "greedy,random"],
            &["--games", "60", "--seed", "12", "--game", "three-kingdoms"],
        ],
    );
    let logs = logs.to_str().unwrap();
    let db = dir.join("store.db").display().to_string();
    let (code, out) = anqi(&["import", logs, "--database", &db]);
    assert_eq!(code, 0, "{out}");
    let data = dir.join("data");
    let (code, out) = anqi(&["export", logs, "-o", data.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    let sums = sums(&data);
    for (game, preset) in [("banqi", "tcga"), ("three-kingdoms", "three-kingdoms")] {
        let mut line: Vec<String> = Vec::new();
        let mut compared = 0;
        for _ in 0..4 {
            let (code, out) = anqi(&[
                "explore",
                "--database",
                &db,
                "--game",
                game,
                "--preset",
                preset,
                "--actions",
                &line.join(","),
                "--json",
            ]);
            assert_eq!(code, 0, "{out}");
            let answer: Value = serde_json::from_str(&out[out.find('{').unwrap()..]).unwrap();
            let node = answer["node"].as_str().unwrap();
            let moves = answer["moves"].as_array().unwrap();
            let in_table: Vec<_> = sums.keys().filter(|(n, _)| n == node).collect();
            assert_eq!(in_table.len(), moves.len(), "{game} {line:?}: {answer}");
            for m in moves {
                let action = m["action"].as_str().unwrap().to_owned();
                let (games, wins, draws, losses, next) = &sums[&(node.to_owned(), action)];
                let stored = |k: &str| m[k].as_i64().unwrap();
                assert_eq!(
                    (*games, *wins, *draws, *losses, next.as_str()),
                    (
                        stored("games"),
                        stored("wins"),
                        stored("draws"),
                        stored("losses"),
                        m["next"].as_str().unwrap()
                    ),
                    "{game} {line:?} {m}"
                );
                compared += 1;
            }
            match moves.first() {
                Some(most) => line.push(most["action"].as_str().unwrap().to_owned()),
                None => break,
            }
        }
        assert!(compared > 20, "{game}: {compared} actions compared");
    }
}
