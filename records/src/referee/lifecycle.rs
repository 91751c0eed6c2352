//! What a token holder asks of a game's life (offer, accept or decline a draw, resign, abort,
//! claim against a silent seat), judged on the kept game and committed as an event; the flag
//! that falls when a clock runs out; and the life a stored record keeps (`metadata`).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::RefereeError;
use super::game::Refereed;
use super::kept::Kept;
use super::life::{Ending, Event, EventKind, Life, LifeState, Request};
use crate::core::{Engine as _, Rules, Seat, Turn as _};
use crate::store::LedgerEvent;

/// An event as a stored record's `metadata.events` lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct EventEntry {
    /// Plies committed before it.
    pub ply: u32,
    pub event: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<Seat>,
    pub at_ms: i64,
}

impl EventEntry {
    pub fn event(&self, seq: u32) -> Option<Event> {
        Some(Event {
            seq,
            ply: self.ply,
            kind: EventKind::from_code(&self.event)?,
            seat: self.seat,
            at_ms: self.at_ms,
        })
    }
}

/// The game's life as its stored record keeps it in `metadata`: `clock` (the time control),
/// `clock_after_ms` (each ply's mover's time left after it, null before the clocks ran),
/// `clock_left_ms` (each seat's time where the game ended) and `events`.
pub(super) fn life_metadata(life: &Life) -> Vec<(&'static str, Value)> {
    let mut entries = Vec::new();
    if let Some(control) = life.control {
        entries.push(("clock", serde_json::to_value(control).expect("serialises")));
        entries.push(("clock_after_ms", Value::from(life.left_after.clone())));
        entries.push(("clock_left_ms", Value::from(life.left())));
    }
    if !life.events.is_empty() {
        let events: Vec<EventEntry> = (life.events.iter())
            .map(|e| EventEntry {
                ply: e.ply,
                event: e.kind.code().to_owned(),
                seat: e.seat,
                at_ms: e.at_ms,
            })
            .collect();
        entries.push(("events", serde_json::to_value(events).expect("serialises")));
    }
    entries
}

/// A refusal of the game's life: `code` says why.
fn refused(code: &'static str, detail: impl Into<String>) -> RefereeError {
    RefereeError::Refused {
        code,
        detail: detail.into(),
    }
}

impl<G: Rules> Refereed<'_, G> {
    /// The game's life now, as every answer gives it.
    pub fn life(&self) -> LifeState {
        life_state(self.kept(), self.referee().now_ms())
    }

    /// Does what the token's seat (or, for the game's own token, `player`) asks of the
    /// game's life, commits it and gives the life after it. Asking again for what is done
    /// (a standing offer, the same resignation) gets the same answer and commits nothing.
    pub fn request(
        &mut self,
        request: Request,
        player: Option<Seat>,
    ) -> Result<LifeState, RefereeError> {
        let who = self.speaker(request, player)?;
        let kept = self.kept();
        let m = &kept.current;
        let plies = kept.plies;
        let to_move = m.position().to_move();
        let done = |kind: EventKind| {
            kept.life
                .events
                .last()
                .is_some_and(|e| e.kind == kind && e.seat == who)
        };
        if kept.over() {
            let again = match request {
                Request::Resign => done(EventKind::Resign),
                Request::Abort => done(EventKind::Abort),
                Request::Claim => done(EventKind::Claim),
                Request::OfferDraw | Request::AcceptDraw => done(EventKind::DrawAgreed),
                Request::DeclineDraw => false,
            };
            if again {
                return Ok(self.life());
            }
            let said = match (kept.life.ending, kept.end()) {
                (Some(Ending::Aborted), _) => "the game was aborted".to_owned(),
                (_, Some(end)) => crate::core::words::end::<G>(end),
                (_, None) => "the game is over".to_owned(),
            };
            return Err(refused("game-over", format!("the game is over ({said})")));
        }
        if let Some(seat) = who
            && !m.still_playing(seat)
        {
            return Err(refused(
                "out-of-game",
                format!("{} is out of the game already", seat.code()),
            ));
        }
        let offers = kept.life.offers(plies);
        let others_offer = Seat::all(G::seats(&kept.rules))
            .any(|s| Some(s) != who && m.still_playing(s) && offers[s.index()]);
        let kind = match request {
            Request::Resign => EventKind::Resign,
            Request::Abort if kept.life.all_moved() => {
                return Err(refused(
                    "not-abortable",
                    "every seat has moved: the game can no longer be aborted (resign, or offer \
                     a draw)",
                ));
            }
            Request::Abort => EventKind::Abort,
            Request::AcceptDraw if !others_offer => {
                return Err(refused(
                    "no-draw-offer",
                    "no other seat's draw offer stands",
                ));
            }
            Request::DeclineDraw if !others_offer => {
                if done(EventKind::DrawDecline)
                    && kept.life.events.last().map(|e| e.ply) == Some(plies)
                {
                    return Ok(self.life());
                }
                return Err(refused(
                    "no-draw-offer",
                    "no other seat's draw offer stands",
                ));
            }
            Request::DeclineDraw => EventKind::DrawDecline,
            Request::OfferDraw | Request::AcceptDraw => {
                let seat = who.expect("a draw is offered by a seat");
                if offers[seat.index()] {
                    return Ok(self.life());
                }
                if kept.life.offered(seat, plies) {
                    return Err(refused(
                        "offered-already",
                        "this seat's draw offer at this ply was declined: offer again after the \
                         next ply",
                    ));
                }
                let agreed = Seat::all(G::seats(&kept.rules))
                    .filter(|s| m.still_playing(*s))
                    .all(|s| s == seat || offers[s.index()]);
                if agreed {
                    EventKind::DrawAgreed
                } else {
                    EventKind::DrawOffer
                }
            }
            Request::Claim => {
                let now = self.referee().now_ms();
                let Some(from) = kept.life.claimable_from() else {
                    return Err(match kept.life.claim_after_ms {
                        None => refused("no-claims", "this game was dealt without claims"),
                        Some(_) => refused(
                            "not-claimable",
                            "a seat may be claimed against once every seat has moved (before, \
                             abort the game)",
                        ),
                    });
                };
                if who == Some(to_move) {
                    return Err(refused(
                        "not-claimable",
                        "it is this seat's own turn: the seat to move is claimed against",
                    ));
                }
                if now < from {
                    return Err(refused(
                        "not-claimable",
                        format!(
                            "{} has been silent {} s: a claim is possible from {} s",
                            to_move.code(),
                            (now - (from - kept.life.claim_after_ms.unwrap_or(0))) / 1000,
                            kept.life.claim_after_ms.unwrap_or(0) / 1000
                        ),
                    ));
                }
                EventKind::Claim
            }
        };
        self.commit_event(kind, who)?;
        Ok(self.life())
    }

    /// The seat a life request speaks for: the token's, or the game's own token's `player`
    /// (which an abort may leave out).
    fn speaker(
        &self,
        request: Request,
        player: Option<Seat>,
    ) -> Result<Option<Seat>, RefereeError> {
        let seats = G::seats(&self.kept().rules);
        match (self.seat(), player) {
            (Some(seat), None) => Ok(Some(seat)),
            (Some(seat), Some(p)) if p == seat => Ok(Some(seat)),
            (Some(seat), Some(p)) => Err(RefereeError::WrongSeat(format!(
                "this token is {}'s: it may not speak for {}",
                seat.code(),
                p.code()
            ))),
            (None, Some(p)) if p.index() < seats as usize => Ok(Some(p)),
            (None, Some(p)) => Err(RefereeError::NoSuchSeat(format!(
                "{} has {seats} seats; there is no {}",
                G::TITLE,
                p.code()
            ))),
            (None, None) if request == Request::Abort => Ok(None),
            (None, None) => Err(RefereeError::NoSuchSeat(
                "the game's own token speaks for every seat: name the `player` this is for"
                    .to_owned(),
            )),
        }
    }

    /// Commits the flag fall of the seat to move when its time has run out (any request
    /// about a clocked game does it first). Gives whether it did.
    pub(super) fn fall_flag(&mut self) -> Result<bool, RefereeError> {
        let kept = self.kept();
        let to_move = kept.current.position().to_move();
        if kept.over() || !kept.life.flag_fallen(to_move, self.referee().now_ms()) {
            return Ok(false);
        }
        self.commit_event(EventKind::Flag, Some(to_move))?;
        Ok(true)
    }

    /// Commits an event at the game's current ply, applies it, and stores the game when it
    /// ended it.
    pub(super) fn commit_event(
        &mut self,
        kind: EventKind,
        seat: Option<Seat>,
    ) -> Result<(), RefereeError> {
        let kept = self.kept();
        let event = Event {
            seq: kept.life.events.len() as u32,
            ply: kept.plies,
            kind,
            seat,
            at_ms: self.referee().now_ms(),
        };
        // Its ending, worked out before the commit: the ledger's row is told the result.
        let mut after = kept.life_after(event)?;
        let result = match after.ending {
            Some(Ending::Aborted) => Some("aborted".to_owned()),
            Some(Ending::Ended(end)) => Some(end.outcome.to_string()),
            None => None,
        };
        let row = LedgerEvent {
            seq: event.seq as i32,
            ply: event.ply as i32,
            kind: kind.code().to_owned(),
            seat: seat.map(|s| s.code().to_owned()),
            at_ms: event.at_ms,
        };
        let game_id = kept.game_id.clone();
        if !self
            .referee()
            .store
            .ledger_event(&game_id, &row, result.as_deref())?
        {
            return Err(RefereeError::Conflict {
                field: "ply",
                detail: "the game moved on while this was judged: ask again".to_owned(),
            });
        }
        std::mem::swap(&mut self.kept_mut().life, &mut after);
        self.referee().committed(&game_id);
        if result.is_some() {
            let referee = self.referee();
            referee.store_finished(self.kept_mut())?;
        }
        Ok(())
    }
}

/// `kept`'s life at `now`.
pub(super) fn life_state<G: Rules>(kept: &Kept<G>, now: i64) -> LifeState {
    let to_move = kept
        .current
        .end()
        .is_none()
        .then(|| kept.current.position().to_move());
    kept.life.state(to_move, kept.plies, now)
}
