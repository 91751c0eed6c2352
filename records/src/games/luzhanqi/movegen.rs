//! Legal actions (RULES.md §8 "Movement"): steps along any edge, railway runs (straight, or
//! three stations with turns), the engineer's flood fill over the railway, the mountains, and
//! in flip games flips and the flag rules. Allocation-free: sets of points are u64s.
//!
//! Whether an action is legal depends only on what its mover sees: its own identities, where
//! pieces stand, and in flip games the face-up pieces everybody sees.

use super::board::{
    CAMPS, MOUNTAIN_RING, Point, Points, RAILWAY, neighbours_of, rail_neighbours_of, rail_step,
};
use super::notation::Action;
use super::pieces::{Piece, Role, Side};
use super::position::{Cell, FlagState, Position};
use super::ruleset::{Mode, Mountains, Railway, Ruleset};

/// Where a piece may go: empty points to move to, and points to attack (or, for a flag
/// carrier, the enemy flag to pick up).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Reach {
    pub moves: Points,
    pub attacks: Points,
}

impl Position {
    /// Every legal action of the side to move, written to `out` (cleared first).
    pub fn legal_actions(&self, rules: &Ruleset, out: &mut Vec<Action>) {
        out.clear();
        for point in self.covered {
            out.push(Action::Flip { point, piece: None });
        }
        let Some(side) = self.turn else {
            return;
        };
        for from in self.sides[side.index()] {
            let reach = self.reach(rules, from);
            for to in reach.moves | reach.attacks {
                out.push(Action::Move {
                    from,
                    to,
                    reveal: None,
                });
            }
        }
        if self.carrier(side).is_some() {
            out.push(Action::Drop);
        }
    }

    /// Whether the side to move has any legal action (cheaper than listing them).
    pub fn has_action(&self, rules: &Ruleset) -> bool {
        if !self.covered.is_empty() {
            return true;
        }
        let Some(side) = self.turn else {
            return false;
        };
        let mut own = self.sides[side.index()];
        own.any(|from| {
            let r = self.reach(rules, from);
            !(r.moves | r.attacks).is_empty()
        })
    }

    /// The point of `side`'s piece that carries the enemy flag.
    pub fn carrier(&self, side: Side) -> Option<Point> {
        match self.flags[side.other().index()] {
            FlagState::Carried(p) => Some(p),
            _ => None,
        }
    }

    /// Whether `piece` may pick up (and carry) the enemy flag: flip games, once all three
    /// enemy mines are gone, by the side's lowest-ranked face-up piece (seed 004).
    pub fn may_carry(&self, rules: &Ruleset, piece: Piece) -> bool {
        if rules.mode != Mode::Flip
            || self.remaining(Piece::new(piece.side.other(), Role::Mine)) > 0
        {
            return false;
        }
        let Some(rank) = piece.role.rank() else {
            return false;
        };
        // The lowest rank among the side's face-up officers and engineers.
        let lowest = (0..9u8)
            .rev()
            .map(|i| Role::ALL[i as usize])
            .find(|r| self.alive.count(Piece::new(piece.side, *r)) > 0)
            .and_then(Role::rank);
        lowest == Some(rank)
    }

    /// Where the face-up piece on `from` may go (nothing for another side's piece, a mine, a
    /// flag, or a piece frozen in a headquarters).
    pub fn reach(&self, rules: &Ruleset, from: Point) -> Reach {
        let Cell::Piece(piece) = self.cells[from.index()] else {
            return Reach::default();
        };
        if Some(piece.side) != self.turn
            || !piece.role.movable()
            || (rules.hq_freeze() && super::board::HQS.contains(from))
        {
            return Reach::default();
        }
        let occupied = self.occupied();
        if from.is_mountain() {
            let ring = MOUNTAIN_RING[from.index() - Point::BOARD];
            return Reach {
                moves: ring & !occupied,
                attacks: Points::EMPTY,
            };
        }
        let mut moves = neighbours_of(from) & !occupied;
        let mut contact = neighbours_of(from) & occupied;
        if RAILWAY.contains(from) {
            let (m, c) = if piece.role == Role::Engineer {
                self.rail_flood(from, occupied)
            } else {
                match rules.railway {
                    Railway::Straight => rail_straight(from, occupied),
                    Railway::ThreeWithTurns => rail_three(from, occupied),
                }
            };
            moves = moves | m;
            contact = contact | c;
        }
        let may_enter = match rules.mountains {
            Mountains::Closed => false,
            Mountains::Engineers => piece.role == Role::Engineer,
            Mountains::Any => true,
        };
        if may_enter {
            for (i, ring) in MOUNTAIN_RING.iter().enumerate() {
                let mountain = Point::new((Point::BOARD + i) as u8).expect("a mountain");
                if ring.contains(from) && !occupied.contains(mountain) {
                    moves = moves.with(mountain);
                }
            }
        }
        Reach {
            moves,
            attacks: self.attackable(rules, piece, contact),
        }
    }

    /// Of the occupied points `contact`, those `piece` may attack: not its own, not in a camp;
    /// in a flip game no face-up mine but by an engineer or a bomb, and the enemy flag only to
    /// pick it up, also in a camp (RULES.md §8's settled points: a flag lying alone blocks no
    /// piece allowed to carry it).
    fn attackable(&self, rules: &Ruleset, piece: Piece, contact: Points) -> Points {
        let enemy = self.sides[piece.side.other().index()];
        let mut targets = (enemy | self.covered) & contact & !CAMPS;
        if rules.mode == Mode::Flip {
            for p in enemy & contact & CAMPS {
                if matches!(self.cells[p.index()], Cell::Piece(t) if t.role == Role::Flag) {
                    targets = targets.with(p);
                }
            }
            for p in enemy & targets {
                let Cell::Piece(target) = self.cells[p.index()] else {
                    continue;
                };
                let allowed = match target.role {
                    Role::Mine => matches!(piece.role, Role::Engineer | Role::Bomb),
                    Role::Flag => self.may_carry(rules, piece),
                    _ => true,
                };
                if !allowed {
                    targets = targets.without(p);
                }
            }
        }
        targets
    }

    /// The engineer's railway: every station reachable through empty stations, and the
    /// occupied stations next to them.
    fn rail_flood(&self, from: Point, occupied: Points) -> (Points, Points) {
        let mut reached = Points::EMPTY.with(from);
        let mut frontier = reached;
        let mut contact = Points::EMPTY;
        while let Some(p) = frontier.first() {
            frontier = frontier.without(p);
            let next = rail_neighbours_of(p) & !reached;
            contact = contact | (next & occupied);
            let empty = next & !occupied;
            reached = reached | empty;
            frontier = frontier | empty;
        }
        (reached.without(from), contact)
    }
}

/// A straight railway run in each direction: empty stations, then the first occupied one.
fn rail_straight(from: Point, occupied: Points) -> (Points, Points) {
    let mut moves = Points::EMPTY;
    let mut contact = Points::EMPTY;
    for d in 0..4 {
        let mut p = from;
        while let Some(next) = rail_step(p, d) {
            if occupied.contains(next) {
                contact = contact.with(next);
                break;
            }
            moves = moves.with(next);
            p = next;
        }
    }
    (moves, contact)
}

/// At most three railway stations, turning anywhere: a breadth-first search of depth 3.
fn rail_three(from: Point, occupied: Points) -> (Points, Points) {
    let mut reached = Points::EMPTY.with(from);
    let mut frontier = reached;
    let mut contact = Points::EMPTY;
    for _ in 0..3 {
        let mut next = Points::EMPTY;
        for p in frontier {
            next = next | rail_neighbours_of(p);
        }
        next = next & !reached;
        contact = contact | (next & occupied);
        frontier = next & !occupied;
        reached = reached | frontier;
    }
    (reached.without(from), contact)
}
