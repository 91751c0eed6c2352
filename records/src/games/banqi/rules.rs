//! Banqi's [`Rules`]: how the game-generic core reaches the Banqi engine.

use serde_json::Value;

use crate::core::rules::{Engine, Game, Pictures, Truth};
use crate::core::text::TextFormat;
use crate::core::{IllegalAction, InvalidHidden, Misfit, NoStart, Seat};

use super::action::Action;
use super::layout::{Layout, fill_from_layout, shuffle_covered};
use super::matches::Match;

use super::play::Effect;
use super::position::Position;
use super::render::{RenderOptions, svg};
use super::ruleset::{PRESETS, Ruleset};
use super::view::{PlayerView, player_view};

/// Banqi (暗棋, Chinese Dark Chess), RULES.md §1–6.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Banqi;

impl Game for Banqi {
    const NAME: &'static str = "banqi";

    const TITLE: &'static str = "Banqi (暗棋, Chinese Dark Chess)";

    crate::game_items!();

    const TEXT_FORMATS: &'static [TextFormat] = &[super::tcga::TCGA];

    /// Progress is a flip (32 pieces to turn) or a capture (each removes a piece: 32).
    fn longest(rules: &Ruleset) -> Option<u32> {
        crate::core::rules::longest(64, rules.no_progress, rules.max_plies)
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
    type Masked = crate::core::Unmasked;

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

    /// Every seat sees the whole position (a covered piece is covered to both).
    fn write_public(_: &Ruleset, pos: &Position, out: &mut Vec<u8>) {
        pos.write_text(out);
    }
}

impl Pictures for Banqi {
    fn svg(pos: &Position, last: Option<&Action>) -> String {
        let options = last.map(RenderOptions::last_action).unwrap_or_default();
        svg(pos, &options)
    }

    fn points() -> Vec<(String, u32, u32, u32)> {
        super::render::points()
    }
}
