//! Luzhanqi pieces (RULES.md §8): two sides of 25, twelve roles. Letters (docs/notation.md):
//! 司令 `M` marshal, 軍長 `G` general, 師長 `D` division commander, 旅長 `R` brigadier,
//! 團長 `C` colonel, 營長 `J` major, 連長 `P` captain, 排長 `T` lieutenant, 工兵 `E` engineer,
//! 地雷 `L` landmine, 炸彈 `B` bomb, 軍旗 `F` flag; red upper case, black lower case.

use std::fmt;

pub use crate::core::Side;

/// What a piece is.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Role {
    Marshal = 0,
    General,
    Division,
    Brigade,
    Colonel,
    Major,
    Captain,
    Lieutenant,
    Engineer,
    Mine,
    Bomb,
    Flag,
}

impl Role {
    pub const ALL: [Role; 12] = [
        Role::Marshal,
        Role::General,
        Role::Division,
        Role::Brigade,
        Role::Colonel,
        Role::Major,
        Role::Captain,
        Role::Lieutenant,
        Role::Engineer,
        Role::Mine,
        Role::Bomb,
        Role::Flag,
    ];

    /// How many of the role each side has (25 in all).
    pub const fn count(self) -> u8 {
        match self {
            Role::Marshal | Role::General | Role::Flag => 1,
            Role::Division | Role::Brigade | Role::Colonel | Role::Major | Role::Bomb => 2,
            Role::Captain | Role::Lieutenant | Role::Engineer | Role::Mine => 3,
        }
    }

    /// The officer's rank, 9 for 司令 down to 1 for 工兵; mines, bombs and the flag have none.
    #[inline]
    pub const fn rank(self) -> Option<u8> {
        match self {
            Role::Mine | Role::Bomb | Role::Flag => None,
            r => Some(9 - r as u8),
        }
    }

    /// Mines and the flag never move by themselves.
    #[inline]
    pub const fn movable(self) -> bool {
        !matches!(self, Role::Mine | Role::Flag)
    }

    pub const fn letter(self) -> char {
        match self {
            Role::Marshal => 'M',
            Role::General => 'G',
            Role::Division => 'D',
            Role::Brigade => 'R',
            Role::Colonel => 'C',
            Role::Major => 'J',
            Role::Captain => 'P',
            Role::Lieutenant => 'T',
            Role::Engineer => 'E',
            Role::Mine => 'L',
            Role::Bomb => 'B',
            Role::Flag => 'F',
        }
    }

    /// The role's English name (docs/notation.md), as reports write it.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Marshal => "marshal",
            Role::General => "general",
            Role::Division => "division",
            Role::Brigade => "brigadier",
            Role::Colonel => "colonel",
            Role::Major => "major",
            Role::Captain => "captain",
            Role::Lieutenant => "lieutenant",
            Role::Engineer => "engineer",
            Role::Mine => "mine",
            Role::Bomb => "bomb",
            Role::Flag => "flag",
        }
    }

    pub const fn chinese(self) -> &'static str {
        match self {
            Role::Marshal => "司令",
            Role::General => "軍長",
            Role::Division => "師長",
            Role::Brigade => "旅長",
            Role::Colonel => "團長",
            Role::Major => "營長",
            Role::Captain => "連長",
            Role::Lieutenant => "排長",
            Role::Engineer => "工兵",
            Role::Mine => "地雷",
            Role::Bomb => "炸彈",
            Role::Flag => "軍旗",
        }
    }

    pub fn from_letter(c: char) -> Option<Role> {
        Role::ALL
            .into_iter()
            .find(|r| r.letter() == c.to_ascii_uppercase())
    }
}

/// A piece: a side and a role.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Piece {
    pub side: Side,
    pub role: Role,
}

impl Piece {
    pub const fn new(side: Side, role: Role) -> Piece {
        Piece { side, role }
    }

    pub const fn char(self) -> char {
        let c = self.role.letter();
        match self.side {
            Side::Red => c,
            Side::Black => c.to_ascii_lowercase(),
        }
    }

    pub fn from_char(c: char) -> Option<Piece> {
        let role = Role::from_letter(c)?;
        let side = if c.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Black
        };
        Some(Piece { side, role })
    }

    /// A small index 0..24 (side × 12 + role), for counting tables.
    #[inline]
    pub const fn index(self) -> usize {
        self.side as usize * 12 + self.role as usize
    }

    /// The 24 pieces, red's then black's.
    pub fn all() -> impl Iterator<Item = Piece> {
        Side::ALL
            .into_iter()
            .flat_map(|side| Role::ALL.into_iter().map(move |role| Piece { side, role }))
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// What an attack did.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Combat {
    /// The attacker removed the defender and took its point.
    Win,
    /// The attacker died; the defender stays.
    Loss,
    /// Both died.
    Both,
}

impl Combat {
    /// The announcement a referee gives both players (RULES.md §8, dark mode).
    pub const fn code(self) -> &'static str {
        match self {
            Combat::Win => "win",
            Combat::Loss => "loss",
            Combat::Both => "both_die",
        }
    }
}

/// The outcome of `attacker` attacking `defender` (RULES.md §8 "Combat"); `mine_kills_both`
/// is the ruleset's mine option. The flag loses to everything (its capture ends the game).
pub const fn combat(attacker: Role, defender: Role, mine_kills_both: bool) -> Combat {
    match (attacker, defender) {
        (Role::Bomb, _) | (_, Role::Bomb) => Combat::Both,
        (_, Role::Flag) => Combat::Win,
        (Role::Engineer, Role::Mine) => Combat::Win,
        (_, Role::Mine) => {
            if mine_kills_both {
                Combat::Both
            } else {
                Combat::Loss
            }
        }
        (a, d) => match (a.rank(), d.rank()) {
            (Some(a), Some(d)) if a > d => Combat::Win,
            (Some(a), Some(d)) if a < d => Combat::Loss,
            _ => Combat::Both,
        },
    }
}

/// A multiset of pieces (face-down pieces in a flip game), counts per [`Piece::index`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Pool(pub [u8; 24]);

impl Pool {
    /// Both sides' 25 pieces.
    pub fn full() -> Pool {
        let mut pool = Pool::default();
        for piece in Piece::all() {
            pool.0[piece.index()] = piece.role.count();
        }
        pool
    }

    #[inline]
    pub fn count(&self, piece: Piece) -> u8 {
        self.0[piece.index()]
    }

    pub fn total(&self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }

    pub fn add(&mut self, piece: Piece) {
        self.0[piece.index()] += 1;
    }

    pub fn remove(&mut self, piece: Piece) {
        self.0[piece.index()] -= 1;
    }

    /// The `k`-th piece (0-based) in index order: uniform sampling from the pool.
    pub fn nth(&self, mut k: u32) -> Option<Piece> {
        Piece::all().find(|p| {
            let n = self.count(*p) as u32;
            k = match k.checked_sub(n) {
                Some(rest) => rest,
                None => return true,
            };
            false
        })
    }

    /// Letter and count pairs in the order M G D R C J P T E L B F, then black's; `-` when
    /// empty.
    pub fn letters(&self) -> String {
        let mut s = String::new();
        for piece in Piece::all() {
            let n = self.count(piece);
            if n > 0 {
                s.push(piece.char());
                s.push_str(&n.to_string());
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_five_pieces_a_side() {
        assert_eq!(Role::ALL.iter().map(|r| r.count() as u32).sum::<u32>(), 25);
        assert_eq!(Pool::full().total(), 50);
        for piece in Piece::all() {
            assert_eq!(Piece::from_char(piece.char()), Some(piece));
        }
    }

    #[test]
    fn the_combat_table() {
        use Combat::*;
        use Role::*;
        assert_eq!(combat(Marshal, General, false), Win);
        assert_eq!(combat(Lieutenant, Captain, false), Loss);
        assert_eq!(combat(Colonel, Colonel, false), Both);
        assert_eq!(combat(Bomb, Marshal, false), Both);
        assert_eq!(combat(Engineer, Bomb, false), Both);
        assert_eq!(combat(Bomb, Mine, false), Both);
        assert_eq!(combat(Bomb, Flag, false), Both);
        assert_eq!(combat(Engineer, Mine, false), Win);
        assert_eq!(combat(Marshal, Mine, false), Loss);
        assert_eq!(combat(Marshal, Mine, true), Both);
        assert_eq!(combat(Engineer, Flag, false), Win);
        assert_eq!(combat(Engineer, Lieutenant, false), Loss);
    }
}
