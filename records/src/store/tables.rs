//! 戲谷 tables in the store (issue 61): a table's row (its terms, players, coins, the game in
//! play) and its games in order. Plain rows; what they mean is the referee's. A table moves on
//! by compare-and-swap on its `version`: settling a game, answering the question after a draw
//! and dealing the next game are one transaction each, and of two instances doing the same
//! step exactly one does it.

use diesel::prelude::*;

use super::schema::{table_games, tables};
use super::{Store, StoreError, WriteTransaction, with_connection};

/// A table as the store holds it.
#[derive(Clone, Debug, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = tables)]
pub struct TableRow {
    pub table_id: String,
    /// JSON: the preset, the options, the stake, the points bonus, the scene's fee, the time.
    pub terms: String,
    /// JSON: the two chairs' names.
    pub players: String,
    /// JSON: the balances, the carried draws, the question after a draw, the cards, the
    /// tallies ([`crate::referee::table::Coins`]).
    pub coins: String,
    /// The table's game in play, or its last one (`ledger.game_id`).
    pub game_id: String,
    /// Why the table closed; None while it is open.
    pub closed: Option<String>,
    pub version: i64,
    pub created_at: i64,
    pub updated_at: i64,
}

/// One game of a table.
#[derive(Clone, Debug, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = table_games)]
pub struct TableGameRow {
    pub table_id: String,
    /// 1 for the table's first game.
    pub number: i32,
    pub game_id: String,
    /// JSON: the chair of each seat, in seat order.
    pub chairs: String,
    /// JSON: the game's settlement at the table; None until it ended.
    pub settlement: Option<String>,
    /// The stored game holding the finished game's record.
    pub stored_game: Option<i64>,
}

/// A finished game's settlement, as a table's move writes it.
#[derive(Clone, Copy, Debug)]
pub struct Settled<'a> {
    pub number: i32,
    pub settlement: &'a str,
    pub stored_game: Option<i64>,
}

/// One step of a table: its coins after it, whether it closes, the game it settles and the
/// game it deals next.
#[derive(Clone, Copy, Debug)]
pub struct TableStep<'a> {
    pub coins: &'a str,
    pub closed: Option<&'a str>,
    pub settled: Option<Settled<'a>>,
    pub next: Option<&'a TableGameRow>,
    /// Unix milliseconds.
    pub at_ms: i64,
}

impl Store {
    /// Writes a newly opened table with its first game (dealt in the ledger before).
    pub fn table_open(&self, table: &TableRow, first: &TableGameRow) -> Result<(), StoreError> {
        with_connection!(self, |conn| {
            conn.write_transaction(|conn| {
                diesel::insert_into(tables::table)
                    .values(table)
                    .execute(conn)?;
                diesel::insert_into(table_games::table)
                    .values(first)
                    .execute(conn)?;
                Ok(())
            })
        })
    }

    /// A table's row.
    pub fn table_row(&self, table_id: &str) -> Result<Option<TableRow>, StoreError> {
        with_connection!(self, |conn| {
            Ok(tables::table
                .find(table_id)
                .select(TableRow::as_select())
                .first(conn)
                .optional()?)
        })
    }

    /// A table's games, first first.
    pub fn table_games(&self, table_id: &str) -> Result<Vec<TableGameRow>, StoreError> {
        with_connection!(self, |conn| {
            Ok(table_games::table
                .filter(table_games::table_id.eq(table_id))
                .order(table_games::number.asc())
                .select(TableGameRow::as_select())
                .load(conn)?)
        })
    }

    /// Takes `step` when the table is still at `version` and open: its row moves to
    /// `version + 1`, the settled game gets its settlement (once), the next game is written,
    /// all in one transaction. False when another step came first (the table moved on, or
    /// closed): nothing is written.
    pub fn table_step(
        &self,
        table_id: &str,
        version: i64,
        step: &TableStep,
    ) -> Result<bool, StoreError> {
        with_connection!(self, |conn| {
            conn.write_transaction(|conn| {
                let moved = diesel::update(
                    tables::table
                        .filter(tables::table_id.eq(table_id))
                        .filter(tables::version.eq(version))
                        .filter(tables::closed.is_null()),
                )
                .set((
                    tables::coins.eq(step.coins),
                    tables::closed.eq(step.closed),
                    tables::version.eq(version + 1),
                    tables::updated_at.eq(step.at_ms / 1000),
                ))
                .execute(conn)?;
                if moved == 0 {
                    return Ok(false);
                }
                if let Some(settled) = step.settled {
                    diesel::update(
                        table_games::table
                            .filter(table_games::table_id.eq(table_id))
                            .filter(table_games::number.eq(settled.number))
                            .filter(table_games::settlement.is_null()),
                    )
                    .set((
                        table_games::settlement.eq(settled.settlement),
                        table_games::stored_game.eq(settled.stored_game),
                    ))
                    .execute(conn)?;
                }
                if let Some(next) = step.next {
                    diesel::insert_into(table_games::table)
                        .values(next)
                        .execute(conn)?;
                    diesel::update(tables::table.filter(tables::table_id.eq(table_id)))
                        .set(tables::game_id.eq(&next.game_id))
                        .execute(conn)?;
                }
                Ok(true)
            })
        })
    }
}
