//! One row of the `explorer` table (a public position, the action every seat saw played from
//! it, and what it scored), and rows added up: what the explorer's writers and readers share.

use std::collections::HashMap;

use diesel::prelude::*;

use super::schema::{explorer, explorer_months};
use crate::core::explorer::Counts;

/// One row of `explorer`: the games that played `action` from `node`.
#[derive(Insertable, Queryable, Selectable, Clone, Debug, PartialEq, Eq)]
#[diesel(table_name = explorer, treat_none_as_default_value = false)]
pub struct ExplorerRow {
    pub node: i64,
    pub action: String,
    pub next: i64,
    pub game: String,
    pub preset: String,
    pub ply: i32,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    pub points: i64,
    pub coin_stakes: i64,
    pub coin_margins: i64,
    pub first_game: i64,
    pub last_game: i64,
}

/// The counts of a row of the explorer's (a position's action, or its month): the same
/// fields by the same names.
macro_rules! counts {
    ($row:expr) => {
        Counts {
            games: $row.games,
            wins: $row.wins,
            draws: $row.draws,
            losses: $row.losses,
            points: $row.points,
            coin_stakes: $row.coin_stakes,
            coin_margins: $row.coin_margins,
        }
    };
}

impl ExplorerRow {
    pub fn counts(&self) -> Counts {
        counts!(self)
    }

    pub(crate) fn merge(&mut self, other: &ExplorerRow) {
        self.add(&other.counts(), other.first_game, other.last_game);
    }

    /// Adds `counts`, of games `first` to `last` by id.
    fn add(&mut self, counts: &Counts, first: i64, last: i64) {
        let mut sum = self.counts();
        sum.add(counts);
        let counts = sum;
        self.games = counts.games;
        self.wins = counts.wins;
        self.draws = counts.draws;
        self.losses = counts.losses;
        self.points = counts.points;
        self.coin_stakes = counts.coin_stakes;
        self.coin_margins = counts.coin_margins;
        self.first_game = self.first_game.min(first);
        self.last_game = self.last_game.max(last);
    }
}

/// One row of `explorer_months`: the games played in `month` (year × 100 + month) that
/// played `action` from `node`, a position with rows (kept when the store's month counts are
/// on: requests filtered by whole months add these up).
#[derive(Insertable, Queryable, Selectable, Clone, Debug, PartialEq, Eq)]
#[diesel(table_name = explorer_months)]
pub struct MonthRow {
    pub node: i64,
    pub month: i32,
    pub action: String,
    pub games: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    pub points: i64,
    pub coin_stakes: i64,
    pub coin_margins: i64,
    pub first_game: i64,
    pub last_game: i64,
}

impl MonthRow {
    /// The row's counts in `month`.
    pub(crate) fn of(row: ExplorerRow, month: i32) -> MonthRow {
        MonthRow {
            node: row.node,
            month,
            action: row.action,
            games: row.games,
            wins: row.wins,
            draws: row.draws,
            losses: row.losses,
            points: row.points,
            coin_stakes: row.coin_stakes,
            coin_margins: row.coin_margins,
            first_game: row.first_game,
            last_game: row.last_game,
        }
    }

    /// Adds the month's counts to `row` (of the same position and action).
    pub(crate) fn add_to(&self, row: &mut ExplorerRow) {
        row.add(&counts!(self), self.first_game, self.last_game);
    }
}

/// A stored date (`YYYY-MM-DD`) as the month `explorer_months` keys it: year × 100 + month.
pub(crate) fn month_of(date: &str) -> Option<i32> {
    let year: i32 = date.get(0..4)?.parse().ok()?;
    let month: i32 = date.get(5..7)?.parse().ok()?;
    Some(year * 100 + month)
}

/// Rows (their games' ids set) added up by node and action, in key order: one upsert per
/// key, written in the order of the table's pages, and concurrent writers take the rows'
/// locks in the same order.
pub(crate) fn tally(rows: impl Iterator<Item = ExplorerRow>) -> Vec<ExplorerRow> {
    let mut sums: HashMap<(i64, String), ExplorerRow> = HashMap::new();
    for row in rows {
        match sums.get_mut(&(row.node, row.action.clone())) {
            Some(kept) => kept.merge(&row),
            None => {
                sums.insert((row.node, row.action.clone()), row);
            }
        }
    }
    let mut rows: Vec<ExplorerRow> = sums.into_values().collect();
    rows.sort_unstable_by(|a, b| (a.node, &a.action).cmp(&(b.node, &b.action)));
    rows
}
