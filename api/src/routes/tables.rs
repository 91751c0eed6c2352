//! 戲谷 tables (issue 61, seed 002): open a table (`POST /v1/tables`), read it
//! (`POST /v1/tables/state`), answer the question after a draw (`POST /v1/tables/answer`).
//! The referee keeps the table (`records::referee::table`); a table's games are refereed
//! games, played with `/v1/actions`, `/v1/play`, `/v1/lifecycle` and each chair's seat token
//! for the game in play, which the table's state gives that chair.

use actix_web::{HttpRequest, web};
use records::core::{Rules, Table};
use records::games::GameKind;
use records::referee::Referee;
use records::referee::table::{OpenedTable, TableOrder, TableState, TableTime};
use records::with_game;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use utoipa::ToSchema;

use crate::Settings;
use crate::body::GameJson;
use crate::problem::Problem;
use crate::routes::parse::default_game;
use crate::routes::referee;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TableRequest {
    /// The game played (the default game when absent; a table plays a game played for
    /// coins).
    #[serde(default = "default_game")]
    #[schema(value_type = records::games::GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    /// The preset (the game's first when absent; 戲谷's rooms: `gametower`,
    /// `gametower-chain`, `gametower-dark-chain`).
    #[serde(default)]
    pub preset: Option<String>,
    /// The table owner's options over the preset (桌長: `rook_rush` for 車直衝 …).
    #[serde(default)]
    #[schema(value_type = Object)]
    pub options: Map<String, Value>,
    /// The two players, the first chair's first.
    #[schema(min_items = 2, max_items = 2, example = json!(["ann", "bo"]))]
    pub players: [String; 2],
    /// 開局金幣: the stake each decided game pays.
    #[schema(example = 100)]
    pub stake: u64,
    /// 勝點加碼: coins per point of the winner's margin.
    #[schema(example = 5)]
    pub bonus_per_point: u64,
    /// 場景: what the winner of each game pays the house (0 in the free scene).
    #[serde(default)]
    pub scene_fee: u64,
    /// The move time and each player's bank.
    pub time: TableTime,
    /// A seed makes the table's deals public (game n from seed + n).
    #[serde(default)]
    pub seed: Option<u64>,
}

#[derive(Serialize, ToSchema)]
pub struct TableResponse {
    pub table_id: String,
    /// The table's own token (the app's server's): it reads the table, speaks for no chair.
    pub token: String,
    /// Each chair's token (`chair1`, `chair2`), for that player's client.
    pub chair_tokens: std::collections::BTreeMap<String, String>,
    pub table: TableState,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TableStateRequest {
    #[serde(default = "default_game")]
    #[schema(value_type = records::games::GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    #[schema(example = "4c1d7e9a0b2f3a4c5d6e7f8091a2b3c4")]
    pub table_id: String,
    /// A chair's token, or the table's own.
    pub token: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TableAnswerRequest {
    #[serde(default = "default_game")]
    #[schema(value_type = records::games::GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    #[schema(example = "4c1d7e9a0b2f3a4c5d6e7f8091a2b3c4")]
    pub table_id: String,
    /// The answering chair's token.
    pub token: String,
    /// Whether to go on with the drawn game's stake carried into the next (和棋續盤).
    pub go_on: bool,
}

fn open_example() -> Value {
    json!({"preset": "gametower", "players": ["ann", "bo"], "stake": 100, "bonus_per_point": 5,
        "scene_fee": 0, "time": {"move_ms": 30000, "bank_ms": 120000, "bank": "automatic"}})
}

fn state_example() -> Value {
    json!({"table_id": "4c1d7e9a0b2f3a4c5d6e7f8091a2b3c4",
        "terms": {"game": GameKind::default_name(), "preset": "gametower", "options": {}, "stake": 100, "bonus_per_point": 5,
            "scene_fee": 0, "time": {"move_ms": 30000, "bank_ms": 120000, "bank": "automatic"}},
        "players": ["ann", "bo"],
        "coins": {"balances": [0, 0], "draws_carried": 0, "cards": [0, 0], "soldier_feats": [0, 0], "fees": 0, "games": 0},
        "games": [{"number": 1, "game_id": "9f2c4e1a7b3d5f60a1b2c3d4e5f60718", "chairs": [0, 1]}],
        "chair": 0, "seat_token": "v1.ephemeral.q0Jb-seat-token"})
}

/// The first game drawn, the first chair's answer in.
fn answered_example() -> Value {
    json!({"table_id": "4c1d7e9a0b2f3a4c5d6e7f8091a2b3c4",
        "terms": {"game": GameKind::default_name(), "preset": "gametower", "options": {}, "stake": 100, "bonus_per_point": 5,
            "scene_fee": 0, "time": {"move_ms": 30000, "bank_ms": 120000, "bank": "automatic"}},
        "players": ["ann", "bo"],
        "coins": {"balances": [0, 0], "draws_carried": 0, "question": [true, null], "cards": [0, 0], "soldier_feats": [0, 0], "fees": 0, "games": 1},
        "games": [{"number": 1, "game_id": "9f2c4e1a7b3d5f60a1b2c3d4e5f60718", "chairs": [0, 1],
            "settlement": {"game": 1, "settlement": {"amount": 0, "stake": 100, "margin": 0, "bonus": 0, "double": 1,
                "draws_carried": 0, "carry": 0, "formula": "drawn: nothing is paid; the next decided game carries 1 × 100"},
                "fee": 0, "balances": [0, 0]}}],
        "chair": 0})
}

fn open_response_example() -> Value {
    json!({"table_id": "4c1d7e9a0b2f3a4c5d6e7f8091a2b3c4", "token": "v1.ephemeral.table-token",
        "chair_tokens": {"chair1": "v1.ephemeral.chair1-token", "chair2": "v1.ephemeral.chair2-token"},
        "table": {"table_id": "4c1d7e9a0b2f3a4c5d6e7f8091a2b3c4",
            "terms": {"game": GameKind::default_name(), "preset": "gametower", "options": {}, "stake": 100, "bonus_per_point": 5,
                "scene_fee": 0, "time": {"move_ms": 30000, "bank_ms": 120000, "bank": "automatic"}},
            "players": ["ann", "bo"],
            "coins": {"balances": [0, 0], "draws_carried": 0, "cards": [0, 0], "soldier_feats": [0, 0], "fees": 0, "games": 0},
            "games": [{"number": 1, "game_id": "9f2c4e1a7b3d5f60a1b2c3d4e5f60718", "chairs": [0, 1]}]}})
}

fn read_example() -> Value {
    json!({"table_id": "4c1d7e9a0b2f3a4c5d6e7f8091a2b3c4", "token": "v1.ephemeral.chair1-token"})
}

fn answer_example() -> Value {
    json!({"table_id": "4c1d7e9a0b2f3a4c5d6e7f8091a2b3c4", "token": "v1.ephemeral.chair1-token", "go_on": true})
}

/// Opens a 戲谷 table (seed 002): two players who play game after game for coins, at the
/// stake and points bonus given, the winner of each game paying the scene's fee. Its first
/// game is dealt at once (the first chair moves first; the first move alternates), a refereed
/// game like any (`/v1/deal`'s), so every rule, view and stream holds; each chair reads its
/// seat token for the game in play from `POST /v1/tables/state`. When a game ends, the table
/// settles it (the sum written out, as `POST /v1/score` writes it) and deals the next; after
/// a draw it first asks both players whether to carry the stake (`POST /v1/tables/answer`).
/// Opening writes to the store: with a write token configured (`--token`), it needs
/// `Authorization: Bearer <token>`. The move time and the bank are kept with the table; the
/// referee does not enforce them yet (docs/api.md, "A table").
#[utoipa::path(post, path = "/v1/tables", tag = "positions",
    request_body(content = TableRequest, example = open_example),
    responses(
        (status = 200, description = "The table, its tokens and its first game.", body = TableResponse, example = open_response_example),
        (status = 400, description = "Malformed JSON.", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "The service has a write token and the request lacks it.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The record store is served read-only.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A game not played for coins, a time out of bounds, an unknown preset, names the referee cannot keep (`invalid-deal` names the field).", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The referee's ledger cannot be reached.", body = Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
pub async fn open(
    req: HttpRequest,
    GameJson {
        kind,
        body: request,
    }: GameJson<TableRequest>,
    settings: web::Data<Settings>,
) -> Result<web::Json<TableResponse>, Problem> {
    crate::routes::games::authorize_write(&req, &settings, "opening a table")?;
    referee::run(
        &settings,
        move |r| with_game!(kind, G => open_table::<G>(r, request)),
    )
    .await
    .map(web::Json)
}

fn open_table<G: Rules>(
    referee: &Referee,
    request: TableRequest,
) -> Result<TableResponse, Problem> {
    let OpenedTable {
        table_id,
        token,
        chair_tokens: [chair1, chair2],
        state,
    } = referee.open_table::<G>(TableOrder {
        preset: request.preset.as_deref(),
        options: request.options,
        players: request.players,
        coins: Table {
            stake: request.stake,
            bonus_per_point: request.bonus_per_point,
        },
        scene_fee: request.scene_fee,
        time: request.time,
        seed: request.seed,
    })?;
    Ok(TableResponse {
        table_id,
        token,
        chair_tokens: [("chair1".to_owned(), chair1), ("chair2".to_owned(), chair2)].into(),
        table: state,
    })
}

/// A table as a chair (or the table's own token) reads it: its terms, players, coins (the
/// balances, the carried draws, the question after a draw, the cards, the 小兵立大功 tally),
/// every game with its settlement, and the asking chair's seat token for the game in play.
/// Reading settles a game that has ended and deals the next one (once, whichever instance
/// reads first).
#[utoipa::path(post, path = "/v1/tables/state", tag = "positions",
    request_body(content = TableStateRequest, example = read_example),
    responses(
        (status = 200, description = "The table.", body = TableState, example = state_example),
        (status = 400, description = "Malformed JSON.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A token that is not this table's.", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The referee's ledger cannot be reached.", body = Problem, content_type = "application/problem+json")))]
pub async fn state(
    GameJson {
        kind,
        body: request,
    }: GameJson<TableStateRequest>,
    settings: web::Data<Settings>,
) -> Result<web::Json<TableState>, Problem> {
    crate::routes::games::writable(&settings)?;
    referee::run(
        &settings,
        move |r| with_game!(kind, G => Ok(r.table::<G>(&request.table_id, &request.token)?)),
    )
    .await
    .map(web::Json)
}

/// A chair's answer to the question after a drawn game: go on with its stake carried into
/// the next decided game (和棋續盤), or not. The next game is dealt once both have answered:
/// two yeses carry, one no drops the carry. Refused (409) with `no-question` when no draw
/// asks, `answered` when the chair has answered already.
#[utoipa::path(post, path = "/v1/tables/answer", tag = "positions",
    request_body(content = TableAnswerRequest, example = answer_example),
    responses(
        (status = 200, description = "The table after the answer.", body = TableState, example = answered_example),
        (status = 400, description = "Malformed JSON.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The table's own token: only a chair answers.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such table.", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "No question stands, or the chair answered already (`code`).", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A token that is not this table's.", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The referee's ledger cannot be reached.", body = Problem, content_type = "application/problem+json")))]
pub async fn answer(
    GameJson {
        kind,
        body: request,
    }: GameJson<TableAnswerRequest>,
    settings: web::Data<Settings>,
) -> Result<web::Json<TableState>, Problem> {
    crate::routes::games::writable(&settings)?;
    referee::run(&settings, move |r| {
        with_game!(kind, G => Ok(r.table_answer::<G>(&request.table_id, &request.token, request.go_on)?))
    })
    .await
    .map(web::Json)
}

impl crate::body::GameBody for TableRequest {
    fn game(&self) -> &str {
        &self.game
    }
}

impl crate::body::GameBody for TableStateRequest {
    fn game(&self) -> &str {
        &self.game
    }
}

impl crate::body::GameBody for TableAnswerRequest {
    fn game(&self) -> &str {
        &self.game
    }
}
