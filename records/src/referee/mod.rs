//! The referee of hidden games: it deals a game, keeps it in its **ledger** (the record store),
//! and answers each seat only what that seat may know.
//!
//! A referee cannot be stateless about commitments: once an answer reveals something (a flip,
//! an attack's result), the action that revealed it must be final. So the ledger holds each
//! dealt game (its id, ruleset, players, the hidden truth sealed under the seal key) and every
//! action committed in it, one per ply. A **token** is only a capability (this holder speaks for
//! this seat of this game, or for every seat: the game's own token, for the app's server): a
//! request with one names an action, or a committed ply to look at, never a history, a start or
//! rules of its own; whatever it states besides must agree with the ledger ([`Stated`]).
//!
//! What each seat is told: positions as it is told them ([`Truth::told`](crate::core::Truth::told)), its own legal
//! actions on its turn, problems that name nothing it cannot see. Whether an action is legal
//! never depends on what its seat cannot see: a seat plays an action as the legal actions list
//! it, and the referee writes in what it reveals.
//!
//! Every game is bounded: one its rules could let go on longer than the service's cap
//! (`--max-plies`) is dealt with that cap (`max_plies`, a draw by `ply_limit` there), and a
//! deal is checked whole (names, options, that its record can be stored) before anything is
//! written. When a game ends, its complete record (the layout is public then) is stored in the
//! store's games, and the ledger keeps only a pointer to it. Games left unplayed expire.
//!
//! A request costs the same whatever the game's length: the referee keeps recent games in
//! memory, replayed to their last committed ply ([`kept`]), and checks each against the
//! ledger's row.

mod deal;
mod engine_seats;
mod game;
mod kept;
mod life;
mod lifecycle;
mod stream;
pub mod table;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};

use serde_json::{Map, Value};
use thiserror::Error;

use crate::core::{Rules, RulesetError, Seat, Violation};
use crate::seal::{Binding, Keys, TokenError};
use crate::store::{Store, StoreError};

pub use deal::{DealOrder, Dealt, MAX_ENGINE_MS, MAX_NAME_CHARS, default_claim_after_ms};
pub use engine_seats::{ENGINE_LEASE_MS, engine_accepts_draw};
pub use game::{Actions, Played, Refereed, Stated};
pub use life::{Clocks, EventKind, LifeState, MAX_CLOCK_MS, Request, TimeControl};
pub use stream::{REPLAY_PAGE, StreamEvent, StreamMark, StreamRead, StreamReplay, TICKET_MS};

/// What the service's engine has to do in a game ([`Referee::engine_turn`]).
pub enum EngineTurn<G: Rules> {
    /// Play ply `ply + 1` for `seat`, thinking `millis`, from `m`.
    Move {
        seat: Seat,
        millis: u64,
        m: G::Match,
        ply: u32,
    },
    /// Answer another seat's standing draw offer for `seat` at ply `ply`, judging `m` for
    /// `millis` ([`crate::core::analysis::accepts_draw`]).
    AnswerDraw {
        seat: Seat,
        millis: u64,
        m: G::Match,
        ply: u32,
        seats: u8,
    },
    /// Another seat is to move; the game expires at `expires_at_ms` unless it moves first.
    Wait { expires_at_ms: i64 },
    /// The game is over.
    Over,
}

/// What is told the id of each game the referee commits in ([`Referee::on_commit`]).
type CommitListener = Box<dyn Fn(&str) + Send + Sync>;

/// How the referee runs.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Seconds after its last action that an unfinished game is forgotten (and a finished
    /// game's ledger row: its stored game stays).
    pub expiry_seconds: i64,
    /// The most plies a game may last: a game its rules could let go on longer is dealt
    /// with this cap (`max_plies`; at most 65,535).
    pub max_plies: u32,
    /// How many games are kept in memory between requests.
    pub kept_games: usize,
    /// The referee's clock, in Unix milliseconds: the plies' and events' times, the clocks,
    /// claims and expiry read it. The system's; a test may fix it (a transcript then holds
    /// the same times whatever the machine's speed).
    pub now_ms: fn() -> i64,
}

impl Default for Settings {
    /// A week; 20,000 plies (the service's `--max-plies`); 4,096 games kept.
    fn default() -> Settings {
        Settings {
            expiry_seconds: 7 * 24 * 3600,
            max_plies: 20_000,
            kept_games: 4096,
            now_ms: crate::store::unix_now_ms,
        }
    }
}

impl Settings {
    /// The cap as a ruleset holds it.
    pub fn cap(&self) -> u16 {
        self.max_plies.clamp(1, u16::MAX as u32) as u16
    }
}

/// The referee: the store holding its ledger, the keys it seals with, and the games it keeps
/// in memory.
pub struct Referee {
    store: Store,
    keys: Keys,
    settings: Settings,
    recent: kept::Recent,
    /// When expired games were last swept (Unix seconds).
    last_sweep: AtomicI64,
    /// Told each committed game's id, after the commit (the service's streams).
    on_commit: std::sync::OnceLock<CommitListener>,
}

/// Why the referee refuses a request. Every message names only what the asking seat may know.
#[derive(Debug, Error)]
pub enum RefereeError {
    /// No game with this id is in the ledger.
    #[error(
        "no game {} is refereed here: an unknown id, or a game left unplayed long enough to expire",
        shown_id(.0)
    )]
    NotFound(String),
    /// No table with this id is in the store.
    #[error("no table {} is kept here: an unknown id", shown_id(.0))]
    NoTable(String),
    /// The token is not this game's (nor one of its seats').
    #[error("{0}")]
    Token(#[from] TokenError),
    /// The request states something (a history, a start, rules) other than the ledger's.
    #[error("{detail}")]
    Conflict { field: &'static str, detail: String },
    /// Another action is already committed at the ply the request means.
    #[error("{detail}")]
    AlreadyPlayed { ply: u32, detail: String },
    /// A seat token used for another seat, or out of its turn.
    #[error("{0}")]
    WrongSeat(String),
    /// The action is not legal (`position` is what the seat is told of the position).
    #[error("{detail}")]
    Illegal {
        violation: Violation,
        detail: String,
        action: String,
        position: String,
    },
    /// The action does not follow the game's notation.
    #[error("{0}")]
    MalformedAction(String),
    /// A deal's preset and options do not make a ruleset.
    #[error("{0}")]
    Ruleset(RulesetError),
    /// A deal's given hidden truth (Luzhanqi's setups) is not one.
    #[error("{0}")]
    Layout(String),
    /// A deal the referee cannot keep as asked (`field` names what).
    #[error("{detail}")]
    Deal { field: &'static str, detail: String },
    /// A seat the game does not have.
    #[error("{0}")]
    NoSuchSeat(String),
    /// The game's life refuses the request as the game stands (`code`: `game-over`,
    /// `no-draw-offer`, `offered-already`, `not-abortable`, `no-claims`, `not-claimable`,
    /// `out-of-game`).
    #[error("{detail}")]
    Refused { code: &'static str, detail: String },
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The game has no engine to analyse it with.
    #[error("{0}")]
    Analysis(#[from] crate::core::analysis::AnalysisError),
    /// The ledger holds what the referee cannot replay or store: a bug, never the client's
    /// doing.
    #[error("the ledger's game {0} does not replay")]
    Corrupt(String),
}

/// A game id as a message shows it: ids are 32 hexadecimal digits, and a message never
/// echoes more than that of what a client sent.
fn shown_id(id: &str) -> String {
    const SHOWN: usize = 32;
    if id.chars().count() <= SHOWN {
        format!("{id:?}")
    } else {
        let cut: String = id.chars().take(SHOWN).collect();
        format!("{cut:?}… ({} characters)", id.chars().count())
    }
}

impl Referee {
    pub fn new(store: Store, keys: Keys, settings: Settings) -> Referee {
        Referee {
            recent: kept::Recent::new(settings.kept_games),
            store,
            keys,
            settings,
            last_sweep: AtomicI64::new(0),
            on_commit: std::sync::OnceLock::new(),
        }
    }

    /// Has `on` told the id of every game in which this referee commits a ply or an event,
    /// once the commit holds (set once: the service's event streams). Commits of other
    /// instances reach them through the store ([`crate::store::listen`]).
    pub fn on_commit(&self, on: impl Fn(&str) + Send + Sync + 'static) {
        let _ = self.on_commit.set(Box::new(on));
    }

    /// Tells the listener that `game_id` moved on.
    pub(crate) fn committed(&self, game_id: &str) {
        if let Some(on) = self.on_commit.get() {
            on(game_id);
        }
    }

    /// Runs `work` on the ledger's game `game_id` of `G` for the holder of `token` (the
    /// game's own token, for every seat, or a seat's), the game locked on this instance while
    /// it runs: what `work` judges and commits sees one state.
    pub fn open<G: Rules, T>(
        &self,
        game_id: &str,
        token: &str,
        work: impl FnOnce(&mut Refereed<'_, G>) -> Result<T, RefereeError>,
    ) -> Result<T, RefereeError> {
        let row = self.row(game_id)?;
        let binding = |seat: Option<&'static str>| Binding {
            game: &row.game,
            preset: &row.preset,
            game_id,
            seat,
        };
        let seat = match self.keys.check_token(token, binding(None)) {
            Ok(()) => None,
            Err(game_token) => Some(
                Seat::all(crate::core::MAX_SEATS as u8)
                    .find(|seat| {
                        self.keys
                            .check_token(token, binding(Some(seat.code())))
                            .is_ok()
                    })
                    .ok_or(game_token)?,
            ),
        };
        self.open_as(row, seat, work)
    }

    /// Runs `work` on the ledger's game `row` for `seat` (None: every seat), the game
    /// locked: [`Referee::open`] once the token says who speaks, and the service's engine
    /// for its own seats.
    pub(crate) fn open_as<G: Rules, T>(
        &self,
        mut row: crate::store::LedgerRow,
        seat: Option<Seat>,
        work: impl FnOnce(&mut Refereed<'_, G>) -> Result<T, RefereeError>,
    ) -> Result<T, RefereeError> {
        let game_id = row.game_id.clone();
        let game_id = game_id.as_str();
        // The token is the game's: only now may its holder learn what kind of game it is.
        if row.game != G::NAME {
            return Err(RefereeError::Conflict {
                field: "game",
                detail: format!("game {game_id} is a {} game, not {}", row.game, G::NAME),
            });
        }
        // Only a game a token opened gets a place among the kept ones: made-up ids push no
        // game out.
        let slot = self.recent.slot::<G>(game_id);
        let mut guard = kept::lock(&slot);
        let in_step = match guard.as_mut() {
            Some(kept) => {
                if kept.plies > row.plies as u32 || kept.life.events.len() > row.events as usize {
                    // This instance committed (a ply or an event) since the row was read:
                    // read it again, or the game would be loaded again as the older row says.
                    row = self.row(game_id)?;
                }
                // A game that cannot be brought up to date is loaded again (whatever failed
                // fails there too, and nothing half-played stays kept).
                kept.in_step_with(&row) || kept.catch_up(self, &row).unwrap_or(false)
            }
            None => false,
        };
        if !in_step {
            *guard = None;
            // Loaded from the row as it is now, under the lock: a row read before a commit
            // of this instance finished (a game stored and its ledger rows compacted since)
            // would load a game that is no longer there.
            row = self.row(game_id)?;
            *guard = Some(kept::Kept::load(self, &row)?);
        }
        let kept = guard.as_mut().expect("loaded");
        if row.result.is_some() && row.stored_game.is_none() && kept.finished.is_none() {
            // It ended, but storing its record did not happen (the process stopped between
            // the two)? Asked again under the lock: the row may have been read before this
            // instance stored it. Then store it now (storing is idempotent).
            let now = self.row(game_id)?;
            if now.result.is_some() && now.stored_game.is_none() {
                self.store_finished(kept)?;
            }
        }
        let expires_at_ms = (row.updated_at + self.settings.expiry_seconds) * 1000;
        let mut game = Refereed::new(self, kept, seat, expires_at_ms);
        // A clock that ran out ends the game before anything is asked of it.
        if let Err(e) = game.fall_flag() {
            *guard = None;
            return Err(e);
        }
        let answer = work(&mut game);
        if game.in_doubt() {
            // A play changed the match and was not committed: replay it next time.
            *guard = None;
        }
        answer
    }

    /// The ledger's row of `game_id`.
    pub(crate) fn row(&self, game_id: &str) -> Result<crate::store::LedgerRow, RefereeError> {
        self.store
            .ledger_row(game_id)?
            .ok_or_else(|| RefereeError::NotFound(game_id.to_owned()))
    }

    /// The id of `game_id`'s stored game, once it has ended and is stored (its record is then
    /// public, as every stored game's is).
    pub fn stored_game(&self, game_id: &str) -> Result<Option<i64>, RefereeError> {
        Ok(self.row(game_id)?.stored_game)
    }

    /// Stores a finished game's record in the store's games, compacts its ledger row, and
    /// marks the kept game stored (its actions now the record's).
    fn store_finished<G: Rules>(&self, kept: &mut kept::Kept<G>) -> Result<(), RefereeError> {
        // Another instance that had the game open may have stored it first (and compacted
        // the ledger): its stored game stands, and this instance's copy takes its actions.
        if let Some(actions) = kept.stored_since(self)? {
            if actions.len() != kept.plies as usize {
                return Err(kept.corrupt());
            }
            kept.finished = Some(std::sync::Arc::new(actions));
            return Ok(());
        }
        let record = game::finished_record(self, kept)?;
        if record.actions.len() != kept.plies as usize {
            // The ledger's actions are gone (stored and compacted by a request this one did
            // not see): never store a game short of its plies.
            return Err(kept.corrupt());
        }
        let game_id = kept.game_id.clone();
        let actions = record.actions.clone();
        let imported = self.store.import(&[crate::store::Incoming {
            record,
            source: format!("referee:{game_id}"),
        }])?;
        match imported.first() {
            Some(
                crate::store::Imported::Stored { id, .. }
                | crate::store::Imported::Duplicate { id, .. },
            ) => {
                self.store.ledger_compact(&game_id, *id)?;
                kept.finished = Some(std::sync::Arc::new(actions));
                Ok(())
            }
            _ => Err(RefereeError::Corrupt(game_id)),
        }
    }

    /// A game dealt before the referee capped its games (options without the cap its rules
    /// need) gets the cap now, once, in the ledger: the service's, or one ply after those
    /// already played when it is past it (it then ends at its next ply). Gives the options.
    fn cap_dealt_before_caps<G: Rules>(
        &self,
        row: &crate::store::LedgerRow,
        preset: &'static str,
        mut options: Map<String, Value>,
    ) -> Result<Map<String, Value>, RefereeError> {
        let corrupt = || RefereeError::Corrupt(row.game_id.clone());
        let rules =
            crate::core::rules::ruleset::<G>(Some(preset), &options).map_err(|_| corrupt())?;
        if row.stored_game.is_some() || row.result.is_some() || G::longest(&rules).is_some() {
            return Ok(options);
        }
        let cap = (self.settings.cap() as u32).max(row.plies as u32 + 1);
        options.insert("max_plies".into(), Value::from(cap.min(u16::MAX as u32)));
        let capped = deal::canonical_options::<G>(&options)?;
        if !self
            .store
            .ledger_set_options(&row.game_id, &row.options, &capped)?
        {
            // Another instance capped it first: its options stand.
            let row = self.row(&row.game_id)?;
            return serde_json::from_str(&row.options).map_err(|_| corrupt());
        }
        Ok(options)
    }

    /// Now, by the referee's clock (Unix milliseconds).
    pub fn now_ms(&self) -> i64 {
        (self.settings.now_ms)()
    }

    /// Forgets expired games, at most once a minute.
    fn sweep(&self) -> Result<(), RefereeError> {
        let now = self.now_ms() / 1000;
        let last = self.last_sweep.load(Ordering::Relaxed);
        if now - last < 60
            || self
                .last_sweep
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return Ok(());
        }
        self.store
            .ledger_expire(now - self.settings.expiry_seconds)?;
        Ok(())
    }

    /// One token per seat of a game, and the game's own.
    fn tokens<G: Rules>(
        &self,
        rules: &G::Ruleset,
        preset: &'static str,
        game_id: &str,
    ) -> (String, BTreeMap<String, String>) {
        let binding = |seat: Option<&'static str>| Binding {
            game: G::NAME,
            preset,
            game_id,
            seat,
        };
        let seats = Seat::all(G::seats(rules))
            .map(|seat| {
                let code = seat.code();
                (code.to_owned(), self.keys.token(binding(Some(code))))
            })
            .collect();
        (self.keys.token(binding(None)), seats)
    }
}
