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

const fn col(
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

const SOURCE: ColumnSpec = col(
    "source",
    "string",
    false,
    "where the record was read: the file and the game's number in it (`games.jsonl#12`), or the store, the stored game's id and its own source (`postgres://…#7 (games.jsonl#12)`)",
);
const VARIANT: ColumnSpec = col(
    "variant",
    "string",
    false,
    "the preset, followed by the record's option overrides as JSON when it has some (`tcga {\"no_progress\":180}`)",
);
const SCORE: &str = "the seat's score: 1 alone in first place, ½ a shared first place (a draw), 0 a loss; for three seats the share of places beaten; null while unfinished";

/// Every table of the dataset, in the order docs/analysis.md gives them. The hive partition
/// columns `game` and `preset` are in the folders' names, not in the files: every table has
/// them when read as a dataset.
pub const TABLES: &[TableSpec] = &[
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
            col("points", "uint32", false, "points won (Banqi: 棋點)"),
            col(
                "place",
                "uint32",
                true,
                "1 first; a shared first place is a draw; null while unfinished",
            ),
            col("score", "float64", true, SCORE),
        ],
    },
    TableSpec {
        name: "banqi_games",
        games: "banqi",
        meaning: "Banqi's facts of each game",
        columns: &[
            SOURCE,
            VARIANT,
            col(
                "p1_score",
                "float64",
                true,
                "player 1's score (1, ½, 0); null while unfinished",
            ),
            col(
                "p1_color",
                "string",
                true,
                "player 1's colour (`red`, `black`); null before the first flip",
            ),
            col("points1", "uint32", false, "player 1's points (棋點)"),
            col("points2", "uint32", false, "player 2's points"),
            col(
                "margin",
                "int32",
                true,
                "the winner's points less the loser's; null unless decided",
            ),
            col(
                "first_square",
                "string",
                true,
                "the square of the first flip (`a1` … `d8`); null without flips",
            ),
            col(
                "first_piece",
                "string",
                true,
                "the piece it showed (`K` … `p`)",
            ),
            col(
                "second_square",
                "string",
                true,
                "the square of the second flip",
            ),
            col("second_piece", "string", true, "the piece it showed"),
            col(
                "doubled",
                "boolean",
                false,
                "whether the opening doubles the stake (門棋加倍)",
            ),
            col(
                "draws_carried",
                "uint32",
                false,
                "draws between the same players carried into this game (和棋續盤), in input order",
            ),
            col(
                "bonus",
                "uint64",
                true,
                "the 戲谷 bonus in coins; null when nothing is paid",
            ),
            col(
                "settlement",
                "uint64",
                true,
                "the coins the loser pays; null when nothing is paid",
            ),
        ],
    },
    TableSpec {
        name: "banqi_flips",
        games: "banqi",
        meaning: "one row per Banqi flip (a dark capture's reveal is not a flip)",
        columns: &[
            col(
                "number",
                "uint32",
                false,
                "the flip's number in its game, 1 first",
            ),
            col("ply", "uint32", false, "the ply it was, 1 first"),
            col("player", "uint32", false, "the flipper: 1 or 2"),
            col(
                "square",
                "string",
                false,
                "the square flipped (`a1` … `d8`)",
            ),
            col(
                "piece",
                "string",
                false,
                "the piece shown (`K G M R N C P`, `k g m r n c p`)",
            ),
            col(
                "adjacent",
                "boolean",
                false,
                "whether a revealed piece stood orthogonally next to the square",
            ),
            col(
                "score",
                "float64",
                true,
                "the flipper's score in the game (1, ½, 0); null while unfinished",
            ),
        ],
    },
    TableSpec {
        name: "three_kingdoms_games",
        games: "three-kingdoms",
        meaning: "Three Kingdoms' facts of each game",
        columns: &[
            VARIANT,
            col(
                "claim_order",
                "string",
                true,
                "the factions in the order they were claimed (`red>generals>black`); null when not known",
            ),
            col(
                "winner_faction",
                "string",
                true,
                "the faction of the seat alone in first place; null otherwise",
            ),
        ],
    },
    TableSpec {
        name: "three_kingdoms_seats",
        games: "three-kingdoms",
        meaning: "one row per seat of a Three Kingdoms game",
        columns: &[
            VARIANT,
            col("seat", "uint32", false, "1 for the first mover, 2, 3"),
            col(
                "faction",
                "string",
                true,
                "the faction it played (`generals`, `red`, `black`); null without one",
            ),
            col(
                "claim_rank",
                "uint32",
                true,
                "1 claimed first, 2 second, 3 given the last faction; null without a faction",
            ),
            col(
                "captured_points",
                "uint32",
                false,
                "the points of the pieces it captured",
            ),
            col(
                "points",
                "int64",
                false,
                "its faction's points less those lost, plus those captured",
            ),
            col("place", "uint32", true, "1 first; null while unfinished"),
            col("score", "float64", true, SCORE),
        ],
    },
    TableSpec {
        name: "luzhanqi_games",
        games: "luzhanqi",
        meaning: "Luzhanqi's facts of each game",
        columns: &[
            VARIANT,
            col("mode", "string", false, "`open`, `dark` or `flip`"),
            col(
                "first_side",
                "string",
                true,
                "the first mover's side: red in open and dark games, its first flip's colour in a flip game; null when not known",
            ),
            col(
                "first_score",
                "float64",
                true,
                "the first mover's score (1, ½, 0); null while unfinished",
            ),
            col(
                "flag_taken_by",
                "string",
                true,
                "the role of the piece that captured the flag or carried it home (`engineer` …); null otherwise",
            ),
            col(
                "reason",
                "string",
                true,
                "the reason code of the ending; null while unfinished",
            ),
        ],
    },
    TableSpec {
        name: "xiangqi_flips",
        games: "xiangqi-3g",
        meaning: "one row per kind of flip a seat made in a third-generation xiangqi game (each kind once per seat and game)",
        columns: &[
            VARIANT,
            col("seat", "uint32", false, "1 (red) or 2 (black)"),
            col(
                "flip",
                "string",
                false,
                "the kind of flip: `soldier:R` (a soldier's back that took effect; `wrong_soldier:R` one that did not), `transform:H`, `flip_back`, `double_flip`, `wrong_double_flip`",
            ),
            col(
                "score",
                "float64",
                true,
                "the seat's score in the game (1, ½, 0); null while unfinished",
            ),
        ],
    },
];

/// The table named `name`, if the contract has it.
pub fn table(name: &str) -> Option<&'static TableSpec> {
    TABLES.iter().find(|t| t.name == name)
}

/// Writes `schema.json` into `data`: the version and every table's columns.
pub fn write_schema(data: &Path) -> std::io::Result<()> {
    let schema = serde_json::json!({
        "schema_version": SCHEMA_VERSION,
        "partitioned_by": ["game", "preset"],
        "tables": TABLES,
    });
    std::fs::write(
        data.join(SCHEMA_FILE),
        serde_json::to_string_pretty(&schema).expect("the contract serialises"),
    )
}
