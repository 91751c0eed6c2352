//! `POST /v1/analyze`: the game's engine on a position, a record or a refereed game (with a
//! seat token: from what that seat knows). Searches run on their own threads, a few at a
//! time, at the lowest scheduling priority ([`Analyses`]): the HTTP workers keep the cores,
//! so the rest of the service keeps its pace while analyses think (an analysis given less of
//! a core stops at its time limit with its best answer so far).

use actix_web::web;
use records::core::Record;
use records::core::Rules;
use records::core::analysis::{Analysis, Limits};
use records::games::AnyOverrides;
use records::with_game;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::Settings;
use crate::body::GameJson;
use crate::examples;
use crate::problem::{Problem, ProblemKind};
use crate::routes::parse::default_game;
use crate::routes::referee;
use crate::slots::Slots;

/// How the service runs analyses: the caps every request is held to, and the slots they run
/// in ([`Slots`]: one more than there are is refused, 503 `analysis-busy`).
#[derive(Clone, Debug)]
pub struct Analyses {
    /// The most any request may ask (a request over it gets the best answer within it, said
    /// with `capped`); also the limits of a request that states none.
    pub cap: Limits,
    pub slots: Slots,
}

impl Analyses {
    pub fn new(cap: Limits, slots: usize) -> Analyses {
        Analyses {
            cap,
            slots: Slots::new(
                "analysis",
                slots,
                ProblemKind::AnalysisBusy,
                "--analysis-slots",
            ),
        }
    }

    /// Runs `work` on an analysis thread when a slot is free (503 `analysis-busy` at once
    /// when none is: a request is never queued behind a search).
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, Problem> + Send + 'static,
    ) -> Result<T, Problem> {
        self.slots.run(None, move |_| work()).await
    }
}

impl Default for Analyses {
    /// At most 2 s and 20 million positions a request, depth 64; one slot per core but one
    /// (one at least).
    fn default() -> Analyses {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Analyses::new(
            Limits {
                depth: Some(64),
                nodes: Some(20_000_000),
                millis: Some(2_000),
            },
            cores.saturating_sub(1),
        )
    }
}

/// What stops the search: the first limit reached, each held to the service's caps.
#[derive(Deserialize, Serialize, ToSchema, Default, Clone, Copy, Debug)]
#[serde(deny_unknown_fields)]
pub struct LimitsRequest {
    /// Plies ahead.
    #[schema(example = 6, minimum = 1)]
    pub depth: Option<u32>,
    /// Positions searched.
    #[schema(minimum = 1)]
    pub nodes: Option<u64>,
    /// Wall time, in milliseconds.
    #[schema(example = 200, minimum = 1)]
    pub millis: Option<u64>,
}

impl LimitsRequest {
    /// Refuses a limit of 0 (a search that could not start), naming it.
    fn check(&self) -> Result<(), Problem> {
        for (name, value) in [
            ("limits.depth", self.depth.map(u64::from)),
            ("limits.nodes", self.nodes),
            ("limits.millis", self.millis),
        ] {
            if value == Some(0) {
                return Err(Problem::new(
                    ProblemKind::BadParameter,
                    format!("`{name}` must be at least 1 (leave it out for the service's cap)"),
                )
                .field(name));
            }
        }
        Ok(())
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    /// The kind of game (default `banqi`).
    #[serde(default = "default_game")]
    #[schema(value_type = records::games::GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    /// A preset of the game (its first preset when absent).
    #[serde(default)]
    pub preset: Option<String>,
    /// Options overriding the preset's (the game's own).
    #[serde(default)]
    #[schema(value_type = AnyOverrides)]
    pub options: Map<String, Value>,
    /// A position string; the start when absent.
    #[serde(default)]
    pub position: Option<String>,
    /// The game so far, in place of `position`: the engine then knows its history (the
    /// positions a repetition would return to).
    #[serde(default, deserialize_with = "records::core::record::optional_object")]
    pub record: Option<Record>,
    /// A token from `POST /v1/deal`: the referee's game `game_id` as its ledger holds it,
    /// searched from what the token's seat knows (nothing else of the ledger reaches the
    /// engine). What else the request states must be the ledger's (409 otherwise).
    #[serde(default)]
    pub token: Option<String>,
    /// The game id from `POST /v1/deal`, with `token`.
    #[serde(default)]
    pub game_id: Option<String>,
    /// With `token`: the committed ply to analyse (the actions played before it); the
    /// current one when absent.
    #[serde(default)]
    pub ply: Option<u32>,
    /// What stops the search (the service's caps when absent, and at most them).
    #[serde(default)]
    pub limits: LimitsRequest,
    /// How many of the scored actions to list (all when absent).
    #[serde(default)]
    #[schema(example = 3)]
    pub top: Option<usize>,
}

impl crate::body::GameBody for AnalyzeRequest {
    fn game(&self) -> &str {
        &self.game
    }
    fn record(&self) -> Option<&Record> {
        self.record.as_ref()
    }
}

#[derive(Serialize, ToSchema)]
pub struct AnalyzeResponse {
    #[serde(flatten)]
    pub analysis: Analysis,
    /// The limits the search ran under (the request's, held to the service's caps).
    pub limits: LimitsRequest,
    /// Whether a cap of the service cut what the request asked.
    pub capped: bool,
}

/// The engine's analysis of a position: the best action, the score for the side to move (a
/// win/draw/loss estimate, centipawns where 100 is a soldier at the start, the plies to a
/// result it sees forced), the expected line and every action scored, the depth reached,
/// positions searched and time. Banqi's engine is an expectimax search; the other games' an
/// information-set search that draws what the seat cannot see from what it knows
/// (docs/engine.md). The search stops at the first limit reached, each
/// held to the service's caps (`--analysis-millis`, `--analysis-nodes`; a request over a cap
/// gets its best answer within it, with `capped`); searches run off the HTTP workers, at
/// most `--analysis-slots` at once (503 `analysis-busy` beyond).
#[utoipa::path(post, path = "/v1/analyze", tag = "positions",
    request_body(content = AnalyzeRequest, example = examples::analyze_request),
    responses(
        (status = 200, description = "The analysis.", body = AnalyzeResponse, example = examples::analyze_response),
        (status = 400, description = "Malformed JSON, position or record.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "With a token: no such game in the referee's ledger.", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "With a token: the request states something other than the ledger's.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Unknown preset, invalid position or record.", body = Problem,
            content_type = "application/problem+json"),
        (status = 503, description = "Every analysis slot is in use (or, with a token, no record store).", body = Problem,
            content_type = "application/problem+json")))]
pub async fn analyze(
    GameJson {
        kind,
        body: request,
    }: GameJson<AnalyzeRequest>,
    settings: web::Data<Settings>,
) -> Result<web::Json<AnalyzeResponse>, Problem> {
    request.limits.check()?;
    let asked = Limits {
        depth: request.limits.depth,
        nodes: request.limits.nodes,
        millis: request.limits.millis,
    };
    let (limits, capped) = asked.capped(&settings.analyses.cap);
    let top = request.top;
    let mut analysis = if let Some(token) = request.token.clone() {
        let referee = referee::the_referee(&settings)?;
        settings
            .analyses
            .run(move || {
                with_game!(kind, G => referee::analysis::<G>(&referee, &request, &token, &limits))
            })
            .await?
    } else {
        settings
            .analyses
            .run(move || with_game!(kind, G => analysis_of::<G>(&request, &limits)))
            .await?
    };
    if let Some(n) = top {
        analysis.actions.truncate(n);
    }
    Ok(web::Json(AnalyzeResponse {
        analysis,
        limits: LimitsRequest {
            depth: limits.depth,
            nodes: limits.nodes,
            millis: limits.millis,
        },
        capped,
    }))
}

fn analysis_of<G: Rules>(request: &AnalyzeRequest, limits: &Limits) -> Result<Analysis, Problem> {
    let (m, _) = crate::routes::positions::the_match::<G>(
        &request.preset,
        &request.options,
        &request.position,
        &request.record,
        None,
    )?;
    Ok(G::analyze(&m, None, limits)?)
}

/// The most a whole review may think, in milliseconds: each position gets its share (and at
/// most the service's cap for one analysis), so that a long game costs a slot this long at most.
const REVIEW_MILLIS: u64 = 30_000;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// The kind of game (default `banqi`).
    #[serde(default = "default_game")]
    #[schema(value_type = records::games::GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    /// The game to review: every ply must be legal.
    #[serde(deserialize_with = "records::core::record::object")]
    pub record: Record,
    /// What stops each position's search (20,000 positions when absent: the same review on
    /// every machine), held to the service's caps and to the review's share of 30 s.
    #[serde(default)]
    pub limits: LimitsRequest,
}

impl crate::body::GameBody for ReviewRequest {
    fn game(&self) -> &str {
        &self.game
    }
    fn record(&self) -> Option<&Record> {
        Some(&self.record)
    }
}

#[derive(Serialize, ToSchema)]
pub struct ReviewResponse {
    /// The start, then the position after each ply: player 1's score, the engine's choice
    /// there, and (two seats) each action judged.
    pub plies: Vec<records::core::review::ReviewedPly>,
    /// The limits each position's search ran under.
    pub limits: LimitsRequest,
    /// Whether a cap of the service (or the review's share of its time) cut what was asked.
    pub capped: bool,
}

/// A whole game's review by the engine in one request (what the viewer's graph draws): for the
/// start and the position after every ply, player 1's score and the engine's choice; in a
/// two-seat game each action judged against the actions the same search scored before it
/// (`lost`: what the decision gave up, never anything for the engine's choice; `luck`: what
/// chance gave when the action revealed something; `said`: the word, docs/analysis.md gives
/// the thresholds; a forced result said as one). A game with hidden identities is searched at
/// each position from what the side to move knew. Runs in an analysis slot, off the HTTP
/// workers (503 `analysis-busy` when none is free), 30 s at most.
#[utoipa::path(post, path = "/v1/review", tag = "positions",
    request_body(content = ReviewRequest, example = examples::review_request),
    responses(
        (status = 200, description = "The review.", body = ReviewResponse, example = examples::review_response),
        (status = 400, description = "Malformed JSON or record.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "The record does not replay.", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every analysis slot is in use.", body = Problem,
            content_type = "application/problem+json")))]
pub async fn review(
    GameJson {
        kind,
        body: request,
    }: GameJson<ReviewRequest>,
    settings: web::Data<Settings>,
) -> Result<web::Json<ReviewResponse>, Problem> {
    request.limits.check()?;
    let given = request.limits;
    let asked = Limits {
        depth: given.depth,
        nodes: given
            .nodes
            .or((given.depth.is_none() && given.millis.is_none()).then_some(20_000)),
        millis: given.millis,
    };
    let positions = request.record.actions.len() as u64 + 1;
    let share = Limits {
        millis: Some((REVIEW_MILLIS / positions).max(1)),
        ..settings.analyses.cap
    };
    let (mut limits, capped) = asked.capped(&settings.analyses.cap);
    let (shared, cut) = limits.capped(&share);
    limits = shared;
    let plies = settings
        .analyses
        .run(move || {
            with_game!(kind, G => records::core::review::review::<G>(&request.record, &limits))
                .map_err(review_problem)
        })
        .await?;
    Ok(web::Json(ReviewResponse {
        plies,
        limits: LimitsRequest {
            depth: limits.depth,
            nodes: limits.nodes,
            millis: limits.millis,
        },
        capped: capped || cut,
    }))
}

/// A review's refusal: the record's problem (its ply), or the engine's.
fn review_problem(e: records::core::review::ReviewError) -> Problem {
    use records::core::review::ReviewError;
    match e {
        ReviewError::Record(e) => Problem::from_replay(&e),
        ReviewError::Ply { .. } => {
            Problem::new(ProblemKind::InvalidRecord, e.to_string()).field("record")
        }
        ReviewError::Engine(e) => Problem::from(e),
    }
}
