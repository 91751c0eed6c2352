//! Xiangqi3g's tables in the data contract (`crate::report::contract`): what its part of the
//! report and export writes, column by column.

use records::core::Game as _;
use records::games::xiangqi::Xiangqi3g;

use crate::report::contract::{SOURCE, TableSpec, VARIANT, col};

/// The game's own tables, in the order docs/analysis.md gives them.
pub const TABLES: &[TableSpec] = &[TableSpec {
    name: "xiangqi_flips",
    games: Xiangqi3g::NAME,
    meaning: "one row per kind of flip a seat made in a third-generation xiangqi game (each kind once per seat and game)",
    columns: &[
        SOURCE,
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
}];
