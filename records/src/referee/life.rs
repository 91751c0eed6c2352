//! A refereed game's life beside its plies: its clocks, draw offers, resignations, aborts,
//! flag falls and claims against a silent seat. Each is an **event** the ledger commits like
//! a ply (final once written: [`crate::store::Store::ledger_event`]); what the plies' times
//! and the events make of the game is worked out here from them alone, so that every
//! instance reads the same game.
//!
//! The choices (docs/rules.md, "A refereed game's life"):
//! - **Clocks** are Fischer's (`base_ms` each, `increment_ms` after each move). They start
//!   once every seat has moved: the first moves cost no time, and until then any seat may
//!   **abort** (the game then has no result: an aborted game is stored `ongoing`, reason
//!   `aborted`). A seat's clock runs from the commit of the ply before its move to the commit
//!   of its own; a move committed after its time ran out is refused and the flag falls.
//! - A **flag fall**, a **resignation** and a **claim** against a seat to move silent past
//!   the deal's `claim_after` end the game as
//!   [`Engine::conceded`](crate::core::rules::Engine::conceded) says (two seats: the other
//!   wins; three: the leaving seat below every seat still in it).
//! - A **draw** is agreed when every seat still playing has offered it at the same ply (an
//!   acceptance is an offer). An offer stands until the next ply or a decline; a seat offers
//!   at most once a ply.

use serde::{Deserialize, Serialize};

use crate::core::{End, MAX_SEATS, Seat};

/// A clock chosen at the deal, Fischer's: each seat has `base_ms`, and `increment_ms` is
/// added after each of its moves once the clocks run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TimeControl {
    /// Each seat's time, 1 ms to a day.
    #[cfg_attr(
        feature = "openapi",
        schema(example = 300_000, minimum = 1, maximum = 86_400_000)
    )]
    pub base_ms: i64,
    /// Added after each of a seat's moves, 0 to a day.
    #[cfg_attr(
        feature = "openapi",
        schema(example = 2_000, minimum = 0, maximum = 86_400_000)
    )]
    pub increment_ms: i64,
}

/// The longest clock a deal takes: a day a seat (and as long an increment, or a claim;
/// `TimeControl`'s schema says the same).
pub const MAX_CLOCK_MS: i64 = 24 * 3600 * 1000;

/// What a seat asks of the game's life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    OfferDraw,
    AcceptDraw,
    DeclineDraw,
    Resign,
    Abort,
    Claim,
}

/// What an event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    DrawOffer,
    DrawDecline,
    /// The offer that completed an agreement: the game is drawn.
    DrawAgreed,
    Resign,
    Abort,
    /// A seat's time ran out.
    Flag,
    /// A seat claimed the game against the seat to move, silent past the deal's limit.
    Claim,
}

impl EventKind {
    const ALL: [EventKind; 7] = [
        EventKind::DrawOffer,
        EventKind::DrawDecline,
        EventKind::DrawAgreed,
        EventKind::Resign,
        EventKind::Abort,
        EventKind::Flag,
        EventKind::Claim,
    ];

    /// The code the ledger, the record and the streams write.
    pub fn code(self) -> &'static str {
        match self {
            EventKind::DrawOffer => "draw_offer",
            EventKind::DrawDecline => "draw_decline",
            EventKind::DrawAgreed => "draw_agreed",
            EventKind::Resign => "resign",
            EventKind::Abort => "abort",
            EventKind::Flag => "flag",
            EventKind::Claim => "claim",
        }
    }

    pub fn from_code(code: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|k| k.code() == code)
    }
}

/// One committed event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// 0 for the game's first.
    pub seq: u32,
    /// Plies committed before it.
    pub ply: u32,
    pub kind: EventKind,
    /// Whose: the seat that offered, resigned, claimed, whose flag fell; None for an abort
    /// by the game's own token.
    pub seat: Option<Seat>,
    /// Unix milliseconds of its commit.
    pub at_ms: i64,
}

/// How the game's life ended the game (the rules' own endings are the match's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Ended(End),
    Aborted,
}

/// The clocks at a moment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Clocks {
    #[serde(flatten)]
    pub control: TimeControl,
    /// Each seat's time left at `at_ms`, in seat order (`player1` first); 0 for a fallen flag.
    #[cfg_attr(feature = "openapi", schema(example = json!([291_200, 300_000])))]
    pub left_ms: Vec<i64>,
    /// The seat whose clock runs: none before every seat has moved and once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub running: Option<Seat>,
    /// When these times were read (Unix milliseconds): a client counts the running clock
    /// down from here.
    pub at_ms: i64,
}

/// A game's life as every answer gives it: all of it public to every seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct LifeState {
    /// `playing`, `ended` or `aborted`.
    #[cfg_attr(feature = "openapi", schema(example = "playing"))]
    pub status: &'static str,
    /// The clocks; absent in a game without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<Clocks>,
    /// The seats whose draw offer stands.
    pub draw_offers: Vec<Seat>,
    /// Whether the game may still be aborted (a seat has not moved yet).
    pub abortable: bool,
    /// From when (Unix milliseconds) the seat to move, still silent, may be claimed
    /// against; absent when the deal allows no claims or the game is not going on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claimable_from_ms: Option<i64>,
    /// Events committed (offers, declines, the ending …).
    pub events: u32,
}

/// The life of one game, as its plies' times and its events make it.
#[derive(Clone, Debug)]
pub(crate) struct Life {
    pub control: Option<TimeControl>,
    pub claim_after_ms: Option<i64>,
    seats: u8,
    moved: [bool; MAX_SEATS],
    left: [i64; MAX_SEATS],
    /// When the running clock started: the last ply's commit, once every seat has moved.
    since: Option<i64>,
    /// The last ply's commit (the deal before the first).
    last_ms: i64,
    /// The mover's time left after each ply (None before the clocks run, or without one).
    pub left_after: Vec<Option<i64>>,
    pub events: Vec<Event>,
    pub ending: Option<Ending>,
}

impl Life {
    pub fn new(
        control: Option<TimeControl>,
        claim_after_ms: Option<i64>,
        seats: u8,
        dealt_ms: i64,
    ) -> Life {
        let base = control.map_or(0, |c| c.base_ms);
        Life {
            control,
            claim_after_ms,
            seats,
            moved: [false; MAX_SEATS],
            left: [base; MAX_SEATS],
            since: None,
            last_ms: dealt_ms,
            left_after: Vec::new(),
            events: Vec::new(),
            ending: None,
        }
    }

    /// Whether every seat has moved (the clocks run; no abort).
    pub fn all_moved(&self) -> bool {
        self.moved[..self.seats as usize].iter().all(|m| *m)
    }

    /// `seat`'s time left at `now`, its clock running or not.
    fn left_at(&self, seat: Seat, running: bool, now: i64) -> i64 {
        let left = self.left[seat.index()];
        match self.since {
            Some(since) if running => left - (now - since).max(0),
            _ => left,
        }
    }

    /// Whether `to_move`'s flag has fallen at `now` (a clocked game going on).
    pub fn flag_fallen(&self, to_move: Seat, now: i64) -> bool {
        self.control.is_some()
            && self.ending.is_none()
            && self.since.is_some()
            && self.left_at(to_move, true, now) <= 0
    }

    /// The ply `mover` played, committed at `at_ms` (None: before the ledger kept times, or
    /// a stored game replayed).
    pub fn ply(&mut self, mover: Seat, at_ms: Option<i64>) {
        let increment = self.control.map_or(0, |c| c.increment_ms);
        let timed = self.control.is_some() && self.since.is_some();
        if let (true, Some(at)) = (timed, at_ms) {
            self.left[mover.index()] = self.left_at(mover, true, at).max(0) + increment;
        }
        self.left_after
            .push(timed.then_some(self.left[mover.index()]));
        self.moved[mover.index()] = true;
        if let Some(at) = at_ms {
            self.last_ms = at;
        }
        if self.control.is_some() && self.all_moved() {
            self.since = at_ms.or(self.since);
        }
    }

    /// Each seat's time left as the clocks stand (stopped where the game ended).
    pub fn left(&self) -> Vec<i64> {
        self.left[..self.seats as usize].to_vec()
    }

    /// A stored game's clocks where it ended (its record's `clock_left_ms`).
    pub fn stopped_at(&mut self, left: &[i64]) {
        for (slot, l) in self.left.iter_mut().zip(left) {
            *slot = *l;
        }
        self.since = None;
    }

    /// An event committed, `to_move` to move; `ending` when it ended the game: the clock
    /// that ran stops at the event.
    pub fn event(&mut self, event: Event, to_move: Seat, ending: Option<Ending>) {
        if ending.is_some() && self.control.is_some() && self.since.is_some() {
            self.left[to_move.index()] = self.left_at(to_move, true, event.at_ms).max(0);
        }
        if let (EventKind::Flag, Some(seat)) = (event.kind, event.seat) {
            self.left[seat.index()] = 0;
        }
        self.events.push(event);
        self.ending = ending.or(self.ending);
    }

    /// The seats whose draw offer stands at ply `plies`: offered at this ply, not declined
    /// since.
    pub fn offers(&self, plies: u32) -> [bool; MAX_SEATS] {
        let mut standing = [false; MAX_SEATS];
        for e in self.events.iter().filter(|e| e.ply == plies) {
            match (e.kind, e.seat) {
                (EventKind::DrawOffer | EventKind::DrawAgreed, Some(seat)) => {
                    standing[seat.index()] = true
                }
                (EventKind::DrawDecline, _) => standing = [false; MAX_SEATS],
                _ => {}
            }
        }
        standing
    }

    /// Whether `seat` offered a draw at ply `plies` already (standing or declined).
    pub fn offered(&self, seat: Seat, plies: u32) -> bool {
        self.events
            .iter()
            .any(|e| e.ply == plies && e.kind == EventKind::DrawOffer && e.seat == Some(seat))
    }

    /// From when the seat to move, silent, may be claimed against.
    pub fn claimable_from(&self) -> Option<i64> {
        let after = self.claim_after_ms?;
        (self.ending.is_none() && self.all_moved()).then_some(self.last_ms + after)
    }

    /// The life as an answer gives it, at `now`, with `to_move` to move (None once the game
    /// is over by its rules) after `plies` plies.
    pub fn state(&self, to_move: Option<Seat>, plies: u32, now: i64) -> LifeState {
        let going_on = self.ending.is_none() && to_move.is_some();
        let running = to_move.filter(|_| going_on && self.since.is_some());
        let at_ms = match (self.ending, self.events.last()) {
            // A game over is read where it ended.
            (Some(_), Some(e)) => e.at_ms,
            _ if !going_on => self.last_ms,
            _ => now,
        };
        let clock = self.control.map(|control| Clocks {
            control,
            left_ms: Seat::all(self.seats)
                .map(|s| self.left_at(s, running == Some(s), at_ms).max(0))
                .collect(),
            running,
            at_ms,
        });
        let offers = self.offers(plies);
        LifeState {
            status: match self.ending {
                Some(Ending::Aborted) => "aborted",
                Some(Ending::Ended(_)) => "ended",
                None if to_move.is_none() => "ended",
                None => "playing",
            },
            clock,
            draw_offers: Seat::all(self.seats)
                .filter(|s| going_on && offers[s.index()])
                .collect(),
            abortable: going_on && !self.all_moved(),
            claimable_from_ms: if going_on {
                self.claimable_from()
            } else {
                None
            },
            events: self.events.len() as u32,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONTROL: TimeControl = TimeControl {
        base_ms: 60_000,
        increment_ms: 2_000,
    };

    #[test]
    fn clocks_start_once_every_seat_has_moved_and_add_the_increment() {
        let mut life = Life::new(Some(CONTROL), None, 2, 0);
        life.ply(Seat::FIRST, Some(10_000));
        life.ply(Seat::SECOND, Some(25_000));
        // The first moves cost nothing.
        assert_eq!(life.left(), vec![60_000, 60_000]);
        assert!(life.all_moved());
        // Player 1 thinks 7 s: 60 − 7 + 2.
        life.ply(Seat::FIRST, Some(32_000));
        assert_eq!(life.left(), vec![55_000, 60_000]);
        assert_eq!(life.left_after, vec![None, None, Some(55_000)]);
        // Player 2's clock runs from 32 s.
        let state = life.state(Some(Seat::SECOND), 3, 40_000);
        let clock = state.clock.unwrap();
        assert_eq!(clock.left_ms, vec![55_000, 52_000]);
        assert_eq!(clock.running, Some(Seat::SECOND));
        assert!(!life.flag_fallen(Seat::SECOND, 91_999));
        assert!(life.flag_fallen(Seat::SECOND, 92_000));
    }

    #[test]
    fn an_offer_stands_until_the_next_ply_or_a_decline() {
        let mut life = Life::new(None, Some(1_000), 2, 0);
        let event = |seq, ply, kind, seat| Event {
            seq,
            ply,
            kind,
            seat: Some(seat),
            at_ms: 0,
        };
        life.event(
            event(0, 0, EventKind::DrawOffer, Seat::FIRST),
            Seat::FIRST,
            None,
        );
        assert_eq!(life.offers(0)[..2], [true, false]);
        assert_eq!(life.offers(1)[..2], [false, false]);
        life.event(
            event(1, 0, EventKind::DrawDecline, Seat::SECOND),
            Seat::FIRST,
            None,
        );
        assert_eq!(life.offers(0)[..2], [false, false]);
        assert!(life.offered(Seat::FIRST, 0));
        // No claims before every seat has moved; then from the last ply on.
        assert_eq!(life.claimable_from(), None);
        life.ply(Seat::FIRST, Some(5_000));
        life.ply(Seat::SECOND, Some(8_000));
        assert_eq!(life.claimable_from(), Some(9_000));
    }
}
