//! The page's table cells in the game's words: the codes a table keys on (`player1`,
//! `player1>player3>player2`, `no_progress`, `soldier:R`, a piece's letter, a faction order,
//! an attack's announced result) said as people say them, from `records::core::words`; and
//! columns' names as headings. The CSV, JSON and Parquet keep the codes.

use records::core::language::Phrases;
use records::core::words;
use records::core::{Outcome, Seat};
use records::games::GameKind;
use records::with_game;

/// A key cell of `column` in `game`'s words, or None when the column holds no code.
pub fn cell(game: &str, column: &str, code: &str, say: &Phrases) -> Option<String> {
    let kind = game.parse::<GameKind>().ok();
    Some(match column {
        "seat" => seat(code.parse::<Seat>().ok()?, say),
        "outcome" => outcome(code.parse::<Outcome>().ok()?, say),
        "reason" => ending(game, code, say),
        "flip" => with_game!(kind?, G => G::flip(code)).map(|english| {
            if say.is_chinese() {
                flip(kind, code, say)
            } else {
                english
            }
        })?,
        "first_piece" | "second_piece" => piece(kind?, code, say),
        "preset" | "mode" => preset(game, code, say),
        "variant" => variant(game, code, say),
        "side" | "first_side" | "winner_faction" => side(code, say),
        "period" => period(code, say),
        "adjacent" => match code {
            "true" => say.get("report.value.yes"),
            "false" => say.get("report.value.no"),
            _ => return None,
        },
        // A game's own codes (Three Kingdoms' claim orders, dark Luzhanqi's attacks).
        _ => return crate::games::said(kind?, column, code, say),
    })
}

/// A column's name as a table's heading: `plies from`, `player 1`, `Elo`.
pub fn heading(column: &str, say: &Phrases) -> String {
    say.get(&format!("report.column.{column}"))
}

/// A table's title on the page.
pub fn title(table: &str, say: &Phrases) -> String {
    say.get(&format!("report.table.{table}"))
}

/// A seat: `player 1`, `1 號`.
pub fn seat(seat: Seat, say: &Phrases) -> String {
    say.fill("seat.n", &[("n", &(seat.index() + 1).to_string())])
}

/// An outcome: `player 1 won`, `drawn`, `1st: player 2, 2nd: player 1, 3rd: player 3`.
pub fn outcome(outcome: Outcome, say: &Phrases) -> String {
    if !say.is_chinese() {
        return words::outcome(outcome, |s| s.to_string());
    }
    if outcome.is_draw() {
        return say.get("report.outcome.drawn");
    }
    if let (2, Some(winner)) = (outcome.seats(), outcome.winner()) {
        return say.fill("report.outcome.won", &[("who", &seat(winner, say))]);
    }
    let mut seats: Vec<Seat> = Seat::all(outcome.seats()).collect();
    seats.sort_by_key(|&s| (outcome.place(s), s));
    let placed: Vec<String> = seats
        .into_iter()
        .map(|s| {
            say.fill(
                "report.outcome.placed",
                &[
                    ("place", &say.get(&format!("place.{}", outcome.place(s)))),
                    ("who", &seat(s, say)),
                ],
            )
        })
        .collect();
    say.list(&placed)
}

/// An ending of `game` by its code (`no_progress`): the game's own words, in English the
/// rules' ([`records::games::ending_words`]); the code itself when neither knows it (a record
/// of a newer version).
pub fn ending(game: &str, code: &str, say: &Phrases) -> String {
    if say.is_chinese() {
        let own = format!("ending.{game}.{code}");
        if say.has(&own) {
            return say.get(&own);
        }
        let shared = format!("ending.{code}");
        return if say.has(&shared) {
            say.get(&shared)
        } else {
            code.to_owned()
        };
    }
    super::headlines::ending_words(game, code)
}

/// A preset (or Luzhanqi's mode) by its name: the name in English, its title in Chinese.
pub fn preset(game: &str, name: &str, say: &Phrases) -> String {
    let key = format!("preset.{game}.{name}");
    if say.is_chinese() && say.has(&key) {
        say.get(&key)
    } else {
        name.to_owned()
    }
}

/// A variant: a preset, or a preset with option overrides (`tcga{…}`), kept as written.
fn variant(game: &str, code: &str, say: &Phrases) -> String {
    match code.split_once(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        None => preset(game, code, say),
        Some(_) => code.to_owned(),
    }
}

/// A side or faction by its name (`red`, `generals`); `none` as such.
pub fn side(name: &str, say: &Phrases) -> String {
    let key = format!("side.{name}");
    if say.is_chinese() && say.has(&key) {
        say.get(&key)
    } else if name == "none" {
        say.get("report.value.none")
    } else {
        name.to_owned()
    }
}

/// A period of the ratings over time: a month as it is, an undated hundred (`games 1-100`)
/// in words.
pub fn period(code: &str, say: &Phrases) -> String {
    match code.strip_prefix("games ").and_then(|r| r.split_once('-')) {
        Some((from, to)) => say.fill("report.period", &[("from", from), ("to", to)]),
        None => code.to_owned(),
    }
}

/// A piece of `kind` by its letter: `red chariot`; in Chinese its side and the glyph its
/// board writes, `紅俥` (a Luzhanqi role alone: `司令`).
pub fn piece(kind: GameKind, letter: &str, say: &Phrases) -> String {
    if !say.is_chinese() {
        return with_game!(kind, G => words::pieces::<G>(letter));
    }
    letter
        .chars()
        .map(|c| {
            let glyph = with_game!(kind, G => G::glyph(c)).unwrap_or("?");
            let english = with_game!(kind, G => G::piece(c)).unwrap_or_default();
            match english.split_once(' ') {
                Some((side, _)) => format!("{}{glyph}", self::side(side, say)),
                None => glyph.to_owned(),
            }
        })
        .collect::<Vec<_>>()
        .join("")
}

/// A kind of flip (xiangqi-3g's `soldier:R`, `transform:F`, `double_flip`) in Chinese.
fn flip(kind: Option<GameKind>, code: &str, say: &Phrases) -> String {
    let glyph = |letter: &str| {
        let c = letter.chars().next().unwrap_or('?');
        kind.and_then(|k| with_game!(k, G => G::glyph(c)))
            .unwrap_or(letter)
            .to_owned()
    };
    match code.split_once(':') {
        Some((how, letter)) => {
            say.fill(&format!("report.flip.{how}"), &[("piece", &glyph(letter))])
        }
        None => say.get(&format!("report.flip.{code}")),
    }
}

#[cfg(test)]
mod tests {
    use records::core::language::{Language, Phrases};

    use super::{cell, heading};

    #[test]
    fn codes_are_said_in_the_games_words() {
        let en = Phrases::of(Language::English);
        let cell = |g, c, v| cell(g, c, v, en);
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
        assert_eq!(cell("banqi", "preset", "tcga").unwrap(), "tcga");
        assert_eq!(
            cell("three-kingdoms", "claim_order", "red>generals>black").unwrap(),
            "red, then generals, then black"
        );
        assert_eq!(
            cell("luzhanqi", "action", "c6-c7:both_die:flag").unwrap(),
            "c6-c7, both die, the flag is shown"
        );
        assert_eq!(cell("banqi", "action", "a1(K)"), None);
        assert_eq!(
            cell("banqi", "period", "games 1-100").unwrap(),
            "games 1–100"
        );
        assert_eq!(heading("player3", en), "player 3");
        assert_eq!(heading("plies_from", en), "plies from");
        assert_eq!(heading("elo", en), "Elo");
    }

    #[test]
    fn codes_are_said_in_chinese() {
        let zh = Phrases::of(Language::Traditional);
        let cell = |g, c, v| cell(g, c, v, zh).unwrap();
        assert_eq!(cell("banqi", "seat", "player1"), "1 號");
        assert_eq!(cell("banqi", "outcome", "player2"), "2 號勝");
        assert_eq!(
            cell("three-kingdoms", "outcome", "player2>player1=player3"),
            "第一：2 號、第二：1 號、第二：3 號"
        );
        assert_eq!(cell("banqi", "reason", "no_progress"), "久未吃子");
        assert_eq!(cell("xiangqi-3g", "reason", "no_progress"), "久未吃子");
        assert_eq!(cell("xiangqi-3g", "flip", "soldier:R"), "兵翻為俥");
        assert_eq!(cell("banqi", "first_piece", "k"), "黑將");
        assert_eq!(cell("banqi", "first_piece", "C"), "紅炮");
        assert_eq!(cell("banqi", "preset", "tcga"), "TCGA 競賽規則");
        assert_eq!(cell("luzhanqi", "flag_taken_by", "marshal"), "司令");
        assert_eq!(
            cell("luzhanqi", "action", "c6-c7:both_die:flag"),
            "c6-c7，同歸於盡，亮出軍旗"
        );
        assert_eq!(cell("banqi", "adjacent", "true"), "是");
        assert_eq!(cell("banqi", "period", "games 1-100"), "第 1–100 局");
    }
}
