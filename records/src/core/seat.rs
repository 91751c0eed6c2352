//! Seats: who plays. Seat 1 moves first; games have two or three seats.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The most seats a game has (Three Kingdoms Banqi has three).
pub const MAX_SEATS: usize = 3;

/// A seat at the table, in turn order: `player1` moves first, then `player2` (then `player3`).
///
/// A seat is not a side: in Banqi the first flip decides which colour a seat plays, and in
/// Three Kingdoms Banqi flips decide the factions.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Seat(u8);

impl Seat {
    pub const FIRST: Seat = Seat(0);
    pub const SECOND: Seat = Seat(1);
    pub const THIRD: Seat = Seat(2);

    /// The seat with this 0-based index, if there is one.
    pub const fn new(index: usize) -> Option<Seat> {
        if index < MAX_SEATS {
            Some(Seat(index as u8))
        } else {
            None
        }
    }

    /// 0-based: player 1 is 0.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The seat after this one at a table of `seats`.
    #[inline]
    pub const fn next(self, seats: u8) -> Seat {
        Seat((self.0 + 1) % seats)
    }

    /// The opponent in a two-seat game.
    #[inline]
    pub const fn other(self) -> Seat {
        Seat(1 - self.0)
    }

    /// The seat that plays ply number `ply` (0-based) when seats simply take turns.
    #[inline]
    pub const fn at_ply(ply: u32, seats: u8) -> Seat {
        Seat((ply % seats as u32) as u8)
    }

    /// The first `seats` seats in turn order.
    pub fn all(seats: u8) -> impl Iterator<Item = Seat> {
        (0..seats.min(MAX_SEATS as u8)).map(Seat)
    }

    /// `player1`, `player2` or `player3`: the code in JSON.
    pub const fn code(self) -> &'static str {
        match self.0 {
            0 => "player1",
            1 => "player2",
            _ => "player3",
        }
    }
}

impl fmt::Display for Seat {
    /// "player 1", for people.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0 + 1)
    }
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error("invalid seat {0:?}: expected player1, player2 or player3")]
pub struct ParseSeatError(pub String);

impl FromStr for Seat {
    type Err = ParseSeatError;
    fn from_str(s: &str) -> Result<Seat, ParseSeatError> {
        match s {
            "player1" => Ok(Seat::FIRST),
            "player2" => Ok(Seat::SECOND),
            "player3" => Ok(Seat::THIRD),
            _ => Err(ParseSeatError(s.to_owned())),
        }
    }
}

impl serde::Serialize for Seat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

impl<'de> serde::Deserialize<'de> for Seat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Seat, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Seat {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, SchemaType, Type};
        ObjectBuilder::new()
            .schema_type(SchemaType::new(Type::String))
            .enum_values(Some(["player1", "player2", "player3"]))
            .description(Some(
                "A seat in turn order: player1 moves first (player3 only in three-seat games).",
            ))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Seat {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_take_turns_and_round_trip() {
        assert_eq!(Seat::at_ply(0, 2), Seat::FIRST);
        assert_eq!(Seat::at_ply(3, 2), Seat::SECOND);
        assert_eq!(Seat::at_ply(5, 3), Seat::THIRD);
        assert_eq!(Seat::THIRD.next(3), Seat::FIRST);
        assert_eq!(Seat::FIRST.other(), Seat::SECOND);
        for seat in Seat::all(3) {
            assert_eq!(seat.code().parse::<Seat>(), Ok(seat));
            let json = serde_json::to_string(&seat).unwrap();
            assert_eq!(serde_json::from_str::<Seat>(&json).unwrap(), seat);
        }
        assert_eq!(Seat::SECOND.to_string(), "player 2");
        assert!("player4".parse::<Seat>().is_err());
    }
}
