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
//! looked up together, then every game takes one step. What the walks add is kept in memory
//! and written once, when the transaction is about to commit ([`Grower::finish`]) or when
//! enough is pending ([`PENDING_ROWS`], [`PENDING_TAILS`]): the rows of the first plies,
//! which every game passes, are one upsert each per transaction rather than one per chunk,
//! and a tail split before the writes never reaches the store.
//!
//! What a grower knows of the positions outlives the transaction when nobody else wrote to the
//! explorer since its commit: every transaction that changes the explorer adds one to
//! `explorer_settings.generation`, and a grower that finds the number its own commit left
//! ([`Grower::begin`]) keeps its cache; an import's batches so ask the store nothing about the
//! positions their earlier batches wrote (a million games: 8 s of lookups).

use rustc_hash::{FxHashMap as HashMap, FxHashSet};
use std::rc::Rc;

use diesel::prelude::*;
use smallvec::SmallVec;

use super::explorer::{ExplorerRow, add_postgres, insert_postgres};
use super::rows_sql::{add_sqlite, insert_sqlite};
use super::schema::{explorer, explorer_settings, explorer_tails, games};
use super::{StoreError, line};

/// A stored game's line: (id, line, game, preset).
pub(crate) type StoredLine = (i64, Vec<u8>, String, String);

/// Tails per insert statement.
const TAIL_ROWS: usize = 100;

/// Node keys per lookup statement (under SQLite's and PostgreSQL's limits on bound values).
const LOOKUP: usize = 500;

/// Cached states at most: past this, what is pending is written and the cache forgotten (the
/// store then holds everything it knew).
const CACHE: usize = 1 << 21;

/// Positions written at most that [`Grower::written`] remembers (8 bytes each).
const WRITTEN: usize = 1 << 22;

/// Rows pending at most before what is pending is written (about 200 bytes each).
const PENDING_ROWS: usize = 1 << 17;

/// Tails pending at most before what is pending is written (about 32 bytes each).
const PENDING_TAILS: usize = 1 << 19;

/// Games a position keeps as tails before it has rows: a position few games went on from is
/// answered from their lines (as many reads), and a game reaching one costs one small insert,
/// not the rows of every game there. 64 (16 before, 4 before that): a million Banqi games
/// then have rows only at the start and after the first flip (449 positions rather than
/// 12,000), and their import took 29.2-29.7 s instead of 35.3-37.2 s (fewer splits, upserts
/// and lines read); a request reads at most 64 lines (p99 1.34 ms against 1.02-1.10 ms).
/// What it costs: transpositions share counts through positions of more than 64 games
/// (docs/rules.md 60, docs/performance.md).
pub(crate) const TAILS: usize = 64;

/// The games of a position's tails, each with whether the store holds its tail already (else
/// it is pending). Most positions below the first plies have one: kept inline, no allocation.
type TailGames = SmallVec<[(i64, bool); 1]>;

/// What the store holds of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
enum State {
    /// Rows: more than [`TAILS`] games went on from it; `stored`: the store has rows for it
    /// (else they are all pending: they are inserted, with no upsert).
    Expanded { stored: bool },
    /// The games that went on from it (none to [`TAILS`]).
    Tails(TailGames),
}

/// The explorer's writes, one transaction after another: call [`Grower::begin`] when a
/// transaction begins, [`Grower::finish`] before it commits and [`Grower::committed`] after.
pub(crate) struct Grower {
    /// What the store holds of each position, with what is pending applied.
    cache: HashMap<i64, State>,
    /// Rows to add, by node and action.
    rows: HashMap<i64, HashMap<Box<str>, ExplorerRow>>,
    /// How many rows are pending.
    pending_rows: usize,
    /// Tails to insert: (node, game).
    new_tails: FxHashSet<(i64, i64)>,
    /// Positions whose stored tails are to be deleted (they have rows now).
    gone_tails: Vec<i64>,
    /// The (game, preset) pairs met, so that a walker names its own by index.
    names: Vec<(String, String)>,
    /// Whether the store held no rows and no tails when what the grower knows began (asked
    /// once: at its first lookup since it last forgot).
    empty_at_start: Option<bool>,
    /// The positions this grower wrote rows or tails for, sorted: in a store empty at the
    /// start, the only ones worth looking up (an import into a new store looks up nothing).
    written: Vec<i64>,
    /// The explorer's generation the grower's last commit left (None from when a transaction
    /// begins until it has committed: what it cached may be rolled back).
    known: Option<i64>,
    /// The generation this transaction's [`Grower::finish`] wrote, until it commits.
    finished: Option<i64>,
}

/// A game just stored, for the explorer: its id, game and preset, and its line (`line.rs`).
pub(crate) struct GameLine {
    pub id: i64,
    pub game: String,
    pub preset: String,
    pub line: Vec<u8>,
}

/// One game walking down its line: where it is (the step it plays from `at.node`).
struct Walker {
    line: Rc<[u8]>,
    at: line::At,
    game: i64,
    /// Its game and preset, in [`Grower::names`].
    name: usize,
}

/// What the explorer needs of either backend's connection.
pub(crate) trait ExplorerConnection {
    /// Which of `nodes` have rows.
    fn expanded(&mut self, nodes: &[i64]) -> Result<Vec<i64>, StoreError>;
    /// The tails of `nodes`: (node, game), a row per game.
    fn tails(&mut self, nodes: &[i64]) -> Result<Vec<(i64, i64)>, StoreError>;
    /// Adds rows to the stored ones of the same position and action.
    fn add_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError>;
    /// Inserts rows of positions that have none stored.
    fn insert_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError>;
    fn insert_tails(&mut self, tails: &[(i64, i64)]) -> Result<(), StoreError>;
    /// Whether the store holds no explorer rows and no tails.
    fn explorer_empty(&mut self) -> Result<bool, StoreError>;
    /// The explorer's generation (`explorer_settings.generation`).
    fn generation(&mut self) -> Result<i64, StoreError>;
    /// Adds one to the explorer's generation, and gives the new one.
    fn next_generation(&mut self) -> Result<i64, StoreError>;
    /// Deletes every tail of `nodes`.
    fn delete_tails(&mut self, nodes: &[i64]) -> Result<(), StoreError>;
    /// Stored games' lines, games and presets: (id, line, game, preset).
    fn lines(&mut self, ids: &[i64]) -> Result<Vec<StoredLine>, StoreError>;
}

macro_rules! explorer_connection {
    ($Conn:ty, $add:ident, $insert:ident) => {
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
                // Whole arrays: one statement, prepared once (diesel writes a vector of rows
                // on SQLite as a statement per row).
                let row = |&(node, game): &(i64, i64)| {
                    (
                        explorer_tails::node.eq(node),
                        explorer_tails::game_id.eq(game),
                    )
                };
                in_prepared_statements!(tails, TAIL_ROWS, |part| diesel::insert_into(
                    explorer_tails::table
                )
                .values(part.each_ref().map(row))
                .execute(self)?);
                Ok(())
            }
            fn delete_tails(&mut self, nodes: &[i64]) -> Result<(), StoreError> {
                for part in nodes.chunks(LOOKUP) {
                    diesel::delete(explorer_tails::table.filter(explorer_tails::node.eq_any(part)))
                        .execute(self)?;
                }
                Ok(())
            }
            fn lines(&mut self, ids: &[i64]) -> Result<Vec<StoredLine>, StoreError> {
                let mut found = Vec::with_capacity(ids.len());
                for part in ids.chunks(LOOKUP) {
                    let rows: Vec<(i64, Option<Vec<u8>>, String, String)> = games::table
                        .filter(games::id.eq_any(part))
                        .select((games::id, games::opening_line, games::game, games::preset))
                        .load(self)?;
                    found
                        .extend(rows.into_iter().filter_map(|(id, line, kind, preset)| {
                            Some((id, line?, kind, preset))
                        }));
                }
                Ok(found)
            }
            fn explorer_empty(&mut self) -> Result<bool, StoreError> {
                let rows: Option<i64> = explorer::table
                    .select(explorer::node)
                    .first(self)
                    .optional()?;
                let tails: Option<i64> = explorer_tails::table
                    .select(explorer_tails::node)
                    .first(self)
                    .optional()?;
                Ok(rows.is_none() && tails.is_none())
            }
            fn generation(&mut self) -> Result<i64, StoreError> {
                Ok(explorer_settings::table
                    .select(explorer_settings::generation)
                    .first(self)?)
            }
            fn next_generation(&mut self) -> Result<i64, StoreError> {
                Ok(diesel::update(explorer_settings::table)
                    .set(explorer_settings::generation.eq(explorer_settings::generation + 1))
                    .returning(explorer_settings::generation)
                    .get_result(self)?)
            }
            fn insert_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError> {
                $insert(self, rows)
            }
        }
    };
}

explorer_connection!(SqliteConnection, add_sqlite, insert_sqlite);
explorer_connection!(PgConnection, add_postgres, insert_postgres);

/// A stored game's steps, read from its line (its id in them).
pub(crate) fn stored_steps(
    conn: &mut impl ExplorerConnection,
    game: i64,
) -> Result<Vec<ExplorerRow>, StoreError> {
    Ok(conn
        .lines(&[game])?
        .pop()
        .map(|(id, line, kind, preset)| super::line::decode(&line, &kind, &preset, id))
        .unwrap_or_default())
}

impl Default for Grower {
    fn default() -> Grower {
        Grower {
            cache: HashMap::default(),
            rows: HashMap::default(),
            pending_rows: 0,
            new_tails: Default::default(),
            gone_tails: Vec::new(),
            names: Vec::new(),
            empty_at_start: None,
            written: Vec::new(),
            known: None,
            finished: None,
        }
    }
}

impl Grower {
    /// Begins a transaction: what the grower knows holds on if its last transaction committed
    /// and no other has changed the explorer since; else it is forgotten.
    pub(crate) fn begin(&mut self, conn: &mut impl ExplorerConnection) -> Result<(), StoreError> {
        let generation = conn.generation()?;
        if self.known != Some(generation) {
            self.cache.clear();
            self.rows.clear();
            self.pending_rows = 0;
            self.new_tails.clear();
            self.gone_tails.clear();
            self.empty_at_start = None;
            self.written.clear();
        }
        self.known = None;
        self.finished = None;
        Ok(())
    }

    /// Writes what is pending and counts the transaction in the explorer's generation: call it
    /// before the transaction commits.
    pub(crate) fn finish(&mut self, conn: &mut impl ExplorerConnection) -> Result<(), StoreError> {
        self.write(conn)?;
        self.finished = Some(conn.next_generation()?);
        Ok(())
    }

    /// The transaction [`Grower::finish`] ended has committed: what the grower knows holds.
    pub(crate) fn committed(&mut self) {
        self.known = self.finished.take();
    }

    /// Writes what is pending (rows in key order). The cache then says what the store holds:
    /// the positions whose rows were inserted have them stored, and every tail is stored; or,
    /// when it has grown past [`CACHE`], it is forgotten.
    fn write(&mut self, conn: &mut impl ExplorerConnection) -> Result<(), StoreError> {
        // Positions with rows in the store get their rows added; the others' are inserted.
        let (mut added, mut inserted): (Vec<ExplorerRow>, Vec<ExplorerRow>) = (vec![], vec![]);
        for (node, actions) in std::mem::take(&mut self.rows) {
            let stored = !matches!(
                self.cache.get(&node),
                Some(State::Expanded { stored: false })
            );
            let to = if stored { &mut added } else { &mut inserted };
            to.extend(actions.into_values());
        }
        self.pending_rows = 0;
        for rows in [&mut added, &mut inserted] {
            rows.sort_unstable_by(|a, b| (a.node, &a.action).cmp(&(b.node, &b.action)));
        }
        conn.add_rows(&added)?;
        conn.insert_rows(&inserted)?;
        let mut gone = std::mem::take(&mut self.gone_tails);
        gone.sort_unstable();
        conn.delete_tails(&gone)?;
        let mut tails: Vec<(i64, i64)> = std::mem::take(&mut self.new_tails).into_iter().collect();
        tails.sort_unstable();
        conn.insert_tails(&tails)?;
        if self.empty_at_start == Some(true) {
            let mut fresh: Vec<i64> = added.iter().chain(&inserted).map(|row| row.node).collect();
            fresh.extend(tails.iter().map(|&(node, _)| node));
            fresh.sort_unstable();
            // Two sorted runs: the stable sort merges them in one pass (an import's `written`
            // grows to millions; sorting it whole at every write cost seconds).
            self.written.extend(fresh);
            self.written.sort();
            self.written.dedup();
            if self.written.len() > WRITTEN {
                // Memory stays bounded, however long the import: the store is looked up again.
                self.written = Vec::new();
                self.empty_at_start = Some(false);
            }
        }
        if self.cache.len() > CACHE {
            self.cache.clear();
            return Ok(());
        }
        for row in &inserted {
            self.cache
                .insert(row.node, State::Expanded { stored: true });
        }
        for &(node, game) in &tails {
            if let Some(State::Tails(games)) = self.cache.get_mut(&node) {
                for (other, stored) in games.iter_mut() {
                    *stored |= *other == game;
                }
            }
        }
        Ok(())
    }

    /// The index of `game` and `preset` in [`Grower::names`].
    fn name(&mut self, game: &str, preset: &str) -> usize {
        match self
            .names
            .iter()
            .position(|(g, p)| g == game && p == preset)
        {
            Some(i) => i,
            None => {
                self.names.push((game.to_owned(), preset.to_owned()));
                self.names.len() - 1
            }
        }
    }

    /// Counts one game's step in the pending rows.
    fn count(&mut self, step: &line::LineStep<'_>, game: i64, name: usize) {
        let actions = self.rows.entry(step.node).or_default();
        match actions.get_mut(step.action) {
            Some(row) => step.add_to(row, game),
            None => {
                let (kind, preset) = &self.names[name];
                actions.insert(step.action.into(), step.row(kind, preset, game));
                self.pending_rows += 1;
            }
        }
    }

    /// Adds the games just stored (in id order).
    pub(crate) fn add(
        &mut self,
        conn: &mut impl ExplorerConnection,
        games: Vec<GameLine>,
    ) -> Result<(), StoreError> {
        // This chunk's lines by id: a tail split within the chunk finds its game here.
        let mut chunk: HashMap<i64, (Rc<[u8]>, usize)> =
            HashMap::with_capacity_and_hasher(games.len(), Default::default());
        let mut walkers: Vec<Walker> = Vec::with_capacity(games.len());
        for game in games {
            let name = self.name(&game.game, &game.preset);
            let line: Rc<[u8]> = game.line.into();
            chunk.insert(game.id, (line.clone(), name));
            if let Some(at) = line::first(&line) {
                walkers.push(Walker {
                    line,
                    at,
                    game: game.id,
                    name,
                });
            }
        }
        // Games of earlier chunks whose tails split, with where: their lines are read together,
        // and they walk on from there at the next level (counts add up in any order).
        let mut waiting: Vec<(i64, i64)> = Vec::new();
        while !walkers.is_empty() || !waiting.is_empty() {
            let ids: Vec<i64> = waiting.iter().map(|&(game, _)| game).collect();
            let at: HashMap<i64, i64> = waiting.drain(..).collect();
            for (id, line, kind, preset) in conn.lines(&ids)? {
                let line: Rc<[u8]> = line.into();
                if let Some(found) = line::find(&line, at[&id]) {
                    walkers.push(Walker {
                        at: found,
                        line,
                        game: id,
                        name: self.name(&kind, &preset),
                    });
                }
            }
            self.look_up(conn, walkers.iter().map(|w| w.at.node))?;
            let mut next = Vec::with_capacity(walkers.len());
            let mut queue: std::collections::VecDeque<Walker> = walkers.into();
            while let Some(mut w) = queue.pop_front() {
                let node = w.at.node;
                let state = self.cache.get_mut(&node).expect("looked up");
                match state {
                    State::Expanded { .. } => {
                        let line = w.line.clone();
                        let Some((step, after)) = line::step(&line, w.at) else {
                            continue;
                        };
                        self.count(&step, w.game, w.name);
                        if let Some(after) = after {
                            w.at = after;
                            next.push(w);
                        }
                    }
                    State::Tails(games) if games.len() < TAILS => {
                        games.push((w.game, false));
                        self.new_tails.insert((node, w.game));
                    }
                    State::Tails(games) => {
                        // One game more than tails hold: the position gets rows, and every
                        // game of its tails walks on from here with the new one.
                        let games = std::mem::take(games);
                        self.cache.insert(node, State::Expanded { stored: false });
                        if games.iter().any(|&(_, stored)| stored) {
                            self.gone_tails.push(node);
                        }
                        queue.push_front(w);
                        for (other, stored) in games {
                            if !stored {
                                self.new_tails.remove(&(node, other));
                            }
                            let Some((line, name)) = chunk.get(&other).cloned() else {
                                waiting.push((other, node));
                                continue;
                            };
                            if let Some(at) = line::find(&line, node) {
                                queue.push_front(Walker {
                                    line,
                                    at,
                                    game: other,
                                    name,
                                });
                            }
                        }
                    }
                }
            }
            walkers = next;
        }
        if self.cache.len() > CACHE
            || self.pending_rows > PENDING_ROWS
            || self.new_tails.len() > PENDING_TAILS
        {
            self.write(conn)?;
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
        if self.empty_at_start.is_none() {
            self.empty_at_start = Some(conn.explorer_empty()?);
        }
        if self.empty_at_start == Some(true) {
            // The store had nothing of the explorer when the transaction began: a position
            // holds rows or tails only if this transaction wrote them.
            unknown.retain(|node| {
                let written = self.written.binary_search(node).is_ok();
                if !written {
                    self.cache.insert(*node, State::Tails(TailGames::new()));
                }
                written
            });
        }
        for part in unknown.chunks(LOOKUP) {
            for &node in part {
                self.cache.insert(node, State::Tails(TailGames::new()));
            }
            for node in conn.expanded(part)? {
                self.cache.insert(node, State::Expanded { stored: true });
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
