//! Anqi records: the rules engines, notation, game records, replay and validation, scoring.
//!
//! - [`core`]: what every game shares (seats, outcomes, violations, the record, replay and
//!   verdicts, scoring credited from the history) and the [`core::Rules`] a game implements;
//! - [`games`]: the registry ([`games::GameKind`], [`with_game!`]) and one module per game,
//!   starting with [`games::banqi`];
//! - [`formats`]: reading record files; [`store`]: the record store (feature `store`);
//!   [`referee`]: the referee of hidden games, its ledger in the store (feature `referee`).

pub mod core;
pub mod formats;
pub mod fuzzing;
pub mod games;
#[cfg(feature = "rating")]
pub mod rating;
#[cfg(feature = "referee")]
pub mod referee;
#[cfg(feature = "seal")]
pub mod seal;
#[cfg(feature = "store")]
pub mod store;
