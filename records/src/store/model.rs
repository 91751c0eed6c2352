//! Rows: what a record becomes in the `games` table, and what a stored game gives back.

use diesel::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::schema::games;
use crate::record::Record;
use crate::replay::{ReplayError, Status};
use crate::scoring::score_with_verdict;

/// A validated record ready to insert.
#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = games)]
pub struct NewGame {
    pub content_hash: String,
    pub game: String,
    pub preset: String,
    pub options: String,
    pub player1: String,
    pub player2: String,
    pub layout: Option<String>,
    pub start: Option<String>,
    pub actions: String,
    pub plies: i32,
    pub stated_outcome: Option<String>,
    pub stated_reason: Option<String>,
    pub derived_outcome: Option<String>,
    pub derived_reason: Option<String>,
    pub result: String,
    pub reason: Option<String>,
    pub first_flips: Option<String>,
    pub doubled: bool,
    pub points1: i32,
    pub points2: i32,
    pub played_on: Option<String>,
    pub source: String,
    pub imported_at: String,
    pub record: String,
}

/// A stored game, as the list and the lookup give it.
#[derive(Queryable, Selectable, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[diesel(table_name = games)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameRow {
    pub id: i64,
    pub content_hash: String,
    pub game: String,
    pub preset: String,
    pub player1: String,
    pub player2: String,
    pub plies: i32,
    /// The result scored: the stated one when the record states one, else the derived one;
    /// `ongoing` for an unfinished game.
    pub result: String,
    pub reason: Option<String>,
    pub derived_outcome: Option<String>,
    pub derived_reason: Option<String>,
    pub first_flips: Option<String>,
    pub doubled: bool,
    pub points1: i32,
    pub points2: i32,
    pub played_on: Option<String>,
    pub source: String,
    pub imported_at: String,
}

/// The SHA-256 of the record's canonical JSON (fields in a fixed order, metadata sorted by
/// key): two records with the same content have the same hash, wherever they came from.
pub fn content_hash(record: &Record) -> String {
    hash_json(&serde_json::to_string(record).expect("a record serialises"))
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
    /// Validates and scores `record`; an invalid record gives its replay error.
    pub fn from_record(
        record: &Record,
        source: &str,
        imported_at: &str,
    ) -> Result<NewGame, ReplayError> {
        let (score, verdict) = score_with_verdict(record)?;
        let (derived_outcome, derived_reason) = match verdict.derived {
            Status::Ended { end, .. } => (
                Some(end.outcome.code().to_owned()),
                Some(end.reason.code().to_owned()),
            ),
            Status::Ongoing => (None, None),
        };
        let stated = record.result;
        let first_flips = (record.actions.len() >= 2)
            .then(|| format!("{} {}", record.actions[0], record.actions[1]));
        let json = serde_json::to_string(record).expect("a record serialises");
        Ok(NewGame {
            content_hash: hash_json(&json),
            game: record.game.clone(),
            preset: record.preset.clone(),
            options: serde_json::to_string(&record.options).expect("options serialise"),
            player1: record.player_name(0),
            player2: record.player_name(1),
            layout: record.layout.map(|l| l.to_string()),
            start: record.start.clone(),
            actions: record.actions.join(" "),
            plies: score.plies as i32,
            stated_outcome: stated.map(|s| s.outcome.code().to_owned()),
            stated_reason: stated.and_then(|s| s.reason).map(|r| r.code().to_owned()),
            derived_outcome,
            derived_reason,
            result: score
                .result
                .map_or("ongoing", |r| r.outcome.code())
                .to_owned(),
            reason: score
                .result
                .and_then(|r| r.reason)
                .map(|r| r.code().to_owned()),
            first_flips: first_flips.filter(|_| score.first_flips.is_some()),
            doubled: score.doubled,
            points1: score.players[0].points as i32,
            points2: score.players[1].points as i32,
            played_on: record
                .metadata
                .get("date")
                .and_then(|d| d.as_str())
                .and_then(iso_date),
            source: source.to_owned(),
            imported_at: imported_at.to_owned(),
            record: json,
        })
    }
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
        return Some(t[..10].to_owned());
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
        if (1..=31).contains(&day) && (1000..=9999).contains(&year) {
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
    }

    #[test]
    fn the_hash_follows_content_not_source() {
        let a = Record::new("tcga", vec!["b8(G)".into()]);
        let mut b = a.clone();
        assert_eq!(content_hash(&a), content_hash(&b));
        b.players = vec!["x".into(), "y".into()];
        assert_ne!(content_hash(&a), content_hash(&b));
        assert_eq!(content_hash(&a).len(), 64);
    }
}
