//! The referee's ledger in the store: the games it deals and the actions committed in them.
//! Plain rows; what they mean (tokens, replay, what each seat is told) is
//! [`crate::referee`]'s.

use diesel::prelude::*;
use diesel::sql_types::Text;

use super::schema::{ledger, ledger_actions, ledger_events};
use super::{Store, StoreError, WriteTransaction, with_connection};

/// A refereed game as the ledger holds it.
#[derive(Clone, Debug, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = ledger)]
pub struct LedgerRow {
    pub game_id: String,
    pub game: String,
    pub preset: String,
    /// The game's overrides as canonical JSON.
    pub options: String,
    /// The players' names as a JSON array.
    pub players: String,
    /// The hidden truth sealed under the seal key ([`crate::seal::Keys::seal`]).
    pub sealed_truth: Option<String>,
    /// A seed the dealer was given (public), in decimal.
    pub seed: Option<String>,
    /// Actions committed.
    pub plies: i32,
    /// The outcome once the game has ended.
    pub result: Option<String>,
    /// The stored game (`games.id`) holding the finished game's record.
    pub stored_game: Option<i64>,
    pub created_at: i64,
    pub updated_at: i64,
    /// The clock chosen at the deal (Fischer): each seat's time, and what each of its moves
    /// adds; None: no clock.
    pub clock_base_ms: Option<i64>,
    pub clock_increment_ms: Option<i64>,
    /// How long the seat to move may stay silent before another seat may claim the game;
    /// None: never.
    pub claim_after_ms: Option<i64>,
    /// Events committed (what is not a ply: offers, resignations …).
    pub events: i32,
    /// The seats the service's engine plays, with its milliseconds a move, as a JSON object
    /// (`{"player2": 100}`); None: none.
    pub engines: Option<String>,
}

/// An event of a refereed game that is not a ply, as the ledger holds it.
#[derive(Clone, Debug, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = ledger_events)]
pub struct LedgerEvent {
    /// 0 for the game's first event.
    pub seq: i32,
    /// Plies committed before it.
    pub ply: i32,
    /// `draw_offer`, `draw_decline`, `draw_agreed`, `resign`, `abort`, `flag`, `claim`.
    pub kind: String,
    /// Whose event (`player1` …); None for the game's own token.
    pub seat: Option<String>,
    /// Unix milliseconds of the commit.
    pub at_ms: i64,
}

/// What committing an action did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Commit {
    /// The action is the game's at that ply now.
    Committed,
    /// Another action was committed at that ply first (or the game ended, or expired): the
    /// ledger's action there, if any.
    Taken(Option<String>),
}

/// The PostgreSQL channel a commit is announced on: its payload is the game's id.
pub const LEDGER_CHANNEL: &str = "anqi_ledger";

/// A commit's notice to the service's other instances, sent in the commit's own transaction:
/// PostgreSQL's NOTIFY, delivered to the listeners ([`listen`]) when the transaction commits
/// and never if it does not. SQLite has no notices: the processes sharing a file find each
/// other's commits by asking it whether it changed ([`listen`]).
trait Notice {
    fn notice(&mut self, game_id: &str) -> QueryResult<()>;
}

impl Notice for SqliteConnection {
    fn notice(&mut self, _: &str) -> QueryResult<()> {
        Ok(())
    }
}

impl Notice for PgConnection {
    fn notice(&mut self, game_id: &str) -> QueryResult<()> {
        diesel::sql_query("SELECT pg_notify($1, $2)")
            .bind::<Text, _>(LEDGER_CHANNEL)
            .bind::<Text, _>(game_id)
            .execute(self)
            .map(|_| ())
    }
}

/// Listens for the commits of every instance sharing the store at `url`: `on` gets each
/// committed game's id (perhaps more than once, and this instance's own commits too), on a
/// thread of its own.
///
/// - PostgreSQL: the commits' notices (NOTIFY). The thread polls its connection every few
///   milliseconds (libpq delivers notices when input is read) and reconnects after a failure;
///   a notice lost while it reconnects is caught up by the streams' heartbeats.
/// - SQLite: no notices, so the thread asks the file every few milliseconds whether anyone
///   wrote to it (`PRAGMA data_version`, one page read); when someone did, it reads the rows
///   of the games updated in the last few seconds and tells the ones whose plies, events or
///   stored game moved on. Several processes may share one SQLite file.
pub fn listen(
    url: &str,
    on: impl Fn(&str) + Send + 'static,
) -> Option<std::thread::JoinHandle<()>> {
    let (name, url) = (String::from("ledger-listen"), url.to_owned());
    let spawn = |body: Box<dyn FnOnce() + Send>| {
        std::thread::Builder::new()
            .name(name)
            .spawn(body)
            .expect("a thread starts")
    };
    Some(match super::sqlite_path(&url) {
        None => spawn(Box::new(move || listen_postgres(&url, on))),
        Some(path) => {
            let path = path.to_string_lossy().into_owned();
            spawn(Box::new(move || listen_sqlite(&path, on)))
        }
    })
}

fn listen_postgres(url: &str, on: impl Fn(&str)) {
    let poll = std::time::Duration::from_millis(2);
    loop {
        let listening = PgConnection::establish(url).and_then(|mut conn| {
            diesel::sql_query(format!("LISTEN {LEDGER_CHANNEL}"))
                .execute(&mut conn)
                .map_err(diesel::ConnectionError::CouldntSetupConfiguration)?;
            Ok(conn)
        });
        let Ok(mut conn) = listening else {
            std::thread::sleep(std::time::Duration::from_secs(1));
            continue;
        };
        'polling: loop {
            for notice in conn.notifications_iter() {
                match notice {
                    Ok(notice) => on(&notice.payload),
                    Err(_) => break 'polling,
                }
            }
            std::thread::sleep(poll);
        }
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
}

/// How far back (seconds of `updated_at`, which the committing process's clock writes) a
/// SQLite listener looks for games that moved: wide enough for a commit that took a while
/// and the clocks of processes on one machine; a game that moved before is one it has seen.
const RECENT_SECONDS: i64 = 3;

/// A game's row as far as its streams care: plies, events, whether stored.
type Moved = (i32, i32, Option<i64>);

fn listen_sqlite(path: &str, on: impl Fn(&str)) {
    use diesel::sql_types::BigInt;
    #[derive(QueryableByName)]
    struct Version {
        #[diesel(sql_type = BigInt)]
        data_version: i64,
    }
    let poll = std::time::Duration::from_millis(3);
    loop {
        let Ok(mut conn) = SqliteConnection::establish(path) else {
            std::thread::sleep(std::time::Duration::from_secs(1));
            continue;
        };
        let _ = diesel::sql_query("PRAGMA busy_timeout = 5000").execute(&mut conn);
        let mut seen: std::collections::HashMap<String, Moved> = Default::default();
        let mut version = None;
        loop {
            let now = diesel::sql_query("PRAGMA data_version")
                .get_result::<Version>(&mut conn)
                .map(|v| v.data_version);
            let Ok(now) = now else { break };
            if version != Some(now) {
                let recent: QueryResult<Vec<(String, i32, i32, Option<i64>)>> = ledger::table
                    .filter(ledger::updated_at.ge(unix_now() - RECENT_SECONDS))
                    .select((
                        ledger::game_id,
                        ledger::plies,
                        ledger::events,
                        ledger::stored_game,
                    ))
                    .load(&mut conn);
                let Ok(recent) = recent else { break };
                let first = version.is_none();
                let mut now_seen = std::collections::HashMap::with_capacity(recent.len());
                for (game_id, plies, events, stored) in recent {
                    let moved = (plies, events, stored);
                    if !first && seen.get(&game_id) != Some(&moved) {
                        on(&game_id);
                    }
                    now_seen.insert(game_id, moved);
                }
                seen = now_seen;
                version = Some(now);
            }
            std::thread::sleep(poll);
        }
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> i64 {
    unix_now_ms() / 1000
}

/// Milliseconds since the Unix epoch.
pub fn unix_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl Store {
    /// Writes a newly dealt game.
    pub fn ledger_insert(&self, row: &LedgerRow) -> Result<(), StoreError> {
        with_connection!(self, |conn| {
            conn.write_transaction(|conn| {
                diesel::insert_into(ledger::table)
                    .values(row)
                    .execute(conn)?;
                Ok(())
            })
        })
    }

    /// How many games the ledger holds (in play, and finished ones not yet expired).
    pub fn ledger_len(&self) -> Result<i64, StoreError> {
        with_connection!(self, |conn| Ok(ledger::table.count().get_result(conn)?))
    }

    /// A refereed game's row, without its actions: what every request reads first.
    pub fn ledger_row(&self, game_id: &str) -> Result<Option<LedgerRow>, StoreError> {
        with_connection!(self, |conn| {
            Ok(ledger::table
                .find(game_id)
                .select(LedgerRow::as_select())
                .first(conn)
                .optional()?)
        })
    }

    /// The actions committed at plies `from..to` (0-based) of a game in play, in order.
    pub fn ledger_actions(
        &self,
        game_id: &str,
        from: u32,
        to: u32,
    ) -> Result<Vec<String>, StoreError> {
        let timed = self.ledger_actions_timed(game_id, from, to)?;
        Ok(timed.into_iter().map(|(action, _)| action).collect())
    }

    /// [`Store::ledger_actions`] with when each was committed (Unix milliseconds; None for
    /// a ply committed before the ledger kept times).
    pub fn ledger_actions_timed(
        &self,
        game_id: &str,
        from: u32,
        to: u32,
    ) -> Result<Vec<(String, Option<i64>)>, StoreError> {
        let (from, to) = (
            i32::try_from(from).unwrap_or(i32::MAX),
            i32::try_from(to).unwrap_or(i32::MAX),
        );
        with_connection!(self, |conn| {
            Ok(ledger_actions::table
                .filter(ledger_actions::game_id.eq(game_id))
                .filter(ledger_actions::ply.ge(from))
                .filter(ledger_actions::ply.lt(to))
                .order(ledger_actions::ply)
                .select((ledger_actions::action, ledger_actions::at_ms))
                .load(conn)?)
        })
    }

    /// A game's events `from..to` (0-based), in order.
    pub fn ledger_events(
        &self,
        game_id: &str,
        from: u32,
        to: u32,
    ) -> Result<Vec<LedgerEvent>, StoreError> {
        let (from, to) = (
            i32::try_from(from).unwrap_or(i32::MAX),
            i32::try_from(to).unwrap_or(i32::MAX),
        );
        with_connection!(self, |conn| {
            Ok(ledger_events::table
                .filter(ledger_events::game_id.eq(game_id))
                .filter(ledger_events::seq.ge(from))
                .filter(ledger_events::seq.lt(to))
                .order(ledger_events::seq)
                .select(LedgerEvent::as_select())
                .load(conn)?)
        })
    }

    /// Commits `event` when the game is where it was judged (`event.ply` plies, `event.seq`
    /// events, not ended): the row moves on in the same transaction, so that of an event and
    /// a ply (or two events) racing, exactly one is committed as judged. `result` ends the
    /// game. Gives whether it was committed.
    pub fn ledger_event(
        &self,
        game_id: &str,
        event: &LedgerEvent,
        result: Option<&str>,
    ) -> Result<bool, StoreError> {
        with_connection!(self, |conn| {
            conn.write_transaction(|conn| {
                let moved = diesel::update(
                    ledger::table
                        .filter(ledger::game_id.eq(game_id))
                        .filter(ledger::plies.eq(event.ply))
                        .filter(ledger::events.eq(event.seq))
                        .filter(ledger::result.is_null()),
                )
                .set((
                    ledger::events.eq(event.seq + 1),
                    ledger::updated_at.eq(event.at_ms / 1000),
                    ledger::result.eq(result),
                ))
                .execute(conn)?;
                if moved == 0 {
                    return Ok(false);
                }
                diesel::insert_into(ledger_events::table)
                    .values((
                        ledger_events::game_id.eq(game_id),
                        ledger_events::seq.eq(event.seq),
                        ledger_events::ply.eq(event.ply),
                        ledger_events::kind.eq(&event.kind),
                        ledger_events::seat.eq(&event.seat),
                        ledger_events::at_ms.eq(event.at_ms),
                    ))
                    .execute(conn)?;
                conn.notice(game_id)?;
                Ok(true)
            })
        })
    }

    /// A refereed game and its committed actions in order (none once it is stored).
    pub fn ledger_game(
        &self,
        game_id: &str,
    ) -> Result<Option<(LedgerRow, Vec<String>)>, StoreError> {
        let Some(row) = self.ledger_row(game_id)? else {
            return Ok(None);
        };
        let actions = self.ledger_actions(game_id, 0, u32::MAX)?;
        Ok(Some((row, actions)))
    }

    /// Replaces a game's options (canonical JSON) when they are still `old`: how a game
    /// dealt before the referee capped its games gets its cap, once. Gives whether it did.
    pub fn ledger_set_options(
        &self,
        game_id: &str,
        old: &str,
        new: &str,
    ) -> Result<bool, StoreError> {
        with_connection!(self, |conn| {
            conn.write_transaction(|conn| {
                Ok(diesel::update(
                    ledger::table
                        .filter(ledger::game_id.eq(game_id))
                        .filter(ledger::options.eq(old)),
                )
                .set(ledger::options.eq(new))
                .execute(conn)?
                    == 1)
            })
        })
    }

    /// Commits `action` as the game's action at `ply` (0-based), when `ply` actions are
    /// committed and the game has not ended: the game's row moves from `ply` to `ply + 1` in
    /// the same transaction, so that of concurrent commits at one ply exactly one wins (the
    /// others find the row moved on). `result` ends the game; `at_ms` is the commit's time
    /// (Unix milliseconds: the clocks read it).
    pub fn ledger_commit(
        &self,
        game_id: &str,
        ply: u32,
        action: &str,
        result: Option<&str>,
        at_ms: i64,
    ) -> Result<Commit, StoreError> {
        let ply = i32::try_from(ply).unwrap_or(i32::MAX);
        let now = at_ms / 1000;
        let committed = with_connection!(self, |conn| {
            conn.write_transaction(|conn| {
                let moved = diesel::update(
                    ledger::table
                        .filter(ledger::game_id.eq(game_id))
                        .filter(ledger::plies.eq(ply))
                        .filter(ledger::result.is_null()),
                )
                .set((
                    ledger::plies.eq(ply + 1),
                    ledger::updated_at.eq(now),
                    ledger::result.eq(result),
                ))
                .execute(conn)?;
                if moved == 0 {
                    return Ok(false);
                }
                diesel::insert_into(ledger_actions::table)
                    .values((
                        ledger_actions::game_id.eq(game_id),
                        ledger_actions::ply.eq(ply),
                        ledger_actions::action.eq(action),
                        ledger_actions::at_ms.eq(Some(at_ms)),
                    ))
                    .execute(conn)?;
                conn.notice(game_id)?;
                Ok(true)
            })
        })?;
        if committed {
            return Ok(Commit::Committed);
        }
        let there: Option<String> = with_connection!(self, |conn| ledger_actions::table
            .filter(ledger_actions::game_id.eq(game_id))
            .filter(ledger_actions::ply.eq(ply))
            .select(ledger_actions::action)
            .first(conn)
            .optional()?);
        Ok(Commit::Taken(there))
    }

    /// Compacts a finished game once its record is stored as `stored_game`: its actions, its
    /// events and its sealed truth go (the stored record holds them all).
    pub fn ledger_compact(&self, game_id: &str, stored_game: i64) -> Result<(), StoreError> {
        with_connection!(self, |conn| {
            conn.write_transaction(|conn| {
                diesel::update(ledger::table.find(game_id))
                    .set((
                        ledger::stored_game.eq(Some(stored_game)),
                        ledger::sealed_truth.eq(None::<String>),
                    ))
                    .execute(conn)?;
                diesel::delete(ledger_actions::table.filter(ledger_actions::game_id.eq(game_id)))
                    .execute(conn)?;
                diesel::delete(ledger_events::table.filter(ledger_events::game_id.eq(game_id)))
                    .execute(conn)?;
                Ok(())
            })
        })
    }

    /// Takes or renews, for `holder` (an instance), the lease on the engine seats of
    /// `game_id` until `until_ms`: when nobody holds it, `holder` does already, or the
    /// holder's lease ran out before `now_ms` (its instance died). One statement, so that of
    /// two instances asking at once exactly one holds it. Gives whether `holder` holds it now
    /// (false too for a game that ended or is not in the ledger).
    pub fn ledger_engine_lease(
        &self,
        game_id: &str,
        holder: &str,
        now_ms: i64,
        until_ms: i64,
    ) -> Result<bool, StoreError> {
        with_connection!(self, |conn| {
            conn.write_transaction(|conn| {
                Ok(diesel::update(
                    ledger::table
                        .filter(ledger::game_id.eq(game_id))
                        .filter(ledger::result.is_null())
                        .filter(
                            ledger::engine_holder
                                .is_null()
                                .or(ledger::engine_holder.eq(holder))
                                .or(ledger::engine_lease_ms.lt(now_ms)),
                        ),
                )
                .set((
                    ledger::engine_holder.eq(holder),
                    ledger::engine_lease_ms.eq(until_ms),
                ))
                .execute(conn)?
                    == 1)
            })
        })
    }

    /// Gives up `holder`'s leases on engine seats: `game_id`'s (its task ended), or every
    /// game's (None: the instance stops), so that another instance may take them at once.
    pub fn ledger_engine_release(
        &self,
        game_id: Option<&str>,
        holder: &str,
    ) -> Result<(), StoreError> {
        with_connection!(self, |conn| {
            conn.write_transaction(|conn| {
                let held = ledger::table.filter(ledger::engine_holder.eq(holder));
                match game_id {
                    Some(id) => diesel::update(held.filter(ledger::game_id.eq(id)))
                        .set(ledger::engine_lease_ms.eq(0))
                        .execute(conn)?,
                    None => diesel::update(held)
                        .set(ledger::engine_lease_ms.eq(0))
                        .execute(conn)?,
                };
                Ok(())
            })
        })
    }

    /// Renews every lease `holder` holds on the engine seats of games in play until
    /// `until_ms` (one statement for all of an instance's games); gives how many.
    pub fn ledger_engine_renew(&self, holder: &str, until_ms: i64) -> Result<usize, StoreError> {
        with_connection!(self, |conn| {
            conn.write_transaction(|conn| {
                Ok(diesel::update(
                    ledger::table
                        .filter(ledger::engine_holder.eq(holder))
                        .filter(ledger::result.is_null())
                        // A lease taken for a long search already runs past it.
                        .filter(ledger::engine_lease_ms.lt(until_ms)),
                )
                .set(ledger::engine_lease_ms.eq(until_ms))
                .execute(conn)?)
            })
        })
    }

    /// The games in play with engine seats that no live instance holds at `now_ms` (never
    /// leased, or a lease run out) and that moved since `active_since` (Unix seconds: older
    /// ones have expired): their ids and kinds, for an instance to take up.
    pub fn ledger_engine_games_unheld(
        &self,
        now_ms: i64,
        active_since: i64,
    ) -> Result<Vec<(String, String)>, StoreError> {
        with_connection!(self, |conn| {
            Ok(ledger::table
                .filter(ledger::engines.is_not_null())
                .filter(ledger::result.is_null())
                .filter(ledger::updated_at.ge(active_since))
                .filter(
                    ledger::engine_lease_ms
                        .is_null()
                        .or(ledger::engine_lease_ms.lt(now_ms)),
                )
                .select((ledger::game_id, ledger::game))
                .load(conn)?)
        })
    }

    /// Forgets the games whose last action is older than `before` (Unix seconds): abandoned
    /// games with their actions, and the ledger rows of finished ones (their stored games
    /// stay). Gives how many.
    pub fn ledger_expire(&self, before: i64) -> Result<usize, StoreError> {
        with_connection!(self, |conn| {
            conn.write_transaction(|conn| {
                let old = ledger::table
                    .filter(ledger::updated_at.lt(before))
                    .select(ledger::game_id);
                diesel::delete(ledger_actions::table.filter(ledger_actions::game_id.eq_any(old)))
                    .execute(conn)?;
                diesel::delete(ledger_events::table.filter(ledger_events::game_id.eq_any(old)))
                    .execute(conn)?;
                Ok(
                    diesel::delete(ledger::table.filter(ledger::updated_at.lt(before)))
                        .execute(conn)?,
                )
            })
        })
    }
}
