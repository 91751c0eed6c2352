//! What each side can tell of the enemy pieces in a dark game (RULES.md §8 "Modes"), from what
//! both are shown: where pieces go (a piece that moves is no mine and no flag; one that turned
//! on the railway is an engineer) and the
//! referee's announcements, read against the side's own piece in the fight (an enemy piece
//! that took my 營長 outranks it or is an engineer that took a mine …). A [`Clues`] keeps, for
//! every point, the roles the piece standing there may have in its opponent's eyes; the engine
//! deals its guesses from them (`engine.rs`). Nothing here is hidden from the side that reads
//! it: the clues about a side's pieces are what its opponent can work out.

use super::board::{CAMPS, HQS, Point, neighbours_of};
use super::pieces::{Combat, Role, Side, combat};
use super::ruleset::{MineRule, Mountains, Railway, Ruleset};

/// A set of roles, a bit per [`Role`] index.
pub type Roles = u16;

/// Every role.
pub const ALL: Roles = (1 << 12) - 1;

pub const fn bit(role: Role) -> Roles {
    1 << role as u16
}

/// The roles a piece of `side` may start on `p` with (RULES.md §8 "Setup": the flag in a
/// headquarters, mines on the last two ranks, no bomb on the front rank, nothing in a camp).
pub fn start_roles(side: Side, p: Point) -> Roles {
    if p.is_mountain() || CAMPS.contains(p) {
        return 0;
    }
    let rank = p.rank() as usize % 6;
    let from_back = if side == Side::Red { rank } else { 5 - rank };
    let mut roles = ALL;
    if !HQS.contains(p) {
        roles &= !bit(Role::Flag);
    }
    if from_back > 1 {
        roles &= !bit(Role::Mine);
    }
    if from_back == 5 {
        roles &= !bit(Role::Bomb);
    }
    roles
}

/// The roles a piece that went from `from` to `to` in one move may have under `rules`: no
/// mine and no flag (they never move); only an engineer when it turned on the railway (the
/// others run straight along a rank or a file, under the default railway rule; under "three
/// stations with turns" a turn tells nothing) or entered a mountain only engineers may enter.
pub fn mover_roles(from: Point, to: Point, rules: &Ruleset) -> Roles {
    let movers = ALL & !(bit(Role::Mine) | bit(Role::Flag));
    let engineer = if from.is_mountain() || to.is_mountain() {
        to.is_mountain() && rules.mountains == Mountains::Engineers
    } else {
        rules.railway == Railway::Straight
            && !neighbours_of(from).contains(to)
            && from.file() != to.file()
            && from.rank() != to.rank()
    };
    if engineer {
        movers & bit(Role::Engineer)
    } else {
        movers
    }
}

/// The roles `r` for which `combat(r, known)` (or `combat(known, r)` when `known` attacked)
/// gave `result`.
fn consistent(known: Role, known_attacked: bool, result: Combat, mine_kills_both: bool) -> Roles {
    Role::ALL
        .into_iter()
        .filter(|&r| {
            let outcome = if known_attacked {
                combat(known, r, mine_kills_both)
            } else {
                combat(r, known, mine_kills_both)
            };
            outcome == result
        })
        .fold(0, |acc, r| acc | bit(r))
}

/// Per point, the roles its piece may have as its opponent sees it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clues([Roles; Point::COUNT]);

impl Default for Clues {
    fn default() -> Clues {
        Clues([ALL; Point::COUNT])
    }
}

impl Clues {
    pub fn roles(&self, p: Point) -> Roles {
        self.0[p.index()]
    }

    /// A piece moved from `from` to the empty `to` under `rules` ([`mover_roles`]).
    pub fn moved(&mut self, from: Point, to: Point, rules: &Ruleset) {
        self.0[to.index()] = self.0[from.index()] & mover_roles(from, to, rules);
        self.0[from.index()] = ALL;
    }

    /// The piece `attacker` from `from` attacked the piece `defender` on `to` with `result`:
    /// each side narrows the other's piece by its own.
    pub fn attacked(
        &mut self,
        (from, attacker): (Point, Role),
        (to, defender): (Point, Role),
        result: Combat,
        rules: &Ruleset,
    ) {
        let mine_kills_both = rules.mine == MineRule::BothDie;
        let moved = self.0[from.index()] & mover_roles(from, to, rules);
        self.0[from.index()] = ALL;
        match result {
            Combat::Win => {
                self.0[to.index()] = moved & consistent(defender, false, result, mine_kills_both);
            }
            Combat::Loss => {
                self.0[to.index()] &= consistent(attacker, true, result, mine_kills_both);
            }
            Combat::Both => self.0[to.index()] = ALL,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn a_turn_on_the_railway_shows_an_engineer() {
        let rules = Ruleset::DARK;
        let movers = ALL & !(bit(Role::Mine) | bit(Role::Flag));
        // A road step (a camp's diagonal included) and a straight run along a rank or file:
        // any piece that moves.
        assert_eq!(mover_roles(point("a2"), point("a3"), &rules), movers);
        assert_eq!(mover_roles(point("a2"), point("b3"), &rules), movers);
        assert_eq!(mover_roles(point("a2"), point("e2"), &rules), movers);
        assert_eq!(mover_roles(point("a2"), point("a6"), &rules), movers);
        // From a2 to e6: round the railway's corner, only an engineer.
        assert_eq!(
            mover_roles(point("a2"), point("e6"), &rules),
            bit(Role::Engineer)
        );
        // Where every piece may turn, a turn tells nothing.
        let turns = Ruleset {
            railway: Railway::ThreeWithTurns,
            ..rules
        };
        assert_eq!(mover_roles(point("a2"), point("b6"), &turns), movers);
        // Into a mountain only engineers may enter.
        let mountains = Ruleset {
            mountains: Mountains::Engineers,
            ..rules
        };
        assert_eq!(
            mover_roles(point("c6"), Point::MOUNTAIN_B, &mountains),
            bit(Role::Engineer)
        );
        assert_eq!(mover_roles(point("c6"), Point::MOUNTAIN_B, &rules), movers);
    }
}
