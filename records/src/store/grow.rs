//! Keeping the explorer as games are stored, sparsely: a position only one stored game went
//! on from is not expanded into rows; the store keeps a **tail** instead (the position and that
//! game's id), and the game's own record says the rest. When a second game goes on from a
//! tail's position, the tail is split: the first game's row is written there, its tail moves to
//! its next position, and both go on. So rows exist only where games share a position (the
//! first few plies), and every game costs about one tail, not a row per ply: deep positions are
//! nearly all reached by one game, and writing a row for each was most of an import's time (a
//! B-tree of random keys far larger than the page cache). The counts are the same
//! (`records/tests/explorer.rs` checks them against an independent walk).
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

/// What the store holds of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum State {
    /// Rows: several games went on from it.
    Expanded,
    /// One game went on from it; `stored`: the store holds the tail (else it is this chunk's).
    Tail { game: i64, stored: bool },
    /// No game went on from it.
    Empty,
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
    /// The tails of `nodes`: (node, game).
    fn tails(&mut self, nodes: &[i64]) -> Result<Vec<(i64, i64)>, StoreError>;
    fn add_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError>;
    fn insert_tails(&mut self, tails: &[(i64, i64)]) -> Result<(), StoreError>;
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
        let mut new_tails: HashMap<i64, i64> = HashMap::new();
        let mut gone_tails: Vec<i64> = Vec::new();
        while !walkers.is_empty() {
            self.look_up(conn, walkers.iter().map(|w| w.steps[w.at].node))?;
            let mut next = Vec::with_capacity(walkers.len());
            let mut queue: std::collections::VecDeque<Walker> = walkers.into();
            while let Some(mut w) = queue.pop_front() {
                let node = w.steps[w.at].node;
                match self.cache[&node] {
                    State::Expanded => {
                        rows.push(w.steps[w.at].clone());
                        w.at += 1;
                        if w.at < w.steps.len() {
                            next.push(w);
                        }
                    }
                    State::Empty => {
                        self.cache.insert(
                            node,
                            State::Tail {
                                game: w.steps[w.at].first_game,
                                stored: false,
                            },
                        );
                        new_tails.insert(node, w.steps[w.at].first_game);
                    }
                    State::Tail { game, stored } => {
                        // A second game from here: the first one's walk resumes at this
                        // position, which now has rows.
                        self.cache.insert(node, State::Expanded);
                        if stored {
                            gone_tails.push(node);
                        } else {
                            new_tails.remove(&node);
                        }
                        let steps = match chunk.get(&game) {
                            Some(steps) => steps.clone(),
                            None => std::rc::Rc::new(stored_steps(conn, game)?),
                        };
                        if let Some(at) = steps.iter().position(|s| s.node == node) {
                            queue.push_front(Walker { steps, at });
                        }
                        queue.push_front(w);
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
                self.cache.insert(node, State::Empty);
            }
            for node in conn.expanded(part)? {
                self.cache.insert(node, State::Expanded);
            }
            for (node, game) in conn.tails(part)? {
                self.cache.insert(node, State::Tail { game, stored: true });
            }
        }
        Ok(())
    }
}
