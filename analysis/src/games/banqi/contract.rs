//! Banqi's tables in the data contract (`crate::report::contract`): what its part of the
//! report and export writes, column by column.

use records::core::Game as _;
use records::games::banqi::Banqi;

use crate::report::contract::{SOURCE, TableSpec, VARIANT, col};

/// The game's own tables, in the order docs/analysis.md gives them.
pub const TABLES: &[TableSpec] = &[
    TableSpec {
        name: "banqi_games",
        games: Banqi::NAME,
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
        games: Banqi::NAME,
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
];
