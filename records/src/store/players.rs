//! Players in the store: the `meetings` counts, kept in the transaction that stores a game
//! (finished games between named players, by the players in seat order and the outcome: the
//! counts `anqi report` names the same), and the reads a player's page and a leaderboard need.
//! A rating is fitted from a few count rows, not from every stored game.

use diesel::prelude::*;
use diesel::upsert::excluded;

use super::schema::{games, meetings, seats};
use super::{GameColumns, GameRow, NewGame, Store, StoreError, with_connection};
use crate::core::Outcome;
use crate::rating::Meeting;

/// One row of `meetings`: games between the same players in the same seats with the same
/// outcome. `player3` is empty in a game of two seats.
#[derive(Insertable, Queryable, Selectable, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[diesel(table_name = meetings)]
pub(crate) struct MeetingRow {
    pub game: String,
    pub preset: String,
    pub player1: String,
    pub player2: String,
    pub player3: String,
    pub outcome: String,
    pub games: i64,
}

impl MeetingRow {
    /// The meeting a stored game counts in: None while it is unfinished, or when a seat's
    /// player is not named (a stand-in name is nobody's rating).
    pub(crate) fn of(game: &NewGame) -> Option<MeetingRow> {
        if game.row.result == "ongoing" || !game.seats.iter().all(|s| s.named) {
            return None;
        }
        let name = |i: usize| game.seats.get(i).map(|s| s.name.clone());
        Some(MeetingRow {
            game: game.row.game.clone(),
            preset: game.row.preset.clone(),
            player1: name(0)?,
            player2: name(1)?,
            player3: name(2).unwrap_or_default(),
            outcome: game.row.result.clone(),
            games: 1,
        })
    }

    /// The players in seat order.
    fn players(&self) -> Vec<String> {
        let mut players = vec![self.player1.clone(), self.player2.clone()];
        if !self.player3.is_empty() {
            players.push(self.player3.clone());
        }
        players
    }

    /// As the ratings read it; None for an outcome this version cannot read.
    fn meeting(&self) -> Option<Meeting> {
        let players = self.players();
        let mut outcome: Outcome = self.outcome.parse().ok()?;
        // `draw` reads as two seats: a three-seat draw ties all three.
        if players.len() == 3 && outcome.is_draw() {
            outcome = Outcome::draw(3);
        }
        Some(Meeting {
            players,
            outcome,
            games: self.games as u64,
        })
    }
}

/// Adds up `rows` by key, in key order: one upsert per key, and concurrent writers take the
/// rows' locks in the same order (no deadlock between two PostgreSQL imports).
pub(crate) fn tally(rows: impl IntoIterator<Item = MeetingRow>) -> Vec<MeetingRow> {
    // A row with its count set to 0 is its key.
    let mut counts: std::collections::BTreeMap<MeetingRow, i64> = Default::default();
    for row in rows {
        let games = row.games;
        *counts.entry(MeetingRow { games: 0, ..row }).or_default() += games;
    }
    counts
        .into_iter()
        .map(|(row, games)| MeetingRow { games, ..row })
        .collect()
}

/// The upsert that adds a count row to the stored one, for either backend's values.
macro_rules! upsert {
    ($values:expr) => {
        diesel::insert_into(meetings::table)
            .values($values)
            .on_conflict((
                meetings::game,
                meetings::preset,
                meetings::player1,
                meetings::player2,
                meetings::player3,
                meetings::outcome,
            ))
            .do_update()
            .set(meetings::games.eq(meetings::games + excluded(meetings::games)))
    };
}

/// Adds `rows` (each key once: [`tally`]) to the counts, one prepared statement per row
/// (SQLite takes no multi-row upsert of varying length from diesel; in process, a row is
/// cheap).
pub(crate) fn add_meetings_sqlite(
    conn: &mut SqliteConnection,
    rows: &[MeetingRow],
) -> Result<(), StoreError> {
    for row in rows {
        upsert!(row).execute(conn)?;
    }
    Ok(())
}

/// Adds `rows` (each key once: [`tally`]) to the counts, a statement per 500 rows.
pub(crate) fn add_meetings_postgres(
    conn: &mut PgConnection,
    rows: &[MeetingRow],
) -> Result<(), StoreError> {
    for part in rows.chunks(500) {
        upsert!(part).execute(conn)?;
    }
    Ok(())
}

/// How much a game and preset's counts hold: rows and games. They only grow (stored games are
/// never deleted), so a fit made at the same version is the fit of the same counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CountsVersion {
    pub rows: i64,
    pub games: i64,
}

/// A player's counts: each meeting the player played in, by game and preset.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMeeting {
    pub game: String,
    pub preset: String,
    pub meeting: Meeting,
}

impl Store {
    /// The version of the counts of `game` and `preset`.
    pub fn meetings_version(&self, game: &str, preset: &str) -> Result<CountsVersion, StoreError> {
        let (rows, games): (i64, Option<i64>) = with_connection!(self, |conn| {
            meetings::table
                .filter(meetings::game.eq(game))
                .filter(meetings::preset.eq(preset))
                .select((
                    diesel::dsl::count_star(),
                    diesel::dsl::sql::<diesel::sql_types::Nullable<diesel::sql_types::BigInt>>(
                        "CAST(SUM(games) AS BIGINT)",
                    ),
                ))
                .first(conn)?
        });
        Ok(CountsVersion {
            rows,
            games: games.unwrap_or(0),
        })
    }

    /// Every count of `game` and `preset`, as the ratings read them.
    pub fn meetings(&self, game: &str, preset: &str) -> Result<Vec<Meeting>, StoreError> {
        let rows: Vec<MeetingRow> = with_connection!(self, |conn| meetings::table
            .filter(meetings::game.eq(game))
            .filter(meetings::preset.eq(preset))
            .select(MeetingRow::as_select())
            .load(conn)?);
        Ok(rows.iter().filter_map(MeetingRow::meeting).collect())
    }

    /// The games and presets with counts: (game, preset, games), by game and preset.
    pub fn rated_presets(&self) -> Result<Vec<(String, String, i64)>, StoreError> {
        let rows: Vec<(String, String, Option<i64>)> = with_connection!(self, |conn| {
            meetings::table
                .group_by((meetings::game, meetings::preset))
                .select((
                    meetings::game,
                    meetings::preset,
                    diesel::dsl::sql::<diesel::sql_types::Nullable<diesel::sql_types::BigInt>>(
                        "CAST(SUM(games) AS BIGINT)",
                    ),
                ))
                .order((meetings::game, meetings::preset))
                .load(conn)?
        });
        Ok(rows
            .into_iter()
            .map(|(g, p, n)| (g, p, n.unwrap_or(0)))
            .collect())
    }

    /// The counts `name` played in, whatever the seat.
    pub fn meetings_of(&self, name: &str) -> Result<Vec<PlayedMeeting>, StoreError> {
        let rows: Vec<MeetingRow> = with_connection!(self, |conn| meetings::table
            .filter(
                meetings::player1
                    .eq(name)
                    .or(meetings::player2.eq(name))
                    .or(meetings::player3.eq(name)),
            )
            .order((meetings::game, meetings::preset))
            .select(MeetingRow::as_select())
            .load(conn)?);
        Ok(rows
            .iter()
            .filter_map(|row| {
                Some(PlayedMeeting {
                    game: row.game.clone(),
                    preset: row.preset.clone(),
                    meeting: row.meeting()?,
                })
            })
            .collect())
    }

    /// The games with a seat the record names `name`, newest (highest id) first, at most
    /// `limit`; and how many there are.
    pub fn games_of(&self, name: &str, limit: i64) -> Result<(Vec<GameRow>, i64), StoreError> {
        let (columns, count): (Vec<GameColumns>, i64) = with_connection!(self, |conn| {
            let ids = seats::table
                .filter(seats::name.eq(name))
                .filter(seats::named)
                .select(seats::game_id);
            let count: i64 = seats::table
                .filter(seats::name.eq(name))
                .filter(seats::named)
                .select(diesel::dsl::count(seats::game_id).aggregate_distinct())
                .first(conn)?;
            let columns = games::table
                .filter(games::id.eq_any(ids))
                .order(games::id.desc())
                .limit(limit)
                .select(GameColumns::as_select())
                .load(conn)?;
            (columns, count)
        });
        Ok((self.with_seats(columns)?, count))
    }
}
