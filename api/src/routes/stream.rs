//! A seat's event stream (Server-Sent Events): `POST /v1/stream-ticket` trades a token for a
//! short-lived ticket, `GET /v1/stream?ticket=…` opens the stream. What the events hold is
//! `records::referee::stream`'s; here they are written as `text/event-stream`, one task per
//! stream, woken by the game's commits (the hub), its heartbeat and its running clock.

use std::time::Duration;

use actix_web::web::{self, Bytes};
use actix_web::{HttpRequest, HttpResponse};
use futures_channel::mpsc;
use records::core::Rules;
use std::sync::Arc;

use records::referee::{Referee, RefereeError, StreamMark, StreamReplay};
use records::with_game;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::{IntoParams, ToSchema};

use crate::Settings;
use crate::body::GameJson;
use crate::hub::{Hub, OpenStream, Reader, Refused, SharedRead, Watch};
use crate::problem::{Problem, ProblemKind};
use crate::routes::parse::default_game;
use crate::routes::referee;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TicketRequest {
    /// The kind of game (default `banqi`).
    #[serde(default = "default_game")]
    #[schema(value_type = records::games::GameKind, default = records::games::GameKind::default_name)]
    pub game: String,
    /// The game id from `POST /v1/deal`.
    #[schema(example = "9f2c4e1a7b3d5f60a1b2c3d4e5f60718")]
    pub game_id: String,
    /// A seat's token (its seat's stream) or the game's own (the positions as the seat to move
    /// is told them, each seat's life).
    #[schema(example = "v1.ephemeral.q0Jb-token-from-deal")]
    pub token: String,
}

#[derive(Serialize, ToSchema)]
pub struct TicketResponse {
    /// The ticket: opens the stream until `expires_at_ms`, and nothing else.
    pub ticket: String,
    /// When the ticket stops opening streams (Unix milliseconds; a minute after it was
    /// given). A stream it opened goes on.
    pub expires_at_ms: i64,
    /// The stream's address with the ticket, for `new EventSource(url)`.
    pub url: String,
}

impl crate::body::GameBody for TicketRequest {
    fn game(&self) -> &str {
        &self.game
    }
}

fn ticket_example() -> Value {
    json!({"game_id": "9f2c4e1a7b3d5f60a1b2c3d4e5f60718", "token": "v1.ephemeral.q0Jb-token-from-deal"})
}

fn ticket_response_example() -> Value {
    let game = records::games::GameKind::default_name();
    json!({"ticket": "v1.ephemeral.Zm9yIGEgbWludXRlIG9ubHk", "expires_at_ms": 1_795_000_060_000_i64,
           "url": format!("/v1/stream?game={game}&game_id=9f2c4e1a7b3d5f60a1b2c3d4e5f60718&ticket=v1.ephemeral.Zm9yIGEgbWludXRlIG9ubHk")})
}

/// A ticket for a seat's event stream (`GET /v1/stream`). A browser's `EventSource` cannot
/// send headers, and a token in a URL would sit in logs for ever: the client posts its token
/// here and opens the stream with the ticket, which opens that seat's stream (what the seat
/// may see, nothing it may do) for a minute. A stream outlives its ticket; to reconnect later,
/// ask for another.
#[utoipa::path(post, path = "/v1/stream-ticket", tag = "positions",
    request_body(content = TicketRequest, example = ticket_example),
    responses(
        (status = 200, description = "The ticket.", body = TicketResponse, example = ticket_response_example),
        (status = 400, description = "Malformed JSON.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game in the ledger.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A token that does not open for the game.", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The referee's ledger cannot be reached.", body = Problem, content_type = "application/problem+json")))]
pub async fn ticket(
    GameJson {
        kind,
        body: request,
    }: GameJson<TicketRequest>,
    settings: web::Data<Settings>,
) -> Result<web::Json<TicketResponse>, Problem> {
    let name = kind.name();
    referee::run(&settings, move |r| {
        let (ticket, expires_at_ms) =
            with_game!(kind, G => r.ticket::<G>(&request.game_id, &request.token))?;
        let url = format!(
            "/v1/stream?game={name}&game_id={}&ticket={ticket}",
            request.game_id
        );
        Ok(TicketResponse {
            ticket,
            expires_at_ms,
            url,
        })
    })
    .await
    .map(web::Json)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// The kind of game (default `banqi`).
    #[serde(default = "default_game")]
    #[param(value_type = records::games::GameKind, example = records::games::GameKind::default_name)]
    pub game: String,
    /// The game id from `POST /v1/deal`.
    #[param(example = "9f2c4e1a7b3d5f60a1b2c3d4e5f60718")]
    pub game_id: String,
    /// A ticket from `POST /v1/stream-ticket`.
    #[param(example = "v1.ephemeral.Zm9yIGEgbWludXRlIG9ubHk")]
    pub ticket: String,
    /// Where to resume (an event's `id`, as the `Last-Event-ID` header says it; the header
    /// wins).
    #[serde(default)]
    #[param(example = "12.1")]
    pub last_event_id: Option<String>,
}

/// One Server-Sent Event of a stream, as an SSE parser gives it.
#[allow(dead_code)]
#[derive(ToSchema)]
pub struct StreamEvent {
    /// Where the event leaves the seat: plies and events seen (`12.1`); send it back as
    /// `Last-Event-ID` to resume.
    #[schema(example = "12.1", pattern = r"^[0-9]+\.[0-9]+$")]
    pub id: String,
    /// `state`, `ply` or `life`.
    #[schema(example = "ply")]
    pub event: String,
    /// One line of JSON: a `StreamEventData`.
    pub data: String,
}

/// The JSON of one event's `data` (the fields an event kind has; see `GET /v1/stream`).
#[allow(dead_code)]
#[derive(ToSchema)]
pub struct StreamEventData {
    /// `state`, `ply`: the plies committed; `life`: the plies committed before the event.
    pub ply: u32,
    /// `state`, `ply`: the position after the ply as the seat is told it.
    pub position: Option<String>,
    /// `state`, `ply`: whose turn.
    pub to_move: Option<records::core::Seat>,
    /// `ply` (and `state`, of the last ply): the action as every seat saw it: as played in
    /// every game but dark Luzhanqi, whose moves are told as their points and an attack's
    /// outcome (`b5-b6:win`, `b5-b6:loss`, `b5-b6:both`).
    pub action: Option<String>,
    /// `state`, `ply`: the seat's side once the game gives it one (Banqi: `red` or `black`
    /// from the first flip; Three Kingdoms: its faction).
    pub side: Option<String>,
    /// `state`: the players' names, by seat, as dealt.
    pub players: Option<Vec<String>>,
    /// `state`, the last `ply`: the seat's legal actions, on its turn.
    pub actions: Option<Vec<String>>,
    /// How the game ended, once it has.
    pub end: Option<records::core::End>,
    /// `life`: `draw_offer`, `draw_decline`, `draw_agreed`, `resign`, `abort`, `flag`,
    /// `claim`.
    pub event: Option<String>,
    /// `life`: whose event.
    pub seat: Option<records::core::Seat>,
    /// `life`: when it was committed (Unix milliseconds).
    pub at_ms: Option<i64>,
    /// The game's life now (clocks, offers, status).
    pub life: records::referee::LifeState,
}

fn stream_example() -> &'static str {
    "id: 2.0\nevent: state\ndata: {\"ply\":2,\"position\":\"XXXX/XXXX/XXXX/XgXX/rXXX/XXXX/XXXX/XXXX r K1G2M2R2N2C2P5k1g1m2r1n2c2p5 0 2\",\"to_move\":\"player1\",\"side\":\"red\",\"action\":\"a4(r)\",\"actions\":[\"a1\",\"b1\"],\"players\":[\"ann\",\"bo\"],\"life\":{\"status\":\"playing\",\"draw_offers\":[],\"abortable\":false,\"events\":0}}\n\n…"
}

/// A seat's event stream of a refereed game, as Server-Sent Events: each ply committed, as
/// the seat may know it (`ply`), each event of the game's life (`life`: offers, declines, the
/// ending), the clocks in each; first where the game stands (`state`), or, given
/// `Last-Event-ID`, every event since that id. A comment line every 15 s keeps it open; it
/// closes after the game's end. With JavaScript:
/// `new EventSource((await post("/v1/stream-ticket", {game_id, token})).url)`.
#[utoipa::path(get, path = "/v1/stream", tag = "positions", params(StreamQuery),
    responses(
        (status = 200, description = "The stream (`text/event-stream`): each event's `data` is one line of JSON.", body = StreamEvent, content_type = "text/event-stream", example = stream_example),
        (status = 400, description = "A parameter missing or malformed.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game in the ledger.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "A ticket that does not open for the game, has expired, or has opened a stream already.", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "The seat has as many streams of the game open as it may (`--streams-per-seat`); `Retry-After` says when to try again.", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "The referee's ledger cannot be reached.", body = Problem, content_type = "application/problem+json")))]
pub async fn stream(
    req: HttpRequest,
    query: web::Query<StreamQuery>,
    settings: web::Data<Settings>,
) -> Result<HttpResponse, Problem> {
    let query = query.into_inner();
    let kind = crate::routes::parse::game_kind(&query.game)?;
    let last = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .or(query.last_event_id);
    let mark = last.and_then(|id| id.parse::<StreamMark>().ok());
    let referee = referee::the_referee(&settings)?;
    let (tx, rx) = mpsc::channel::<Result<Bytes, actix_web::Error>>(STREAM_CHUNKS);
    let hub = settings.hub.clone();
    let game_id = query.game_id;
    let ticket = query.ticket;
    with_game!(kind, G => {
        // Subscribed before the first read: a commit between the two wakes the stream.
        let watch = hub.subscribe(&game_id);
        let opened = {
            let (referee, game_id, ticket) = (referee.clone(), game_id.clone(), ticket.clone());
            web::block(move || -> Result<_, Problem> {
                let (token, expires) = referee.open_ticket::<G>(&game_id, &ticket)?;
                let first = read::<G>(&referee, &game_id, &token, mark)?;
                Ok((token, expires, first))
            })
            .await
            .map_err(|e| Problem::new(ProblemKind::Internal, e.to_string()))??
        };
        let (token, expires, first) = opened;
        let cap = settings.streams_per_seat;
        let open = hub
            .open_stream(&game_id, first.seat, cap, &ticket, expires, referee.now_ms())
            .map_err(|refused| match refused {
                Refused::Cap(cap) => Problem::new(
                    ProblemKind::TooManyStreams,
                    format!(
                        "this seat has {cap} streams of this game open here already \
                         (--streams-per-seat): close one, or try again later"
                    ),
                )
                .retry_after(5),
                Refused::Spent => Problem::new(
                    ProblemKind::InvalidToken,
                    "this ticket has opened a stream already: a ticket opens one stream; \
                     ask POST /v1/stream-ticket for another",
                ),
            })?;
        let stream = Pump {
            replays: settings.replays.clone(),
            peer: crate::slots::Peer::of(&req),
            referee,
            hub,
            game_id,
            token,
            reader: first.seat,
            heartbeat: Duration::from_secs(settings.heartbeat_seconds.max(1)),
            _open: open,
        };
        actix_web::rt::spawn(stream.run::<G>(first, watch, tx));
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("cache-control", "no-cache"))
        .insert_header(("x-accel-buffering", "no"))
        .streaming(rx))
}

/// What a read of the game gives a stream: its new events as text (written after the game's
/// lock was let go), where they leave it, and a replay when it is further behind.
struct Read<G: Rules> {
    text: String,
    mark: StreamMark,
    over: bool,
    flag_at_ms: Option<i64>,
    expires_at_ms: i64,
    seat: Reader,
    /// Boxed: a stream's task holds a read across its waits, and most have no replay.
    replay: Option<Box<StreamReplay<G>>>,
}

fn read<G: Rules>(
    referee: &Referee,
    game_id: &str,
    token: &str,
    mark: Option<StreamMark>,
) -> Result<Read<G>, RefereeError> {
    let read = referee.open::<G, _>(game_id, token, |game| game.stream_read(mark))?;
    Ok(Read {
        text: read.events.iter().map(|e| e.sse()).collect(),
        mark: read.mark,
        over: read.over,
        flag_at_ms: read.flag_at_ms,
        expires_at_ms: read.expires_at_ms,
        seat: read.seat,
        replay: read.replay.map(Box::new),
    })
}

/// One open stream: its game, the token its ticket held, the seat that token speaks for.
struct Pump {
    referee: Arc<Referee>,
    hub: Arc<Hub>,
    game_id: String,
    token: String,
    reader: Reader,
    heartbeat: Duration,
    /// The threads a replay runs on.
    replays: crate::slots::Slots,
    /// The stream's connection: a client that closed it is gone at the next wake, without
    /// waiting for a write to fail.
    peer: Option<crate::slots::Peer>,
    /// Counted against the seat's cap until the stream ends.
    _open: OpenStream,
}

/// What a stream does after a wake.
enum Next<G: Rules> {
    /// Send this read (shared with the seat's other streams at the same mark).
    Shared(Arc<SharedRead>),
    /// Replay from far behind, then read again.
    Replay(Read<G>),
    /// The game is gone (expired and forgotten): the stream ends.
    Gone,
    /// The store is away: try again at the next wake.
    Later,
}

impl Pump {
    /// Sends the stream's events until its game is over or expires, or its client goes: it
    /// wakes on a commit (the hub), on its heartbeat (it then looks too, should a notice have
    /// been lost), when the running clock's flag falls (the read lets it fall) and when the
    /// game would expire.
    async fn run<G: Rules>(
        self,
        first: Read<G>,
        mut watch: Watch,
        mut tx: mpsc::Sender<Result<Bytes, actix_web::Error>>,
    ) {
        let (mut mark, mut over) = (first.mark, first.over);
        let (mut flag_at, mut expires_at) = (first.flag_at_ms, first.expires_at_ms);
        if send(&mut tx, first.text).await.is_err() {
            return;
        }
        // A read is due at once (after a replay) rather than at the next wake.
        let mut due = false;
        if let Some(replay) = first.replay {
            let Some(at) = Box::pin(self.replay::<G>(replay, &mut tx)).await else {
                return;
            };
            (mark, due) = (at, true);
        }
        loop {
            if over && !due {
                return;
            }
            // The wake was a commit's notice: a read the seat's other streams made since may
            // be shared. A timer's wake (a heartbeat, the running clock's flag, the expiry) and
            // a read due after a replay read the game itself: that read lets a flag fall.
            let by_notice = !due
                && {
                    let now = self.referee.now_ms();
                    if now >= expires_at {
                        // Left unplayed past --game-expiry: the game is forgotten, its stream ends.
                        return;
                    }
                    let until = |at: i64| Duration::from_millis((at - now).max(0) as u64 + 5);
                    let until_flag = flag_at.map(until);
                    // A commit's notice (the hub's, 1 ms after the commit), the heartbeat, the
                    // running clock's flag, or the game's expiry.
                    let (notice, heartbeat) = tokio::select! {
                        changed = watch.receiver().changed() => if changed.is_err() { return } else { (true, false) },
                        _ = tokio::time::sleep(self.heartbeat) => (false, true),
                        _ = tokio::time::sleep(until_flag.unwrap_or(Duration::MAX / 4)), if until_flag.is_some() => (false, false),
                        _ = tokio::time::sleep(until(expires_at)) => (false, false),
                        // The service stops: the page reconnects and resumes from its mark.
                        _ = self.hub.stopped() => return,
                    };
                    if heartbeat && send(&mut tx, ": heartbeat\n\n".to_owned()).await.is_err() {
                        return;
                    }
                    notice
                };
            due = false;
            if tx.is_closed() || self.peer.is_some_and(crate::slots::Peer::gone) {
                return;
            }
            let version = *watch.receiver().borrow_and_update();
            match self.next::<G>(mark, version, by_notice).await {
                Next::Gone => return,
                Next::Later => {}
                Next::Shared(read) => {
                    (mark, over) = (read.mark, read.over);
                    (flag_at, expires_at) = (read.flag_at_ms, read.expires_at_ms);
                    if !read.text.is_empty() && send(&mut tx, read.text.clone()).await.is_err() {
                        return;
                    }
                }
                Next::Replay(read) => {
                    (flag_at, expires_at) = (read.flag_at_ms, read.expires_at_ms);
                    let Some(replay) = read.replay else { continue };
                    let Some(at) = Box::pin(self.replay::<G>(replay, &mut tx)).await else {
                        return;
                    };
                    (mark, due) = (at, true);
                }
            }
        }
    }

    /// The read after `mark`: when `shared`, the seat's shared one if a stream of the seat
    /// made it at this mark since the hub's `version`th commit; else a read of the game
    /// (shared from then on).
    async fn next<G: Rules>(&self, mark: StreamMark, version: u64, shared: bool) -> Next<G> {
        let place = self.hub.reads(&self.game_id, self.reader);
        let mut last = place.lock().await;
        if let Some(read) = last.as_ref()
            && shared
            && read.from == mark
            && read.version >= version
        {
            return Next::Shared(read.clone());
        }
        let (referee, game_id, token) = (
            self.referee.clone(),
            self.game_id.clone(),
            self.token.clone(),
        );
        match web::block(move || read::<G>(&referee, &game_id, &token, Some(mark))).await {
            Ok(Ok(read)) if read.replay.is_some() => Next::Replay(read),
            Ok(Ok(read)) => {
                let shared = Arc::new(SharedRead {
                    from: mark,
                    version,
                    text: read.text,
                    mark: read.mark,
                    over: read.over,
                    flag_at_ms: read.flag_at_ms,
                    expires_at_ms: read.expires_at_ms,
                });
                *last = Some(shared.clone());
                Next::Shared(shared)
            }
            Ok(Err(RefereeError::NotFound(_))) => Next::Gone,
            _ => Next::Later,
        }
    }

    /// Sends a replay's pages, each once the stream's channel has room, in the seat's turn
    /// (one replay of a seat at a time: its memory is a few pages and one match, however many
    /// streams replay). Gives where it left the stream, or None when the stream ends.
    async fn replay<G: Rules>(
        &self,
        mut replay: Box<StreamReplay<G>>,
        tx: &mut mpsc::Sender<Result<Bytes, actix_web::Error>>,
    ) -> Option<StreamMark> {
        let turn = self.hub.replay_turn(&self.game_id, self.reader);
        let _turn = turn.lock().await;
        loop {
            let referee = self.referee.clone();
            // On the replay threads, at the lowest priority: the players' plays come first.
            let page = (self.replays)
                .run_when_free(move || {
                    let page = replay.page(&referee);
                    let text = page.map(|p| {
                        p.map(|events| events.iter().map(|e| e.sse()).collect::<String>())
                    });
                    (replay, text)
                })
                .await;
            let (back, text) = page.ok()?;
            replay = back;
            match text {
                // A client that takes no page for this long is let go: the seat's other
                // replays wait for this one.
                Ok(Some(text)) => tokio::time::timeout(REPLAY_PATIENCE, send(tx, text))
                    .await
                    .ok()?
                    .ok()?,
                Ok(None) => return Some(replay.mark()),
                // The game was forgotten, or the store is away: the client resumes later.
                Err(_) => return None,
            }
        }
    }
}

/// How long a replay waits for its client to take a page before it ends the stream.
const REPLAY_PATIENCE: Duration = Duration::from_secs(10);

/// How many chunks a stream holds that its client has not taken yet (a chunk is a read's events,
/// or a replay's page): what a slow client costs is bounded by it, whatever the game's length.
const STREAM_CHUNKS: usize = 8;

/// Sends on the stream's bounded channel, waiting while it is full (a slow client holds its
/// own task only); an error once the client has gone.
async fn send(
    tx: &mut mpsc::Sender<Result<Bytes, actix_web::Error>>,
    text: String,
) -> Result<(), mpsc::SendError> {
    std::future::poll_fn(|cx| tx.poll_ready(cx)).await?;
    tx.start_send(Ok(Bytes::from(text)))
}
