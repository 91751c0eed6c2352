//! Luzhanqi's engine: the information-set search of [`crate::core::ismcts`].
//!
//! Open games hide nothing. In a flip game the face-down pieces are a public multiset: a flip,
//! or an attack on a face-down piece, draws its identity when it is played. In a dark game a
//! seat knows its own pieces, where the enemy's stand, and its [clues](super::clues) about each of them
//! (the announced attacks and the moves); its knowledge is the match with the enemy pieces it
//! cannot identify taken off, and each world deals them again: the flag to one piece that may
//! be the flag, then the most constrained piece first, each role as likely as the enemy's
//! pieces of it not accounted for.

use rand::RngExt;

use crate::core::analysis::{Analysis, AnalysisError, Calibration, Limits, Search};
use crate::core::ismcts::{self, Worlds};
use crate::core::{MAX_SEATS, Seat};

use super::board::{NEIGHBOURS, Point, Points};
use super::clues::{Roles, bit, start_roles};
use super::notation::Action;
use super::pieces::{Piece, Pool, Role, Side};
use super::position::{Cell, Position};
use super::rules::{Luzhanqi, Match};
use super::ruleset::Mode;

/// Material lead worth three to one (a 師長 is 6).
const SCALE: f64 = 9.0;

fn worth(role: Role) -> f64 {
    match role {
        Role::Marshal => 10.0,
        Role::General => 8.0,
        Role::Division => 6.0,
        Role::Brigade => 5.0,
        Role::Colonel => 4.0,
        Role::Major => 3.0,
        Role::Bomb => 5.0,
        Role::Captain => 2.0,
        Role::Engineer => 2.5,
        Role::Lieutenant => 1.5,
        Role::Mine => 2.0,
        Role::Flag => 0.0,
    }
}

/// What a seat knows of a Luzhanqi match.
#[derive(Clone, Debug)]
pub struct Knowledge {
    /// The match with the enemy pieces the seat cannot identify taken off (a dark game), or
    /// the match itself.
    m: Match,
    enemy: Side,
    /// The enemy pieces taken off, most constrained first, and the roles each may have.
    unknown: Vec<(Point, Roles)>,
    /// Per role, the enemy pieces not accounted for.
    counts: [u8; 12],
}

/// A piece of `pool` drawn uniformly (None when it is empty).
fn draw(pool: &Pool, rng: &mut (impl RngExt + ?Sized)) -> Option<Piece> {
    pool.nth(rng.random_range(0..pool.total().max(1)))
}

impl Worlds for Luzhanqi {
    type Knowledge = Knowledge;

    /// Centipawns on the Banqi scale.
    const CALIBRATION: Calibration = Calibration {
        scale: 290.0,
        drawish: 0.2,
    };

    fn knowledge(m: &Match, seat: Seat) -> Knowledge {
        let own = if seat == Seat::FIRST {
            Side::Red
        } else {
            Side::Black
        };
        let mut k = Knowledge {
            m: m.clone(),
            enemy: own.other(),
            unknown: Vec::new(),
            counts: Role::ALL.map(Role::count),
        };
        if m.rules.mode != Mode::Dark {
            return k;
        }
        let enemy = own.other();
        for p in m.pos.side_points(enemy) {
            let Some(piece) = m.pos.piece(p) else {
                continue;
            };
            if super::view::visible(&m.rules, &m.pos, Some(own), piece) {
                k.counts[piece.role as usize] = k.counts[piece.role as usize].saturating_sub(1);
                // The flag shows once the 司令 has died.
                k.counts[Role::Marshal as usize] = 0;
                continue;
            }
            let mut roles = m.clues.roles(p);
            // A piece that may be a mine or the flag has never moved: it is on its start point.
            if roles & (bit(Role::Mine) | bit(Role::Flag)) != 0 {
                roles &= start_roles(enemy, p);
            }
            k.unknown.push((p, roles));
            k.m.pos.take(p);
        }
        k.unknown.sort_by_key(|(_, roles)| roles.count_ones());
        k
    }

    fn world<R: RngExt + ?Sized>(k: &Knowledge, rng: &mut R) -> Match {
        let mut m = k.m.clone();
        if k.unknown.is_empty() {
            return m;
        }
        let mut counts = k.counts;
        let flags: Vec<usize> = (0..k.unknown.len())
            .filter(|&i| k.unknown[i].1 & bit(Role::Flag) != 0)
            .collect();
        let flag = (!flags.is_empty() && counts[Role::Flag as usize] > 0)
            .then(|| flags[rng.random_range(0..flags.len())]);
        counts[Role::Flag as usize] = 0;
        for (i, &(p, roles)) in k.unknown.iter().enumerate() {
            let role = if Some(i) == flag {
                Role::Flag
            } else {
                let roles = roles & !bit(Role::Flag);
                let weight = |r: Role| {
                    if roles & bit(r) != 0 {
                        counts[r as usize] as u32
                    } else {
                        0
                    }
                };
                let total: u32 = Role::ALL.into_iter().map(weight).sum();
                if total > 0 {
                    let mut pick = rng.random_range(0..total);
                    let role = Role::ALL
                        .into_iter()
                        .find(|&r| {
                            let w = weight(r);
                            if pick < w {
                                true
                            } else {
                                pick -= w;
                                false
                            }
                        })
                        .expect("pick < total");
                    counts[role as usize] -= 1;
                    role
                } else {
                    // More pieces than the count allows (a dead piece's role is never told):
                    // any role the clues leave.
                    let left: Vec<Role> = Role::ALL
                        .into_iter()
                        .filter(|r| roles & bit(*r) != 0)
                        .collect();
                    if left.is_empty() {
                        Role::Lieutenant
                    } else {
                        left[rng.random_range(0..left.len())]
                    }
                }
            };
            m.pos.put(p, Piece::new(k.enemy, role));
        }
        m
    }

    fn chance<R: RngExt + ?Sized>(m: &Match, action: &Action, rng: &mut R) -> Action {
        match *action {
            Action::Flip { point, piece: None } => Action::Flip {
                point,
                piece: draw(m.pos.pool(), rng),
            },
            Action::Move {
                from,
                to,
                reveal: None,
            } if m.pos.cell(to) == Cell::Covered => Action::Move {
                from,
                to,
                reveal: draw(m.pos.pool(), rng),
            },
            other => other,
        }
    }

    fn reveals(action: &Action) -> bool {
        matches!(action, Action::Flip { .. })
    }

    fn value(m: &Match, out: &mut [f64; MAX_SEATS]) {
        let pos = &m.pos;
        let Some(red_seat_side) = pos.side_of(Seat::FIRST) else {
            out[0] = 0.5;
            out[1] = 0.5;
            return;
        };
        let mut lead = 0.0;
        for p in pos.side_points(red_seat_side) {
            lead += pos.piece(p).map_or(0.0, |q| worth(q.role));
        }
        for p in pos.side_points(red_seat_side.other()) {
            lead -= pos.piece(p).map_or(0.0, |q| worth(q.role));
        }
        lead -= flag_danger(pos, red_seat_side) - flag_danger(pos, red_seat_side.other());
        let first = 1.0 / (1.0 + (-lead / SCALE).exp());
        out[0] = first;
        out[1] = 1.0 - first;
    }
}

/// What the enemy's pieces near `side`'s flag are worth to the enemy: a piece next to the flag
/// takes it (and the game) at its next move, which is now when the enemy is to move; one a step
/// further is a threat. The flag's worth is nothing by itself: without this the playouts,
/// six plies long, see the attack on it too late (most of the engine's losses were its flag).
fn flag_danger(pos: &Position, side: Side) -> f64 {
    let Some(flag) = pos
        .side_points(side)
        .into_iter()
        .find(|&p| pos.piece(p).is_some_and(|q| q.role == Role::Flag))
    else {
        return 0.0;
    };
    let next = NEIGHBOURS[flag.index()];
    let mut around = 0;
    for p in Points(next) {
        around |= NEIGHBOURS[p.index()];
    }
    around &= !next & !flag.bit();
    let mut danger = 0.0;
    let imminent = pos.turn() == Some(side.other());
    for p in pos.side_points(side.other()) {
        if !pos.piece(p).is_some_and(|q| q.role.movable()) {
            continue;
        }
        if next & p.bit() != 0 {
            danger += if imminent { 40.0 } else { 10.0 };
        } else if around & p.bit() != 0 {
            danger += 4.0;
        }
    }
    danger
}

impl Search for Luzhanqi {
    fn analyze(m: &Match, seat: Option<Seat>, limits: &Limits) -> Result<Analysis, AnalysisError> {
        ismcts::analyze::<Luzhanqi>(m, seat, limits)
    }
}
