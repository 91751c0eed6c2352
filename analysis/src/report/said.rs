//! The page's table cells in the game's words: the codes a table keys on (`player1`,
//! `player1>player3>player2`, `no_progress`, `soldier:R`, a piece's letter, a faction order,
//! an attack's announced result) said as people say them, from `records::core::words`; and
//! columns' names as headings. The CSV, JSON and Parquet keep the codes.

use records::core::words;
use records::core::{Outcome, Seat};
use records::games::GameKind;
use records::with_game;

/// A key cell of `column` in `game`'s words, or None when the column holds no code.
pub fn cell(game: &str, column: &str, code: &str) -> Option<String> {
    let kind = game.parse::<GameKind>().ok();
    Some(match column {
        "seat" => code.parse::<Seat>().ok()?.to_string(),
        "outcome" => {
            let outcome = code.parse::<Outcome>().ok()?;
            words::outcome(outcome, |s| s.to_string())
        }
        "reason" => super::headlines::ending_words(game, code),
        "flip" => with_game!(kind?, G => G::flip(code))?,
        "first_piece" | "second_piece" => {
            with_game!(kind?, G => words::pieces::<G>(code))
        }
        // A game's own codes (Three Kingdoms' claim orders, dark Luzhanqi's attacks).
        _ => return crate::games::said(kind?, column, code),
    })
}

/// A column's name as a table's heading: `plies from`, `player 1`, `Elo`.
pub fn heading(column: &str) -> String {
    match column {
        "elo" => return "Elo".to_owned(),
        "self_play" => return "self-play games".to_owned(),
        "equal_first" => return "first mover, players equal".to_owned(),
        _ => {}
    }
    let spaced = column.replace('_', " ");
    match spaced.strip_prefix("player") {
        Some(n) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => format!("player {n}"),
        _ => spaced,
    }
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn codes_are_said_in_the_games_words() {
        assert_eq!(cell("banqi", "seat", "player1").unwrap(), "player 1");
        assert_eq!(
            cell("three-kingdoms", "outcome", "player2>player1=player3").unwrap(),
            "1st: player 2, 2nd: player 1, 2nd: player 3"
        );
        assert_eq!(
            cell("banqi", "reason", "no_progress").unwrap(),
            "the no-progress rule"
        );
        assert_eq!(
            cell("xiangqi-3g", "flip", "soldier:R").unwrap(),
            "a soldier's flip to chariot"
        );
        assert_eq!(cell("banqi", "first_piece", "k").unwrap(), "black general");
        assert_eq!(cell("banqi", "preset", "tcga"), None);
        assert_eq!(
            cell("three-kingdoms", "claim_order", "red>generals>black").unwrap(),
            "red, then generals, then black"
        );
        assert_eq!(
            cell("luzhanqi", "action", "c6-c7:both_die:flag").unwrap(),
            "c6-c7, both die, the flag is shown"
        );
        assert_eq!(cell("banqi", "action", "a1(K)"), None);
        assert_eq!(super::heading("player3"), "player 3");
        assert_eq!(super::heading("plies_from"), "plies from");
        assert_eq!(super::heading("elo"), "Elo");
    }
}
