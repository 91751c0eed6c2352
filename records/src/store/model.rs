//! Rows: what a record becomes in the `games` and `seats` tables, and what a stored game
//! gives back.

use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::serialize::{self, IsNull, Output, ToSql};
use diesel::sql_types::BigInt;
use diesel::sqlite::Sqlite;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::schema::{games, seats};
use crate::core::replay::{ReplayError, Status};
use crate::core::{Record, Seat, Summary};
use crate::games::summarize_to;

/// A validated record ready to insert: the game's row and its seats' rows.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub row: GameInsert,
    pub seats: Vec<SeatInsert>,
}

// `None` is written as NULL (not DEFAULT): what `COPY` needs, and the same for these columns.
#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = games, treat_none_as_default_value = false)]
pub struct GameInsert {
    pub id: RowId,
    pub content_hash: String,
    pub game: String,
    pub preset: String,
    pub options: String,
    pub layout: Option<String>,
    pub start: Option<String>,
    pub plies: i32,
    pub stated_outcome: Option<String>,
    pub stated_reason: Option<String>,
    pub derived_outcome: Option<String>,
    pub derived_reason: Option<String>,
    pub result: String,
    pub reason: Option<String>,
    pub first_flips: Option<String>,
    pub doubled: bool,
    pub played_on: Option<String>,
    pub source: String,
    pub imported_at: String,
    /// The record in canonical form (the JSON its content hash is of): one serialization
    /// for both, and the same text for the same game however it was written.
    pub record: String,
    /// The game's line for the opening explorer ([`super::line`]); None while unfinished.
    pub opening_line: Option<Vec<u8>>,
}

/// A game's id as it is inserted. None: the database numbers the row (SQLite's `NULL`
/// rowid). A PostgreSQL import sets it from the id sequence before its `COPY`, so that it
/// need not look the ids up after.
#[derive(diesel::expression::AsExpression, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[diesel(sql_type = BigInt)]
pub struct RowId(pub Option<i64>);

impl ToSql<BigInt, Sqlite> for RowId {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Sqlite>) -> serialize::Result {
        match self.0 {
            Some(id) => {
                out.set_value(id);
                Ok(IsNull::No)
            }
            None => Ok(IsNull::Yes),
        }
    }
}

impl ToSql<BigInt, Pg> for RowId {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        use std::io::Write;
        match self.0 {
            Some(id) => {
                out.write_all(&id.to_be_bytes())?;
                Ok(IsNull::No)
            }
            None => Ok(IsNull::Yes),
        }
    }
}

/// One seat's row; `game_id` is set once the game's row has its id.
#[derive(Insertable, Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = seats, treat_none_as_default_value = false)]
pub struct SeatInsert {
    pub game_id: i64,
    pub seat: i32,
    pub name: String,
    pub side: Option<String>,
    pub points: i32,
    /// Whether the record names the player (else `name` is a stand-in).
    pub named: bool,
}

/// The columns of a stored game that the list and the lookup give.
#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = games)]
pub(crate) struct GameColumns {
    pub id: i64,
    pub content_hash: String,
    pub game: String,
    pub preset: String,
    pub plies: i32,
    pub result: String,
    pub reason: Option<String>,
    pub derived_outcome: Option<String>,
    pub derived_reason: Option<String>,
    pub first_flips: Option<String>,
    pub doubled: bool,
    pub played_on: Option<String>,
    pub source: String,
    pub imported_at: String,
}

/// One seat of a stored game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StoredSeat {
    pub seat: Seat,
    pub name: String,
    /// Whether the record names the player; false: `name` is a stand-in ("player 1" …), and
    /// the game counts for nobody's results or rating.
    #[serde(default = "named_by_default")]
    pub named: bool,
    /// The side the seat played (Banqi: `red` or `black`); absent while unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Points won (Banqi: 棋點).
    pub points: i32,
}

fn named_by_default() -> bool {
    true
}

/// A stored game, as the list and the lookup give it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameRow {
    pub id: i64,
    pub content_hash: String,
    pub game: String,
    pub preset: String,
    /// Every seat in turn order: name, side, points.
    pub seats: Vec<StoredSeat>,
    /// Seat 1's name (the first of `seats`; kept for clients of the first version).
    pub player1: String,
    /// Seat 2's name.
    pub player2: String,
    pub plies: i32,
    /// The result scored: the stated one when the record states one, else the derived one;
    /// `ongoing` for an unfinished game.
    pub result: String,
    pub reason: Option<String>,
    pub derived_outcome: Option<String>,
    pub derived_reason: Option<String>,
    /// The opening moves when they decide something (Banqi: the first two flips).
    pub first_flips: Option<String>,
    /// Whether the opening doubles the stake (Banqi: 門棋加倍).
    pub doubled: bool,
    /// Seat 1's points (the first of `seats`).
    pub points1: i32,
    /// Seat 2's points.
    pub points2: i32,
    pub played_on: Option<String>,
    pub source: String,
    pub imported_at: String,
}

impl GameRow {
    pub(crate) fn new(c: GameColumns, mut seats: Vec<StoredSeat>) -> GameRow {
        seats.sort_by_key(|s| s.seat);
        let name = |i: usize| seats.get(i).map_or_else(String::new, |s| s.name.clone());
        let points = |i: usize| seats.get(i).map_or(0, |s| s.points);
        GameRow {
            player1: name(0),
            player2: name(1),
            points1: points(0),
            points2: points(1),
            id: c.id,
            content_hash: c.content_hash,
            game: c.game,
            preset: c.preset,
            seats,
            plies: c.plies,
            result: c.result,
            reason: c.reason,
            derived_outcome: c.derived_outcome,
            derived_reason: c.derived_reason,
            first_flips: c.first_flips,
            doubled: c.doubled,
            played_on: c.played_on,
            source: c.source,
            imported_at: c.imported_at,
        }
    }
}

/// The SHA-256 of the record's canonical JSON (the preset written out, options as the game
/// orders them, metadata sorted by key): two records with the same content have the same
/// hash, wherever they came from. None when the record's game or options cannot be read.
pub fn content_hash(record: &Record) -> Option<String> {
    crate::games::canonical_json(record)
        .ok()
        .map(|json| hash_json(&json))
}

fn hash_json(canonical: &str) -> String {
    use std::fmt::Write;
    let digest = Sha256::digest(canonical.as_bytes());
    digest.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

impl NewGame {
    /// Validates and scores `record`, walking its first `depth` plies for the opening
    /// explorer (the store's [`Store::explorer_depth`](super::Store::explorer_depth)); an
    /// invalid record gives its replay error.
    pub fn from_record(
        record: &Record,
        source: &str,
        imported_at: &str,
        depth: u32,
    ) -> Result<NewGame, ReplayError> {
        let summary: Summary = summarize_to(record, depth)?;
        let opening_line = super::line::encode(summary.credits());
        let canonical = crate::games::canonical_json(record)?;
        let (derived_outcome, derived_reason) = match summary.verdict.derived {
            Status::Ended { end, .. } => {
                (Some(end.outcome.code()), Some(end.reason.code().to_owned()))
            }
            Status::Ongoing => (None, None),
        };
        let stated = record.result;
        let seats = summary
            .seats
            .iter()
            .map(|s| SeatInsert {
                game_id: 0,
                seat: s.seat.index() as i32,
                name: s.name.clone(),
                side: s.side.map(str::to_owned),
                points: s.points as i32,
                named: s.named,
            })
            .collect();
        let row = GameInsert {
            id: RowId(None),
            content_hash: hash_json(&canonical),
            game: summary.game.to_owned(),
            preset: summary.preset.to_owned(),
            options: serde_json::to_string(&record.options).expect("options serialise"),
            layout: record.layout.as_ref().map(|l| match l {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            }),
            start: record.start.clone(),
            plies: summary.verdict.plies as i32,
            stated_outcome: stated.map(|s| s.outcome.code()),
            stated_reason: stated.and_then(|s| s.reason).map(|r| r.code().to_owned()),
            derived_outcome,
            derived_reason,
            result: summary
                .result
                .map_or_else(|| "ongoing".to_owned(), |r| r.outcome.code()),
            reason: summary
                .result
                .and_then(|r| r.reason)
                .map(|r| r.code().to_owned()),
            first_flips: summary.opening.moves,
            doubled: summary.opening.doubles_stake,
            played_on: record
                .metadata
                .get("date")
                .and_then(|d| d.as_str())
                .and_then(iso_date),
            source: source.to_owned(),
            imported_at: imported_at.to_owned(),
            record: canonical,
            opening_line,
        };
        Ok(NewGame { row, seats })
    }
}

/// The days of `month` (1–12) of `year` in the Gregorian calendar (0: no such month).
pub(crate) fn days_in(year: u32, month: u32) -> u32 {
    let leap = year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400));
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => 0,
    }
}

/// Whether `day` of `month` (1–12) of `year` exists in the Gregorian calendar (2026-02-31
/// does not; 2024-02-29 does).
fn on_the_calendar(year: u32, month: u32, day: u32) -> bool {
    (1..=days_in(year, month)).contains(&day)
}

/// A date from a record's metadata as YYYY-MM-DD: an ISO date (or date-time), or the TCGA
/// form `10:49am Jan 10, 2022`.
pub fn iso_date(text: &str) -> Option<String> {
    let t = text.trim();
    let b = t.as_bytes();
    if b.len() >= 10
        && b[4] == b'-'
        && b[7] == b'-'
        && t[..4]
            .bytes()
            .chain(t[5..7].bytes())
            .chain(t[8..10].bytes())
            .all(|c| c.is_ascii_digit())
    {
        let number = |r: std::ops::Range<usize>| t[r].parse::<u32>().unwrap_or(0);
        return on_the_calendar(number(0..4), number(5..7), number(8..10))
            .then(|| t[..10].to_owned());
    }
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let words: Vec<&str> = t
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    for w in words.windows(3) {
        let lower = w[0].to_ascii_lowercase();
        let Some(month) = MONTHS.iter().position(|m| lower.starts_with(m)) else {
            continue;
        };
        let (Ok(day), Ok(year)) = (w[1].parse::<u32>(), w[2].parse::<u32>()) else {
            continue;
        };
        if (1000..=9999).contains(&year) && on_the_calendar(year, month as u32 + 1, day) {
            return Some(format!("{year:04}-{:02}-{day:02}", month + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(
            iso_date("10:49am Jan 10, 2022").as_deref(),
            Some("2022-01-10")
        );
        assert_eq!(iso_date("2026-11-22").as_deref(), Some("2026-11-22"));
        assert_eq!(
            iso_date("2026-11-22T10:00:00Z").as_deref(),
            Some("2026-11-22")
        );
        assert_eq!(iso_date("someday"), None);
        // Only days the calendar has (issue 59: 2026-02-31 passed as a date).
        for (text, date) in [
            ("2026-02-31", None),
            ("2026-13-01", None),
            ("2026-00-10", None),
            ("2026-04-31", None),
            ("2023-02-29", None),
            ("2024-02-29", Some("2024-02-29")),
            ("2000-02-29", Some("2000-02-29")),
            ("1900-02-29", None),
            ("Feb 30, 2022", None),
            ("Dec 31, 2022", Some("2022-12-31")),
        ] {
            assert_eq!(iso_date(text).as_deref(), date, "{text}");
        }
    }

    #[test]
    fn the_hash_follows_content_not_source() {
        let a = Record::new("banqi", "tcga", vec!["b8(G)".into()]);
        let mut b = a.clone();
        assert_eq!(content_hash(&a), content_hash(&b));
        b.players = vec!["x".into(), "y".into()];
        assert_ne!(content_hash(&a), content_hash(&b));
        assert_eq!(content_hash(&a).unwrap().len(), 64);
        // The default preset and the option order do not change the content.
        let mut c = a.clone();
        c.preset = None;
        assert_eq!(content_hash(&a), content_hash(&c));
        let options = |text: &str| serde_json::from_str(text).unwrap();
        let (mut d, mut e) = (a.clone(), a.clone());
        d.options = options(r#"{"long_chase": 10, "chain_capture": true}"#);
        e.options = options(r#"{"chain_capture": true, "long_chase": 10}"#);
        assert_eq!(content_hash(&d), content_hash(&e));
        assert_ne!(content_hash(&a), content_hash(&d));
    }
}
