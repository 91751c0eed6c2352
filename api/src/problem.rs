//! Errors as RFC 9457 problem details (`application/problem+json`).
//!
//! Every error the service returns is a [`Problem`]: the handlers build them directly, and a
//! catch-all middleware ([`catch_all`]) turns whatever else actix produces (unknown routes,
//! wrong methods, bodies too large, extractor failures, panics) into one, so no client ever
//! sees a plain-text error.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::ServiceResponse;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::{ErrorHandlerResponse, ErrorHandlers};
use actix_web::{HttpResponse, ResponseError};
use records::core::ReplayError;
use serde::Serialize;
use utoipa::ToSchema;

pub const PROBLEM_JSON: &str = "application/problem+json";

/// The longest `detail` a problem shows, in characters.
const MAX_DETAIL: usize = 1000;
/// The longest `action`, `position` or `field` a problem shows, in characters.
const MAX_ECHO: usize = 300;

/// `text` cut to `max` characters, saying how many more there were.
fn clip(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_owned();
    }
    let kept: String = text.chars().take(max).collect();
    format!("{kept}… ({} more characters)", count - max)
}

/// A problem detail (RFC 9457). `type` is stable for each kind of problem and resolves to its
/// description (`GET /problems/{name}`); `code` is the same kind as a short machine code, or
/// for an illegal action or record, the precise reason (e.g. `rank_forbids_capture`).
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "/problems/illegal-action",
    "title": "Illegal action",
    "status": 422,
    "detail": "b6-b7: a soldier cannot capture a chariot",
    "code": "rank_forbids_capture",
    "action": "b6-b7",
    "position": "4/1r2/1P2/4/4/4/4/4 r - 3 40"
}))]
pub struct Problem {
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    /// What went wrong, in words a person can act on.
    pub detail: String,
    pub code: String,
    /// The 1-based ply of a record the problem is about (the opening explorer: the place in
    /// `actions` of the action it is about, 1 the first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    /// The action (as written) the problem is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    /// The position (string) before the offending action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The line of a text body (TCGA record, JSON) where the problem is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    /// The request field the problem is about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// Seconds after which the request may succeed (the `Retry-After` header of a 503).
    #[serde(skip)]
    pub retry_after: Option<u32>,
}

/// Declares the kinds of problem: variant = name in `type`, status, title, and the description
/// `GET /problems/{name}` gives.
macro_rules! problem_kinds {
    ($($Kind:ident = $name:literal, $status:literal, $title:literal, $about:literal;)+) => {
        /// A kind of problem: its `type` (`/problems/<name>`), status and title are fixed by it.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
        pub enum ProblemKind {
            $($Kind,)+
        }

        impl ProblemKind {
            /// Every kind, in the order `GET /problems` lists them.
            pub const ALL: &'static [ProblemKind] = &[$(ProblemKind::$Kind,)+];

            /// The name in `type` and `GET /problems/{name}`.
            pub fn name(self) -> &'static str {
                match self {
                    $(ProblemKind::$Kind => $name,)+
                }
            }

            pub fn title(self) -> &'static str {
                match self {
                    $(ProblemKind::$Kind => $title,)+
                }
            }

            pub fn status(self) -> u16 {
                match self {
                    $(ProblemKind::$Kind => $status,)+
                }
            }

            /// What the kind means and what to do about it.
            pub fn description(self) -> &'static str {
                match self {
                    $(ProblemKind::$Kind => $about,)+
                }
            }

            /// The kind named `name`, if any.
            pub fn named(name: &str) -> Option<ProblemKind> {
                ProblemKind::ALL.iter().copied().find(|k| k.name() == name)
            }
        }
    };
}

problem_kinds! {
    MalformedJson = "malformed-json", 400, "Malformed JSON",
        "The body is not valid JSON, or not the JSON this endpoint takes (a missing or unknown field, a wrong type). `line` and `column` point at the spot.";
    JsonTooDeep = "json-too-deep", 400, "JSON nested too deeply",
        "The body nests arrays and objects deeper than the service accepts (`--max-json-depth`).";
    MalformedRecord = "malformed-record", 400, "Malformed record",
        "A TCGA record that does not follow the format; `line` is the line.";
    MalformedPosition = "malformed-position", 400, "Malformed position",
        "A position string that does not follow the notation (docs/notation.md).";
    MalformedAction = "malformed-action", 400, "Malformed action",
        "An action that does not follow the notation (`b6(K)`, `a2-a3`, `a2-a3(k)-a4`).";
    MalformedLayout = "malformed-layout", 400, "Malformed layout",
        "The hidden truth (`layout`) is not written as the game writes it (docs/notation.md: a piece letter per start point, with exactly the pieces of a set, or each side's setup).";
    BadParameter = "bad-parameter", 400, "Bad parameter",
        "A query or path parameter has a value the endpoint cannot use.";
    Unauthorized = "unauthorized", 401, "Unauthorized",
        "Writes (storing records, dealing a game) need `Authorization: Bearer <token>` with the service's token (`--token`).";
    NotFound = "not-found", 404, "Not found",
        "No such endpoint or resource. `GET /v1/openapi.json` lists the endpoints.";
    TableNotFound = "table-not-found", 404, "Table not found",
        "No table with this `table_id` is kept here (`POST /v1/tables` opens one).";
    GameNotFound = "game-not-found", 404, "Game not found",
        "No game with this `game_id` is in the referee's ledger: an unknown id, or a game left unplayed long enough to expire (`--game-expiry`).";
    MethodNotAllowed = "method-not-allowed", 405, "Method not allowed",
        "The endpoint exists but not for this method; the `Allow` header lists the methods it takes.";
    LedgerConflict = "ledger-conflict", 409, "Conflicts with the ledger",
        "A request with a token is about the referee's game: it may name a committed ply, and whatever else it states (a record's history, a start, a preset, options, a position) must be the ledger's. `field` names what differs; nothing was applied.";
    AlreadyPlayed = "already-played", 409, "Ply already played",
        "Another action is already committed at the ply the request means: the first action committed at a ply is final. The same action again gets the same answer.";
    Refused = "refused", 409, "Refused as the game stands",
        "The game's life refuses the request as the game stands (`POST /v1/lifecycle`); `code` says why: `game-over`, `no-draw-offer` (nothing to accept or decline), `offered-already` (one offer a seat a ply), `not-abortable` (every seat has moved), `no-claims` (dealt without), `not-claimable` (not yet, or the claimant's own turn), `out-of-game`.";
    PayloadTooLarge = "payload-too-large", 413, "Payload too large",
        "The body is larger than the service accepts (`--max-body`).";
    RequestTooLarge = "request-too-large", 431, "Request too large",
        "The request's line and headers are larger than the service reads (128 KiB), or it has more than 96 headers: a long query (an explorer line of thousands of actions) is asked shorter (`node=`, the node the explorer gave) or in a body.";
    TooManyPlies = "too-many-plies", 413, "Too many plies",
        "A record longer than the service replays in one request (`--max-plies`).";
    UnsupportedMediaType = "unsupported-media-type", 415, "Unsupported media type",
        "The body's Content-Type is not one this endpoint takes (JSON: `application/json`; TCGA records: `text/plain`).";
    UnknownGame = "unknown-game", 422, "Unknown game",
        "`game` names no game the service plays; `GET /v1/game-types` lists them.";
    InvalidToken = "invalid-token", 422, "Invalid token",
        "The sealed state (`token`) does not open: it was altered or truncated, it belongs to another game, preset or deal (`game_id`), or it was sealed with a key this service does not have.";
    ReadOnly = "read-only", 403, "Read-only",
        "The service serves its record store read-only (`--read-only`): it stores nothing, deals no game and commits no ply.";
    WrongSeat = "wrong-seat", 403, "Wrong seat",
        "A seat token (`POST /v1/deal` gives one per seat) acts for its own seat only: not another seat's view, not a move out of its turn.";
    UnknownPreset = "unknown-preset", 422, "Unknown preset",
        "The preset is not one of `GET /v1/presets`.";
    InvalidRuleset = "invalid-ruleset", 422, "Invalid ruleset",
        "The options do not make a valid ruleset.";
    InvalidDeal = "invalid-deal", 422, "Invalid deal",
        "The referee cannot keep the game as asked: more player names than seats, a name empty, too long (100 characters) or with a control character, a cap (`options.max_plies`) above the service's `--max-plies` or none on a game that could then go on for ever, or a start where the game is already over. `field` names what; nothing was written.";
    InvalidPosition = "invalid-position", 422, "Invalid position",
        "A well-formed position that cannot occur (too many pieces of a kind, covered squares and pool disagree …).";
    IllegalAction = "illegal-action", 422, "Illegal action",
        "The action is well-formed but not legal in the position; `code` is the reason (docs/records.md lists them).";
    InvalidRecord = "invalid-record", 422, "Invalid record",
        "The record does not replay: `code`, `ply`, `action` and `position` say where and why.";
    NotExportable = "not-exportable", 422, "Not exportable",
        "TCGA text exists only for records under plain `tcga` rules.";
    SettlementOverflow = "settlement-overflow", 422, "Settlement overflow",
        "The stake and bonus are so large that the settlement does not fit in 64 bits.";
    NoEngine = "no-engine", 422, "No engine",
        "The game has no engine (every game of this service has one: a game added without one answers this).";
    TooManyStreams = "too-many-streams", 429, "Too many streams",
        "The seat (or the game's own token) has as many event streams of this game open on this instance as it may (`--streams-per-seat`): close one, or try again after the `Retry-After` header's seconds.";
    AnalysisBusy = "analysis-busy", 503, "Analyses busy",
        "Every analysis slot of the service is in use (`--analysis-slots`): try again after the `Retry-After` header's seconds. Validation and the other endpoints are not held up by analyses.";
    PicturesBusy = "pictures-busy", 503, "Pictures busy",
        "Every slot that draws pictures in pixels (PNG, animated PNG) is in use (`--picture-slots`): try again after the `Retry-After` header's seconds. SVG pictures and the other endpoints are not held up by them.";
    ExplorerBusy = "explorer-busy", 503, "Explorer busy",
        "A filtered explorer request (players, dates, a rating range) walks the games that pass the filters: every slot for them is in use (`--explorer-slots`), or the filters passed more games than a request walks in its time; try again after the `Retry-After` header's seconds, or narrow the filters. Unfiltered requests are not held up by them.";
    StoreUnavailable = "store-unavailable", 503, "Record store unavailable",
        "The record store cannot be reached (or the service runs without one); try again later.";
    Internal = "internal", 500, "Internal error",
        "A bug in the service. Please report it with the request.";
}

impl Problem {
    /// A problem of `kind` with `detail`.
    pub fn new(kind: ProblemKind, detail: impl Into<String>) -> Problem {
        Problem {
            kind: format!("/problems/{}", kind.name()),
            title: kind.title().to_owned(),
            status: kind.status(),
            detail: detail.into(),
            code: kind.name().replace('-', "_"),
            ply: None,
            action: None,
            position: None,
            line: None,
            column: None,
            field: None,
            retry_after: None,
        }
    }

    /// The problem with a `Retry-After` header: try again in `seconds`.
    pub fn retry_after(mut self, seconds: u32) -> Problem {
        self.retry_after = Some(seconds);
        self
    }

    pub fn code(mut self, code: &str) -> Problem {
        self.code = code.to_owned();
        self
    }

    pub fn field(mut self, field: &str) -> Problem {
        self.field = Some(field.to_owned());
        self
    }

    pub fn action(mut self, action: impl Into<String>) -> Problem {
        self.action = Some(action.into());
        self
    }

    pub fn position(mut self, position: impl Into<String>) -> Problem {
        self.position = Some(position.into());
        self
    }

    /// This problem with every text it may have taken from the request cut to a bounded
    /// length: a problem never echoes a megabyte of what a client sent (an id, an action, a
    /// path). The cut says how much was cut.
    fn clipped(&self) -> Problem {
        let mut p = self.clone();
        p.detail = clip(&p.detail, MAX_DETAIL);
        for text in [&mut p.action, &mut p.position, &mut p.field]
            .into_iter()
            .flatten()
        {
            *text = clip(text, MAX_ECHO);
        }
        p
    }

    /// The problem of a record that does not replay.
    pub fn from_replay(error: &ReplayError) -> Problem {
        let detail = error.to_string();
        let problem = Problem::new(ProblemKind::InvalidRecord, detail).code(error.code());
        match error {
            ReplayError::IllegalPly {
                ply,
                action,
                position,
                ..
            } => Problem {
                ply: Some(*ply),
                ..problem.action(action.clone()).position(position.clone())
            },
            _ => problem,
        }
    }
}

impl From<records::referee::RefereeError> for Problem {
    fn from(error: records::referee::RefereeError) -> Problem {
        use records::referee::RefereeError as E;
        let detail = error.to_string();
        match error {
            E::NotFound(_) => Problem::new(ProblemKind::GameNotFound, detail).field("game_id"),
            E::NoTable(_) => Problem::new(ProblemKind::TableNotFound, detail).field("table_id"),
            E::Token(_) => Problem::new(ProblemKind::InvalidToken, detail).field("token"),
            E::Conflict { field, .. } => {
                Problem::new(ProblemKind::LedgerConflict, detail).field(field)
            }
            E::AlreadyPlayed { ply, .. } => Problem {
                ply: Some(ply as usize + 1),
                ..Problem::new(ProblemKind::AlreadyPlayed, detail).field("action")
            },
            E::WrongSeat(_) => Problem::new(ProblemKind::WrongSeat, detail).field("token"),
            E::Illegal {
                violation,
                action,
                position,
                ..
            } => Problem::new(ProblemKind::IllegalAction, detail)
                .code(violation.code())
                .action(action)
                .position(position),
            E::MalformedAction(_) => {
                Problem::new(ProblemKind::MalformedAction, detail).field("action")
            }
            E::Ruleset(e) => crate::routes::parse::ruleset_problem(e),
            E::Layout(_) => Problem::new(ProblemKind::MalformedLayout, detail).field("layout"),
            E::Deal { field, .. } => Problem::new(ProblemKind::InvalidDeal, detail).field(field),
            E::NoSuchSeat(_) => Problem::new(ProblemKind::BadParameter, detail).field("player"),
            E::Refused { code, .. } => Problem::new(ProblemKind::Refused, detail).code(code),
            E::Store(e) => {
                tracing::error!(error = %e, "referee's ledger");
                Problem::new(ProblemKind::StoreUnavailable, e.to_string())
            }
            E::Analysis(e) => e.into(),
            E::Corrupt(_) => {
                tracing::error!(error = %detail, "referee's ledger");
                Problem::new(ProblemKind::Internal, detail)
            }
        }
    }
}

impl From<records::core::analysis::AnalysisError> for Problem {
    fn from(error: records::core::analysis::AnalysisError) -> Problem {
        Problem::new(ProblemKind::NoEngine, error.to_string()).field("game")
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.title, self.detail)
    }
}

impl ResponseError for Problem {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse<BoxBody> {
        let problem = self.clipped();
        let mut response = HttpResponse::build(self.status_code());
        response.content_type(PROBLEM_JSON);
        if self.status == 401 {
            response.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
        }
        if let Some(seconds) = self.retry_after {
            response.insert_header((header::RETRY_AFTER, seconds.to_string()));
        }
        response.json(problem)
    }
}

/// The kind of problem for a status actix produced by itself.
fn kind_for(status: StatusCode) -> ProblemKind {
    match status.as_u16() {
        401 => ProblemKind::Unauthorized,
        404 => ProblemKind::NotFound,
        405 => ProblemKind::MethodNotAllowed,
        413 => ProblemKind::PayloadTooLarge,
        415 => ProblemKind::UnsupportedMediaType,
        400..=499 => ProblemKind::BadParameter,
        _ => ProblemKind::Internal,
    }
}

/// Middleware that turns every error response that is not already a problem into one.
pub fn catch_all<B: MessageBody + 'static>() -> ErrorHandlers<B> {
    ErrorHandlers::new().default_handler(|res: ServiceResponse<B>| {
        let is_problem = res
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(PROBLEM_JSON.as_bytes()));
        if is_problem {
            return Ok(ErrorHandlerResponse::Response(res.map_into_left_body()));
        }
        let status = res.status();
        let detail = match (status.as_u16(), res.response().error()) {
            (404, _) => format!(
                "there is no {} {} here; GET /v1/openapi.json lists the endpoints",
                res.request().method(),
                res.request().path()
            ),
            (405, _) => format!(
                "{} does not take {}",
                res.request().path(),
                res.request().method()
            ),
            (_, Some(e)) => e.to_string(),
            (_, None) => status.canonical_reason().unwrap_or("error").to_owned(),
        };
        let allow = res.headers().get(header::ALLOW).cloned();
        let mut problem = Problem::new(kind_for(status), detail);
        // Keep the status actix chose, in the body too.
        problem.status = status.as_u16();
        let (req, _) = res.into_parts();
        let mut response = problem.error_response();
        if let Some(allow) = allow {
            response.headers_mut().insert(header::ALLOW, allow);
        }
        response
            .headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON));
        Ok(ErrorHandlerResponse::Response(
            ServiceResponse::new(req, response).map_into_right_body::<B>(),
        ))
    })
}
