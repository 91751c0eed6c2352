//! Three Kingdoms' engine: the information-set search of [`crate::core::ismcts`] with three
//! seats, each playing for itself (max-n; docs/engine.md says why not paranoid).
//!
//! Every seat knows the same of a Three Kingdoms position (the covered pieces are a public
//! multiset, never identities), so the knowledge is the match itself and a world is the match:
//! a flip's identity is drawn from the pool when it is played.

use rand::RngExt;

use crate::core::analysis::{Analysis, AnalysisError, Calibration, Limits, Search};
use crate::core::ismcts::{self, Worlds};
use crate::core::{MAX_SEATS, Seat};

use super::ThreeKingdoms;
use super::notation::Action;
use super::rules::Match;
use super::ruleset::Ending;

/// Points of lead worth three to one (a chariot and a horse).
const SCALE: f64 = 80.0;

impl Worlds for ThreeKingdoms {
    type Knowledge = Match;

    /// Centipawns here are a share of the game on the Banqi scale (a soldier ≈ 100).
    const CALIBRATION: Calibration = Calibration {
        scale: 290.0,
        drawish: 0.2,
    };

    fn knowledge(m: &Match, _: Seat) -> Match {
        *m
    }

    fn world<R: RngExt + ?Sized>(knowledge: &Match, _: &mut R) -> Match {
        *knowledge
    }

    fn chance<R: RngExt + ?Sized>(m: &Match, action: &Action, rng: &mut R) -> Action {
        match *action {
            Action::Flip { point, piece: None } => {
                let pool = m.pos.pool();
                let piece = pool.nth(rng.random_range(0..pool.total()));
                Action::Flip { point, piece }
            }
            other => other,
        }
    }

    fn reveals(action: &Action) -> bool {
        matches!(action, Action::Flip { .. })
    }

    /// A seat out of the game has its place; the others share by how far their points (as
    /// the ending ranks them) lead the other seats' average.
    fn value(m: &Match, out: &mut [f64; MAX_SEATS]) {
        let pos = &m.pos;
        let key = |s: Seat| match m.rules.ending {
            Ending::Race => pos.captured_points(s) as f64,
            _ => pos.points_score(s) as f64,
        };
        let keys = Seat::all(3).map(key).collect::<Vec<_>>();
        for seat in Seat::all(3) {
            out[seat.index()] = match pos.place(seat) {
                Some(place) => (3.0 - place as f64) / 2.0,
                None => {
                    let others = (keys.iter().sum::<f64>() - keys[seat.index()]) / 2.0;
                    1.0 / (1.0 + (-(keys[seat.index()] - others) / SCALE).exp())
                }
            };
        }
    }
}

impl Search for ThreeKingdoms {
    /// Every seat knows the same, so the seat changes nothing.
    fn analyze(m: &Match, seat: Option<Seat>, limits: &Limits) -> Result<Analysis, AnalysisError> {
        ismcts::analyze::<ThreeKingdoms>(m, seat, limits)
    }
}
