//! The service's engine in the seats a deal gave it (`engines`): one task per such game that
//! wakes on the game's commits (the hub) and plays when one of its seats is to move, through
//! the referee like any seat, the engine told only what its seat may know
//! (`records::referee::Referee::engine_turn`), its search in one of the analysis slots like
//! every other search.
//!
//! Instances sharing a store share the engine's games through a **lease** in the ledger:
//! a task plays only while its instance holds the game's lease, and [`keep`] renews all of
//! an instance's leases in one statement every second or so. When an instance dies, its
//! leases run out ([`ENGINE_LEASE_MS`]) and another instance's [`keep`] takes the games up;
//! a restarted service does the same. A task ends with its game, its expiry, or its lease.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::web;
use records::core::Rules;
use records::core::analysis::Limits;
use records::games::GameKind;
use records::referee::{ENGINE_LEASE_MS, EngineTurn, Referee, RefereeError, engine_accepts_draw};
use records::with_game;

use crate::Settings;

/// The engine on this instance: its name in the leases and the games it drives now.
pub struct Engines {
    holder: String,
    running: Mutex<HashSet<String>>,
    searches: AtomicU64,
}

impl Default for Engines {
    /// A new instance's engine, named at random.
    fn default() -> Engines {
        Engines {
            holder: format!("{:016x}", rand::random::<u64>()),
            running: Mutex::default(),
            searches: AtomicU64::new(0),
        }
    }
}

impl Engines {
    /// This instance's name in the leases.
    pub fn holder(&self) -> &str {
        &self.holder
    }

    /// How many games this instance's engine drives now.
    pub fn driving(&self) -> usize {
        self.running.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// How many moves this instance's engine has searched.
    pub fn searches(&self) -> u64 {
        self.searches.load(Ordering::Relaxed)
    }

    /// Marks `game_id` driven here; false when a task does already.
    fn start(&self, game_id: &str) -> bool {
        (self.running.lock().unwrap_or_else(|e| e.into_inner())).insert(game_id.to_owned())
    }

    fn stop(&self, game_id: &str) {
        (self.running.lock().unwrap_or_else(|e| e.into_inner())).remove(game_id);
    }
}

/// Starts the engine of game `game_id` (of `kind`) on the current runtime, unless this
/// instance drives it already.
pub fn drive(settings: &Settings, kind: GameKind, game_id: String) {
    let Some(referee) = settings.referee.clone() else {
        return;
    };
    if !settings.engines.start(&game_id) {
        return;
    }
    let task = Task {
        referee,
        settings: settings.clone(),
        game_id,
    };
    with_game!(kind, G => {
        actix_web::rt::spawn(task.run::<G>());
    })
}

/// Keeps this instance's leases alive and takes up the games whose engine no live instance
/// plays (dealt before a restart, or by an instance that died), for as long as the service
/// runs: every quarter of a lease.
pub async fn keep(settings: &Settings) {
    let Some(referee) = settings.referee.clone() else {
        return;
    };
    let every = Duration::from_millis(ENGINE_LEASE_MS as u64 / 4);
    loop {
        let (r, holder) = (referee.clone(), settings.engines.holder.clone());
        let unheld = web::block(move || {
            r.engine_renew(&holder)?;
            r.engine_games_unheld()
        })
        .await;
        if let Ok(Ok(games)) = unheld {
            for (game_id, game) in games {
                if let Ok(kind) = game.parse::<GameKind>() {
                    drive(settings, kind, game_id);
                }
            }
        }
        tokio::time::sleep(every).await;
    }
}

/// One game's engine task on this instance.
struct Task {
    referee: Arc<Referee>,
    settings: Settings,
    game_id: String,
}

impl Drop for Task {
    fn drop(&mut self) {
        self.settings.engines.stop(&self.game_id);
    }
}

/// What a task does next.
enum Step {
    Played,
    /// Another seat is to move: wait for a commit, or the game's expiry (Unix ms).
    Wait(i64),
    /// The game is over or expired, or another instance plays it: the task ends.
    Done,
    /// Refused (another commit came first) or the store is away: look again soon.
    Retry,
}

impl Task {
    async fn run<G: Rules>(self) {
        let mut watch = self.settings.hub.subscribe(&self.game_id);
        // Only the lease's holder plays: an instance that finds it held ends its task.
        if !matches!(self.lease(0).await, Ok(true)) {
            return;
        }
        loop {
            let mut until = Duration::from_secs(60);
            match self.step::<G>().await {
                Step::Played => continue,
                Step::Done => return,
                Step::Wait(expires_at_ms) => {
                    let left = expires_at_ms - self.referee.now_ms();
                    until = until.min(Duration::from_millis(left.max(0) as u64 + 50));
                }
                Step::Retry => tokio::time::sleep(Duration::from_millis(200)).await,
            }
            // A commit wakes it; a notice lost to a store outage is caught within the minute,
            // and the game's expiry (the next step then ends the task) when it comes.
            tokio::select! {
                changed = watch.receiver().changed() => if changed.is_err() { return },
                _ = tokio::time::sleep(until) => {}
            }
        }
    }

    async fn lease(&self, search_ms: u64) -> Result<bool, ()> {
        let (r, id, holder) = (
            self.referee.clone(),
            self.game_id.clone(),
            self.settings.engines.holder.clone(),
        );
        match web::block(move || r.engine_lease(&id, &holder, search_ms)).await {
            Ok(Ok(held)) => Ok(held),
            _ => Err(()),
        }
    }

    /// The limits of a search of `millis`, once this instance holds the game's lease for it;
    /// else what the task does instead (ends: another instance holds it; retries: the store
    /// is away).
    async fn search_limits(&self, millis: u64) -> Result<Limits, Step> {
        match self.lease(millis).await {
            Ok(true) => Ok(Limits {
                millis: Some(millis),
                ..Limits::default()
            }),
            Ok(false) => Err(Step::Done),
            Err(()) => Err(Step::Retry),
        }
    }

    /// Plays the engine's move if one of its seats is to move.
    async fn step<G: Rules>(&self) -> Step {
        let (r, id) = (self.referee.clone(), self.game_id.clone());
        let turn = match web::block(move || r.engine_turn::<G>(&id)).await {
            Ok(Ok(turn)) => turn,
            Ok(Err(RefereeError::NotFound(_))) => return Step::Done,
            _ => return Step::Retry,
        };
        let (seat, millis, m, ply) = match turn {
            EngineTurn::Over => return Step::Done,
            EngineTurn::Wait { expires_at_ms } => return Step::Wait(expires_at_ms),
            EngineTurn::AnswerDraw {
                seat,
                millis,
                m,
                ply,
                seats,
            } => return self.answer_draw::<G>(seat, millis, m, ply, seats).await,
            EngineTurn::Move {
                seat,
                millis,
                m,
                ply,
            } => (seat, millis, m, ply),
        };
        let limits = match self.search_limits(millis).await {
            Ok(limits) => limits,
            Err(step) => return step,
        };
        let slots = &self.settings.analyses.slots;
        self.settings
            .engines
            .searches
            .fetch_add(1, Ordering::Relaxed);
        let decided = slots
            .run_when_free(move || G::decide(&m, Some(seat), &limits))
            .await;
        let Ok(Ok(Some(action))) = decided else {
            return Step::Retry;
        };
        let (r, id) = (self.referee.clone(), self.game_id.clone());
        match web::block(move || r.engine_play::<G>(&id, seat, &action, ply)).await {
            Ok(Ok(_)) => Step::Played,
            _ => Step::Retry,
        }
    }

    /// Answers another seat's draw offer for the engine's `seat`: a search of its time a move
    /// judges it (`records::referee::engine_accepts_draw`, docs/engine.md).
    async fn answer_draw<G: Rules>(
        &self,
        seat: records::core::Seat,
        millis: u64,
        m: G::Match,
        ply: u32,
        seats: u8,
    ) -> Step {
        let limits = match self.search_limits(millis).await {
            Ok(limits) => limits,
            Err(step) => return step,
        };
        let judged = (self.settings.analyses.slots)
            .run_when_free(move || engine_accepts_draw::<G>(&m, seat, seats, &limits))
            .await;
        // A game without an engine's search (none here: every game has one) declines.
        let accept = matches!(judged, Ok(Ok(true)));
        let (r, id) = (self.referee.clone(), self.game_id.clone());
        match web::block(move || r.engine_answer_draw::<G>(&id, seat, accept, ply)).await {
            Ok(Ok(())) => Step::Played,
            _ => Step::Retry,
        }
    }
}
