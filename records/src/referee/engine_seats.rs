//! The seats the service's engine plays in a game (a deal's `engines`): what it has to do,
//! its plays, and which instance plays them. Instances that share a store share its games, so
//! the engine's seats of a game are **leased**: one instance holds the lease, renews it while
//! it lives and alone searches; once it has run out (the instance died), any live instance
//! takes the seats over.

use super::kept;
use super::{EngineTurn, Played, Referee, RefereeError, Request};
use crate::core::analysis::{AnalysisError, Limits, accepts_draw};
use crate::core::{Engine as _, Rules, Seat, Turn as _};

/// Whether the engine in `seat` of a game of `seats` seats accepts a draw offer at `m`,
/// searched within `limits` from what its seat may know: by its chances
/// ([`accepts_draw`]). Its chances are the search's for the side to move, turned when the
/// other seat of two is to move; in a game of three it declines while another seat is to
/// move (no one seat's chances then).
pub fn engine_accepts_draw<G: Rules>(
    m: &G::Match,
    seat: Seat,
    seats: u8,
    limits: &Limits,
) -> Result<bool, AnalysisError> {
    let to_move = m.position().to_move();
    if to_move != seat && seats != 2 {
        return Ok(false);
    }
    let analysis = G::analyze(m, Some(seat), limits)?;
    let score = if to_move == seat {
        analysis.score
    } else {
        analysis.score.turned()
    };
    Ok(accepts_draw(score))
}

/// How long a lease on a game's engine seats lasts unless its holder renews it: another
/// instance takes the seats over this long after their holder died, at the most (plus the
/// time it takes to look: the service looks every second).
pub const ENGINE_LEASE_MS: i64 = 5_000;

impl Referee {
    /// What the service's engine has to do in `game_id`: play for its seat to move (the
    /// match as that seat's own answers would see it: the engine is then told only what the
    /// seat may know, `G::decide` with the seat), wait for another seat, or nothing more (the
    /// game is over, or expired: left unplayed past `--game-expiry`).
    pub fn engine_turn<G: Rules>(&self, game_id: &str) -> Result<EngineTurn<G>, RefereeError> {
        let row = self.row(game_id)?;
        if self.expired(&row) {
            return Ok(EngineTurn::Over);
        }
        self.open_as::<G, _>(row, None, |game| {
            if game.over() {
                return Ok(EngineTurn::Over);
            }
            if let Some((seat, millis)) = game.engine_to_answer() {
                let ply = game.plies();
                return Ok(EngineTurn::AnswerDraw {
                    seat,
                    millis,
                    m: game.match_at(ply)?,
                    ply,
                    seats: game.seats(),
                });
            }
            let Some((seat, millis)) = game.engine_to_move() else {
                return Ok(EngineTurn::Wait {
                    expires_at_ms: game.expires_at_ms(),
                });
            };
            let ply = game.plies();
            Ok(EngineTurn::Move {
                seat,
                millis,
                m: game.match_at(ply)?,
                ply,
            })
        })
    }

    /// Plays `action` at ply `at` for the engine's `seat` (judged as that seat's own play).
    pub fn engine_play<G: Rules>(
        &self,
        game_id: &str,
        seat: Seat,
        action: &str,
        at: u32,
    ) -> Result<Played, RefereeError> {
        let row = self.row(game_id)?;
        if !kept::engine_seats(&row).contains_key(&seat) {
            return Err(RefereeError::WrongSeat(format!(
                "the service's engine does not play {}",
                seat.code()
            )));
        }
        self.open_as::<G, _>(row, Some(seat), |game| game.play(action, at))
    }

    /// Answers the standing draw offer at ply `at` for the engine's `seat`: accepts or
    /// declines. Nothing is done when the game has moved on since (the offer lapsed with it).
    pub fn engine_answer_draw<G: Rules>(
        &self,
        game_id: &str,
        seat: Seat,
        accept: bool,
        at: u32,
    ) -> Result<(), RefereeError> {
        let row = self.row(game_id)?;
        if !kept::engine_seats(&row).contains_key(&seat) {
            return Err(RefereeError::WrongSeat(format!(
                "the service's engine does not play {}",
                seat.code()
            )));
        }
        self.open_as::<G, _>(row, Some(seat), |game| {
            if game.plies() != at || game.engine_to_answer().map(|(s, _)| s) != Some(seat) {
                return Ok(());
            }
            let request = if accept {
                Request::AcceptDraw
            } else {
                Request::DeclineDraw
            };
            game.request(request, None).map(drop)
        })
    }

    /// Takes or renews `holder`'s lease on the engine seats of `game_id` for
    /// [`ENGINE_LEASE_MS`] after `search_ms` (a search about to start); gives whether
    /// `holder` holds them now (only the holder searches).
    pub fn engine_lease(
        &self,
        game_id: &str,
        holder: &str,
        search_ms: u64,
    ) -> Result<bool, RefereeError> {
        let now = self.now_ms();
        let until = now + search_ms as i64 + ENGINE_LEASE_MS;
        Ok(self
            .store
            .ledger_engine_lease(game_id, holder, now, until)?)
    }

    /// Gives `holder`'s lease on `game_id`'s engine seats up (its task ended).
    pub fn engine_release(&self, game_id: &str, holder: &str) -> Result<(), RefereeError> {
        Ok(self.store.ledger_engine_release(Some(game_id), holder)?)
    }

    /// Gives every lease `holder` holds up (the instance stops).
    pub fn engine_release_all(&self, holder: &str) -> Result<(), RefereeError> {
        Ok(self.store.ledger_engine_release(None, holder)?)
    }

    /// Renews every lease `holder` holds for [`ENGINE_LEASE_MS`]: its instance lives.
    pub fn engine_renew(&self, holder: &str) -> Result<usize, RefereeError> {
        let until = self.now_ms() + ENGINE_LEASE_MS;
        Ok(self.store.ledger_engine_renew(holder, until)?)
    }

    /// The games in play, not expired, with engine seats no live instance holds: their ids
    /// and kinds (`game`), for this instance to take up.
    pub fn engine_games_unheld(&self) -> Result<Vec<(String, String)>, RefereeError> {
        let now = self.now_ms();
        let since = now / 1000 - self.settings.expiry_seconds;
        Ok(self.store.ledger_engine_games_unheld(now, since)?)
    }

    /// Whether a game in play was left unplayed past `--game-expiry` (it is forgotten at the
    /// next sweep).
    pub(crate) fn expired(&self, row: &crate::store::LedgerRow) -> bool {
        row.result.is_none() && row.updated_at < self.now_ms() / 1000 - self.settings.expiry_seconds
    }
}
