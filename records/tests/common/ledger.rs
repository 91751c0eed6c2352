//! The referee's tests' shared parts: a key, the test databases, a referee on one, a deal,
//! and a ledger row as an older version wrote it. Included with `#[path]`.
#![allow(dead_code)]

use records::core::rules::parts::*;
use records::games::banqi::Banqi;
use records::referee::{DealOrder, Referee, Settings};
use records::seal::Keys;
use records::store::{Store, test_databases};

pub const KEY: &str = "ledger:2wf2STv0BbmrJ8hFNEPn2EaHC745jihGIC/cB1lml10=";

pub fn urls(name: &str) -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("anqi-referee-tests");
    test_databases(&dir, name)
}

pub fn referee(url: &str, settings: Settings) -> Referee {
    let store = Store::open(url).unwrap_or_else(|e| panic!("{e}"));
    Referee::new(store, Keys::parse(KEY).unwrap(), settings)
}

pub fn referee_default(url: &str) -> Referee {
    referee(url, Settings::default())
}

pub fn deal(referee: &Referee, seed: Option<u64>, include_layout: bool) -> records::referee::Dealt {
    referee
        .deal::<Banqi>(DealOrder {
            seed,
            players: vec!["east".into(), "west".into()],
            include_layout,
            ..DealOrder::default()
        })
        .unwrap()
}

/// A ledger row as an older version of the referee wrote it (no deal checks, no cap): game
/// `game_id` of `G` under `preset` and `options`, dealt from `seed`. Gives its game's token.
pub fn older_row<G: Rules>(
    store: &Store,
    game_id: &'static str,
    options: &str,
    players: &str,
    seed: u64,
) -> String {
    use records::core::play::deal as deal_game;
    use records::seal::Binding;
    use records::store::LedgerRow;
    let preset = G::PRESETS[0].name;
    let dealt = deal_game::<G>(
        None,
        &serde_json::from_str(options).unwrap(),
        vec![],
        Some(seed),
        None,
    )
    .unwrap();
    let binding = Binding {
        game: G::NAME,
        preset,
        game_id,
        seat: None,
    };
    let keys = Keys::parse(KEY).unwrap();
    store
        .ledger_insert(&LedgerRow {
            game_id: game_id.into(),
            game: G::NAME.into(),
            preset: preset.into(),
            options: options.into(),
            players: players.into(),
            sealed_truth: Some(keys.seal::<G>(binding, &dealt.hidden)),
            seed: None,
            plies: 0,
            result: None,
            stored_game: None,
            created_at: 0,
            updated_at: records::store::unix_now(),
            clock_base_ms: None,
            clock_increment_ms: None,
            claim_after_ms: None,
            events: 0,
            engines: None,
        })
        .unwrap();
    keys.token(binding)
}
