//! A 戲谷 table's coins (seed 002, RULES.md §5): each game settled at its end as `anqi score`
//! settles it ([`crate::core::coins::settle`]), the scene's fee on top, each
//! player's balance, the question after a draw, the yellow cards and the 小兵立大功 tally.
//!
//! The table's players are its two chairs, `0` and `1`, whatever seat each game gives them
//! (the first mover alternates: docs/rules.md, "The 戲谷 table").
//!
//! The choices:
//! - **和棋續盤.** After a draw both players are asked whether to go on with the stake
//!   carried. The next game is not dealt before both answered. Two yeses carry: the next
//!   decided game pays `consecutive draws × stake` on top (never doubled); one no drops the
//!   carry, and the table goes on without it (a player leaves a table by leaving it).
//! - **The scene's fee** (場景): the winner of a decided game pays it to the house, out of
//!   what it won; a draw pays none.
//! - **Yellow cards** (黃牌) count for the table, over its games: the 10th loses the game it
//!   falls in and closes the table.

use serde::{Deserialize, Serialize};

use crate::core::coins::{Settlement, SettlementError, settle};
use crate::core::{Outcome, Seat, Table};

/// A table's chairs: 0 and 1.
pub type Chair = usize;

/// How many yellow cards lose: the 10th.
pub const CARDS_TO_LOSE: u8 = 10;

/// A table's coins and tallies.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Coins {
    /// Each chair's coins won less coins paid, over the table's games.
    pub balances: [i64; 2],
    /// Consecutive draws both players chose to carry into the next game.
    pub draws_carried: u32,
    /// After a draw, each chair's answer to going on with the stake carried (None: not yet);
    /// absent when no question stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub question: Option<[Option<bool>; 2]>,
    /// Each chair's yellow cards at this table.
    pub cards: [u8; 2],
    /// Each chair's 小兵立大功: its last soldier took the enemy general.
    pub soldier_feats: [u32; 2],
    /// Fees paid to the house.
    pub fees: u64,
    /// Games settled.
    pub games: u32,
}

/// One game's settlement at a table, written out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TableSettlement {
    /// The game's number at the table, 1 for the first.
    pub game: u32,
    /// The winning chair; absent for a draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<Chair>,
    /// What the loser paid the winner, every term written out.
    pub settlement: Settlement,
    /// The scene's fee the winner paid the house.
    pub fee: u64,
    /// The balances after this game.
    pub balances: [i64; 2],
}

/// Why a table refuses to settle or to ask.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CoinsError {
    #[error(transparent)]
    Settlement(#[from] SettlementError),
    #[error(
        "the question after the draw is not answered yet: the next game waits for both players"
    )]
    Unanswered,
    #[error("no question stands: only a drawn game asks whether to go on")]
    NoQuestion,
    #[error("chair {0} answered already")]
    Answered(Chair),
}

/// A table's terms: stake, points bonus, the scene's fee.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    pub table: Table,
    pub scene_fee: u64,
}

impl Coins {
    /// Settles a finished game: its outcome and points in the game's seat order, the chair
    /// each seat held (`chairs[seat]`), whether its first flips doubled it, each seat's
    /// 小兵立大功.
    pub fn settle(
        &mut self,
        terms: Terms,
        outcome: Outcome,
        points: [u32; 2],
        doubled: bool,
        feats: [u32; 2],
        chairs: [Chair; 2],
    ) -> Result<TableSettlement, CoinsError> {
        if self.question.is_some() {
            return Err(CoinsError::Unanswered);
        }
        let settlement = settle(&terms.table, outcome, points, doubled, self.draws_carried)?;
        let chair = |seat: Seat| chairs[seat.index()];
        let winner = settlement.payee.map(chair);
        let fee = if winner.is_some() { terms.scene_fee } else { 0 };
        let mut balances = self.balances;
        if let (Some(payer), Some(payee)) = (settlement.payer, settlement.payee) {
            let amount = i64::try_from(settlement.amount).map_err(|_| SettlementError::Overflow)?;
            let fee = i64::try_from(fee).map_err(|_| SettlementError::Overflow)?;
            balances[chair(payer)] = balances[chair(payer)]
                .checked_sub(amount)
                .ok_or(SettlementError::Overflow)?;
            balances[chair(payee)] = balances[chair(payee)]
                .checked_add(amount - fee)
                .ok_or(SettlementError::Overflow)?;
        }
        self.balances = balances;
        self.fees += fee;
        self.games += 1;
        for (seat, feat) in feats.into_iter().enumerate() {
            self.soldier_feats[chairs[seat]] += feat;
        }
        if winner.is_some() {
            self.draws_carried = 0;
        } else {
            // A draw: both are asked whether to carry its stake into the next game.
            self.question = Some([None, None]);
        }
        Ok(TableSettlement {
            game: self.games,
            winner,
            settlement,
            fee,
            balances,
        })
    }

    /// A chair's answer to the question after a draw. Once both answered: two yeses carry
    /// the draw, one no drops the carry.
    pub fn answer(&mut self, chair: Chair, go_on: bool) -> Result<(), CoinsError> {
        let Some(mut answers) = self.question else {
            return Err(CoinsError::NoQuestion);
        };
        if answers[chair].is_some() {
            return Err(CoinsError::Answered(chair));
        }
        answers[chair] = Some(go_on);
        match answers {
            [Some(a), Some(b)] => {
                self.question = None;
                self.draws_carried = if a && b { self.draws_carried + 1 } else { 0 };
            }
            _ => self.question = Some(answers),
        }
        Ok(())
    }

    /// A yellow card for `chair`; true when it is the one that loses.
    pub fn card(&mut self, chair: Chair) -> bool {
        self.cards[chair] = self.cards[chair].saturating_add(1);
        self.cards[chair] >= CARDS_TO_LOSE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 002's table: stake 100, 5 a point; the free scene.
    const TERMS: Terms = Terms {
        table: Table {
            stake: 100,
            bonus_per_point: 5,
        },
        scene_fee: 0,
    };
    /// A captured 士象卒卒 = 13 points, B 帥相相炮兵兵兵兵兵 = 24.
    const POINTS: [u32; 2] = [13, 24];

    fn outcome(s: &str) -> Outcome {
        s.parse().unwrap()
    }

    #[test]
    fn the_seeds_first_example_settles_155() {
        let mut l = Coins::default();
        let s = l
            .settle(TERMS, outcome("player2"), POINTS, false, [0, 0], [0, 1])
            .unwrap();
        assert_eq!(s.settlement.amount, 155);
        assert_eq!(s.winner, Some(1));
        assert_eq!(l.balances, [-155, 155]);
        // A wins instead: the bonus is never negative, B pays 100.
        let mut l = Coins::default();
        let s = l
            .settle(TERMS, outcome("player1"), POINTS, false, [0, 0], [0, 1])
            .unwrap();
        assert_eq!((s.settlement.amount, l.balances), (100, [100, -100]));
    }

    #[test]
    fn a_draw_both_carry_settles_255() {
        let mut l = Coins::default();
        let draw = l
            .settle(TERMS, outcome("draw"), [3, 4], false, [0, 0], [0, 1])
            .unwrap();
        assert_eq!((draw.winner, draw.settlement.amount), (None, 0));
        assert_eq!(l.question, Some([None, None]));
        // The next game waits for both answers.
        assert_eq!(
            l.settle(TERMS, outcome("player2"), POINTS, false, [0, 0], [0, 1]),
            Err(CoinsError::Unanswered)
        );
        l.answer(0, true).unwrap();
        assert_eq!(l.answer(0, false), Err(CoinsError::Answered(0)));
        l.answer(1, true).unwrap();
        assert_eq!((l.question, l.draws_carried), (None, 1));
        // The second game, the first mover swapped: B holds seat 1 now.
        let s = l
            .settle(TERMS, outcome("player1"), [24, 13], false, [0, 0], [1, 0])
            .unwrap();
        assert_eq!(s.settlement.amount, 255);
        assert_eq!(s.settlement.formula, "(100 + 11 × 5) × 1 + 100 = 255");
        assert_eq!(
            (s.winner, l.balances, l.draws_carried),
            (Some(1), [-255, 255], 0)
        );
    }

    #[test]
    fn one_no_drops_the_carry_and_doubling_never_doubles_it() {
        let mut l = Coins::default();
        l.settle(TERMS, outcome("draw"), [0, 0], false, [0, 0], [0, 1])
            .unwrap();
        l.answer(1, false).unwrap();
        l.answer(0, true).unwrap();
        assert_eq!(l.draws_carried, 0);
        // Two carried draws, then a doubled game: (100 + 55) × 2 + 200.
        for _ in 0..2 {
            l.settle(TERMS, outcome("draw"), [0, 0], false, [0, 0], [0, 1])
                .unwrap();
            l.answer(0, true).unwrap();
            l.answer(1, true).unwrap();
        }
        let s = l
            .settle(TERMS, outcome("player2"), POINTS, true, [0, 0], [0, 1])
            .unwrap();
        assert_eq!(s.settlement.amount, 510);
        assert_eq!(l.answer(0, true), Err(CoinsError::NoQuestion));
    }

    #[test]
    fn the_winner_pays_the_scenes_fee_and_feats_go_to_players() {
        let terms = Terms {
            scene_fee: 7,
            ..TERMS
        };
        let mut l = Coins::default();
        let s = l
            .settle(terms, outcome("player2"), POINTS, false, [0, 1], [1, 0])
            .unwrap();
        // Seat 2 is chair 0: it won 155 and paid 7.
        assert_eq!(
            (s.winner, s.fee, l.balances, l.fees),
            (Some(0), 7, [148, -155], 7)
        );
        assert_eq!(l.soldier_feats, [1, 0]);
        l.settle(terms, outcome("draw"), [0, 0], false, [0, 0], [0, 1])
            .unwrap();
        assert_eq!(l.fees, 7, "a draw pays no fee");
    }

    #[test]
    fn the_tenth_card_loses() {
        let mut l = Coins::default();
        for _ in 0..9 {
            assert!(!l.card(1));
        }
        assert!(l.card(1));
        assert_eq!(l.cards, [0, 10]);
    }
}
