//! Dealing a game: the order checked whole (the players' names, the options, the cap its
//! rules need, that the game is not over before it starts, that the store will keep its
//! record) before anything is written; then its row in the ledger and its tokens.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::life::{MAX_CLOCK_MS, TimeControl};
use super::{Referee, RefereeError};
use crate::core::play::deal;
use crate::core::rules::{find_preset, overrides, ruleset};
use crate::core::{Engine as _, Record, Rules, Seat};
use crate::seal::{Binding, new_game_id};
use crate::store::{LedgerRow, NewGame};

/// The longest player name a deal takes, in characters.
pub const MAX_NAME_CHARS: usize = 100;

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
    /// The game's clock (none: no clock).
    pub clock: Option<TimeControl>,
    /// How long the seat to move may stay silent before another seat may claim the game
    /// (none: never); [`default_claim_after_ms`] is what a deal that says nothing gets.
    pub claim_after_ms: Option<i64>,
    /// The seats the service's engine plays, each with its milliseconds a move (1 to
    /// [`MAX_ENGINE_MS`]): the engine is told only what its seat may know.
    pub engines: BTreeMap<Seat, u64>,
}

/// The most milliseconds the engine of an engine seat thinks a move.
pub const MAX_ENGINE_MS: u64 = 10_000;

/// The claim a deal that says nothing gets: ten minutes of silence in a game without a
/// clock; none with a clock (its flag falls first).
pub fn default_claim_after_ms(clock: Option<TimeControl>) -> Option<i64> {
    clock.is_none().then_some(10 * 60 * 1000)
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
    /// An empty record of the game (its layout only with `include_layout`), its options as
    /// the referee keeps them (the cap included, where the rules needed one).
    pub record: Record,
}

impl Referee {
    /// Deals a game of `G`, writes it in the ledger, and gives its tokens. Nothing is written
    /// unless the whole order can be refereed to the end and stored.
    pub fn deal<G: Rules>(&self, order: DealOrder) -> Result<Dealt, RefereeError> {
        self.sweep()?;
        check_clock(order.clock, order.claim_after_ms)?;
        let options = self.capped_options::<G>(order.preset, &order.options)?;
        let rules = ruleset::<G>(order.preset, &options).map_err(RefereeError::Ruleset)?;
        check_players(&order.players, G::seats(&rules))?;
        check_engines(&order.engines, G::seats(&rules))?;
        let players = with_engine_names(&order.players, &order.engines);
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
        let dealt = deal::<G>(order.preset, &options, players.clone(), order.seed, given)
            .map_err(RefereeError::Ruleset)?;
        let start_field = if order.layout.is_some() {
            "layout"
        } else {
            "options"
        };
        if let Some(end) = G::Match::from_position(rules, dealt.start.clone()).end() {
            return Err(RefereeError::Deal {
                field: start_field,
                detail: format!(
                    "the game would be over before its first ply ({}): nothing to referee",
                    crate::core::words::end::<G>(end)
                ),
            });
        }
        // The store must keep the record this game ends with: what it refuses of an empty
        // record (names, options) it would refuse then.
        if let Err(e) = NewGame::from_record(&dealt.record, "referee", "", 0) {
            let field = if e.code() == "invalid_players" {
                "players"
            } else {
                start_field
            };
            return Err(RefereeError::Deal {
                field,
                detail: format!("the record store would not keep this game: {e}"),
            });
        }
        let preset = find_preset(G::PRESETS, order.preset)
            .map_err(RefereeError::Ruleset)?
            .name;
        let game_id = new_game_id();
        let has_hidden = G::visibility(&rules).has_hidden();
        let truth = Binding {
            game: G::NAME,
            preset,
            game_id: &game_id,
            seat: None,
        };
        let now = self.now_ms() / 1000;
        self.store.ledger_insert(&LedgerRow {
            clock_base_ms: order.clock.map(|c| c.base_ms),
            clock_increment_ms: order.clock.map(|c| c.increment_ms),
            claim_after_ms: order.claim_after_ms,
            events: 0,
            engines: (!order.engines.is_empty()).then(|| engines_json(&order.engines)),
            game_id: game_id.clone(),
            game: G::NAME.to_owned(),
            preset: preset.to_owned(),
            options: canonical_options::<G>(&options)?,
            players: serde_json::to_string(&players).expect("names serialise"),
            sealed_truth: has_hidden.then(|| self.keys.seal::<G>(truth, &dealt.hidden)),
            seed: order.seed.map(|s| s.to_string()),
            plies: 0,
            result: None,
            stored_game: None,
            created_at: now,
            updated_at: now,
        })?;
        let (token, seat_tokens) = self.tokens::<G>(&rules, preset, &game_id);
        let mut record = dealt.record;
        record
            .metadata
            .insert("game_id".into(), Value::from(game_id.clone()));
        if !order.include_layout {
            record.layout = None;
        }
        let shown = order.include_layout || !G::visibility(&rules).secret();
        Ok(Dealt {
            token,
            seat_tokens,
            seed: order.seed,
            layout: (order.include_layout && has_hidden).then(|| G::hidden_value(&dealt.hidden)),
            position: shown.then(|| dealt.start.to_string()),
            record,
            game_id,
        })
    }

    /// The deal's options with the service's cap where the rules need one: a game its rules
    /// could let go on longer than `max_plies` gets `max_plies` (unless the order named a
    /// cap of its own, or none: then it is refused, naming the option).
    fn capped_options<G: Rules>(
        &self,
        preset: Option<&str>,
        options: &Map<String, Value>,
    ) -> Result<Map<String, Value>, RefereeError> {
        let rules = ruleset::<G>(preset, options).map_err(RefereeError::Ruleset)?;
        let cap = self.settings.cap();
        if G::longest(&rules).is_some_and(|n| n <= cap as u32) {
            return Ok(options.clone());
        }
        if options.contains_key("max_plies") {
            return Err(RefereeError::Deal {
                field: "options.max_plies",
                detail: format!(
                    "the referee ends every game by its ply {cap} (the service's --max-plies): \
                     give max_plies of at most {cap}, or leave it out"
                ),
            });
        }
        let mut capped = options.clone();
        capped.insert("max_plies".into(), Value::from(cap));
        Ok(capped)
    }
}

/// Engine seats the game has, not all of them, each thinking 1 ms to [`MAX_ENGINE_MS`].
fn check_engines(engines: &BTreeMap<Seat, u64>, seats: u8) -> Result<(), RefereeError> {
    let refuse = |detail: String| {
        Err(RefereeError::Deal {
            field: "engines",
            detail,
        })
    };
    if let Some(seat) = engines.keys().find(|s| s.index() >= seats as usize) {
        return refuse(format!("a game of {seats} seats has no {}", seat.code()));
    }
    if engines.len() >= seats as usize {
        return refuse("the engine plays some seats, not every seat: a person plays one".into());
    }
    if let Some((seat, ms)) = engines
        .iter()
        .find(|(_, ms)| !(1..=MAX_ENGINE_MS).contains(*ms))
    {
        return refuse(format!(
            "{}'s engine thinks {ms} ms a move: give 1 to {MAX_ENGINE_MS}",
            seat.code()
        ));
    }
    Ok(())
}

/// Engine seats as the ledger keeps them: `{"player2": 100}`.
pub(super) fn engines_json(engines: &BTreeMap<Seat, u64>) -> String {
    let map: serde_json::Map<String, Value> = engines
        .iter()
        .map(|(s, ms)| (s.code().to_owned(), Value::from(*ms)))
        .collect();
    Value::Object(map).to_string()
}

/// A clock of 1 ms to a day a seat, an increment of at most a day, a claim after 1 ms to a
/// day.
fn check_clock(
    clock: Option<TimeControl>,
    claim_after_ms: Option<i64>,
) -> Result<(), RefereeError> {
    let refuse = |field, detail: String| Err(RefereeError::Deal { field, detail });
    if let Some(c) = clock {
        if !(1..=MAX_CLOCK_MS).contains(&c.base_ms) {
            return refuse(
                "clock.base_ms",
                format!(
                    "a clock of {} ms: give 1 ms to a day ({MAX_CLOCK_MS})",
                    c.base_ms
                ),
            );
        }
        if !(0..=MAX_CLOCK_MS).contains(&c.increment_ms) {
            return refuse(
                "clock.increment_ms",
                format!(
                    "an increment of {} ms: give 0 to a day ({MAX_CLOCK_MS})",
                    c.increment_ms
                ),
            );
        }
    }
    if let Some(ms) = claim_after_ms
        && !(1..=MAX_CLOCK_MS).contains(&ms)
    {
        return refuse(
            "claim_after_ms",
            format!("a claim after {ms} ms: give 1 ms to a day ({MAX_CLOCK_MS})"),
        );
    }
    Ok(())
}

/// The players' names with the service's engine named where a seat it plays has none, by its
/// time a move (`engine 0.3 s`); a seat before it without a name is called by its number, as
/// a record names an unnamed seat.
fn with_engine_names(players: &[String], engines: &BTreeMap<Seat, u64>) -> Vec<String> {
    let Some(last) = engines.keys().map(|s| s.index() + 1).max() else {
        return players.to_vec();
    };
    let mut named = players.to_vec();
    for i in named.len()..last.max(named.len()) {
        let seat = Seat::all(u8::MAX).nth(i).expect("a seat");
        named.push(match engines.get(&seat) {
            Some(ms) => engine_name(*ms),
            None => format!("player {}", i + 1),
        });
    }
    named
}

/// The engine as a player: `engine 0.3 s`, `engine 1 s`.
pub fn engine_name(ms: u64) -> String {
    let seconds = format!("{:.3}", ms as f64 / 1000.0);
    format!(
        "engine {} s",
        seconds.trim_end_matches('0').trim_end_matches('.')
    )
}

/// At most one name per seat, each 1–[`MAX_NAME_CHARS`] characters without control
/// characters.
fn check_players(players: &[String], seats: u8) -> Result<(), RefereeError> {
    let refuse = |detail: String| RefereeError::Deal {
        field: "players",
        detail,
    };
    if players.len() > seats as usize {
        return Err(refuse(format!(
            "{} names for a game of {seats} seats: at most one name per seat",
            players.len()
        )));
    }
    for (i, name) in players.iter().enumerate() {
        let chars = name.chars().count();
        // Spaces as JSON Schema's `\s` has them (the OpenAPI document's pattern): Unicode's
        // white space and the byte-order mark.
        let blank = name.chars().all(|c| c.is_whitespace() || c == '\u{feff}');
        if blank || chars > MAX_NAME_CHARS {
            return Err(refuse(format!(
                "player {}'s name has {chars} characters: a name has 1 to {MAX_NAME_CHARS}, not \
                 all spaces",
                i + 1
            )));
        }
        if name.chars().any(char::is_control) {
            return Err(refuse(format!(
                "player {}'s name holds a control character (a line break, a tab …)",
                i + 1
            )));
        }
    }
    Ok(())
}

/// A deal's options as the game's overrides in canonical JSON (fields in the game's order).
pub(super) fn canonical_options<G: Rules>(
    options: &Map<String, Value>,
) -> Result<String, RefereeError> {
    let overrides = overrides::<G>(options).map_err(RefereeError::Ruleset)?;
    // Unset options are left out (`{}` for none); a `null` that turns a rule off stays.
    Ok(serde_json::to_string(&overrides).expect("overrides serialise"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_is_named_by_its_time_where_its_seat_has_no_name() {
        assert_eq!(engine_name(300), "engine 0.3 s");
        assert_eq!(engine_name(1000), "engine 1 s");
        assert_eq!(engine_name(1250), "engine 1.25 s");
        let names = |given: &[&str], engines: &[(u8, u64)]| {
            let given: Vec<String> = given.iter().map(|s| s.to_string()).collect();
            let engines = engines
                .iter()
                .map(|(i, ms)| (Seat::all(3).nth(*i as usize).unwrap(), *ms))
                .collect();
            with_engine_names(&given, &engines)
        };
        assert_eq!(names(&["Ann"], &[(1, 300)]), ["Ann", "engine 0.3 s"]);
        assert_eq!(names(&[], &[(1, 100)]), ["player 1", "engine 0.1 s"]);
        assert_eq!(names(&[], &[(0, 1000)]), ["engine 1 s"]);
        assert_eq!(
            names(&["Ann", "Bo"], &[(1, 300)]),
            ["Ann", "Bo"],
            "a name given stays"
        );
        assert_eq!(
            names(&["Ann"], &[(1, 300), (2, 1000)]),
            ["Ann", "engine 0.3 s", "engine 1 s"]
        );
        assert_eq!(names(&["Ann"], &[]), ["Ann"]);
    }
}
