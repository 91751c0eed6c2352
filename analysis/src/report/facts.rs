//! From a record to the facts the report counts: one row per game, one per flip.

use records::banqi::{Action, Color, Effect, Outcome, Player, Square};
use records::record::Record;
use records::replay::ReplayError;
use records::scoring::{GameScore, score_watching};

/// One game's row.
#[derive(Clone, Debug, PartialEq)]
pub struct GameFacts {
    pub source: String,
    pub preset: String,
    /// The preset, with its option overrides when the record has some (`tcga {"no_progress":180}`).
    pub variant: String,
    pub player1: String,
    pub player2: String,
    /// None while unfinished.
    pub outcome: Option<Outcome>,
    pub reason: Option<&'static str>,
    pub plies: u32,
    pub p1_color: Option<&'static str>,
    /// Player 1's score: 1 win, 0.5 draw, 0 loss; None while unfinished.
    pub p1_score: Option<f64>,
    /// Red's result: `win`, `draw`, `loss`; None while unfinished or colours unassigned.
    pub red_result: Option<&'static str>,
    pub points1: u32,
    pub points2: u32,
    /// Winner's points − loser's points (decided games).
    pub margin: Option<i32>,
    pub first_square: Option<&'static str>,
    pub first_piece: Option<&'static str>,
    pub second_square: Option<&'static str>,
    pub second_piece: Option<&'static str>,
    pub doubled: bool,
    /// Filled in by the ingest, in input order (和棋續盤 runs between the same players).
    pub draws_carried: u32,
    pub bonus: Option<u64>,
    pub settlement: Option<u64>,
}

/// One flip's row (dark captures count as reveals, not flips).
#[derive(Clone, Debug, PartialEq)]
pub struct FlipFacts {
    pub preset: String,
    /// The flip's number in its game, 1-based.
    pub number: u32,
    pub ply: u32,
    /// 1 or 2.
    pub player: u32,
    pub square: &'static str,
    pub piece: &'static str,
    /// Whether a revealed piece stood orthogonally next to the flipped square.
    pub adjacent: bool,
    /// The flipper's score in the game: 1, 0.5, 0; None while unfinished.
    pub score: Option<f64>,
}

/// Square names by index (a1 b1 … d8): static, as there are millions of flips to describe.
pub const SQUARES: [&str; 32] = [
    "a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2", "a3", "b3", "c3", "d3", "a4", "b4", "c4", "d4",
    "a5", "b5", "c5", "d5", "a6", "b6", "c6", "d6", "a7", "b7", "c7", "d7", "a8", "b8", "c8", "d8",
];

/// Piece letters by piece index (K G M R N C P k g m r n c p).
pub const PIECES: [&str; 14] = [
    "K", "G", "M", "R", "N", "C", "P", "k", "g", "m", "r", "n", "c", "p",
];

/// Replays `record` into its facts; an invalid record gives its error.
pub fn facts(record: &Record, source: &str) -> Result<(GameFacts, Vec<FlipFacts>), ReplayError> {
    // The flips, with adjacency judged on the position before each.
    let mut flips: Vec<(u32, &'static str, &'static str, bool)> = Vec::new();
    let (score, _verdict) = score_watching(record, |ply| {
        if let (Action::Flip { square, .. }, Effect::Flip(piece)) = (ply.action, ply.effect) {
            let adjacent = square_neighbours(*square).any(|s| ply.before.piece_at(s).is_some());
            flips.push((
                ply.number as u32,
                SQUARES[square.index()],
                PIECES[piece.index()],
                adjacent,
            ));
        }
    })?;
    let game = game_facts(record, source, &score, &flips);
    let flip_rows = flips
        .into_iter()
        .enumerate()
        .map(|(i, (ply, square, piece, adjacent))| {
            let player = if ply % 2 == 1 { 1 } else { 2 };
            FlipFacts {
                preset: record.preset.clone(),
                number: i as u32 + 1,
                ply,
                player,
                square,
                piece,
                adjacent,
                score: game.p1_score.map(|s| if player == 1 { s } else { 1.0 - s }),
            }
        })
        .collect();
    Ok((game, flip_rows))
}

fn square_neighbours(sq: Square) -> impl Iterator<Item = Square> {
    [(0i8, 1i8), (1, 0), (0, -1), (-1, 0)]
        .into_iter()
        .filter_map(move |(df, dr)| sq.offset(df, dr))
}

fn game_facts(
    record: &Record,
    source: &str,
    score: &GameScore,
    flips: &[(u32, &'static str, &'static str, bool)],
) -> GameFacts {
    let outcome = score.result.map(|r| r.outcome);
    let p1_score = outcome.map(|o| match o {
        Outcome::Player1 => 1.0,
        Outcome::Player2 => 0.0,
        Outcome::Draw => 0.5,
    });
    let p1_color = score.players[0].color;
    let red_result = match (p1_color, p1_score) {
        (Some(c), Some(s)) => {
            let red = if c == Color::Red { s } else { 1.0 - s };
            Some(if red == 1.0 {
                "win"
            } else if red == 0.0 {
                "loss"
            } else {
                "draw"
            })
        }
        _ => None,
    };
    let points = score.points();
    let margin = score
        .result
        .and_then(|r| r.outcome.winner())
        .map(|w: Player| points[w.index()] as i32 - points[w.other().index()] as i32);
    // The first two plies are flips when they exist.
    let first = flips.iter().find(|f| f.0 == 1);
    let second = flips.iter().find(|f| f.0 == 2);
    let variant = if record.options.is_empty() {
        record.preset.clone()
    } else {
        format!(
            "{} {}",
            record.preset,
            serde_json::to_string(&record.options).expect("options serialise")
        )
    };
    GameFacts {
        source: source.to_owned(),
        preset: record.preset.clone(),
        variant,
        player1: record.player_name(0),
        player2: record.player_name(1),
        outcome,
        reason: score.result.and_then(|r| r.reason).map(|r| r.code()),
        plies: score.plies as u32,
        p1_color: p1_color.map(|c| c.name()),
        p1_score,
        red_result,
        points1: points[0],
        points2: points[1],
        margin,
        first_square: first.map(|f| f.1),
        first_piece: first.map(|f| f.2),
        second_square: second.map(|f| f.1),
        second_piece: second.map(|f| f.2),
        doubled: score.doubled,
        draws_carried: 0,
        bonus: None,
        settlement: None,
    }
}
