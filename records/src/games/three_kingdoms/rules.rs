//! Three Kingdoms' [`Rules`]: how the game-generic core reaches the engine.

use serde_json::Value;

use crate::core::rules::{Engine, Game, Pictures, Truth, Turn as _};
use crate::core::{End, IllegalAction, InvalidHidden, Misfit, NoStart, Outcome, Seat};

use super::layout::Layout;
use super::notation::Action;
use super::play::Effect;
use super::position::Position;
use super::render::svg;
use super::ruleset::{PRESETS, Ruleset};
use super::view::{SeatView, seat_view};

/// Three Kingdoms Banqi (三國暗棋), RULES.md §7.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ThreeKingdoms;

/// A position and its ruleset: the game keeps no other history (no repetition rule; the
/// no-progress counter is in the position).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Match {
    pub rules: Ruleset,
    pub pos: Position,
}

impl Engine<ThreeKingdoms> for Match {
    /// A match from `pos` under `rules`; a position where no faction is claimed yet takes
    /// the ruleset's split, and a position string whose seat to move has no legal action
    /// passes the turn on, as play would have.
    fn from_position(rules: Ruleset, mut pos: Position) -> Match {
        if pos.factions.iter().all(|f| *f == super::position::NONE) {
            pos.split = rules.split;
        }
        let seat = pos.to_move();
        if pos.place(seat).is_none() && !pos.has_action(&rules, seat) {
            pos.pass_turn(&rules, seat);
        }
        Match { rules, pos }
    }

    fn position(&self) -> &Position {
        &self.pos
    }

    fn end(&self) -> Option<End> {
        self.pos.end(&self.rules)
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.pos.legal_actions(&self.rules, out)
    }

    fn play(&mut self, action: &Action) -> Result<Effect, IllegalAction> {
        self.pos.play(&self.rules, action)
    }

    fn still_playing(&self, seat: Seat) -> bool {
        self.pos.place(seat).is_none()
    }

    fn conceded(&self, seat: Seat) -> Outcome {
        self.pos.conceded(&self.rules, seat)
    }

    fn agreed_draw(&self) -> Outcome {
        self.pos.agreed_draw()
    }
}

impl Game for ThreeKingdoms {
    const NAME: &'static str = "three-kingdoms";

    const TITLE: &'static str = "Three Kingdoms Banqi (三國暗棋)";

    crate::game_items!();

    /// Progress is a flip or a capture (each turns or removes one of at most 45 pieces) or a
    /// recall (once per seat).
    fn longest(rules: &Ruleset) -> Option<u32> {
        let pieces = super::Point::COUNT as u32;
        crate::core::rules::longest(2 * pieces + 3, rules.no_progress, rules.max_plies)
    }

    fn seats(_: &Ruleset) -> u8 {
        3
    }

    fn position_fits(rules: &Ruleset, pos: &Position) -> Result<(), Misfit> {
        let claimed = pos.factions.iter().any(|f| *f != super::position::NONE);
        if claimed && pos.split() != rules.split {
            return Err(Misfit(
                format!(
                    "the position's factions are of the {:?} split, the ruleset plays the {:?} split",
                    pos.split(),
                    rules.split
                )
                .to_lowercase(),
            ));
        }
        Ok(())
    }

    fn effect_code(effect: &Effect) -> &'static str {
        match effect {
            Effect::Flip { .. } => "flip",
            Effect::Move => "move",
            Effect::Capture { .. } => "capture",
            Effect::Recall { .. } => "recall",
        }
    }
}

impl Truth for ThreeKingdoms {
    type Masked = crate::core::Unmasked;

    fn start(rules: &Ruleset, _: Option<&Layout>) -> Result<Position, NoStart> {
        Ok(Position::start(rules.split))
    }

    type Hidden = Layout;

    type View = SeatView;

    fn parse_hidden(value: &Value) -> Result<Layout, InvalidHidden> {
        match value {
            Value::String(s) => s
                .parse()
                .map_err(|e: super::ParseLayoutError| InvalidHidden(e.to_string())),
            _ => Err(InvalidHidden(
                "a Three Kingdoms layout is a string of 32 piece letters, one per start point"
                    .to_owned(),
            )),
        }
    }

    fn hidden_value(layout: &Layout) -> Value {
        Value::String(layout.to_string())
    }

    fn hidden_fits(layout: &Layout, pos: &Position) -> Result<(), Misfit> {
        layout.fits(pos)
    }

    fn reveal(
        action: Action,
        _: &Position,
        layout: Option<&Layout>,
    ) -> Result<Action, IllegalAction> {
        match layout {
            Some(layout) => layout.fill(action),
            None => Ok(action),
        }
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
        // All three seats see the same: revealed pieces, and the covered ones as a multiset.
        layout.shuffle_covered(pos, rng)
    }

    fn view(m: &Match, seat: Seat) -> SeatView {
        seat_view(m, seat)
    }
}

impl Pictures for ThreeKingdoms {
    fn svg(pos: &Position, last: Option<&Action>) -> String {
        svg(pos, last)
    }
    fn points() -> Vec<(String, u32, u32, u32)> {
        super::render::points()
    }
}
