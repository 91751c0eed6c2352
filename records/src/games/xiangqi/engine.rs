//! Third-generation xiangqi's engine: the information-set search of [`crate::core::ismcts`].
//!
//! A seat sees every face, its own backs and the opponent's backs a wrong soldier flip showed.
//! Its knowledge is the match from its told position (the opponent's other backs unknown, the
//! game's history before it left out: its keys were made from backs the seat has not seen);
//! a world deals every unknown back again from what its group can still hold (RULES.md §9:
//! the advisors share 將 and 臣, each pair its two backs, the soldiers 車 馬 炮 相 仕), less
//! the backs the side has already shown by a flip.

use rand::RngExt;
use rand::seq::SliceRandom;

use crate::core::analysis::{Analysis, AnalysisError, Calibration, Limits, Search};
use crate::core::ismcts::{self, Worlds};
use crate::core::{Engine, MAX_SEATS, Seat};

use super::action::Action;
use super::board::Square;
use super::pieces::{Back, Kind, Side};
use super::position::Position;
use super::rules::{Match, Xiangqi3g};

/// Material lead (in soldiers) worth three to one.
const SCALE: f64 = 3.5;

/// What a piece is worth, in soldiers (the usual xiangqi values; backs by how they move).
fn worth(kind: Kind) -> f64 {
    match kind {
        Kind::General => 0.0,
        Kind::Soldier => 1.0,
        Kind::Advisor | Kind::Elephant | Kind::Minister => 2.0,
        Kind::Camel | Kind::Mule => 3.0,
        Kind::Horse | Kind::Cannon | Kind::Zhu | Kind::Fei => 4.5,
        Kind::Pao | Kind::Shi | Kind::Biao => 5.0,
        Kind::Chariot | Kind::Fu => 9.0,
    }
}

/// The backs an unflipped piece of face `kind` may carry (RULES.md §9), None for a piece
/// whose back is fixed or that has none.
fn group(kind: Kind) -> Option<&'static [Kind]> {
    Some(match kind {
        Kind::Advisor => &[Kind::General, Kind::Minister],
        Kind::Elephant => &[Kind::Camel, Kind::Mule],
        Kind::Chariot => &[Kind::Zhu, Kind::Fu],
        Kind::Horse => &[Kind::Fei, Kind::Biao],
        Kind::Cannon => &[Kind::Pao, Kind::Shi],
        Kind::Soldier => &[
            Kind::Chariot,
            Kind::Horse,
            Kind::Cannon,
            Kind::Elephant,
            Kind::Advisor,
        ],
        _ => return None,
    })
}

/// Whether a flip of `side` has shown `back` of the group of face `face`: a piece of that
/// kind on the board born of the group (a 駝 used the elephants' 駝, a soldier-born 車 the
/// soldiers' 車, a 臣 the advisors' 臣; the general is always on the board, so the advisors'
/// 將 is never counted this way), or a back a wrong flip made public.
fn used(pos: &Position, side: Side, face: Kind, back: Kind) -> bool {
    pos.side_pieces(side).into_iter().any(|s| {
        pos.piece(s).is_some_and(|p| {
            let flipped = p.kind == back
                && p.soldier_born == (face == Kind::Soldier)
                && !(face == Kind::Advisor && back == Kind::General);
            let public = p.back_public && p.kind == face && p.back == Back::Known(back);
            flipped || public
        })
    })
}

/// What a seat knows of a xiangqi-3g match: the match from its told position, and each group
/// of pieces whose backs it has not seen with the backs they may hold.
#[derive(Clone, Debug)]
pub struct Knowledge {
    m: Match,
    /// Per group of a side (in the order of `Kind::ALL`'s faces): the pieces whose back is
    /// unknown, and the group's backs less those shown or known on another of its pieces.
    groups: Vec<(Vec<Square>, Vec<Kind>)>,
}

/// The groups of unknown backs of `pos` and what each may hold; the general's back (always 仕)
/// filled in.
fn unknown_backs(pos: &mut Position) -> Vec<(Vec<Square>, Vec<Kind>)> {
    let mut groups = Vec::new();
    for side in [Side::Red, Side::Black] {
        // Every face that may carry a back of a group.
        for face in Kind::ALL.into_iter().filter(|k| *k != Kind::General) {
            let Some(backs) = group(face) else {
                continue;
            };
            let of_group = |s: &Square| pos.piece(*s).filter(|p| p.kind == face && !p.soldier_born);
            let unknown: Vec<Square> = pos
                .side_pieces(side)
                .into_iter()
                .filter(|s| of_group(s).is_some_and(|p| p.back == Back::Unknown))
                .collect();
            if unknown.is_empty() {
                continue;
            }
            let known = |back: Kind| {
                used(pos, side, face, back)
                    || (pos.side_pieces(side).into_iter())
                        .any(|s| of_group(&s).is_some_and(|p| p.back == Back::Known(back)))
            };
            let mut left: Vec<Kind> = backs.iter().copied().filter(|b| !known(*b)).collect();
            if left.len() < unknown.len() {
                left = backs.to_vec();
            }
            groups.push((unknown, left));
        }
        if let Some(s) = pos.general(side)
            && let Some(mut piece) = pos.piece(s)
            && piece.back == Back::Unknown
        {
            piece.back = Back::Known(Kind::Advisor);
            pos.set(s, piece);
        }
    }
    groups
}

impl Worlds for Xiangqi3g {
    type Knowledge = Knowledge;

    /// Centipawns on the Banqi scale (a soldier ≈ 100).
    const CALIBRATION: Calibration = Calibration {
        scale: 290.0,
        drawish: 0.3,
    };

    fn knowledge(m: &Match, seat: Seat) -> Knowledge {
        let own = if seat == Seat::FIRST {
            Side::Red
        } else {
            Side::Black
        };
        let mut pos = m.pos.masked(own);
        let groups = unknown_backs(&mut pos);
        let mut known = Match::from_position(m.rules, pos);
        known.shown = m.shown;
        Knowledge { m: known, groups }
    }

    /// Every unknown back dealt again from what its group may hold.
    fn world<R: RngExt + ?Sized>(k: &Knowledge, rng: &mut R) -> Match {
        let mut pos = k.m.pos.clone();
        for (unknown, left) in &k.groups {
            let mut left = left.clone();
            left.shuffle(rng);
            for (s, back) in unknown.iter().zip(left) {
                let mut piece = pos.piece(*s).expect("occupied");
                piece.back = Back::Known(back);
                pos.set(*s, piece);
            }
        }
        let mut world = Match::from_position(k.m.rules, pos);
        world.shown = k.m.shown;
        world
    }

    fn chance<R: RngExt + ?Sized>(m: &Match, action: &Action, _: &mut R) -> Action {
        m.pos.fill(*action).unwrap_or(*action)
    }

    /// Captures decide xiangqi-3g, and a world holds every back: the search settles them.
    const SETTLES_CAPTURES: bool = true;

    fn gain(m: &Match, action: &Action) -> Option<f64> {
        let Action::Move(mv) = action else {
            return None;
        };
        let pos = m.position();
        let (victim, taker) = (pos.piece(mv.to)?, pos.piece(mv.from)?);
        // The general is worth nothing to the evaluation (it never leaves the board) and
        // everything to the game.
        let taken = if victim.kind == Kind::General {
            100.0
        } else {
            worth(victim.kind)
        };
        Some(taken - worth(taker.kind) / 10.0)
    }

    fn reveals(action: &Action) -> bool {
        !matches!(action, Action::Move(_))
    }

    fn value(m: &Match, out: &mut [f64; MAX_SEATS]) {
        let pos = m.position();
        let mut lead = 0.0;
        for s in pos.occupied() {
            if let Some(p) = pos.piece(s) {
                let w = worth(p.kind);
                lead += if p.side == Side::Red { w } else { -w };
            }
        }
        let red = 1.0 / (1.0 + (-lead / SCALE).exp());
        out[0] = red;
        out[1] = 1.0 - red;
    }
}

impl Search for Xiangqi3g {
    fn analyze(m: &Match, seat: Option<Seat>, limits: &Limits) -> Result<Analysis, AnalysisError> {
        ismcts::analyze::<Xiangqi3g>(m, seat, limits)
    }

    fn decide(
        m: &Match,
        seat: Option<Seat>,
        limits: &Limits,
    ) -> Result<Option<String>, AnalysisError> {
        ismcts::decide::<Xiangqi3g>(m, seat, limits)
    }
}
