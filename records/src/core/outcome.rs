//! How games end: the [`Outcome`] (a ranking of the seats), the [`Reason`] an ending has, and
//! the [`End`] the rules derive.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use super::seat::{MAX_SEATS, Seat};

/// How a finished game ranks its seats: each seat's place, 1 first, equal places for ties
/// (standard competition ranking: two seats tied first make the third seat third).
///
/// Written as a code: in a two-seat game `player1`, `player2` or `draw`, as Banqi records
/// always have; with three seats the seats from first to last, `>` between places and `=`
/// within one: `player2>player1=player3` (`draw` when all three tie).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    places: [u8; MAX_SEATS],
    seats: u8,
}

impl Outcome {
    /// `winner` first, every other seat second.
    pub fn win(winner: Seat, seats: u8) -> Outcome {
        let mut places = [0; MAX_SEATS];
        for seat in Seat::all(seats) {
            places[seat.index()] = if seat == winner { 1 } else { 2 };
        }
        Outcome { places, seats }
    }

    /// Every seat tied.
    pub fn draw(seats: u8) -> Outcome {
        let mut places = [0; MAX_SEATS];
        places[..seats as usize].fill(1);
        Outcome { places, seats }
    }

    /// The ranking given by a score per seat (higher is better; equal scores tie).
    pub fn by_score(scores: &[i64]) -> Outcome {
        let seats = scores.len().min(MAX_SEATS);
        let mut places = [0; MAX_SEATS];
        for i in 0..seats {
            places[i] = 1 + scores[..seats].iter().filter(|&&s| s > scores[i]).count() as u8;
        }
        Outcome {
            places,
            seats: seats as u8,
        }
    }

    /// The ranking given by the seats from first to last, each group tied.
    pub fn ranked(groups: &[&[Seat]]) -> Option<Outcome> {
        let mut places = [0; MAX_SEATS];
        let mut place = 1;
        let mut seats = 0;
        for group in groups {
            for seat in *group {
                if places[seat.index()] != 0 {
                    return None;
                }
                places[seat.index()] = place;
                seats += 1;
            }
            place += group.len() as u8;
        }
        if seats < 2 || places[..seats].contains(&0) {
            return None;
        }
        Some(Outcome {
            places,
            seats: seats as u8,
        })
    }

    pub fn seats(self) -> u8 {
        self.seats
    }

    /// The place of `seat` (1 first).
    pub fn place(self, seat: Seat) -> u8 {
        self.places[seat.index()]
    }

    /// The seat alone in first place, if there is one.
    pub fn winner(self) -> Option<Seat> {
        let mut first = Seat::all(self.seats).filter(|s| self.place(*s) == 1);
        match (first.next(), first.next()) {
            (Some(seat), None) => Some(seat),
            _ => None,
        }
    }

    /// Whether every seat is tied.
    pub fn is_draw(self) -> bool {
        Seat::all(self.seats).all(|s| self.place(s) == 1)
    }

    /// A seat's share of the game: the seats it beat, plus half the seats it tied with, over
    /// the other seats: 1 for a win, ½ for a draw, 0 for a loss in a two-seat game.
    pub fn score(self, seat: Seat) -> f64 {
        let mine = self.place(seat);
        let (mut beat, mut tied) = (0.0, 0.0);
        for other in Seat::all(self.seats).filter(|s| *s != seat) {
            match self.place(other).cmp(&mine) {
                std::cmp::Ordering::Greater => beat += 1.0,
                std::cmp::Ordering::Equal => tied += 1.0,
                std::cmp::Ordering::Less => {}
            }
        }
        (beat + tied / 2.0) / (self.seats - 1) as f64
    }

    /// The code of records and reports (see [`Outcome`]).
    pub fn code(self) -> String {
        self.to_string()
    }

    /// "player 1 won", "drawn", or the ranking in words.
    pub fn describe(self) -> String {
        if self.is_draw() {
            return "drawn".to_owned();
        }
        if let (2, Some(w)) = (self.seats, self.winner()) {
            return format!("{w} won");
        }
        format!("ranked {self}")
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_draw() {
            return f.write_str("draw");
        }
        if self.seats == 2 {
            return f.write_str(self.winner().expect("two seats, not drawn").code());
        }
        let mut order: Vec<Seat> = Seat::all(self.seats).collect();
        order.sort_by_key(|s| (self.place(*s), s.index()));
        for (i, seat) in order.iter().enumerate() {
            if i > 0 {
                let tie = self.place(*seat) == self.place(order[i - 1]);
                f.write_str(if tie { "=" } else { ">" })?;
            }
            f.write_str(seat.code())?;
        }
        Ok(())
    }
}

#[derive(Error, Debug, Clone, PartialEq, Eq)]
#[error(
    "invalid outcome {0:?}: expected player1, player2, draw, or a ranking of the seats like player2>player1=player3"
)]
pub struct ParseOutcomeError(pub String);

impl FromStr for Outcome {
    type Err = ParseOutcomeError;

    /// `draw` ties two seats (a three-seat draw is written as a ranking, or `draw` is
    /// widened by [`Outcome::with_seats`]); `player1`/`player2` are two-seat wins.
    fn from_str(s: &str) -> Result<Outcome, ParseOutcomeError> {
        let err = || ParseOutcomeError(s.to_owned());
        match s {
            "draw" => return Ok(Outcome::draw(2)),
            "player1" => return Ok(Outcome::win(Seat::FIRST, 2)),
            "player2" => return Ok(Outcome::win(Seat::SECOND, 2)),
            _ => {}
        }
        let mut groups: Vec<Vec<Seat>> = Vec::new();
        for (i, group) in s.split('>').enumerate() {
            let seats: Result<Vec<Seat>, _> = group.split('=').map(str::parse).collect();
            let seats = seats.map_err(|_| err())?;
            if i == 0 && seats.is_empty() {
                return Err(err());
            }
            groups.push(seats);
        }
        let refs: Vec<&[Seat]> = groups.iter().map(Vec::as_slice).collect();
        let outcome = Outcome::ranked(&refs).ok_or_else(err)?;
        // Every seat of the table is named: seats 1..n.
        if (0..outcome.seats as usize).any(|i| outcome.places[i] == 0) {
            return Err(err());
        }
        Ok(outcome)
    }
}

impl Outcome {
    /// This outcome at a table of `seats`: a two-seat `draw` read from text becomes a draw
    /// of every seat. None when the outcome names another number of seats.
    pub fn with_seats(self, seats: u8) -> Option<Outcome> {
        if self.seats == seats {
            Some(self)
        } else if self.is_draw() {
            Some(Outcome::draw(seats))
        } else {
            None
        }
    }
}

impl serde::Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Outcome {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// The pattern of a ranking, for the OpenAPI document: every seat of the table once, in
/// order of places (the plain two-seat codes are an enum beside it: a `oneOf` must not match
/// both).
pub const RANKING_PATTERN: &str = "^(player1[>=]player2|player2[>=]player1|\
    player1[>=]player2[>=]player3|player1[>=]player3[>=]player2|\
    player2[>=]player1[>=]player3|player2[>=]player3[>=]player1|\
    player3[>=]player1[>=]player2|player3[>=]player2[>=]player1)$";

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Outcome {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, SchemaType, Type};
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(SchemaType::new(Type::String))
                    .enum_values(Some(["player1", "player2", "draw"]))
                    .description(Some("A two-seat game: who won, or a draw.")),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(SchemaType::new(Type::String))
                    .pattern(Some(RANKING_PATTERN))
                    .description(Some(
                        "A three-seat game: the seats from first to last, `>` between places \
                         and `=` between tied seats, e.g. `player2>player1=player3`.",
                    )),
            )
            .description(Some(
                "How a finished game ranks its seats: `player1`, `player2` or `draw` for two \
                 seats; a ranking like `player2>player1=player3` for three.",
            ))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Outcome {}

/// Why a game ended: a code from the shared set below or from a game's own list
/// (`Rules::REASONS`). Games add their codes in their own `impl Reason` block.
///
/// Codes are `snake_case` strings in JSON. Reading one from JSON looks it up among every
/// game's codes (the registry, `crate::games`), so a typo is an error.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Reason(&'static str);

impl Reason {
    /// A seat has no pieces left (Banqi: a colour with no pieces, revealed or covered).
    pub const ELIMINATION: Reason = Reason("elimination");
    /// The seat to move has no legal action (TCGA "NoMove"; xiangqi's stalemate).
    pub const NO_MOVE: Reason = Reason("no_move");
    /// The no-progress limit was reached (TCGA "NoEatFlipDraw").
    pub const NO_PROGRESS: Reason = Reason("no_progress");
    /// The repetition rule of the ruleset (TCGA "PositionRepetitionDraw").
    pub const REPETITION: Reason = Reason("repetition");
    /// The ruleset's ply cap (`max_plies`) was reached: a draw (Three Kingdoms: the seats
    /// still playing ranked by points, as at its no-progress limit).
    pub const PLY_LIMIT: Reason = Reason("ply_limit");
    /// Stated by a record: a player ran out of time.
    pub const TIMEOUT: Reason = Reason("timeout");
    /// Stated by a record: a player resigned.
    pub const RESIGNATION: Reason = Reason("resignation");
    /// Stated by a record: a draw agreed or adjudicated.
    pub const AGREEMENT: Reason = Reason("agreement");
    /// Stated by a record: a loss by penalty (e.g. 戲谷's ten time warnings).
    pub const FORFEIT: Reason = Reason("forfeit");
    /// Stated by a record whose outcome is `ongoing`: the game was called off before every
    /// seat had moved, and has no result (the referee's abort).
    pub const ABORTED: Reason = Reason("aborted");

    /// The reasons every game shares.
    pub const SHARED: &'static [Reason] = &[
        Reason::ELIMINATION,
        Reason::NO_MOVE,
        Reason::NO_PROGRESS,
        Reason::REPETITION,
        Reason::PLY_LIMIT,
        Reason::TIMEOUT,
        Reason::RESIGNATION,
        Reason::AGREEMENT,
        Reason::FORFEIT,
        Reason::ABORTED,
    ];

    /// A reason with this code: for a game's own reasons.
    pub const fn new(code: &'static str) -> Reason {
        Reason(code)
    }

    pub const fn code(self) -> &'static str {
        self.0
    }

    /// Whether the rules derive this ending from the moves, as opposed to a record stating it
    /// (timeout, resignation, agreement, forfeit, an abort).
    pub fn is_derived(self) -> bool {
        !matches!(
            self.0,
            "timeout" | "resignation" | "agreement" | "forfeit" | "aborted"
        )
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl serde::Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

/// How and when a game ended by the rules.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct End {
    pub outcome: Outcome,
    pub reason: Reason,
    /// For a cycle repetition: the length p of the repeated sequence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<u32>,
}

impl End {
    pub fn new(outcome: Outcome, reason: Reason) -> End {
        End {
            outcome,
            reason,
            period: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_seat_codes_are_banqis() {
        let p1 = Outcome::win(Seat::FIRST, 2);
        assert_eq!(p1.to_string(), "player1");
        assert_eq!(Outcome::win(Seat::SECOND, 2).to_string(), "player2");
        assert_eq!(Outcome::draw(2).to_string(), "draw");
        for code in ["player1", "player2", "draw"] {
            assert_eq!(code.parse::<Outcome>().unwrap().to_string(), code);
        }
        assert_eq!(p1.winner(), Some(Seat::FIRST));
        assert_eq!((p1.score(Seat::FIRST), p1.score(Seat::SECOND)), (1.0, 0.0));
        assert_eq!(Outcome::draw(2).score(Seat::SECOND), 0.5);
        assert_eq!(p1.describe(), "player 1 won");
    }

    #[test]
    fn three_seat_rankings() {
        let o: Outcome = "player2>player1=player3".parse().unwrap();
        assert_eq!(o.seats(), 3);
        assert_eq!(
            [Seat::FIRST, Seat::SECOND, Seat::THIRD].map(|s| o.place(s)),
            [2, 1, 2]
        );
        assert_eq!(o.to_string(), "player2>player1=player3");
        assert_eq!(o.winner(), Some(Seat::SECOND));
        assert_eq!(o.score(Seat::SECOND), 1.0);
        assert_eq!(o.score(Seat::FIRST), 0.25);
        let tie_first: Outcome = "player3=player1>player2".parse().unwrap();
        assert_eq!(tie_first.to_string(), "player1=player3>player2");
        assert_eq!(tie_first.place(Seat::SECOND), 3);
        assert_eq!(tie_first.winner(), None);
        assert_eq!(
            Outcome::by_score(&[10, 30, 10]).to_string(),
            "player2>player1=player3"
        );
        assert_eq!(Outcome::by_score(&[5, 5, 5]).to_string(), "draw");
        assert_eq!(
            "draw".parse::<Outcome>().unwrap().with_seats(3),
            Some(Outcome::draw(3))
        );
        for bad in [
            "",
            "player1>",
            "player1>player1",
            "player1>player3",
            "winner",
            "player4>player1",
        ] {
            assert!(bad.parse::<Outcome>().is_err(), "{bad:?}");
        }
    }
}
