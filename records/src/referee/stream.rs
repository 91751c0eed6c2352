//! What a seat's event stream carries: the game's committed plies and events as that seat may
//! know them, from a **mark** on (the plies and events it has seen: the stream's event id),
//! each event marked with where it leaves the seat. The service sends them as Server-Sent
//! Events; this module says what they hold, so that two hidden truths a seat cannot tell apart
//! give it the same events, byte for byte.
//!
//! - `state`: where the game stands (the first event of a stream opened without a mark, or
//!   with one the seat cannot have: ahead of the game, or of another game's shape), with the
//!   last ply's action as every seat saw it and the players' names.
//! - `ply`: a committed ply: the position after it as the seat is told it, whose turn, the
//!   action as every seat saw it ([`Truth::public_action`](crate::core::Truth): as played
//!   where positions hold no secret, as Banqi's flips are public once made; a dark Luzhanqi
//!   attack as its points and outcome, `b5-b6:win`), the end when it ended the game; the last
//!   one also the seat's legal actions on its turn. A seat's events say its side (`red`, a
//!   Three Kingdoms faction) once the game gives it one.
//! - `life`: an event of the game's life (an offer, a decline, the ending by resignation,
//!   agreement, time, a claim, an abort).
//!
//! Each carries the game's `life` as it stands now (clocks, offers): a client's clock display
//! needs nothing else.
//!
//! A read costs what is new, never the game's length: under the game's lock it writes the
//! events of the last ply or two from the game as kept; a stream further behind (a replay
//! from the start, a long absence) gets a [`StreamReplay`], which replays the committed plies
//! outside the lock a page at a time ([`REPLAY_PAGE`]), so that its memory stays flat however
//! long the game is and the game's players never wait for it.

use std::fmt;
use std::str::FromStr;

use serde_json::{Value, json};

use super::game::Refereed;
use super::kept::{committed, play_committed};
use super::life::Event;
use super::{Referee, RefereeError};
use crate::core::{Engine as _, Rules, Seat, Turn as _};

/// Where a seat's stream stands: plies and events seen. Written `12.3` (the event id).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StreamMark {
    pub plies: u32,
    pub events: u32,
}

impl StreamEvent {
    /// The event as Server-Sent Events write it (`id`, `event`, one `data` line, a blank
    /// line).
    pub fn sse(&self) -> String {
        format!(
            "id: {}\nevent: {}\ndata: {}\n\n",
            self.id, self.kind, self.data
        )
    }
}

impl fmt::Display for StreamMark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.plies, self.events)
    }
}

impl FromStr for StreamMark {
    type Err = ();
    fn from_str(text: &str) -> Result<StreamMark, ()> {
        let (plies, events) = text.split_once('.').ok_or(())?;
        Ok(StreamMark {
            plies: plies.parse().map_err(|_| ())?,
            events: events.parse().map_err(|_| ())?,
        })
    }
}

/// One event of a seat's stream.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamEvent {
    /// Where it leaves the seat (the SSE `id`).
    pub id: StreamMark,
    /// `state`, `ply` or `life` (the SSE `event`).
    pub kind: &'static str,
    /// The event's JSON (the SSE `data`).
    pub data: Value,
}

/// How long a stream ticket opens a stream: a minute.
pub const TICKET_MS: i64 = 60_000;

impl Referee {
    /// A ticket that opens `game_id`'s stream for `token`'s holder for [`TICKET_MS`], once
    /// the token is checked: the ticket and when it expires (Unix milliseconds).
    pub fn ticket<G: Rules>(
        &self,
        game_id: &str,
        token: &str,
    ) -> Result<(String, i64), RefereeError> {
        let preset = self.open::<G, _>(game_id, token, |game| Ok(game.preset()))?;
        let expires = self.now_ms() + TICKET_MS;
        let binding = crate::seal::Binding {
            game: G::NAME,
            preset,
            game_id,
            seat: None,
        };
        Ok((self.keys.ticket(binding, token, expires), expires))
    }

    /// The token a ticket for `game_id` (a game of `G`) holds, while it has not expired, and
    /// when it expires (Unix milliseconds).
    pub fn open_ticket<G: Rules>(
        &self,
        game_id: &str,
        ticket: &str,
    ) -> Result<(String, i64), RefereeError> {
        let row = self.row(game_id)?;
        let binding = crate::seal::Binding {
            game: G::NAME,
            preset: &row.preset,
            game_id,
            seat: None,
        };
        let (token, expires) = self.keys.open_ticket(ticket, binding)?;
        if self.now_ms() >= expires {
            return Err(crate::seal::TokenError::Expired.into());
        }
        Ok((token, expires))
    }
}

/// The most plies a replay writes per page.
pub const REPLAY_PAGE: u32 = 64;

/// What a stream reads of its game under the game's lock ([`Refereed::stream_read`]).
pub struct StreamRead<G: Rules> {
    /// The events written, in the order they were committed.
    pub events: Vec<StreamEvent>,
    /// Where they leave the seat.
    pub mark: StreamMark,
    /// The game is over and the events reach its end: the stream closes after them.
    pub over: bool,
    /// When the running clock's flag falls (Unix milliseconds).
    pub flag_at_ms: Option<i64>,
    /// When the game expires unless something is committed (Unix milliseconds): a stream
    /// closes then.
    pub expires_at_ms: i64,
    /// The seat the token speaks for (None: the game's own token).
    pub seat: Option<Seat>,
    /// A stream too far behind to be written under the lock: it replays from `mark` itself,
    /// then reads again.
    pub replay: Option<StreamReplay<G>>,
}

/// A stream's replay of the plies it missed, outside the game's lock: the match as it goes,
/// and what it needs to write each ply as its seat is told it. Committed plies are final, so
/// nothing it reads changes under it.
pub struct StreamReplay<G: Rules> {
    game_id: String,
    seat: Option<Seat>,
    hidden: Option<G::Hidden>,
    rules: G::Ruleset,
    /// A stored game's actions (in play: read from the ledger a page at a time).
    finished: Option<std::sync::Arc<Vec<String>>>,
    public: bool,
    /// The match after `at` plies.
    m: G::Match,
    at: u32,
    /// Where the events written so far leave the seat.
    mark: StreamMark,
    /// The replay writes the plies up to this one (the last is a read's, under the lock).
    to: u32,
    /// The life events after the mark up to ply `to`, and the life as the read found it.
    events: Vec<Event>,
    life: Value,
}

impl<G: Rules> StreamReplay<G> {
    /// Where the events written so far leave the seat.
    pub fn mark(&self) -> StreamMark {
        self.mark
    }

    /// The next page of events (at most [`REPLAY_PAGE`] plies, with their life events);
    /// None once the replay has written its plies (the stream then reads again).
    pub fn page(&mut self, referee: &Referee) -> Result<Option<Vec<StreamEvent>>, RefereeError> {
        // First the plies before the mark, written to nobody.
        while self.at < self.mark.plies {
            let upto = self.mark.plies.min(self.at + 4 * REPLAY_PAGE);
            for action in self.actions(referee, upto)? {
                self.play(&action)?;
            }
        }
        if self.mark.plies >= self.to {
            return Ok(None);
        }
        let mut out = Vec::new();
        // The life events at the mark's ply it has not seen (none after the first page).
        self.push_events(&mut out);
        let upto = self.to.min(self.at + REPLAY_PAGE);
        for action in self.actions(referee, upto)? {
            let public = self.play(&action)?;
            let shown = if self.public { action } else { public };
            self.mark.plies = self.at;
            out.push(StreamEvent {
                id: self.mark,
                kind: "ply",
                data: ply_data::<G>(&self.m, self.seat, self.at, Some(&shown)),
            });
            self.push_events(&mut out);
        }
        Ok(Some(out))
    }

    fn actions(&self, referee: &Referee, upto: u32) -> Result<Vec<String>, RefereeError> {
        let finished = self.finished.as_deref().map(Vec::as_slice);
        committed(referee, &self.game_id, finished, self.at, upto)
    }

    /// Plays a committed action: the action as every seat saw it.
    fn play(&mut self, action: &str) -> Result<String, RefereeError> {
        let public = play_committed::<G>(&self.rules, &mut self.m, self.hidden.as_ref(), action)
            .map_err(|()| RefereeError::Corrupt(self.game_id.clone()))?;
        self.at += 1;
        Ok(public)
    }

    /// The life events at the mark's ply not yet written.
    fn push_events(&mut self, out: &mut Vec<StreamEvent>) {
        push_events(&self.events, &self.life, &mut self.mark, out);
    }
}

/// Writes the life `events` committed at the mark's ply that it has not seen, moving it on.
fn push_events(events: &[Event], life: &Value, at: &mut StreamMark, out: &mut Vec<StreamEvent>) {
    let ply = at.plies;
    for e in events.iter().filter(|e| e.ply == ply) {
        if e.seq < at.events {
            continue;
        }
        at.events = e.seq + 1;
        let mut data = json!({"ply": e.ply, "event": e.kind.code(), "at_ms": e.at_ms});
        if let Some(seat) = e.seat {
            data["seat"] = json!(seat);
        }
        data["life"] = life.clone();
        out.push(StreamEvent {
            id: *at,
            kind: "life",
            data,
        });
    }
}

/// A ply's data: the position after it as `seat` (None: the seat to move) is told it, whose
/// turn, the action when it is public, the rules' end when it ended the game.
fn ply_data<G: Rules>(m: &G::Match, seat: Option<Seat>, ply: u32, action: Option<&str>) -> Value {
    let to_move = m.position().to_move();
    let told = G::told(m, seat.unwrap_or(to_move)).to_string();
    let mut data = json!({"ply": ply, "position": told, "to_move": to_move});
    // The seat's side (a colour, a faction) is public once the game gives it.
    if let Some(side) = seat.and_then(|s| G::side(m.position(), s)) {
        data["side"] = json!(side);
    }
    if let Some(action) = action {
        data["action"] = json!(action);
    }
    if let Some(end) = m.end() {
        data["end"] = serde_json::to_value(end).expect("an end serialises");
    }
    data
}

impl<G: Rules> Refereed<'_, G> {
    /// Where this game stands for the stream.
    pub fn mark(&self) -> StreamMark {
        StreamMark {
            plies: self.plies(),
            events: self.kept().life.events.len() as u32,
        }
    }

    /// Whether the game is over (ended or aborted): its stream closes after its last event.
    pub fn over(&self) -> bool {
        self.kept().over()
    }

    /// What the token's seat has not seen since `mark` (none: a `state` event): the events
    /// of the last ply and after, written now; a replay for a stream further behind. Nothing
    /// here costs in proportion to the game's length.
    pub fn stream_read(&self, mark: Option<StreamMark>) -> Result<StreamRead<G>, RefereeError> {
        let now = self.mark();
        let life_state = self.life();
        let flag_at_ms = life_state.clock.as_ref().and_then(|c| {
            let running = c.running?;
            Some(c.at_ms + c.left_ms[running.index()])
        });
        let life = serde_json::to_value(life_state).expect("a life serialises");
        let mut read = StreamRead {
            events: Vec::new(),
            mark: now,
            over: self.over(),
            flag_at_ms,
            expires_at_ms: self.expires_at_ms(),
            seat: self.seat(),
            replay: None,
        };
        let Some(from) = mark.filter(|m| m.plies <= now.plies && m.events <= now.events) else {
            read.events.push(self.state_event(now, life)?);
            return Ok(read);
        };
        let kept = self.kept();
        if from.plies + 1 < now.plies {
            // Further behind than the last ply: the stream replays, outside the lock.
            let to = now.plies - 1;
            let events = (kept.life.events[from.events as usize..].iter())
                .filter(|e| e.ply <= to)
                .copied()
                .collect();
            read.mark = from;
            read.over = false;
            read.replay = Some(StreamReplay {
                game_id: kept.game_id.clone(),
                seat: self.seat(),
                hidden: kept.hidden.clone(),
                rules: kept.rules,
                finished: kept.finished.clone(),
                public: !G::visibility(&kept.rules).secret(),
                m: kept.start()?,
                at: 0,
                mark: from,
                to,
                events,
                life,
            });
            return Ok(read);
        }
        let events = &kept.life.events[from.events as usize..];
        let mut at = from;
        push_events(events, &life, &mut at, &mut read.events);
        if from.plies < now.plies {
            // The last ply: the kept match itself, its action read alone.
            let public = !G::visibility(&kept.rules).secret();
            let action = kept.committed(self.referee(), from.plies, now.plies)?.pop();
            let action = action.ok_or_else(|| kept.corrupt())?;
            // A secret game's ply as every seat saw it (a dark attack: its points and outcome).
            let shown = if public {
                Some(action.as_str())
            } else {
                kept.last_public.as_deref()
            };
            let mut data = ply_data::<G>(&kept.current, self.seat(), now.plies, shown);
            data = self.with_own_actions(data)?;
            data["life"] = life.clone();
            at.plies = now.plies;
            read.events.push(StreamEvent {
                id: at,
                kind: "ply",
                data,
            });
            push_events(events, &life, &mut at, &mut read.events);
        }
        read.mark = at;
        Ok(read)
    }

    /// A `state` event: where the game stands now.
    fn state_event(&self, now: StreamMark, life: Value) -> Result<StreamEvent, RefereeError> {
        // The last ply as every seat saw it: a page opened mid-game marks the last move.
        let last = self.kept().last_public.as_deref();
        let mut data = ply_data::<G>(&self.kept().current, self.seat(), now.plies, last);
        data = self.with_own_actions(data)?;
        if !self.kept().players.is_empty() {
            data["players"] = json!(self.kept().players);
        }
        data["life"] = life;
        Ok(StreamEvent {
            id: now,
            kind: "state",
            data,
        })
    }

    /// `data` with the seat's legal actions now, on its turn (and the end by the game's life).
    fn with_own_actions(&self, mut data: Value) -> Result<Value, RefereeError> {
        let listed = self.actions(self.plies())?;
        if !listed.actions.is_empty() {
            data["actions"] = json!(listed.actions);
        }
        if let Some(end) = listed.end {
            data["end"] = serde_json::to_value(end).expect("an end serialises");
        }
        Ok(data)
    }
}
