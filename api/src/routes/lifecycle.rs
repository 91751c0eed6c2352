//! A refereed game's life beside its plies: resign, offer, accept or decline a draw, abort,
//! claim against a silent seat (`records::referee::Request`). The referee judges the request
//! on the ledger's game and commits it as the game's next event.

use actix_web::web;
use records::core::{End, Rules, Seat};
use records::referee::{LifeState, Request, Stated};
use records::with_game;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::Settings;
use crate::body::GameJson;
use crate::problem::Problem;
use crate::routes::parse::default_game;
use crate::routes::referee;

/// What a seat asks of the game's life.
#[derive(Clone, Copy, Debug, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum LifecycleAction {
    /// The seat resigns: two seats, the other wins; three, it places below every seat still
    /// playing.
    Resign,
    /// The seat offers a draw (an offer stands until the next ply or a decline; one a ply).
    OfferDraw,
    /// The seat accepts the draw another seat offered (the game is drawn once every seat
    /// still playing has offered or accepted).
    AcceptDraw,
    /// The seat declines the draw offers that stand.
    DeclineDraw,
    /// The game is called off, without a result: only before every seat has moved.
    Abort,
    /// The seat claims the game against the seat to move, silent past the deal's
    /// `claim_after_ms` (a loss on time for the silent seat).
    Claim,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LifecycleRequest {
    /// The kind of game (default `banqi`).
    #[serde(default = "default_game")]
    #[schema(value_type = records::games::GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    /// The game id from `POST /v1/deal`.
    #[schema(example = "9f2c4e1a7b3d5f60a1b2c3d4e5f60718")]
    pub game_id: String,
    /// A seat's token (it speaks for its seat), or the game's own (then name `player`;
    /// an abort may leave it out).
    #[schema(example = "v1.ephemeral.q0Jb-token-from-deal")]
    pub token: String,
    pub action: LifecycleAction,
    /// With the game's own token: the seat the request is for.
    #[serde(default)]
    pub player: Option<Seat>,
}

#[derive(Serialize, ToSchema)]
pub struct LifecycleResponse {
    /// The game's life after the request.
    pub life: LifeState,
    /// How the game ended, once it has (an aborted game has no result: `life.status` is
    /// `aborted`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<End>,
    /// Actions committed.
    pub ply: u32,
}

fn request_example() -> Value {
    json!({"game_id": "9f2c4e1a7b3d5f60a1b2c3d4e5f60718", "token": "v1.ephemeral.q0Jb-token-from-deal", "action": "offer_draw"})
}

fn response_example() -> Value {
    json!({"life": {"status": "playing", "clock": {"base_ms": 300000, "increment_ms": 2000, "left_ms": [300000, 300000], "at_ms": 1_795_000_000_000_i64}, "draw_offers": ["player1"], "abortable": true, "events": 1}, "ply": 0})
}

fn refused_example() -> Value {
    json!({"type": "/problems/refused", "title": "Refused as the game stands", "status": 409, "detail": "every seat has moved: the game can no longer be aborted (resign, or offer a draw)", "code": "not-abortable"})
}

/// Resigns, offers, accepts or declines a draw, aborts, or claims against a silent seat, in
/// a refereed game (`POST /v1/deal`), with a seat's token: committed in the ledger as the
/// game's next event, final like a ply. A request that is already done (the same offer
/// standing, the same resignation) gets the same answer again. A game that ends is stored
/// with its ending (`resignation`, `agreement`, `timeout`; an aborted one `ongoing`, reason
/// `aborted`). Every answer about a refereed game (`/v1/actions`, `/v1/play`, `/v1/view`)
/// carries the same `life`.
#[utoipa::path(post, path = "/v1/lifecycle", tag = "positions",
    request_body(content = LifecycleRequest, example = request_example),
    responses(
        (status = 200, description = "The game's life after the request.", body = LifecycleResponse, example = response_example),
        (status = 400, description = "Malformed JSON, or the game's own token without `player`.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "A seat token speaking for another seat.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game in the ledger.", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Refused as the game stands (`code` says why), or the game moved on while the request was judged (ask again).", body = Problem,
            content_type = "application/problem+json", example = refused_example),
        (status = 422, description = "A token that does not open.", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The referee's ledger cannot be reached.", body = Problem, content_type = "application/problem+json")))]
pub async fn lifecycle(
    GameJson {
        kind,
        body: request,
    }: GameJson<LifecycleRequest>,
    settings: web::Data<Settings>,
) -> Result<web::Json<LifecycleResponse>, Problem> {
    crate::routes::games::writable(&settings)?;
    referee::run(
        &settings,
        move |r| with_game!(kind, G => answer::<G>(r, &request)),
    )
    .await
    .map(web::Json)
}

fn answer<G: Rules>(
    referee: &records::referee::Referee,
    request: &LifecycleRequest,
) -> Result<LifecycleResponse, Problem> {
    let asked = match request.action {
        LifecycleAction::Resign => Request::Resign,
        LifecycleAction::OfferDraw => Request::OfferDraw,
        LifecycleAction::AcceptDraw => Request::AcceptDraw,
        LifecycleAction::DeclineDraw => Request::DeclineDraw,
        LifecycleAction::Abort => Request::Abort,
        LifecycleAction::Claim => Request::Claim,
    };
    let (life, end, ply) = referee::open::<G, _>(
        referee,
        Some(&request.game_id),
        &request.token,
        &Stated::default(),
        |game, _| {
            let life = game.request(asked, request.player)?;
            Ok((life, game.end(), game.plies()))
        },
    )?;
    Ok(LifecycleResponse { life, end, ply })
}

impl crate::body::GameBody for LifecycleRequest {
    fn game(&self) -> &str {
        &self.game
    }
}
