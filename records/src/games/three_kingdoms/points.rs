//! The board of Three Kingdoms Banqi (RULES.md §7): the 45 intersections of half a xiangqi
//! board, files `a`–`i`, ranks `1`–`5`, and sets of them as 64-bit bitboards.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

pub const FILES: u8 = 9;
pub const RANKS: u8 = 5;

/// One of the 45 points `a1` … `i5`; the index runs a1 b1 … i1 a2 … i5.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Point(u8);

crate::grid_place!(Point, files FILES, ranks RANKS);

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("invalid point {0:?}: expected a file a–i and a rank 1–5, like e3")]
pub struct ParsePointError(pub String);

impl FromStr for Point {
    type Err = ParsePointError;
    fn from_str(s: &str) -> Result<Point, ParsePointError> {
        match s.as_bytes() {
            [f @ b'a'..=b'i', r @ b'1'..=b'5'] => Ok(Point((r - b'1') * FILES + (f - b'a'))),
            _ => Err(ParsePointError(s.to_owned())),
        }
    }
}

crate::place_set!(
    /// A set of points, one bit per point (bit = index): the board kit's vocabulary on a `u64`.
    pub struct Points(u64) of Point, Point::COUNT
);

impl Points {
    /// The points where every piece starts, face down: all but file e and rank 3.
    pub const START: Points = {
        let mut bits = 0u64;
        let mut i = 0;
        while i < Point::COUNT as u8 {
            let p = Point(i);
            if p.file() != 4 && p.rank() != 2 {
                bits |= 1 << i;
            }
            i += 1;
        }
        Points(bits)
    };
}

/// The four orthogonal directions: up, right, down, left.
const ORTHOGONAL: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

const fn table(steps: &[(i8, i8)]) -> [Points; Point::COUNT] {
    let mut out = [Points::EMPTY; Point::COUNT];
    let mut i = 0;
    while i < Point::COUNT {
        let p = Point(i as u8);
        let mut bits = 0u64;
        let mut k = 0;
        while k < steps.len() {
            if let Some(q) = p.offset(steps[k].0, steps[k].1) {
                bits |= 1 << q.0;
            }
            k += 1;
        }
        out[i] = Points(bits);
        i += 1;
    }
    out
}

/// Soldiers: one step orthogonally, any direction (RULES.md §7: no river).
pub const SOLDIER: [Points; Point::COUNT] = table(&ORTHOGONAL);
/// Advisors: one step diagonally, anywhere (no palace).
pub const ADVISOR: [Points; Point::COUNT] = table(&[(1, 1), (1, -1), (-1, 1), (-1, -1)]);
/// Elephants: exactly two steps diagonally, jumping (no elephant eye, no river).
pub const ELEPHANT: [Points; Point::COUNT] = table(&[(2, 2), (2, -2), (-2, 2), (-2, -2)]);
/// Horses: the L, jumping (no horse leg).
pub const HORSE: [Points; Point::COUNT] = table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

/// The points from `from` in direction `dir` (0 up, 1 right, 2 down, 3 left), nearest first,
/// up to the edge.
pub fn ray(from: Point, dir: usize) -> impl Iterator<Item = Point> {
    let (df, dr) = ORTHOGONAL[dir];
    (1..FILES as i8).map_while(move |k| from.offset(df * k, dr * k))
}

const fn rays() -> [[Points; 4]; Point::COUNT] {
    let mut out = [[Points::EMPTY; 4]; Point::COUNT];
    let mut i = 0;
    while i < Point::COUNT {
        let mut dir = 0;
        while dir < 4 {
            let (df, dr) = ORTHOGONAL[dir];
            let mut bits = 0u64;
            let mut k = 1;
            while let Some(q) = Point(i as u8).offset(df * k, dr * k) {
                bits |= 1 << q.0;
                k += 1;
            }
            out[i][dir] = Points(bits);
            dir += 1;
        }
        i += 1;
    }
    out
}

/// Every point from a point to the edge, per direction (0 up, 1 right, 2 down, 3 left).
pub const RAYS: [[Points; 4]; Point::COUNT] = rays();

/// The nearest point of `set` (a subset of one ray) to the ray's origin: up and right run
/// to higher indices, down and left to lower.
#[inline]
fn nearest(set: Points, dir: usize) -> Option<Point> {
    if set.0 == 0 {
        None
    } else if dir < 2 {
        Some(Point(set.0.trailing_zeros() as u8))
    } else {
        Some(Point(63 - set.0.leading_zeros() as u8))
    }
}

/// What a sliding piece (general, chariot) on `from` reaches: the empty points along each
/// line, and the first occupied point of each line (a capture when it holds a revealed enemy).
#[inline]
pub fn slides(from: Point, occupied: Points) -> (Points, Points) {
    let (mut empty, mut first) = (Points::EMPTY, Points::EMPTY);
    for (dir, ray) in RAYS[from.index()].iter().enumerate() {
        match nearest(*ray & occupied, dir) {
            Some(blocker) => {
                first.insert(blocker);
                empty = empty | (*ray & !RAYS[blocker.index()][dir] & !Points::single(blocker));
            }
            None => empty = empty | *ray,
        }
    }
    (empty, first)
}

/// The points a cannon on `from` could capture on: along each line, the first occupied point
/// beyond exactly one screen (any piece).
#[inline]
pub fn cannon_targets(from: Point, occupied: Points) -> Points {
    let mut out = Points::EMPTY;
    for (dir, ray) in RAYS[from.index()].iter().enumerate() {
        if let Some(screen) = nearest(*ray & occupied, dir)
            && let Some(target) = nearest(RAYS[screen.index()][dir] & occupied, dir)
        {
            out.insert(target);
        }
    }
    out
}

/// The points strictly between `a` and `b` on one rank or file (empty when they share
/// neither, or are neighbours).
pub fn between(a: Point, b: Point) -> Points {
    for (dir, ray) in RAYS[a.index()].iter().enumerate() {
        if ray.contains(b) {
            return *ray & !RAYS[b.index()][dir] & !Points::single(b);
        }
    }
    Points::EMPTY
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    fn names(set: Points) -> Vec<String> {
        let mut v: Vec<String> = set.map(|q| q.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn points_round_trip_and_the_start_has_32() {
        for q in Point::all() {
            assert_eq!(q.to_string().parse::<Point>(), Ok(q));
        }
        assert_eq!(p("a1").index(), 0);
        assert_eq!(p("i1").index(), 8);
        assert_eq!(p("i5").index(), 44);
        assert!("j1".parse::<Point>().is_err() && "a6".parse::<Point>().is_err());
        assert_eq!(Points::START.count(), 32);
        assert!(!Points::START.contains(p("e1")) && !Points::START.contains(p("a3")));
        assert!(Points::START.contains(p("d2")) && Points::START.contains(p("f4")));
    }

    #[test]
    fn steps_and_jumps_are_hand_checked() {
        assert_eq!(names(SOLDIER[p("a1").index()]), ["a2", "b1"]);
        assert_eq!(names(SOLDIER[p("e3").index()]), ["d3", "e2", "e4", "f3"]);
        assert_eq!(names(ADVISOR[p("a1").index()]), ["b2"]);
        assert_eq!(names(ADVISOR[p("e3").index()]), ["d2", "d4", "f2", "f4"]);
        assert_eq!(names(ELEPHANT[p("a1").index()]), ["c3"]);
        assert_eq!(names(ELEPHANT[p("e3").index()]), ["c1", "c5", "g1", "g5"]);
        assert_eq!(names(HORSE[p("a1").index()]), ["b3", "c2"]);
        assert_eq!(HORSE[p("e3").index()].count(), 8);
        assert_eq!(names(HORSE[p("i5").index()]), ["g4", "h3"]);
    }

    #[test]
    fn slides_stop_at_any_piece_and_cannons_need_one_screen() {
        let occupied = Points::single(p("c1")) | Points::single(p("a4")) | Points::single(p("a5"));
        let (empty, first) = slides(p("a1"), occupied);
        assert_eq!(names(empty), ["a2", "a3", "b1"]);
        assert_eq!(names(first), ["a4", "c1"]);
        // From a1: over a4 onto a5; over c1 onto nothing.
        assert_eq!(names(cannon_targets(p("a1"), occupied)), ["a5"]);
        let with_d1 = occupied | Points::single(p("d1"));
        assert_eq!(names(cannon_targets(p("a1"), with_d1)), ["a5", "d1"]);
        // The tables agree with walking the rays, from every point over scattered pieces.
        let scattered = Points(0x0001_2345_6789_abcd & Points::ALL.0);
        for from in Point::all() {
            let walked: Points = (0..4)
                .flat_map(|d| ray(from, d))
                .fold(Points::EMPTY, |a, q| a | Points::single(q));
            let all_rays = RAYS[from.index()].iter().fold(Points::EMPTY, |a, r| a | *r);
            assert_eq!(walked, all_rays);
            let (empty, first) = slides(from, scattered);
            assert!((empty & scattered).is_empty() && (first & !scattered).is_empty());
        }
        assert_eq!(names(between(p("a1"), p("a5"))), ["a2", "a3", "a4"]);
        assert_eq!(
            names(between(p("i2"), p("c2"))),
            ["d2", "e2", "f2", "g2", "h2"]
        );
        assert!(between(p("a1"), p("b2")).is_empty() && between(p("a1"), p("a2")).is_empty());
    }
}
