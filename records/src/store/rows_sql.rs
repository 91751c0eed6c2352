//! The explorer's rows written on either backend. PostgreSQL: diesel's multi-row upsert. SQLite:
//! a multi-row statement per [`ROWS`] rows: `INSERT …
//! VALUES (…), (…) …`, with `ON CONFLICT … DO UPDATE` to add rows to the stored ones. Diesel
//! writes no multi-row upsert for SQLite, and the rows it binds for an insert are owned (a copy
//! of each row's texts); this statement binds the rows where they are, and has a type of its
//! own (a static query id), so that diesel prepares it once per connection and keeps it.
//!
//! Before it, rows were copied into a temporary table and added by one `INSERT … SELECT`: a
//! million games' import spent 7.2 s adding rows (8.3 µs a row), 4.4 s with this statement
//! (docs/performance.md).

use diesel::prelude::*;
use diesel::query_builder::{AstPass, QueryFragment, QueryId};
use diesel::sql_types::{BigInt, Integer, Text};
use diesel::sqlite::Sqlite;

use diesel::upsert::excluded;

use super::StoreError;
use super::explorer_row::{ExplorerRow, MonthRow};
use super::schema::{explorer, explorer_months};

/// Rows per statement (15 values each, under SQLite's limit on bound values); the rest go
/// one by one, in a one-row statement, prepared once too.
const ROWS: usize = 64;

/// A row the SQLite statement below writes: its table's insert, the sums that add it to the
/// stored row of the same key, and its values bound in the insert's order.
trait Written: 'static {
    const INSERT: &'static str;
    const ADD: &'static str;
    fn bind<'b>(&'b self, out: &mut AstPass<'_, 'b, Sqlite>) -> QueryResult<()>;
}

/// A row's counts, in the order both tables list them.
macro_rules! counts_of {
    ($row:expr) => {
        [
            &$row.games,
            &$row.wins,
            &$row.draws,
            &$row.losses,
            &$row.points,
            &$row.coin_stakes,
            &$row.coin_margins,
            &$row.first_game,
            &$row.last_game,
        ]
    };
}

/// The counts of a row, bound in the order both tables list them.
fn bind_counts<'b>(counts: [&'b i64; 9], out: &mut AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
    for count in counts {
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(count)?;
    }
    Ok(())
}

/// The sums of an upsert's counts (PostgreSQL's `upsert!` below writes the same: keep them
/// alike). The first game stays; the last is the new one.
macro_rules! sums {
    ($key:literal) => {
        concat!(
            " ON CONFLICT (",
            $key,
            ") DO UPDATE SET games = games + excluded.games, \
             wins = wins + excluded.wins, draws = draws + excluded.draws, \
             losses = losses + excluded.losses, points = points + excluded.points, \
             coin_stakes = coin_stakes + excluded.coin_stakes, \
             coin_margins = coin_margins + excluded.coin_margins, \
             last_game = excluded.last_game"
        )
    };
}

impl Written for ExplorerRow {
    const INSERT: &'static str = "INSERT INTO explorer (node, action, next, game, preset, ply, \
         games, wins, draws, losses, points, coin_stakes, coin_margins, first_game, last_game) \
         VALUES ";
    const ADD: &'static str = sums!("node, action");
    fn bind<'b>(&'b self, out: &mut AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        out.push_bind_param::<BigInt, _>(&self.node)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&self.action)?;
        out.push_sql(", ");
        out.push_bind_param::<BigInt, _>(&self.next)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&self.game)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&self.preset)?;
        out.push_sql(", ");
        out.push_bind_param::<Integer, _>(&self.ply)?;
        bind_counts(counts_of!(self), out)
    }
}

impl Written for MonthRow {
    const INSERT: &'static str = "INSERT INTO explorer_months (node, month, action, games, wins, \
         draws, losses, points, coin_stakes, coin_margins, first_game, last_game) VALUES ";
    const ADD: &'static str = sums!("node, month, action");
    fn bind<'b>(&'b self, out: &mut AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        out.push_bind_param::<BigInt, _>(&self.node)?;
        out.push_sql(", ");
        out.push_bind_param::<Integer, _>(&self.month)?;
        out.push_sql(", ");
        out.push_bind_param::<Text, _>(&self.action)?;
        bind_counts(counts_of!(self), out)
    }
}

/// `N` rows, inserted (`ADD` false: no row of theirs is stored) or added to the stored ones of
/// the same key (`ADD` true). The first game stays and the last is the new one: games are
/// added in id order (SQLite has one writer).
struct Statement<'a, R, const N: usize, const ADD: bool>(&'a [R; N]);

/// The statement's query id: one per shape, so diesel keeps one prepared statement each.
struct Shape<R, const N: usize, const ADD: bool>(std::marker::PhantomData<R>);

impl<R: Written, const N: usize, const ADD: bool> QueryId for Statement<'_, R, N, ADD> {
    type QueryId = Shape<R, N, ADD>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl<R: Written, const N: usize, const ADD: bool> QueryFragment<Sqlite>
    for Statement<'_, R, N, ADD>
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Sqlite>) -> QueryResult<()> {
        out.push_sql(R::INSERT);
        for (i, row) in self.0.iter().enumerate() {
            out.push_sql(if i == 0 { "(" } else { ", (" });
            row.bind(&mut out)?;
            out.push_sql(")");
        }
        if ADD {
            out.push_sql(R::ADD);
        }
        Ok(())
    }
}

impl<R: Written, const N: usize, const ADD: bool> RunQueryDsl<SqliteConnection>
    for Statement<'_, R, N, ADD>
{
}

/// Writes `rows` (sorted by key: written in the order of the table's pages): added to the
/// stored ones when `ADD`, else inserted.
fn write<R: Written, const ADD: bool>(
    conn: &mut SqliteConnection,
    rows: &[R],
) -> Result<(), StoreError> {
    in_prepared_statements!(rows, ROWS, |part| Statement::<R, _, ADD>(part)
        .execute(conn)?);
    Ok(())
}

/// Adds `rows` to the stored rows of the same position and action (a row none is stored for is
/// inserted).
pub(crate) fn add_sqlite(
    conn: &mut SqliteConnection,
    rows: &[ExplorerRow],
) -> Result<(), StoreError> {
    write::<ExplorerRow, true>(conn, rows)
}

/// Inserts `rows`, of positions that have none stored.
pub(crate) fn insert_sqlite(
    conn: &mut SqliteConnection,
    rows: &[ExplorerRow],
) -> Result<(), StoreError> {
    write::<ExplorerRow, false>(conn, rows)
}

/// Adds `rows` to the stored month rows of the same position, month and action (a row none is
/// stored for is inserted).
pub(crate) fn add_months_sqlite(
    conn: &mut SqliteConnection,
    rows: &[MonthRow],
) -> Result<(), StoreError> {
    write::<MonthRow, true>(conn, rows)
}

/// The upsert that adds a row to the stored one. The first game stays; the last is the new
/// one: games are added in id order (SQLite has one writer; PostgreSQL's writers of the
/// explorer take turns from before they number their games, `import.rs`). Plain column
/// expressions, so that the statement is prepared once and kept (a literal SQL fragment
/// made diesel parse it again for every row: 16 µs a row).
macro_rules! upsert {
    ($values:expr) => {
        diesel::insert_into(explorer::table)
            .values($values)
            .on_conflict((explorer::node, explorer::action))
            .do_update()
            .set((
                explorer::games.eq(explorer::games + excluded(explorer::games)),
                explorer::wins.eq(explorer::wins + excluded(explorer::wins)),
                explorer::draws.eq(explorer::draws + excluded(explorer::draws)),
                explorer::losses.eq(explorer::losses + excluded(explorer::losses)),
                explorer::points.eq(explorer::points + excluded(explorer::points)),
                explorer::coin_stakes.eq(explorer::coin_stakes + excluded(explorer::coin_stakes)),
                explorer::coin_margins
                    .eq(explorer::coin_margins + excluded(explorer::coin_margins)),
                explorer::last_game.eq(excluded(explorer::last_game)),
            ))
    };
}

/// Rows per PostgreSQL statement (15 columns each: under its limit on bound parameters).
const POSTGRES_ROWS: usize = 1000;

/// Adds `rows` ([`tally`]) to the counts on PostgreSQL (SQLite: `rows_sql.rs`).
pub(crate) fn add_postgres(
    conn: &mut PgConnection,
    rows: &[ExplorerRow],
) -> Result<(), StoreError> {
    for part in rows.chunks(POSTGRES_ROWS) {
        upsert!(part).execute(conn)?;
    }
    Ok(())
}

/// Inserts `rows`, of positions that have none stored, on PostgreSQL.
pub(crate) fn insert_postgres(
    conn: &mut PgConnection,
    rows: &[ExplorerRow],
) -> Result<(), StoreError> {
    for part in rows.chunks(POSTGRES_ROWS) {
        diesel::insert_into(explorer::table)
            .values(part)
            .execute(conn)?;
    }
    Ok(())
}

/// Adds `rows` to the stored month rows on PostgreSQL (the sums of `sums!`).
pub(crate) fn add_months_postgres(
    conn: &mut PgConnection,
    rows: &[MonthRow],
) -> Result<(), StoreError> {
    // 12 columns a row: under PostgreSQL's limit on bound parameters.
    for part in rows.chunks(POSTGRES_ROWS) {
        diesel::insert_into(explorer_months::table)
            .values(part)
            .on_conflict((
                explorer_months::node,
                explorer_months::month,
                explorer_months::action,
            ))
            .do_update()
            .set((
                explorer_months::games
                    .eq(explorer_months::games + excluded(explorer_months::games)),
                explorer_months::wins.eq(explorer_months::wins + excluded(explorer_months::wins)),
                explorer_months::draws
                    .eq(explorer_months::draws + excluded(explorer_months::draws)),
                explorer_months::losses
                    .eq(explorer_months::losses + excluded(explorer_months::losses)),
                explorer_months::points
                    .eq(explorer_months::points + excluded(explorer_months::points)),
                explorer_months::coin_stakes
                    .eq(explorer_months::coin_stakes + excluded(explorer_months::coin_stakes)),
                explorer_months::coin_margins
                    .eq(explorer_months::coin_margins + excluded(explorer_months::coin_margins)),
                explorer_months::last_game.eq(excluded(explorer_months::last_game)),
            ))
            .execute(conn)?;
    }
    Ok(())
}
