//! A 戲谷 table's time (seed 002): a **move time** (出手時間) for every move, and each player's
//! **bank** (長考) of thinking time for the game, spent over as many pauses as they like. What
//! the referee reads from it is one turn's deadline, worked out from the turn's start, the bank
//! left and whether the player started a pause; nothing runs on its own, so every instance
//! reads the same deadline from the ledger, and a test fixes the time.
//!
//! The choices (docs/rules.md, "The 戲谷 table"):
//! - **Automatic** (自動長考): when the move time runs out, the bank counts down by itself;
//!   the turn times out when the bank is empty too.
//! - **Manual** (手動長考): the bank counts only if the player started a pause (`think`)
//!   during the turn, before the move time ran out; without one, the turn times out when the
//!   move time does. A pause starts nothing sooner: the move time is spent first, then the
//!   bank, as in automatic. An empty bank cannot be paused on.
//! - A move spends of the bank only what ran past the move time.

use serde::{Deserialize, Serialize};

/// How a player's bank is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum BankMode {
    /// 自動長考: the bank counts down once the move time is out.
    Automatic,
    /// 手動長考: only after the player started a pause in the turn.
    Manual,
}

/// A table's time, chosen when the table is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TableTime {
    /// The time every move has (出手時間), 1 s to 10 minutes.
    #[cfg_attr(
        feature = "openapi",
        schema(example = 30_000, minimum = 1_000, maximum = 600_000)
    )]
    pub move_ms: i64,
    /// Each player's bank for a game (長考), 0 to an hour.
    #[cfg_attr(
        feature = "openapi",
        schema(example = 120_000, minimum = 0, maximum = 3_600_000)
    )]
    pub bank_ms: i64,
    pub bank: BankMode,
}

/// Why a table's time is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableTimeError {
    #[error("move_ms is {0}: a move has 1,000 to 600,000 ms")]
    Move(i64),
    #[error("bank_ms is {0}: a bank holds 0 to 3,600,000 ms")]
    Bank(i64),
}

impl TableTime {
    pub const MOVE_MS: std::ops::RangeInclusive<i64> = 1_000..=600_000;
    pub const BANK_MS: std::ops::RangeInclusive<i64> = 0..=3_600_000;

    pub fn check(&self) -> Result<(), TableTimeError> {
        if !Self::MOVE_MS.contains(&self.move_ms) {
            return Err(TableTimeError::Move(self.move_ms));
        }
        if !Self::BANK_MS.contains(&self.bank_ms) {
            return Err(TableTimeError::Bank(self.bank_ms));
        }
        Ok(())
    }

    /// The turn's deadline: its start, the move time, and the bank left when it counts.
    pub fn deadline(&self, turn: &Turn) -> i64 {
        let banked = match self.bank {
            BankMode::Automatic => true,
            BankMode::Manual => turn.paused,
        };
        turn.started_ms + self.move_ms + if banked { turn.bank_left_ms } else { 0 }
    }

    /// The turn at `now_ms`: the move time and the bank left, and whether it timed out.
    pub fn at(&self, turn: &Turn, now_ms: i64) -> TurnTime {
        let spent = (now_ms - turn.started_ms).max(0);
        let deadline = self.deadline(turn);
        let over = (spent - self.move_ms).max(0);
        TurnTime {
            move_left_ms: (self.move_ms - spent).max(0),
            bank_left_ms: if deadline > turn.started_ms + self.move_ms {
                (turn.bank_left_ms - over).max(0)
            } else {
                turn.bank_left_ms
            },
            timed_out: now_ms >= deadline,
            deadline_ms: deadline,
        }
    }

    /// The bank a move at `now_ms` spent (it must come before the deadline).
    pub fn bank_spent(&self, turn: &Turn, now_ms: i64) -> i64 {
        ((now_ms - turn.started_ms) - self.move_ms).clamp(0, turn.bank_left_ms)
    }

    /// Whether a pause may start at `now_ms`: a manual bank, with time in it, in a turn whose
    /// move time still runs and that has no pause yet.
    pub fn may_pause(&self, turn: &Turn, now_ms: i64) -> Result<(), PauseRefused> {
        if self.bank != BankMode::Manual {
            return Err(PauseRefused::Automatic);
        }
        if turn.paused {
            return Err(PauseRefused::Already);
        }
        if turn.bank_left_ms <= 0 {
            return Err(PauseRefused::EmptyBank);
        }
        if now_ms >= self.deadline(turn) {
            return Err(PauseRefused::TimedOut);
        }
        Ok(())
    }
}

/// One turn of a player: when it started, the player's bank left then, whether it paused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub started_ms: i64,
    pub bank_left_ms: i64,
    pub paused: bool,
}

/// A turn at a moment, as the table's page shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TurnTime {
    pub move_left_ms: i64,
    pub bank_left_ms: i64,
    pub timed_out: bool,
    /// When the turn times out (Unix milliseconds) unless the player moves first.
    pub deadline_ms: i64,
}

/// Why a pause is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PauseRefused {
    #[error("this table's bank counts by itself (automatic): there is no pause to start")]
    Automatic,
    #[error("a pause is already started in this turn")]
    Already,
    #[error("your bank is empty: an empty bank cannot be used")]
    EmptyBank,
    #[error("your turn's time is out")]
    TimedOut,
}

#[cfg(test)]
mod tests {
    use super::*;

    const AUTO: TableTime = TableTime {
        move_ms: 30_000,
        bank_ms: 60_000,
        bank: BankMode::Automatic,
    };
    const MANUAL: TableTime = TableTime {
        bank: BankMode::Manual,
        ..AUTO
    };

    fn turn(bank_left_ms: i64, paused: bool) -> Turn {
        Turn {
            started_ms: 1_000_000,
            bank_left_ms,
            paused,
        }
    }

    #[test]
    fn automatic_banks_count_down_once_the_move_time_is_out() {
        let t = turn(60_000, false);
        assert_eq!(AUTO.deadline(&t), 1_090_000);
        let mid = AUTO.at(&t, 1_010_000);
        assert_eq!(
            (mid.move_left_ms, mid.bank_left_ms, mid.timed_out),
            (20_000, 60_000, false)
        );
        let banking = AUTO.at(&t, 1_045_000);
        assert_eq!((banking.move_left_ms, banking.bank_left_ms), (0, 45_000));
        assert!(!banking.timed_out);
        assert!(AUTO.at(&t, 1_090_000).timed_out);
        // A move 45 s in spends 15 s of the bank; one within the move time spends none.
        assert_eq!(AUTO.bank_spent(&t, 1_045_000), 15_000);
        assert_eq!(AUTO.bank_spent(&t, 1_029_999), 0);
        // An empty bank: the move time alone.
        assert_eq!(AUTO.deadline(&turn(0, false)), 1_030_000);
        assert_eq!(AUTO.may_pause(&t, 1_000_500), Err(PauseRefused::Automatic));
    }

    #[test]
    fn manual_banks_count_only_after_a_pause() {
        let t = turn(60_000, false);
        assert_eq!(MANUAL.deadline(&t), 1_030_000, "no pause: the move time");
        let shown = MANUAL.at(&t, 1_020_000);
        assert_eq!(shown.bank_left_ms, 60_000);
        assert!(MANUAL.at(&t, 1_030_000).timed_out);
        assert_eq!(MANUAL.may_pause(&t, 1_029_999), Ok(()));
        assert_eq!(MANUAL.may_pause(&t, 1_030_000), Err(PauseRefused::TimedOut));
        let paused = turn(60_000, true);
        assert_eq!(MANUAL.deadline(&paused), 1_090_000);
        assert_eq!(MANUAL.at(&paused, 1_050_000).bank_left_ms, 40_000);
        assert_eq!(
            MANUAL.may_pause(&paused, 1_001_000),
            Err(PauseRefused::Already)
        );
        assert_eq!(
            MANUAL.may_pause(&turn(0, false), 1_001_000),
            Err(PauseRefused::EmptyBank)
        );
    }

    #[test]
    fn a_table_time_is_checked() {
        assert!(AUTO.check().is_ok());
        let short = TableTime {
            move_ms: 999,
            ..AUTO
        };
        assert_eq!(short.check(), Err(TableTimeError::Move(999)));
        let long = TableTime {
            bank_ms: 3_600_001,
            ..AUTO
        };
        assert_eq!(long.check(), Err(TableTimeError::Bank(3_600_001)));
    }
}
