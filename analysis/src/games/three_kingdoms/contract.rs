//! ThreeKingdoms's tables in the data contract (`crate::report::contract`): what its part of the
//! report and export writes, column by column.

use records::core::Game as _;
use records::games::three_kingdoms::ThreeKingdoms;

use crate::report::contract::{SCORE, TableSpec, VARIANT, col};

/// The game's own tables, in the order docs/analysis.md gives them.
pub const TABLES: &[TableSpec] = &[
    TableSpec {
        name: "three_kingdoms_games",
        games: ThreeKingdoms::NAME,
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
        games: ThreeKingdoms::NAME,
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
                "final_points",
                "int64",
                false,
                "its final points: its faction's points less those lost, plus those captured (what the points ending ranks by)",
            ),
            col("place", "uint32", true, "1 first; null while unfinished"),
            col("score", "float64", true, SCORE),
        ],
    },
];
