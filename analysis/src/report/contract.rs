//! The data contract: every table `anqi report` and `anqi export` write as Parquet, column by
//! column, versioned. docs/analysis.md gives the same tables to the reader; a test checks
//! that every Parquet part written matches this, and that the docs name every column.
//!
//! A change of a column (its name, type, meaning or nullability), or a removed column, is a
//! new [`SCHEMA_VERSION`]; a new table or a column added at the end is not.

use std::path::Path;

use serde::Serialize;

/// The version of the data's schema, written beside the data (`schema.json`).
pub const SCHEMA_VERSION: u32 = 1;

/// The file beside the tables' folders that says which schema they follow. Spark and DuckDB
/// read a table from its folder, so a file at the top is not taken for data.
pub const SCHEMA_FILE: &str = "schema.json";

/// One column of a table: its name, its Parquet (Arrow) type, whether it may be null, and
/// what it holds.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ColumnSpec {
    pub name: &'static str,
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub nullable: bool,
    pub meaning: &'static str,
}

/// One table: a folder of Parquet parts in hive layout (`<name>/game=<g>/preset=<p>/`).
#[derive(Clone, Copy, Debug, Serialize)]
pub struct TableSpec {
    pub name: &'static str,
    /// The games whose records give rows (`all`, or a game's name).
    pub games: &'static str,
    pub meaning: &'static str,
    pub columns: &'static [ColumnSpec],
}

pub const fn col(
    name: &'static str,
    kind: &'static str,
    nullable: bool,
    meaning: &'static str,
) -> ColumnSpec {
    ColumnSpec {
        name,
        kind,
        nullable,
        meaning,
    }
}

pub const SOURCE: ColumnSpec = col(
    "source",
    "string",
    false,
    "where the record was read: the file and the game's number in it (`games.jsonl#12`), or the store, the stored game's id and its own source (`postgres://…#7 (games.jsonl#12)`)",
);
pub const VARIANT: ColumnSpec = col(
    "variant",
    "string",
    false,
    "the preset, followed by the record's option overrides as JSON when it has some (`tcga {\"no_progress\":180}`)",
);
pub const SCORE: &str = "the seat's score: 1 alone in first place, ½ a shared first place (a draw), 0 a loss; for three seats the share of places beaten; null while unfinished";

/// The tables of every game. With each game's own ([`Tool::TABLES`](crate::games::Tool::TABLES)),
/// in the registry's order, they are every table of the dataset ([`tables`]), in the order
/// docs/analysis.md gives them. The hive partition columns `game` and `preset` are in the
/// folders' names, not in the files: every table has them when read as a dataset.
const COMMON: &[TableSpec] = &[
    TableSpec {
        name: "games",
        games: "all",
        meaning: "one row per valid game",
        columns: &[
            SOURCE,
            VARIANT,
            col(
                "seats",
                "uint32",
                false,
                "the number of seats: 2, or 3 (Three Kingdoms)",
            ),
            col(
                "outcome",
                "string",
                true,
                "the outcome code: `player1`, `player2`, `draw`, or places for three seats (`player2>player1=player3`); null while unfinished",
            ),
            col(
                "reason",
                "string",
                true,
                "the reason code of the ending (`elimination`, `no_move`, `no_progress`, `repetition` …); null while unfinished or when a stated result gives none",
            ),
            col("plies", "uint32", false, "the number of actions"),
            col(
                "date",
                "string",
                true,
                "the day it was played (`2022-01-13`), from the record's `date`; null when not known",
            ),
            col(
                "period",
                "string",
                false,
                "when it was played, as the players' ratings over time go: its month (`2022-01`), or when undated its hundred in the input (`games 101-200`)",
            ),
        ],
    },
    TableSpec {
        name: "seats",
        games: "all",
        meaning: "one row per seat of a valid game",
        columns: &[
            SOURCE,
            VARIANT,
            col("seat", "uint32", false, "1 for the first mover, 2, 3"),
            col(
                "name",
                "string",
                false,
                "the player's name (`player 1` … when the record has none)",
            ),
            col(
                "side",
                "string",
                true,
                "the side the seat played (a colour, a faction); null while unknown (nothing flipped yet)",
            ),
            col(
                "points",
                "uint32",
                false,
                "points won (棋點: the captured pieces' points)",
            ),
            col(
                "place",
                "uint32",
                true,
                "1 first; a shared first place is a draw; null while unfinished",
            ),
            col("score", "float64", true, SCORE),
            col(
                "named",
                "boolean",
                false,
                "whether the record names the player (false: `name` is a stand-in, `player 1` …); ratings are of named players only",
            ),
        ],
    },
    TableSpec {
        name: "explorer",
        games: "all",
        meaning: "the opening explorer's counts, one game each: one row per ply of a finished game's first 16, as every seat saw it; summed by `node` and `action` they are `GET /v1/explorer`'s",
        columns: &[
            SOURCE,
            VARIANT,
            col(
                "ply",
                "uint32",
                false,
                "plies played before it (0: the first action)",
            ),
            col(
                "seat",
                "uint32",
                false,
                "the seat that played it: 1 for the first mover, 2, 3",
            ),
            col(
                "node",
                "string",
                false,
                "the public position it was played from, with the history its rules read, in its variant: 16 hex digits, as `GET /v1/explorer` names it",
            ),
            col(
                "action",
                "string",
                false,
                "the action as every seat saw it: a flip with the piece it revealed (`b6(K)`), a move, an attack with the referee's announcement (`c6-c7:win`)",
            ),
            col(
                "next",
                "string",
                false,
                "the public position it led to (16 hex digits)",
            ),
            col(
                "score",
                "float64",
                false,
                "for the seat that played it: 1 first place alone, ½ first place shared (a draw), 0 a lower place",
            ),
            col(
                "points",
                "int64",
                false,
                "that seat's points at the end (棋點)",
            ),
            col(
                "coin_stakes",
                "int64",
                false,
                "games played for coins: the stakes that seat won (+1, +2 doubled) or paid (−1, −2); 0 otherwise",
            ),
            col(
                "coin_margins",
                "int64",
                false,
                "games played for coins: the winner's point margin times the double, won (+) or paid (−); at a table of stake S and bonus B the seat's coins are S × coin_stakes + B × coin_margins",
            ),
            col(
                "shared_start",
                "boolean",
                false,
                "whether every game of the variant starts from the same public position (not where each game's setup is public and its own): then the rows at ply 0 are the variant's start",
            ),
        ],
    },
];

/// Every table of the dataset: the common ones, then each game's.
pub fn tables() -> impl Iterator<Item = &'static TableSpec> {
    COMMON.iter().chain(crate::games::tables())
}

/// The table named `name`, if the contract has it.
pub fn table(name: &str) -> Option<&'static TableSpec> {
    tables().find(|t| t.name == name)
}

/// Writes `schema.json` into `data`: the version and every table's columns.
pub fn write_schema(data: &Path) -> std::io::Result<()> {
    let schema = serde_json::json!({
        "schema_version": SCHEMA_VERSION,
        "partitioned_by": ["game", "preset"],
        "tables": tables().collect::<Vec<_>>(),
    });
    std::fs::write(
        data.join(SCHEMA_FILE),
        serde_json::to_string_pretty(&schema).expect("the contract serialises"),
    )
}
