//! A table in the referee: opened with its first game dealt, read by its players (each the
//! seat token of the table's game in play), moved on when a game ends (settled once, then the
//! next game dealt, or the question after a draw asked), and answered. Each step is one
//! compare-and-swap of the table's row ([`crate::store::Store::table_step`]): of two instances
//! that find the same game ended, exactly one settles it and deals the next; the other reads
//! what it wrote. A step lost to another instance may leave a game it dealt unplayed in the
//! ledger, where it expires like any unplayed game.
//!
//! A table's tokens are bound to the table's id and a chair (`chair1`, `chair2`) under the
//! name `table`, which no game has: a table's token never opens a game, nor a game's token a
//! table.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::coins::{Chair, Coins, CoinsError, TableSettlement, Terms};
use super::time::TableTime;
use crate::core::coins::stakes;
use crate::core::{Rules, Seat, Table};
use crate::referee::{DealOrder, Referee, RefereeError};
use crate::seal::{Binding, new_game_id};
use crate::store::{Settled, TableGameRow, TableRow, TableStep};

/// The name a table's tokens are bound under.
const TABLE: &str = "table";

/// How often a step is tried again after another instance took the table's row first.
const STEP_TRIES: usize = 8;

/// What opening a table asks for.
#[derive(Clone, Debug)]
pub struct TableOrder<'a> {
    pub preset: Option<&'a str>,
    pub options: Map<String, Value>,
    /// The two chairs' players.
    pub players: [String; 2],
    /// The stake (開局金幣) and the points bonus (勝點加碼).
    pub coins: Table,
    /// What the winner of each game pays the house (場景); 0 in the free scene.
    pub scene_fee: u64,
    pub time: TableTime,
    /// A seed makes the table's deals public (game n is dealt from seed + n).
    pub seed: Option<u64>,
}

/// What a table keeps of its order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TableTerms {
    /// The game played (one played for coins).
    pub game: String,
    pub preset: String,
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub options: Map<String, Value>,
    pub stake: u64,
    pub bonus_per_point: u64,
    pub scene_fee: u64,
    pub time: TableTime,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

impl TableTerms {
    fn coins(&self) -> Terms {
        Terms {
            table: Table {
                stake: self.stake,
                bonus_per_point: self.bonus_per_point,
            },
            scene_fee: self.scene_fee,
        }
    }
}

/// One game of a table.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TableGame {
    /// 1 for the table's first game.
    pub number: u32,
    pub game_id: String,
    /// The chair of each seat, in seat order (`[1, 0]`: chair 1 moves first).
    pub chairs: [Chair; 2],
    /// Its settlement once it ended (absent for a game that ended without a result: an abort).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settlement: Option<TableSettlement>,
}

/// A table as a chair (or the table's own token) reads it: all of it public to both.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TableState {
    pub table_id: String,
    pub terms: TableTerms,
    /// The two chairs' players.
    pub players: [String; 2],
    pub coins: Coins,
    /// Its games, first first; the last is the game in play, or the last one played.
    pub games: Vec<TableGame>,
    /// Why the table closed; absent while it is open.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed: Option<String>,
    /// The asking chair; absent for the table's own token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chair: Option<Chair>,
    /// The asking chair's seat token for the game in play; absent once it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat_token: Option<String>,
}

/// An opened table: its tokens and its state.
#[derive(Clone, Debug)]
pub struct OpenedTable {
    pub table_id: String,
    /// The table's own token (the app's server's): it reads the table and speaks for no chair.
    pub token: String,
    /// Each chair's token, for that player's client.
    pub chair_tokens: [String; 2],
    pub state: TableState,
}

/// The chairs of each seat in game `number`: the first mover alternates, chair 0 first.
fn chairs_of(number: u32) -> [Chair; 2] {
    if number % 2 == 1 { [0, 1] } else { [1, 0] }
}

fn chair_code(chair: Chair) -> &'static str {
    if chair == 0 { "chair1" } else { "chair2" }
}

fn corrupt(table_id: &str) -> RefereeError {
    RefereeError::Corrupt(format!("table {table_id}"))
}

/// A table's row read: its terms, its players, its coins.
fn parts(row: &TableRow) -> Result<(TableTerms, [String; 2], Coins), RefereeError> {
    let bad = |_| corrupt(&row.table_id);
    Ok((
        serde_json::from_str(&row.terms).map_err(bad)?,
        serde_json::from_str(&row.players).map_err(bad)?,
        serde_json::from_str(&row.coins).map_err(bad)?,
    ))
}

impl Referee {
    /// Opens a table of `G` (a game played for coins) and deals its first game. Nothing is
    /// written unless the whole order can be kept.
    pub fn open_table<G: Rules>(&self, order: TableOrder) -> Result<OpenedTable, RefereeError> {
        if !G::COINS {
            return Err(RefereeError::Deal {
                field: "game",
                detail: format!(
                    "{} is not played for coins: a table plays a game with a coin settlement",
                    G::NAME
                ),
            });
        }
        order.time.check().map_err(|e| RefereeError::Deal {
            field: "time",
            detail: e.to_string(),
        })?;
        let preset = crate::core::rules::find_preset(G::PRESETS, order.preset)
            .map_err(RefereeError::Ruleset)?
            .name;
        let terms = TableTerms {
            game: G::NAME.to_owned(),
            preset: preset.to_owned(),
            options: order.options,
            stake: order.coins.stake,
            bonus_per_point: order.coins.bonus_per_point,
            scene_fee: order.scene_fee,
            time: order.time,
            seed: order.seed,
        };
        let table_id = new_game_id();
        let first = self.deal_at_table::<G>(&table_id, &terms, &order.players, 1)?;
        let now = self.now_ms();
        let row = TableRow {
            table_id: table_id.clone(),
            terms: serde_json::to_string(&terms).expect("terms serialise"),
            players: serde_json::to_string(&order.players).expect("names serialise"),
            coins: serde_json::to_string(&Coins::default()).expect("coins serialise"),
            game_id: first.game_id.clone(),
            closed: None,
            version: 0,
            created_at: now / 1000,
            updated_at: now / 1000,
        };
        self.store.table_open(&row, &first)?;
        let binding = |seat| Binding {
            game: TABLE,
            preset: G::NAME,
            game_id: &table_id,
            seat,
        };
        let chair_tokens = [0, 1].map(|c| self.keys.token(binding(Some(chair_code(c)))));
        Ok(OpenedTable {
            token: self.keys.token(binding(None)),
            state: self.table_state::<G>(row, None)?,
            table_id,
            chair_tokens,
        })
    }

    /// The table `table_id` as the holder of `token` reads it, after settling its game in play
    /// if that game has ended (and dealing the next, unless a draw's question stands).
    pub fn table<G: Rules>(&self, table_id: &str, token: &str) -> Result<TableState, RefereeError> {
        let chair = self.table_speaker::<G>(table_id, token)?;
        let row = self.advance_table::<G>(table_id)?;
        self.table_state::<G>(row, chair)
    }

    /// A chair's answer to the question after a draw (go on with the stake carried, or not);
    /// once both answered, the next game is dealt. The table as the chair then reads it.
    pub fn table_answer<G: Rules>(
        &self,
        table_id: &str,
        token: &str,
        go_on: bool,
    ) -> Result<TableState, RefereeError> {
        let chair = self
            .table_speaker::<G>(table_id, token)?
            .ok_or_else(|| {
                RefereeError::WrongSeat(
                    "the table's own token speaks for no chair: a player answers with its chair's token".into(),
                )
            })?;
        for _ in 0..STEP_TRIES {
            let row = self.advance_table::<G>(table_id)?;
            let (terms, players, mut coins) = parts(&row)?;
            coins.answer(chair, go_on).map_err(|e| match e {
                CoinsError::NoQuestion => RefereeError::Refused {
                    code: "no-question",
                    detail: e.to_string(),
                },
                CoinsError::Answered(_) => RefereeError::Refused {
                    code: "answered",
                    detail: "you answered already".into(),
                },
                other => RefereeError::Refused {
                    code: "no-question",
                    detail: other.to_string(),
                },
            })?;
            let next = match coins.question {
                Some(_) => None,
                None => {
                    let number = self.store.table_games(table_id)?.len() as u32 + 1;
                    Some(self.deal_at_table::<G>(table_id, &terms, &players, number)?)
                }
            };
            let coins_json = serde_json::to_string(&coins).expect("coins serialise");
            let step = TableStep {
                coins: &coins_json,
                closed: None,
                settled: None,
                next: next.as_ref(),
                at_ms: self.now_ms(),
            };
            if self.store.table_step(table_id, row.version, &step)? {
                let row = self.table_row(table_id)?;
                return self.table_state::<G>(row, Some(chair));
            }
        }
        Err(RefereeError::Refused {
            code: "busy",
            detail: "the table kept moving on while you answered: ask again".into(),
        })
    }

    /// Which chair `token` speaks for (None: the table's own token), at a table that is kept
    /// here (an unknown id is said as such first, as a game's is).
    fn table_speaker<G: Rules>(
        &self,
        table_id: &str,
        token: &str,
    ) -> Result<Option<Chair>, RefereeError> {
        self.table_row(table_id)?;
        let binding = |seat| Binding {
            game: TABLE,
            preset: G::NAME,
            game_id: table_id,
            seat,
        };
        match self.keys.check_token(token, binding(None)) {
            Ok(()) => Ok(None),
            Err(table_token) => (0..2)
                .find(|&c| {
                    self.keys
                        .check_token(token, binding(Some(chair_code(c))))
                        .is_ok()
                })
                .map(Some)
                .ok_or(RefereeError::Token(table_token)),
        }
    }

    fn table_row(&self, table_id: &str) -> Result<TableRow, RefereeError> {
        self.store
            .table_row(table_id)?
            .ok_or_else(|| RefereeError::NoTable(table_id.to_owned()))
    }

    /// Deals the table's game `number` in the ledger (not yet the table's: its step writes it).
    fn deal_at_table<G: Rules>(
        &self,
        table_id: &str,
        terms: &TableTerms,
        players: &[String; 2],
        number: u32,
    ) -> Result<TableGameRow, RefereeError> {
        let chairs = chairs_of(number);
        let dealt = self.deal::<G>(DealOrder {
            preset: Some(&terms.preset),
            options: terms.options.clone(),
            players: chairs.iter().map(|&c| players[c].clone()).collect(),
            seed: terms.seed.map(|s| s.wrapping_add(number as u64)),
            ..DealOrder::default()
        })?;
        Ok(TableGameRow {
            table_id: table_id.to_owned(),
            number: number as i32,
            game_id: dealt.game_id,
            chairs: serde_json::to_string(&chairs).expect("chairs serialise"),
            settlement: None,
            stored_game: None,
        })
    }

    /// Settles the table's game in play once it has ended and is stored, and deals the next
    /// one unless a draw's question stands; gives the table's row as it then is.
    fn advance_table<G: Rules>(&self, table_id: &str) -> Result<TableRow, RefereeError> {
        for _ in 0..STEP_TRIES {
            let row = self.table_row(table_id)?;
            if row.closed.is_some() {
                return Ok(row);
            }
            let games = self.store.table_games(table_id)?;
            let Some(last) = games.last() else {
                return Err(corrupt(table_id));
            };
            if last.settlement.is_some() {
                return Ok(row);
            }
            let Some(stored) = self
                .store
                .ledger_row(&last.game_id)?
                .and_then(|game| game.stored_game)
            else {
                // In play (or expired unplayed: the table waits for it).
                return Ok(row);
            };
            let (_, record) = self.store.get(stored)?.ok_or_else(|| corrupt(table_id))?;
            let (terms, players, mut coins) = parts(&row)?;
            let chairs: [Chair; 2] =
                serde_json::from_str(&last.chairs).map_err(|_| corrupt(table_id))?;
            let settlement = match stakes::<G>(&record).map_err(|_| corrupt(table_id))? {
                Some(s) => {
                    let settled = coins
                        .settle(
                            terms.coins(),
                            s.outcome,
                            s.points,
                            s.doubled,
                            s.feats,
                            chairs,
                        )
                        .map_err(|e| RefereeError::Refused {
                            code: "settlement-overflow",
                            detail: e.to_string(),
                        })?;
                    serde_json::to_string(&settled).expect("a settlement serialises")
                }
                // Ended without a result (aborted): nothing to settle; the next game follows.
                None => "null".to_owned(),
            };
            let next = match coins.question {
                Some(_) => None,
                None => Some(self.deal_at_table::<G>(
                    table_id,
                    &terms,
                    &players,
                    last.number as u32 + 1,
                )?),
            };
            let coins_json = serde_json::to_string(&coins).expect("coins serialise");
            let step = TableStep {
                coins: &coins_json,
                closed: None,
                settled: Some(Settled {
                    number: last.number,
                    settlement: &settlement,
                    stored_game: Some(stored),
                }),
                next: next.as_ref(),
                at_ms: self.now_ms(),
            };
            self.store.table_step(table_id, row.version, &step)?;
            // Taken or not, the row has moved on: read it again.
        }
        self.table_row(table_id)
    }

    fn table_state<G: Rules>(
        &self,
        row: TableRow,
        chair: Option<Chair>,
    ) -> Result<TableState, RefereeError> {
        let id = row.table_id.clone();
        let games: Vec<TableGame> = self
            .store
            .table_games(&id)?
            .into_iter()
            .map(|g| {
                Ok(TableGame {
                    number: g.number as u32,
                    chairs: serde_json::from_str(&g.chairs).map_err(|_| corrupt(&id))?,
                    settlement: match g.settlement.as_deref() {
                        None | Some("null") => None,
                        Some(s) => Some(serde_json::from_str(s).map_err(|_| corrupt(&id))?),
                    },
                    game_id: g.game_id,
                })
            })
            .collect::<Result<_, RefereeError>>()?;
        let seat_token = match (chair, games.last()) {
            (Some(chair), Some(game)) if game.settlement.is_none() => {
                match self.store.ledger_row(&game.game_id)? {
                    Some(ledger) if ledger.result.is_none() => {
                        let seat =
                            Seat::new(game.chairs.iter().position(|&c| c == chair).unwrap_or(0))
                                .ok_or_else(|| corrupt(&id))?;
                        Some(self.keys.token(Binding {
                            game: G::NAME,
                            preset: &ledger.preset,
                            game_id: &game.game_id,
                            seat: Some(seat.code()),
                        }))
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let (terms, players, coins) = parts(&row)?;
        Ok(TableState {
            terms,
            players,
            coins,
            games,
            closed: row.closed,
            chair,
            seat_token,
            table_id: id,
        })
    }
}
