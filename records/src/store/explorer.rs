//! The opening explorer in the store: the `explorer` counts (one row per public position and
//! the action every seat saw played from it, [`crate::core::explorer`]), kept in the
//! transaction that stores a game, to the store's depth; and the reads an explorer request
//! makes (a few primary-key lookups, whatever the number of games).

use std::collections::HashMap;

use diesel::prelude::*;
use diesel::upsert::excluded;

use super::schema::{explorer, explorer_settings, games};
use super::{NewGame, Store, StoreError, WriteTransaction, with_connection};
use crate::core::explorer::{Counts, DEFAULT_DEPTH, MAX_DEPTH, Node, Step};

/// One row of `explorer`: the games that played `action` from `node`.
#[derive(Insertable, Queryable, Selectable, Clone, Debug, PartialEq, Eq)]
#[diesel(table_name = explorer)]
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

impl ExplorerRow {
    /// One game's row for `step`, counted as `counts` (its id not yet known).
    pub fn new(game: &str, preset: &str, step: &Step, counts: &Counts) -> ExplorerRow {
        ExplorerRow {
            node: step.node.stored(),
            action: step.action.clone(),
            next: step.next.stored(),
            game: game.to_owned(),
            preset: preset.to_owned(),
            ply: step.ply as i32,
            games: counts.games,
            wins: counts.wins,
            draws: counts.draws,
            losses: counts.losses,
            points: counts.points,
            coin_stakes: counts.coin_stakes,
            coin_margins: counts.coin_margins,
            first_game: 0,
            last_game: 0,
        }
    }

    pub fn counts(&self) -> Counts {
        Counts {
            games: self.games,
            wins: self.wins,
            draws: self.draws,
            losses: self.losses,
            points: self.points,
            coin_stakes: self.coin_stakes,
            coin_margins: self.coin_margins,
        }
    }

    fn merge(&mut self, other: &ExplorerRow) {
        let mut counts = self.counts();
        counts.add(&other.counts());
        self.games = counts.games;
        self.wins = counts.wins;
        self.draws = counts.draws;
        self.losses = counts.losses;
        self.points = counts.points;
        self.coin_stakes = counts.coin_stakes;
        self.coin_margins = counts.coin_margins;
        self.first_game = self.first_game.min(other.first_game);
        self.last_game = self.last_game.max(other.last_game);
    }
}

/// The rows the games just stored add (`stored`: each game and its id), added up by node and
/// action, in key order: one upsert per key, written in the order of the table's pages (a
/// B-tree filled in key order touches each page once), and concurrent writers take the rows'
/// locks in the same order (no deadlock between two PostgreSQL imports).
pub(crate) fn tally<'a>(
    stored: impl Iterator<Item = (&'a [ExplorerRow], i64)>,
) -> Vec<ExplorerRow> {
    let mut rows: HashMap<(i64, &'a str), ExplorerRow> = HashMap::new();
    for (game, id) in stored {
        for row in game {
            let row_with_id = || ExplorerRow {
                first_game: id,
                last_game: id,
                ..row.clone()
            };
            rows.entry((row.node, row.action.as_str()))
                .and_modify(|kept| kept.merge(&row_with_id()))
                .or_insert_with(row_with_id);
        }
    }
    let mut rows: Vec<ExplorerRow> = rows.into_values().collect();
    rows.sort_unstable_by(|a, b| (a.node, &a.action).cmp(&(b.node, &b.action)));
    rows
}

/// The upsert that adds a row to the stored one; `$least` and `$greatest` are the backend's
/// two-argument minimum and maximum.
macro_rules! upsert {
    ($values:expr, $least:literal, $greatest:literal) => {
        diesel::insert_into(explorer::table)
            .values($values)
            .on_conflict((explorer::node, explorer::action))
            .do_update()
            .set((
                explorer::games.eq(explorer::games + excluded(explorer::games)),
                explorer::wins.eq(explorer::wins + excluded(explorer::wins)),
                explorer::draws.eq(explorer::draws + excluded(explorer::draws)),
                explorer::losses.eq(explorer::losses + excluded(explorer::losses)),
                explorer::points.eq(explorer::points + excluded(explorer::points)),
                explorer::coin_stakes.eq(explorer::coin_stakes + excluded(explorer::coin_stakes)),
                explorer::coin_margins
                    .eq(explorer::coin_margins + excluded(explorer::coin_margins)),
                explorer::first_game.eq(diesel::dsl::sql::<diesel::sql_types::BigInt>(concat!(
                    $least,
                    "(explorer.first_game, excluded.first_game)"
                ))),
                explorer::last_game.eq(diesel::dsl::sql::<diesel::sql_types::BigInt>(concat!(
                    $greatest,
                    "(explorer.last_game, excluded.last_game)"
                ))),
            ))
    };
}

/// Adds `rows` ([`tally`]) to the counts, a prepared statement per row.
pub(crate) fn add_sqlite(
    conn: &mut SqliteConnection,
    rows: &[ExplorerRow],
) -> Result<(), StoreError> {
    for row in rows {
        upsert!(row, "min", "max").execute(conn)?;
    }
    Ok(())
}

/// Adds `rows` ([`tally`]) to the counts, a statement per 1,000 rows (15 columns: under
/// PostgreSQL's limit on bound parameters).
pub(crate) fn add_postgres(
    conn: &mut PgConnection,
    rows: &[ExplorerRow],
) -> Result<(), StoreError> {
    for part in rows.chunks(1000) {
        upsert!(part, "LEAST", "GREATEST").execute(conn)?;
    }
    Ok(())
}

/// Why the explorer's depth cannot be set.
#[derive(Debug, thiserror::Error)]
pub enum DepthError {
    #[error("the explorer's depth is 0 (off) to {MAX_DEPTH} plies; {0} is not")]
    OutOfRange(u32),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Games walked per statement group while the explorer is built from the stored games.
const BUILD_CHUNK: i64 = 2000;

impl Store {
    /// How many plies of each game the explorer follows.
    pub fn explorer_depth(&self) -> Result<u32, StoreError> {
        let depth: Option<i32> = with_connection!(self, |conn| explorer_settings::table
            .select(explorer_settings::depth)
            .first(conn)
            .optional()?);
        Ok(depth.map_or(DEFAULT_DEPTH, |d| d as u32))
    }

    /// Sets the explorer's depth (0: off, nothing kept); a new depth walks every stored game
    /// again (in one transaction: until it commits, the explorer answers at the old depth).
    pub fn set_explorer_depth(&self, depth: u32) -> Result<(), DepthError> {
        if depth > MAX_DEPTH {
            return Err(DepthError::OutOfRange(depth));
        }
        if self.explorer_depth()? != depth {
            self.build_explorer(depth)?;
        }
        Ok(())
    }

    /// Builds the explorer from the stored games when it has not been (a store migrated from
    /// before the explorer): at open.
    pub(crate) fn build_explorer_if_needed(&self) -> Result<(), StoreError> {
        let built: bool = with_connection!(self, |conn| explorer_settings::table
            .select(explorer_settings::built)
            .first(conn)?);
        if !built {
            self.build_explorer(self.explorer_depth()?)?;
        }
        Ok(())
    }

    /// Walks every stored game to `depth` into a new explorer, in one transaction, streaming
    /// the games by id.
    fn build_explorer(&self, depth: u32) -> Result<(), StoreError> {
        with_connection!(self, |conn| conn.write_transaction(|conn| {
            diesel::delete(explorer::table).execute(conn)?;
            let mut after = 0i64;
            while depth > 0 {
                let chunk: Vec<(i64, String)> = games::table
                    .filter(games::id.gt(after))
                    .order(games::id)
                    .limit(BUILD_CHUNK)
                    .select((games::id, games::record))
                    .load(conn)?;
                let Some(&(last, _)) = chunk.last() else {
                    break;
                };
                after = last;
                let walked: Vec<(NewGame, i64)> = chunk
                    .iter()
                    .filter_map(|(id, json)| {
                        let record = serde_json::from_str(json).ok()?;
                        Some((NewGame::from_record(&record, "", "", depth).ok()?, *id))
                    })
                    .collect();
                let rows = tally(walked.iter().map(|(g, id)| (&g.explorer[..], *id)));
                add_rows(conn, &rows)?;
            }
            diesel::update(explorer_settings::table)
                .set((
                    explorer_settings::depth.eq(depth as i32),
                    explorer_settings::built.eq(true),
                ))
                .execute(conn)?;
            Ok(())
        }))
    }

    /// The rows played from `node`, most played first.
    pub fn explorer_rows(&self, node: Node) -> Result<Vec<ExplorerRow>, StoreError> {
        let mut rows: Vec<ExplorerRow> = with_connection!(self, |conn| explorer::table
            .filter(explorer::node.eq(node.stored()))
            .select(ExplorerRow::as_select())
            .load(conn)?);
        rows.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.action.cmp(&b.action)));
        Ok(rows)
    }

    /// The node `action` leads to from `node`, when a stored game played it.
    pub fn explorer_next(&self, node: Node, action: &str) -> Result<Option<Node>, StoreError> {
        let next: Option<i64> = with_connection!(self, |conn| explorer::table
            .filter(explorer::node.eq(node.stored()))
            .filter(explorer::action.eq(action))
            .select(explorer::next)
            .first(conn)
            .optional()?);
        Ok(next.map(Node::from_stored))
    }

    /// Every row, in key order, `limit` at a time after `after` (the export's stream).
    pub fn explorer_page(
        &self,
        after: Option<(i64, String)>,
        limit: i64,
    ) -> Result<Vec<ExplorerRow>, StoreError> {
        with_connection!(self, |conn| {
            let mut query = explorer::table
                .select(ExplorerRow::as_select())
                .order((explorer::node, explorer::action))
                .limit(limit)
                .into_boxed();
            if let Some((node, action)) = after {
                query = query.filter(
                    explorer::node
                        .gt(node)
                        .or(explorer::node.eq(node).and(explorer::action.gt(action))),
                );
            }
            Ok(query.load(conn)?)
        })
    }
}

/// Adds `rows` on either backend's connection.
pub(crate) trait AddRows {
    fn add_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError>;
}

impl AddRows for SqliteConnection {
    fn add_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError> {
        add_sqlite(self, rows)
    }
}

impl AddRows for PgConnection {
    fn add_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError> {
        add_postgres(self, rows)
    }
}

fn add_rows(conn: &mut impl AddRows, rows: &[ExplorerRow]) -> Result<(), StoreError> {
    conn.add_rows(rows)
}
