//! The games the referee keeps in memory between requests, so that a request costs the same
//! at ply 5,000 as at ply 20: each is the ledger's game replayed to its last committed ply,
//! brought up to date with the plies another instance committed since (read from the ledger,
//! a few at most), and played on in place by this instance's commits. The ledger stays the
//! truth: every request reads the game's row first, and a kept game that is not in step with
//! it is brought up to date or replayed again.
//!
//! Each kept game has its own lock, held for the whole of a request about it, so that a
//! judgement and its commit see one state; requests about different games do not wait for
//! each other. Memory is bounded by the number of games kept (least recently used go first).

use std::any::Any;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use lru::LruCache;
use serde_json::{Map, Value};

use super::life::{Ending, Event, EventKind, Life, TimeControl};
use super::{Referee, RefereeError};
use crate::core::record::StatedOutcome;
use crate::core::rules::{find_preset, ruleset};
use crate::core::{End, Engine as _, Reason, Record, Rules, Seat, Turn as _};
use crate::seal::Binding;
use crate::store::{LedgerEvent, LedgerRow};

/// A refereed game as this instance knows it.
pub(super) struct Kept<G: Rules> {
    pub game_id: String,
    pub preset: &'static str,
    pub rules: G::Ruleset,
    pub options: Map<String, Value>,
    pub players: Vec<String>,
    pub seed: Option<u64>,
    pub hidden: Option<G::Hidden>,
    /// Actions committed.
    pub plies: u32,
    /// The match after them.
    pub current: G::Match,
    /// A stored game's actions (its record's). A game in play reads past actions from the
    /// ledger when a request asks about them.
    pub finished: Option<Arc<Vec<String>>>,
    /// Its clocks, events and how they ended it.
    pub life: Life,
    /// The seats the service's engine plays, with its milliseconds a move.
    pub engines: std::collections::BTreeMap<Seat, u64>,
    /// The last committed action as every seat saw it ([`Truth::public_action`]): what a
    /// seat's stream says of the last ply in a game whose actions are not all public (a dark
    /// Luzhanqi attack's squares and outcome).
    pub last_public: Option<String>,
}

/// The seats the service's engine plays in `row`'s game (none when the row says nothing
/// readable).
pub(super) fn engine_seats(row: &LedgerRow) -> std::collections::BTreeMap<Seat, u64> {
    let parsed: Option<std::collections::BTreeMap<String, u64>> =
        (row.engines.as_deref()).and_then(|text| serde_json::from_str(text).ok());
    (parsed.into_iter().flatten())
        .filter_map(|(code, ms)| Some((code.parse::<Seat>().ok()?, ms)))
        .collect()
}

/// One kept game's place: empty until a request loads it, emptied when a request leaves it
/// in doubt (a play refused after it changed the match, a commit another instance won).
pub(super) type Slot<G> = Mutex<Option<Kept<G>>>;

/// The recently used games.
pub(super) struct Recent {
    games: Mutex<LruCache<String, Arc<dyn Any + Send + Sync>>>,
}

impl Recent {
    pub fn new(capacity: usize) -> Recent {
        Recent {
            games: Mutex::new(LruCache::new(
                NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN),
            )),
        }
    }

    /// The place of game `game_id` (a game of `G`: the caller has checked the ledger's row).
    pub fn slot<G: Rules>(&self, game_id: &str) -> Arc<Slot<G>> {
        let mut games = self.games.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(slot) = games
            .get(game_id)
            .and_then(|any| Arc::clone(any).downcast::<Slot<G>>().ok())
        {
            return slot;
        }
        let slot: Arc<Slot<G>> = Arc::new(Mutex::new(None));
        games.put(game_id.to_owned(), slot.clone());
        slot
    }
}

/// Locks a kept game; a lock poisoned by a panic empties it (the next request replays).
pub(super) fn lock<G: Rules>(slot: &Slot<G>) -> MutexGuard<'_, Option<Kept<G>>> {
    match slot.lock() {
        Ok(guard) => guard,
        Err(poisoned) => {
            let mut guard = poisoned.into_inner();
            *guard = None;
            guard
        }
    }
}

impl<G: Rules> Kept<G> {
    /// Whether this is the game `row` describes, as far as it goes.
    pub fn in_step_with(&self, row: &LedgerRow) -> bool {
        self.plies == row.plies as u32
            && self.life.events.len() == row.events as usize
            && self.finished.is_some() == row.stored_game.is_some()
    }

    /// Brings this game up to `row`: the plies committed since (by another instance) played
    /// on. False when it cannot be (it is ahead of the ledger, or the game was stored since):
    /// then it must be loaded again.
    pub fn catch_up(&mut self, referee: &Referee, row: &LedgerRow) -> Result<bool, RefereeError> {
        let target = row.plies as u32;
        let events = self.life.events.len();
        if row.stored_game.is_some()
            || self.finished.is_some()
            || target < self.plies
            || (row.events as usize) < events
        {
            return Ok(false);
        }
        let actions = (referee.store).ledger_actions_timed(&self.game_id, self.plies, target)?;
        if actions.len() != (target - self.plies) as usize {
            // Compacted since the row was read (another instance stored the game): loaded
            // again from the row as it is now.
            return Ok(false);
        }
        for (action, at_ms) in actions {
            self.play_committed(&action, at_ms)?;
        }
        for event in
            (referee.store).ledger_events(&self.game_id, events as u32, row.events as u32)?
        {
            self.apply(&event)?;
        }
        Ok(self.in_step_with(row))
    }

    /// Plays an action of the ledger on the kept match, committed at `at_ms`.
    pub fn play_committed(&mut self, text: &str, at_ms: Option<i64>) -> Result<(), RefereeError> {
        let mover = self.current.position().to_move();
        match play_committed::<G>(&self.rules, &mut self.current, self.hidden.as_ref(), text) {
            Ok(public) => self.last_public = Some(public),
            Err(()) => return Err(self.corrupt()),
        }
        self.plies += 1;
        self.life.ply(mover, at_ms);
        Ok(())
    }

    /// An event of the ledger, on the game as it stands after its plies.
    fn apply(&mut self, row: &LedgerEvent) -> Result<(), RefereeError> {
        let kind = EventKind::from_code(&row.kind).ok_or_else(|| self.corrupt())?;
        let seat = match &row.seat {
            Some(code) => Some(code.parse::<Seat>().map_err(|_| self.corrupt())?),
            None => None,
        };
        self.record_event(Event {
            seq: row.seq as u32,
            ply: row.ply as u32,
            kind,
            seat,
            at_ms: row.at_ms,
        })
    }

    /// An event committed in this game (the last of its events).
    pub fn record_event(&mut self, event: Event) -> Result<(), RefereeError> {
        self.life = self.life_after(event)?;
        Ok(())
    }

    /// The life after `event`, its ending worked out on the match as it stands.
    pub fn life_after(&self, event: Event) -> Result<Life, RefereeError> {
        let m = &self.current;
        let to_move = m.position().to_move();
        let leaves = |seat: Option<Seat>, reason| match seat {
            Some(seat) => Ok(Some(Ending::Ended(End::new(m.conceded(seat), reason)))),
            None => Err(self.corrupt()),
        };
        let ending = match event.kind {
            EventKind::DrawOffer | EventKind::DrawDecline => None,
            EventKind::DrawAgreed => {
                Some(Ending::Ended(End::new(m.agreed_draw(), Reason::AGREEMENT)))
            }
            EventKind::Resign => leaves(event.seat, Reason::RESIGNATION)?,
            EventKind::Flag => leaves(event.seat, Reason::TIMEOUT)?,
            EventKind::Claim => leaves(Some(to_move), Reason::TIMEOUT)?,
            EventKind::Abort => Some(Ending::Aborted),
        };
        let mut life = self.life.clone();
        life.event(event, to_move, ending);
        Ok(life)
    }

    /// How the game has ended, by its rules or its life; and whether it was aborted.
    pub fn end(&self) -> Option<End> {
        match self.life.ending {
            Some(Ending::Ended(end)) => Some(end),
            Some(Ending::Aborted) => None,
            None => self.current.end(),
        }
    }

    /// Whether the game is over (ended or aborted).
    pub fn over(&self) -> bool {
        self.life.ending.is_some() || self.current.end().is_some()
    }

    /// The match after the first `at` committed actions, replayed from the start.
    pub fn replay(&self, referee: &Referee, at: u32) -> Result<G::Match, RefereeError> {
        let mut m = self.start()?;
        for text in self.actions(referee, at)? {
            self.play_on(&mut m, &text)?;
        }
        Ok(m)
    }

    /// The match at the game's start.
    pub fn start(&self) -> Result<G::Match, RefereeError> {
        let start = G::start(&self.rules, self.hidden.as_ref()).map_err(|_| self.corrupt())?;
        Ok(G::Match::from_position(self.rules, start))
    }

    /// Plays a committed action on `m`, a match of this game.
    pub fn play_on(&self, m: &mut G::Match, text: &str) -> Result<(), RefereeError> {
        play_committed::<G>(&self.rules, m, self.hidden.as_ref(), text)
            .map(drop)
            .map_err(|()| self.corrupt())
    }

    pub fn corrupt(&self) -> RefereeError {
        RefereeError::Corrupt(self.game_id.clone())
    }

    /// The ledger's game `row` (of `G`), replayed to its last committed ply: a game in play
    /// from the ledger's actions and its sealed truth, a stored one from its record.
    pub fn load(referee: &Referee, row: &LedgerRow) -> Result<Kept<G>, RefereeError> {
        let game_id = row.game_id.as_str();
        let corrupt = || RefereeError::Corrupt(game_id.to_owned());
        let preset = find_preset(G::PRESETS, Some(&row.preset))
            .map_err(|_| corrupt())?
            .name;
        let options: Map<String, Value> =
            serde_json::from_str(&row.options).map_err(|_| corrupt())?;
        let options = referee.cap_dealt_before_caps::<G>(row, preset, options)?;
        let rules = ruleset::<G>(Some(preset), &options).map_err(|_| corrupt())?;
        let (hidden, finished) = match (row.stored_game, &row.sealed_truth) {
            // A finished game: its stored record holds the layout (public now), the actions
            // and the game's life.
            (Some(stored), _) => {
                let (_, record) = referee.store.get(stored)?.ok_or_else(corrupt)?;
                let hidden = match &record.layout {
                    Some(value) => Some(G::parse_hidden(value).map_err(|_| corrupt())?),
                    None => None,
                };
                (hidden, Some(record))
            }
            (None, Some(sealed)) => {
                let binding = Binding {
                    game: G::NAME,
                    preset,
                    game_id,
                    seat: None,
                };
                let hidden = referee
                    .keys
                    .open::<G>(sealed, binding)
                    .map_err(|_| corrupt())?;
                (Some(hidden), None)
            }
            (None, None) => (None, None),
        };
        let start = G::start(&rules, hidden.as_ref()).map_err(|_| corrupt())?;
        let control = match (row.clock_base_ms, row.clock_increment_ms) {
            (Some(base_ms), increment_ms) => Some(TimeControl {
                base_ms,
                increment_ms: increment_ms.unwrap_or(0),
            }),
            (None, _) => None,
        };
        let life = Life::new(
            control,
            row.claim_after_ms,
            G::seats(&rules),
            row.created_at * 1000,
        );
        let mut kept = Kept {
            game_id: game_id.to_owned(),
            preset,
            rules,
            options,
            players: serde_json::from_str(&row.players).map_err(|_| corrupt())?,
            seed: row.seed.as_deref().and_then(|s| s.parse().ok()),
            current: G::Match::from_position(rules, start),
            hidden,
            plies: 0,
            finished: None,
            life,
            engines: engine_seats(row),
            last_public: None,
        };
        match finished {
            Some(record) => {
                for action in &record.actions {
                    kept.play_committed(action, None)?;
                }
                kept.finished = Some(Arc::new(record.actions.clone()));
                kept.life_from_record(&record)?;
            }
            None => {
                let actions = (referee.store).ledger_actions_timed(game_id, 0, row.plies as u32)?;
                let events = (referee.store).ledger_events(game_id, 0, row.events as u32)?;
                if actions.len() != row.plies as usize || events.len() != row.events as usize {
                    // The ledger was compacted after the row was read: another instance ended
                    // and stored the game. It is loaded from the row as it is now (its stored
                    // record), never from what is left of the ledger.
                    let now = referee.row(game_id)?;
                    return match now.stored_game {
                        Some(_) => Kept::load(referee, &now),
                        None => Err(corrupt()),
                    };
                }
                for (action, at_ms) in actions {
                    kept.play_committed(&action, at_ms)?;
                }
                for event in events {
                    kept.apply(&event)?;
                }
            }
        }
        Ok(kept)
    }

    /// A stored game's life, from its record: its events and clocks (`metadata`, as
    /// [`super::lifecycle::life_metadata`] writes them) and the ending its result states.
    fn life_from_record(&mut self, record: &Record) -> Result<(), RefereeError> {
        let corrupt = || RefereeError::Corrupt(self.game_id.clone());
        let events: Vec<super::lifecycle::EventEntry> = match record.metadata.get("events") {
            Some(v) => serde_json::from_value(v.clone()).map_err(|_| corrupt())?,
            None => Vec::new(),
        };
        let ending = record.result.and_then(|r| match (r.outcome, r.reason) {
            (StatedOutcome::Ongoing, Some(Reason::ABORTED)) => Some(Ending::Aborted),
            (StatedOutcome::Ended(outcome), Some(reason)) if !reason.is_derived() => {
                Some(Ending::Ended(End::new(outcome, reason)))
            }
            _ => None,
        });
        let last = events.len().saturating_sub(1);
        for (seq, e) in events.iter().enumerate() {
            let event = e.event(seq as u32).ok_or_else(corrupt)?;
            let to_move = self.current.position().to_move();
            self.life
                .event(event, to_move, if seq == last { ending } else { None });
        }
        if let Some(left) = record.metadata.get("clock_left_ms") {
            let left: Vec<i64> = serde_json::from_value(left.clone()).map_err(|_| corrupt())?;
            self.life.stopped_at(&left);
        }
        Ok(())
    }

    /// The action committed at ply `at` (0-based), if any.
    pub fn action_at(&self, referee: &Referee, at: u32) -> Result<Option<String>, RefereeError> {
        Ok(self.committed(referee, at, at + 1)?.pop())
    }

    /// The first `to` committed actions (all of them when `to` is past the last).
    pub fn actions(&self, referee: &Referee, to: u32) -> Result<Vec<String>, RefereeError> {
        self.committed(referee, 0, to)
    }

    /// This game's actions committed at plies `from..to` (`to` at most the plies committed),
    /// as [`committed`] reads them: exactly those, never a shorter history.
    pub fn committed(
        &self,
        referee: &Referee,
        from: u32,
        to: u32,
    ) -> Result<Vec<String>, RefereeError> {
        let finished = self.finished.as_deref().map(Vec::as_slice);
        committed(referee, &self.game_id, finished, from, to.min(self.plies))
    }

    /// The actions of this game's stored record, when the ledger's row (read now) says the
    /// game was stored: by another instance, or a request this one did not see.
    pub fn stored_since(&self, referee: &Referee) -> Result<Option<Vec<String>>, RefereeError> {
        stored_actions(referee, &self.game_id)
    }
}

/// The actions committed at plies `from..to` of game `game_id`, which has `to` plies or more
/// (0-based): a stored game's from its record's actions (`finished`), a game in play's from
/// the ledger. Never fewer than that: a ledger compacted since the game was read (another
/// instance ended and stored it) is read from the stored record the row now points to, and a
/// read that still comes short is corruption, never a shorter history. Committed actions are
/// final, so this needs no lock on the game.
pub(super) fn committed(
    referee: &Referee,
    game_id: &str,
    finished: Option<&[String]>,
    from: u32,
    to: u32,
) -> Result<Vec<String>, RefereeError> {
    let corrupt = || RefereeError::Corrupt(game_id.to_owned());
    let range = from.min(to) as usize..to as usize;
    if let Some(actions) = finished {
        return actions
            .get(range)
            .map(<[String]>::to_vec)
            .ok_or_else(corrupt);
    }
    let read = (referee.store).ledger_actions(game_id, range.start as u32, to)?;
    if read.len() == range.len() {
        return Ok(read);
    }
    let stored = stored_actions(referee, game_id)?.ok_or_else(corrupt)?;
    stored
        .get(range)
        .map(<[String]>::to_vec)
        .ok_or_else(corrupt)
}

/// The actions of game `game_id`'s stored record, when the ledger's row (read now) says it
/// was stored.
fn stored_actions(referee: &Referee, game_id: &str) -> Result<Option<Vec<String>>, RefereeError> {
    let Some(stored) = referee.row(game_id)?.stored_game else {
        return Ok(None);
    };
    let (_, record) =
        (referee.store.get(stored)?).ok_or_else(|| RefereeError::Corrupt(game_id.to_owned()))?;
    Ok(Some(record.actions))
}

/// Plays an action of the ledger on `m` (committed, so legal: a failure is corruption), the
/// identities it reveals filled in from `hidden`: the action as every seat saw it.
pub(super) fn play_committed<G: Rules>(
    rules: &G::Ruleset,
    m: &mut G::Match,
    hidden: Option<&G::Hidden>,
    text: &str,
) -> Result<String, ()> {
    let action = G::parse_action(text)
        .and_then(|a| G::reveal(a, m.position(), hidden))
        .map_err(|_| ())?;
    let effect = m.play(&action).map_err(|_| ())?;
    Ok(G::public_action(rules, &action, &effect, m.position()))
}
