//! Words for people: how a game's endings, pieces, seats and results read on a report's page,
//! in the tools' text output and in the service's human fields (`summary`). Codes
//! (`no_progress`, `player1>player3>player2`, piece letters) stay in JSON, CSV and Parquet;
//! what a person reads is said here, once per game.

use super::outcome::{End, Outcome, Reason};
use super::record::Record;
use super::rules::{Game, Rules};
use super::scoring::{Scored, ScoredResult};
use super::seat::Seat;

/// A game's own words (each game implements it beside its rules).
pub trait Words: Game {
    /// What an ending is called, to follow "won by" or "drawn by": `checkmate`, `the
    /// no-progress rule`. The shared reasons read as [`shared_ending`] unless the game words
    /// them its own way.
    fn ending(reason: Reason) -> &'static str {
        shared_ending(reason)
    }

    /// A piece of the game's notation by its letter, for people (`red chariot`); None for a
    /// letter the game does not have.
    fn piece(letter: char) -> Option<String>;

    /// A piece by its letter as its board writes it (`俥`, `包`, `司令`): the same in every
    /// language; None for a letter the game does not have.
    fn glyph(letter: char) -> Option<&'static str>;

    /// A kind of flip by its report code (xiangqi-3g's `soldier:R`, `transform:F`), in words;
    /// None in a game without such codes.
    fn flip(code: &str) -> Option<String> {
        let _ = code;
        None
    }
}

/// What each seat took in a game, piece by piece: its letters (the game's notation), each
/// piece as its board writes it and in words (`[Taken]` of a record's replay, `/v1/replay`).
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Taken {
    pub seat: Seat,
    /// The pieces taken, as letters of the game's notation.
    pub letters: String,
    /// Each piece as its board writes it (`俥`).
    pub glyphs: Vec<String>,
    /// Each piece in words (`red chariot`).
    pub names: Vec<String>,
}

/// What each seat of a scored game took.
pub fn taken<G: Rules>(scored: &Scored<G>) -> Vec<Taken> {
    Seat::all(scored.seats)
        .map(|seat| {
            let letters = scored.tally.captured(seat).to_owned();
            Taken {
                seat,
                glyphs: letters
                    .chars()
                    .map(|c| G::glyph(c).unwrap_or("?").to_owned())
                    .collect(),
                names: letters
                    .chars()
                    .map(|c| G::piece(c).unwrap_or_else(|| c.to_string()))
                    .collect(),
                letters,
            }
        })
        .collect()
}

/// The shared reasons' words.
pub fn shared_ending(reason: Reason) -> &'static str {
    match reason {
        Reason::ELIMINATION => "elimination",
        Reason::NO_MOVE => "leaving no legal move",
        Reason::NO_PROGRESS => "the no-progress rule",
        Reason::REPETITION => "repetition",
        Reason::PLY_LIMIT => "the ply limit",
        Reason::TIMEOUT => "time",
        Reason::RESIGNATION => "resignation",
        Reason::AGREEMENT => "agreement",
        Reason::FORFEIT => "forfeit",
        Reason::ABORTED => "an abort",
        other => other.code(),
    }
}

/// A scored game of `seats` seats in words, each seat named by its side (`sides`) and the
/// record's player, with what each took (`captured`: the game's letters): `black (Li) won by
/// checkmate after 20 plies. red (Zhang) took black chariot; black (Li) took 2 red soldiers.`
pub fn summary<G: Words>(
    record: &Record,
    seats: u8,
    result: Option<ScoredResult>,
    plies: usize,
    sides: impl Fn(Seat) -> Option<String>,
    captured: impl Fn(Seat) -> String,
) -> String {
    let who = |s: Seat| {
        let name = record.players.get(s.index()).map(String::as_str);
        seat(s, sides(s).as_deref(), name)
    };
    let plies = match plies {
        1 => "1 ply".to_owned(),
        n => format!("{n} plies"),
    };
    let ended = match result {
        Some(r) => format!("{} after {plies}", self::result::<G>(r, &who)),
        None if record.result.and_then(|r| r.reason) == Some(Reason::ABORTED) => {
            format!("aborted after {plies}")
        }
        None => format!("going on after {plies}"),
    };
    let took: Vec<String> = Seat::all(seats)
        .map(|s| format!("{} took {}", who(s), pieces::<G>(&captured(s))))
        .collect();
    capitalised(&format!("{ended}. {}.", took.join("; ")))
}

/// `text` with its first letter in capitals: a sentence.
pub fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A scored game in words ([`summary`]): each seat by the side the game gives it at the end
/// and the record's player, what it took from the tally.
pub fn said<G: Rules>(record: &Record, scored: &Scored<G>) -> String {
    summary::<G>(
        record,
        scored.seats,
        scored.result,
        scored.verdict.plies,
        |s| G::side(&scored.last, s).map(str::to_owned),
        |s| scored.tally.captured(s).to_owned(),
    )
}

/// "1st", "2nd", "3rd".
pub fn ordinal(place: u8) -> &'static str {
    match place {
        1 => "1st",
        2 => "2nd",
        3 => "3rd",
        _ => "later",
    }
}

/// A seat as people call it in a game: its side when it has one, and the player's name,
/// `red (ann)`; without a side, `player 1 (ann)`; without a name, `red (player 1)`.
pub fn seat(seat: Seat, side: Option<&str>, name: Option<&str>) -> String {
    let number = seat.to_string();
    match (side, name) {
        (Some(side), Some(name)) => format!("{side} ({name})"),
        (Some(side), None) => format!("{side} ({number})"),
        (None, Some(name)) => format!("{number} ({name})"),
        (None, None) => number,
    }
}

/// A game's result in words, each seat named by `who`: two seats, `red (ann) won by
/// checkmate` or `drawn by repetition`; three, `1st: red (Wei), 2nd: … by recall`.
pub fn result<G: Words>(result: ScoredResult, who: impl Fn(Seat) -> String) -> String {
    let Some(reason) = result.reason else {
        return outcome(result.outcome, &who);
    };
    let by = G::ending(reason);
    if result.outcome.seats() == 2 || result.outcome.is_draw() {
        format!("{} by {by}", outcome(result.outcome, &who))
    } else {
        format!("{}, by {by}", outcome(result.outcome, &who))
    }
}

/// An ending the rules reached, in words: `player 2 won by checkmate`, `drawn by repetition`.
pub fn end<G: Words>(end: End) -> String {
    let result = ScoredResult {
        outcome: end.outcome,
        reason: Some(end.reason),
    };
    self::result::<G>(result, |s| s.to_string())
}

/// An outcome in words (see [`result`]).
pub fn outcome(outcome: Outcome, who: impl Fn(Seat) -> String) -> String {
    if outcome.is_draw() {
        return "drawn".to_owned();
    }
    if let (2, Some(winner)) = (outcome.seats(), outcome.winner()) {
        return format!("{} won", who(winner));
    }
    placings(outcome, who).join(", ")
}

/// Each seat's place, best first: `1st: red (player 1)`.
pub fn placings(outcome: Outcome, who: impl Fn(Seat) -> String) -> Vec<String> {
    let mut seats: Vec<Seat> = Seat::all(outcome.seats()).collect();
    seats.sort_by_key(|&s| (outcome.place(s), s));
    seats
        .into_iter()
        .map(|s| format!("{}: {}", ordinal(outcome.place(s)), who(s)))
        .collect()
}

/// Pieces given as the game's letters, in words, each kind once with its count, in the order
/// they first came: `2 black soldiers, black chariot`; `nothing` for none. A letter the game
/// does not know is written as it is.
pub fn pieces<G: Words>(letters: &str) -> String {
    let mut counted: Vec<(char, usize)> = Vec::new();
    for c in letters.chars().filter(|c| !c.is_whitespace()) {
        match counted.iter_mut().find(|(l, _)| *l == c) {
            Some((_, n)) => *n += 1,
            None => counted.push((c, 1)),
        }
    }
    if counted.is_empty() {
        return "nothing".to_owned();
    }
    counted
        .into_iter()
        .map(|(c, n)| {
            let name = G::piece(c).unwrap_or_else(|| c.to_string());
            if n == 1 {
                name
            } else {
                format!("{n} {}", plural(&name))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The plural of a piece's name (every piece name here takes an `s`, `brigadier`, `cannon`
/// and the rest alike).
fn plural(name: &str) -> String {
    format!("{name}s")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placings_read_best_first_with_names() {
        let outcome: Outcome = "player2>player3>player1".parse().unwrap();
        let who = |s: Seat| seat(s, Some(["red", "black", "generals"][s.index()]), None);
        assert_eq!(
            placings(outcome, who),
            [
                "1st: black (player 2)",
                "2nd: generals (player 3)",
                "3rd: red (player 1)"
            ]
        );
        assert_eq!(
            seat(Seat::FIRST, None, Some("ann")),
            "player 1 (ann)",
            "no side yet"
        );
    }
}
