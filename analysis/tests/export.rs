//! `anqi export`: the report's dataset alone, whole or in shares, as a real process on real
//! files; every Parquet part checked against the data contract (`schema.json`) and the docs.

use std::path::{Path, PathBuf};

use polars::prelude::*;
use serde_json::Value;

mod tool;
use tool::anqi;

fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("anqi-export-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Games of every game, Banqi between several pairs of players and under two presets.
fn logs(dir: &Path) -> PathBuf {
    tool::simulated_logs(
        dir,
        &[
            &["--games", "120", "--seed", "1"],
            &["--games", "120", "--seed", "2", "--bot", "random,greedy"],
            &[
                "--games", "80", "--seed", "3", "--preset", "taiwan", "--bot", "greedy",
            ],
            &["--games", "30", "--seed", "4", "--game", "three-kingdoms"],
            &[
                "--games", "20", "--seed", "5", "--game", "luzhanqi", "--mode", "dark",
            ],
            &["--games", "20", "--seed", "6", "--game", "xiangqi-3g"],
        ],
    )
}

/// Every Parquet part under `dir`, recursively.
fn parts(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            found.extend(parts(&path));
        } else if path.extension().is_some_and(|e| e == "parquet") {
            found.push(path);
        }
    }
    found
}

/// Every row of every table of a dataset, as text with its table, game and preset (from the
/// path), sorted: two datasets with the same rows give the same list.
fn rows(data: &Path) -> Vec<String> {
    let mut rows = Vec::new();
    for part in parts(data) {
        let relative = part
            .strip_prefix(data)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let folders: Vec<&str> = relative.split('/').collect();
        let df = ParquetReader::new(std::fs::File::open(&part).unwrap())
            .finish()
            .unwrap();
        for i in 0..df.height() {
            let row = df.get_row(i).unwrap();
            rows.push(format!(
                "{} {} {} {:?}",
                folders[0], folders[1], folders[2], row.0
            ));
        }
    }
    rows.sort();
    rows
}

fn schema(data: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(data.join("schema.json")).unwrap()).unwrap()
}

fn contract_type(dtype: &DataType) -> &'static str {
    match dtype {
        DataType::String => "string",
        DataType::UInt32 => "uint32",
        DataType::Int32 => "int32",
        DataType::Int64 => "int64",
        DataType::UInt64 => "uint64",
        DataType::Float64 => "float64",
        DataType::Boolean => "boolean",
        other => panic!("a type the contract does not name: {other:?}"),
    }
}

/// Every part holds exactly its table's columns, in order, of the contract's types; a column
/// the contract says is never null has no null.
fn check_against_contract(data: &Path) {
    let schema = schema(data);
    assert_eq!(schema["schema_version"], 1);
    let tables = schema["tables"].as_array().unwrap();
    let all = parts(data);
    assert!(!all.is_empty());
    for part in all {
        let relative = part
            .strip_prefix(data)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let table_name = relative.split('/').next().unwrap();
        let table = tables
            .iter()
            .find(|t| t["name"] == table_name)
            .unwrap_or_else(|| panic!("{table_name} is not in the contract"));
        let df = ParquetReader::new(std::fs::File::open(&part).unwrap())
            .finish()
            .unwrap();
        let columns = table["columns"].as_array().unwrap();
        let found: Vec<(String, &'static str)> = df
            .columns()
            .iter()
            .map(|c| (c.name().to_string(), contract_type(c.dtype())))
            .collect();
        let expected: Vec<(String, &str)> = columns
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap().to_owned(),
                    c["type"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(found, expected, "{relative}");
        for c in columns.iter().filter(|c| c["nullable"] == false) {
            let name = c["name"].as_str().unwrap();
            assert_eq!(
                df.column(name).unwrap().null_count(),
                0,
                "{relative}: {name}"
            );
        }
    }
}

#[test]
fn shares_of_an_export_are_the_whole_and_follow_the_contract() {
    let dir = temp_dir("shares");
    let logs = logs(&dir);
    let logs = logs.to_str().unwrap();
    let whole = dir.join("whole");
    let (code, text) = anqi(&["export", logs, "-o", whole.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("390 games exported, 0 rejected"), "{text}");
    let shared = dir.join("shared");
    for k in ["1/3", "2/3", "3/3"] {
        let (code, text) = anqi(&["export", logs, "-o", shared.to_str().unwrap(), "--part", k]);
        assert_eq!(code, 0, "{text}");
        assert!(text.contains(&format!("(part {k})")), "{text}");
    }
    // Every table, row for row, Banqi's 戲谷 carry too (a pair's games stay in one share).
    let (a, b) = (rows(&whole), rows(&shared));
    assert!(a.len() > 10_000, "{}", a.len());
    assert_eq!(a, b);
    // Each share's parts are named after it and its run (`part-k2of3-<16 hex>-00000`).
    for part in parts(&shared) {
        let name = part.file_name().unwrap().to_string_lossy().into_owned();
        let fields: Vec<&str> = name.trim_end_matches(".parquet").split('-').collect();
        assert!(
            fields.len() == 4
                && ["k1of3", "k2of3", "k3of3"].contains(&fields[1])
                && fields[2].len() == 16
                && fields[3].len() == 5,
            "{name}"
        );
    }
    // The same share exported again (another run) adds parts beside the first's.
    let before = parts(&shared).len();
    let (code, _) = anqi(&[
        "export",
        logs,
        "-o",
        shared.to_str().unwrap(),
        "--part",
        "1/3",
    ]);
    assert_eq!(code, 0);
    assert!(parts(&shared).len() > before);
    check_against_contract(&whole);
    check_against_contract(&shared);
    // The report writes the same dataset, and the same schema file beside it.
    let report = dir.join("report");
    let (code, text) = anqi(&["report", logs, "-o", report.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    assert_eq!(rows(&report.join("data")), a);
    assert_eq!(schema(&report.join("data")), schema(&whole));
}

/// docs/analysis.md gives every table and column of the contract: name, type, nullability.
#[test]
fn the_docs_give_the_whole_contract() {
    let dir = temp_dir("docs");
    let log = dir.join("one.jsonl");
    let (code, text) = anqi(&["simulate", "--games", "2", "-o", log.to_str().unwrap()]);
    assert_eq!(code, 0, "{text}");
    let data = dir.join("data");
    let (code, text) = anqi(&[
        "export",
        log.to_str().unwrap(),
        "-o",
        data.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{text}");
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/analysis.md"))
        .unwrap();
    let schema = schema(&data);
    assert!(
        docs.contains("`schema_version` 1"),
        "the docs give the version"
    );
    for table in schema["tables"].as_array().unwrap() {
        let name = table["name"].as_str().unwrap();
        let heading = format!("#### `{name}`");
        let at = docs
            .find(&heading)
            .unwrap_or_else(|| panic!("docs/analysis.md has no {heading}"));
        let section = &docs[at + heading.len()..];
        let section = &section[..section.find("####").unwrap_or(section.len())];
        for c in table["columns"].as_array().unwrap() {
            let line = format!(
                "| `{}` | {} | {} |",
                c["name"].as_str().unwrap(),
                c["type"].as_str().unwrap(),
                if c["nullable"] == true { "yes" } else { "no" }
            );
            assert!(section.contains(&line), "{name}: docs lack {line}");
        }
    }
}

#[test]
fn bad_shares_and_other_schemas_are_refused_and_invalid_records_listed() {
    let dir = temp_dir("refused");
    let data = dir.join("data");
    let data = data.to_str().unwrap();
    let log = dir.join("games.jsonl");
    std::fs::write(
        &log,
        "{\"actions\": [\"b8(G)\", \"d8(g)\"]}\nnot json\n{\"actions\": [\"b8(G)\", \"b8(g)\"]}\n",
    )
    .unwrap();
    let log = log.to_str().unwrap();
    for bad in ["0/2", "3/2", "1", "a/b"] {
        let (code, text) = anqi(&["export", log, "-o", data, "--part", bad]);
        assert_eq!(code, 2, "{bad}: {text}");
        assert!(text.contains("a part is K/N"), "{bad}: {text}");
    }
    // One good game, one unreadable, one invalid: exit 1, the two listed, in one share each.
    let mut listed = 0;
    for k in ["1/2", "2/2"] {
        let (code, text) = anqi(&["export", log, "-o", data, "--part", k]);
        assert!(code == 0 || code == 1, "{text}");
        for entry in std::fs::read_dir(data).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name.starts_with(&format!("invalid-k{}of2-", &k[..1])) {
                let text = std::fs::read_to_string(Path::new(data).join(&name)).unwrap();
                listed += text.lines().count() - 1;
            }
        }
    }
    assert_eq!(listed, 2);
    assert_eq!(
        rows(Path::new(data))
            .iter()
            .filter(|r| r.starts_with("games "))
            .count(),
        1
    );
    // A dataset of another schema version is not written into.
    let schema = Path::new(data).join("schema.json");
    std::fs::write(&schema, r#"{"schema_version": 99}"#).unwrap();
    let (code, text) = anqi(&["export", log, "-o", data]);
    assert_eq!(code, 2, "{text}");
    assert!(text.contains("schema version 99"), "{text}");
}

/// A record store is an input too, on either backend: its games exported whole, and in two
/// shares, are the same rows; each game's source names the store and the game's id, never the
/// database's password.
#[test]
fn a_record_store_exports_in_shares() {
    let dir = temp_dir("store");
    let logs = logs(&dir);
    for url in records::store::test_databases(&dir, "export_store") {
        let (code, text) = anqi(&["import", logs.to_str().unwrap(), "--database", &url]);
        assert_eq!(code, 0, "{text}");
        let input = if url.starts_with("postgres") {
            url.clone()
        } else {
            format!("sqlite:{url}")
        };
        let backend = if url.starts_with("postgres") {
            "pg"
        } else {
            "sqlite"
        };
        let whole = dir.join(format!("{backend}-whole"));
        let (code, text) = anqi(&["export", &input, "-o", whole.to_str().unwrap()]);
        assert_eq!(code, 0, "{text}");
        assert!(text.contains("390 games exported"), "{text}");
        let shared = dir.join(format!("{backend}-shared"));
        for k in ["1/2", "2/2"] {
            let (code, text) = anqi(&[
                "export",
                &input,
                "-o",
                shared.to_str().unwrap(),
                "--part",
                k,
            ]);
            assert_eq!(code, 0, "{text}");
        }
        let whole_rows = rows(&whole);
        assert_eq!(whole_rows, rows(&shared), "{backend}");
        let sources: Vec<&String> = whole_rows
            .iter()
            .filter(|r| r.starts_with("games "))
            .collect();
        assert_eq!(sources.len(), 390);
        if let Some((_, password)) = url
            .strip_prefix("postgres://")
            .and_then(|rest| rest.split_once('@'))
            .and_then(|(user, _)| user.split_once(':'))
        {
            assert!(
                sources
                    .iter()
                    .all(|r| r.contains(":***@") && !r.contains(&format!(":{password}@"))),
                "{}",
                sources[0]
            );
        } else {
            assert!(
                sources.iter().all(|r| r.contains("export_store.db#")),
                "{}",
                sources[0]
            );
        }
    }
}
