//! TCGA game records (RULES.md §4): import into [`Record`]s and export back.
//!
//! ```text
//! INITIAL
//! * 10:49am Jan 10, 2022
//! * chan vs ai
//! * 1 2 2 2 2 2 5 1 2 2 2 2 2 5
//! * X X X X            (8 rows, rank 8 first)
//! * first 1
//! * time 900
//! * 1. b8(p) b6(R)
//! * PositionRepetitionDraw,3,4 chan Draw 0.500000,0.500000
//! ```
//! A file may hold several games, each starting with `INITIAL`.

use serde_json::{Map, Value};
use thiserror::Error;

use crate::core::text::{NotExportable, TextError, TextFormat};
use crate::core::{Outcome, Reason, Record, Seat, StatedOutcome, StatedResult};

use super::action::Action;
use super::layout::Layout;
use super::position::{Cell, Pool, Position};
use super::setup::Setup;
use super::types::{Color, Piece};

/// TCGA as the toolkit's text format of Banqi records (`Game::TEXT_FORMATS`).
pub const TCGA: TextFormat = TextFormat {
    name: "tcga",
    game_starts: "INITIAL",
    parse,
    export: |record| export(record).map_err(|e| NotExportable(e.to_string())),
};

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, TextError> {
    Err(TextError {
        line,
        message: message.into(),
    })
}

/// Reads every game of a TCGA text.
pub fn parse(text: &str) -> Result<Vec<Record>, TextError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end()))
        .filter(|(_, l)| !l.trim().is_empty())
        .collect();
    let mut games = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (n, line) = lines[i];
        if line.trim() != "INITIAL" {
            return err(
                n,
                format!("expected INITIAL at the start of a game, found {line:?}"),
            );
        }
        let end = lines[i + 1..]
            .iter()
            .position(|(_, l)| l.trim() == "INITIAL")
            .map_or(lines.len(), |k| i + 1 + k);
        games.push(parse_game(n, &lines[i + 1..end])?);
        i = end;
    }
    if games.is_empty() {
        return err(1, "no game found (a TCGA record starts with INITIAL)");
    }
    Ok(games)
}

/// The text after `* ` of a body line.
fn body(n: usize, line: &str) -> Result<&str, TextError> {
    match line.strip_prefix('*') {
        Some(rest) => Ok(rest.trim()),
        None => err(
            n,
            format!("expected a line starting with '*', found {line:?}"),
        ),
    }
}

fn parse_game(initial_line: usize, lines: &[(usize, &str)]) -> Result<Record, TextError> {
    let mut it = lines.iter().copied();
    let mut next = |what: &str| -> Result<(usize, &str), TextError> {
        match it.next() {
            Some((n, l)) => Ok((n, body(n, l)?)),
            None => err(initial_line, format!("the game ends before its {what}")),
        }
    };
    let mut metadata = Map::new();
    metadata.insert("source_format".into(), Value::from("tcga"));

    let (_, date) = next("date line")?;
    metadata.insert("date".into(), Value::from(date));

    let (n, players_line) = next("players line")?;
    let players: Vec<String> = match players_line.split_once(" vs ") {
        Some((a, b)) if !a.trim().is_empty() && !b.trim().is_empty() => {
            vec![a.trim().to_owned(), b.trim().to_owned()]
        }
        _ => {
            return err(
                n,
                format!("expected '<player 1> vs <player 2>', found {players_line:?}"),
            );
        }
    };

    let (n, counts_line) = next("covered counts")?;
    let counts: Vec<u8> = counts_line
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| TextError {
            line: n,
            message: format!(
                "expected 14 covered counts (K G M R N C P k g m r n c p), found {counts_line:?}"
            ),
        })?;
    let pool = match <[u8; 14]>::try_from(counts) {
        Ok(c) => Pool::from_counts(c),
        Err(v) => return err(n, format!("expected 14 covered counts, found {}", v.len())),
    };

    let mut setup = Setup {
        board: [Cell::Empty; 32],
        turn: None,
        pool,
        no_progress: 0,
        ply: 0,
    };
    for row in 0..8u8 {
        let (n, text) = next("board rows")?;
        let cells: Vec<&str> = text.split_whitespace().collect();
        if cells.len() != 4 {
            return err(
                n,
                format!("a board row has 4 cells (X, - or a piece letter), found {text:?}"),
            );
        }
        for (file, c) in cells.iter().enumerate() {
            let cell = match *c {
                "X" => Cell::Covered,
                "-" => Cell::Empty,
                other => match other.parse::<Piece>() {
                    Ok(p) => Cell::Revealed(p),
                    Err(_) => return err(n, format!("unknown board cell {other:?}")),
                },
            };
            setup.board[((7 - row) * 4 + file as u8) as usize] = cell;
        }
    }

    let (n, first_line) = next("'first' line")?;
    let first = match first_line.strip_prefix("first ").map(str::trim) {
        Some("0") => Color::Red,
        Some("1") => Color::Black,
        _ => {
            return err(
                n,
                format!("expected 'first 0' or 'first 1', found {first_line:?}"),
            );
        }
    };

    let mut rest: Vec<(usize, &str)> = Vec::new();
    for (n, l) in it {
        rest.push((n, body(n, l)?));
    }
    let mut rest = rest.into_iter().peekable();
    if let Some(&(n, l)) = rest.peek()
        && let Some(t) = l.strip_prefix("time ")
    {
        let t: u64 = t.trim().parse().map_err(|_| TextError {
            line: n,
            message: format!("bad time {l:?}"),
        })?;
        metadata.insert("time".into(), Value::from(t));
        rest.next();
    }

    let mut actions = Vec::new();
    let mut result = None;
    let mut expected_turn = 1;
    let mut half_turn_seen = false;
    for (n, l) in rest {
        if result.is_some() {
            return err(n, format!("unexpected line after the result: {l:?}"));
        }
        let mut tokens = l.split_whitespace();
        let head = tokens.next().unwrap_or_default();
        if let Some(num) = head
            .strip_suffix('.')
            .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
        {
            let num: usize = num.parse().unwrap_or(0);
            if num != expected_turn || half_turn_seen {
                return err(
                    n,
                    format!("expected turn {expected_turn}, found turn {num}"),
                );
            }
            let moves: Vec<&str> = tokens.collect();
            match moves.len() {
                1 => half_turn_seen = true,
                2 => {}
                k => {
                    return err(
                        n,
                        format!("a turn line holds one or two actions, found {k}"),
                    );
                }
            }
            actions.extend(moves.iter().map(|m| (*m).to_owned()));
            expected_turn += 1;
        } else {
            let (stated, line_text) = parse_result(n, l)?;
            metadata.insert("tcga_result".into(), Value::from(line_text));
            result = Some(stated);
        }
    }

    // The header's `first` must agree with the first flip of the game.
    let first_flip = actions.iter().find_map(|a| match a.parse::<Action>() {
        Ok(Action::Flip {
            reveal: Some(p), ..
        }) => Some(p),
        _ => None,
    });
    if let Some(p) = first_flip
        && setup.board.iter().all(|c| !matches!(c, Cell::Revealed(_)))
        && p.side != first
    {
        let line = lines
            .iter()
            .find(|(_, l)| l.contains("first"))
            .map_or(initial_line, |(n, _)| *n);
        return err(
            line,
            format!(
                "'first {}' says player 1 is {first}, but the first flip reveals {p}",
                first as u8
            ),
        );
    }
    let start = if setup == Setup::start() {
        None
    } else {
        // A mid-game start: colours are assigned when pieces are already revealed.
        if setup.board.iter().any(|c| matches!(c, Cell::Revealed(_))) {
            setup.turn = Some(first);
        }
        let pos = Position::from_setup(&setup).map_err(|e| TextError {
            line: initial_line,
            message: format!("start position: {e}"),
        })?;
        Some(pos.to_string())
    };

    Ok(Record {
        game: "banqi".into(),
        preset: Some("tcga".into()),
        options: Default::default(),
        players,
        layout: None,
        start,
        actions,
        result,
        metadata,
    })
}

/// `NoMove chan wins 1,0` · `NoEatFlipDraw chan Draw 0.5,0.5` ·
/// `PositionRepetitionDraw,3,4 chan Draw …` · `TimeOut ai Wins 1.000000,0.000000`.
fn parse_result(n: usize, line: &str) -> Result<(StatedResult, String), TextError> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.len() < 2 {
        return err(
            n,
            format!("expected a turn line ('12. a1-a2 b3(k)') or a result line, found {line:?}"),
        );
    }
    let score = tokens[tokens.len() - 1];
    let outcome = match score
        .split_once(',')
        .map(|(a, b)| (a.parse::<f64>(), b.parse::<f64>()))
    {
        Some((Ok(a), Ok(b))) if a > b => StatedOutcome::Ended(Outcome::win(Seat::FIRST, 2)),
        Some((Ok(a), Ok(b))) if a < b => StatedOutcome::Ended(Outcome::win(Seat::SECOND, 2)),
        Some((Ok(_), Ok(_))) => StatedOutcome::Ended(Outcome::draw(2)),
        _ => {
            return err(
                n,
                format!("expected the score pair (like 1,0 or 0.5,0.5) at the end of {line:?}"),
            );
        }
    };
    let kind = tokens[0];
    let (reason, period) = if kind == "NoMove" {
        (Some(Reason::NO_MOVE), None)
    } else if kind == "NoEatFlipDraw" {
        (Some(Reason::NO_PROGRESS), None)
    } else if kind == "TimeOut" {
        (Some(Reason::TIMEOUT), None)
    } else if let Some(rest) = kind.strip_prefix("PositionRepetitionDraw") {
        let period = rest.rsplit(',').next().and_then(|p| p.parse::<u32>().ok());
        (Some(Reason::REPETITION), period)
    } else {
        (None, None)
    };
    Ok((
        StatedResult {
            outcome,
            reason,
            period,
        },
        line.to_owned(),
    ))
}

/// Why a record cannot be written as TCGA.
#[derive(Error, Debug, Clone, PartialEq, Eq)]
pub enum ExportError {
    #[error(
        "TCGA records hold Banqi games under the tcga preset without overrides; this record is {0}"
    )]
    NotTcga(String),
    #[error("action {0:?} cannot be written in TCGA notation")]
    Action(String),
    #[error("start position: {0}")]
    Start(String),
}

/// Writes a record under the `tcga` preset as a TCGA game text.
pub fn export(record: &Record) -> Result<String, ExportError> {
    let preset = record.preset.as_deref().unwrap_or("tcga");
    if record.game != "banqi" || preset != "tcga" || !record.options.is_empty() {
        return Err(ExportError::NotTcga(format!("{} / {preset}", record.game)));
    }
    let layout = match &record.layout {
        None => None,
        Some(value) => Some(
            serde_json::from_value::<Layout>(value.clone())
                .map_err(|e| ExportError::Start(format!("layout: {e}")))?,
        ),
    };
    let start = match &record.start {
        Some(s) => s
            .parse::<Position>()
            .map_err(|e| ExportError::Start(e.to_string()))?,
        None => Position::start(),
    };
    let mut actions = Vec::with_capacity(record.actions.len());
    for text in &record.actions {
        let mut action: Action = text
            .parse()
            .map_err(|_| ExportError::Action(text.clone()))?;
        if let (
            Action::Flip {
                square,
                reveal: reveal @ None,
            },
            Some(layout),
        ) = (&mut action, &layout)
        {
            *reveal = Some(layout.piece(*square));
        }
        match action {
            Action::Flip {
                reveal: Some(_), ..
            } => {}
            Action::Move(p) if p.hops().len() == 1 && p.first().reveal().is_none() => {}
            _ => return Err(ExportError::Action(text.clone())),
        }
        actions.push(action.to_string());
    }
    let first = actions
        .iter()
        .find_map(|a| match a.parse::<Action>() {
            Ok(Action::Flip {
                reveal: Some(p), ..
            }) => Some(p.side),
            _ => None,
        })
        .or(start.color_of(Seat::FIRST))
        .unwrap_or(Color::Red);

    let mut out = String::from("INITIAL\n");
    let date = record
        .metadata
        .get("date")
        .and_then(Value::as_str)
        .unwrap_or("");
    out += &format!(
        "* {date}\n* {} vs {}\n",
        record.player_name(0),
        record.player_name(1)
    );
    let counts: Vec<String> = start.pool().counts().iter().map(u8::to_string).collect();
    out += &format!("* {}\n", counts.join(" "));
    for rank in (0..8u8).rev() {
        let row: Vec<String> = (0..4u8)
            .map(|f| {
                match start
                    .cell(super::types::Square::from_coords(f as i8, rank as i8).expect("on board"))
                {
                    Cell::Empty => "-".to_owned(),
                    Cell::Covered => "X".to_owned(),
                    Cell::Revealed(p) => p.to_string(),
                }
            })
            .collect();
        out += &format!("* {}\n", row.join(" "));
    }
    out += &format!("* first {}\n", first as u8);
    let time = record
        .metadata
        .get("time")
        .and_then(Value::as_u64)
        .unwrap_or(900);
    out += &format!("* time {time}\n");
    for (k, pair) in actions.chunks(2).enumerate() {
        out += &format!("* {}. {}\n", k + 1, pair.join(" "));
    }
    if let Some(line) = record.metadata.get("tcga_result").and_then(Value::as_str) {
        out += &format!("* {line}\n");
    } else if let Some(result) = &record.result
        && let Some(line) = result_line(record, result)
    {
        out += &format!("* {line}\n");
    }
    Ok(out)
}

fn result_line(record: &Record, result: &StatedResult) -> Option<String> {
    let outcome = result.outcome.outcome()?;
    let (score, name) = match outcome.winner() {
        Some(Seat::FIRST) => ("1.000000,0.000000", record.player_name(0)),
        Some(_) => ("0.000000,1.000000", record.player_name(1)),
        // TCGA names player 1 on a drawn game.
        None => ("0.500000,0.500000", record.player_name(0)),
    };
    let kind = match result.reason? {
        Reason::NO_MOVE | Reason::ELIMINATION => format!("NoMove {name} wins"),
        Reason::NO_PROGRESS => format!("NoEatFlipDraw {name} Draw"),
        Reason::REPETITION => format!(
            "PositionRepetitionDraw,3,{} {name} Draw",
            result.period.unwrap_or(4)
        ),
        Reason::TIMEOUT => format!("TimeOut {name} Wins"),
        _ => return None,
    };
    Some(format!("{kind} {score}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "INITIAL
* 10:49am Jan 10, 2022
* chan vs ai
* 1 2 2 2 2 2 5 1 2 2 2 2 2 5
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* X X X X
* first 1
* time 900
* 1. b8(p) b6(R)
* 2. c8(M) b5(p)
* PositionRepetitionDraw,3,4 chan Draw 0.500000,0.500000
";

    #[test]
    fn imports_and_exports() {
        let games = parse(GAME).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.players, ["chan", "ai"]);
        assert_eq!(g.actions, ["b8(p)", "b6(R)", "c8(M)", "b5(p)"]);
        assert_eq!(g.start, None);
        let r = g.result.unwrap();
        assert_eq!(
            (r.outcome, r.reason, r.period),
            (
                StatedOutcome::Ended(Outcome::draw(2)),
                Some(Reason::REPETITION),
                Some(4)
            )
        );
        assert_eq!(export(g).unwrap(), GAME);
        let two = format!("{GAME}\n{GAME}");
        assert_eq!(parse(&two).unwrap().len(), 2);
    }

    #[test]
    fn errors_name_the_line() {
        let bad = GAME.replace("* 2. c8(M) b5(p)", "* 3. c8(M) b5(p)");
        assert_eq!(parse(&bad).unwrap_err().line, 16);
        let bad = GAME.replace("* first 1", "* first 0");
        assert_eq!(parse(&bad).unwrap_err().line, 13);
        let bad = GAME.replace("* X X X X\n* first", "* X X Q X\n* first");
        assert_eq!(parse(&bad).unwrap_err().line, 12);
        assert!(parse("").is_err());
        assert!(parse("INITIAL\n* date\n").is_err());
        let bad = GAME.replace("0.500000,0.500000", "draw");
        assert_eq!(parse(&bad).unwrap_err().line, 17);
    }
}
