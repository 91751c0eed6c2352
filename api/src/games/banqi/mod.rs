//! Banqi at the edge: as the default game, its examples are the operations' own
//! ([`examples`], declared with each operation as `crate::examples`).

pub mod examples;

/// What the service adds to the game: nothing beyond the operations every game has.
pub struct Edge;

impl super::Edge for Edge {}
