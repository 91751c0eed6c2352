//! The pieces of Three Kingdoms Banqi (RULES.md §7): one xiangqi set, in Banqi's letters
//! (red `K G M R N C P`, black `k g m r n c p`), its points, and the factions the pieces
//! belong to under either split of seed 003.

use serde::{Deserialize, Serialize};

use crate::core::Side;
use crate::core::pieces::{Piece, Role};

/// Capture points (RULES.md §7): 將帥車俥 50, 象相士仕 20, 卒兵 22, 馬傌 30, 包炮 40.
pub const fn points(role: Role) -> u32 {
    match role {
        Role::General | Role::Chariot => 50,
        Role::Elephant | Role::Advisor => 20,
        Role::Soldier => 22,
        Role::Horse => 30,
        Role::Cannon => 40,
    }
}

/// How the pieces are split into the three factions (seed 003 gives two ways).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Split {
    /// 第一種 (the default): the generals' faction 帥將兵卒 (12), red 仕相俥傌炮 (10),
    /// black 士象車馬包 (10).
    #[default]
    Generals,
    /// 第二種: soldiers 兵卒 (10), commanders 帥仕相將士象 (10), armies 俥傌炮車馬包 (12).
    Soldiers,
}

/// One of the three factions: 0, 1, 2 in the order of [`Split::factions`].
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Faction(pub u8);

impl Split {
    /// The faction of `piece`.
    pub const fn faction(self, piece: Piece) -> Faction {
        match self {
            Split::Generals => match (piece.role, piece.side) {
                (Role::General | Role::Soldier, _) => Faction(0),
                (_, Side::Red) => Faction(1),
                (_, Side::Black) => Faction(2),
            },
            Split::Soldiers => match piece.role {
                Role::Soldier => Faction(0),
                Role::General | Role::Advisor | Role::Elephant => Faction(1),
                _ => Faction(2),
            },
        }
    }

    /// The factions' names, by index.
    pub const fn factions(self) -> [&'static str; 3] {
        match self {
            Split::Generals => ["generals", "red", "black"],
            Split::Soldiers => ["soldiers", "commanders", "armies"],
        }
    }

    /// The factions' letters in a position string, by index: each split has its own, so
    /// that a position names its split once a faction is claimed.
    pub const fn letters(self) -> [char; 3] {
        match self {
            Split::Generals => ['g', 'r', 'b'],
            Split::Soldiers => ['s', 'c', 'a'],
        }
    }

    /// The split and faction a position-string letter names.
    pub fn from_letter(c: char) -> Option<(Split, Faction)> {
        [Split::Generals, Split::Soldiers]
            .into_iter()
            .find_map(|split| {
                let i = split.letters().iter().position(|l| *l == c)?;
                Some((split, Faction(i as u8)))
            })
    }

    /// The faction's name.
    pub const fn name(self, faction: Faction) -> &'static str {
        self.factions()[faction.0 as usize]
    }

    /// The points of a faction's pieces at the start (320 each in the first split).
    pub fn total_points(self, faction: Faction) -> u32 {
        Piece::all()
            .filter(|p| self.faction(*p) == faction)
            .map(|p| points(p.role) * p.role.count() as u32)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factions_and_points_follow_seed_003() {
        for split in [Split::Generals, Split::Soldiers] {
            let mut sizes = [0u32; 3];
            let mut totals = [0u32; 3];
            for piece in Piece::all() {
                let f = split.faction(piece).0 as usize;
                sizes[f] += piece.role.count() as u32;
                totals[f] += points(piece.role) * piece.role.count() as u32;
            }
            match split {
                // 12 + 10 + 10; each faction 320 points (RULES.md §7).
                Split::Generals => {
                    assert_eq!(sizes, [12, 10, 10]);
                    assert_eq!(totals, [320, 320, 320]);
                }
                Split::Soldiers => {
                    assert_eq!(sizes, [10, 10, 12]);
                    assert_eq!(totals, [220, 260, 480]);
                }
            }
            for f in 0..3 {
                assert_eq!(split.total_points(Faction(f)), totals[f as usize]);
                let letter = split.letters()[f as usize];
                assert_eq!(Split::from_letter(letter), Some((split, Faction(f))));
            }
        }
        assert_eq!(Split::default(), Split::Generals);
    }
}
