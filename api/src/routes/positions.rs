//! Positions: legal actions, play one action, deal a new game, a player's view, a picture.

use actix_web::{HttpRequest, HttpResponse, web};
use rand::SeedableRng;
use rand::rngs::StdRng;
use records::banqi::{Effect, End, Game, Layout, Overrides, Player, Position};
use records::record::Record;
use records::render::{RenderOptions, svg};
use records::replay::{fill_from_layout, final_game};
use records::view::{PlayerView, player_view};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::body::{self, Limits};
use crate::examples;
use crate::problem::Problem;
use crate::routes::{action, default_preset, position, ruleset};

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionsRequest {
    /// A preset name (default `tcga`).
    #[serde(default = "default_preset")]
    pub preset: String,
    #[serde(default)]
    pub options: Overrides,
    /// A position string; the start when absent.
    #[serde(default)]
    pub position: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ActionsResponse {
    pub position: String,
    pub to_move: Player,
    /// Every legal action: flips without identity, moves, captures, chains with every prefix
    /// (a listed chain ends at its first dark link). Empty once the game has ended.
    pub actions: Vec<String>,
    pub count: usize,
    /// How the game has ended at this position, if it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<End>,
}

/// The legal actions of a position under a ruleset. A bare position has no history: the
/// repetition rules look only at what follows and long-chase counts are zero.
#[utoipa::path(post, path = "/v1/actions", tag = "positions",
    request_body(content = ActionsRequest, example = examples::actions_request),
    responses(
        (status = 200, description = "The legal actions.", body = ActionsResponse, example = examples::actions_response),
        (status = 400, description = "Malformed JSON or position.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Unknown preset, invalid ruleset or impossible position.", body = Problem,
            content_type = "application/problem+json", example = examples::unknown_preset)))]
pub async fn actions(
    req: HttpRequest,
    body: web::Bytes,
    limits: web::Data<Limits>,
) -> Result<web::Json<ActionsResponse>, Problem> {
    let request: ActionsRequest = body::json(&req, &body, &limits)?;
    let rules = ruleset(&request.preset, &request.options)?;
    let pos = position(request.position.as_deref())?;
    let game = Game::from_position(rules, pos);
    let end = game.end();
    let mut list = Vec::new();
    if end.is_none() {
        game.legal_actions(&mut list);
    }
    let actions: Vec<String> = list.iter().map(|a| a.to_string()).collect();
    Ok(web::Json(ActionsResponse {
        position: pos.to_string(),
        to_move: pos.player_to_move(),
        count: actions.len(),
        actions,
        end,
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    #[serde(default = "default_preset")]
    pub preset: String,
    #[serde(default)]
    pub options: Overrides,
    /// A position string; the start when absent.
    #[serde(default)]
    pub position: Option<String>,
    /// The dealt layout, when the caller keeps it: flips and dark captures may then omit the
    /// revealed piece, and a given one is checked against it.
    #[serde(default)]
    pub layout: Option<Layout>,
    /// The action in notation: `b6(K)`, `b6` (with a layout), `a2-a3`, `a2-a3(k)-a4`.
    pub action: String,
}

#[derive(Serialize, ToSchema)]
pub struct PlayResponse {
    /// The action as played, every revealed piece written out.
    pub action: String,
    /// `flip`, `move`, `capture`, `own_reveal` (a dark capture found an own piece) or
    /// `dark_failed` (a dark capture met a piece it cannot beat and the attacker died).
    pub effect: &'static str,
    /// The position after the action.
    pub position: String,
    /// How the game has ended after the action, if it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<End>,
}

/// Plays one action on a position and gives the next position, or why the action is
/// illegal (422 with the reason code). A flip without identity is filled in from the layout.
#[utoipa::path(post, path = "/v1/play", tag = "positions",
    request_body(content = PlayRequest, example = examples::play_request),
    responses(
        (status = 200, description = "The next position.", body = PlayResponse, example = examples::play_response),
        (status = 400, description = "Malformed JSON, position, layout or action.", body = Problem,
            content_type = "application/problem+json", example = examples::malformed_action),
        (status = 422, description = "The action is illegal, or the game is over.", body = Problem,
            content_type = "application/problem+json", example = examples::illegal_action)))]
pub async fn play(
    req: HttpRequest,
    body: web::Bytes,
    limits: web::Data<Limits>,
) -> Result<web::Json<PlayResponse>, Problem> {
    let request: PlayRequest = body::json(&req, &body, &limits)?;
    let rules = ruleset(&request.preset, &request.options)?;
    let pos = position(request.position.as_deref())?;
    let parsed = action(&request.action, "action")?;
    let illegal = |e: records::banqi::IllegalAction| {
        Problem::new("illegal-action", e.detail)
            .code(e.reason.code())
            .action(request.action.clone())
            .position(pos.to_string())
    };
    if let Some(layout) = &request.layout {
        layout
            .fits(&pos)
            .map_err(|e| Problem::new("invalid-position", e.to_string()).field("layout"))?;
    }
    let mut game = Game::from_position(rules, pos);
    if let Some(end) = game.end() {
        return Err(illegal(records::banqi::IllegalAction::new(
            records::banqi::Violation::GameOver,
            format!(
                "the game is over at this position ({} by {})",
                end.outcome.describe(),
                end.reason.code()
            ),
        )));
    }
    let played = fill_from_layout(parsed, &pos, request.layout.as_ref()).map_err(illegal)?;
    let effect = game.play(&played).map_err(illegal)?;
    Ok(web::Json(PlayResponse {
        action: played.to_string(),
        effect: match effect {
            Effect::Flip(_) => "flip",
            Effect::Quiet { .. } => "move",
            Effect::Capture { .. } => "capture",
            Effect::OwnReveal { .. } => "own_reveal",
            Effect::DarkFailed { .. } => "dark_failed",
        },
        position: game.position().to_string(),
        end: game.end(),
    }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct DealRequest {
    /// Seed of the shuffle; a random one when absent (the response gives it, so the deal can
    /// be repeated).
    #[serde(default)]
    pub seed: Option<u64>,
    #[serde(default = "default_preset")]
    pub preset: String,
    #[serde(default)]
    pub options: Overrides,
    /// Player names for the record.
    #[serde(default)]
    pub players: Vec<String>,
}

#[derive(Serialize, ToSchema)]
pub struct DealResponse {
    pub seed: u64,
    /// The hidden truth: keep it on the server, never show it to a player.
    pub layout: Layout,
    /// The start position (all covered).
    pub position: String,
    /// An empty record of the game, with the layout: append actions to it as the game goes.
    pub record: Record,
}

/// Deals a new game: a uniformly shuffled layout from a seed (given or random), the start
/// position and an empty record. Everything a server needs to run the game without state in
/// this service: pass the layout back to `/v1/play` to fill in flips.
#[utoipa::path(post, path = "/v1/deal", tag = "positions",
    request_body(content = DealRequest, description = "Optional: an empty body deals a random tcga game.",
        example = examples::deal_request),
    responses(
        (status = 200, description = "The deal.", body = DealResponse, example = examples::deal_response),
        (status = 422, description = "Unknown preset or invalid ruleset.", body = Problem, content_type = "application/problem+json")))]
pub async fn deal(
    req: HttpRequest,
    body: web::Bytes,
    limits: web::Data<Limits>,
) -> Result<web::Json<DealResponse>, Problem> {
    let request: DealRequest = if body.iter().all(u8::is_ascii_whitespace) {
        DealRequest {
            preset: default_preset(),
            ..DealRequest::default()
        }
    } else {
        body::json(&req, &body, &limits)?
    };
    ruleset(&request.preset, &request.options)?;
    let seed = request
        .seed
        .unwrap_or_else(|| rand::RngExt::random(&mut rand::rng()));
    let layout = Layout::shuffled(&mut StdRng::seed_from_u64(seed));
    let mut record = Record::new(&request.preset, Vec::new());
    record.options = request.options;
    record.players = request.players;
    record.layout = Some(layout);
    record
        .metadata
        .insert("seed".into(), serde_json::Value::from(seed));
    Ok(web::Json(DealResponse {
        seed,
        layout,
        position: Position::start().to_string(),
        record,
    }))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewRequest {
    /// Whose view: `player1` or `player2`.
    pub player: Player,
    #[serde(default = "default_preset")]
    pub preset: String,
    #[serde(default)]
    pub options: Overrides,
    /// A position string (or give `record`; neither means the start).
    #[serde(default)]
    pub position: Option<String>,
    /// A record: its final position is viewed (its own preset and layout are used).
    #[serde(default)]
    pub record: Option<Record>,
    /// The layout, if the caller has it: accepted, used to complete the record, never shown.
    #[serde(default)]
    pub layout: Option<Layout>,
}

/// What one player may see: the position with covered pieces as `X` (never the layout or a
/// covered identity), its colour, whether it is its turn and then its legal actions.
#[utoipa::path(post, path = "/v1/view", tag = "positions",
    request_body(content = ViewRequest, example = examples::view_request),
    responses(
        (status = 200, description = "The player's view.", body = PlayerView, example = examples::view_response),
        (status = 400, description = "Malformed JSON or position, or both a position and a record.", body = Problem,
            content_type = "application/problem+json"),
        (status = 422, description = "Invalid record or ruleset.", body = Problem, content_type = "application/problem+json")))]
pub async fn view(
    req: HttpRequest,
    body: web::Bytes,
    limits: web::Data<Limits>,
) -> Result<web::Json<PlayerView>, Problem> {
    let request: ViewRequest = body::json(&req, &body, &limits)?;
    let game = match (&request.position, request.record) {
        (Some(_), Some(_)) => {
            return Err(Problem::new(
                "bad-parameter",
                "give either a position or a record, not both",
            )
            .field("record"));
        }
        (_, Some(mut record)) => {
            if record.layout.is_none() {
                record.layout = request.layout;
            }
            final_game(&record).map_err(|e| Problem::from_replay(&e))?
        }
        (text, None) => Game::from_position(
            ruleset(&request.preset, &request.options)?,
            position(text.as_deref())?,
        ),
    };
    Ok(web::Json(player_view(&game, request.player)))
}

#[derive(Deserialize, ToSchema, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct RenderRequest {
    /// A position string; the start when absent.
    #[serde(default)]
    #[param(example = "k3/4/4/4/4/4/1p2/P2X r C1 5 30")]
    pub position: Option<String>,
    /// The last action, whose squares are highlighted.
    #[param(example = "a2-a1")]
    #[serde(default)]
    pub last_action: Option<String>,
}

/// A position as an SVG picture: the 4×8 board (rank 8 at the top), pieces as Chinese
/// characters (red 帥仕相俥傌炮兵, black 將士象車馬包卒), covered pieces as backs, and the
/// squares of the last action highlighted.
#[utoipa::path(post, path = "/v1/render", tag = "positions",
    request_body(content = RenderRequest, example = examples::render_request),
    responses(
        (status = 200, description = "The picture.", content_type = "image/svg+xml", body = String,
            example = examples::render_response),
        (status = 400, description = "Malformed position or action.", body = Problem, content_type = "application/problem+json")))]
pub async fn render(
    req: HttpRequest,
    body: web::Bytes,
    limits: web::Data<Limits>,
) -> Result<HttpResponse, Problem> {
    let request: RenderRequest = body::json(&req, &body, &limits)?;
    render_svg(&request)
}

/// The same picture for an `<img src>`: position and last action in the query string.
#[utoipa::path(get, path = "/v1/render.svg", tag = "positions",
    params(RenderRequest),
    responses(
        (status = 200, description = "The picture.", content_type = "image/svg+xml", body = String,
            example = examples::render_response),
        (status = 400, description = "Malformed position or action.", body = Problem, content_type = "application/problem+json")))]
pub async fn render_get(query: web::Query<RenderRequest>) -> Result<HttpResponse, Problem> {
    render_svg(&query)
}

fn render_svg(request: &RenderRequest) -> Result<HttpResponse, Problem> {
    let pos = position(request.position.as_deref())?;
    let options = match &request.last_action {
        Some(text) => RenderOptions::last_action(&action(text, "last_action")?),
        None => RenderOptions::default(),
    };
    Ok(HttpResponse::Ok()
        .content_type("image/svg+xml")
        .body(svg(&pos, &options)))
}
