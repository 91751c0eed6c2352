//! `anqi-api`: the Anqi REST service. `cargo run --release -p api` serves it on
//! http://127.0.0.1:8080 with no configuration.

use std::net::IpAddr;

use actix_web::dev::Service;
use clap::Parser;
use tracing_subscriber::EnvFilter;

/// The Anqi REST service (rules, validation, scoring, the referee of hidden games, pictures,
/// the record store). Every flag has an environment variable; flags win.
#[derive(Parser, Debug)]
#[command(name = "anqi-api", version)]
struct Config {
    /// Address to bind.
    #[arg(long, env = "ANQI_HOST", default_value = "127.0.0.1")]
    host: IpAddr,
    /// Port to bind (0: any free port; the chosen one is printed).
    #[arg(long, env = "ANQI_PORT", default_value_t = 8080)]
    port: u16,
    /// Largest request body in bytes.
    #[arg(long, env = "ANQI_MAX_BODY", default_value_t = 1 << 20)]
    max_body: usize,
    /// Deepest nesting of JSON arrays and objects in a request.
    #[arg(long, env = "ANQI_MAX_JSON_DEPTH", default_value_t = 32)]
    max_json_depth: usize,
    /// Most plies of a record replayed in one request (a longer record gets 413), and the
    /// most a refereed game lasts: a game its rules could let go on longer is dealt with this
    /// cap (a draw by `ply_limit` there; at most 65,535).
    #[arg(long, env = "ANQI_MAX_PLIES", default_value_t = 20_000,
        value_parser = clap::value_parser!(u32).range(1..))]
    max_plies: u32,
    /// Worker threads (default: one per CPU core).
    #[arg(long, env = "ANQI_WORKERS")]
    workers: Option<usize>,
    /// Log format: `text` or `json` (one JSON object per line).
    #[arg(long, env = "ANQI_LOG_FORMAT", default_value = "text", value_parser = ["text", "json"])]
    log_format: String,
    /// Log filter (tracing's EnvFilter syntax): `info` logs every request, `warn` only problems.
    #[arg(long, env = "ANQI_LOG", default_value = "info")]
    log: String,
    /// The record store: a SQLite file (created if missing), or postgres://user:password@host/db.
    #[arg(long, env = "DATABASE_URL", default_value = "anqi.db")]
    database: String,
    /// A bearer token that writes (POST /v1/games) must present. Without one, writes are open
    /// only on a loopback address: on any other, the service refuses to start unless it is
    /// `--read-only`.
    #[arg(long, env = "ANQI_TOKEN", hide_env_values = true)]
    token: Option<String>,
    /// Serve the record store read-only: `POST /v1/games` answers 403.
    #[arg(long, env = "ANQI_READ_ONLY")]
    read_only: bool,
    /// The referee's seal keys: `id:base64key` (32 random bytes), several separated by commas;
    /// the first seals, all open (rotate by putting a new key first). Instances that share the
    /// keys referee each other's games. Without keys, a SQLite store keeps its own beside it
    /// (`<database>.seal-key`, made on the first start); a PostgreSQL store needs them set.
    #[arg(
        long,
        env = "ANQI_SEAL_KEY",
        hide_env_values = true,
        conflicts_with = "seal_key_file"
    )]
    seal_key: Option<String>,
    /// A file holding the seal keys (one `id:base64key` per line, the first seals).
    #[arg(long, env = "ANQI_SEAL_KEY_FILE")]
    seal_key_file: Option<std::path::PathBuf>,
    /// Seconds after its last action that a refereed game nobody plays is forgotten (the
    /// referee's ledger; a finished game's record stays in the store).
    #[arg(long, env = "ANQI_GAME_EXPIRY", default_value_t = 7 * 24 * 3600)]
    game_expiry: i64,
    /// Refereed games kept in memory between requests (each replayed to its last ply, so that
    /// a request costs the same at any length); the least recently used go first.
    #[arg(long, env = "ANQI_KEPT_GAMES", default_value_t = 4096)]
    kept_games: usize,
    /// Seconds between an event stream's heartbeats (a comment line that keeps proxies from
    /// closing an idle stream).
    #[arg(long, env = "ANQI_STREAM_HEARTBEAT", default_value_t = 15, value_parser = clap::value_parser!(u64).range(1..=3600))]
    stream_heartbeat: u64,
    /// Event streams of a game one seat (or the game's own token) may hold open on this
    /// instance at once; one more is answered 429 with Retry-After.
    #[arg(long, env = "ANQI_STREAMS_PER_SEAT", default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    streams_per_seat: u64,
    /// Seconds to let requests in flight finish after SIGINT or SIGTERM.
    #[arg(long, env = "ANQI_SHUTDOWN_TIMEOUT", default_value_t = 10)]
    shutdown_timeout: u64,
    /// Milliseconds a client has to send a request's head (a slow client is answered 408 and
    /// dropped).
    #[arg(long, env = "ANQI_CLIENT_REQUEST_TIMEOUT", default_value_t = 5000)]
    client_request_timeout: u64,
    /// Seconds an idle keep-alive connection stays open.
    #[arg(long, env = "ANQI_KEEP_ALIVE", default_value_t = 5)]
    keep_alive: u64,
    /// Most connections each worker holds at once (more wait to be accepted).
    #[arg(long, env = "ANQI_MAX_CONNECTIONS", default_value_t = 25_000)]
    max_connections: usize,
    /// Most milliseconds one analysis (`POST /v1/analyze`) may think; a request asking more
    /// gets the best answer within this.
    #[arg(long, env = "ANQI_ANALYSIS_MILLIS", default_value_t = 2_000)]
    analysis_millis: u64,
    /// Most positions one analysis may search.
    #[arg(long, env = "ANQI_ANALYSIS_NODES", default_value_t = 20_000_000)]
    analysis_nodes: u64,
    /// Analyses running at once (one more is answered 503); by default one per core but one.
    #[arg(long, env = "ANQI_ANALYSIS_SLOTS")]
    analysis_slots: Option<usize>,
    /// Pictures drawn in pixels at once (`/v1/render.png`, `/v1/replay.png`; one more is
    /// answered 503 with Retry-After); by default one per core but one.
    #[arg(long, env = "ANQI_PICTURE_SLOTS")]
    picture_slots: Option<usize>,
    /// Filtered explorer requests walking games at once (`/v1/explorer` with players, dates
    /// or a rating range; one more is answered 503 with Retry-After); by default one per core
    /// but one.
    #[arg(long, env = "ANQI_EXPLORER_SLOTS")]
    explorer_slots: Option<usize>,
    /// How long a filtered explorer request may walk games, in milliseconds (one that walks
    /// longer is answered 503 with Retry-After).
    #[arg(long, env = "ANQI_EXPLORER_FILTER_MS", default_value_t = 100)]
    explorer_filter_ms: u64,
    /// A SQLite store is read through a memory map of up to this many MiB (0: read by copying
    /// each page; PostgreSQL: unused). The explorer's lookups answer about 10% more requests a
    /// second mapped; the pages read count in the service's resident memory (they are the
    /// file's, shared with the kernel's cache, not the service's own). SQLite maps at most
    /// 2 GiB (its build's limit); the rest of a larger file is read by copying.
    #[arg(long, env = "ANQI_SQLITE_MAP_MIB", default_value_t = 2048)]
    sqlite_map_mib: u64,
}

/// The referee's keys: the configured ones (`--seal-key`, `--seal-key-file`), or, with none,
/// the key kept beside the SQLite store (made on the first start), so that a restart keeps
/// every game. A key file beside the store still opens its games once keys are configured. A
/// PostgreSQL store needs configured keys: every instance sharing it must have the same.
fn seal_keys(
    config: &Config,
    store: &records::store::Store,
) -> Result<records::seal::Keys, String> {
    use records::seal::{KeyFile, Keys};
    let configured = match (&config.seal_key, &config.seal_key_file) {
        (Some(spec), _) => Some(("ANQI_SEAL_KEY", spec.clone())),
        (None, Some(path)) => Some((
            "ANQI_SEAL_KEY_FILE",
            std::fs::read_to_string(path)
                .map_err(|e| format!("seal key file {}: {e}", path.display()))?,
        )),
        (None, None) => None,
    }
    .filter(|(_, spec)| !spec.trim().is_empty());
    let beside = records::store::sqlite_path(&config.database).map(|db| KeyFile::beside(&db));
    let keys = match (configured, &beside) {
        (Some((name, spec)), _) => {
            let keys = Keys::parse(&spec).map_err(|e| format!("{name}: {e}"))?;
            match beside.as_ref().map(KeyFile::read).transpose() {
                Ok(Some(Some(file_keys))) => {
                    tracing::info!(
                        file = %beside.as_ref().expect("read").path.display(),
                        "the store's key file still opens the games it sealed"
                    );
                    keys.with_openers(file_keys)
                }
                Ok(_) => keys,
                Err(e) => return Err(e.to_string()),
            }
        }
        (None, Some(file)) => {
            let (keys, created) = file.read_or_create().map_err(|e| e.to_string())?;
            if created {
                tracing::info!(
                    file = %file.path.display(),
                    "no seal key configured: made one for this store (its games survive restarts; keep the file with the database)"
                );
            } else {
                tracing::info!(file = %file.path.display(), "seal key read from beside the store");
            }
            if file.readable_by_others() {
                tracing::warn!(
                    file = %file.path.display(),
                    "the seal key file is readable by other users: `chmod 600` it"
                );
            }
            keys
        }
        (None, None) => {
            return Err(format!(
                "the {} record store needs the referee's seal keys configured, the same on \
                 every instance that shares it (a key made by one instance would not open \
                 another's games): set ANQI_SEAL_KEY=\"2026a:$(head -c32 /dev/urandom | base64)\" \
                 or ANQI_SEAL_KEY_FILE=<a file holding it>",
                store.backend()
            ));
        }
    };
    tracing::info!(seals = keys.current_id(), keys = ?keys, "seal keys loaded");
    Ok(keys)
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let config = Config::parse();
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|_| EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if config.log_format == "json" {
        logs.json().init();
    } else {
        logs.init();
    }
    let token = config.token.clone().filter(|t| !t.is_empty());
    if token.is_none() && !config.read_only && !config.host.is_loopback() {
        eprintln!(
            "anqi-api: serving on {} with a writable record store and no write token: anyone \
             could store games. Set a token (ANQI_TOKEN=… or --token, e.g. `ANQI_TOKEN=$(head -c 24 \
             /dev/urandom | base64)`), or serve read-only (--read-only), or bind a loopback \
             address (--host 127.0.0.1).",
            config.host
        );
        std::process::exit(2);
    }
    let limits = api::Limits {
        max_body: config.max_body,
        max_json_depth: config.max_json_depth,
        max_plies: config.max_plies as usize,
    };
    let store =
        match records::store::Store::open_mapped(&config.database, config.sqlite_map_mib << 20) {
            Ok(store) => store,
            Err(e) => {
                tracing::error!(error = %e, "cannot open the record store");
                eprintln!("anqi-api: {e}");
                std::process::exit(2);
            }
        };
    tracing::info!(backend = store.backend(), "record store open");
    let keys = match seal_keys(&config, &store) {
        Ok(keys) => keys,
        Err(message) => {
            tracing::error!("{message}");
            eprintln!("anqi-api: {message}");
            std::process::exit(2);
        }
    };
    let referee_settings = records::referee::Settings {
        expiry_seconds: config.game_expiry,
        max_plies: config.max_plies,
        kept_games: config.kept_games,
        ..records::referee::Settings::default()
    };
    // One referee for every worker: its ledger is the store's.
    let referee = std::sync::Arc::new(records::referee::Referee::new(
        store.clone(),
        keys.clone(),
        referee_settings,
    ));
    let settings = api::Settings {
        limits,
        store: Some(store),
        token,
        read_only: config.read_only,
        keys,
        referee_settings,
        referee: Some(referee),
        pictures: api::pictures(config.picture_slots),
        explorer_slots: api::explorer_slots(config.explorer_slots),
        explorer_reads: api::explorer_reads(),
        explorer_filter_time: std::time::Duration::from_millis(config.explorer_filter_ms),
        replays: api::replays(),
        ratings: Default::default(),
        hub: Default::default(),
        heartbeat_seconds: config.stream_heartbeat,
        streams_per_seat: config.streams_per_seat as usize,
        engines: Default::default(),
        analyses: api::routes::analysis::Analyses::new(
            records::core::analysis::Limits {
                depth: Some(64),
                nodes: Some(config.analysis_nodes),
                millis: Some(config.analysis_millis),
            },
            config.analysis_slots.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1))
            }),
        ),
    };
    // Commits of the other instances sharing the store reach this one's streams and engines.
    let hub = settings.hub.clone();
    if records::store::listen(&config.database, move |game_id| hub.notify(game_id)).is_some() {
        tracing::info!("listening for the other instances' commits");
    }
    // The engine keeps its leases and takes up the seats no live instance plays (after a
    // restart, or another instance's death).
    let engines = settings.clone();
    let release = settings.clone();
    actix_web::rt::spawn(async move { api::autoplay::keep(&engines).await });
    // actix-web's `HttpServer` as it builds itself, but for the connection under HTTP/1
    // (`api::connection`: actix-http's own 431 made a problem like every other error).
    let listener = listen(std::net::SocketAddr::new(config.host, config.port))?;
    let addr = listener.local_addr()?;
    let (keep_alive, request_timeout) = (
        std::time::Duration::from_secs(config.keep_alive),
        std::time::Duration::from_millis(config.client_request_timeout),
    );
    let mut server = actix_server::Server::build()
        .shutdown_timeout(config.shutdown_timeout)
        .max_concurrent_connections(config.max_connections);
    if let Some(workers) = config.workers {
        server = server.workers(workers);
    }
    let shutdown = server.graceful_shutdown_signal();
    // Open event streams end when the shutdown starts: it need not wait for them.
    let (stopping, hub) = (shutdown.clone(), settings.hub.clone());
    actix_web::rt::spawn(async move {
        stopping.notified().await;
        hub.stop();
    });
    let server = server
        .listen("anqi-api", listener, move || {
            let app = api::app(settings.clone()).wrap_fn(|req, srv| {
                let (method, path) = (req.method().clone(), req.path().to_owned());
                let started = std::time::Instant::now();
                let response = srv.call(req);
                async move {
                    let response = response.await?;
                    let status = response.status().as_u16();
                    let micros = started.elapsed().as_micros() as u64;
                    if status >= 500 {
                        tracing::error!(%method, path, status, micros, "request");
                    } else if status >= 400 {
                        tracing::warn!(%method, path, status, micros, "request");
                    } else {
                        tracing::info!(%method, path, status, micros, "request");
                    }
                    Ok(response)
                }
            });
            let shutdown = shutdown.clone();
            let http = actix_http::HttpService::build()
                // Kept-alive connections close when the server stops.
                .graceful_shutdown_signal(move || {
                    let shutdown = shutdown.clone();
                    async move { shutdown.notified().await }
                })
                .keep_alive(keep_alive)
                .client_request_timeout(request_timeout)
                // As `HttpServer`: a second for a closing client to read the last answer.
                .client_disconnect_timeout(std::time::Duration::from_secs(1))
                .local_addr(addr)
                // Each connection's socket, for jobs that stop when their client goes away.
                .on_connect_ext(api::slots::remember_peer)
                // The app's default configuration (its host is only read for a request without
                // a `Host` header, and by `url_for`, which the service does not use).
                .h1(actix_service::map_config(app, |_| {
                    actix_web::dev::AppConfig::default()
                }));
            use actix_service::ServiceFactoryExt;
            actix_service::fn_service(|stream: actix_web::rt::net::TcpStream| {
                let peer = stream.peer_addr().ok();
                std::future::ready(Ok::<_, actix_http::error::DispatchError>((
                    api::connection::Connection::new(stream),
                    peer,
                )))
            })
            .and_then(http)
        })?
        .run();
    // Tests and scripts read this line to find the port.
    println!("anqi-api listening on http://{addr}");
    tracing::info!(%addr, docs = %format!("http://{addr}/docs/"), "listening");
    server.await?;
    // Another instance may take this one's engine seats over at once.
    if let Some(referee) = &release.referee {
        let _ = referee.engine_release_all(release.engines.holder());
    }
    tracing::info!("stopped");
    Ok(())
}

/// A listening socket as actix-web's `HttpServer` makes one: the address reusable at once
/// after a restart, and a backlog of 1,024 connections.
fn listen(addr: std::net::SocketAddr) -> std::io::Result<std::net::TcpListener> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::for_address(addr), Type::STREAM, Some(Protocol::TCP))?;
    socket.set_reuse_address(true)?;
    socket.bind(&addr.into())?;
    socket.listen(1024)?;
    Ok(socket.into())
}
