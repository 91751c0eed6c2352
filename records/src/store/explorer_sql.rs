//! The explorer's reads and writes on either backend (`grow.rs` says what they keep): the
//! rows of a position, its games in `explorer_games` and in packed blocks, and the stored
//! games' lines.

use std::sync::atomic::{AtomicU32, Ordering};

use diesel::prelude::*;

use super::explorer_row::{ExplorerRow, MonthRow, month_of};
use super::rows_sql::{
    add_months_postgres, add_months_sqlite, add_postgres, add_sqlite, insert_postgres,
    insert_sqlite,
};
use super::schema::{
    explorer, explorer_filters, explorer_games, explorer_months, explorer_packed,
    explorer_settings, games,
};
use super::{StoreError, line, packed};
use crate::core::explorer::DEFAULT_DEPTH;

/// log2 of the games of one block of `explorer_games` (16,384): a million games' import wrote
/// its position rows in 5.5 s with blocks of 16,384 games, 8.3 s with 65,536, 18.5 s keyed by
/// node alone, and 4.2 s in order (SQLite, 14 M rows in 20 transactions).
pub(crate) const BLOCK_BITS: u32 = 14;

/// The block size in use: [`BLOCK_BITS`] but in tests, which make blocks small to pack many
/// ([`set_explorer_block_bits`]). Only writes read it: a block is a number in the store.
static BLOCK_BITS_NOW: AtomicU32 = AtomicU32::new(BLOCK_BITS);

/// Sets log2 of the games of an explorer block for this process (tests: many blocks of few
/// games, so that their packing is exercised).
#[doc(hidden)]
pub fn set_explorer_block_bits(bits: u32) {
    BLOCK_BITS_NOW.store(bits.clamp(1, 30), Ordering::Relaxed);
}

/// The block of a game's rows in `explorer_games`.
pub(crate) fn block_of(game: i64) -> i64 {
    game >> BLOCK_BITS_NOW.load(Ordering::Relaxed)
}

/// A stored game's line, with what its rows are keyed by.
pub(crate) struct StoredLine {
    pub id: i64,
    pub line: Vec<u8>,
    pub game: String,
    pub preset: String,
    /// The month it was played (`month_of`), when its record says.
    pub month: Option<i32>,
}

/// Rows of `explorer_games` per insert statement.
const GAME_ROWS: usize = 100;

/// Node keys per lookup statement (under SQLite's and PostgreSQL's limits on bound values,
/// with the blocks beside them).
const LOOKUP: usize = 500;

/// What the explorer needs of either backend's connection.
pub(crate) trait ExplorerConnection {
    /// The rows of `node`.
    fn rows_of(&mut self, node: i64) -> Result<Vec<ExplorerRow>, StoreError>;
    /// Where `action` from `node` leads, when `node` has a row of it (one key lookup: a line
    /// is followed without reading every row on its way).
    fn next_of(&mut self, node: i64, action: &str) -> Result<Option<i64>, StoreError>;
    /// Which of `nodes` have rows.
    fn expanded(&mut self, nodes: &[i64]) -> Result<Vec<i64>, StoreError>;
    /// Every position with rows.
    fn all_expanded(&mut self) -> Result<Vec<i64>, StoreError>;
    /// The highest block of `explorer_games` (None: it is empty).
    fn last_block(&mut self) -> Result<Option<i64>, StoreError>;
    /// The games of `nodes` in `explorer_games` and `explorer_packed`: (node, game).
    fn games_at(&mut self, nodes: &[i64]) -> Result<Vec<(i64, i64)>, StoreError>;
    /// The (node, game) rows of one block of `explorer_games`.
    fn block_rows(&mut self, block: i64) -> Result<Vec<(i64, i64)>, StoreError>;
    /// The lowest block of `explorer_games` (None: it is empty).
    fn first_block(&mut self) -> Result<Option<i64>, StoreError>;
    /// Deletes one block's rows of `explorer_games`.
    fn delete_block(&mut self, block: i64) -> Result<(), StoreError>;
    /// The highest packed block (None: none is).
    fn last_packed(&mut self) -> Result<Option<i64>, StoreError>;
    /// The (node, game) rows of one packed block.
    fn packed_rows(&mut self, block: i64) -> Result<Vec<(i64, i64)>, StoreError>;
    /// Deletes a packed block.
    fn delete_packed(&mut self, block: i64) -> Result<(), StoreError>;
    /// Writes a block packed, with the filter of its nodes.
    fn insert_packed(
        &mut self,
        block: i64,
        chunks: &[packed::Chunk],
        filter: &[u8],
    ) -> Result<(), StoreError>;
    /// Adds rows to the stored ones of the same position and action.
    fn add_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError>;
    /// Inserts rows of positions that have none stored.
    fn insert_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError>;
    /// Inserts (node, game) rows of `explorer_games`.
    fn insert_games(&mut self, games: &[(i64, i64)]) -> Result<(), StoreError>;
    /// Whether the store holds no explorer rows and no games.
    fn explorer_empty(&mut self) -> Result<bool, StoreError>;
    /// How many plies of each game the explorer follows.
    fn depth(&mut self) -> Result<u32, StoreError>;
    /// The explorer's generation (`explorer_settings.generation`).
    fn generation(&mut self) -> Result<i64, StoreError>;
    /// Adds one to the explorer's generation, and gives the new one.
    fn next_generation(&mut self) -> Result<i64, StoreError>;
    /// Adds month rows to the stored ones of the same position, month and action.
    fn add_months(&mut self, rows: &[MonthRow]) -> Result<(), StoreError>;
    /// Whether the explorer keeps counts by month (`explorer_settings.months`).
    fn months(&mut self) -> Result<bool, StoreError>;
    /// The month rows of `node` from month `from` to month `to` (both kept).
    fn month_rows(&mut self, node: i64, from: i32, to: i32) -> Result<Vec<MonthRow>, StoreError>;
    /// Stored games' lines, games, presets and months.
    fn lines(&mut self, ids: &[i64]) -> Result<Vec<StoredLine>, StoreError>;
}

macro_rules! explorer_connection {
    ($Conn:ty, $add:ident, $insert:ident, $add_months:ident) => {
        impl ExplorerConnection for $Conn {
            fn rows_of(&mut self, node: i64) -> Result<Vec<ExplorerRow>, StoreError> {
                Ok(explorer::table
                    .filter(explorer::node.eq(node))
                    .select(ExplorerRow::as_select())
                    .load(self)?)
            }
            fn next_of(&mut self, node: i64, action: &str) -> Result<Option<i64>, StoreError> {
                Ok(explorer::table
                    .filter(explorer::node.eq(node))
                    .filter(explorer::action.eq(action))
                    .select(explorer::next)
                    .first(self)
                    .optional()?)
            }
            fn expanded(&mut self, nodes: &[i64]) -> Result<Vec<i64>, StoreError> {
                if let [node] = nodes {
                    // One node (a request): a statement prepared once.
                    return Ok(explorer::table
                        .filter(explorer::node.eq(node))
                        .select(explorer::node)
                        .first::<i64>(self)
                        .optional()?
                        .into_iter()
                        .collect());
                }
                Ok(explorer::table
                    .filter(explorer::node.eq_any(nodes))
                    .select(explorer::node)
                    .distinct()
                    .load(self)?)
            }
            fn all_expanded(&mut self) -> Result<Vec<i64>, StoreError> {
                Ok(explorer::table
                    .select(explorer::node)
                    .distinct()
                    .load(self)?)
            }
            fn last_block(&mut self) -> Result<Option<i64>, StoreError> {
                Ok(explorer_games::table
                    .select(diesel::dsl::max(explorer_games::block))
                    .first(self)?)
            }
            fn games_at(&mut self, nodes: &[i64]) -> Result<Vec<(i64, i64)>, StoreError> {
                // The blocks not yet packed, by the node's index (migration 13).
                let mut found = if let [node] = nodes {
                    // One node (a request): a statement prepared once.
                    explorer_games::table
                        .filter(explorer_games::node.eq(node))
                        .select((explorer_games::node, explorer_games::game_id))
                        .load::<(i64, i64)>(self)?
                } else {
                    let mut found = Vec::new();
                    for part in nodes.chunks(LOOKUP) {
                        found.extend(
                            explorer_games::table
                                .filter(explorer_games::node.eq_any(part))
                                .select((explorer_games::node, explorer_games::game_id))
                                .load::<(i64, i64)>(self)?,
                        );
                    }
                    found
                };
                // A chunk of each packed block whose filter holds the node: the last whose
                // first node is not above it.
                let filters: Vec<(i64, i64)> = explorer_filters::table
                    .select((explorer_filters::block, explorer_filters::id))
                    .order(explorer_filters::block)
                    .load(self)?;
                for (block, id) in filters {
                    let filter = packed::kept_filter(id, || {
                        explorer_filters::table
                            .find(block)
                            .select(explorer_filters::bits)
                            .first::<Vec<u8>>(self)
                    })?;
                    for &node in nodes {
                        if !filter.contains_hash(node as u64) {
                            continue;
                        }
                        let chunk: Option<Vec<u8>> = explorer_packed::table
                            .filter(explorer_packed::block.eq(block))
                            .filter(explorer_packed::first_node.le(node))
                            .order(explorer_packed::first_node.desc())
                            .select(explorer_packed::entries)
                            .first(self)
                            .optional()?;
                        if let Some(chunk) = chunk {
                            found.extend(packed::games_of(&chunk, node).map(|game| (node, game)));
                        }
                    }
                }
                Ok(found)
            }
            fn block_rows(&mut self, block: i64) -> Result<Vec<(i64, i64)>, StoreError> {
                Ok(explorer_games::table
                    .filter(explorer_games::block.eq(block))
                    .select((explorer_games::node, explorer_games::game_id))
                    .load(self)?)
            }
            fn first_block(&mut self) -> Result<Option<i64>, StoreError> {
                Ok(explorer_games::table
                    .select(diesel::dsl::min(explorer_games::block))
                    .first(self)?)
            }
            fn delete_block(&mut self, block: i64) -> Result<(), StoreError> {
                diesel::delete(explorer_games::table.filter(explorer_games::block.eq(block)))
                    .execute(self)?;
                Ok(())
            }
            fn last_packed(&mut self) -> Result<Option<i64>, StoreError> {
                Ok(explorer_packed::table
                    .select(diesel::dsl::max(explorer_packed::block))
                    .first(self)?)
            }
            fn packed_rows(&mut self, block: i64) -> Result<Vec<(i64, i64)>, StoreError> {
                let chunks: Vec<Vec<u8>> = explorer_packed::table
                    .filter(explorer_packed::block.eq(block))
                    .select(explorer_packed::entries)
                    .load(self)?;
                Ok(chunks.iter().flat_map(|c| packed::rows(c)).collect())
            }
            fn delete_packed(&mut self, block: i64) -> Result<(), StoreError> {
                diesel::delete(explorer_packed::table.filter(explorer_packed::block.eq(block)))
                    .execute(self)?;
                diesel::delete(explorer_filters::table.find(block)).execute(self)?;
                Ok(())
            }
            fn insert_packed(
                &mut self,
                block: i64,
                chunks: &[packed::Chunk],
                filter: &[u8],
            ) -> Result<(), StoreError> {
                diesel::insert_into(explorer_filters::table)
                    .values((
                        explorer_filters::block.eq(block),
                        explorer_filters::id.eq(packed::filter_id(filter)),
                        explorer_filters::bits.eq(filter),
                    ))
                    .execute(self)?;
                for (first, bytes) in chunks {
                    diesel::insert_into(explorer_packed::table)
                        .values((
                            explorer_packed::block.eq(block),
                            explorer_packed::first_node.eq(first),
                            explorer_packed::entries.eq(bytes),
                        ))
                        .execute(self)?;
                }
                Ok(())
            }
            fn add_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError> {
                $add(self, rows)
            }
            fn insert_rows(&mut self, rows: &[ExplorerRow]) -> Result<(), StoreError> {
                $insert(self, rows)
            }
            fn insert_games(&mut self, rows: &[(i64, i64)]) -> Result<(), StoreError> {
                // Whole arrays: one statement, prepared once (diesel writes a vector of rows
                // on SQLite as a statement per row).
                let row = |&(node, game): &(i64, i64)| {
                    (
                        explorer_games::block.eq(block_of(game)),
                        explorer_games::node.eq(node),
                        explorer_games::game_id.eq(game),
                    )
                };
                in_prepared_statements!(rows, GAME_ROWS, |part| diesel::insert_into(
                    explorer_games::table
                )
                .values(part.each_ref().map(row))
                .execute(self)?);
                Ok(())
            }
            fn explorer_empty(&mut self) -> Result<bool, StoreError> {
                let rows: Option<i64> = explorer::table
                    .select(explorer::node)
                    .first(self)
                    .optional()?;
                Ok(rows.is_none() && self.last_block()?.is_none() && self.last_packed()?.is_none())
            }
            fn depth(&mut self) -> Result<u32, StoreError> {
                let depth: Option<i32> = explorer_settings::table
                    .select(explorer_settings::depth)
                    .first(self)
                    .optional()?;
                Ok(depth.map_or(DEFAULT_DEPTH, |d| d as u32))
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
            fn add_months(&mut self, rows: &[MonthRow]) -> Result<(), StoreError> {
                $add_months(self, rows)
            }
            fn months(&mut self) -> Result<bool, StoreError> {
                let months: Option<bool> = explorer_settings::table
                    .select(explorer_settings::months)
                    .first(self)
                    .optional()?;
                Ok(months == Some(true))
            }
            fn month_rows(
                &mut self,
                node: i64,
                from: i32,
                to: i32,
            ) -> Result<Vec<MonthRow>, StoreError> {
                Ok(explorer_months::table
                    .filter(explorer_months::node.eq(node))
                    .filter(explorer_months::month.between(from, to))
                    .select(MonthRow::as_select())
                    .load(self)?)
            }
            fn lines(&mut self, ids: &[i64]) -> Result<Vec<StoredLine>, StoreError> {
                let mut found = Vec::with_capacity(ids.len());
                for part in ids.chunks(LOOKUP) {
                    let rows: Vec<(i64, Option<Vec<u8>>, String, String, Option<String>)> =
                        games::table
                            .filter(games::id.eq_any(part))
                            .select((
                                games::id,
                                games::opening_line,
                                games::game,
                                games::preset,
                                games::played_on,
                            ))
                            .load(self)?;
                    found.extend(rows.into_iter().filter_map(
                        |(id, line, game, preset, played_on)| {
                            Some(StoredLine {
                                id,
                                line: line?,
                                game,
                                preset,
                                month: played_on.as_deref().and_then(month_of),
                            })
                        },
                    ));
                }
                Ok(found)
            }
        }
    };
}

explorer_connection!(
    SqliteConnection,
    add_sqlite,
    insert_sqlite,
    add_months_sqlite
);
explorer_connection!(
    PgConnection,
    add_postgres,
    insert_postgres,
    add_months_postgres
);

/// What stored games played from `node`: its rows, or the steps its games played there, read
/// from their lines (with the lines, decoded, in `lines`).
pub(crate) fn rows_at(
    conn: &mut impl ExplorerConnection,
    node: i64,
    lines: &mut Vec<Vec<ExplorerRow>>,
) -> Result<Vec<ExplorerRow>, StoreError> {
    let rows = conn.rows_of(node)?;
    if !rows.is_empty() {
        return Ok(rows);
    }
    rows_from_games(conn, node, lines)
}

/// The steps the games of `node` (one without rows) played there, read from their lines
/// (with the lines, decoded, in `lines`).
pub(crate) fn rows_from_games(
    conn: &mut impl ExplorerConnection,
    node: i64,
    lines: &mut Vec<Vec<ExplorerRow>>,
) -> Result<Vec<ExplorerRow>, StoreError> {
    let mut rows: Vec<ExplorerRow> = Vec::new();
    let ids: Vec<i64> = conn
        .games_at(&[node])?
        .into_iter()
        .map(|(_, g)| g)
        .collect();
    for stored in conn.lines(&ids)? {
        let steps = line::decode(&stored.line, &stored.game, &stored.preset, stored.id);
        if let Some(step) = steps.iter().find(|s| s.node == node) {
            match rows.iter_mut().find(|r| r.action == step.action) {
                Some(row) => row.merge(step),
                None => rows.push(step.clone()),
            }
        }
        lines.push(steps);
    }
    Ok(rows)
}
