//! The opening explorer in the store: the `explorer` counts (one row per public position and
//! the action every seat saw played from it, [`crate::core::explorer`]), kept in the
//! transaction that stores a game, to the store's depth; and the reads an explorer request
//! makes (a few primary-key lookups, whatever the number of games).

use diesel::prelude::*;

use super::explorer_row::{ExplorerRow, month_of};
use super::explorer_sql::{ExplorerConnection, rows_at, rows_from_games};
use super::grow::{GameLine, Grower};
use super::schema::{
    explorer, explorer_filters, explorer_games, explorer_months, explorer_packed,
    explorer_settings, games,
};
use super::{NewGame, Store, StoreError, WriteTransaction, with_connection};
use crate::core::explorer::{MAX_DEPTH, Node};

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
        Ok(with_connection!(self, |conn| conn.depth()?))
    }

    /// Sets the explorer's depth (0: off, nothing kept); a new depth walks every stored game
    /// again (in one transaction: until it commits, the explorer answers at the old depth).
    pub fn set_explorer_depth(&self, depth: u32) -> Result<(), DepthError> {
        if depth > MAX_DEPTH {
            return Err(DepthError::OutOfRange(depth));
        }
        if self.explorer_depth()? != depth {
            self.build_explorer(depth, self.explorer_months()?)?;
        }
        Ok(())
    }

    /// Whether the explorer keeps its counts by month too, for requests filtered by dates
    /// (`explorer_months`).
    pub fn explorer_months(&self) -> Result<bool, StoreError> {
        Ok(with_connection!(self, |conn| conn.months()?))
    }

    /// Keeps the explorer's counts by month too (`on`), or stops: the explorer is walked again
    /// from every stored game, in one transaction (until it commits, requests answer as
    /// before). A request filtered by dates then adds up the months its dates cover whole, and
    /// walks only the games of the days at its ends; each import writes a row per position,
    /// action and month played (docs/performance.md says what it costs).
    pub fn set_explorer_months(&self, on: bool) -> Result<(), StoreError> {
        if self.explorer_months()? != on {
            self.build_explorer(self.explorer_depth()?, on)?;
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
            self.build_explorer(self.explorer_depth()?, self.explorer_months()?)?;
        }
        Ok(())
    }

    /// Walks every stored game to `depth` into a new explorer (with counts by month when
    /// `months`), in one transaction, streaming the games by id.
    fn build_explorer(&self, depth: u32, months: bool) -> Result<(), StoreError> {
        with_connection!(self, |conn| conn.write_transaction(|conn| {
            diesel::delete(explorer::table).execute(conn)?;
            diesel::delete(explorer_games::table).execute(conn)?;
            diesel::delete(explorer_packed::table).execute(conn)?;
            diesel::delete(explorer_filters::table).execute(conn)?;
            diesel::delete(explorer_months::table).execute(conn)?;
            diesel::update(explorer_settings::table)
                .set((
                    explorer_settings::depth.eq(depth as i32),
                    explorer_settings::months.eq(months),
                    explorer_settings::built.eq(false),
                ))
                .execute(conn)?;
            let mut grower = Grower::default();
            grower.begin(conn)?;
            let mut after = 0i64;
            loop {
                if depth == 0 {
                    break;
                }
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
                // Each game's line at this depth, written to its row, then grown.
                let mut walked: Vec<GameLine> = Vec::with_capacity(chunk.len());
                for (id, json) in &chunk {
                    let row = serde_json::from_str(json)
                        .ok()
                        .and_then(|record| NewGame::from_record(&record, "", "", depth).ok())
                        .map(|game| game.row);
                    let line = row.as_ref().and_then(|row| row.opening_line.clone());
                    diesel::update(games::table.find(*id))
                        .set(games::opening_line.eq(&line))
                        .execute(conn)?;
                    if let (Some(row), Some(line)) = (row, line) {
                        walked.push(GameLine {
                            id: *id,
                            month: row.played_on.as_deref().and_then(month_of),
                            game: row.game,
                            preset: row.preset,
                            line,
                        });
                    }
                }
                grower.add(conn, walked)?;
            }
            grower.finish(conn)?;
            diesel::update(explorer_settings::table)
                .set(explorer_settings::built.eq(true))
                .execute(conn)?;
            Ok(())
        }))
    }

    /// The stored games that went on from `node` when it keeps them (few did); None when it
    /// has rows.
    pub(crate) fn node_games(&self, node: Node) -> Result<Option<Vec<i64>>, StoreError> {
        Ok(with_connection!(self, |conn| {
            if conn.expanded(&[node.stored()])?.is_empty() {
                let games = conn.games_at(&[node.stored()])?;
                Some(games.into_iter().map(|(_, game)| game).collect())
            } else {
                None
            }
        }))
    }

    /// Follows `actions` from `node` as far as stored games played them, and what was played
    /// from where it stopped (nothing when it stopped short). Each position answers from its
    /// rows or its games, whatever way it was reached.
    pub fn explorer_line(&self, node: Node, actions: &[String]) -> Result<Line, StoreError> {
        let mut here = node.stored();
        let mut followed = 0;
        let (rows, depth) = with_connection!(self, |conn| conn.transaction(|conn| {
            // Read on one connection, in one transaction: the line and its rows as one commit
            // left them, and on SQLite, one read lock taken for the request, not one a
            // statement (8% of a request's time under load).
            let depth = conn.depth()?;
            // The lines read on the way: a step one of them played from here says where the
            // action leads without asking the store (the action fixes the next position).
            let mut lines: Vec<Vec<ExplorerRow>> = Vec::new();
            while let Some(action) = actions.get(followed).map(|a| a.trim()) {
                let played = |steps: &ExplorerRow| steps.node == here && steps.action == action;
                let mut next = lines.iter().flatten().find(|s| played(s)).map(|s| s.next);
                if next.is_none() {
                    next = conn.next_of(here, action)?;
                }
                // A position without rows of its own: its games' lines say where they went.
                if next.is_none() && conn.expanded(&[here])?.is_empty() {
                    lines.clear();
                    let rows = rows_from_games(conn, here, &mut lines)?;
                    next = rows.iter().find(|r| r.action == action).map(|r| r.next);
                }
                match next {
                    Some(next) => {
                        here = next;
                        followed += 1;
                    }
                    None => break,
                }
            }
            let rows = if followed < actions.len() {
                Vec::new()
            } else {
                rows_at(conn, here, &mut Vec::new())?
            };
            Ok::<_, StoreError>((rows, depth))
        })?);
        let mut line = Line {
            node: Node::from_stored(here),
            followed,
            rows,
            depth,
        };
        line.rows
            .sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.action.cmp(&b.action)));
        Ok(line)
    }
}

impl Store {
    /// `count` lines of play drawn from the stored games, for benchmarks: each from `root`,
    /// 0 to `max_depth` plies (fewer where no game went on), each action chosen in proportion
    /// to the games that played it; with the node each leads to.
    #[doc(hidden)]
    pub fn sample_lines(
        &self,
        root: Node,
        count: usize,
        max_depth: usize,
        seed: u64,
    ) -> Result<Vec<(Vec<String>, Node)>, StoreError> {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut lines = Vec::with_capacity(count);
        while lines.len() < count {
            let depth = rng.random_range(0..=max_depth);
            let (mut node, mut actions) = (root, Vec::new());
            while actions.len() < depth {
                let rows = self.explorer_line(node, &[])?.rows;
                let total: i64 = rows.iter().map(|r| r.games).sum();
                if total == 0 {
                    break;
                }
                let mut pick = rng.random_range(0..total);
                let Some(row) = rows.iter().find(|r| {
                    pick -= r.games;
                    pick < 0
                }) else {
                    break;
                };
                actions.push(row.action.clone());
                node = Node::from_stored(row.next);
            }
            lines.push((actions, node));
        }
        Ok(lines)
    }
}

/// Where a line of actions led ([`Store::explorer_line`]).
#[derive(Clone, Debug)]
pub struct Line {
    pub node: Node,
    /// How many of the actions stored games played in turn.
    pub followed: usize,
    /// What was played from `node`, most played first (nothing when the line stopped short).
    pub rows: Vec<ExplorerRow>,
    /// How deep the explorer follows games (plies), as it stood when the rows were read.
    pub depth: u32,
}
