//! Scoring a game (RULES.md §5): piece points (棋點) per side, the first flips that decide
//! 門棋加倍, the "小兵立大功" tally, and the material of a position.
//!
//! Pieces leave a Banqi game only by being captured, and a piece of one colour can only be
//! captured by the other colour (a failed dark capture removes the attacker, credited to the
//! defender). So a side's points are exactly the points of the enemy pieces missing from the
//! position: scoring a position needs no history.

use serde::{Deserialize, Serialize};

use crate::banqi::{Action, Color, Effect, Outcome, Piece, Player, Pool, Position, Reason, Role};
use crate::record::Record;
use crate::replay::{Ply, ReplayError, Status, Verdict, replay_with};

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
            (Pool([0; 14]), Pool([0; 14]), Pool([0; 14]));
        for role in Role::ALL {
            let piece = Piece::new(color, role);
            let i = piece.index();
            on_board.0[i] = revealed[i];
            covered.0[i] = pos.pool().count(piece);
            // A valid position never holds more than the set (Position checks it).
            captured.0[i] = role.count().saturating_sub(revealed[i] + covered.0[i]);
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

/// The points each player has won in `pos`: the points of the enemy pieces captured.
/// Zero for both while colours are unassigned.
pub fn player_points(pos: &Position) -> [u32; 2] {
    let m = material(pos);
    [Player::One, Player::Two].map(|player| match pos.color_of(player) {
        Some(color) => m.of(color.other()).points_lost,
        None => 0,
    })
}

/// How a scored game ended: the stated result when the record gives one (a timeout or a
/// resignation is only known that way), else the one the rules derive.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScoredResult {
    pub outcome: Outcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
}

/// One player's side of a scored game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerScore {
    pub player: Player,
    pub name: String,
    /// The colour the player's first flip gave it (absent before the first flip).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// Piece points won (棋點).
    pub points: u32,
    /// The enemy pieces it captured, as letters.
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
    mut watch: impl FnMut(&Ply),
) -> Result<(GameScore, Verdict), ReplayError> {
    let mut flips: Vec<Piece> = Vec::with_capacity(2);
    let mut soldier_took_general = [0u32; 2];
    let mut last: Option<Position> = None;
    let verdict = replay_with(record, |ply| {
        watch(ply);
        last = Some(*ply.after);
        if ply.number <= 2
            && let Effect::Flip(piece) = ply.effect
        {
            flips.push(piece);
        }
        if took_general_with_last_soldier(ply.action, ply.before, ply.after) {
            soldier_took_general[ply.before.player_to_move().index()] += 1;
        }
    });
    if let Some(error) = verdict.error.clone() {
        return Err(error);
    }
    // Without a ply, the final position is the start (which the replay printed).
    let last: Position = last.unwrap_or_else(|| {
        verdict
            .final_position
            .parse()
            .expect("a replay prints a valid position")
    });
    let result = match (record.result, verdict.derived) {
        (Some(stated), _) => stated.outcome.outcome().map(|outcome| ScoredResult {
            outcome,
            reason: stated.reason,
        }),
        (None, Status::Ended { end, .. }) => Some(ScoredResult {
            outcome: end.outcome,
            reason: Some(end.reason),
        }),
        (None, Status::Ongoing) => None,
    };
    let material = material(&last);
    let players = [Player::One, Player::Two].map(|player| {
        let color = last.color_of(player);
        let won = color.map(|c| material.of(c.other()));
        PlayerScore {
            player,
            name: record.player_name(player.index()),
            color,
            points: won.map_or(0, |m| m.points_lost),
            captured: won.map_or_else(String::new, |m| m.captured.clone()),
            soldier_took_general: soldier_took_general[player.index()],
        }
    });
    let first_flips = match flips[..] {
        [a, b] => Some([a, b]),
        _ => None,
    };
    let score = GameScore {
        plies: verdict.plies,
        result,
        players,
        first_flips: first_flips.map(|[a, b]| format!("{}{}", a.char(), b.char())),
        doubled: first_flips.is_some_and(|[a, b]| same_first_flips(a, b)),
        material,
    };
    Ok((score, verdict))
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
    let general = Piece::new(mover.color.other(), Role::General);
    before.in_game(mover) == 1 && before.in_game(general) == 1 && after.in_game(general) == 0
}
