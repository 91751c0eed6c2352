//! The referee's ledger in the store: the games it deals and the actions committed in them.
//! Plain rows; what they mean (tokens, replay, what each seat is told) is
//! [`crate::referee`]'s.

use diesel::prelude::*;

use super::schema::{ledger, ledger_actions};
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

/// Seconds since the Unix epoch.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
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
                .select(ledger_actions::action)
                .load(conn)?)
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
    /// others find the row moved on). `result` ends the game.
    pub fn ledger_commit(
        &self,
        game_id: &str,
        ply: u32,
        action: &str,
        result: Option<&str>,
    ) -> Result<Commit, StoreError> {
        let ply = i32::try_from(ply).unwrap_or(i32::MAX);
        let now = unix_now();
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
                    ))
                    .execute(conn)?;
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

    /// Compacts a finished game once its record is stored as `stored_game`: its actions and
    /// its sealed truth go (the stored record holds both).
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
                Ok(())
            })
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
                Ok(
                    diesel::delete(ledger::table.filter(ledger::updated_at.lt(before)))
                        .execute(conn)?,
                )
            })
        })
    }
}
