//! Requests filtered by dates, answered from the explorer's counts by month
//! (`explorer_months`, kept when the store's month counts are on,
//! [`Store::set_explorer_months`]): at a position with rows, the months the dates cover whole
//! are added up, and only the games of the days at the ends are walked.

use std::collections::HashMap;

use diesel::prelude::*;

use super::explorer_row::ExplorerRow;
use super::explorer_sql::ExplorerConnection;
use super::model::days_in;
use super::{Store, StoreError, with_connection};
use crate::core::explorer::Node;

/// What dates cover: whole months, and the days at the ends outside them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cover {
    /// The first and last whole months (year × 100 + month, both kept).
    pub first: i32,
    pub last: i32,
    /// The days before the first whole month and after the last: (from, to) dates, both kept.
    pub ends: Vec<(String, String)>,
}

/// A date's year, month and day (YYYY-MM-DD).
fn parts(date: &str) -> Option<(u32, u32, u32)> {
    let number = |r: std::ops::Range<usize>| date.get(r)?.parse::<u32>().ok();
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    (date.len() == 10 && (1..=days_in(year, month)).contains(&day)).then_some((year, month, day))
}

fn key(year: u32, month: u32) -> i32 {
    (year * 100 + month) as i32
}

/// The whole months from `from` to `to` (dates, both kept; None: no bound), and the days at the
/// ends; None when they cover no whole month (or a date is not one).
pub(crate) fn cover(from: Option<&str>, to: Option<&str>) -> Option<Cover> {
    let mut ends = Vec::new();
    let first = match from {
        None => i32::MIN,
        Some(date) => {
            let (year, month, day) = parts(date)?;
            if day == 1 {
                key(year, month)
            } else {
                let end = format!("{year:04}-{month:02}-{:02}", days_in(year, month));
                ends.push((date.to_owned(), end));
                if month == 12 {
                    key(year + 1, 1)
                } else {
                    key(year, month + 1)
                }
            }
        }
    };
    let last = match to {
        None => i32::MAX,
        Some(date) => {
            let (year, month, day) = parts(date)?;
            if day == days_in(year, month) {
                key(year, month)
            } else {
                ends.push((format!("{year:04}-{month:02}-01"), date.to_owned()));
                match month {
                    1 if year == 0 => return None,
                    1 => key(year - 1, 12),
                    _ => key(year, month - 1),
                }
            }
        }
    };
    (first <= last).then_some(Cover { first, last, ends })
}

impl Store {
    /// What was played from `node` (a position with rows) by the games of months `first` to
    /// `last`, added up from its month rows; and how many games that is. Read in one
    /// transaction: the rows and the months as one commit left them.
    pub(crate) fn month_counts(
        &self,
        node: Node,
        first: i32,
        last: i32,
    ) -> Result<(Vec<ExplorerRow>, i64), StoreError> {
        let node = node.stored();
        let (rows, months) = with_connection!(self, |conn| conn.transaction(|conn| {
            Ok::<_, StoreError>((conn.rows_of(node)?, conn.month_rows(node, first, last)?))
        })?);
        // Each action's row (where it leads, its ply) with the months' counts: one lookup a
        // month row (the start has 448 actions, twelve months a year).
        let mut counted: HashMap<&str, ExplorerRow> =
            rows.iter().map(|r| (r.action.as_str(), empty(r))).collect();
        for month in &months {
            if let Some(row) = counted.get_mut(month.action.as_str()) {
                month.add_to(row);
            }
        }
        let counted: Vec<ExplorerRow> = counted.into_values().filter(|r| r.games > 0).collect();
        let games = counted.iter().map(|r| r.games).sum();
        Ok((counted, games))
    }
}

/// `row` with no games counted.
fn empty(row: &ExplorerRow) -> ExplorerRow {
    ExplorerRow {
        games: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        points: 0,
        coin_stakes: 0,
        coin_margins: 0,
        first_game: i64::MAX,
        last_game: i64::MIN,
        ..row.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ends(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn whole_months_and_the_days_at_the_ends() {
        // Whole months only.
        assert_eq!(
            cover(Some("2025-03-01"), Some("2025-05-31")),
            Some(Cover {
                first: 202503,
                last: 202505,
                ends: vec![]
            })
        );
        // Days at both ends: March 15–31 and June 1–10 walked.
        assert_eq!(
            cover(Some("2025-03-15"), Some("2025-06-10")),
            Some(Cover {
                first: 202504,
                last: 202505,
                ends: ends(&[("2025-03-15", "2025-03-31"), ("2025-06-01", "2025-06-10")])
            })
        );
        // Across a year's end, and February of a leap year ending on its 29th.
        assert_eq!(
            cover(Some("2023-12-02"), Some("2024-02-29")),
            Some(Cover {
                first: 202401,
                last: 202402,
                ends: ends(&[("2023-12-02", "2023-12-31")])
            })
        );
        // February 28th of a leap year is not its end.
        assert_eq!(
            cover(Some("2024-01-01"), Some("2024-02-28")),
            Some(Cover {
                first: 202401,
                last: 202401,
                ends: ends(&[("2024-02-01", "2024-02-28")])
            })
        );
        // One bound only.
        assert_eq!(
            cover(Some("2025-01-01"), None),
            Some(Cover {
                first: 202501,
                last: i32::MAX,
                ends: vec![]
            })
        );
        assert_eq!(
            cover(None, Some("2025-01-20")),
            Some(Cover {
                first: i32::MIN,
                last: 202412,
                ends: ends(&[("2025-01-01", "2025-01-20")])
            })
        );
    }

    #[test]
    fn no_whole_month_is_walked_as_it_is() {
        assert_eq!(cover(Some("2025-03-02"), Some("2025-03-30")), None);
        assert_eq!(cover(Some("2025-03-15"), Some("2025-04-10")), None);
        assert_eq!(cover(Some("2025-04-01"), Some("2025-03-31")), None);
        // Not a date the calendar has.
        assert_eq!(cover(Some("2026-02-31"), None), None);
        assert_eq!(cover(Some("2026-2-1"), None), None);
    }
}
