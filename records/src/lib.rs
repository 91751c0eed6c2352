//! Anqi records: the rules engines, notation, game records, replay and validation, scoring
//! and settlement.
//!
//! Start with [`banqi`] for the rules, [`record`] / [`replay`] for game records, and
//! [`scoring`] / [`settlement`] for points and coins.

pub mod banqi;
pub mod formats;
pub mod record;
pub mod render;
pub mod replay;
pub mod scoring;
pub mod settlement;
#[cfg(feature = "store")]
pub mod store;
pub mod view;
