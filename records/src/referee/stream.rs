//! What a seat's event stream carries: the game's committed plies and events as that seat may
//! know them, from a **mark** on (the plies and events it has seen: the stream's event id),
//! each event marked with where it leaves the seat. The service sends them as Server-Sent
//! Events; this module says what they hold, so that two hidden truths a seat cannot tell apart
//! give it the same events, byte for byte.
//!
//! - `state`: where the game stands (the first event of a stream opened without a mark, or
//!   with one the seat cannot have: ahead of the game, or of another game's shape).
//! - `ply`: a committed ply: the position after it as the seat is told it, whose turn, the
//!   action as played where positions hold no secret (Banqi's flips are public once made; a
//!   dark Luzhanqi or xiangqi-3g seat learns positions, not the other seats' actions), the end
//!   when it ended the game; the last one also the seat's legal actions on its turn.
//! - `life`: an event of the game's life (an offer, a decline, the ending by resignation,
//!   agreement, time, a claim, an abort).
//!
//! Each carries the game's `life` as it stands now (clocks, offers): a client's clock display
//! needs nothing else.

use std::fmt;
use std::str::FromStr;

use serde_json::{Value, json};

use super::game::Refereed;
use super::life::Event;
use super::{Referee, RefereeError};
use crate::core::{Engine as _, Rules, Turn as _};

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

    /// The token a ticket for `game_id` (a game of `G`) holds, while it has not expired.
    pub fn open_ticket<G: Rules>(
        &self,
        game_id: &str,
        ticket: &str,
    ) -> Result<String, RefereeError> {
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
        Ok(token)
    }
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

    /// The events the token's seat has not seen since `mark` (none: a `state` event), in the
    /// order they were committed.
    pub fn stream_since(&self, mark: Option<StreamMark>) -> Result<Vec<StreamEvent>, RefereeError> {
        let now = self.mark();
        let life = serde_json::to_value(self.life()).expect("a life serialises");
        let Some(from) = mark.filter(|m| m.plies <= now.plies && m.events <= now.events) else {
            return Ok(vec![self.state_event(now, life)?]);
        };
        let kept = self.kept();
        let events: Vec<Event> = kept.life.events[from.events as usize..].to_vec();
        let mut out = Vec::new();
        let mut at = from;
        let push_events = |at: &mut StreamMark, upto: u32, out: &mut Vec<StreamEvent>| {
            for e in events.iter().filter(|e| e.ply == upto) {
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
        };
        push_events(&mut at, from.plies, &mut out);
        if from.plies < now.plies {
            // The plies since: replayed from the mark (one ply, the usual case, is the kept
            // match itself).
            let public = !G::visibility(&kept.rules).secret();
            let actions = kept.actions(self.referee(), now.plies)?;
            let mut m = (from.plies + 1 < now.plies)
                .then(|| self.match_at(from.plies))
                .transpose()?;
            for ply in from.plies + 1..=now.plies {
                let action = &actions[ply as usize - 1];
                let data = match m.as_mut() {
                    Some(m) => {
                        kept.play_on(m, action)?;
                        self.ply_data(m, ply, public.then_some(action.as_str()))
                    }
                    None => self.ply_data(&kept.current, ply, public.then_some(action.as_str())),
                };
                let mut data = data;
                if ply == now.plies {
                    data = self.with_own_actions(data)?;
                    data["life"] = life.clone();
                }
                at.plies = ply;
                out.push(StreamEvent {
                    id: at,
                    kind: "ply",
                    data,
                });
                push_events(&mut at, ply, &mut out);
            }
        }
        Ok(out)
    }

    /// A `state` event: where the game stands now.
    fn state_event(&self, now: StreamMark, life: Value) -> Result<StreamEvent, RefereeError> {
        let mut data = self.ply_data(&self.kept().current, now.plies, None);
        data = self.with_own_actions(data)?;
        data["life"] = life;
        Ok(StreamEvent {
            id: now,
            kind: "state",
            data,
        })
    }

    /// A ply's data: the position after it as the token's seat is told it, whose turn, the
    /// action when it is public, the rules' end when it ended the game.
    fn ply_data(&self, m: &G::Match, ply: u32, action: Option<&str>) -> Value {
        let to_move = m.position().to_move();
        let told = G::told(m, self.seat().unwrap_or(to_move)).to_string();
        let mut data = json!({"ply": ply, "position": told, "to_move": to_move});
        if let Some(action) = action {
            data["action"] = json!(action);
        }
        if let Some(end) = m.end() {
            data["end"] = serde_json::to_value(end).expect("an end serialises");
        }
        data
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
