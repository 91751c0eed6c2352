//! A 戲谷 table (seed 002): two players who sit down and play Banqi game after game for
//! coins. The referee deals the table's games through its ledger one after another, so
//! every rule, view, stream and durability guarantee of a refereed game holds for each; what
//! the table adds is kept here as plain data and worked out from what the ledger holds:
//!
//! - [`time`]: the move time (出手時間) and each player's bank (長考), automatic or manual;
//! - [`coins`]: each game's settlement ([`crate::core::coins`]) with the scene's fee, the
//!   balances, the question after a draw (和棋續盤), the yellow cards (黃牌) and the
//!   小兵立大功 tally.
//!
//! The game played at a table says, from its score, what the settlement needs (the outcome,
//! the points, whether it is doubled, each seat's tallies): Banqi does.

pub mod coins;
mod seated;
pub mod time;

pub use seated::{OpenedTable, TableGame, TableOrder, TableState, TableTerms};

pub use coins::{CARDS_TO_LOSE, Chair, Coins, CoinsError, TableSettlement, Terms};
pub use time::{BankMode, PauseRefused, TableTime, TableTimeError, Turn, TurnTime};
