//! Banqi's [`Rules`]: how the game-generic core reaches the Banqi engine.

use serde_json::Value;

use crate::core::rules::{Engine, Game, Pictures, Scoring, Truth};
use crate::core::text::TextFormat;
use crate::core::{
    Credit, IllegalAction, InvalidHidden, Misfit, NoStart, Opening, PositionProblem, Reason,
    Record, ScoreError, Seat, Table, Violation,
};

use super::action::Action;
use super::layout::{Layout, fill_from_layout, shuffle_covered};
use super::matches::Match;

use super::play::Effect;
use super::position::{ParsePositionError, Position};
use super::render::{RenderOptions, svg};
use super::ruleset::{PRESETS, Preset, Ruleset};
use super::scoring;
use super::view::{PlayerView, player_view};

/// Banqi (暗棋, Chinese Dark Chess), RULES.md §1–6.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Banqi;

impl Game for Banqi {
    const NAME: &'static str = "banqi";

    const TITLE: &'static str = "Banqi (暗棋, Chinese Dark Chess)";

    const REASONS: &'static [Reason] = &[];

    const VIOLATIONS: &'static [Violation] = super::violations::VIOLATIONS;

    const TEXT_FORMATS: &'static [TextFormat] = &[super::tcga::TCGA];

    type Ruleset = Ruleset;

    type Position = Position;

    type Match = Match;

    type Action = Action;

    type Effect = Effect;

    fn presets() -> &'static [Preset] {
        PRESETS
    }

    fn seats(_: &Ruleset) -> u8 {
        2
    }

    fn parse_position(text: &str) -> Result<Position, PositionProblem> {
        text.parse().map_err(|e| match e {
            ParsePositionError::Syntax(e) => PositionProblem::Malformed(e.to_string()),
            ParsePositionError::Invalid(e) => PositionProblem::Impossible(e.to_string()),
        })
    }

    fn effect_code(effect: &Effect) -> &'static str {
        match effect {
            Effect::Flip(_) => "flip",
            Effect::Quiet { .. } => "move",
            Effect::Capture { .. } => "capture",
            Effect::OwnReveal { .. } => "own_reveal",
            Effect::DarkFailed { .. } => "dark_failed",
        }
    }
}

impl Truth for Banqi {
    fn start(_: &Ruleset, _: Option<&Layout>) -> Result<Position, NoStart> {
        Ok(Position::start())
    }

    type Hidden = Layout;

    type View = PlayerView;

    fn parse_hidden(value: &Value) -> Result<Layout, InvalidHidden> {
        match value {
            Value::String(s) => s
                .parse()
                .map_err(|e: super::ParseLayoutError| InvalidHidden(e.to_string())),
            _ => Err(InvalidHidden(
                "a Banqi layout is a string of 32 piece letters (a1 b1 … d8)".to_owned(),
            )),
        }
    }

    fn hidden_value(layout: &Layout) -> Value {
        Value::String(layout.to_string())
    }

    fn hidden_fits(layout: &Layout, pos: &Position) -> Result<(), Misfit> {
        layout.fits(pos).map_err(|e| Misfit(e.to_string()))
    }

    fn reveal(
        action: Action,
        pos: &Position,
        layout: Option<&Layout>,
    ) -> Result<Action, IllegalAction> {
        fill_from_layout(action, pos, layout)
    }

    fn deal<R: rand::RngExt + ?Sized>(_: &Ruleset, rng: &mut R) -> Layout {
        Layout::shuffled(rng)
    }

    fn disguise<R: rand::RngExt + ?Sized>(
        layout: &Layout,
        m: &Match,
        _: Seat,
        rng: &mut R,
    ) -> Layout {
        let pos = m.position();
        // Both seats see the same: every revealed piece, and the covered pieces as a multiset.
        shuffle_covered(layout, pos, rng)
    }

    fn view(m: &Match, seat: Seat) -> PlayerView {
        player_view(m, seat)
    }
}

impl Scoring for Banqi {
    type Score = scoring::ScoreSheet;

    type PositionScore = scoring::PositionScore;

    /// TCGA writes an elimination as `NoMove` (a player with no pieces has no legal action
    /// either): a stated `no_move` accepts a derived `elimination` (docs/rules.md 1).
    fn reason_matches(stated: Reason, derived: Reason) -> bool {
        stated == derived || (stated == Reason::NO_MOVE && derived == Reason::ELIMINATION)
    }

    fn start_credits(start: &Position, credit: impl FnMut(Credit)) {
        scoring::start_credits(start, credit)
    }

    fn credits(before: &Position, after: &Position, effect: &Effect, credit: impl FnMut(Credit)) {
        scoring::credits(before, after, effect, credit)
    }

    /// The first two flips, and 門棋加倍 when they revealed the same kind of piece.
    fn opening(record: &Record, first_plies: &[(Action, Effect)]) -> Opening {
        match first_plies {
            [(_, Effect::Flip(a)), (_, Effect::Flip(b))] => Opening {
                moves: Some(format!("{} {}", record.actions[0], record.actions[1])),
                doubles_stake: scoring::same_first_flips(*a, *b),
            },
            _ => Opening::default(),
        }
    }

    fn score(
        record: &Record,
        table: &Table,
        draws_carried: u32,
    ) -> Result<Self::Score, ScoreError> {
        scoring::score_sheet(record, table, draws_carried)
    }

    fn score_position(pos: &Position) -> Self::PositionScore {
        scoring::score_position(pos)
    }

    fn side(pos: &Position, seat: Seat) -> Option<&'static str> {
        pos.color_of(seat).map(|c| c.name())
    }
}

impl Pictures for Banqi {
    fn svg(pos: &Position, last: Option<&Action>) -> String {
        let options = last.map(RenderOptions::last_action).unwrap_or_default();
        svg(pos, &options)
    }
}
