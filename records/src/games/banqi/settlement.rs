//! Banqi's 戲谷 coin settlement (金幣結算, RULES.md §5): the core's arithmetic
//! ([`crate::core::coins`]) with Banqi's terms: its points (棋點), 門棋加倍 (both first flips
//! revealed the same kind of piece) and 和棋續盤 over a series of games between the same
//! players. A drawn game pays nothing and raises the carry of the next game between them.

use crate::core::Outcome;

use super::scoring::GameScore;

pub use crate::core::Table;
pub use crate::core::coins::{Settlement, SettlementError, settle};
pub use crate::core::scoring::{Series, SeriesBook};

/// Banqi's settling of a series' games (the series itself, [`Series`], is the core's: a
/// series of games between the same players, keeping the draws to carry).
pub trait SettleSeries {
    /// Settles the next game of the series; an unfinished game settles nothing and leaves
    /// the carry as it was (None).
    fn settle(&mut self, score: &GameScore) -> Option<Result<Settlement, SettlementError>>;

    /// Settles the next game from its outcome, the players' points (player 1 first) and
    /// whether its first flips double it.
    fn settle_game(
        &mut self,
        outcome: Outcome,
        points: [u32; 2],
        doubled: bool,
    ) -> Result<Settlement, SettlementError>;
}

impl SettleSeries for Series {
    fn settle(&mut self, score: &GameScore) -> Option<Result<Settlement, SettlementError>> {
        match score.result {
            Some(result) => Some(self.settle_game(result.outcome, score.points(), score.doubled)),
            None => {
                self.carry(None);
                None
            }
        }
    }

    fn settle_game(
        &mut self,
        outcome: Outcome,
        points: [u32; 2],
        doubled: bool,
    ) -> Result<Settlement, SettlementError> {
        let settlement = settle(&self.table, outcome, points, doubled, self.draws);
        match settlement {
            Ok(_) => self.carry(Some(outcome)),
            // A game that cannot be settled counts in the series but carries nothing.
            Err(_) => self.games += 1,
        }
        settlement
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Seat;

    /// The seed's example: A (player 1) captured 士象卒卒 = 13 points, B (player 2) captured
    /// 帥相相炮兵兵兵兵兵 = 24 points, S = 100, B = 5.
    const POINTS: [u32; 2] = [13, 24];

    #[test]
    fn the_seed_examples() {
        let table = Table::default();
        let b_wins = settle(&table, Outcome::win(Seat::SECOND, 2), POINTS, false, 0).unwrap();
        assert_eq!(b_wins.amount, 155);
        assert_eq!(
            (b_wins.payer, b_wins.payee),
            (Some(Seat::FIRST), Some(Seat::SECOND))
        );
        assert_eq!((b_wins.margin, b_wins.bonus), (11, 55));
        assert_eq!(b_wins.formula, "(100 + 11 × 5) × 1 + 0 = 155");
        // The bonus is never negative.
        let a_wins = settle(&table, Outcome::win(Seat::FIRST, 2), POINTS, false, 0).unwrap();
        assert_eq!((a_wins.amount, a_wins.margin, a_wins.bonus), (100, -11, 0));
        assert_eq!(a_wins.payer, Some(Seat::SECOND));
        // After one draw.
        let after_draw = settle(&table, Outcome::win(Seat::SECOND, 2), POINTS, false, 1).unwrap();
        assert_eq!((after_draw.amount, after_draw.carry), (255, 100));
        assert_eq!(after_draw.formula, "(100 + 11 × 5) × 1 + 100 = 255");
    }

    #[test]
    fn draws_pay_nothing_and_doubles_leave_the_carry_alone() {
        let table = Table::default();
        let draw = settle(&table, Outcome::draw(2), POINTS, true, 2).unwrap();
        assert_eq!((draw.amount, draw.payer, draw.payee), (0, None, None));
        // Doubled with two draws carried: (100 + 55) × 2 + 200.
        let s = settle(&table, Outcome::win(Seat::SECOND, 2), POINTS, true, 2).unwrap();
        assert_eq!(s.amount, 510);
        // Equal points: the stake alone.
        assert_eq!(
            settle(&table, Outcome::win(Seat::FIRST, 2), [20, 20], false, 0)
                .unwrap()
                .amount,
            100
        );
        // Zero table.
        let free = Table {
            stake: 0,
            bonus_per_point: 0,
        };
        assert_eq!(
            settle(&free, Outcome::win(Seat::FIRST, 2), [50, 0], true, 3)
                .unwrap()
                .amount,
            0
        );
    }

    #[test]
    fn a_book_keeps_one_series_per_pair_whoever_moves_first() {
        let mut book = SeriesBook::new(Table::default());
        let draw = book
            .series("A", "B")
            .settle_game(Outcome::draw(2), POINTS, false)
            .unwrap();
        assert_eq!(draw.amount, 0);
        // B now moves first: the same series, so the draw is carried (and counted once).
        let s = book
            .series("B", "A")
            .settle_game(Outcome::win(Seat::FIRST, 2), [24, 13], false)
            .unwrap();
        assert_eq!((s.amount, s.draws_carried), (255, 1));
        book.series("A", "C")
            .settle_game(Outcome::draw(2), POINTS, false)
            .unwrap();
        let games: Vec<u32> = book.iter().map(|(_, s)| s.games).collect();
        assert_eq!(games, [2, 1]);
        assert_eq!(book.series("C", "A").draws, 1);
    }

    #[test]
    fn overflow_is_an_error() {
        let table = Table {
            stake: u64::MAX / 2,
            bonus_per_point: 1,
        };
        assert_eq!(
            settle(&table, Outcome::win(Seat::FIRST, 2), [10, 0], true, 0),
            Err(SettlementError::Overflow)
        );
        assert_eq!(
            settle(&table, Outcome::win(Seat::FIRST, 2), [0, 0], false, 3),
            Err(SettlementError::Overflow)
        );
    }
}
