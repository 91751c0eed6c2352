//! Luzhanqi's tables in the data contract (`crate::report::contract`): what its part of the
//! report and export writes, column by column.

use records::core::Game as _;
use records::games::luzhanqi::Luzhanqi;

use crate::report::contract::{TableSpec, VARIANT, col};

/// The game's own tables, in the order docs/analysis.md gives them.
pub const TABLES: &[TableSpec] = &[TableSpec {
    name: "luzhanqi_games",
    games: Luzhanqi::NAME,
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
}];
