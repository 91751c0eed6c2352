//! Banqi's engine as the game's [`Search`] part: the search's answer in the units an app
//! shows (centipawns, chances, forced results), the game's history and long-chase rule
//! applied.

use std::time::Instant;

use crate::core::analysis::{
    Analysis, AnalysisError, Calibration, Limits, Score, ScoredAction, Search,
};
use crate::core::{Engine as _, Seat, Turn as _};

use super::super::{Banqi, Match};
use super::{Answer, HorizonFlips, Mode, Root, WIN, Weights, analyze_root};

/// How Banqi's centipawns become chances (docs/engine.md: fitted to the engine's self-play).
pub const CALIBRATION: Calibration = Calibration {
    scale: 290.0,
    drawish: 0.46,
};

/// A value of the search as a score: a forced result, or centipawns (100 is a soldier's
/// worth at the start).
pub fn score(value: f64) -> Score {
    if value.abs() > WIN - 1_000.0 {
        return Score::forced(value > 0.0, (WIN - value.abs()).round() as u32);
    }
    let soldier = Weights::TUNED.base[6];
    Score::new((value * 100.0 / soldier).round() as i64, &CALIBRATION)
}

/// Searches the match `m` (its position, the game's positions since its last flip or capture
/// as repetitions, and both players' consecutive chases for the long-chase rule) with
/// `weights`, as an analysis.
pub fn analyze_match(m: &Match, weights: &Weights, limits: &Limits) -> Answer {
    search_match(m, weights, limits, Mode::Analysis)
}

/// The move of a player on a clock at the match `m`, with `weights`: all of its work on the
/// caller's thread within `limits` ([`Mode::Play`]).
/// With a long enough time, its horizon's flips are valued as they stand
/// ([`HorizonFlips::for_move`]).
pub fn play_match(m: &Match, weights: &Weights, limits: &Limits) -> Answer {
    search_match(m, weights, limits, Mode::Play)
}

fn search_match(m: &Match, weights: &Weights, limits: &Limits, mode: Mode) -> Answer {
    let earlier = m.earlier_positions();
    let root = Root {
        earlier: &earlier,
        chases: m.long_chase_counts(),
        weights,
        mode,
        horizon_flips: HorizonFlips::for_move(limits),
        ..Root::new(m.position(), m.rules())
    };
    analyze_root(&root, limits)
}

impl Search for Banqi {
    /// Every seat knows the same of a Banqi position (a covered piece is an entry of the
    /// public pool, never an identity), so the seat changes nothing; the search is given the
    /// position and the game's positions since its last flip or capture, nothing hidden. The
    /// weights are [`Weights::ANALYSIS`]: no contempt, a draw is 0.
    fn analyze(m: &Match, _seat: Option<Seat>, limits: &Limits) -> Result<Analysis, AnalysisError> {
        let started = Instant::now();
        if let Some(end) = m.end() {
            return Ok(Analysis::finished(end.outcome, m.position().to_move()));
        }
        let answer = analyze_match(m, &Weights::ANALYSIS, limits);
        Ok(shown(&answer, started))
    }
}

/// The answer as an app is shown it.
fn shown(answer: &Answer, started: Instant) -> Analysis {
    let actions: Vec<ScoredAction> = answer
        .actions
        .iter()
        .map(|(a, v)| ScoredAction {
            action: a.to_string(),
            score: score(*v),
        })
        .collect();
    Analysis {
        score: score(answer.score),
        best: answer.best.map(|a| a.to_string()),
        line: answer.line.iter().map(ToString::to_string).collect(),
        actions,
        depth: answer.depth,
        nodes: answer.nodes,
        millis: started.elapsed().as_millis() as u64,
        stopped: answer.stopped,
    }
}
