//! Where a commit meets the streams waiting for it: one watch channel per game with a stream
//! (or an engine task) open, poked after every commit this instance makes (the referee's
//! `on_commit`) and every commit another instance makes (`records::store::listen`: PostgreSQL's
//! notices, or a SQLite file's changes). A poke carries nothing but a count: each stream reads
//! what its own seat may know from the referee.
//!
//! The hub also keeps what makes many streams cheap and bounded: the streams open on each
//! seat (a cap, past which a stream is refused), the tickets already spent (a ticket opens one
//! stream), and each seat's last read, which every stream of that seat at the same mark
//! shares (one read of the game per seat and commit, however many streams watch).
//! A game is forgotten when its last stream and task are gone.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use records::core::Seat;
use records::referee::StreamMark;
use tokio::sync::watch;

#[derive(Default)]
pub struct Hub {
    games: Arc<Mutex<HashMap<String, Game>>>,
    /// Tickets that opened a stream, with when they expire (Unix milliseconds).
    spent: Mutex<HashMap<String, i64>>,
    /// The notices on their way to the games' watchers ([`Hub::notify`]).
    notices: Mutex<Option<std::sync::mpsc::Sender<String>>>,
    /// Set once the service stops ([`Hub::stop`]): every stream then ends, so that a graceful
    /// shutdown does not wait its whole timeout for them (a page reconnects to another
    /// instance, or to this one restarted, and resumes where it was).
    stopping: StopSignal,
}

/// Whether the service is stopping: a watch that turns true once.
pub struct StopSignal(watch::Sender<bool>);

impl Default for StopSignal {
    fn default() -> StopSignal {
        StopSignal(watch::channel(false).0)
    }
}

impl Hub {
    /// The service stops: every open stream ends.
    pub fn stop(&self) {
        self.stopping.0.send_replace(true);
    }

    /// Resolves once the service stops (at once when it has).
    pub async fn stopped(&self) {
        let mut rx = self.stopping.0.subscribe();
        let _ = rx.wait_for(|stopping| *stopping).await;
    }
}

/// How long a commit's notice waits before it wakes the game's watchers: the player whose
/// commit it is gets its answer first (a game's hundreds of streams would otherwise take the
/// cores while that answer is written), and the notices of that moment go out together.
pub const NOTICE_DELAY: std::time::Duration = std::time::Duration::from_millis(1);

/// Who reads: a seat, or the game's own token (None).
pub type Reader = Option<Seat>;

#[derive(Default)]
struct Game {
    /// The commits seen (the watch's value), when anything watches.
    tx: Option<watch::Sender<u64>>,
    /// Streams open per reader.
    streams: HashMap<Reader, usize>,
    /// Each reader's last read, shared by its streams.
    reads: HashMap<Reader, Arc<tokio::sync::Mutex<Option<Arc<SharedRead>>>>>,
    /// Each reader's turn to replay: one replay of a seat at a time holds a match.
    replays: HashMap<Reader, Arc<tokio::sync::Mutex<()>>>,
}

impl Game {
    fn idle(&self) -> bool {
        self.tx.as_ref().is_none_or(|tx| tx.receiver_count() == 0)
            && self.streams.values().all(|n| *n == 0)
    }
}

/// A read of a game for one reader from one mark: the events' text and where they leave it.
/// Every stream of that reader at that mark sends the same bytes.
pub struct SharedRead {
    /// The mark the read started from, and the commits the hub had seen before it.
    pub from: StreamMark,
    pub version: u64,
    pub text: String,
    pub mark: StreamMark,
    pub over: bool,
    pub flag_at_ms: Option<i64>,
    pub expires_at_ms: i64,
}

/// A receiver that changes whenever its game moves on; the hub forgets the game once the
/// last one is dropped (and no stream is open).
pub struct Watch {
    hub: Arc<Hub>,
    game_id: String,
    rx: Option<watch::Receiver<u64>>,
}

impl Watch {
    pub fn receiver(&mut self) -> &mut watch::Receiver<u64> {
        self.rx.as_mut().expect("held until dropped")
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let mut games = self.hub.lock();
        drop(self.rx.take());
        forget_if_idle(&mut games, &self.game_id);
    }
}

/// A stream counted against its reader's cap, given back when dropped.
pub struct OpenStream {
    hub: Arc<Hub>,
    game_id: String,
    reader: Reader,
}

impl Drop for OpenStream {
    fn drop(&mut self) {
        let mut games = self.hub.lock();
        if let Some(game) = games.get_mut(&self.game_id)
            && let Some(n) = game.streams.get_mut(&self.reader)
        {
            *n = n.saturating_sub(1);
        }
        forget_if_idle(&mut games, &self.game_id);
    }
}

/// Wakes the watchers of each game whose notice arrives, [`NOTICE_DELAY`] after the first of a
/// moment's notices; returns when the hub is gone.
fn deliver(games: &Mutex<HashMap<String, Game>>, receiver: &std::sync::mpsc::Receiver<String>) {
    let mut due = std::collections::HashSet::new();
    while let Ok(first) = receiver.recv() {
        std::thread::sleep(NOTICE_DELAY);
        due.insert(first);
        due.extend(receiver.try_iter());
        let games = games.lock().unwrap_or_else(|e| e.into_inner());
        for game_id in due.drain() {
            if let Some(tx) = games.get(&game_id).and_then(|g| g.tx.as_ref()) {
                tx.send_modify(|n| *n += 1);
            }
        }
    }
}

fn forget_if_idle(games: &mut HashMap<String, Game>, game_id: &str) {
    if games.get(game_id).is_some_and(Game::idle) {
        games.remove(game_id);
    }
}

/// Why a stream was not opened.
#[derive(Debug, PartialEq, Eq)]
pub enum Refused {
    /// The reader has `cap` streams open already.
    Cap(usize),
    /// The ticket opened a stream already.
    Spent,
}

impl Hub {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Game>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A receiver that changes whenever `game_id` moves on.
    pub fn subscribe(self: &Arc<Self>, game_id: &str) -> Watch {
        let mut games = self.lock();
        let game = games.entry(game_id.to_owned()).or_default();
        let rx = match &game.tx {
            Some(tx) => tx.subscribe(),
            None => {
                let (tx, rx) = watch::channel(0);
                game.tx = Some(tx);
                rx
            }
        };
        Watch {
            hub: self.clone(),
            game_id: game_id.to_owned(),
            rx: Some(rx),
        }
    }

    /// `game_id` moved on: its streams and tasks look, [`NOTICE_DELAY`] later (a thread of the
    /// hub's wakes them; it ends with the hub). A game nothing watches is not kept.
    pub fn notify(&self, game_id: &str) {
        if !self.lock().get(game_id).is_some_and(|g| g.tx.is_some()) {
            return;
        }
        let mut notices = self.notices.lock().unwrap_or_else(|e| e.into_inner());
        let sender = notices.get_or_insert_with(|| {
            let (sender, receiver) = std::sync::mpsc::channel::<String>();
            let games = self.games.clone();
            std::thread::Builder::new()
                .name("hub-notices".into())
                .spawn(move || deliver(&games, &receiver))
                .expect("a thread starts");
            sender
        });
        let _ = sender.send(game_id.to_owned());
    }

    /// Counts a stream of `reader` on `game_id` opened with `ticket` (expiring at
    /// `ticket_expires_ms`, now `now_ms`), unless the reader has `cap` open already or the
    /// ticket opened one before.
    pub fn open_stream(
        self: &Arc<Self>,
        game_id: &str,
        reader: Reader,
        cap: usize,
        ticket: &str,
        ticket_expires_ms: i64,
        now_ms: i64,
    ) -> Result<OpenStream, Refused> {
        let mut games = self.lock();
        let game = games.entry(game_id.to_owned()).or_default();
        let open = game.streams.entry(reader).or_default();
        let refused = if *open >= cap {
            Some(Refused::Cap(cap))
        } else {
            let mut spent = self.spent.lock().unwrap_or_else(|e| e.into_inner());
            if spent.len() >= 256 {
                spent.retain(|_, expires| *expires > now_ms);
            }
            match spent.insert(ticket.to_owned(), ticket_expires_ms) {
                Some(_) => Some(Refused::Spent),
                None => None,
            }
        };
        if let Some(refused) = refused {
            forget_if_idle(&mut games, game_id);
            return Err(refused);
        }
        *open += 1;
        Ok(OpenStream {
            hub: self.clone(),
            game_id: game_id.to_owned(),
            reader,
        })
    }

    /// The place of `reader`'s last read of `game_id` (the game is kept while the caller's
    /// stream is open).
    pub fn reads(
        &self,
        game_id: &str,
        reader: Reader,
    ) -> Arc<tokio::sync::Mutex<Option<Arc<SharedRead>>>> {
        let mut games = self.lock();
        let game = games.entry(game_id.to_owned()).or_default();
        game.reads.entry(reader).or_default().clone()
    }

    /// `reader`'s turn to replay `game_id` (held for a whole replay): the replays of one
    /// seat run one after the other, so that however many streams replay a long game, the
    /// service holds one match for them.
    pub fn replay_turn(&self, game_id: &str, reader: Reader) -> Arc<tokio::sync::Mutex<()>> {
        let mut games = self.lock();
        let game = games.entry(game_id.to_owned()).or_default();
        game.replays.entry(reader).or_default().clone()
    }

    /// How many games the hub keeps (a game nothing watches is forgotten).
    pub fn games(&self) -> usize {
        self.lock().len()
    }

    /// How many streams are open.
    pub fn streams(&self) -> usize {
        (self.lock().values())
            .map(|g| g.streams.values().sum::<usize>())
            .sum()
    }
}
