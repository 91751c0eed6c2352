//! Anqi records: the rules engines, notation, game records, replay and validation.
//!
//! Start with [`banqi`] for the rules and [`record`] / [`replay`] for game records.

pub mod banqi;
pub mod formats;
pub mod record;
pub mod replay;
