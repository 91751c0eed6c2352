//! Playing a game one action at a time, as a stateless service does: deal a new game, play
//! one action on a bare position, and write what was played as a record.

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Map, Value};

use super::outcome::End;
use super::record::{Record, StatedResult};
use super::rules::{Rules, RulesetError, ruleset};
use super::violation::{IllegalAction, Violation};
use crate::core::{Engine as _, Turn as _};

/// One action played on a position.
pub struct Step<G: Rules> {
    /// The action as played, every revealed identity written out.
    pub action: G::Action,
    pub effect: G::Effect,
    /// The match after it (its history starts at the position played from).
    pub after: G::Match,
    /// How the game has ended after the action, if it has.
    pub end: Option<End>,
}

/// Plays a game on from `m` until it ends or `max_plies` are played: `choose` picks each
/// action (identities it reveals left open: they are filled in from `hidden`), None when the
/// side to move has none; `on_ply` sees the match after it. Gives the match and how the game
/// ended (None when cut at `max_plies`). The one loop of random playouts and of `anqi
/// simulate`'s bots.
pub fn play_out<G: Rules>(
    mut m: G::Match,
    hidden: Option<&G::Hidden>,
    max_plies: u32,
    mut choose: impl FnMut(&G::Match) -> Option<G::Action>,
    mut on_ply: impl FnMut(&G::Match, &G::Action),
) -> (G::Match, Option<End>) {
    loop {
        // As replay does: a game that tells the endings other than "no legal action" apart
        // cheaply is asked that, and the search for a legal action is `choose`'s.
        let ended = match m.end_when_movable() {
            Some(None) => None,
            _ => m.end(),
        };
        if let Some(end) = ended {
            return (m, Some(end));
        }
        if m.position().ply() >= max_plies {
            return (m, None);
        }
        let Some(choice) = choose(&m) else {
            let end = m.end();
            return (m, end);
        };
        let action = G::reveal(choice, m.position(), hidden)
            .expect("the hidden truth fills in what a chosen action reveals");
        m.play(&action).expect("a chosen action is legal");
        on_ply(&m, &action);
    }
}

/// Plays uniformly random legal actions from the start `hidden` sets up (flips and other
/// reveals filled in from it) until the game ends or `max_plies` are played: the benchmark of
/// a game's move generation and a quick source of games. `buffer` is reused: nothing is
/// allocated per ply. (Banqi has a faster playout of its own, `banqi::random_playout`, that
/// counts the legal actions instead of listing them.)
pub fn random_playout<G: Rules, R: rand::RngExt + ?Sized>(
    rules: G::Ruleset,
    hidden: &G::Hidden,
    rng: &mut R,
    max_plies: u32,
    buffer: &mut Vec<G::Action>,
    on_ply: impl FnMut(&G::Match, &G::Action),
) -> G::Match {
    let start = G::start(&rules, Some(hidden)).expect("a hidden truth sets up its start");
    let choose = |m: &G::Match| {
        m.legal_actions(buffer);
        (!buffer.is_empty()).then(|| buffer[rng.random_range(0..buffer.len())].clone())
    };
    play_out::<G>(
        G::Match::from_position(rules, start),
        Some(hidden),
        max_plies,
        choose,
        on_ply,
    )
    .0
}

/// Plays `action` on the bare position `pos` (no history: see [`step_match`]).
pub fn step<G: Rules>(
    rules: G::Ruleset,
    pos: G::Position,
    hidden: Option<&G::Hidden>,
    action: G::Action,
) -> Result<Step<G>, IllegalAction> {
    step_match::<G>(G::Match::from_position(rules, pos), hidden, action)
}

/// Plays `action` in the match `m` (a game replayed so far, with the history its draw and
/// chase rules need): refused when the game is already over; the identities it reveals are
/// filled in from (or checked against) `hidden` when known.
pub fn step_match<G: Rules>(
    mut m: G::Match,
    hidden: Option<&G::Hidden>,
    action: G::Action,
) -> Result<Step<G>, IllegalAction> {
    let pos = m.position().clone();
    if let Some(end) = m.end() {
        return Err(IllegalAction::new(
            Violation::GAME_OVER,
            format!(
                "the game is over at this position ({})",
                crate::core::words::end::<G>(end)
            ),
        ));
    }
    let action = G::reveal(action, &pos, hidden)?;
    let effect = m.play(&action)?;
    let end = m.end();
    Ok(Step {
        action,
        effect,
        after: m,
        end,
    })
}

/// A new game: its hidden truth dealt, its start, and an empty record of it.
pub struct Deal<G: Rules> {
    /// The seed the deal was given, if any (a public deal).
    pub seed: Option<u64>,
    pub hidden: G::Hidden,
    pub start: G::Position,
    /// The record to append actions to as the game goes: the preset, options, players and
    /// the hidden truth (`layout`), and a given seed in `metadata.seed`.
    pub record: Record,
}

/// Deals a game of `G` under `preset` (the game's default when absent) and `options`: the
/// hidden truth `given` (Luzhanqi's setups, as the players submitted them), or one dealt from
/// `seed` (a public deal: anyone with the seed deals it again), or, with neither, from the
/// operating system's generator (a deal nobody can repeat).
pub fn deal<G: Rules>(
    preset: Option<&str>,
    options: &Map<String, Value>,
    players: Vec<String>,
    seed: Option<u64>,
    given: Option<G::Hidden>,
) -> Result<Deal<G>, RulesetError> {
    let rules = ruleset::<G>(preset, options)?;
    let hidden = match given {
        Some(hidden) => {
            let start = G::start(&rules, Some(&hidden))
                .map_err(|e| RulesetError::Invalid(e.to_string()))?;
            G::hidden_fits(&hidden, &start).map_err(|e| RulesetError::Invalid(e.to_string()))?;
            hidden
        }
        None => {
            let mut rng = match seed {
                Some(seed) => StdRng::seed_from_u64(seed),
                None => StdRng::try_from_rng(&mut rand::rngs::SysRng)
                    .expect("the operating system's random generator"),
            };
            G::deal(&rules, &mut rng)
        }
    };
    let preset = preset.unwrap_or(G::PRESETS[0].name);
    let mut record = Record::new(G::NAME, preset, Vec::new());
    record.options = options.clone();
    record.players = players;
    record.layout = G::visibility(&rules)
        .has_hidden()
        .then(|| G::hidden_value(&hidden));
    if let Some(seed) = seed {
        record.metadata.insert("seed".into(), Value::from(seed));
    }
    Ok(Deal {
        seed,
        start: G::start(&rules, Some(&hidden)).expect("a dealt truth sets up a start"),
        hidden,
        record,
    })
}

/// A random legal game of `G` under `preset`, from `seed`, at most `plies` long (shorter when
/// it ends): every action picked uniformly among the legal ones, each revealed identity
/// written out, the dealt hidden truth as the record's layout where the preset hides anything.
/// For tests, examples and demonstrations; `anqi simulate` plays whole games with its bots.
pub fn random_record<G: Rules>(
    preset: &'static super::rules::Preset<G::Ruleset>,
    seed: u64,
    plies: usize,
) -> Record {
    use rand::RngExt as _;
    let mut rng = StdRng::seed_from_u64(seed);
    let hidden = G::deal(&preset.ruleset, &mut rng);
    let start = G::start(&preset.ruleset, Some(&hidden)).expect("a dealt truth sets up a start");
    let mut m = G::Match::from_position(preset.ruleset, start);
    let (mut actions, mut legal) = (Vec::new(), Vec::new());
    while actions.len() < plies && m.end().is_none() {
        m.legal_actions(&mut legal);
        let pick = legal[rng.random_range(0..legal.len())].clone();
        let action = G::reveal(pick, m.position(), Some(&hidden)).expect("a dealt truth fits");
        m.play(&action).expect("a legal action plays");
        actions.push(action.to_string());
    }
    let mut record = Record::new(G::NAME, preset.name, actions);
    record.layout = G::visibility(&preset.ruleset)
        .has_hidden()
        .then(|| G::hidden_value(&hidden));
    record
}

/// The result a record of a game played to `end` states: the ending the rules reached, or
/// `ongoing` when the game was stopped before one.
pub fn stated_result(end: Option<End>) -> StatedResult {
    match end {
        Some(end) => StatedResult::ended(end.outcome, end.reason, end.period),
        None => StatedResult::ongoing(),
    }
}
