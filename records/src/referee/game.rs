//! One refereed game, opened for one token holder: what that seat may be told of it, and the
//! judging and committing of its next action.

use serde_json::{Map, Value};

use super::kept::Kept;
use super::life::{Ending, EventKind, LifeState};
use super::lifecycle::life_metadata;
use super::{Referee, RefereeError};
use crate::core::outcome::End;
use crate::core::play::{stated_result, step_match};
use crate::core::record::{Record, StatedOutcome, StatedResult};
use crate::core::replay::{ReplayError, Verdict, validate};
use crate::core::rules::ruleset;
use crate::core::{Engine as _, Turn as _};
use crate::core::{Reason, Rules, Seat, Violation};
use crate::store::{Commit, NewGame};

/// A refereed game, opened with a token (the game's own, `seat` None: every seat, the app's
/// server; or a seat's) and locked for the request ([`Referee::open`]).
pub struct Refereed<'a, G: Rules> {
    referee: &'a Referee,
    kept: &'a mut Kept<G>,
    seat: Option<Seat>,
    /// A play changed the kept match and was not committed: it is replayed next time.
    doubt: bool,
    /// When the game expires unless something is committed (Unix milliseconds).
    expires_at_ms: i64,
}

/// What a request states besides its action: each part given must agree with the ledger,
/// and together they say which committed ply the request is about.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stated<'a> {
    pub preset: Option<&'a str>,
    pub options: Option<&'a Map<String, Value>>,
    /// A position string: what the seat is told at the ply asked about.
    pub position: Option<&'a str>,
    /// The game so far: the ledger's committed actions (or the first of them), as the seat
    /// wrote or was told them.
    pub record: Option<&'a Record>,
    /// The ply asked about: the number of actions played before it.
    pub ply: Option<u32>,
}

/// An action the referee played.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// The action as played, every revealed identity written out.
    pub action: String,
    /// What it did (`flip`, `move`, `capture` …).
    pub effect: &'static str,
    /// The position after it, as its seat is told it.
    pub position: String,
    pub end: Option<End>,
    /// Actions committed after it.
    pub ply: u32,
    /// The game's life after it (its clocks, offers, how it ended).
    pub life: LifeState,
}

/// An action judged and played on a match, before the referee adds the game's life.
struct Judged {
    action: String,
    /// The action as every seat saw it ([`Truth::public_action`](crate::core::Truth)).
    public: String,
    effect: &'static str,
    position: String,
    end: Option<End>,
    ply: u32,
}

impl Judged {
    fn with(self, life: LifeState) -> Played {
        Played {
            action: self.action,
            effect: self.effect,
            position: self.position,
            end: self.end,
            ply: self.ply,
            life,
        }
    }
}

/// The legal actions at a ply, as a seat is told them.
#[derive(Clone, Debug, PartialEq)]
pub struct Actions {
    pub position: String,
    pub to_move: Seat,
    /// The seat's legal actions on its turn (every seat's, for the game's token); none once
    /// the game has ended.
    pub actions: Vec<String>,
    pub end: Option<End>,
    /// The game's life now (its clocks, offers, how it ended).
    pub life: LifeState,
}

impl<'a, G: Rules> Refereed<'a, G> {
    pub(super) fn new(
        referee: &'a Referee,
        kept: &'a mut Kept<G>,
        seat: Option<Seat>,
        expires_at_ms: i64,
    ) -> Refereed<'a, G> {
        Refereed {
            referee,
            kept,
            seat,
            doubt: false,
            expires_at_ms,
        }
    }

    /// When the game expires (is forgotten) unless an action or event is committed in it
    /// first (Unix milliseconds; `--game-expiry` after the last one).
    pub fn expires_at_ms(&self) -> i64 {
        self.expires_at_ms
    }

    pub(super) fn in_doubt(&self) -> bool {
        self.doubt
    }

    pub(super) fn kept(&self) -> &Kept<G> {
        self.kept
    }

    pub(super) fn kept_mut(&mut self) -> &mut Kept<G> {
        self.kept
    }

    pub(super) fn referee(&self) -> &'a Referee {
        self.referee
    }

    pub fn game_id(&self) -> &str {
        &self.kept.game_id
    }

    /// The seat the service's engine plays, with its milliseconds a move, when that seat is
    /// to move in a game going on.
    pub fn engine_to_move(&self) -> Option<(Seat, u64)> {
        if self.kept.over() {
            return None;
        }
        let to_move = self.kept.current.position().to_move();
        self.kept.engines.get(&to_move).map(|ms| (to_move, *ms))
    }

    /// The players' names, by seat, as dealt.
    pub fn players(&self) -> &[String] {
        &self.kept.players
    }

    /// `seat`'s side now (a colour, a faction), once the game gives it one: public.
    pub fn side(&self, seat: Seat) -> Option<&'static str> {
        G::side(self.kept.current.position(), seat)
    }

    /// How many seats the game has.
    pub fn seats(&self) -> u8 {
        G::seats(&self.kept.rules)
    }

    /// An engine seat, still playing, that has not answered another seat's standing draw
    /// offer, with its time a move.
    pub fn engine_to_answer(&self) -> Option<(Seat, u64)> {
        if self.kept.over() {
            return None;
        }
        let m = &self.kept.current;
        let offers = self.kept.life.offers(self.kept.plies);
        let offered = |s: Seat| m.still_playing(s) && offers[s.index()];
        let engine = |s: &Seat| self.kept.engines.contains_key(s);
        let seats = G::seats(&self.kept.rules);
        if !Seat::all(seats).any(|s| offered(s) && !engine(&s)) {
            return None;
        }
        Seat::all(seats)
            .filter(|s| engine(s) && m.still_playing(*s) && !offers[s.index()])
            .find_map(|s| Some((s, *self.kept.engines.get(&s)?)))
    }

    /// How the game has ended, by its rules or its life (none once aborted, or going on).
    pub fn end(&self) -> Option<End> {
        self.kept.end()
    }

    /// The preset the game is played under.
    pub fn preset(&self) -> &'static str {
        self.kept.preset
    }

    /// The seat the token speaks for; None for the game's own token.
    pub fn seat(&self) -> Option<Seat> {
        self.seat
    }

    /// Actions committed.
    pub fn plies(&self) -> u32 {
        self.kept.plies
    }

    /// `f` of the match after the first `at` committed actions (the kept match itself at the
    /// last ply; an earlier one is replayed).
    fn at<T>(&self, at: u32, f: impl FnOnce(&G::Match) -> T) -> Result<T, RefereeError> {
        if at == self.kept.plies {
            return Ok(f(&self.kept.current));
        }
        Ok(f(&self.replay(at)?))
    }

    /// A copy of the match after the first `at` committed actions: for work done after the
    /// game is unlocked (an analysis). Nothing but the match and the seat should reach it.
    pub fn match_at(&self, at: u32) -> Result<G::Match, RefereeError> {
        self.at(at, Clone::clone)
    }

    fn replay(&self, at: u32) -> Result<G::Match, RefereeError> {
        self.kept.replay(self.referee, at)
    }

    /// The position string as the token's eyes see it: the seat's, or for the game's own
    /// token the seat to move's.
    fn told(&self, m: &G::Match) -> String {
        G::told(m, self.seat.unwrap_or_else(|| m.position().to_move())).to_string()
    }

    /// Checks what a request states against the ledger and gives the ply it is about (the
    /// current one when it names none).
    pub fn address(&self, stated: &Stated) -> Result<u32, RefereeError> {
        let conflict =
            |field: &'static str, detail: String| RefereeError::Conflict { field, detail };
        self.same_rules(stated.preset, stated.options, "")?;
        let n = self.plies();
        let mut at = stated.ply;
        if let Some(record) = stated.record {
            if record.game != G::NAME {
                return Err(conflict(
                    "record.game",
                    format!("this is a {} game", G::NAME),
                ));
            }
            self.same_rules(record.preset.as_deref(), Some(&record.options), "record.")?;
            if record.layout.is_some() {
                return Err(conflict(
                    "record.layout",
                    "the referee holds the hidden truth: a request with a token states none".into(),
                ));
            }
            if record.start.is_some() {
                return Err(conflict(
                    "record.start",
                    "a refereed game starts from its deal: a request with a token states no start"
                        .into(),
                ));
            }
            if !record.players.is_empty() && record.players != self.kept.players {
                return Err(conflict(
                    "record.players",
                    format!("the game's players are {:?}", self.kept.players),
                ));
            }
            if let Some(id) = record.metadata.get("game_id")
                && id.as_str() != Some(self.kept.game_id.as_str())
            {
                return Err(conflict(
                    "record.metadata",
                    format!("the record's game_id is not {}", self.kept.game_id),
                ));
            }
            let stated_plies = record.actions.len() as u32;
            if stated_plies > n {
                return Err(conflict(
                    "record.actions",
                    format!(
                        "the game has {n} committed plies and the record {stated_plies}: the \
                         referee answers about committed plies only (play the next action with \
                         /v1/play)"
                    ),
                ));
            }
            self.same_actions(&record.actions)?;
            if at.is_some_and(|ply| ply != stated_plies) {
                return Err(conflict(
                    "ply",
                    format!("the record has {stated_plies} plies"),
                ));
            }
            at = Some(stated_plies);
        }
        let at = at.unwrap_or(n);
        if at > n {
            return Err(conflict(
                "ply",
                format!("the game has {n} committed plies; ply {at} is not played yet"),
            ));
        }
        if let Some(text) = stated.position
            && text != self.at(at, |m| self.told(m))?
        {
            return Err(conflict(
                "position",
                format!(
                    "that is not the game's position after {at} plies: a request with a token \
                     is about the ledger's game (send `ply` or the record instead)"
                ),
            ));
        }
        Ok(at)
    }

    /// Whether a stated preset and options are the ledger's.
    fn same_rules(
        &self,
        preset: Option<&str>,
        options: Option<&Map<String, Value>>,
        prefix: &'static str,
    ) -> Result<(), RefereeError> {
        let kept = &*self.kept;
        if let Some(name) = preset
            && name != kept.preset
        {
            return Err(RefereeError::Conflict {
                field: if prefix.is_empty() {
                    "preset"
                } else {
                    "record.preset"
                },
                detail: format!("the game is played under preset {}", kept.preset),
            });
        }
        if let Some(options) = options.filter(|o| !o.is_empty())
            && ruleset::<G>(Some(kept.preset), options).ok() != Some(kept.rules)
        {
            return Err(RefereeError::Conflict {
                field: if prefix.is_empty() {
                    "options"
                } else {
                    "record.options"
                },
                detail: format!(
                    "the game is played under preset {} with options {}",
                    kept.preset,
                    Value::Object(kept.options.clone())
                ),
            });
        }
        Ok(())
    }

    /// Whether `stated` are the first committed actions, as played or as the seat wrote them
    /// (without the identities the referee filled in). Every committed action is public to
    /// every seat, so the comparison tells a seat nothing new.
    fn same_actions(&self, stated: &[String]) -> Result<(), RefereeError> {
        let kept = &*self.kept;
        let committed = kept.actions(self.referee, stated.len() as u32)?;
        let mut m = kept.start()?;
        for (i, (text, committed)) in stated.iter().zip(&committed).enumerate() {
            let same = text == committed
                || G::parse_action(text)
                    .and_then(|a| G::reveal(a, m.position(), kept.hidden.as_ref()))
                    .is_ok_and(|a| a.to_string() == *committed);
            if !same {
                return Err(RefereeError::Conflict {
                    field: "record.actions",
                    detail: format!(
                        "ply {}: the record says {text}, the game's action is {committed}",
                        i + 1
                    ),
                });
            }
            kept.play_on(&mut m, committed)?;
        }
        Ok(())
    }

    /// The legal actions at ply `at`, as the token's seat is told them.
    pub fn actions(&self, at: u32) -> Result<Actions, RefereeError> {
        let life = self.life();
        let current = at == self.kept.plies;
        self.at(at, |m| {
            let to_move = m.position().to_move();
            // At the current ply, the game's life may have ended it (or aborted it).
            let (end, over) = if current {
                (self.kept.end(), self.kept.over())
            } else {
                (m.end(), m.end().is_some())
            };
            let mut list = Vec::new();
            // A seat's player gets its own legal actions, on its turn only.
            if !over && self.seat.is_none_or(|s| s == to_move) {
                m.legal_actions(&mut list);
            }
            Actions {
                position: self.told(m),
                to_move,
                actions: list.iter().map(ToString::to_string).collect(),
                end,
                life,
            }
        })
    }

    /// What `player` may see at ply `at`; a seat's token sees for its own seat only.
    pub fn view(&self, player: Seat, at: u32) -> Result<G::View, RefereeError> {
        if let Some(seat) = self.seat
            && seat != player
        {
            return Err(RefereeError::WrongSeat(format!(
                "this token is {}'s: it may not see for {}",
                seat.code(),
                player.code()
            )));
        }
        let seats = G::seats(&self.kept.rules);
        if player.index() >= seats as usize {
            return Err(RefereeError::NoSuchSeat(format!(
                "{} has {seats} seats; there is no {}",
                G::TITLE,
                player.code()
            )));
        }
        self.at(at, |m| G::view(m, player))
    }

    /// The verdict on the game's first `at` committed actions with the result a client
    /// states, its positions as the seat is told them.
    pub fn verdict(&self, result: Option<StatedResult>, at: u32) -> Result<Verdict, RefereeError> {
        let mut record = record_at(self.referee, self.kept, at)?;
        record.result = result;
        let mut verdict = validate::<G>(&record);
        verdict.final_position = self.at(at, |m| self.told(m))?;
        match &verdict.error {
            None | Some(ReplayError::ResultMismatch { .. }) => Ok(verdict),
            Some(_) => Err(self.kept.corrupt()),
        }
    }

    /// Plays `action` at ply `at` for the token's seat, commits it and answers what the seat
    /// is told; the same action again at a committed ply gets the same answer, another one
    /// is refused. An action that ends the game is committed only once its record is known
    /// to be one the store keeps; the record is then stored.
    pub fn play(&mut self, text: &str, at: u32) -> Result<Played, RefereeError> {
        if at < self.kept.plies {
            // A retry, or another action at a ply already played: judged where it was meant.
            let mut m = self.replay(at)?;
            let played = self.judge(&mut m, text, at)?;
            let committed = self.kept.action_at(self.referee, at)?;
            let committed = committed.ok_or_else(|| self.kept.corrupt())?;
            return same_or_taken(played, &committed, at).map(|p| p.with(self.life()));
        }
        if let Some(ending) = self.kept.life.ending {
            let said = match ending {
                Ending::Aborted => "the game was aborted".to_owned(),
                Ending::Ended(end) => crate::core::words::end::<G>(end),
            };
            return Err(RefereeError::Illegal {
                violation: Violation::GAME_OVER,
                detail: format!("the game is over ({said})"),
                action: text.to_owned(),
                position: self.at(at, |m| self.told(m))?,
            });
        }
        let mover = self.kept.current.position().to_move();
        let now = self.referee.now_ms();
        if self.kept.life.flag_fallen(mover, now) {
            // Its time ran out before the move came: the flag falls instead.
            self.commit_event(EventKind::Flag, Some(mover))?;
            return Err(RefereeError::Illegal {
                violation: Violation::GAME_OVER,
                detail: format!("{}'s time ran out: the game is over", mover.code()),
                action: text.to_owned(),
                position: self.at(at, |m| self.told(m))?,
            });
        }
        // Judged on the kept match itself: no copy of a long game's history per play. Until
        // the commit holds, the match is in doubt.
        self.doubt = true;
        let judge = Judge::<G> {
            seat: self.seat,
            hidden: self.kept.hidden.as_ref(),
            rules: &self.kept.rules,
        };
        let played = judge.play(&mut self.kept.current, text, at);
        let played = match played {
            Ok(played) => played,
            // Refused before the match changed: nothing in doubt.
            Err(Refusal::Before(e)) => {
                self.doubt = false;
                return Err(e);
            }
            Err(Refusal::After(e)) => return Err(e),
        };
        let finished = match played.end {
            None => None,
            Some(end) => {
                let mut record = record_at(self.referee, self.kept, at)?;
                record.actions.push(played.action.clone());
                record.result = Some(stated_result(Some(end)));
                NewGame::from_record(&record, "referee", "", 0).map_err(|_| self.kept.corrupt())?;
                Some(record)
            }
        };
        let result = played.end.map(|end| end.outcome.to_string());
        match self.referee.store.ledger_commit(
            &self.kept.game_id,
            at,
            &played.action,
            result.as_deref(),
            now,
        )? {
            Commit::Committed => {}
            Commit::Taken(Some(committed)) => {
                return same_or_taken(played, &committed, at).map(|p| p.with(self.life()));
            }
            Commit::Taken(None) => {
                return Err(RefereeError::Conflict {
                    field: "ply",
                    detail: format!(
                        "ply {} is no longer open: the game has moved on or ended",
                        at + 1
                    ),
                });
            }
        }
        self.kept.plies += 1;
        self.kept.last_public = Some(played.public.clone());
        self.kept.life.ply(mover, Some(now));
        self.doubt = false;
        self.referee.committed(&self.kept.game_id);
        if finished.is_some() {
            self.referee.store_finished(self.kept)?;
        }
        Ok(played.with(self.life()))
    }

    /// Judges `text` at ply `at` on a match of this game (not the kept one).
    fn judge(&self, m: &mut G::Match, text: &str, at: u32) -> Result<Judged, RefereeError> {
        let judge = Judge::<G> {
            seat: self.seat,
            hidden: self.kept.hidden.as_ref(),
            rules: &self.kept.rules,
        };
        judge.play(m, text, at).map_err(Refusal::into_error)
    }
}

/// The complete record of the game after its first `at` actions, with the hidden truth: the
/// referee's own, never an answer to a seat (stored once the game has ended: the hidden
/// truth is public then).
fn record_at<G: Rules>(referee: &Referee, kept: &Kept<G>, at: u32) -> Result<Record, RefereeError> {
    let mut record = Record::new(G::NAME, kept.preset, kept.actions(referee, at)?);
    record.options = kept.options.clone();
    record.players = kept.players.clone();
    record.layout = kept.hidden.as_ref().map(G::hidden_value);
    record
        .metadata
        .insert("game_id".into(), Value::from(kept.game_id.clone()));
    if let Some(seed) = kept.seed {
        record.metadata.insert("seed".into(), Value::from(seed));
    }
    Ok(record)
}

/// The finished game's complete record, its result the rules' ending.
pub(super) fn finished_record<G: Rules>(
    referee: &Referee,
    kept: &Kept<G>,
) -> Result<Record, RefereeError> {
    let mut record = record_at(referee, kept, kept.plies)?;
    record.result = Some(match kept.life.ending {
        Some(Ending::Ended(end)) => StatedResult::ended(end.outcome, end.reason, None),
        Some(Ending::Aborted) => StatedResult {
            outcome: StatedOutcome::Ongoing,
            reason: Some(Reason::ABORTED),
            period: None,
        },
        None => stated_result(kept.current.end()),
    });
    for (key, value) in life_metadata(&kept.life) {
        record.metadata.insert(key.into(), value);
    }
    Ok(record)
}

/// What judging needs of a game: whose token, the hidden truth, the rules.
struct Judge<'g, G: Rules> {
    seat: Option<Seat>,
    hidden: Option<&'g G::Hidden>,
    rules: &'g G::Ruleset,
}

/// Why an action was not played: refused before the match changed, or after (the match is
/// then in doubt).
enum Refusal {
    Before(RefereeError),
    After(RefereeError),
}

impl Refusal {
    fn into_error(self) -> RefereeError {
        match self {
            Refusal::Before(e) | Refusal::After(e) => e,
        }
    }
}

impl<G: Rules> Judge<'_, G> {
    /// Plays `text` as the action at ply `at` on `m` for the token's seat: the action as
    /// played and what the seat is told, not yet committed.
    fn play(&self, m: &mut G::Match, text: &str, at: u32) -> Result<Judged, Refusal> {
        let mover = m.position().to_move();
        if let Some(seat) = self.seat
            && seat != mover
        {
            return Err(Refusal::Before(RefereeError::WrongSeat(format!(
                "this token is {}'s: ply {} is {}'s to play",
                seat.code(),
                at + 1,
                mover.code()
            ))));
        }
        let told = G::told(m, mover).to_string();
        let illegal = |violation: Violation, detail: String| RefereeError::Illegal {
            violation,
            detail,
            action: text.to_owned(),
            position: told.clone(),
        };
        if let Some(end) = m.end() {
            return Err(Refusal::Before(illegal(
                Violation::GAME_OVER,
                format!("the game is over ({})", crate::core::words::end::<G>(end)),
            )));
        }
        let action = G::parse_action(text)
            .map_err(|e| Refusal::Before(RefereeError::MalformedAction(e.detail)))?;
        if self.seat.is_some() {
            let mut legal = Vec::new();
            m.legal_actions(&mut legal);
            if !legal.contains(&action) {
                let (violation, detail) = self.why_not(m, action, &legal, text);
                return Err(Refusal::Before(illegal(violation, detail)));
            }
        }
        // The game's own token is the app's server's: it may state identities, checked. What
        // the hidden truth refuses is refused before the match changes.
        let action = G::reveal(action, m.position(), self.hidden)
            .map_err(|e| Refusal::Before(illegal(e.reason, e.detail)))?;
        let effect = m
            .play(&action)
            .map_err(|e| Refusal::After(illegal(e.reason, e.detail)))?;
        let end = m.end();
        Ok(Judged {
            action: action.to_string(),
            public: G::public_action(self.rules, &action, &effect, m.position()),
            effect: G::effect_code(&effect),
            position: G::told(m, mover).to_string(),
            end,
            ply: at + 1,
        })
    }

    /// Why a seat's action is not among its legal actions, from what that seat may know: an
    /// identity it wrote (never checked: whether a guess is right is no answer), or the rules'
    /// reason, in words only where the position holds no secret.
    fn why_not(
        &self,
        m: &G::Match,
        action: G::Action,
        legal: &[G::Action],
        text: &str,
    ) -> (Violation, String) {
        let bare = without_identities(text);
        if let Some(listed) = legal
            .iter()
            .map(ToString::to_string)
            .find(|a| without_identities(a) == bare)
        {
            return (
                Violation::IDENTITY_STATED,
                format!(
                    "write {listed} as the legal actions list it: the referee writes in what it \
                     reveals"
                ),
            );
        }
        // The rules' reason, judged without the hidden truth.
        let reason = match step_match::<G>(m.clone(), None, action) {
            Err(e) => e,
            Ok(_) => crate::core::IllegalAction::new(Violation::UNREACHABLE, String::new()),
        };
        if G::visibility(self.rules).secret() || reason.detail.is_empty() {
            let code = reason.reason.code();
            (
                reason.reason,
                format!("{text} is not a legal action here ({code})"),
            )
        } else {
            (reason.reason, reason.detail)
        }
    }
}

/// The answer to a request for a ply already committed: the same answer when the action is
/// the one committed, else the ply is taken.
fn same_or_taken(played: Judged, committed: &str, at: u32) -> Result<Judged, RefereeError> {
    if played.action == committed {
        return Ok(played);
    }
    // The request's seat is the one that played there (judged above): it may know it.
    Err(RefereeError::AlreadyPlayed {
        ply: at,
        detail: format!("ply {} is already played: {committed}", at + 1),
    })
}

/// An action's text without what parentheses enclose (the identities a flip or an attack
/// reveals).
fn without_identities(text: &str) -> String {
    let mut depth = 0u32;
    text.chars()
        .filter(|&c| match c {
            '(' => {
                depth += 1;
                false
            }
            ')' => {
                depth = depth.saturating_sub(1);
                false
            }
            _ => depth == 0,
        })
        .collect()
}
