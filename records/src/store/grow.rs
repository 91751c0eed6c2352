//! Keeping the explorer as games are stored, sparsely: a position that few stored games went
//! on from (up to [`TAILS`]) has no rows; the store keeps a **tail** per game instead (the
//! position and the game's id), and the game's own line (kept in its row, `line.rs`) says the
//! rest. When one game more goes on from it, the position gets rows: the games of its tails
//! are written there and walk on with the new one (each to its next position: a row, a tail
//! there, or the same again). So rows exist only where several games share a position (the
//! first few plies), and a game costs about one small insert, not a row per ply: deep
//! positions are nearly all reached by one game, and writing a row for each was most of an
//! import's time (a B-tree of random keys far larger than the page cache; docs/performance.md).
//! What the rows and tails count is checked against an independent walk
//! (`records/tests/explorer.rs`).
//!
//! A chunk of games is walked level by level: the positions whose state is not known yet are
//! looked up together, then every game takes one step; rows and tails are written once per
//! chunk, rows in key order.

use std::collections::HashMap;

use diesel::prelude::*;

use super::StoreError;
use super::explorer::{ExplorerRow, add_postgres, add_sqlite, tally};
use super::schema::{explorer, explorer_tails, games};

/// Node keys per lookup statement (under SQLite's and PostgreSQL's limits on bound values).
const LOOKUP: usize = 500;

/// Cached states at most, before the cache is forgotten (at the end of a chunk, when the
/// store holds everything it knew).
const CACHE: usize = 1 << 21;

/// Games a position keeps as tails before it has rows: a position few games went on from is
/// answered from their lines (as many reads), and a game reaching one costs one small insert,
/// not the rows of every game there.
pub(crate) const TAILS: usize = 4;

/// What the store holds of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    /// Rows: more than [`TAILS`] games went on from it.
    Expanded,
    /// The games that went on from it (none to [`TAILS`]), each with whether the store holds
    /// its tail already (else it is this chunk's).
    Tails(Vec<(i64, bool)>),
}

/// The explorer's writes in one transaction.
pub(crate) struct Grower {
    cache: HashMap<i64, State>,
}

/// One game walking down: its steps (rows counted for it, its id in them) and where it is.
struct Walker {
    steps: std::rc::Rc<Vec<ExplorerRow>>,
    at: usize,
}

/// What the explorer needs of either backend's connection.
pub(crate) trait ExplorerConnection {
    /// Which of `nodes` have rows.
    fn expanded(&mut self, nodes: &[i64]) -> Result<Vec<i64>, StoreError>;
    /// The tails of `nodes`: (node, game), a row per game.
    fn tails(&mut self, nodes: &[i64]) -> Result<Vec<(i64, i64)>, StoreError>;
    fn add_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError>;
    fn insert_tails(&mut self, tails: &[(i64, i64)]) -> Result<(), StoreError>;
    /// Deletes every tail of `nodes`.
    fn delete_tails(&mut self, nodes: &[i64]) -> Result<(), StoreError>;
    /// A stored game's line, game and preset.
    fn line(&mut self, game: i64) -> Result<Option<(Vec<u8>, String, String)>, StoreError>;
}

macro_rules! explorer_connection {
    ($Conn:ty, $add:ident) => {
        impl ExplorerConnection for $Conn {
            fn expanded(&mut self, nodes: &[i64]) -> Result<Vec<i64>, StoreError> {
                Ok(explorer::table
                    .filter(explorer::node.eq_any(nodes))
                    .select(explorer::node)
                    .distinct()
                    .load(self)?)
            }
            fn tails(&mut self, nodes: &[i64]) -> Result<Vec<(i64, i64)>, StoreError> {
                Ok(explorer_tails::table
                    .filter(explorer_tails::node.eq_any(nodes))
                    .select((explorer_tails::node, explorer_tails::game_id))
                    .load(self)?)
            }
            fn add_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError> {
                $add(self, rows)
            }
            fn insert_tails(&mut self, tails: &[(i64, i64)]) -> Result<(), StoreError> {
                for part in tails.chunks(LOOKUP) {
                    let rows: Vec<_> = part
                        .iter()
                        .map(|&(node, game)| {
                            (
                                explorer_tails::node.eq(node),
                                explorer_tails::game_id.eq(game),
                            )
                        })
                        .collect();
                    diesel::insert_into(explorer_tails::table)
                        .values(rows)
                        .execute(self)?;
                }
                Ok(())
            }
            fn delete_tails(&mut self, nodes: &[i64]) -> Result<(), StoreError> {
                for part in nodes.chunks(LOOKUP) {
                    diesel::delete(explorer_tails::table.filter(explorer_tails::node.eq_any(part)))
                        .execute(self)?;
                }
                Ok(())
            }
            fn line(&mut self, game: i64) -> Result<Option<(Vec<u8>, String, String)>, StoreError> {
                let found: Option<(Option<Vec<u8>>, String, String)> = games::table
                    .find(game)
                    .select((games::opening_line, games::game, games::preset))
                    .first(self)
                    .optional()?;
                Ok(found.and_then(|(line, kind, preset)| Some((line?, kind, preset))))
            }
        }
    };
}

explorer_connection!(SqliteConnection, add_sqlite);
explorer_connection!(PgConnection, add_postgres);

/// A stored game's steps, read from its line (its id in them).
pub(crate) fn stored_steps(
    conn: &mut impl ExplorerConnection,
    game: i64,
) -> Result<Vec<ExplorerRow>, StoreError> {
    Ok(conn
        .line(game)?
        .map(|(line, kind, preset)| super::line::decode(&line, &kind, &preset, game))
        .unwrap_or_default())
}

impl Grower {
    pub(crate) fn new() -> Grower {
        Grower {
            cache: HashMap::new(),
        }
    }

    /// Adds the games just stored (each with its id and its rows, in id order).
    pub(crate) fn add(
        &mut self,
        conn: &mut impl ExplorerConnection,
        games: Vec<(i64, Vec<ExplorerRow>)>,
    ) -> Result<(), StoreError> {
        if games.is_empty() {
            return Ok(());
        }
        // This chunk's games by id: a tail split within the chunk finds its game here.
        let mut chunk: HashMap<i64, std::rc::Rc<Vec<ExplorerRow>>> = HashMap::new();
        let mut walkers: Vec<Walker> = Vec::with_capacity(games.len());
        for (id, rows) in games {
            let steps: Vec<ExplorerRow> = rows
                .into_iter()
                .map(|row| ExplorerRow {
                    first_game: id,
                    last_game: id,
                    ..row
                })
                .collect();
            let steps = std::rc::Rc::new(steps);
            chunk.insert(id, steps.clone());
            walkers.push(Walker { steps, at: 0 });
        }
        let mut rows: Vec<ExplorerRow> = Vec::new();
        let mut new_tails: std::collections::HashSet<(i64, i64)> = Default::default();
        let mut gone_tails: Vec<i64> = Vec::new();
        while !walkers.is_empty() {
            self.look_up(conn, walkers.iter().map(|w| w.steps[w.at].node))?;
            let mut next = Vec::with_capacity(walkers.len());
            let mut queue: std::collections::VecDeque<Walker> = walkers.into();
            while let Some(mut w) = queue.pop_front() {
                let node = w.steps[w.at].node;
                let game = w.steps[w.at].first_game;
                let state = self.cache.get_mut(&node).expect("looked up");
                match state {
                    State::Expanded => {
                        rows.push(w.steps[w.at].clone());
                        w.at += 1;
                        if w.at < w.steps.len() {
                            next.push(w);
                        }
                    }
                    State::Tails(games) if games.len() < TAILS => {
                        games.push((game, false));
                        new_tails.insert((node, game));
                    }
                    State::Tails(games) => {
                        // One game more than tails hold: the position gets rows, and every
                        // game of its tails walks on from here with the new one.
                        let games = std::mem::take(games);
                        self.cache.insert(node, State::Expanded);
                        if games.iter().any(|&(_, stored)| stored) {
                            gone_tails.push(node);
                        }
                        queue.push_front(w);
                        for (other, stored) in games {
                            if !stored {
                                new_tails.remove(&(node, other));
                            }
                            let steps = match chunk.get(&other) {
                                Some(steps) => steps.clone(),
                                None => std::rc::Rc::new(stored_steps(conn, other)?),
                            };
                            if let Some(at) = steps.iter().position(|s| s.node == node) {
                                queue.push_front(Walker { steps, at });
                            }
                        }
                    }
                }
            }
            walkers = next;
        }
        conn.add_rows(&tally(rows.into_iter()))?;
        conn.delete_tails(&gone_tails)?;
        let mut tails: Vec<(i64, i64)> = new_tails.into_iter().collect();
        tails.sort_unstable();
        conn.insert_tails(&tails)?;
        if self.cache.len() > CACHE {
            self.cache.clear();
        }
        Ok(())
    }

    /// Looks up the states of `nodes` not in the cache.
    fn look_up(
        &mut self,
        conn: &mut impl ExplorerConnection,
        nodes: impl Iterator<Item = i64>,
    ) -> Result<(), StoreError> {
        let mut unknown: Vec<i64> = nodes.filter(|n| !self.cache.contains_key(n)).collect();
        unknown.sort_unstable();
        unknown.dedup();
        for part in unknown.chunks(LOOKUP) {
            for &node in part {
                self.cache.insert(node, State::Tails(Vec::new()));
            }
            for node in conn.expanded(part)? {
                self.cache.insert(node, State::Expanded);
            }
            for (node, game) in conn.tails(part)? {
                if let Some(State::Tails(games)) = self.cache.get_mut(&node) {
                    games.push((game, true));
                }
            }
        }
        Ok(())
    }
}
