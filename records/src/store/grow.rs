//! Keeping the explorer as games are stored. Every position a stored game went on from (each
//! step of its line, `line.rs`) is found by its node, whatever way the game came there:
//!
//! - a position that more than [`SPARSE_GAMES`] games went on from has **rows** in `explorer`
//!   (per action, the games' counts added up);
//! - any other keeps its **games** in `explorer_games`, a row per game, and their own lines
//!   (kept in their `games` rows) say what they played there.
//!
//! A position has one or the other, never both, so its counts do not depend on the way it is
//! asked for (docs/rules.md 60). When one game more than [`SPARSE_GAMES`] goes on from a
//! position, it gets rows: the steps its games played there are read from their lines and
//! added up, and its games are deleted. Rows exist only where many games share a position
//! (the first plies); a game costs a small row per deeper ply.
//!
//! `explorer_games` is keyed by the game's block (its id over [`BLOCK_GAMES`]) first: a
//! transaction's games fall in one or two blocks, so its rows are written near the end of the
//! table (an index keyed by node first took 4.4 times as long to write, each insert a random
//! page of a table far larger than the page cache; docs/performance.md). A position is looked
//! up once per block.
//!
//! The grower needs, for each position a game goes on from, whether it has rows and how many
//! games it holds, to know when it gets rows. It keeps what it learns while it is the only
//! writer of the explorer (every transaction that changes the explorer adds one to
//! `explorer_settings.generation`, and a grower that finds the number its own commit left
//! keeps what it knew, [`Grower::begin`]). When the store held nothing of the explorer as it
//! began knowing, it knows every position without asking: the ones met once in a Bloom filter
//! (16 MiB, for the many positions one game reaches), the others counted. Else it asks the
//! store for each position it does not know, and after [`SCAN_AFTER`] of them reads the whole
//! of `explorer_games` once instead. The counts only decide when a position gets rows: a count
//! forgotten (memory stays bounded) or one too many (a Bloom filter's false positive) makes a
//! position get rows a little late or early, and never changes what it answers.

use rustc_hash::FxHashMap as HashMap;

use fastbloom::BloomFilter;

use super::explorer_row::{ExplorerRow, MonthRow};
use super::explorer_sql::{ExplorerConnection, block_of};
use super::{StoreError, line, packed};

/// Games a position keeps in `explorer_games` before it gets rows: a request there reads at
/// most this many lines (docs/performance.md: 64 against 16 and 4 before).
pub(crate) const SPARSE_GAMES: u32 = 64;

/// Positions a grower asks the store about before it reads all of `explorer_games` instead.
const SCAN_AFTER: usize = 1 << 12;

/// Counted positions at most: past this, the small counts are forgotten (their positions get
/// rows later than they could).
const COUNTED: usize = 1 << 22;

/// The Bloom filter of positions met once: 2^27 bits (16 MiB), 5 hashes; about 1% false
/// positives at 14 million positions (a million Banqi games at 16 plies). Past
/// [`ONCE_ITEMS`] it is emptied.
const ONCE_BITS: usize = 1 << 27;
const ONCE_HASHES: u32 = 5;
const ONCE_ITEMS: usize = 20_000_000;

/// Rows pending at most before what is pending is written (about 200 bytes each).
const PENDING_ROWS: usize = 1 << 17;

/// Games of positions pending at most before what is pending is written (16 bytes each).
const PENDING_GAMES: usize = 1 << 21;

/// The explorer's writes, one transaction after another: call [`Grower::begin`] when a
/// transaction begins, [`Grower::finish`] before it commits and [`Grower::committed`] after.
#[derive(Default)]
pub(crate) struct Grower {
    /// Positions with rows, and whether the store holds them (else they are to be inserted).
    expanded: HashMap<i64, bool>,
    /// Positions without rows and the games that went on from them (stored and pending),
    /// where known: all the looked-up ones; in a complete grower, those met twice or more.
    counts: HashMap<i64, u32>,
    /// A complete grower's positions met once (allocated at first use).
    once: Option<BloomFilter>,
    once_items: usize,
    /// Whether the grower knows every position of the store's explorer (asked at its first
    /// lookup since it last forgot: whether the store held none).
    complete: Option<bool>,
    /// Positions looked up in the store since the grower last forgot.
    looked_up: usize,
    /// Rows to add, by node and action.
    rows: HashMap<i64, HashMap<Box<str>, ExplorerRow>>,
    /// Whether the store keeps counts by month (read as each transaction begins).
    months: bool,
    /// Month rows to add (when `months`), by node and month, and action.
    month_rows: HashMap<(i64, i32), HashMap<Box<str>, ExplorerRow>>,
    /// How many rows are pending (month rows included).
    pending_rows: usize,
    /// Rows of `explorer_games` to insert: (node, game).
    new_games: Vec<(i64, i64)>,
    /// Positions that got rows since the last write: the steps of their games are added to
    /// their rows, and their games deleted, when it is written.
    opened: Vec<i64>,
    /// The (game, preset) pairs met, so that a step names its own by index.
    names: Vec<(String, String)>,
    /// The highest id of the games added: the blocks below its own have all their games.
    last_game: i64,
    /// The explorer's generation the grower's last commit left (None from when a transaction
    /// begins until it has committed: what it learnt may be rolled back).
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
    /// The month it was played (year × 100 + month), when its record says.
    pub month: Option<i32>,
}

impl Grower {
    /// Begins a transaction: what the grower knows holds on if its last transaction committed
    /// and no other has changed the explorer since; else it is forgotten.
    pub(crate) fn begin(&mut self, conn: &mut impl ExplorerConnection) -> Result<(), StoreError> {
        let generation = conn.generation()?;
        if self.known != Some(generation) {
            self.forget();
            self.rows.clear();
            self.month_rows.clear();
            self.pending_rows = 0;
            self.new_games.clear();
            self.opened.clear();
        }
        self.known = None;
        self.finished = None;
        self.months = conn.months()?;
        Ok(())
    }

    /// Forgets what it knows of the store's positions (nothing may be pending).
    fn forget(&mut self) {
        self.expanded.clear();
        self.counts.clear();
        if let Some(once) = &mut self.once {
            once.clear();
        }
        self.once_items = 0;
        self.complete = None;
        self.looked_up = 0;
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

    /// Writes what is pending: the positions that got rows first (their games' steps added;
    /// their games stay, no longer read), then the rows (in key order) and the new games of
    /// positions: packed for the blocks whose games are all stored (those below the last
    /// game's), as rows for the last block.
    fn write(&mut self, conn: &mut impl ExplorerConnection) -> Result<(), StoreError> {
        if !self.opened.is_empty() {
            let mut opened = std::mem::take(&mut self.opened);
            opened.sort_unstable();
            let mut there = conn.games_at(&opened)?;
            let is_opened = |node: &i64| opened.binary_search(node).is_ok();
            there.extend(self.new_games.iter().filter(|(node, _)| is_opened(node)));
            self.new_games.retain(|(node, _)| !is_opened(node));
            let mut ids: Vec<i64> = there.iter().map(|&(_, game)| game).collect();
            ids.sort_unstable();
            ids.dedup();
            let lines: HashMap<i64, (Vec<u8>, usize, Option<i32>)> = conn
                .lines(&ids)?
                .into_iter()
                .map(|l| (l.id, (l.line, self.name(&l.game, &l.preset), l.month)))
                .collect();
            for (node, game) in there {
                let Some((bytes, name, month)) = lines.get(&game) else {
                    continue;
                };
                let found = line::find(bytes, node).and_then(|at| line::step(bytes, at));
                if let Some((step, _)) = found {
                    self.count(&step, game, *name, *month);
                }
            }
        }
        // Positions with rows in the store get their rows added; the others' are inserted.
        let (mut added, mut inserted): (Vec<ExplorerRow>, Vec<ExplorerRow>) = (vec![], vec![]);
        for (node, actions) in std::mem::take(&mut self.rows) {
            let stored = self.expanded.get(&node) != Some(&false);
            let to = if stored { &mut added } else { &mut inserted };
            to.extend(actions.into_values());
        }
        self.pending_rows = 0;
        for rows in [&mut added, &mut inserted] {
            rows.sort_unstable_by(|a, b| (a.node, &a.action).cmp(&(b.node, &b.action)));
        }
        conn.add_rows(&added)?;
        conn.insert_rows(&inserted)?;
        for row in &inserted {
            self.expanded.insert(row.node, true);
        }
        let mut months: Vec<MonthRow> = std::mem::take(&mut self.month_rows)
            .into_iter()
            .flat_map(|((_, month), actions)| {
                actions
                    .into_values()
                    .map(move |row| MonthRow::of(row, month))
            })
            .collect();
        months.sort_unstable_by(|a, b| {
            (a.node, a.month, &a.action).cmp(&(b.node, b.month, &b.action))
        });
        conn.add_months(&months)?;
        let mut games = std::mem::take(&mut self.new_games);
        games.sort_unstable_by_key(|&(node, game)| (block_of(game), node, game));
        let current = block_of(self.last_game);
        let last = games.partition_point(|&(_, game)| block_of(game) < current);
        conn.insert_games(&games[last..])?;
        games.truncate(last);
        let mut blocks: std::collections::BTreeMap<i64, Vec<(i64, i64)>> = Default::default();
        for (node, game) in games {
            blocks.entry(block_of(game)).or_default().push((node, game));
        }
        // The rows of blocks now complete, whoever wrote them, join them.
        while let Some(block) = conn.first_block()?.filter(|&b| b < current) {
            let rows = conn.block_rows(block)?;
            conn.delete_block(block)?;
            blocks.entry(block).or_default().extend(rows);
        }
        let last_packed = conn.last_packed()?.unwrap_or(-1);
        for (block, mut rows) in blocks {
            if block <= last_packed {
                // Packed already (not by this grower's reckoning): packed again, whole.
                rows.extend(conn.packed_rows(block)?);
                conn.delete_packed(block)?;
            }
            let filter = packed::filter(&rows);
            conn.insert_packed(block, &packed::pack(rows), &filter)?;
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

    /// Counts one game's step in the pending rows, and in its month's when the store keeps
    /// months and the game has one.
    fn count(&mut self, step: &line::LineStep<'_>, game: i64, name: usize, month: Option<i32>) {
        let (kind, preset) = &self.names[name];
        let add = |actions: &mut HashMap<Box<str>, ExplorerRow>| match actions.get_mut(step.action)
        {
            Some(row) => {
                step.add_to(row, game);
                0
            }
            None => {
                actions.insert(step.action.into(), step.row(kind, preset, game));
                1
            }
        };
        self.pending_rows += add(self.rows.entry(step.node).or_default());
        if let Some(month) = month.filter(|_| self.months) {
            self.pending_rows += add(self.month_rows.entry((step.node, month)).or_default());
        }
    }

    /// Adds the games just stored (in id order).
    pub(crate) fn add(
        &mut self,
        conn: &mut impl ExplorerConnection,
        games: Vec<GameLine>,
    ) -> Result<(), StoreError> {
        self.learn(conn, &games)?;
        for game in &games {
            self.last_game = self.last_game.max(game.id);
            let name = self.name(&game.game, &game.preset);
            let mut at = line::first(&game.line);
            while let Some(here) = at {
                let Some((step, after)) = line::step(&game.line, here) else {
                    break;
                };
                self.step(&step, game.id, name, game.month);
                at = after;
            }
        }
        if self.pending_rows > PENDING_ROWS || self.new_games.len() > PENDING_GAMES {
            self.write(conn)?;
        }
        if self.counts.len() > COUNTED {
            // The small counts go: their positions get rows later than they could.
            self.counts.retain(|_, games| *games >= SPARSE_GAMES / 4);
        }
        Ok(())
    }

    /// One game's step: counted in its position's rows, or the game kept at the position
    /// (which gets rows when it holds one game too many).
    fn step(&mut self, step: &line::LineStep<'_>, game: i64, name: usize, month: Option<i32>) {
        let node = step.node;
        if self.expanded.contains_key(&node) {
            self.count(step, game, name, month);
            return;
        }
        let games = if self.complete != Some(true) {
            // Looked up, every one (learn).
            let games = self.counts.entry(node).or_insert(0);
            *games += 1;
            *games
        } else {
            // A complete grower counts a position once the filter has met it: one it has not
            // met (most, which one game reaches) is new, and the counts are not looked at.
            let once = self
                .once
                .get_or_insert_with(|| BloomFilter::with_num_bits(ONCE_BITS).hashes(ONCE_HASHES));
            if once.insert_hash(node as u64) {
                let games = self.counts.entry(node).or_insert(1);
                *games += 1;
                *games
            } else {
                self.once_items += 1;
                if self.once_items > ONCE_ITEMS {
                    // Full: positions met once before look new (a count one short).
                    once.clear();
                    self.once_items = 0;
                }
                1
            }
        };
        self.new_games.push((node, game));
        if games > SPARSE_GAMES {
            self.counts.remove(&node);
            self.expanded.insert(node, false);
            self.opened.push(node);
        }
    }

    /// Learns what the store holds of the positions `games` go on from, unless the grower
    /// knows every position of the store's explorer.
    fn learn(
        &mut self,
        conn: &mut impl ExplorerConnection,
        games: &[GameLine],
    ) -> Result<(), StoreError> {
        if self.complete.is_none() {
            self.complete = Some(conn.explorer_empty()?);
        }
        if self.complete == Some(true) {
            return Ok(());
        }
        let mut unknown: Vec<i64> = Vec::new();
        for game in games {
            let mut at = line::first(&game.line);
            while let Some(here) = at {
                if !self.expanded.contains_key(&here.node) && !self.counts.contains_key(&here.node)
                {
                    unknown.push(here.node);
                }
                at = line::step(&game.line, here).and_then(|(_, after)| after);
            }
        }
        unknown.sort_unstable();
        unknown.dedup();
        if self.looked_up + unknown.len() > SCAN_AFTER {
            return self.scan(conn);
        }
        self.looked_up += unknown.len();
        for node in conn.expanded(&unknown)? {
            self.expanded.insert(node, true);
        }
        for &node in &unknown {
            if !self.expanded.contains_key(&node) {
                self.counts.insert(node, 0);
            }
        }
        for (node, _) in conn.games_at(&unknown)? {
            *self.counts.entry(node).or_default() += 1;
        }
        Ok(())
    }

    /// Reads every position of the store's explorer: then the grower knows them all.
    fn scan(&mut self, conn: &mut impl ExplorerConnection) -> Result<(), StoreError> {
        // What is pending goes to the store first: the store then holds all there is.
        self.write(conn)?;
        self.forget();
        for node in conn.all_expanded()? {
            self.expanded.insert(node, true);
        }
        let once = self
            .once
            .get_or_insert_with(|| BloomFilter::with_num_bits(ONCE_BITS).hashes(ONCE_HASHES));
        let rows = conn.first_block()?.zip(conn.last_block()?);
        let row_blocks = rows.into_iter().flat_map(|(first, last)| first..=last);
        let packed_blocks = conn.last_packed()?.into_iter().flat_map(|last| 0..=last);
        let blocks = packed_blocks
            .map(|b| (b, true))
            .chain(row_blocks.map(|b| (b, false)));
        for (block, is_packed) in blocks {
            let rows = if is_packed {
                conn.packed_rows(block)?
            } else {
                conn.block_rows(block)?
            };
            for (node, _) in rows {
                if let Some(games) = self.counts.get_mut(&node) {
                    *games += 1;
                } else if once.contains_hash(node as u64) {
                    self.counts.insert(node, 2);
                } else {
                    once.insert_hash(node as u64);
                    self.once_items += 1;
                }
            }
        }
        self.complete = Some(true);
        Ok(())
    }
}
