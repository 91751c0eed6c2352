//! Positions: legal actions, play one action, deal a new game, a player's view (pictures are
//! in [`super::render`]).

use actix_web::{HttpRequest, HttpResponse, web};
use records::core::play::step_match;
use records::core::replay::final_match;
use records::core::{End, Record, Rules, Seat};
use records::games::GameKind;
use records::games::{AnyOverrides, AnyView};
use records::with_game;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::Settings;
use crate::body::{GameBody, GameJson};
use crate::examples;
use crate::problem::{Problem, ProblemKind};
use crate::routes::parse::{action, default_game, hidden_truth, ruleset};
use crate::routes::referee;
use records::core::{Engine as _, Turn as _};

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionsRequest {
    /// The kind of game (default `banqi`).
    #[serde(default = "default_game")]
    #[schema(value_type = GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    /// A preset of the game (its first preset, Banqi's `tcga`, when absent).
    #[serde(default)]
    pub preset: Option<String>,
    /// Options overriding the preset's (the game's own).
    #[serde(default)]
    #[schema(value_type = AnyOverrides)]
    pub options: Map<String, Value>,
    /// A position string; the start when absent.
    #[serde(default)]
    pub position: Option<String>,
    /// The game so far, in place of `position`: replayed (with the token or layout filling in
    /// its flips) so that the repetition and long-chase rules see the whole history. A referee
    /// should send it; a bare position has no history.
    #[serde(default, deserialize_with = "records::core::record::optional_object")]
    pub record: Option<Record>,
    /// A token from `POST /v1/deal` (a seat's, or the game's): the answer is about the
    /// referee's game `game_id` as its ledger holds it, for the token's seat (its legal actions
    /// on its turn, the position as it is told it). Whatever else the request states
    /// (`preset`, `options`, `record`, `position`) must be the ledger's (409 otherwise).
    #[serde(default)]
    #[schema(example = "v1.ephemeral.q0Jb-token-from-deal")]
    pub token: Option<String>,
    /// The game id from `POST /v1/deal`, with `token`.
    #[serde(default)]
    #[schema(example = "9f2c4e1a7b3d5f60a1b2c3d4e5f60718")]
    pub game_id: Option<String>,
    /// With `token`: the committed ply to answer about (the number of actions played before
    /// it); the current one when absent.
    #[serde(default)]
    pub ply: Option<u32>,
}

#[derive(Serialize, ToSchema)]
pub struct ActionsResponse {
    pub position: String,
    pub to_move: Seat,
    /// Every legal action: flips without identity, moves, captures, chains with every prefix
    /// (a listed chain ends at its first dark link). Empty once the game has ended.
    pub actions: Vec<String>,
    pub count: usize,
    /// How the game has ended at this position, if it has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end: Option<End>,
    /// With a token: the ply the answer is about (the actions committed before it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// With a token: the game's life now (its clocks, draw offers, how it ended); the
    /// game's `end` then includes a resignation, a flag fall, an agreed draw.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub life: Option<records::referee::LifeState>,
    /// With a token, once the game has ended: the id of its stored game (`GET
    /// /v1/games/{id}`, the viewer's `/view/?id=`), its whole record then public.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored_game: Option<i64>,
    /// With a seat's token: the seat it speaks for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    /// With a seat's token: its side (a colour, a Three Kingdoms faction) once the game gives
    /// it one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// With a token: the players' names, by seat, as dealt (an engine's seat named by its
    /// time a move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<String>>,
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
    GameJson {
        kind,
        body: request,
    }: GameJson<ActionsRequest>,
    settings: web::Data<Settings>,
) -> Result<web::Json<ActionsResponse>, Problem> {
    if let Some(token) = request.token.clone() {
        return referee::run(
            &settings,
            move |r| with_game!(kind, G => referee::actions::<G>(r, &request, &token)),
        )
        .await
        .map(web::Json);
    }
    with_game!(kind, G => actions_of::<G>(&request)).map(web::Json)
}

fn actions_of<G: Rules>(request: &ActionsRequest) -> Result<ActionsResponse, Problem> {
    let (m, _) = the_match::<G>(
        &request.preset,
        &request.options,
        &request.position,
        &request.record,
        None,
    )?;
    let end = m.end();
    let mut list = Vec::new();
    if end.is_none() {
        m.legal_actions(&mut list);
    }
    let actions: Vec<String> = list.iter().map(|a| a.to_string()).collect();
    Ok(ActionsResponse {
        position: m.position().to_string(),
        to_move: m.position().to_move(),
        count: actions.len(),
        actions,
        end,
        ply: None,
        life: None,
        stored_game: None,
        seat: None,
        side: None,
        players: None,
    })
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// The kind of game (default `banqi`).
    #[serde(default = "default_game")]
    #[schema(value_type = GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    /// A preset of the game (its first preset when absent).
    #[serde(default)]
    pub preset: Option<String>,
    #[serde(default)]
    #[schema(value_type = AnyOverrides)]
    pub options: Map<String, Value>,
    /// A position string; the start when absent.
    #[serde(default)]
    pub position: Option<String>,
    /// The dealt layout, when the caller keeps it: flips and dark captures may then omit the
    /// revealed piece, and a given one is checked against it.
    #[serde(default)]
    #[schema(value_type = Option<records::games::AnyLayout>)]
    pub layout: Option<Value>,
    /// The game so far, in place of `position`: replayed (with the token or layout filling in
    /// its flips) so that the repetition and long-chase rules see the whole history. A referee
    /// should send it; a bare position has no history.
    #[serde(default, deserialize_with = "records::core::record::optional_object")]
    pub record: Option<Record>,
    /// A token from `POST /v1/deal` (a seat's, or the game's), in place of a clear `layout`:
    /// the referee plays the action in its ledger's game `game_id` for the token's seat,
    /// commits it (final: the first action committed at a ply is the game's) and answers what
    /// the seat is told. A seat writes the action as `/v1/actions` lists it; the referee
    /// writes in what it reveals. Whatever else the request states (`preset`, `options`,
    /// `record`, `position`) must be the ledger's (409 otherwise).
    #[serde(default)]
    #[schema(example = "v1.ephemeral.q0Jb-token-from-deal")]
    pub token: Option<String>,
    /// The game id from `POST /v1/deal`, with `token`.
    #[serde(default)]
    #[schema(example = "9f2c4e1a7b3d5f60a1b2c3d4e5f60718")]
    pub game_id: Option<String>,
    /// With `token`: the ply the action is meant for (the number of actions played before
    /// it), so that a retry is safe: the same action again gets the same answer, another one
    /// 409 `already-played`. The current ply when absent.
    #[serde(default)]
    pub ply: Option<u32>,
    /// The action in notation: `b6(K)`, `b6` (with a layout or token), `a2-a3`, `a2-a3(k)-a4`.
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
    /// With a token: the actions committed after this one (the next action's `ply`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// With a token: the game's life after the action (its clocks, draw offers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub life: Option<records::referee::LifeState>,
}

/// Plays one action on a position and gives the next position, or why the action is
/// illegal (422 with the reason code). A flip without identity is filled in from the layout.
#[utoipa::path(post, path = "/v1/play", tag = "positions",
    request_body(content = PlayRequest, example = examples::play_request),
    responses(
        (status = 200, description = "The next position.", body = PlayResponse, example = examples::play_response),
        (status = 400, description = "Malformed JSON, position, layout or action.", body = Problem,
            content_type = "application/problem+json", example = examples::malformed_action),
        (status = 403, description = "A seat token used out of its seat's turn; with a token, a record store served read-only.", body = Problem,
            content_type = "application/problem+json"),
        (status = 422, description = "The action is illegal, or the game is over.", body = Problem,
            content_type = "application/problem+json", example = examples::illegal_action)))]
pub async fn play(
    GameJson {
        kind,
        body: request,
    }: GameJson<PlayRequest>,
    settings: web::Data<Settings>,
) -> Result<web::Json<PlayResponse>, Problem> {
    if let Some(token) = request.token.clone() {
        // A committed ply is a write to the store (the referee's ledger).
        crate::routes::games::writable(&settings)?;
        return referee::run(
            &settings,
            move |r| with_game!(kind, G => referee::play::<G>(r, &request, &token)),
        )
        .await
        .map(web::Json);
    }
    with_game!(kind, G => play_of::<G>(&request)).map(web::Json)
}

fn play_of<G: Rules>(request: &PlayRequest) -> Result<PlayResponse, Problem> {
    let parsed = action::<G>(&request.action, "action")?;
    let (m, hidden) = the_match::<G>(
        &request.preset,
        &request.options,
        &request.position,
        &request.record,
        request.layout.as_ref(),
    )?;
    let before = m.position().to_string();
    let played = step_match::<G>(m, hidden.as_ref(), parsed).map_err(|e| {
        Problem::new(ProblemKind::IllegalAction, e.detail)
            .code(e.reason.code())
            .action(request.action.clone())
            .position(before.clone())
    })?;
    Ok(PlayResponse {
        action: played.action.to_string(),
        effect: G::effect_code(&played.effect),
        position: played.after.position().to_string(),
        end: played.end,
        ply: None,
        life: None,
    })
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct DealRequest {
    /// A seed makes a **public** deal: anyone with the seed deals the same layout (tournaments
    /// that publish their deals, tests). Absent: the layout is drawn from the operating
    /// system's generator and no seed exists.
    #[serde(default)]
    pub seed: Option<u64>,
    /// The kind of game (default `banqi`).
    #[serde(default = "default_game")]
    #[schema(value_type = GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    /// A preset of the game (its first preset when absent).
    #[serde(default)]
    pub preset: Option<String>,
    #[serde(default)]
    #[schema(value_type = AnyOverrides)]
    pub options: Map<String, Value>,
    /// Player names for the record, in seat order: at most one per seat, each 1–100
    /// characters without control characters (422 `invalid-deal` naming `players` otherwise).
    #[serde(default)]
    #[schema(max_items = 3)]
    pub players: Vec<String>,
    /// Also give the layout in clear (in `layout` and the record): for the app's server that
    /// keeps its own records, never for a player's client.
    #[serde(default)]
    pub include_layout: bool,
    /// The hidden truth to seal instead of dealing one: Luzhanqi's two setups as the players
    /// submitted them (`{"red": …, "black": …}`, each checked: `POST /v1/luzhanqi/setup`
    /// checks one side's alone). Absent: dealt (random legal setups).
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub layout: Option<Value>,
    /// A clock for the game (Fischer: each seat `base_ms`, `increment_ms` added after each
    /// of its moves). It starts once every seat has moved; a seat whose time runs out loses
    /// (docs/rules.md, "A refereed game's life"). Absent: no clock.
    #[serde(default)]
    pub clock: Option<records::referee::TimeControl>,
    /// How long (ms) the seat to move may stay silent before another seat may claim the game
    /// (`POST /v1/lifecycle`, `claim`); 0: never. Absent: ten minutes without a clock, never
    /// with one (its flag falls first).
    #[serde(default)]
    #[schema(example = 600_000, minimum = 0, maximum = 86_400_000)]
    pub claim_after_ms: Option<i64>,
    /// Seats the service's engine plays, each with its milliseconds a move (1 to 10,000):
    /// `{"player2": 300}`. It plays through the referee like any seat, told only what its
    /// seat may know. Not every seat: a person plays one. A seat it plays that `players`
    /// leaves unnamed is named by its time a move (`engine 0.3 s`), in the game and its
    /// stored record.
    #[serde(default)]
    #[schema(value_type = EngineSeats, example = json!({"player2": 300}))]
    pub engines: std::collections::BTreeMap<Seat, u64>,
}

/// The seats the service's engine plays, each with its milliseconds a move (the deal's
/// `engines`; the schema only: the deal reads it as a map of seats).
#[allow(dead_code)]
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EngineSeats {
    #[schema(minimum = 1, maximum = 10_000)]
    #[serde(default)]
    pub player1: u64,
    #[schema(minimum = 1, maximum = 10_000)]
    #[serde(default)]
    pub player2: u64,
    /// Three Kingdoms' third seat.
    #[schema(minimum = 1, maximum = 10_000)]
    #[serde(default)]
    pub player3: u64,
}

#[derive(Serialize, ToSchema)]
pub struct DealResponse {
    /// The seed, only when the request gave one (a public deal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The game's id in the referee's ledger (also in the record's `metadata.game_id`).
    pub game_id: String,
    /// The game's own token: it speaks for every seat (plays for the seat to move, views for
    /// any). The app's server's: never give it to a player's client.
    pub token: String,
    /// One token per seat, for that player's client: with it the referee answers for that
    /// seat only (its own view, its legal actions on its turn, positions masked for it, its
    /// own moves; 403 `wrong-seat` otherwise).
    pub seat_tokens: std::collections::BTreeMap<String, String>,
    /// The hidden truth in clear, only when `include_layout` asked for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<records::games::AnyLayout>)]
    pub layout: Option<Value>,
    /// The start position (all covered). Absent for a game whose start is a secret (a dark
    /// Luzhanqi game's setups) unless `include_layout` asked for the truth.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// An empty record of the game (the layout only with `include_layout`).
    pub record: Record,
}

/// Deals a new game and keeps it in the referee's ledger (the record store): the layout drawn
/// from the operating system's generator (or from a given, public seed), sealed at rest; a
/// token for the app's server and one per seat for the players' clients. The game is then
/// played with `/v1/play` and its token; when it ends, its record is stored in `/v1/games`.
/// The whole order is checked before anything is written. A game its rules could let go on
/// longer than the service's `--max-plies` is dealt with that cap (`options.max_plies` in
/// the answer's record: a draw by `ply_limit` there). Dealing writes to the store: with a
/// write token configured (`--token`), it needs `Authorization: Bearer <token>` (the app's
/// server deals; players play with their seat tokens).
#[utoipa::path(post, path = "/v1/deal", tag = "positions",
    request_body(content = DealRequest, description = "Optional: an empty body deals a random tcga game.",
        example = examples::deal_request),
    responses(
        (status = 200, description = "The deal.", body = DealResponse, example = examples::deal_response),
        (status = 401, description = "The service has a write token and the request lacks it.", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "The record store is served read-only.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Unknown preset, invalid ruleset, or a deal the referee cannot keep as asked (`invalid-deal`: too many names, a name too long, a cap above the service's).", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The referee's ledger (the record store) cannot be reached.", body = Problem, content_type = "application/problem+json")),
    security((), ("bearer" = [])))]
pub async fn deal(
    req: HttpRequest,
    GameJson {
        kind,
        body: request,
    }: GameJson<DealRequest>,
    settings: web::Data<Settings>,
) -> Result<web::Json<DealResponse>, Problem> {
    // Dealing writes a game in the store (the referee's ledger): the app's server deals, with
    // the write token when the service has one; players play with their seat tokens.
    crate::routes::games::authorize_write(&req, &settings, "dealing a game")?;
    let engines = !request.engines.is_empty();
    let dealt = referee::run(
        &settings,
        move |r| with_game!(kind, G => referee::deal::<G>(r, &request)),
    )
    .await?;
    if engines {
        crate::autoplay::drive(settings.get_ref(), kind, dealt.game_id.clone());
    }
    Ok(web::Json(dealt))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ViewRequest {
    /// Whose view: `player1` or `player2` (`player3` in a three-seat game).
    pub player: Seat,
    /// The kind of game (default `banqi`; a record's own `game` wins).
    #[serde(default = "default_game")]
    #[schema(value_type = GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    /// A preset of the game (its first preset when absent).
    #[serde(default)]
    pub preset: Option<String>,
    #[serde(default)]
    #[schema(value_type = AnyOverrides)]
    pub options: Map<String, Value>,
    /// A position string (or give `record`; neither means the start).
    #[serde(default)]
    pub position: Option<String>,
    /// A record: its final position is viewed (its own preset and layout are used).
    #[serde(default, deserialize_with = "records::core::record::optional_object")]
    pub record: Option<Record>,
    /// The layout, if the caller has it: accepted, used to complete the record, never shown.
    #[serde(default)]
    #[schema(value_type = Option<records::games::AnyLayout>)]
    pub layout: Option<Value>,
    /// A token from `POST /v1/deal` (a seat's, or the game's): the view is of the referee's
    /// game `game_id` as its ledger holds it (a seat's token sees for its own seat only).
    /// Whatever else the request states must be the ledger's (409 otherwise).
    #[serde(default)]
    #[schema(example = "v1.ephemeral.q0Jb-token-from-deal")]
    pub token: Option<String>,
    /// The game id from `POST /v1/deal`, with `token`.
    #[serde(default)]
    #[schema(example = "9f2c4e1a7b3d5f60a1b2c3d4e5f60718")]
    pub game_id: Option<String>,
    /// With `token`: the committed ply to view (the number of actions played before it); the
    /// current one when absent.
    #[serde(default)]
    pub ply: Option<u32>,
}

/// What one player may see: the position with covered pieces as `X` (never the layout or a
/// covered identity), its colour, whether it is its turn and then its legal actions.
#[utoipa::path(post, path = "/v1/view", tag = "positions",
    request_body(content = ViewRequest, example = examples::view_request),
    responses(
        (status = 200, description = "The player's view.", body = AnyView, example = examples::view_response),
        (status = 400, description = "Malformed JSON or position, or both a position and a record.", body = Problem,
            content_type = "application/problem+json"),
        (status = 403, description = "A seat token used for another seat's view.", body = Problem,
            content_type = "application/problem+json"),
        (status = 422, description = "Invalid record or ruleset.", body = Problem, content_type = "application/problem+json")))]
pub async fn view(
    GameJson {
        kind,
        body: request,
    }: GameJson<ViewRequest>,
    settings: web::Data<Settings>,
) -> Result<HttpResponse, Problem> {
    if let Some(token) = request.token.clone() {
        let view = referee::run(
            &settings,
            move |r| with_game!(kind, G => referee::view::<G>(r, &request, &token)),
        )
        .await?;
        return Ok(HttpResponse::Ok().json(view));
    }
    with_game!(kind, G => view_of::<G>(request))
}

fn view_of<G: Rules>(request: ViewRequest) -> Result<HttpResponse, Problem> {
    let (m, rules) = match (&request.position, request.record) {
        (Some(_), Some(_)) => {
            return Err(Problem::new(
                ProblemKind::BadParameter,
                "give either a position or a record, not both",
            )
            .field("record"));
        }
        (_, Some(mut record)) => {
            if record.layout.is_none() {
                record.layout = request.layout;
            }
            let m = final_match::<G>(&record).map_err(|e| Problem::from_replay(&e))?;
            let rules = ruleset::<G>(record.preset.as_deref(), &record.options)?;
            (m, rules)
        }
        (text, None) => {
            let rules = ruleset::<G>(request.preset.as_deref(), &request.options)?;
            let (pos, _) = hidden_truth::<G>(request.layout.as_ref(), text.as_deref(), &rules)?;
            (G::Match::from_position(rules, pos), rules)
        }
    };
    let seats = G::seats(&rules);
    if request.player.index() >= seats as usize {
        return Err(Problem::new(
            ProblemKind::BadParameter,
            format!(
                "{} has {seats} seats; there is no {}",
                G::TITLE,
                request.player.code()
            ),
        )
        .field("player"));
    }
    Ok(HttpResponse::Ok().json(G::view(&m, request.player)))
}

/// The match a request is about: its `record` replayed (the history the draw and chase rules
/// need), or its bare `position`; with the hidden truth from the clear layout.
pub(crate) fn the_match<G: Rules>(
    preset: &Option<String>,
    options: &Map<String, Value>,
    at: &Option<String>,
    record: &Option<Record>,
    layout: Option<&Value>,
) -> Result<(G::Match, Option<G::Hidden>), Problem> {
    let Some(record) = record else {
        let rules = ruleset::<G>(preset.as_deref(), options)?;
        let (pos, hidden) = hidden_truth::<G>(layout, at.as_deref(), &rules)?;
        return Ok((G::Match::from_position(rules, pos), hidden));
    };
    if at.is_some() {
        return Err(Problem::new(
            ProblemKind::BadParameter,
            "give either a position or a record, not both",
        )
        .field("record"));
    }
    if record.game != G::NAME {
        return Err(Problem::new(
            ProblemKind::BadParameter,
            "the record is of another game than `game`",
        )
        .field("game"));
    }
    let mut record = record.clone();
    if record.layout.is_none() {
        record.layout = layout.cloned();
    }
    let hidden = crate::routes::parse::clear_hidden::<G>(record.layout.as_ref())?;
    // The result a record states is not checked here: the game goes on from its last ply.
    record.result = None;
    let m = final_match::<G>(&record).map_err(|e| Problem::from_replay(&e))?;
    Ok((m, hidden))
}

impl GameBody for ActionsRequest {
    fn game(&self) -> &str {
        &self.game
    }
    fn record(&self) -> Option<&Record> {
        self.record.as_ref()
    }
}

impl GameBody for PlayRequest {
    fn game(&self) -> &str {
        &self.game
    }
    fn record(&self) -> Option<&Record> {
        self.record.as_ref()
    }
}

impl GameBody for DealRequest {
    fn game(&self) -> &str {
        &self.game
    }
    /// An empty body deals the default game under its default preset.
    fn when_empty() -> Option<DealRequest> {
        Some(DealRequest {
            game: default_game(),
            ..DealRequest::default()
        })
    }
}

impl GameBody for ViewRequest {
    /// A record's own game when the request holds one.
    fn game(&self) -> &str {
        match &self.record {
            Some(record) => &record.game,
            None => &self.game,
        }
    }
    fn record(&self) -> Option<&Record> {
        self.record.as_ref()
    }
}
