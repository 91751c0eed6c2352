//! Importing games: validating and scoring them (pure, on every core), then writing a batch in
//! one transaction. The two are separate so that a tool prepares the next batch while this one
//! is written.
//!
//! Writing finds the games already stored by their content hash, a statement per few hundred
//! games (SQLite) or one per batch (PostgreSQL), never one per game, and inserts the rest:
//! multi-row `INSERT … RETURNING` on SQLite, `COPY` on PostgreSQL.

use std::collections::HashMap;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::schema::{games, seats};
use super::{
    Imported, Incoming, NewGame, SeatInsert, Store, StoreError, WriteTransaction, now_rfc3339,
};
use crate::core::ReplayError;

/// Rows per SQLite statement: fast, and under its limit on bound parameters (21 columns ×
/// 400 < 32,766).
const CHUNK: usize = 400;

/// SQLite's page cache while a connection imports, in KiB.
const IMPORT_CACHE_KIB: u32 = 128 * 1024;

/// Every stored hash of a batch: its id, and whether this write stored it.
type Ids = HashMap<String, (i64, bool)>;

impl Store {
    /// Validates and stores `records` in one transaction. Each gets its outcome, in order:
    /// stored (new), already stored (same content hash), or invalid (not stored).
    pub fn import(&self, records: &[Incoming]) -> Result<Vec<Imported>, StoreError> {
        self.write(Store::prepare(records, &now_rfc3339()))
    }

    /// Validates and scores `records` on every core, keeping their order: what [`Store::write`]
    /// stores. Needs no connection.
    fn prepare(records: &[Incoming], now: &str) -> Vec<Result<NewGame, ReplayError>> {
        use rayon::prelude::*;
        records
            .par_iter()
            .map(|i| NewGame::from_record(&i.record, &i.source, now))
            .collect()
    }

    /// Stores a prepared batch in one transaction: after this returns, it is committed. Each
    /// game gets its outcome, in order; a game stored before, or earlier in the batch, is a
    /// duplicate.
    fn write(&self, batch: Vec<Result<NewGame, ReplayError>>) -> Result<Vec<Imported>, StoreError> {
        let mut batch = Some((batch, ()));
        let mut outcomes = Vec::new();
        self.write_chunks(|| batch.take(), |o, ()| outcomes = o)?;
        Ok(outcomes)
    }

    /// Stores the chunks `next` gives, until it gives None, in one transaction: memory holds
    /// one chunk, however many games the transaction takes (a large transaction is faster:
    /// each commit rewrites the index pages it touched). `written` gets each chunk's outcomes
    /// as it is written, with what `next` gave beside the chunk; they hold once this returns
    /// Ok, when the transaction has committed. A game stored before, or earlier in the
    /// transaction, is a duplicate.
    pub fn write_chunks<C>(
        &self,
        mut next: impl FnMut() -> Option<(Vec<Result<NewGame, ReplayError>>, C)>,
        mut written: impl FnMut(Vec<Imported>, C),
    ) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(pool) => {
                let mut conn = pool.get()?;
                // A large transaction's index pages stay in memory: with the connection's
                // usual 32 MiB, the content-hash index of a large store spilled to the WAL
                // and was written again and again (a million games: 96 s with 32 MiB, 62 s
                // with 128 MiB). Pages are only taken as needed, and given back after.
                conn.batch_execute(&format!("PRAGMA cache_size = -{IMPORT_CACHE_KIB}"))?;
                let done = conn.write_transaction(|conn| {
                    let mut stored_before = false;
                    while let Some((chunk, context)) = next() {
                        let write =
                            |unique: &[&NewGame]| sqlite_write(conn, unique, &mut stored_before);
                        written(outcomes(chunk, write)?, context);
                    }
                    Ok(())
                });
                // The batch has committed (or not) already: what it did is `done`, whatever
                // this says (a larger cache left on a connection is harmless).
                let _ = conn.batch_execute(&format!("PRAGMA cache_size = -{}", super::CACHE_KIB));
                done
            }
            Store::Postgres(pool) => pool.get()?.write_transaction(|conn| {
                while let Some((chunk, context)) = next() {
                    let chunk_outcomes = outcomes(chunk, |unique| {
                        // A savepoint each: when another importer stored one of these games
                        // since this one looked, the copy fails, and the chunk is written
                        // again row by row, skipping what is there.
                        match conn.transaction(|conn| postgres_copy(conn, unique)) {
                            Err(StoreError::Database(DieselError::DatabaseError(
                                DatabaseErrorKind::UniqueViolation,
                                _,
                            ))) => conn.transaction(|conn| postgres_insert(conn, unique)),
                            other => other,
                        }
                    })?;
                    written(chunk_outcomes, context);
                }
                Ok(())
            }),
        }
    }
}

/// Writes a chunk's games with `write` (each hash once: the first game that has it) and gives
/// every game its outcome, in order.
fn outcomes(
    chunk: Vec<Result<NewGame, ReplayError>>,
    write: impl FnOnce(&[&NewGame]) -> Result<Ids, StoreError>,
) -> Result<Vec<Imported>, StoreError> {
    let mut first: HashMap<&str, usize> = HashMap::with_capacity(chunk.len());
    let mut unique: Vec<&NewGame> = Vec::with_capacity(chunk.len());
    for game in chunk.iter().flatten() {
        if first.insert(&game.row.content_hash, unique.len()).is_none() {
            unique.push(game);
        }
    }
    let ids = write(&unique)?;
    let mut reported = std::collections::HashSet::with_capacity(unique.len());
    Ok(chunk
        .into_iter()
        .map(|game| match game {
            Err(error) => Imported::Invalid { error },
            Ok(game) => {
                let hash = game.row.content_hash;
                let (id, new) = ids[&hash];
                if new && reported.insert(hash.clone()) {
                    Imported::Stored { id, hash }
                } else {
                    Imported::Duplicate { id, hash }
                }
            }
        })
        .collect())
}

/// The ids of the stored games among `$hashes`, on either backend's connection.
macro_rules! stored_ids {
    ($conn:expr, $hashes:expr) => {
        games::table
            .filter(games::content_hash.eq_any($hashes))
            .select((games::id, games::content_hash))
            .load::<(i64, String)>($conn)
    };
}

/// Inserts seat rows, as many a statement as stays under the bound-parameter limit.
macro_rules! insert_seats {
    ($conn:expr, $seats:expr) => {
        for rows in $seats.chunks(4 * CHUNK) {
            diesel::insert_into(seats::table)
                .values(rows)
                .execute($conn)?;
        }
    };
}

/// SQLite, inside `BEGIN IMMEDIATE` under the process's writer lock: nobody else writes
/// meanwhile. Games mostly new (a new store) are inserted with `OR IGNORE`, the unique hash
/// skipping the stored ones, which are looked up afterwards: one index probe per new game. When
/// the previous games were mostly stored already (`stored_before`, a re-import), the stored
/// ones are looked up first and only the others inserted. Either way, the same outcome.
fn sqlite_write(
    conn: &mut SqliteConnection,
    games: &[&NewGame],
    stored_before: &mut bool,
) -> Result<Ids, StoreError> {
    let mut ids = Ids::with_capacity(games.len());
    for chunk in games.chunks(CHUNK) {
        let (new, inserted) = if *stored_before {
            let new = not_stored(chunk, stored_ids!(conn, hashes(chunk))?, &mut ids);
            let inserted: Vec<(i64, String)> = if new.is_empty() {
                Vec::new()
            } else {
                diesel::insert_into(games::table)
                    .values(new.iter().map(|g| &g.row).collect::<Vec<_>>())
                    .returning((games::id, games::content_hash))
                    .get_results(conn)?
            };
            (new, inserted)
        } else {
            let inserted: Vec<(i64, String)> = diesel::insert_or_ignore_into(games::table)
                .values(chunk.iter().map(|g| &g.row).collect::<Vec<_>>())
                .returning((games::id, games::content_hash))
                .get_results(conn)?;
            let (new, skipped) = split_inserted(chunk, &inserted);
            if !skipped.is_empty() {
                all_stored(&skipped, stored_ids!(conn, hashes(&skipped))?, &mut ids)?;
            }
            (new, inserted)
        };
        *stored_before = 2 * new.len() < chunk.len();
        let seats = new_seats(&new, inserted, &mut ids);
        insert_seats!(conn, seats);
    }
    Ok(ids)
}

/// PostgreSQL: one query finds the stored games, `COPY` writes the others and their seats.
/// A game another importer stored meanwhile fails the copy (a unique violation).
fn postgres_copy(conn: &mut PgConnection, games: &[&NewGame]) -> Result<Ids, StoreError> {
    let mut ids = Ids::with_capacity(games.len());
    let new = not_stored(games, stored_ids!(conn, hashes(games))?, &mut ids);
    if new.is_empty() {
        return Ok(ids);
    }
    diesel::copy_from(games::table)
        .from_insertable(new.iter().map(|g| &g.row).collect::<Vec<_>>())
        .execute(conn)?;
    let inserted = stored_ids!(conn, hashes(&new))?;
    let seats = new_seats(&new, inserted, &mut ids);
    diesel::copy_from(seats::table)
        .from_insertable(seats)
        .execute(conn)?;
    Ok(ids)
}

/// PostgreSQL, when a concurrent importer wrote some of the same games: `ON CONFLICT DO
/// NOTHING … RETURNING` gives exactly the rows this statement inserted; the skipped ones are
/// looked up once the other importer committed them.
fn postgres_insert(conn: &mut PgConnection, games: &[&NewGame]) -> Result<Ids, StoreError> {
    let mut ids = Ids::with_capacity(games.len());
    for chunk in games.chunks(CHUNK) {
        let inserted: Vec<(i64, String)> = diesel::insert_into(games::table)
            .values(chunk.iter().map(|g| &g.row).collect::<Vec<_>>())
            .on_conflict(games::content_hash)
            .do_nothing()
            .returning((games::id, games::content_hash))
            .get_results(conn)?;
        let (new, skipped) = split_inserted(chunk, &inserted);
        if !skipped.is_empty() {
            all_stored(&skipped, stored_ids!(conn, hashes(&skipped))?, &mut ids)?;
        }
        let seats = new_seats(&new, inserted, &mut ids);
        insert_seats!(conn, seats);
    }
    Ok(ids)
}

/// The games of `chunk` a statement that skips stored hashes `inserted` (it returned their
/// ids and hashes), and the ones it skipped.
fn split_inserted<'a>(
    chunk: &[&'a NewGame],
    inserted: &[(i64, String)],
) -> (Vec<&'a NewGame>, Vec<&'a NewGame>) {
    let fresh: std::collections::HashSet<&str> = inserted.iter().map(|(_, h)| h.as_str()).collect();
    chunk
        .iter()
        .partition(|g| fresh.contains(g.row.content_hash.as_str()))
}

/// Records the ids of skipped games, which must all be stored: a statement that skips
/// conflicts (SQLite's `OR IGNORE` skips any constraint, not only the hash) left out a row
/// for another reason, and that is an error, as a plain insert's would be.
fn all_stored(
    skipped: &[&NewGame],
    found: Vec<(i64, String)>,
    ids: &mut Ids,
) -> Result<(), StoreError> {
    if not_stored(skipped, found, ids).is_empty() {
        Ok(())
    } else {
        Err(StoreError::Database(DieselError::NotFound))
    }
}

/// The games' content hashes.
fn hashes<'a>(games: &[&'a NewGame]) -> Vec<&'a str> {
    games.iter().map(|g| g.row.content_hash.as_str()).collect()
}

/// Records the ids of the games `found` stored, and gives the others of `games`.
fn not_stored<'a>(
    games: &[&'a NewGame],
    found: Vec<(i64, String)>,
    ids: &mut Ids,
) -> Vec<&'a NewGame> {
    for (id, hash) in found {
        ids.insert(hash, (id, false));
    }
    games
        .iter()
        .copied()
        .filter(|g| !ids.contains_key(&g.row.content_hash))
        .collect()
}

/// Records the ids of the games just inserted and gives their seats' rows.
fn new_seats(new: &[&NewGame], inserted: Vec<(i64, String)>, ids: &mut Ids) -> Vec<SeatInsert> {
    let by_hash: HashMap<&str, &NewGame> = new
        .iter()
        .map(|g| (g.row.content_hash.as_str(), *g))
        .collect();
    let mut seats = Vec::with_capacity(2 * inserted.len());
    for (id, hash) in inserted {
        if let Some(game) = by_hash.get(hash.as_str()) {
            seats.extend(game.seats.iter().map(|s| SeatInsert {
                game_id: id,
                ..s.clone()
            }));
        }
        ids.insert(hash, (id, true));
    }
    seats
}
