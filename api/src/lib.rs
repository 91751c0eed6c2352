//! The Anqi REST service: a thin HTTP edge over `records`. Validating and scoring are pure
//! functions of the request; the referee of hidden games keeps its games in the record store
//! (`records::referee`).
//!
//! [`app`] builds the application (the binary `anqi-api` serves it; tests call it in process).

// A problem is a few strings; it travels only on error paths, where boxing buys nothing.
#![allow(clippy::result_large_err)]

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::{App, web};
use utoipa_swagger_ui::SwaggerUi;

pub mod autoplay;
pub mod body;
pub mod connection;
pub mod contract;
/// The examples the operations declare: the default game's.
pub use games::default_examples as examples;
pub mod games;
pub mod hub;
pub mod openapi;
pub mod problem;
pub mod routes;
pub mod slots;

pub use body::Limits;
pub use problem::{Problem, ProblemKind};

/// What the application runs with.
#[derive(Clone)]
pub struct Settings {
    pub limits: Limits,
    /// The record store; `/v1/games` answers 503 without one.
    pub store: Option<records::store::Store>,
    /// When set, writes (`POST /v1/games`) need `Authorization: Bearer <token>`.
    pub token: Option<String>,
    /// Writes refused (403): the store is served read-only.
    pub read_only: bool,
    /// The keys the referee seals tokens and hidden truths with (the first) and opens them
    /// with.
    pub keys: records::seal::Keys,
    /// How the referee runs (how long an unplayed game is kept).
    pub referee_settings: records::referee::Settings,
    /// The referee, its ledger in `store`; [`app`] makes it from the store and keys when
    /// absent. Without a store, there is none: `/v1/deal` and the token routes answer 503.
    pub referee: Option<std::sync::Arc<records::referee::Referee>>,
    /// The engine's caps and slots (`POST /v1/analyze`).
    pub analyses: routes::analysis::Analyses,
    /// The slots pictures are drawn in, in pixels (`/v1/render.png`, `/v1/replay.png`).
    pub pictures: slots::Slots,
    /// The slots filtered explorer requests walk games in (`/v1/explorer` with players, dates
    /// or a rating range).
    pub explorer_slots: slots::Slots,
    /// The threads unfiltered explorer requests look their positions up on, in turn.
    pub explorer_reads: slots::Queue,
    /// How long a filtered explorer request may walk games before it is refused (503).
    pub explorer_filter_time: std::time::Duration,
    /// The threads streams replay a game's missed plies on (one per core but one, at the
    /// lowest priority: the HTTP workers, and so the players' plays, get the cores first).
    pub replays: slots::Slots,
    /// The ratings fitted from the store, each kept until its counts change (`/v1/players`).
    pub ratings: std::sync::Arc<records::store::RatingsCache>,
    /// Where commits meet the event streams waiting for them (`GET /v1/stream`): one for
    /// every worker.
    pub hub: std::sync::Arc<hub::Hub>,
    /// Seconds between a stream's heartbeats (a comment line that keeps proxies from closing
    /// an idle stream; the stream also looks at its game then).
    pub heartbeat_seconds: u64,
    /// How many event streams of a game one seat (or the game's own token) may hold open on
    /// this instance; one more is refused (429).
    pub streams_per_seat: usize,
    /// The service's engine in the seats deals gave it: the games this instance drives and
    /// its name in the leases.
    pub engines: std::sync::Arc<autoplay::Engines>,
}

impl Default for Settings {
    /// No store, no token, and a fresh random seal key.
    fn default() -> Settings {
        Settings {
            limits: Limits::default(),
            store: None,
            token: None,
            read_only: false,
            keys: records::seal::Keys::random(),
            referee_settings: records::referee::Settings::default(),
            referee: None,
            analyses: routes::analysis::Analyses::default(),
            pictures: pictures(None),
            explorer_slots: explorer_slots(None),
            explorer_reads: explorer_reads(),
            explorer_filter_time: records::store::FILTER_TIME,
            replays: replays(),
            ratings: Default::default(),
            hub: Default::default(),
            heartbeat_seconds: 15,
            streams_per_seat: 8,
            engines: Default::default(),
        }
    }
}

/// The threads unfiltered explorer requests are looked up on: one per core.
pub fn explorer_reads() -> slots::Queue {
    slots::Queue::per_core("explorer-reads")
}

/// The replay threads: one per core but one.
pub fn replays() -> slots::Slots {
    // Never refused (a stream waits for a thread): the problem kind is unused.
    slots::Slots::per_core("replays", problem::ProblemKind::Internal, "")
}

/// The picture slots: `slots`, or one per core but one.
pub fn pictures(slots: Option<usize>) -> slots::Slots {
    let busy = (problem::ProblemKind::PicturesBusy, "--picture-slots");
    match slots {
        Some(n) => slots::Slots::new("pictures", n, busy.0, busy.1),
        None => slots::Slots::per_core("pictures", busy.0, busy.1),
    }
}

/// The filtered explorer requests' slots: `slots`, or one per core but one.
pub fn explorer_slots(slots: Option<usize>) -> slots::Slots {
    let busy = (problem::ProblemKind::ExplorerBusy, "--explorer-slots");
    match slots {
        Some(n) => slots::Slots::new("explorer", n, busy.0, busy.1),
        None => slots::Slots::per_core("explorer", busy.0, busy.1),
    }
}

impl From<Limits> for Settings {
    fn from(limits: Limits) -> Settings {
        Settings {
            limits,
            ..Settings::default()
        }
    }
}

/// The application: every route, the OpenAPI document, Swagger UI at `/docs/`, and
/// problem+json for every error.
pub fn app(
    settings: impl Into<Settings>,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let mut settings: Settings = settings.into();
    if settings.referee.is_none() {
        settings.referee = settings.store.clone().map(|store| {
            std::sync::Arc::new(records::referee::Referee::new(
                store,
                settings.keys.clone(),
                settings.referee_settings,
            ))
        });
    }
    if let Some(referee) = &settings.referee {
        // Set once: every worker's settings share one hub.
        let hub = settings.hub.clone();
        referee.on_commit(move |game_id| hub.notify(game_id));
    }
    let max_body = settings.limits.max_body;
    let write_token = settings.token.is_some();
    App::new()
        // The one state every handler reads (limits, store, keys, referee).
        .app_data(web::Data::new(settings))
        .app_data(web::PayloadConfig::new(max_body))
        .app_data(
            web::QueryConfig::default().error_handler(|e, _| {
                Problem::new(ProblemKind::BadParameter, e.to_string()).into()
            }),
        )
        .app_data(
            web::PathConfig::default().error_handler(|e, _| {
                Problem::new(ProblemKind::BadParameter, e.to_string()).into()
            }),
        )
        .wrap(problem::catch_all())
        .configure(routes::configure)
        .service(SwaggerUi::new("/docs/{_:.*}").external_url_unchecked(
            "/v1/openapi.json",
            contract::served(openapi::document(), write_token),
        ))
        .default_service(web::to(routes::not_found))
}
