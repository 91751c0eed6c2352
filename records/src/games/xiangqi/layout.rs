//! The backs (RULES.md §9 "Second identities"): each side's choice before the game, the
//! hidden truth the referee seals. A side's backs are 16 letters over its start points, in the
//! order of its back rank a→i, its cannons b, h, its soldiers a, c, e, g, i; red's like
//! `ZQTKAMLXFOSRNCBA` (chariot a 助, horse b 妃, elephant c 駝, advisor d 帥, general 仕, advisor
//! f 臣, elephant g 騾, horse h 骉, chariot i 輔, cannon b 抛, cannon h 石, soldiers 車 馬 炮 相 仕).

use std::fmt;

use serde::Serialize;
use serde_json::Value;
use thiserror::Error;

use crate::core::InvalidHidden;

use super::board::Square;
use super::pieces::{Back, Kind, Side, side_case};
use super::position::Position;

/// Each piece's start point for one side, in the backs' order.
fn start_points(side: Side) -> [Square; 16] {
    let (back, cannon, soldier) = match side {
        Side::Red => (0, 2, 3),
        Side::Black => (9, 7, 6),
    };
    let at = |file: i8, rank: i8| Square::from_coords(file, rank).expect("on the board");
    [
        at(0, back),
        at(1, back),
        at(2, back),
        at(3, back),
        at(4, back),
        at(5, back),
        at(6, back),
        at(7, back),
        at(8, back),
        at(1, cannon),
        at(7, cannon),
        at(0, soldier),
        at(2, soldier),
        at(4, soldier),
        at(6, soldier),
        at(8, soldier),
    ]
}

/// Which backs each group of start points shares (indexes into the 16), and the code of a
/// violation.
const GROUPS: &[(&[usize], &[Kind], &str)] = &[
    (&[4], &[Kind::Advisor], "general_back"),
    (&[3, 5], &[Kind::General, Kind::Minister], "advisor_backs"),
    (&[2, 6], &[Kind::Camel, Kind::Mule], "elephant_backs"),
    (&[0, 8], &[Kind::Zhu, Kind::Fu], "chariot_backs"),
    (&[1, 7], &[Kind::Fei, Kind::Biao], "horse_backs"),
    (&[9, 10], &[Kind::Pao, Kind::Shi], "cannon_backs"),
    (
        &[11, 12, 13, 14, 15],
        &[
            Kind::Chariot,
            Kind::Horse,
            Kind::Cannon,
            Kind::Elephant,
            Kind::Advisor,
        ],
        "soldier_backs",
    ),
];

/// Why a side's backs are not legal.
#[derive(Error, Debug, Clone, PartialEq, Eq, Serialize)]
#[error("{detail}")]
pub struct BacksError {
    pub code: &'static str,
    pub detail: String,
}

/// One side's backs.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct SideBacks {
    pub side: Side,
    backs: [Kind; 16],
}

impl SideBacks {
    pub fn parse(side: Side, text: &str) -> Result<SideBacks, BacksError> {
        let letters: Vec<char> = text.chars().collect();
        if letters.len() != 16 {
            return Err(BacksError {
                code: "malformed_backs",
                detail: format!(
                    "{}'s backs are 16 letters (back rank a→i, cannons b h, soldiers a c e g i); found {}",
                    side.name(),
                    letters.len()
                ),
            });
        }
        let mut backs = [Kind::Soldier; 16];
        for (i, c) in letters.into_iter().enumerate() {
            backs[i] = Kind::from_letter(c).ok_or_else(|| BacksError {
                code: "malformed_backs",
                detail: format!("unknown letter {c:?}"),
            })?;
        }
        let setup = SideBacks { side, backs };
        setup.check()?;
        Ok(setup)
    }

    fn check(&self) -> Result<(), BacksError> {
        let points = start_points(self.side);
        for (indexes, kinds, code) in GROUPS {
            let mut got: Vec<Kind> = indexes.iter().map(|&i| self.backs[i]).collect();
            got.sort();
            let mut want = kinds.to_vec();
            want.sort();
            if got != want {
                let at: Vec<String> = indexes.iter().map(|&i| points[i].to_string()).collect();
                let want: Vec<char> = kinds.iter().map(|k| k.letter()).collect();
                return Err(BacksError {
                    code,
                    detail: format!(
                        "{}'s pieces on {} must carry one each of {}",
                        self.side.name(),
                        at.join(" "),
                        want.iter().collect::<String>()
                    ),
                });
            }
        }
        Ok(())
    }

    /// Random legal backs: each pair's order and the soldiers' permutation uniform.
    pub fn random<R: rand::RngExt + ?Sized>(side: Side, rng: &mut R) -> SideBacks {
        use rand::seq::SliceRandom;
        let mut backs = [Kind::Soldier; 16];
        for (indexes, kinds, _) in GROUPS {
            let mut kinds = kinds.to_vec();
            kinds.shuffle(rng);
            for (i, k) in indexes.iter().zip(kinds) {
                backs[*i] = k;
            }
        }
        SideBacks { side, backs }
    }

    /// These backs with every group whose bit is not in `shown` taken from `other` (the bits
    /// of `rules::group`: 1 advisors, 2 elephants, 4 chariots, 8 horses, 16 cannons, 32
    /// soldiers).
    pub fn mix(&self, other: &SideBacks, shown: u8) -> SideBacks {
        let mut out = *self;
        for (bit, (indexes, _, _)) in [0u8, 1, 2, 4, 8, 16, 32].into_iter().zip(GROUPS) {
            // The general's own back (always 仕) is group 0: nothing to mix.
            if bit == 0 || shown & bit != 0 {
                continue;
            }
            for &i in *indexes {
                out.backs[i] = other.backs[i];
            }
        }
        out
    }
}

impl fmt::Display for SideBacks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for k in self.backs {
            write!(f, "{}", side_case(k.letter(), self.side))?;
        }
        Ok(())
    }
}

/// Both sides' backs: the hidden truth of a game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Backs {
    pub red: SideBacks,
    pub black: SideBacks,
}

impl Backs {
    /// The backs as a record's `layout` writes them: `{"red": "…", "black": "…"}`.
    pub fn from_value(value: &Value) -> Result<Backs, InvalidHidden> {
        let invalid = |text: String| InvalidHidden(text);
        let Value::Object(map) = value else {
            return Err(invalid(
                "the backs are {\"red\": \"…16 letters…\", \"black\": \"…\"}".into(),
            ));
        };
        if map.len() != 2 {
            return Err(invalid(
                "the backs are {\"red\": …, \"black\": …}, nothing else".into(),
            ));
        }
        let side = |name: &str, side: Side| {
            let text = map
                .get(name)
                .and_then(Value::as_str)
                .ok_or_else(|| invalid(format!("no {name} backs")))?;
            SideBacks::parse(side, text)
                .map_err(|e| invalid(format!("{name}: {} ({})", e.detail, e.code)))
        };
        Ok(Backs {
            red: side("red", Side::Red)?,
            black: side("black", Side::Black)?,
        })
    }

    pub fn to_value(&self) -> Value {
        serde_json::json!({"red": self.red.to_string(), "black": self.black.to_string()})
    }

    pub fn random<R: rand::RngExt + ?Sized>(rng: &mut R) -> Backs {
        Backs {
            red: SideBacks::random(Side::Red, rng),
            black: SideBacks::random(Side::Black, rng),
        }
    }

    /// The start position with these backs on its pieces.
    pub fn start(&self) -> Position {
        let mut pos = Position::start();
        for setup in [self.red, self.black] {
            for (i, s) in start_points(setup.side).iter().enumerate() {
                let mut piece = pos.piece(*s).expect("a start point");
                piece.back = Back::Known(setup.backs[i]);
                pos.set(*s, piece);
            }
        }
        pos
    }
}

/// The start position with every back there but unknown (a record without the backs).
pub fn unknown_start() -> Position {
    let mut pos = Position::start();
    for side in Side::ALL {
        for s in start_points(side) {
            let mut piece = pos.piece(s).expect("a start point");
            piece.back = Back::Unknown;
            pos.set(s, piece);
        }
    }
    pos
}

/// In OpenAPI: both sides' backs.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Backs {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        let side = |which: &str, example: &str| {
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some("^[A-Za-z]{16}$"))
                .description(Some(format!(
                    "{which}'s 16 backs over its start points: back rank a→i, cannons b, h, \
                     soldiers a, c, e, g, i (docs/notation.md)"
                )))
                .examples([example.to_owned()])
        };
        ObjectBuilder::new()
            .property("red", side("Red", "ZQTKAMLXFOSRNCBA"))
            .property("black", side("Black", "zqtkamlxfosrncba"))
            .required("red")
            .required("black")
            .description(Some(
                "Third-generation xiangqi's hidden truth: both sides' backs.",
            ))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Backs {}
