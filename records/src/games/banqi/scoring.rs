//! Scoring a Banqi game (RULES.md §5): piece points (棋點) per seat, the first flips that decide
//! 門棋加倍, the "小兵立大功" tally, and the material of a position.
//!
//! Points are credited from the history, ply by ply (the core's [`crate::core::scoring`]): a
//! capture credits the mover with the captured pieces, a failed dark capture credits the
//! defender's seat with the attacker. A record that starts from a position is first credited
//! with what that position is missing: in a two-colour game each missing piece was captured
//! by the other colour.

use serde::{Deserialize, Serialize};

use crate::core::scoring::{ScoredResult, score};
use crate::core::{
    Credit, Opening, Ply, Reason, Record, ReplayError, ScoreError, Scoring, Seat, Table, Verdict,
};

use super::Banqi;
use super::action::Action;
use super::play::Effect;
use super::position::{Pool, Position};
use super::settlement::{Settlement, settle};
use super::types::{Color, Piece, Role};
use crate::core::Turn as _;

/// One colour's pieces in a position. Piece lists are TCGA letters in the order
/// K G M R N C P (upper case red, lower case black), e.g. `"GRRPP"`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ColorMaterial {
    pub color: Color,
    /// Face up on the board.
    pub revealed: String,
    /// Still face down.
    pub covered: String,
    /// Captured (credited to the other colour).
    pub captured: String,
    /// Pieces still in the game, revealed or covered.
    pub alive: u32,
    /// The points of the pieces still in the game: what the other side may still win.
    pub points_alive: u32,
    /// The points of the captured pieces: what the other side has won.
    pub points_lost: u32,
}

/// The material of a position: both colours, and the points still at stake (the points of
/// every piece still in the game).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Material {
    pub red: ColorMaterial,
    pub black: ColorMaterial,
    pub points_at_stake: u32,
}

impl Material {
    pub fn of(&self, color: Color) -> &ColorMaterial {
        match color {
            Color::Red => &self.red,
            Color::Black => &self.black,
        }
    }
}

/// The material of `pos`.
pub fn material(pos: &Position) -> Material {
    let mut revealed = [0u8; 14];
    for color in Color::ALL {
        for sq in pos.revealed(color) {
            revealed[pos.piece_at(sq).expect("revealed").index()] += 1;
        }
    }
    let side = |color: Color| {
        let (mut on_board, mut covered, mut captured) =
            (Pool::default(), Pool::default(), Pool::default());
        for role in Role::ALL {
            let piece = Piece::new(color, role);
            let (shown, hidden) = (revealed[piece.index()], pos.pool().count(piece));
            on_board.set(piece, shown);
            covered.set(piece, hidden);
            // A valid position never holds more than the set (Position checks it).
            captured.set(piece, role.count().saturating_sub(shown + hidden));
        }
        let alive = on_board.total() + covered.total();
        ColorMaterial {
            color,
            revealed: on_board.letters(),
            covered: covered.letters(),
            captured: captured.letters(),
            alive,
            points_alive: points(&on_board) + points(&covered),
            points_lost: points(&captured),
        }
    };
    let (red, black) = (side(Color::Red), side(Color::Black));
    Material {
        points_at_stake: red.points_alive + black.points_alive,
        red,
        black,
    }
}

fn points(pool: &Pool) -> u32 {
    Piece::all()
        .map(|p| p.role.points() * pool.count(p) as u32)
        .sum()
}

/// The points each seat has won in `pos`, judged from the position alone: the points of the
/// enemy pieces missing. Zero for both while colours are unassigned.
pub fn player_points(pos: &Position) -> [u32; 2] {
    let m = material(pos);
    [Seat::FIRST, Seat::SECOND].map(|seat| match pos.color_of(seat) {
        Some(color) => m.of(color.other()).points_lost,
        None => 0,
    })
}

/// One player's side of a scored game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerScore {
    pub player: Seat,
    pub name: String,
    /// The colour the player's first flip gave it (absent before the first flip).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// Piece points won (棋點).
    pub points: u32,
    /// The enemy pieces it captured, as letters (those missing from a start position first,
    /// then in the order of capture).
    pub captured: String,
    /// How often its last remaining soldier captured the enemy general (小兵立大功).
    pub soldier_took_general: u32,
}

/// The scoring of one game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GameScore {
    pub plies: usize,
    /// How the game ended; absent while it is unfinished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ScoredResult>,
    pub players: [PlayerScore; 2],
    /// The pieces revealed by the first two plies (always flips), as letters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_flips: Option<String>,
    /// 門棋加倍: both first flips revealed the same kind of piece, colour aside.
    pub doubled: bool,
    pub material: Material,
}

impl GameScore {
    /// The players' points, player 1 first.
    pub fn points(&self) -> [u32; 2] {
        [self.players[0].points, self.players[1].points]
    }
}

/// Whether both first flips revealed the same kind of piece (門棋加倍).
pub fn same_first_flips(first: Piece, second: Piece) -> bool {
    first.role == second.role
}

/// Replays and scores `record`. An invalid record is not scored: its replay error says why.
pub fn score_record(record: &Record) -> Result<GameScore, ReplayError> {
    score_with_verdict(record).map(|(score, _)| score)
}

/// [`score_record`], with the replay's verdict (the derived ending, the final position).
pub fn score_with_verdict(record: &Record) -> Result<(GameScore, Verdict), ReplayError> {
    score_watching(record, |_| {})
}

/// [`score_with_verdict`], also showing every ply to `watch` (one replay serves both).
pub fn score_watching(
    record: &Record,
    mut watch: impl FnMut(&Ply<Banqi>),
) -> Result<(GameScore, Verdict), ReplayError> {
    let mut flips: Vec<Piece> = Vec::with_capacity(2);
    let mut soldier_took_general = [0u32; 2];
    let scored = score::<Banqi>(record, |ply| {
        watch(ply);
        if ply.number <= 2
            && let Effect::Flip(piece) = ply.effect
        {
            flips.push(piece);
        }
        if took_general_with_last_soldier(ply.action, ply.before, ply.after) {
            soldier_took_general[ply.mover.index()] += 1;
        }
    })?;
    let last = scored.last;
    let players = [Seat::FIRST, Seat::SECOND].map(|seat| PlayerScore {
        player: seat,
        name: record.player_name(seat.index()),
        color: last.color_of(seat),
        points: scored.tally.points(seat),
        captured: scored.tally.captured(seat).to_owned(),
        soldier_took_general: soldier_took_general[seat.index()],
    });
    let first_flips = match flips[..] {
        [a, b] => Some([a, b]),
        _ => None,
    };
    let score = GameScore {
        plies: scored.verdict.plies,
        result: scored.result,
        players,
        first_flips: first_flips.map(|[a, b]| format!("{}{}", a.char(), b.char())),
        doubled: first_flips.is_some_and(|[a, b]| same_first_flips(a, b)),
        material: material(&last),
    };
    Ok((score, scored.verdict))
}

/// 小兵立大功: the ply's mover is a soldier, it was its side's last soldier in the game
/// (revealed or covered), and the enemy general left the board during the ply.
fn took_general_with_last_soldier(action: &Action, before: &Position, after: &Position) -> bool {
    let Action::Move(path) = action else {
        return false;
    };
    let Some(mover) = before.piece_at(path.from) else {
        return false;
    };
    if mover.role != Role::Soldier {
        return false;
    }
    let general = Piece::new(mover.side.other(), Role::General);
    before.in_game(mover) == 1 && before.in_game(general) == 1 && after.in_game(general) == 0
}

/// A scored record with its coin settlement: what `POST /v1/score` answers for Banqi.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScoreSheet {
    /// The game in a sentence, for people (the other fields hold its codes).
    pub summary: String,
    pub score: GameScore,
    /// What the loser pays (absent while the game is unfinished).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub settlement: Option<Settlement>,
}

/// Points won so far by each player, from the position alone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerPoints {
    pub player1: u32,
    pub player2: u32,
}

/// What a bare position says: each player's points and the material.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PositionScore {
    /// Points won so far by each player (0 before colours are assigned).
    pub points: PlayerPoints,
    pub material: Material,
}

impl Scoring for Banqi {
    type Score = ScoreSheet;

    type PositionScore = PositionScore;

    const COINS: bool = true;

    /// TCGA writes an elimination as `NoMove` (a player with no pieces has no legal action
    /// either): a stated `no_move` accepts a derived `elimination` (docs/rules.md 1).
    fn reason_matches(stated: Reason, derived: Reason) -> bool {
        stated == derived || (stated == Reason::NO_MOVE && derived == Reason::ELIMINATION)
    }

    /// What `start` is missing, credited to the seat of the other colour (RULES.md §5: pieces
    /// leave a Banqi game only by capture, and only the other colour captures them, a failed
    /// dark capture included).
    fn start_credits(start: &Position, mut credit: impl FnMut(Credit)) {
        for color in Color::ALL {
            let Some(seat) = start.player_of(color.other()) else {
                return;
            };
            for piece in Piece::all().filter(|p| p.side == color) {
                let missing = (piece.role.count() as u32).saturating_sub(start.in_game(piece));
                for _ in 0..missing {
                    credit(Credit {
                        seat,
                        piece: piece.char(),
                        points: piece.role.points(),
                    });
                }
            }
        }
    }

    /// The pieces a ply removed from the game: the mover's colour's (a failed dark capture)
    /// credited to the other seat, the other colour's to the mover.
    fn credits(
        before: &Position,
        after: &Position,
        effect: &Effect,
        mut credit: impl FnMut(Credit),
    ) {
        if !matches!(
            effect,
            Effect::Capture { .. } | Effect::DarkFailed { .. } | Effect::OwnReveal { .. }
        ) {
            return;
        }
        let mover = before.to_move();
        let (was, is) = (before.census(), after.census());
        for piece in Piece::all() {
            let gone = was[piece.index()].saturating_sub(is[piece.index()]);
            if gone == 0 {
                continue;
            }
            let Some(owner) = before.player_of(piece.side) else {
                continue;
            };
            let seat = if owner == mover { mover.other() } else { mover };
            for _ in 0..gone {
                credit(Credit {
                    seat,
                    piece: piece.char(),
                    points: piece.role.points(),
                });
            }
        }
    }

    /// The first two flips, and 門棋加倍 when they revealed the same kind of piece.
    /// 小兵立大功.
    fn feat(action: &Action, before: &Position, after: &Position) -> bool {
        took_general_with_last_soldier(action, before, after)
    }

    fn opening(record: &Record, first_plies: &[(Action, Effect)]) -> Opening {
        match first_plies {
            [(_, Effect::Flip(a)), (_, Effect::Flip(b))] => Opening {
                moves: Some(format!("{} {}", record.actions[0], record.actions[1])),
                doubles_stake: same_first_flips(*a, *b),
            },
            _ => Opening::default(),
        }
    }

    /// Scores `record` and settles it at `table` with `draws_carried` drawn games before it.
    fn score(
        record: &Record,
        table: &Table,
        draws_carried: u32,
    ) -> Result<Self::Score, ScoreError> {
        let score = score_record(record)?;
        let settlement = match score.result {
            None => None,
            Some(result) => Some(
                settle(
                    table,
                    result.outcome,
                    score.points(),
                    score.doubled,
                    draws_carried,
                )
                .map_err(|e| ScoreError::Settlement(e.to_string()))?,
            ),
        };
        let mut summary = crate::core::words::summary::<Banqi>(
            record,
            2,
            score.result,
            score.plies,
            |seat| {
                score.players[seat.index()]
                    .color
                    .map(|c| c.name().to_owned())
            },
            |seat| score.players[seat.index()].captured.clone(),
        );
        if let Some(s) = &settlement {
            let name = |seat: Option<Seat>| seat.map(|s| score.players[s.index()].name.as_str());
            if let (Some(payer), Some(payee)) = (name(s.payer), name(s.payee)) {
                summary += &format!(" {payer} pays {payee} {} coins.", s.formula);
            }
        }
        Ok(ScoreSheet {
            summary,
            score,
            settlement,
        })
    }

    /// The score of a bare position.
    fn score_position(pos: &Position) -> Self::PositionScore {
        let [player1, player2] = player_points(pos);
        PositionScore {
            points: PlayerPoints { player1, player2 },
            material: material(pos),
        }
    }

    fn side(pos: &Position, seat: Seat) -> Option<&'static str> {
        pos.color_of(seat).map(|c| c.name())
    }
}
