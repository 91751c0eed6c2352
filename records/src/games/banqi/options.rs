//! What each Banqi option means and where it comes from (GET /v1/options shows it).

use crate::core::OptionInfo;

/// Every option of a Banqi ruleset, in the order of [`super::Ruleset`]'s fields.
pub const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        name: "cannon",
        kind: "cannon",
        meaning: "taiwan: the cannon captures only by jumping exactly one screen onto the first piece beyond, any rank; mainland: it captures like every other piece, adjacent and by rank (rank 6).",
        source: "seed 000",
    },
    OptionInfo {
        name: "chariot_rush",
        kind: "boolean",
        meaning: "車衝: a chariot moves any distance along an empty line; a capture after two or more squares ignores rank.",
        source: "seed 000",
    },
    OptionInfo {
        name: "chariot_charge",
        kind: "boolean",
        meaning: "車直衝: moves stay one square, but a chariot captures two or more squares away along an empty line, ignoring rank. With chariot_rush also on, rush wins.",
        source: "seed 002",
    },
    OptionInfo {
        name: "horse_diagonal",
        kind: "boolean",
        meaning: "馬斜: a horse also moves one square diagonally; a diagonal capture ignores rank.",
        source: "seed 000",
    },
    OptionInfo {
        name: "chain_capture",
        kind: "boolean",
        meaning: "連殺 / 明棋連吃: after a capture the same piece may capture again, any number of times, and stop after any capture.",
        source: "seeds 000, 002",
    },
    OptionInfo {
        name: "dark_capture",
        kind: "boolean",
        meaning: "暗殺: a revealed piece may attack a covered piece it could reach with a capture; an enemy it beats is captured, one it cannot beat survives and the attacker dies, an own piece is simply revealed.",
        source: "seed 000",
    },
    OptionInfo {
        name: "dark_chain_capture",
        kind: "boolean",
        meaning: "暗棋連吃: chain capture in which any link, the first included, may be a dark capture.",
        source: "seed 002",
    },
    OptionInfo {
        name: "no_progress",
        kind: "limit",
        meaning: "空步判和: the game is drawn after this many consecutive plies without a flip or capture (null: off).",
        source: "TCGA 60, Olympiad 180, seed 002 50",
    },
    OptionInfo {
        name: "repetition",
        kind: "repetition",
        meaning: "cycle: drawn when the last 3·p plies are one sequence of p actions played three times; position: drawn when the same position occurs the n-th time.",
        source: "TCGA course (cycle), Olympiad (position)",
    },
    OptionInfo {
        name: "long_chase",
        kind: "limit",
        meaning: "長捉禁手: a player may not chase the same enemy piece this many times in a row (null: off).",
        source: "seed 002",
    },
];
