//! The coin settlement of a game played for coins at a table (金幣結算, RULES.md §5, seed 002:
//! Banqi's 戲谷 rooms): what the loser pays the winner at a table with stake S and points
//! bonus B, with the doubling and the carried draws. Arithmetic on an outcome and two
//! players' points: a game that is played for coins says what they are (Banqi's scoring).
//!
//! ```text
//! paid   = (S + bonus) × double + carry
//! bonus  = max(0, winner points − loser points) × B
//! double = 2 when the game's rules double it (Banqi: both first flips revealed the same kind)
//! carry  = (consecutive drawn games just before this one) × S      (not doubled)
//! ```

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::record::Record;
use super::replay::ReplayError;
use super::rules::Rules;
use super::{Outcome, Seat, Table};

/// Every term of one game's settlement, so that a player can check the sum.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Settlement {
    /// The loser; absent for a draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payer: Option<Seat>,
    /// The winner; absent for a draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payee: Option<Seat>,
    /// Coins paid by the payer to the payee (0 for a draw).
    pub amount: u64,
    pub stake: u64,
    /// Winner points − loser points (may be negative: the bonus is then 0); 0 for a draw.
    pub margin: i64,
    pub bonus: u64,
    /// 1, or 2 for 門棋加倍.
    pub double: u64,
    /// Drawn games just before this one between the same players (和棋續盤).
    pub draws_carried: u32,
    pub carry: u64,
    /// The sum written out, e.g. `(100 + 11 × 5) × 1 + 100 = 255`.
    pub formula: String,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Error, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SettlementError {
    #[error("the settlement does not fit in 64 bits; lower the stake or the bonus")]
    Overflow,
}

/// Settles one game at `table`: `outcome`, the players' points (player 1 first), whether
/// the first flips double it, and how many drawn games came just before.
pub fn settle(
    table: &Table,
    outcome: Outcome,
    points: [u32; 2],
    doubled: bool,
    draws_carried: u32,
) -> Result<Settlement, SettlementError> {
    let double = if doubled { 2 } else { 1 };
    let Some(winner) = outcome.winner() else {
        return Ok(Settlement {
            payer: None,
            payee: None,
            amount: 0,
            stake: table.stake,
            margin: 0,
            bonus: 0,
            double,
            draws_carried,
            carry: 0,
            formula: format!(
                "drawn: nothing is paid; the next decided game carries {} × {}",
                draws_carried + 1,
                table.stake
            ),
        });
    };
    let loser = winner.other();
    let margin = points[winner.index()] as i64 - points[loser.index()] as i64;
    let overflow = SettlementError::Overflow;
    let bonus = (margin.max(0) as u64)
        .checked_mul(table.bonus_per_point)
        .ok_or(overflow)?;
    let carry = (draws_carried as u64)
        .checked_mul(table.stake)
        .ok_or(overflow)?;
    let amount = table
        .stake
        .checked_add(bonus)
        .and_then(|x| x.checked_mul(double))
        .and_then(|x| x.checked_add(carry))
        .ok_or(overflow)?;
    Ok(Settlement {
        payer: Some(loser),
        payee: Some(winner),
        amount,
        stake: table.stake,
        margin,
        bonus,
        double,
        draws_carried,
        carry,
        formula: format!(
            "({} + {} × {}) × {double} + {carry} = {amount}",
            table.stake,
            margin.max(0),
            table.bonus_per_point
        ),
    })
}

/// What a table settles a finished game by: its outcome, each seat's points, whether its rules
/// double it, and each seat's feats (Banqi's 小兵立大功).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stakes {
    pub outcome: Outcome,
    /// Points won, in seat order.
    pub points: [u32; 2],
    pub doubled: bool,
    /// Feats ([`crate::core::rules::Scoring::feat`]), in seat order.
    pub feats: [u32; 2],
}

/// Replays `record` for a table: its [`Stakes`] once finished; None while it is unfinished, or
/// for a game not played for coins or of more than two seats.
pub fn stakes<G: Rules>(record: &Record) -> Result<Option<Stakes>, ReplayError> {
    if !G::COINS {
        return Ok(None);
    }
    let mut feats = [0u32; 2];
    let scored = super::scoring::score::<G>(record, |ply| {
        if G::feat(ply.action, ply.before, ply.after) && ply.mover.index() < 2 {
            feats[ply.mover.index()] += 1;
        }
    })?;
    let Some(result) = scored.result else {
        return Ok(None);
    };
    if scored.seats != 2 {
        return Ok(None);
    }
    Ok(Some(Stakes {
        outcome: result.outcome,
        points: [Seat::FIRST, Seat::SECOND].map(|seat| scored.tally.points(seat)),
        doubled: G::opening(record, &scored.first_plies).doubles_stake,
        feats,
    }))
}
