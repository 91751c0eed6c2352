//! Records: validate one, replay one step by step, score one (points and coins), score a bare
//! position.

use actix_web::HttpResponse;
use actix_web::{HttpRequest, web};
use records::core::replay::Steps;
use records::core::scoring::steps;
use records::core::{Record, ScoreError, Table, Verdict};
use records::games::{AnyPositionScore, AnyScore};
use records::with_game;
use serde::Deserialize;
use utoipa::ToSchema;

use crate::body::{self, GameBody, GameJson, Limits};
use crate::examples;
use crate::problem::{Problem, ProblemKind};
use crate::routes::parse::{default_game, game_kind};

/// Replays a record and gives the verdict: valid, or the first illegal ply (1-based) with the
/// action, a reason code and the position before it, or a stated result the moves do not
/// support. Send a JSON record (`application/json`, docs/records.md) or one TCGA game record
/// (`text/plain`). An invalid record is a verdict (200), not an error; a body that is not a
/// record at all is a 400.
#[utoipa::path(post, path = "/v1/validate", tag = "records",
    params(("anqi-token" = Option<String>, Header, description = "A token from `POST /v1/deal`: the verdict is on the referee's game (the record's `metadata.game_id`) as its ledger holds it, as far as the record goes; the record's actions must be the ledger's (409 otherwise), its stated result is checked, and its positions are as the token's seat is told them.", example = "v1.ephemeral.q0Jb-token-from-deal")),
    request_body(description = "A JSON record, or a TCGA record as text.", content(
        (Record = "application/json", example = examples::validate_request),
        (String = "text/plain", example = examples::tcga_text))),
    responses(
        (status = 200, description = "The verdict.", body = Verdict, example = examples::validate_response),
        (status = 400, description = "Not a record (malformed JSON or TCGA text).", body = Problem,
            content_type = "application/problem+json", example = examples::malformed_json),
        (status = 413, description = "Body too large.", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Neither JSON nor text.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The token does not open for this record's game.", body = Problem, content_type = "application/problem+json")))]
pub async fn validate(
    req: HttpRequest,
    body: web::Bytes,
    settings: web::Data<crate::Settings>,
) -> Result<web::Json<Verdict>, Problem> {
    let record = read_record(&req, &body, &settings.limits)?;
    if let Some(token) = req.headers().get(TOKEN_HEADER) {
        let token = token
            .to_str()
            .map_err(|_| {
                Problem::new(ProblemKind::InvalidToken, "the token is not text").field("token")
            })?
            .to_owned();
        let kind = game_kind(&record.game)?;
        return crate::routes::referee::run(&settings, move |r| {
            with_game!(kind, G => crate::routes::referee::validate::<G>(r, &record, &token))
        })
        .await
        .map(web::Json);
    }
    Ok(web::Json(records::games::validate(&record)))
}

/// Replays a record step by step, for a viewer: every position from the start (as position
/// strings, to draw with `/v1/render.svg`), each legal ply's action as played (revealed
/// identities written out) and its mover, and the verdict (where the legal plies stop and
/// why: an invalid record is still a 200, its steps up to the first problem). A JSON record or
/// one TCGA game record, as `/v1/validate` takes them.
#[utoipa::path(post, path = "/v1/replay", tag = "records",
    request_body(description = "A JSON record, or a TCGA record as text.", content(
        (Record = "application/json", example = examples::validate_request),
        (String = "text/plain", example = examples::tcga_text))),
    responses(
        (status = 200, description = "The steps and the verdict.", body = Steps, example = examples::replay_response),
        (status = 400, description = "Not a record (malformed JSON or TCGA text).", body = Problem,
            content_type = "application/problem+json", example = examples::malformed_json),
        (status = 413, description = "Body too large, or more plies than one request replays.", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Neither JSON nor text.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A game the service does not play.", body = Problem, content_type = "application/problem+json")))]
pub async fn replay(
    req: HttpRequest,
    body: web::Bytes,
    settings: web::Data<crate::Settings>,
) -> Result<web::Json<Steps>, Problem> {
    let record = read_record(&req, &body, &settings.limits)?;
    let kind = game_kind(&record.game)?;
    Ok(web::Json(with_game!(kind, G => steps::<G>(&record))))
}

/// The header that carries a token to `/v1/validate`.
pub const TOKEN_HEADER: &str = "anqi-token";

/// A record from a JSON or TCGA body, held to `--max-plies`.
fn read_record(req: &HttpRequest, bytes: &[u8], limits: &Limits) -> Result<Record, Problem> {
    let record = record_of(req, bytes, limits)?;
    limits.plies(&record)?;
    Ok(record)
}

/// A record from a JSON or TCGA body.
fn record_of(req: &HttpRequest, bytes: &[u8], limits: &Limits) -> Result<Record, Problem> {
    let media = body::media_type(req);
    if body::is_json(&media) {
        return body::parse_json(bytes, limits);
    }
    if media != "text/plain" {
        return Err(Problem::new(
            ProblemKind::UnsupportedMediaType,
            format!(
                "send a JSON record as application/json or a TCGA record as text/plain, not {}",
                if media.is_empty() {
                    "a body without Content-Type"
                } else {
                    &media
                }
            ),
        ));
    }
    let text = std::str::from_utf8(bytes).map_err(|_| {
        Problem::new(
            ProblemKind::MalformedRecord,
            "the TCGA record is not UTF-8 text",
        )
    })?;
    let format = records::games::default_text_format();
    let mut games = (format.parse)(text).map_err(|e| {
        let mut p = Problem::new(ProblemKind::MalformedRecord, e.message.clone());
        p.line = Some(e.line);
        p
    })?;
    match games.len() {
        1 => Ok(games.remove(0)),
        n => Err(Problem::new(
            ProblemKind::MalformedRecord,
            format!("send one TCGA game per request; this text holds {n}"),
        )),
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScoreRequest {
    #[serde(deserialize_with = "records::core::record::object")]
    pub record: Record,
    /// Stake S in coins (default 100).
    #[serde(default)]
    pub stake: Option<u64>,
    /// Coins per point of margin, B (default 5).
    #[serde(default)]
    pub bonus: Option<u64>,
    /// Drawn games between the same players just before this one (和棋續盤), default 0.
    #[serde(default)]
    pub draws_carried: u32,
}

/// Scores a record: piece points (棋點) per player, first flips and 門棋加倍, the
/// 小兵立大功 tally, the final material, and the 戲谷 coin settlement at a table (stake S,
/// bonus B per point, draws carried) with every term shown. A record that does not replay is
/// a 422 naming the ply.
#[utoipa::path(post, path = "/v1/score", tag = "records",
    request_body(content = ScoreRequest, example = examples::score_request),
    responses(
        (status = 200, description = "The game's own scoring (points and a settlement for a game played for coins, each seat's points in a three-player game).", body = AnyScore, example = examples::score_response),
        (status = 400, description = "Malformed JSON.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The record does not replay, or the settlement overflows.", body = Problem,
            content_type = "application/problem+json", example = examples::invalid_record)))]
pub async fn score(
    GameJson {
        kind,
        body: request,
    }: GameJson<ScoreRequest>,
) -> Result<HttpResponse, Problem> {
    let table = Table {
        stake: request.stake.unwrap_or(Table::default().stake),
        bonus_per_point: request.bonus.unwrap_or(Table::default().bonus_per_point),
    };
    with_game!(kind, G => {
        let score = G::score(&request.record, &table, request.draws_carried).map_err(|e| match e {
            ScoreError::Replay(e) => Problem::from_replay(&e),
            ScoreError::Settlement(e) => Problem::new(ProblemKind::SettlementOverflow, e),
        })?;
        Ok(HttpResponse::Ok().json(score))
    })
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionScoreRequest {
    /// The kind of game (default `banqi`).
    #[serde(default = "default_game")]
    #[schema(value_type = records::games::GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    /// A position string (docs/notation.md).
    pub position: String,
}

/// The material of a position: per colour the pieces revealed, covered and captured, their
/// points, the points still at stake, and the points each player has won.
#[utoipa::path(post, path = "/v1/score/position", tag = "records",
    request_body(content = PositionScoreRequest, example = examples::position_score_request),
    responses(
        (status = 200, description = "Material and points.", body = AnyPositionScore, example = examples::position_score_response),
        (status = 400, description = "Malformed position.", body = Problem, content_type = "application/problem+json",
            example = examples::malformed_position),
        (status = 422, description = "A position that cannot occur.", body = Problem, content_type = "application/problem+json")))]
pub async fn score_position(
    GameJson {
        kind,
        body: request,
    }: GameJson<PositionScoreRequest>,
) -> Result<HttpResponse, Problem> {
    with_game!(kind, G => {
        let pos = crate::routes::parse::parsed_position::<G>(&request.position)?;
        Ok(HttpResponse::Ok().json(G::score_position(&pos)))
    })
}

impl GameBody for ScoreRequest {
    /// The record's game.
    fn game(&self) -> &str {
        &self.record.game
    }
    fn record(&self) -> Option<&Record> {
        Some(&self.record)
    }
}

impl GameBody for PositionScoreRequest {
    fn game(&self) -> &str {
        &self.game
    }
}
