//! Importing games: validating and scoring them (pure, on every core), then writing a batch in
//! one transaction. The two are separate so that a tool prepares the next batch while this one
//! is written.
//!
//! Writing finds the games already stored by their content hash, a statement per few hundred
//! games (SQLite) or one per chunk (PostgreSQL), never one per game (and not at all while the
//! games are new: the unique hash refuses a stored one), and inserts the rest: multi-row
//! `INSERT … RETURNING` on SQLite, `COPY` of rows numbered from the id sequence on PostgreSQL.

use std::collections::HashMap;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::checkpoint::Checkpointer;
use super::explorer_row::month_of;
use super::grow::{GameLine, Grower};
use super::players::{MeetingRow, add_meetings_postgres, add_meetings_sqlite, tally};
use super::schema::{games, seats};
use super::{
    Imported, Incoming, NewGame, SeatInsert, Store, StoreError, WriteTransaction, now_rfc3339,
};
use crate::core::ReplayError;

/// Games per SQLite statement group, and per PostgreSQL statement of the row-by-row path
/// (under PostgreSQL's limit on bound parameters: 22 columns × 400 < 65,535).
const CHUNK: usize = 400;

/// SQLite's page cache while a connection imports, in KiB.
const IMPORT_CACHE_KIB: u32 = 128 * 1024;

/// Every stored hash of a batch: its id, and whether this write stored it.
type Ids = HashMap<String, (i64, bool)>;

impl Store {
    /// Validates and stores `records` in one transaction. Each gets its outcome, in order:
    /// stored (new), already stored (same content hash), or invalid (not stored).
    pub fn import(&self, records: &[Incoming]) -> Result<Vec<Imported>, StoreError> {
        self.import_in(&mut ImportSession::default(), records)
    }

    /// [`Store::import`] as one of an import's transactions (see [`ImportSession`]).
    pub fn import_in(
        &self,
        session: &mut ImportSession,
        records: &[Incoming],
    ) -> Result<Vec<Imported>, StoreError> {
        let depth = self.explorer_depth()?;
        let mut batch = Some((Store::prepare(records, &now_rfc3339(), depth), ()));
        let mut outcomes = Vec::new();
        self.write_chunks(session, || batch.take(), |o, ()| outcomes = o)?;
        Ok(outcomes)
    }

    /// Validates and scores `records` on every core, keeping their order: what
    /// [`Store::write_chunks`] stores. Needs no connection.
    fn prepare(records: &[Incoming], now: &str, depth: u32) -> Vec<Result<NewGame, ReplayError>> {
        use rayon::prelude::*;
        records
            .par_iter()
            .map(|i| NewGame::from_record(&i.record, &i.source, now, depth))
            .collect()
    }

    /// Stores the chunks `next` gives, until it gives None, in one transaction: memory holds
    /// one chunk, however many games the transaction takes (a large transaction is faster:
    /// each commit rewrites the index pages it touched). `written` gets each chunk's outcomes
    /// as it is written, with what `next` gave beside the chunk; they hold once this returns
    /// Ok, when the transaction has committed. A game stored before, or earlier in the
    /// transaction, is a duplicate. One `session` for an import's transactions, one after
    /// another, lets each ask the store less about what the ones before it wrote.
    pub fn write_chunks<C>(
        &self,
        session: &mut ImportSession,
        mut next: impl FnMut() -> Option<(Vec<Result<NewGame, ReplayError>>, C)>,
        mut written: impl FnMut(Vec<Imported>, C),
    ) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(pool) => {
                let mut conn = pool.get()?;
                // The log is copied by the session's thread, if it has one (checkpoint.rs).
                if let Some(checkpointer) = &session.checkpointer {
                    checkpointer.before_begin()?;
                    conn.batch_execute("PRAGMA wal_autocheckpoint = 0")?;
                }
                // A large transaction's index pages stay in memory: with the connection's
                // usual 32 MiB, the content-hash index of a large store spilled to the WAL
                // and was written again and again (a million games: 96 s with 32 MiB, 62 s
                // with 128 MiB). Pages are only taken as needed, and given back after.
                conn.batch_execute(&format!("PRAGMA cache_size = -{IMPORT_CACHE_KIB}"))?;
                let grower = &mut session.grower;
                let done = conn.write_transaction(|conn| {
                    let mut stored_before = false;
                    grower.begin(conn)?;
                    while let Some((chunk, context)) = next() {
                        let write =
                            |unique: Vec<NewGame>| sqlite_write(conn, unique, &mut stored_before);
                        let (chunk_outcomes, met, explored) = outcomes(chunk, write)?;
                        add_meetings_sqlite(conn, &met)?;
                        grower.add(conn, explored)?;
                        written(chunk_outcomes, context);
                    }
                    grower.finish(conn)
                });
                // The batch has committed (or not) already: what it did is `done`, whatever
                // this says (a larger cache left on a connection is harmless; so is a log
                // left to the checkpointer: SQLite's own checkpoints come back with it).
                let _ = conn.batch_execute(&format!(
                    "PRAGMA cache_size = -{}; PRAGMA wal_autocheckpoint = {};",
                    super::CACHE_KIB,
                    super::AUTOCHECKPOINT_PAGES
                ));
                done?;
                if let Some(checkpointer) = &session.checkpointer {
                    checkpointer.committed();
                }
            }
            Store::Postgres(pool) => pool.get()?.write_transaction(|conn| {
                let mut stored_before = false;
                let grower = &mut session.grower;
                // The explorer's positions get rows as the transaction sees their games: its
                // writers take turns (taken first, before any game is written, so that two
                // importers never wait for each other the other way round).
                diesel::sql_query("SELECT pg_advisory_xact_lock(4401)").execute(conn)?;
                grower.begin(conn)?;
                while let Some((chunk, context)) = next() {
                    let (chunk_outcomes, met, explored) = outcomes(chunk, |mut unique| {
                        postgres_write(conn, &mut unique, &mut stored_before)
                    })?;
                    add_meetings_postgres(conn, &met)?;
                    grower.add(conn, explored)?;
                    written(chunk_outcomes, context);
                }
                grower.finish(conn)
            })?,
        }
        session.grower.committed();
        Ok(())
    }
}

/// What one import carries from each of its transactions to the next: what its writer knows
/// of the opening explorer, which holds while no other writer changes the explorer between
/// them (`records/src/store/grow.rs`), and, from [`Store::import_session`], a thread that
/// copies SQLite's log into the database while the writer goes on (`checkpoint.rs`). Give the
/// same one to each [`Store::write_chunks`] of an import.
#[derive(Default)]
pub struct ImportSession {
    grower: Grower,
    checkpointer: Option<Checkpointer>,
}

impl Store {
    /// A session for a long import (many transactions, one after another): on SQLite, the
    /// log is copied into the database on a thread of its own, with a connection of its own,
    /// rather than by the writer after each commit (a million games: ~7 s of the writer's
    /// time, docs/performance.md). Dropping the session waits for the last copy.
    pub fn import_session(&self) -> Result<ImportSession, StoreError> {
        let checkpointer = match self {
            Store::Sqlite(pool) => Some(Checkpointer::start(pool.get()?)?),
            Store::Postgres(_) => None,
        };
        Ok(ImportSession {
            grower: Grower::default(),
            checkpointer,
        })
    }
}

/// Writes a chunk's games with `write` (each hash once: the first game that has it) and gives
/// every game its outcome, in order, and what the games it stored add to the players'
/// counts (`meetings`) and to the opening explorer (each game stored now with its id, in id
/// order).
#[allow(clippy::type_complexity)]
fn outcomes(
    chunk: Vec<Result<NewGame, ReplayError>>,
    write: impl FnOnce(Vec<NewGame>) -> Result<Ids, StoreError>,
) -> Result<(Vec<Imported>, Vec<MeetingRow>, Vec<GameLine>), StoreError> {
    let mut order: Vec<Result<String, ReplayError>> = Vec::with_capacity(chunk.len());
    let mut unique: Vec<NewGame> = Vec::with_capacity(chunk.len());
    let mut seen = std::collections::HashSet::with_capacity(chunk.len());
    for game in chunk {
        order.push(game.map(|game| {
            let hash = game.row.content_hash.clone();
            if seen.insert(hash.clone()) {
                unique.push(game);
            }
            hash
        }));
    }
    let met: Vec<(String, MeetingRow)> = unique
        .iter()
        .filter_map(|g| Some((g.row.content_hash.clone(), MeetingRow::of(g)?)))
        .collect();
    // Each new game's line, given to the explorer once it has its id.
    type Explored = (String, String, String, Vec<u8>, Option<i32>);
    let explored: Vec<Explored> = unique
        .iter()
        .filter_map(|g| {
            let row = &g.row;
            let line = row.opening_line.clone()?;
            Some((
                row.content_hash.clone(),
                row.game.clone(),
                row.preset.clone(),
                line,
                row.played_on.as_deref().and_then(month_of),
            ))
        })
        .collect();
    let ids = write(unique)?;
    let stored = |hash: &String| ids.get(hash).filter(|&&(_, new)| new).map(|&(id, _)| id);
    let met = tally(
        met.into_iter()
            .filter(|(hash, _)| stored(hash).is_some())
            .map(|(_, row)| row),
    );
    let mut explored: Vec<GameLine> = explored
        .into_iter()
        .filter_map(|(hash, game, preset, line, month)| {
            Some(GameLine {
                id: stored(&hash)?,
                game,
                preset,
                line,
                month,
            })
        })
        .collect();
    explored.sort_unstable_by_key(|game| game.id);
    let mut reported = std::collections::HashSet::with_capacity(seen.len());
    let outcomes = order
        .into_iter()
        .map(|game| match game {
            Err(error) => Imported::Invalid { error },
            Ok(hash) => {
                let (id, new) = ids[&hash];
                if new && reported.insert(hash.clone()) {
                    Imported::Stored { id, hash }
                } else {
                    Imported::Duplicate { id, hash }
                }
            }
        })
        .collect();
    Ok((outcomes, met, explored))
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

/// Rows per multi-row statement of an SQLite import. Diesel keeps the prepared statement of a
/// fixed number of rows (an array of owned rows), not of a varying one (a vector): a statement
/// of 400 rows prepared again for each chunk took an eighth of the writer's time. The rows
/// left over go one by one, in the one-row statement, prepared once too.
const ROWS: usize = 64;

/// SQLite, inside `BEGIN IMMEDIATE` under the process's writer lock: nobody else writes
/// meanwhile. Games mostly new (a new store) are inserted with `OR IGNORE`, the unique hash
/// skipping the stored ones, which are looked up afterwards: one index probe per new game. When
/// the previous games were mostly stored already (`stored_before`, a re-import), the stored
/// ones are looked up first and only the others inserted. Either way, the same outcome.
fn sqlite_write(
    conn: &mut SqliteConnection,
    games: Vec<NewGame>,
    stored_before: &mut bool,
) -> Result<Ids, StoreError> {
    let mut ids = Ids::with_capacity(games.len());
    let mut games = games.into_iter().peekable();
    while games.peek().is_some() {
        let chunk: Vec<NewGame> = games.by_ref().take(CHUNK).collect();
        let len = chunk.len();
        let chunk = if *stored_before {
            let found = stored_ids!(conn, hashes(chunk.iter().map(|g| &g.row)))?;
            not_stored(chunk, found, &mut ids)
        } else {
            chunk
        };
        // Rows side by side (what an array statement binds); seats by the same index.
        let (rows, seats): (Vec<_>, Vec<_>) = chunk.into_iter().map(|g| (g.row, g.seats)).unzip();
        let mut inserted: Vec<(i64, String)> = Vec::with_capacity(rows.len());
        in_prepared_statements!(rows, ROWS, |part| inserted.extend(
            diesel::insert_or_ignore_into(games::table)
                .values(part)
                .returning((games::id, games::content_hash))
                .get_results::<(i64, String)>(conn)?
        ));
        let skipped = skipped(rows.iter(), &inserted);
        if !skipped.is_empty() {
            all_stored(&skipped, stored_ids!(conn, &skipped)?, &mut ids)?;
        }
        *stored_before = 2 * inserted.len() < len;
        let seated = rows
            .iter()
            .zip(&seats)
            .map(|(r, s)| (&*r.content_hash, &s[..]));
        let seats = new_seats(seated, inserted, &mut ids);
        in_prepared_statements!(seats, ROWS, |part| diesel::insert_into(seats::table)
            .values(part)
            .execute(conn)?);
    }
    Ok(ids)
}

/// PostgreSQL: `COPY` in a savepoint. Games mostly new (a new store: `stored_before` false)
/// are copied without looking first; when one of them is stored, the copy fails (a unique
/// violation), and the chunk is copied again after one query found the stored ones. When that
/// fails too (another importer stored one of these games since), the chunk is written row by
/// row, skipping what is there. Either way, the same outcome.
fn postgres_write(
    conn: &mut PgConnection,
    games: &mut [NewGame],
    stored_before: &mut bool,
) -> Result<Ids, StoreError> {
    fn unique_violation<T>(result: &Result<T, StoreError>) -> bool {
        matches!(
            result,
            Err(StoreError::Database(DieselError::DatabaseError(
                DatabaseErrorKind::UniqueViolation,
                _
            )))
        )
    }
    let mut copied = conn.transaction(|conn| postgres_copy(conn, games, *stored_before));
    if !*stored_before && unique_violation(&copied) {
        *stored_before = true;
        copied = conn.transaction(|conn| postgres_copy(conn, games, true));
    }
    if unique_violation(&copied) {
        copied = conn.transaction(|conn| postgres_insert(conn, games));
    }
    let ids = copied?;
    *stored_before = ids.values().any(|&(_, new)| !new);
    Ok(ids)
}

/// PostgreSQL: finds the stored games (when `look` says to), numbers the others from the id
/// sequence and copies them and their seats: three statements, whatever the chunk's size.
fn postgres_copy(
    conn: &mut PgConnection,
    games: &mut [NewGame],
    look: bool,
) -> Result<Ids, StoreError> {
    let mut ids = Ids::with_capacity(games.len());
    if look {
        note_stored(
            stored_ids!(conn, hashes(games.iter().map(|g| &g.row)))?,
            &mut ids,
        );
    }
    let mut new: Vec<&mut NewGame> = games
        .iter_mut()
        .filter(|g| !ids.contains_key(&g.row.content_hash))
        .collect();
    if new.is_empty() {
        return Ok(ids);
    }
    let numbered = number_rows(conn, new.iter_mut().map(|g| &mut g.row))?;
    diesel::copy_from(games::table)
        .from_insertable(new.iter().map(|g| &g.row).collect::<Vec<_>>())
        .execute(conn)?;
    let seats = new_seats(seated(new.iter().map(|g| &**g)), numbered, &mut ids);
    diesel::copy_from(seats::table)
        .from_insertable(seats)
        .execute(conn)?;
    Ok(ids)
}

/// Gives each of `rows` the next id of the games' sequence (one query), and gives the ids and
/// hashes. Ids a statement then does not use (a failed copy, a skipped row) are left unused,
/// as a failed insert leaves its serial's.
fn number_rows<'a>(
    conn: &mut PgConnection,
    rows: impl ExactSizeIterator<Item = &'a mut super::GameInsert>,
) -> Result<Vec<(i64, String)>, StoreError> {
    #[derive(QueryableByName)]
    struct Next {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        id: i64,
    }
    let next: Vec<Next> =
        diesel::sql_query("SELECT nextval('games_id_seq') AS id FROM generate_series(1, $1)")
            .bind::<diesel::sql_types::Integer, _>(rows.len() as i32)
            .load(conn)?;
    Ok(rows
        .zip(next)
        .map(|(row, next)| {
            row.id = super::RowId(Some(next.id));
            (next.id, row.content_hash.clone())
        })
        .collect())
}

/// PostgreSQL, when a concurrent importer wrote some of the same games: `ON CONFLICT DO
/// NOTHING … RETURNING` gives exactly the rows this statement inserted; the skipped ones are
/// looked up once the other importer committed them.
fn postgres_insert(conn: &mut PgConnection, games: &mut [NewGame]) -> Result<Ids, StoreError> {
    let mut ids = Ids::with_capacity(games.len());
    for chunk in games.chunks_mut(CHUNK) {
        number_rows(conn, chunk.iter_mut().map(|g| &mut g.row))?;
        let inserted: Vec<(i64, String)> = diesel::insert_into(games::table)
            .values(chunk.iter().map(|g| &g.row).collect::<Vec<_>>())
            .on_conflict(games::content_hash)
            .do_nothing()
            .returning((games::id, games::content_hash))
            .get_results(conn)?;
        let skipped = skipped(chunk.iter().map(|g| &g.row), &inserted);
        if !skipped.is_empty() {
            all_stored(&skipped, stored_ids!(conn, &skipped)?, &mut ids)?;
        }
        let seats = new_seats(seated(chunk.iter()), inserted, &mut ids);
        for rows in seats.chunks(4 * CHUNK) {
            diesel::insert_into(seats::table)
                .values(rows)
                .execute(conn)?;
        }
    }
    Ok(ids)
}

/// The hashes of `rows` a statement that skips stored hashes did not insert (it returned the
/// ids and hashes of those it did: `inserted`).
fn skipped<'a>(
    rows: impl ExactSizeIterator<Item = &'a super::GameInsert>,
    inserted: &[(i64, String)],
) -> Vec<&'a str> {
    if inserted.len() == rows.len() {
        return Vec::new(); // all of them, the usual case: no set to build
    }
    let fresh: std::collections::HashSet<&str> = inserted.iter().map(|(_, h)| h.as_str()).collect();
    hashes(rows)
        .into_iter()
        .filter(|h| !fresh.contains(h))
        .collect()
}

/// Records the ids of skipped games (by hash), which must all be stored: a statement that
/// skips conflicts (SQLite's `OR IGNORE` skips any constraint, not only the hash) left out a
/// row for another reason, and that is an error, as a plain insert's would be.
fn all_stored(
    skipped: &[&str],
    found: Vec<(i64, String)>,
    ids: &mut Ids,
) -> Result<(), StoreError> {
    let all = found.len() == skipped.len();
    note_stored(found, ids);
    if all {
        Ok(())
    } else {
        Err(StoreError::Database(DieselError::NotFound))
    }
}

/// The rows' content hashes.
fn hashes<'a>(rows: impl Iterator<Item = &'a super::GameInsert>) -> Vec<&'a str> {
    rows.map(|r| r.content_hash.as_str()).collect()
}

/// Records the ids of the games `found` stored before.
fn note_stored(found: Vec<(i64, String)>, ids: &mut Ids) {
    for (id, hash) in found {
        ids.insert(hash, (id, false));
    }
}

/// Records the ids of the games `found` stored, and gives the others of `games`.
fn not_stored(games: Vec<NewGame>, found: Vec<(i64, String)>, ids: &mut Ids) -> Vec<NewGame> {
    note_stored(found, ids);
    games
        .into_iter()
        .filter(|g| !ids.contains_key(&g.row.content_hash))
        .collect()
}

/// Each game's hash and seats.
fn seated<'a>(
    games: impl Iterator<Item = &'a NewGame>,
) -> impl Iterator<Item = (&'a str, &'a [SeatInsert])> {
    games.map(|g| (&*g.row.content_hash, &g.seats[..]))
}

/// Records the ids of the games just inserted and gives their seats' rows (`seated`: each
/// written game's hash and seats).
fn new_seats<'a>(
    seated: impl Iterator<Item = (&'a str, &'a [SeatInsert])>,
    inserted: Vec<(i64, String)>,
    ids: &mut Ids,
) -> Vec<SeatInsert> {
    let by_hash: HashMap<&str, &[SeatInsert]> = seated.collect();
    let mut rows = Vec::with_capacity(2 * inserted.len());
    for (id, hash) in inserted {
        if let Some(seats) = by_hash.get(hash.as_str()) {
            rows.extend(seats.iter().map(|s| SeatInsert {
                game_id: id,
                ..s.clone()
            }));
        }
        ids.insert(hash, (id, true));
    }
    rows
}
