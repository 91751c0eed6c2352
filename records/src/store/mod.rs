//! The record store: validated game records in SQLite (embedded, the default) or PostgreSQL
//! (when the database URL says `postgres://`), with diesel.
//!
//! Imports are idempotent (a record's content hash is unique: the same record is stored once)
//! and atomic (a batch is one transaction: it is stored whole or not at all, and a game is
//! reported stored only once its transaction has committed).

use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{ConnectionManager, CustomizeConnection, Pool};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Runs `$insert` with `$part` bound to each array of `$n` rows of the slice `$rows`, then to
/// each one-row array of the rest: the same two statements every time. Diesel keeps the
/// prepared statement of a fixed number of rows (an array), not of a varying one (a vector),
/// which it prepares again each time (on SQLite, a statement per row).
macro_rules! in_prepared_statements {
    ($rows:expr, $n:expr, |$part:ident| $insert:expr) => {{
        let mut parts = $rows.chunks_exact($n);
        for part in &mut parts {
            let $part: &[_; $n] = part.try_into().expect("whole arrays");
            $insert;
        }
        for row in parts.remainder() {
            let $part = std::array::from_ref(row);
            $insert;
        }
    }};
}

mod checkpoint;
mod explore;
mod explorer;
mod explorer_row;
mod explorer_sql;
mod grow;
mod import;
mod ledger;
pub mod line;
mod model;
mod months;
mod packed;
mod plans;
mod players;
mod ratings;
mod rows_sql;
pub mod schema;
mod tables;

pub use explore::{ExploreError, Explored, ExplorerMove, FILTER_TIME, Filtered, Lookup};
pub use explorer::{DepthError, Line};
pub use explorer_row::ExplorerRow;
pub use explorer_sql::set_explorer_block_bits;
pub use import::ImportSession;
pub use ledger::{Commit, LEDGER_CHANNEL, LedgerEvent, LedgerRow, listen, unix_now, unix_now_ms};
pub use model::{
    GameInsert, GameRow, NewGame, RowId, SeatInsert, StoredSeat, content_hash, iso_date,
};
pub use players::{CountsVersion, PlayedMeeting};
pub use ratings::{Leaderboard, LeftOut, PlayerPage, PresetResults, Ranked, RatingsCache};
pub use tables::{Settled, TableGameRow, TableRow, TableStep};

use crate::core::{Record, ReplayError};
use model::GameColumns;
use schema::{games, seats};

const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/sqlite");
const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/postgres");

/// The default database: `DATABASE_URL` when set, else `anqi.db` in the working directory.
pub fn default_url() -> String {
    std::env::var("DATABASE_URL").unwrap_or_else(|_| "anqi.db".to_owned())
}

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("cannot open the database {url}: {message}")]
    Open { url: String, message: String },
    #[error("database migration failed: {0}")]
    Migration(String),
    #[error("database error: {0}")]
    Database(#[from] diesel::result::Error),
    #[error("no database connection: {0}")]
    Pool(#[from] diesel::r2d2::PoolError),
    /// Copying SQLite's write-ahead log into the database file failed (after a commit: what
    /// was committed is in the log, and stays).
    #[error("copying the write-ahead log into the database failed: {0}")]
    Checkpoint(String),
}

/// A pool of connections to one database.
#[derive(Clone)]
pub enum Store {
    Sqlite(Pool<ConnectionManager<SqliteConnection>>),
    Postgres(Pool<ConnectionManager<PgConnection>>),
}

/// Runs `$body` with `$conn` bound to a pooled connection of whichever backend.
macro_rules! with_connection_impl {
    ($store:expr, |$conn:ident| $body:expr) => {
        match $store {
            Store::Sqlite(pool) => {
                let mut pooled = pool.get()?;
                let $conn: &mut SqliteConnection = &mut pooled;
                $body
            }
            Store::Postgres(pool) => {
                let mut pooled = pool.get()?;
                let $conn: &mut PgConnection = &mut pooled;
                $body
            }
        }
    };
}
use with_connection_impl as with_connection;

/// SQLite settings every connection needs, the busy timeout first (switching to the log waits
/// for a writer of another connection rather than failing): 16 KiB pages (set before the file is created;
/// a stored game is a few kilobytes, and smaller pages spill it into overflow chains: the
/// import benchmark gains a quarter), write-ahead log (readers never wait for the
/// writer), a busy timeout instead of instant "database is locked", foreign keys, and
/// `synchronous = NORMAL` (durable against a killed process; WAL makes it safe), and a
/// 32 MiB page cache so that a large import does not spill.
///
/// `map_bytes` (0: none) reads the file through a memory map of up to that many bytes
/// ([`Store::open_mapped`]).
#[derive(Debug)]
struct SqliteSettings {
    map_bytes: u64,
}

/// SQLite's page cache per connection, in KiB (`PRAGMA cache_size = -CACHE_KIB`).
const CACHE_KIB: u32 = 32 * 1024;

/// SQLite's own checkpoint threshold (its default: a commit that leaves the log this many
/// pages long copies it into the database), given back to a connection an import used.
const AUTOCHECKPOINT_PAGES: u32 = 1000;

impl CustomizeConnection<SqliteConnection, diesel::r2d2::Error> for SqliteSettings {
    fn on_acquire(&self, conn: &mut SqliteConnection) -> Result<(), diesel::r2d2::Error> {
        conn.batch_execute(&format!(
            "PRAGMA busy_timeout = 10000; PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; \
             PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL; \
             PRAGMA cache_size = -{CACHE_KIB};",
        ))
        .map_err(diesel::r2d2::Error::QueryError)?;
        if self.map_bytes > 0 {
            conn.batch_execute(&format!("PRAGMA mmap_size = {};", self.map_bytes))
                .map_err(diesel::r2d2::Error::QueryError)?;
        }
        Ok(())
    }
}

impl Store {
    /// Opens (creating a SQLite file if needed) and migrates the database at `url`:
    /// `postgres://…` or `postgresql://…` for PostgreSQL, else a SQLite path (an optional
    /// `sqlite://` prefix is dropped; `:memory:` is not useful with a pool).
    pub fn open(url: &str) -> Result<Store, StoreError> {
        Store::open_mapped(url, 0)
    }

    /// Opens like [`Store::open`], a SQLite file read through a memory map of up to
    /// `map_bytes` (0: none; PostgreSQL: ignored). For a service's many small random reads
    /// (the explorer's lookups: a page read without copying it out of the kernel, 10% more
    /// answers a second under load). Not for the tools: the pages a stream of every game
    /// touches would count in its resident memory.
    pub fn open_mapped(url: &str, map_bytes: u64) -> Result<Store, StoreError> {
        let open_error = |e: &dyn std::fmt::Display| StoreError::Open {
            url: redact(url),
            message: e.to_string(),
        };
        // One connection first, outside the pool: a database that cannot be opened (a wrong
        // password, a server that refuses, a read-only file system) is then a precise error at
        // once, not the pool's "timed out waiting for connection" ten seconds later.
        let store =
            if sqlite_path(url).is_none() {
                PgConnection::establish(url).map_err(|e| open_error(&e))?;
                let pool = Pool::builder()
                    .max_size(8)
                    .connection_timeout(Duration::from_secs(10))
                    .build(ConnectionManager::<PgConnection>::new(url))
                    .map_err(|e| open_error(&e))?;
                Store::Postgres(pool)
            } else {
                let path = url.strip_prefix("sqlite://").unwrap_or(url);
                plans::keep_plans();
                let mut probe = SqliteConnection::establish(path).map_err(|e| open_error(&e))?;
                SqliteSettings { map_bytes }.on_acquire(&mut probe).map_err(|e| {
                open_error(&format!(
                    "{e} (SQLite writes the file and, beside it, its -wal and -shm files: is \
                     the file or its directory read-only?)"
                ))
            })?;
                drop(probe);
                let pool = Pool::builder()
                    .max_size(4)
                    .connection_timeout(Duration::from_secs(10))
                    // A SQLite connection is a file opened in this process: it cannot go stale
                    // like a server's, and the check cost a query every time one was taken.
                    .test_on_check_out(false)
                    .connection_customizer(Box::new(SqliteSettings { map_bytes }))
                    .build(ConnectionManager::<SqliteConnection>::new(path))
                    .map_err(|e| open_error(&e))?;
                Store::Sqlite(pool)
            };
        store.migrate()?;
        store.backfill_sides()?;
        store.build_explorer_if_needed()?;
        Ok(store)
    }

    /// `sqlite` or `postgres`.
    pub fn backend(&self) -> &'static str {
        match self {
            Store::Sqlite(_) => "sqlite",
            Store::Postgres(_) => "postgres",
        }
    }

    fn migrate(&self) -> Result<(), StoreError> {
        let done = match self {
            Store::Sqlite(pool) => pool
                .get()?
                .run_pending_migrations(SQLITE_MIGRATIONS)
                .map(|_| ()),
            Store::Postgres(pool) => pool
                .get()?
                .run_pending_migrations(POSTGRES_MIGRATIONS)
                .map(|_| ()),
        };
        done.map_err(|e| StoreError::Migration(e.to_string()))
    }

    /// Fills in the side of every seat a migration carried over ('?': not known yet) by
    /// replaying its stored record; a seat whose side the replay does not know gets NULL.
    fn backfill_sides(&self) -> Result<(), StoreError> {
        loop {
            let pending: Vec<(i64, String)> = with_connection!(self, |conn| games::table
                .filter(
                    games::id.eq_any(
                        seats::table
                            .filter(seats::side.eq("?"))
                            .select(seats::game_id),
                    ),
                )
                .order(games::id)
                .limit(1000)
                .select((games::id, games::record))
                .load(conn)?);
            if pending.is_empty() {
                return Ok(());
            }
            let sides: Vec<(i64, Vec<Option<&'static str>>)> = pending
                .iter()
                .map(|(id, json)| {
                    let sides = serde_json::from_str::<Record>(json)
                        .ok()
                        .and_then(|r| crate::games::summarize(&r).ok())
                        .map(|s| s.seats.iter().map(|seat| seat.side).collect())
                        .unwrap_or_default();
                    (*id, sides)
                })
                .collect();
            with_connection!(self, |conn| {
                conn.write_transaction(|conn| {
                    for (id, sides) in &sides {
                        diesel::update(
                            seats::table
                                .filter(seats::game_id.eq(id))
                                .filter(seats::side.eq("?")),
                        )
                        .set(seats::side.eq(None::<&str>))
                        .execute(conn)?;
                        for (seat, side) in sides.iter().enumerate() {
                            diesel::update(
                                seats::table
                                    .filter(seats::game_id.eq(id))
                                    .filter(seats::seat.eq(seat as i32)),
                            )
                            .set(seats::side.eq(side))
                            .execute(conn)?;
                        }
                    }
                    Ok(())
                })
            })?;
        }
    }

    /// One stored game: its row and its record.
    pub fn get(&self, id: i64) -> Result<Option<(GameRow, Record)>, StoreError> {
        let found: Option<(GameColumns, String)> = with_connection!(self, |conn| {
            games::table
                .find(id)
                .select((GameColumns::as_select(), games::record))
                .first(conn)
                .optional()?
        });
        let Some((columns, json)) = found else {
            return Ok(None);
        };
        let mut rows = self.with_seats(vec![columns])?;
        let record = serde_json::from_str(&json).expect("stored records are valid JSON");
        Ok(Some((rows.remove(0), record)))
    }

    /// The rows of `games` with their seats.
    fn with_seats(&self, games: Vec<GameColumns>) -> Result<Vec<GameRow>, StoreError> {
        let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
        let all: Vec<SeatInsert> = with_connection!(self, |conn| seats::table
            .filter(seats::game_id.eq_any(&ids))
            .order((seats::game_id, seats::seat))
            .select(SeatInsert::as_select())
            .load(conn)?);
        let mut by_game: std::collections::HashMap<i64, Vec<StoredSeat>> =
            std::collections::HashMap::with_capacity(ids.len());
        for s in all {
            by_game.entry(s.game_id).or_default().push(StoredSeat {
                seat: crate::core::Seat::new(s.seat as usize).unwrap_or(crate::core::Seat::FIRST),
                name: s.name,
                named: s.named,
                side: s.side.filter(|side| side != "?"),
                points: s.points,
            });
        }
        Ok(games
            .into_iter()
            .map(|g| {
                let seats = by_game.remove(&g.id).unwrap_or_default();
                GameRow::new(g, seats)
            })
            .collect())
    }

    /// The games matching `filter`, in id order (newest first when asked), after
    /// `filter.after` and before `filter.before`, at most `filter.limit`.
    pub fn list(&self, filter: &GameFilter) -> Result<Vec<GameRow>, StoreError> {
        macro_rules! query {
            () => {{
                let mut q = games::table
                    .select(GameColumns::as_select())
                    .limit(filter.limit.clamp(1, 1000))
                    .into_boxed();
                q = match filter.order {
                    ListOrder::Oldest => q.order(games::id),
                    ListOrder::Newest => q.order(games::id.desc()),
                };
                if let Some(after) = filter.after {
                    q = q.filter(games::id.gt(after));
                }
                if let Some(before) = filter.before {
                    q = q.filter(games::id.lt(before));
                }
                if let Some(g) = &filter.game {
                    q = q.filter(games::game.eq(g.clone()));
                }
                if let Some(p) = &filter.preset {
                    q = q.filter(games::preset.eq(p.clone()));
                }
                if let Some(p) = &filter.player {
                    q = q.filter(
                        games::id.eq_any(
                            seats::table
                                .filter(seats::name.eq(p.clone()))
                                .select(seats::game_id),
                        ),
                    );
                }
                if let Some(r) = &filter.result {
                    q = q.filter(games::result.eq(r.clone()));
                }
                if let Some(d) = &filter.date_from {
                    q = q.filter(games::played_on.ge(d.clone()));
                }
                if let Some(d) = &filter.date_to {
                    q = q.filter(games::played_on.le(d.clone()));
                }
                q
            }};
        }
        let games: Vec<GameColumns> = with_connection!(self, |conn| query!().load(conn)?);
        self.with_seats(games)
    }

    /// Stored records in id order after `after`, at most `limit`: (id, source, record). For
    /// reading the whole store a page at a time.
    pub fn records(
        &self,
        after: i64,
        limit: i64,
    ) -> Result<Vec<(i64, String, Record)>, StoreError> {
        let rows: Vec<(i64, String, String)> = with_connection!(self, |conn| games::table
            .filter(games::id.gt(after))
            .order(games::id)
            .limit(limit)
            .select((games::id, games::source, games::record))
            .load(conn)?);
        Ok(rows
            .into_iter()
            .map(|(id, source, json)| {
                let record = serde_json::from_str(&json).expect("stored records are valid JSON");
                (id, source, record)
            })
            .collect())
    }

    /// How many games are stored.
    pub fn count(&self) -> Result<i64, StoreError> {
        Ok(with_connection!(self, |conn| games::table
            .count()
            .get_result(conn)?))
    }
}

/// A transaction that writes. SQLite's is `BEGIN IMMEDIATE`: it takes the write lock at once,
/// so a second writer waits on the busy timeout instead of failing ("database is locked") when
/// its read would have to become a write.
trait WriteTransaction: Sized {
    fn write_transaction<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, StoreError>,
    ) -> Result<T, StoreError>;
}

/// One SQLite writer at a time in this process. SQLite allows one anyway; without this, a
/// second pooled connection finds the lock taken and its busy handler sleeps (1, 2, 5, 10 …
/// 100 ms) before trying again: eight concurrent single-record writes to the service had a p99
/// of 0.65–0.98 s, 18–19 ms with this lock (docs/store.md). Writers in other processes still
/// meet SQLite's lock and the busy timeout.
static SQLITE_WRITER: std::sync::Mutex<()> = std::sync::Mutex::new(());

impl WriteTransaction for SqliteConnection {
    fn write_transaction<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        // The lock guards no data of its own (a panicking writer's transaction is rolled back
        // by diesel), so a poisoned one is as good.
        let _writer = SQLITE_WRITER
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.immediate_transaction(f)
    }
}

impl WriteTransaction for PgConnection {
    fn write_transaction<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        self.transaction(f)
    }
}

/// A record to import and where it came from.
#[derive(Clone, Debug)]
pub struct Incoming {
    pub record: Record,
    pub source: String,
}

/// What an import did with one record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum Imported {
    /// Stored now, under this id.
    Stored { id: i64, hash: String },
    /// The same record was already stored, under this id.
    Duplicate { id: i64, hash: String },
    /// Not stored: the replay error says why.
    Invalid { error: ReplayError },
}

/// Which games to list.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema, utoipa::IntoParams))]
#[serde(deny_unknown_fields)]
pub struct GameFilter {
    /// Only this kind of game (`banqi`).
    #[cfg_attr(feature = "openapi", param(example = crate::games::GameKind::default_name))]
    #[serde(default)]
    pub game: Option<String>,
    /// Only this preset.
    #[cfg_attr(feature = "openapi", param(example = "tcga"))]
    #[serde(default)]
    pub preset: Option<String>,
    /// Only games this player played (either seat).
    #[cfg_attr(feature = "openapi", param(example = "chan"))]
    #[serde(default)]
    pub player: Option<String>,
    /// Only this result: `player1`, `player2`, `draw`, a three-seat ranking
    /// (`player2>player1=player3`) or `ongoing`.
    #[cfg_attr(feature = "openapi", param(example = "player1"))]
    #[serde(default)]
    pub result: Option<String>,
    /// Only games played on or after this date (YYYY-MM-DD); games without a date are left out.
    #[cfg_attr(
        feature = "openapi",
        param(example = "2022-01-01", pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
    )]
    #[serde(default)]
    pub date_from: Option<String>,
    /// Only games played on or before this date (YYYY-MM-DD).
    #[cfg_attr(
        feature = "openapi",
        param(example = "2022-12-31", pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
    )]
    #[serde(default)]
    pub date_to: Option<String>,
    /// Only games with an id greater than this (the `next` of the previous page).
    #[cfg_attr(feature = "openapi", param(example = 100))]
    #[serde(default)]
    pub after: Option<i64>,
    /// Only games with an id smaller than this (newest first: the `next` of the previous
    /// page).
    #[cfg_attr(feature = "openapi", param(example = 200))]
    #[serde(default)]
    pub before: Option<i64>,
    /// `oldest` first (the default: the order games were stored in) or `newest` first.
    #[cfg_attr(feature = "openapi", param(example = "newest"))]
    #[serde(default)]
    pub order: ListOrder,
    /// Page size, 1–1000 (default 100).
    #[cfg_attr(feature = "openapi", param(example = 50, minimum = 1, maximum = 1000))]
    #[serde(default = "default_limit")]
    pub limit: i64,
}

fn default_limit() -> i64 {
    100
}

/// The order stored games are listed in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum ListOrder {
    /// The order games were stored in.
    #[default]
    Oldest,
    /// The last stored first.
    Newest,
}

pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// The SQLite file a store's `url` names (None for PostgreSQL).
pub fn sqlite_path(url: &str) -> Option<std::path::PathBuf> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return None;
    }
    Some(url.strip_prefix("sqlite://").unwrap_or(url).into())
}

/// A URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}

/// Creates (dropping any previous one) the PostgreSQL database `name` on the server of
/// `admin_url`, and gives its URL: for tests and benchmarks that need an empty database.
pub fn scratch_postgres_database(admin_url: &str, name: &str) -> Result<String, StoreError> {
    let open_error = |e: &dyn std::fmt::Display| StoreError::Open {
        url: redact(admin_url),
        message: e.to_string(),
    };
    assert!(
        name.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
        "a plain database name"
    );
    let mut admin = PgConnection::establish(admin_url).map_err(|e| open_error(&e))?;
    // An autovacuum worker on the old database (a previous run loaded it) is the server's,
    // which a plain role may not terminate: the drop fails until the worker is done.
    let drop = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
    let mut tries = 0;
    while let Err(e) = admin.batch_execute(&drop) {
        tries += 1;
        if tries == 50 {
            return Err(e.into());
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    admin.batch_execute(&format!("CREATE DATABASE {name}"))?;
    let base = admin_url
        .rsplit_once('/')
        .map_or(admin_url, |(base, _)| base);
    Ok(format!("{base}/{name}"))
}

/// The test databases of this machine: always a fresh SQLite file under `dir`, and a fresh
/// PostgreSQL database when `ANQI_TEST_POSTGRES_URL` names a server (an admin URL). When
/// `ANQI_REQUIRE_POSTGRES` is set (CI), a missing server is an error rather than a skip.
pub fn test_databases(dir: &std::path::Path, name: &str) -> Vec<String> {
    let _ = std::fs::create_dir_all(dir);
    let sqlite = dir.join(format!("{name}.db"));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", sqlite.display()));
    }
    let mut urls = vec![sqlite.display().to_string()];
    match std::env::var("ANQI_TEST_POSTGRES_URL") {
        Ok(admin) => urls.push(
            scratch_postgres_database(&admin, &format!("anqi_{name}"))
                .unwrap_or_else(|e| panic!("PostgreSQL for tests: {e}")),
        ),
        Err(_) if std::env::var_os("ANQI_REQUIRE_POSTGRES").is_some() => {
            panic!("ANQI_REQUIRE_POSTGRES is set but ANQI_TEST_POSTGRES_URL is not")
        }
        Err(_) => eprintln!(
            "note: ANQI_TEST_POSTGRES_URL is not set: {name} runs on SQLite only (.ci/postgres.sh starts a server)"
        ),
    }
    urls
}
