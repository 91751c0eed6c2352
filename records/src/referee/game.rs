//! One refereed game as the ledger holds it, opened for one token holder: what that seat may
//! be told of it, and the judging of its next action.

use serde_json::{Map, Value};

use super::RefereeError;
use crate::core::outcome::End;
use crate::core::play::{stated_result, step_match};
use crate::core::record::{Record, StatedResult};
use crate::core::replay::{ReplayError, Verdict, validate};
use crate::core::rules::ruleset;
use crate::core::{Engine as _, Turn as _};
use crate::core::{Rules, Seat, Violation};

/// A refereed game, opened with a token: the game's own (`seat` None: every seat, the app's
/// server) or a seat's.
#[derive(Clone)]
pub struct Refereed<G: Rules> {
    game_id: String,
    seat: Option<Seat>,
    preset: &'static str,
    rules: G::Ruleset,
    options: Map<String, Value>,
    players: Vec<String>,
    seed: Option<u64>,
    hidden: Option<G::Hidden>,
    /// The committed actions, as played (every revealed identity written out).
    actions: Vec<String>,
    /// The match after the last committed action.
    current: G::Match,
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
}

impl<G: Rules> Refereed<G> {
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        game_id: String,
        seat: Option<Seat>,
        preset: &'static str,
        rules: G::Ruleset,
        options: Map<String, Value>,
        players: Vec<String>,
        seed: Option<u64>,
        hidden: Option<G::Hidden>,
        actions: Vec<String>,
    ) -> Result<Refereed<G>, RefereeError> {
        let start = G::start(&rules, hidden.as_ref())
            .map_err(|_| RefereeError::Corrupt(game_id.clone()))?;
        let mut game = Refereed {
            current: G::Match::from_position(rules, start),
            game_id,
            seat,
            preset,
            rules,
            options,
            players,
            seed,
            hidden,
            actions,
        };
        game.current = game.replay(game.plies())?;
        Ok(game)
    }

    pub fn game_id(&self) -> &str {
        &self.game_id
    }

    /// The seat the token speaks for; None for the game's own token.
    pub fn seat(&self) -> Option<Seat> {
        self.seat
    }

    /// Actions committed.
    pub fn plies(&self) -> u32 {
        self.actions.len() as u32
    }

    /// The action committed at ply `at` (0-based), if any.
    pub(super) fn committed(&self, at: u32) -> Option<&str> {
        self.actions.get(at as usize).map(String::as_str)
    }

    /// The match after the first `at` committed actions.
    fn match_at(&self, at: u32) -> Result<G::Match, RefereeError> {
        if at == self.plies() {
            return Ok(self.current.clone());
        }
        self.replay(at)
    }

    fn replay(&self, at: u32) -> Result<G::Match, RefereeError> {
        let corrupt = || RefereeError::Corrupt(self.game_id.clone());
        let start = G::start(&self.rules, self.hidden.as_ref()).map_err(|_| corrupt())?;
        let mut m = G::Match::from_position(self.rules, start);
        for text in &self.actions[..at as usize] {
            let action = G::parse_action(text)
                .and_then(|a| G::reveal(a, m.position(), self.hidden.as_ref()))
                .map_err(|_| corrupt())?;
            m.play(&action).map_err(|_| corrupt())?;
        }
        Ok(m)
    }

    /// The position string as `seat` is told it.
    fn told(&self, m: &G::Match, seat: Seat) -> String {
        G::told(m, seat).to_string()
    }

    /// The seat whose eyes an answer is for: the token's, or for the game's own token the
    /// seat to move.
    fn eyes(&self, m: &G::Match) -> Seat {
        self.seat.unwrap_or_else(|| m.position().to_move())
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
            if !record.players.is_empty() && record.players != self.players {
                return Err(conflict(
                    "record.players",
                    format!("the game's players are {:?}", self.players),
                ));
            }
            if let Some(id) = record.metadata.get("game_id")
                && id.as_str() != Some(self.game_id.as_str())
            {
                return Err(conflict(
                    "record.metadata",
                    format!("the record's game_id is not {}", self.game_id),
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
        if let Some(text) = stated.position {
            let m = self.match_at(at)?;
            if text != self.told(&m, self.eyes(&m)) {
                return Err(conflict(
                    "position",
                    format!(
                        "that is not the game's position after {at} plies: a request with a \
                         token is about the ledger's game (send `ply` or the record instead)"
                    ),
                ));
            }
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
        if let Some(name) = preset
            && name != self.preset
        {
            return Err(RefereeError::Conflict {
                field: if prefix.is_empty() {
                    "preset"
                } else {
                    "record.preset"
                },
                detail: format!("the game is played under preset {}", self.preset),
            });
        }
        if let Some(options) = options.filter(|o| !o.is_empty())
            && ruleset::<G>(Some(self.preset), options).ok() != Some(self.rules)
        {
            return Err(RefereeError::Conflict {
                field: if prefix.is_empty() {
                    "options"
                } else {
                    "record.options"
                },
                detail: format!(
                    "the game is played under preset {} with options {}",
                    self.preset,
                    Value::Object(self.options.clone())
                ),
            });
        }
        Ok(())
    }

    /// Whether `stated` are the first committed actions, as played or as the seat wrote them
    /// (without the identities the referee filled in). Every committed action is public to
    /// every seat, so the comparison tells a seat nothing new.
    fn same_actions(&self, stated: &[String]) -> Result<(), RefereeError> {
        let mut m = self.match_at(0)?;
        for (i, (text, committed)) in stated.iter().zip(&self.actions).enumerate() {
            let same = text == committed
                || G::parse_action(text)
                    .and_then(|a| G::reveal(a, m.position(), self.hidden.as_ref()))
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
            let action = G::parse_action(committed)
                .and_then(|a| G::reveal(a, m.position(), self.hidden.as_ref()))
                .map_err(|_| RefereeError::Corrupt(self.game_id.clone()))?;
            m.play(&action)
                .map_err(|_| RefereeError::Corrupt(self.game_id.clone()))?;
        }
        Ok(())
    }

    /// The legal actions at ply `at`, as the token's seat is told them.
    pub fn actions(&self, at: u32) -> Result<Actions, RefereeError> {
        let m = self.match_at(at)?;
        let pos = m.position();
        let to_move = pos.to_move();
        let end = m.end();
        let mut list = Vec::new();
        // A seat's player gets its own legal actions, on its turn only.
        if end.is_none() && self.seat.is_none_or(|s| s == to_move) {
            m.legal_actions(&mut list);
        }
        Ok(Actions {
            position: self.told(&m, self.eyes(&m)),
            to_move,
            actions: list.iter().map(ToString::to_string).collect(),
            end,
        })
    }

    /// The engine's analysis of ply `at` for the side to move, from what the token's seat
    /// may know (the game's token: the side to move's knowledge). Nothing else of the ledger
    /// reaches the engine, so the answer is the same under every hidden truth the seat
    /// cannot tell apart.
    pub fn analysis(
        &self,
        at: u32,
        limits: &crate::core::analysis::Limits,
    ) -> Result<crate::core::analysis::Analysis, RefereeError> {
        let m = self.match_at(at)?;
        Ok(G::analyze(&m, self.seat, limits)?)
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
        let seats = G::seats(&self.rules);
        if player.index() >= seats as usize {
            return Err(RefereeError::NoSuchSeat(format!(
                "{} has {seats} seats; there is no {}",
                G::TITLE,
                player.code()
            )));
        }
        Ok(G::view(&self.match_at(at)?, player))
    }

    /// The verdict on the game's first `at` committed actions with the result a client
    /// states, its positions as the seat is told them.
    pub fn verdict(&self, result: Option<StatedResult>, at: u32) -> Result<Verdict, RefereeError> {
        let mut record = self.record_at(at);
        record.result = result;
        let mut verdict = validate::<G>(&record);
        let m = self.match_at(at)?;
        verdict.final_position = self.told(&m, self.eyes(&m));
        match &verdict.error {
            None | Some(ReplayError::ResultMismatch { .. }) => Ok(verdict),
            Some(_) => Err(RefereeError::Corrupt(self.game_id.clone())),
        }
    }

    /// The game's record after its first `at` actions, with the hidden truth: the referee's
    /// own, never an answer to a seat.
    fn record_at(&self, at: u32) -> Record {
        let mut record = Record::new(G::NAME, self.preset, self.actions[..at as usize].to_vec());
        record.options = self.options.clone();
        record.players = self.players.clone();
        record.layout = self.hidden.as_ref().map(G::hidden_value);
        record
            .metadata
            .insert("game_id".into(), Value::from(self.game_id.clone()));
        if let Some(seed) = self.seed {
            record.metadata.insert("seed".into(), Value::from(seed));
        }
        record
    }

    /// The complete record of the game as it stands (stored once it has ended: the hidden
    /// truth is public then).
    pub(super) fn finished_record(&self) -> Record {
        let mut record = self.record_at(self.plies());
        record.result = Some(stated_result(self.current.end()));
        record
    }

    /// This game with `action` committed after its last.
    pub(super) fn after(&self, action: &str) -> Result<Refereed<G>, RefereeError> {
        let mut actions = self.actions.clone();
        actions.push(action.to_owned());
        Refereed::new(
            self.game_id.clone(),
            self.seat,
            self.preset,
            self.rules,
            self.options.clone(),
            self.players.clone(),
            self.seed,
            self.hidden.clone(),
            actions,
        )
    }

    /// Judges `text` as the action at ply `at` for the token's seat: the action as played and
    /// what the seat is told, not yet committed.
    pub(super) fn judge(&self, text: &str, at: u32) -> Result<Played, RefereeError> {
        let m = self.match_at(at)?;
        let mover = m.position().to_move();
        if let Some(seat) = self.seat
            && seat != mover
        {
            return Err(RefereeError::WrongSeat(format!(
                "this token is {}'s: ply {} is {}'s to play",
                seat.code(),
                at + 1,
                mover.code()
            )));
        }
        let told = self.told(&m, mover);
        let illegal = |violation: Violation, detail: String| RefereeError::Illegal {
            violation,
            detail,
            action: text.to_owned(),
            position: told.clone(),
        };
        if let Some(end) = m.end() {
            return Err(illegal(
                Violation::GAME_OVER,
                format!(
                    "the game is over ({} by {})",
                    end.outcome.describe(),
                    end.reason
                ),
            ));
        }
        let action = G::parse_action(text).map_err(|e| RefereeError::MalformedAction(e.detail))?;
        if self.seat.is_some() {
            let mut legal = Vec::new();
            m.legal_actions(&mut legal);
            if !legal.contains(&action) {
                let (violation, detail) = self.why_not(&m, action, &legal, text);
                return Err(illegal(violation, detail));
            }
        }
        // The game's own token is the app's server's: it may state identities, checked.
        let step = step_match::<G>(m, self.hidden.as_ref(), action)
            .map_err(|e| illegal(e.reason, e.detail))?;
        Ok(Played {
            action: step.action.to_string(),
            effect: G::effect_code(&step.effect),
            position: self.told(&step.after, mover),
            end: step.end,
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
        if G::visibility(&self.rules).secret() || reason.detail.is_empty() {
            let code = reason.reason.code();
            (
                reason.reason,
                format!("{text} is not a legal action here ({code})"),
            )
        } else {
            (reason.reason, reason.detail)
        }
    }

    /// The answer to a request for a ply already committed: the same answer when the action
    /// is the one committed, else the ply is taken.
    pub(super) fn same_or_taken(
        &self,
        played: Played,
        committed: &str,
        at: u32,
    ) -> Result<Played, RefereeError> {
        if played.action == committed {
            return Ok(played);
        }
        // The request's seat is the one that played there (judged above): it may know it.
        Err(RefereeError::AlreadyPlayed {
            ply: at,
            detail: format!("ply {} is already played: {committed}", at + 1),
        })
    }
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
