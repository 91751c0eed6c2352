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
//! When a game ends, its complete record (the layout is public then) is stored in the store's
//! games, and the ledger keeps only a pointer to it. Games left unplayed expire.

mod game;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};

use serde_json::{Map, Value};
use thiserror::Error;

use crate::core::play::deal;
use crate::core::rules::{find_preset, overrides, ruleset};
use crate::core::{Record, Rules, RulesetError, Seat, Violation};
use crate::seal::{Binding, Keys, TokenError, new_game_id};
use crate::store::{LedgerRow, Store, StoreError, unix_now};

pub use game::{Actions, Played, Refereed, Stated};

/// How the referee runs.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Seconds after its last action that an unfinished game is forgotten (and a finished
    /// game's ledger row: its stored game stays).
    pub expiry_seconds: i64,
}

impl Default for Settings {
    /// A week.
    fn default() -> Settings {
        Settings {
            expiry_seconds: 7 * 24 * 3600,
        }
    }
}

/// The referee: the store holding its ledger, and the keys it seals with.
pub struct Referee {
    store: Store,
    keys: Keys,
    settings: Settings,
    /// When expired games were last swept (Unix seconds).
    last_sweep: AtomicI64,
}

/// Why the referee refuses a request. Every message names only what the asking seat may know.
#[derive(Debug, Error)]
pub enum RefereeError {
    /// No game with this id is in the ledger.
    #[error(
        "no game {0:?} is refereed here: an unknown id, or a game left unplayed long enough to expire"
    )]
    NotFound(String),
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
    /// A seat the game does not have.
    #[error("{0}")]
    NoSuchSeat(String),
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The game has no engine to analyse it with.
    #[error("{0}")]
    Analysis(#[from] crate::core::analysis::AnalysisError),
    /// The ledger holds what the referee cannot replay: a bug, never the client's doing.
    #[error("the ledger's game {0} does not replay")]
    Corrupt(String),
}

/// What a deal is asked for.
#[derive(Clone, Debug, Default)]
pub struct DealOrder<'a> {
    pub preset: Option<&'a str>,
    pub options: Map<String, Value>,
    pub players: Vec<String>,
    /// A seed makes the deal public (anyone with it deals the same); none: the operating
    /// system's generator, a deal nobody can repeat.
    pub seed: Option<u64>,
    /// The hidden truth to seal instead of dealing one (Luzhanqi's setups as submitted).
    pub layout: Option<&'a Value>,
    /// Also give the hidden truth in clear (the app's server's, never a player's).
    pub include_layout: bool,
}

/// A dealt game.
#[derive(Clone, Debug)]
pub struct Dealt {
    pub game_id: String,
    /// The game's own token: it speaks for every seat (the app's server's).
    pub token: String,
    /// One token per seat (`player1` …), for that player's client.
    pub seat_tokens: BTreeMap<String, String>,
    /// The seed, when the deal was given one.
    pub seed: Option<u64>,
    /// The hidden truth, when `include_layout` asked for it.
    pub layout: Option<Value>,
    /// The start position, unless it is a secret (a dark Luzhanqi game's setups) and
    /// `include_layout` did not ask for it.
    pub position: Option<String>,
    /// An empty record of the game (its layout only with `include_layout`).
    pub record: Record,
}

impl Referee {
    pub fn new(store: Store, keys: Keys, settings: Settings) -> Referee {
        Referee {
            store,
            keys,
            settings,
            last_sweep: AtomicI64::new(0),
        }
    }

    /// Deals a game of `G`, writes it in the ledger, and gives its tokens.
    pub fn deal<G: Rules>(&self, order: DealOrder) -> Result<Dealt, RefereeError> {
        self.sweep()?;
        let rules = ruleset::<G>(order.preset, &order.options).map_err(RefereeError::Ruleset)?;
        let given = match order.layout {
            None => None,
            Some(value) => {
                let hidden =
                    G::parse_hidden(value).map_err(|e| RefereeError::Layout(e.to_string()))?;
                let start = G::start(&rules, Some(&hidden))
                    .map_err(|e| RefereeError::Layout(e.to_string()))?;
                G::hidden_fits(&hidden, &start).map_err(|e| RefereeError::Layout(e.to_string()))?;
                Some(hidden)
            }
        };
        let dealt = deal::<G>(
            order.preset,
            &order.options,
            order.players.clone(),
            order.seed,
            given,
        )
        .map_err(RefereeError::Ruleset)?;
        let preset = find_preset(G::PRESETS, order.preset)
            .map_err(RefereeError::Ruleset)?
            .name;
        let game_id = new_game_id();
        let binding = |seat: Option<&'static str>| Binding {
            game: G::NAME,
            preset,
            game_id: &game_id,
            seat,
        };
        let has_hidden = G::visibility(&rules).has_hidden();
        let now = unix_now();
        self.store.ledger_insert(&LedgerRow {
            game_id: game_id.clone(),
            game: G::NAME.to_owned(),
            preset: preset.to_owned(),
            options: canonical_options::<G>(&order.options)?,
            players: serde_json::to_string(&order.players).expect("names serialise"),
            sealed_truth: has_hidden.then(|| self.keys.seal::<G>(binding(None), &dealt.hidden)),
            seed: order.seed.map(|s| s.to_string()),
            plies: 0,
            result: None,
            stored_game: None,
            created_at: now,
            updated_at: now,
        })?;
        let seat_tokens = Seat::all(G::seats(&rules))
            .map(|seat| {
                let code = seat.code();
                (code.to_owned(), self.keys.token(binding(Some(code))))
            })
            .collect();
        let mut record = dealt.record;
        record
            .metadata
            .insert("game_id".into(), Value::from(game_id.clone()));
        if !order.include_layout {
            record.layout = None;
        }
        let shown = order.include_layout || !G::visibility(&rules).secret();
        Ok(Dealt {
            token: self.keys.token(binding(None)),
            seat_tokens,
            seed: order.seed,
            layout: (order.include_layout && has_hidden).then(|| G::hidden_value(&dealt.hidden)),
            position: shown.then(|| dealt.start.to_string()),
            record,
            game_id,
        })
    }

    /// The ledger's game `game_id` of `G`, for the holder of `token`: the game's own token
    /// (every seat) or a seat's.
    pub fn open<G: Rules>(&self, game_id: &str, token: &str) -> Result<Refereed<G>, RefereeError> {
        let Some((row, actions)) = self.store.ledger_game(game_id)? else {
            return Err(RefereeError::NotFound(game_id.to_owned()));
        };
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
        // The token is the game's: only now may its holder learn what kind of game it is.
        if row.game != G::NAME {
            return Err(RefereeError::Conflict {
                field: "game",
                detail: format!("game {game_id} is a {} game, not {}", row.game, G::NAME),
            });
        }
        let preset = find_preset(G::PRESETS, Some(&row.preset))
            .map_err(|_| RefereeError::Corrupt(game_id.to_owned()))?
            .name;
        let options: Map<String, Value> = serde_json::from_str(&row.options)
            .map_err(|_| RefereeError::Corrupt(game_id.to_owned()))?;
        let rules = ruleset::<G>(Some(preset), &options)
            .map_err(|_| RefereeError::Corrupt(game_id.to_owned()))?;
        let corrupt = || RefereeError::Corrupt(game_id.to_owned());
        let (hidden, actions) = match (row.stored_game, &row.sealed_truth) {
            // A finished game: its stored record holds the layout (public now) and the actions.
            (Some(stored), _) => {
                let (_, record) = self.store.get(stored)?.ok_or_else(corrupt)?;
                let hidden = match &record.layout {
                    Some(value) => Some(G::parse_hidden(value).map_err(|_| corrupt())?),
                    None => None,
                };
                (hidden, record.actions)
            }
            (None, Some(sealed)) => (
                Some(
                    self.keys
                        .open::<G>(sealed, binding(None))
                        .map_err(|_| corrupt())?,
                ),
                actions,
            ),
            (None, None) => (None, actions),
        };
        let game = Refereed::new(
            game_id.to_owned(),
            seat,
            preset,
            rules,
            options,
            serde_json::from_str(&row.players).map_err(|_| corrupt())?,
            row.seed.as_deref().and_then(|s| s.parse().ok()),
            hidden,
            actions,
        )?;
        if row.result.is_some() && row.stored_game.is_none() {
            // It ended, but storing its record did not happen (the process stopped between
            // the two): store it now (storing is idempotent).
            self.store_finished(&game)?;
        }
        Ok(game)
    }

    /// Plays `action` at ply `at` of `game` for its token's seat, commits it and answers what
    /// the seat is told; the same action again at a committed ply gets the same answer.
    pub fn play<G: Rules>(
        &self,
        game: &Refereed<G>,
        action: &str,
        at: u32,
    ) -> Result<Played, RefereeError> {
        let played = game.judge(action, at)?;
        if let Some(committed) = game.committed(at) {
            return game.same_or_taken(played, committed, at);
        }
        let result = played.end.map(|end| end.outcome.to_string());
        match self
            .store
            .ledger_commit(game.game_id(), at, &played.action, result.as_deref())?
        {
            crate::store::Commit::Committed => {}
            crate::store::Commit::Taken(Some(committed)) => {
                return game.same_or_taken(played, &committed, at);
            }
            crate::store::Commit::Taken(None) => {
                return Err(RefereeError::Conflict {
                    field: "ply",
                    detail: format!(
                        "ply {} is no longer open: the game has moved on or ended",
                        at + 1
                    ),
                });
            }
        }
        if played.end.is_some() {
            self.store_finished(&game.after(&played.action)?)?;
        }
        Ok(played)
    }

    /// Stores a finished game's record in the store's games and compacts its ledger row.
    fn store_finished<G: Rules>(&self, game: &Refereed<G>) -> Result<(), RefereeError> {
        let record = game.finished_record();
        let imported = self.store.import(&[crate::store::Incoming {
            record,
            source: format!("referee:{}", game.game_id()),
        }])?;
        match imported.first() {
            Some(
                crate::store::Imported::Stored { id, .. }
                | crate::store::Imported::Duplicate { id, .. },
            ) => {
                self.store.ledger_compact(game.game_id(), *id)?;
                Ok(())
            }
            _ => Err(RefereeError::Corrupt(game.game_id().to_owned())),
        }
    }

    /// Forgets expired games, at most once a minute.
    fn sweep(&self) -> Result<(), RefereeError> {
        let now = unix_now();
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
}

/// A deal's options as the game's overrides in canonical JSON (fields in the game's order).
fn canonical_options<G: Rules>(options: &Map<String, Value>) -> Result<String, RefereeError> {
    let overrides = overrides::<G>(options).map_err(RefereeError::Ruleset)?;
    // Unset options are left out (`{}` for none); a `null` that turns a rule off stays.
    Ok(serde_json::to_string(&overrides).expect("overrides serialise"))
}
