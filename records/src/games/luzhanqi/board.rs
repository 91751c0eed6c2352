//! The Luzhanqi board (RULES.md §8): 5 files `a`–`e` × 12 ranks, 60 points (stations, railway
//! stations, camps, headquarters) and the two mountains (山界, `bm` and `dm`) that some rules let
//! pieces enter. Sets of points are 64-bit bitboards; the edges are tables built at compile
//! time from the brief's rules, and a test pins them to `records/data/luzhanqi-board.txt`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

pub const FILES: u8 = 5;
pub const RANKS: u8 = 12;

/// One of the 60 points `a1` … `e12`, or a mountain. The index runs a1 b1 … e1 a2 … e12, then
/// `bm` (60) and `dm` (61).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Point(u8);

crate::grid_place!(Point, files FILES, ranks RANKS, count 62, own file_rank);

impl Point {
    /// The points of the board proper (mountains excluded).
    pub const BOARD: usize = 60;
    /// The mountain between files a and c (between b6 and b7).
    pub const MOUNTAIN_B: Point = Point(60);
    /// The mountain between files c and e (between d6 and d7).
    pub const MOUNTAIN_D: Point = Point(61);

    #[inline]
    pub const fn bit(self) -> u64 {
        1 << self.0
    }

    pub const fn file(self) -> u8 {
        if self.0 == 60 {
            1
        } else if self.0 == 61 {
            3
        } else {
            self.0 % FILES
        }
    }

    /// 0-based rank (a mountain counts as rank 6, between the halves).
    pub const fn rank(self) -> u8 {
        if self.0 >= 60 { 6 } else { self.0 / FILES }
    }

    pub const fn is_mountain(self) -> bool {
        self.0 >= 60
    }

    /// The board points (mountains excluded), a1 b1 … e12.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..Point::BOARD as u8).map(Point)
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            60 => f.write_str("bm"),
            61 => f.write_str("dm"),
            _ => write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1),
        }
    }
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("invalid point {0:?}: expected a file a–e and a rank 1–12 (like c6), or a mountain bm, dm")]
pub struct ParsePointError(pub String);

impl FromStr for Point {
    type Err = ParsePointError;
    fn from_str(s: &str) -> Result<Point, ParsePointError> {
        let err = || ParsePointError(s.to_owned());
        match s {
            "bm" => return Ok(Point::MOUNTAIN_B),
            "dm" => return Ok(Point::MOUNTAIN_D),
            _ => {}
        }
        let bytes = s.as_bytes();
        let (&f, rank) = bytes.split_first().ok_or_else(err)?;
        if !(b'a'..=b'e').contains(&f) || rank.is_empty() || rank[0] == b'0' || rank.len() > 2 {
            return Err(err());
        }
        let rank: u8 = std::str::from_utf8(rank)
            .ok()
            .and_then(|r| r.parse().ok())
            .ok_or_else(err)?;
        if !(1..=RANKS).contains(&rank) {
            return Err(err());
        }
        Ok(Point((rank - 1) * FILES + (f - b'a')))
    }
}

crate::place_set!(
    /// A set of points, one bit per point index (the 60 points and the two mountains): the
    /// board kit's vocabulary on a `u64`.
    pub struct Points(u64) of Point, Point::COUNT
);

const fn pt(file: u8, rank: u8) -> u64 {
    1 << ((rank - 1) * FILES + file)
}

/// The four headquarters (大本營): `b1 d1` red's, `b12 d12` black's.
pub const HQS: Points = Points(pt(1, 1) | pt(3, 1) | pt(1, 12) | pt(3, 12));
/// The ten camps (行營).
pub const CAMPS: Points = Points(
    pt(1, 3)
        | pt(3, 3)
        | pt(2, 4)
        | pt(1, 5)
        | pt(3, 5)
        | pt(1, 8)
        | pt(3, 8)
        | pt(2, 9)
        | pt(1, 10)
        | pt(3, 10),
);
/// The 32 railway stations: ranks 2, 6, 7, 11, and files a and e from rank 2 to 11.
pub const RAILWAY: Points = Points(railway());
/// Red's half (ranks 1–6), mountains excluded.
pub const RED_HALF: Points = Points((1 << 30) - 1);
/// Black's half (ranks 7–12).
pub const BLACK_HALF: Points = Points(((1 << 60) - 1) & !((1 << 30) - 1));
/// Every board point (mountains excluded).
pub const BOARD: Points = Points((1 << 60) - 1);
/// The mountains.
pub const MOUNTAINS: Points = Points((1 << 60) | (1 << 61));

const fn railway() -> u64 {
    let mut set = 0;
    let mut file = 0;
    while file < FILES {
        set |= pt(file, 2) | pt(file, 6) | pt(file, 7) | pt(file, 11);
        file += 1;
    }
    let mut rank = 2;
    while rank <= 11 {
        set |= pt(0, rank) | pt(4, rank);
        rank += 1;
    }
    set
}

/// What kind of point it is.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum PointKind {
    /// A station on the road only.
    Station,
    Railway,
    Camp,
    Headquarters,
    Mountain,
}

impl PointKind {
    pub const fn of(p: Point) -> PointKind {
        if p.is_mountain() {
            PointKind::Mountain
        } else if HQS.contains(p) {
            PointKind::Headquarters
        } else if CAMPS.contains(p) {
            PointKind::Camp
        } else if RAILWAY.contains(p) {
            PointKind::Railway
        } else {
            PointKind::Station
        }
    }

    /// The data file's letter.
    pub const fn letter(self) -> char {
        match self {
            PointKind::Station => 'S',
            PointKind::Railway => 'R',
            PointKind::Camp => 'C',
            PointKind::Headquarters => 'H',
            PointKind::Mountain => 'M',
        }
    }
}

const fn orthogonal(a: u8, b: u8) -> bool {
    // `a` and `b` are board indexes; an orthogonal edge joins neighbours on a rank, or on a
    // file within a half, or across the front on files a, c, e.
    let (fa, ra, fb, rb) = (a % FILES, a / FILES, b % FILES, b / FILES);
    if ra == rb {
        return fa + 1 == fb || fb + 1 == fa;
    }
    if fa != fb || !(ra + 1 == rb || rb + 1 == ra) {
        return false;
    }
    let low = if ra < rb { ra } else { rb };
    low != 5 || fa % 2 == 0
}

const fn diagonal(a: u8, b: u8) -> bool {
    let (fa, ra, fb, rb) = (a % FILES, a / FILES, b % FILES, b / FILES);
    let df = fa + 1 == fb || fb + 1 == fa;
    let dr = ra + 1 == rb || rb + 1 == ra;
    df && dr && (CAMPS.0 & ((1 << a) | (1 << b))) != 0
}

const fn neighbours() -> [u64; Point::COUNT] {
    let mut table = [0u64; Point::COUNT];
    let mut a = 0;
    while a < 60 {
        let mut b = 0;
        while b < 60 {
            if a != b && (orthogonal(a, b) || diagonal(a, b)) {
                table[a as usize] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    table
}

const fn rail_neighbours() -> [u64; Point::COUNT] {
    let mut table = [0u64; Point::COUNT];
    let mut a = 0;
    while a < 60 {
        let mut b = 0;
        while b < 60 {
            if a != b && orthogonal(a, b) && (RAILWAY.0 >> a) & 1 == 1 && (RAILWAY.0 >> b) & 1 == 1
            {
                table[a as usize] |= 1 << b;
            }
            b += 1;
        }
        a += 1;
    }
    table
}

/// Every point one edge away (road or railway, camp diagonals included); mountains have none.
pub const NEIGHBOURS: [u64; Point::COUNT] = neighbours();
/// The points one railway edge away.
pub const RAIL_NEIGHBOURS: [u64; Point::COUNT] = rail_neighbours();

/// The four railway directions: up (towards rank 12), right, down, left.
pub const DIRECTIONS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

const fn rail_steps() -> [[u8; 4]; Point::COUNT] {
    let mut table = [[u8::MAX; 4]; Point::COUNT];
    let mut a = 0;
    while a < 60 {
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIRECTIONS[d];
            let f = (a % FILES) as i8 + df;
            let r = (a / FILES) as i8 + dr;
            if f >= 0 && f < FILES as i8 && r >= 0 && r < RANKS as i8 {
                let b = r as u8 * FILES + f as u8;
                if (RAIL_NEIGHBOURS[a as usize] >> b) & 1 == 1 {
                    table[a as usize][d] = b;
                }
            }
            d += 1;
        }
        a += 1;
    }
    table
}

/// The next railway station in each direction, `u8::MAX` where the railway does not go on.
pub const RAIL_STEP: [[u8; 4]; Point::COUNT] = rail_steps();

/// The railway stations around each mountain (a piece enters from them and leaves to them).
pub const MOUNTAIN_RING: [Points; 2] = [
    Points(pt(0, 6) | pt(1, 6) | pt(2, 6) | pt(0, 7) | pt(1, 7) | pt(2, 7)),
    Points(pt(2, 6) | pt(3, 6) | pt(4, 6) | pt(2, 7) | pt(3, 7) | pt(4, 7)),
];

/// The points one step away from `p`.
#[inline]
pub fn neighbours_of(p: Point) -> Points {
    Points(NEIGHBOURS[p.index()])
}

/// The railway stations one railway edge away from `p`.
#[inline]
pub fn rail_neighbours_of(p: Point) -> Points {
    Points(RAIL_NEIGHBOURS[p.index()])
}

/// The next railway station from `p` in direction `d`.
#[inline]
pub fn rail_step(p: Point, d: usize) -> Option<Point> {
    let b = RAIL_STEP[p.index()][d];
    (b != u8::MAX).then_some(Point(b))
}

/// Red's or black's half as a set (`red` true for ranks 1–6).
pub const fn half(red: bool) -> Points {
    if red { RED_HALF } else { BLACK_HALF }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DATA: &str = include_str!("../../../data/luzhanqi-board.txt");

    #[test]
    fn the_board_is_the_data_file() {
        let mut seen = 0;
        for line in DATA
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let (head, tail) = line.split_once(':').unwrap();
            let head: Vec<&str> = head.split_whitespace().collect();
            let p: Point = head[1].parse().unwrap();
            assert_eq!(PointKind::of(p).letter().to_string(), head[2], "{p}");
            let mut all = Points::EMPTY;
            let mut rail = Points::EMPTY;
            for n in tail.split_whitespace() {
                let q: Point = n.trim_end_matches('*').parse().unwrap();
                all = all.with(q);
                if n.ends_with('*') {
                    rail = rail.with(q);
                }
            }
            assert_eq!(neighbours_of(p), all, "neighbours of {p}");
            assert_eq!(rail_neighbours_of(p), rail, "railway neighbours of {p}");
            seen += 1;
        }
        assert_eq!(seen, 60);
    }

    #[test]
    fn the_board_has_the_briefs_counts() {
        let edges: u32 = Point::all().map(|p| neighbours_of(p).count()).sum::<u32>() / 2;
        let rail: u32 = Point::all()
            .map(|p| rail_neighbours_of(p).count())
            .sum::<u32>()
            / 2;
        let diagonal: u32 = Point::all()
            .map(|p| {
                neighbours_of(p)
                    .filter(|q| q.file() != p.file() && q.rank() != p.rank())
                    .count() as u32
            })
            .sum::<u32>()
            / 2;
        assert_eq!((edges, rail, diagonal), (133, 35, 32));
        assert_eq!(edges - rail - diagonal, 66, "orthogonal road edges");
        assert_eq!(RAILWAY.count(), 32);
        assert_eq!(CAMPS.count(), 10);
        assert_eq!(HQS.count(), 4);
        assert_eq!(
            (BOARD & !CAMPS & !HQS & !RAILWAY).count(),
            14,
            "road-only stations"
        );
        // No camp or headquarters is on the railway; the front is crossed on a, c, e only.
        assert!((RAILWAY & (CAMPS | HQS)).is_empty());
        for file in 0..5 {
            let (six, seven) = (
                Point::from_coords(file, 5).unwrap(),
                Point::from_coords(file, 6).unwrap(),
            );
            assert_eq!(
                neighbours_of(six).contains(seven),
                file % 2 == 0,
                "{six}-{seven}"
            );
        }
    }

    #[test]
    fn points_round_trip() {
        for i in 0..Point::COUNT as u8 {
            let p = Point::new(i).unwrap();
            assert_eq!(p.to_string().parse::<Point>(), Ok(p));
        }
        for bad in ["", "a0", "a13", "f1", "a01", "a", "b6m", "A1"] {
            assert!(bad.parse::<Point>().is_err(), "{bad:?}");
        }
    }
}
