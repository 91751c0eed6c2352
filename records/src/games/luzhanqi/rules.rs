//! Luzhanqi's [`Rules`]: how the game-generic core reaches the engine.

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::Value;

use super::masked::MaskedPosition;
use crate::core::rules::{Engine, Game, Pictures, Told, Truth, Visibility};
use crate::core::{End, IllegalAction, InvalidHidden, Misfit, NoStart, Seat};

use super::board::{Point, Points};
use super::clues::Clues;
use super::layout::Layout;
use super::notation::Action;
use super::pieces::{Combat, Piece, Role, Side};
use super::play::Effect;
use super::position::{Cell, Position};
use super::render::svg;
use super::ruleset::{Mode, PRESETS, Ruleset};
use super::view::{SeatView, seat_view};
use crate::core::Turn as _;

/// Luzhanqi (陸軍棋), RULES.md §8.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Luzhanqi;

/// An attack as the referee announces it to both sides: where, and who survived; never what
/// the pieces were.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LuzhanqiAnnouncement))]
pub struct Announcement {
    /// The ply (1-based).
    pub ply: u32,
    /// The attacking side.
    pub side: &'static str,
    #[serde(serialize_with = "crate::games::luzhanqi::rules::as_text")]
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "c6-c7"))]
    pub action: Action,
    /// `win` (the attacker took the point), `loss` (the attacker died) or `both_die`.
    pub result: &'static str,
}

pub(crate) fn as_text<S: serde::Serializer>(a: &Action, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(a)
}

/// A position, its ruleset, and what both sides have seen happen: the announced attacks and
/// which pieces have moved or fought (public knowledge in a dark game).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    pub rules: Ruleset,
    pub pos: Position,
    pub announcements: Vec<Announcement>,
    /// Points of pieces that have moved or fought since the match began.
    pub touched: Points,
    /// What each side can tell of the other's pieces in a dark game (all roles otherwise).
    pub clues: Clues,
}

impl Engine<Luzhanqi> for Match {
    fn from_position(rules: Ruleset, pos: Position) -> Match {
        Match {
            rules,
            pos,
            announcements: Vec::new(),
            touched: Points::EMPTY,
            clues: Clues::default(),
        }
    }

    fn position(&self) -> &Position {
        &self.pos
    }

    fn end(&self) -> Option<End> {
        self.pos.end(&self.rules)
    }

    /// A refused action leaves the match as it was (`Position::play` checks before it
    /// changes anything).
    fn end_when_movable(&self) -> Option<Option<End>> {
        Some(self.pos.end_given(&self.rules, || true))
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.pos.legal_actions(&self.rules, out)
    }

    fn play(&mut self, action: &Action) -> Result<Effect, IllegalAction> {
        let side = self.pos.turn();
        let effect = self.pos.play(&self.rules, action)?;
        if self.rules.mode == Mode::Dark
            && let Action::Move { from, to, .. } = *action
        {
            match effect {
                Effect::Attack {
                    attacker,
                    defender,
                    combat,
                    ..
                } => self.clues.attacked(
                    (from, attacker.role),
                    (to, defender.role),
                    combat,
                    &self.rules,
                ),
                _ => self.clues.moved(from, to, &self.rules),
            }
        }
        if let Action::Move { from, to, .. } = *action {
            let t = self.touched.without(from);
            self.touched = match effect {
                Effect::Move | Effect::Pickup => t.with(to),
                Effect::Attack { combat, .. } => {
                    self.announcements.push(Announcement {
                        ply: self.pos.ply(),
                        side: side.map_or("", Side::name),
                        action: Action::Move {
                            from,
                            to,
                            reveal: None,
                        },
                        result: combat.code(),
                    });
                    match combat {
                        Combat::Win | Combat::Loss => t.with(to),
                        Combat::Both => t.without(to),
                    }
                }
                _ => self.touched,
            };
        }
        Ok(effect)
    }
}

impl Game for Luzhanqi {
    const NAME: &'static str = "luzhanqi";

    const TITLE: &'static str = "Luzhanqi (陸軍棋)";

    crate::game_items!();

    /// Progress is a flip (50 pieces to turn) or an attack (each removes a piece at least:
    /// 50).
    fn longest(rules: &Ruleset) -> Option<u32> {
        crate::core::rules::longest(100, rules.no_progress, rules.max_plies)
    }

    /// A flip position (face-down pieces, colours not yet decided, a flag carried) is played
    /// only under a flip ruleset, and the reverse.
    fn position_fits(rules: &Ruleset, pos: &Position) -> Result<(), Misfit> {
        let flip_like = !pos.covered().is_empty()
            || pos.turn().is_none()
            || Side::ALL
                .iter()
                .any(|s| pos.flag_state(*s) != super::position::FlagState::Alone);
        match rules.mode {
            Mode::Flip => Ok(()),
            _ if flip_like => Err(Misfit(format!(
                "this is a flip position (face-down pieces or a carried flag); the ruleset plays {}",
                rules.mode.code()
            ))),
            // Player 1 plays red in open and dark games (docs/rules.md 25).
            _ if (pos.turn() == Some(Side::Red)) != pos.ply().is_multiple_of(2) => {
                Err(Misfit(format!(
                    "in an {} game player 1 is red and moves at even plies; this position has {} to move at ply {}",
                    rules.mode.code(),
                    pos.turn().map_or("nobody", Side::name),
                    pos.ply()
                )))
            }
            _ => Ok(()),
        }
    }

    fn effect_code(effect: &Effect) -> &'static str {
        match effect {
            Effect::Flip { .. } => "flip",
            Effect::Move => "move",
            Effect::Attack { combat, .. } => match combat {
                Combat::Win => "attack_won",
                Combat::Loss => "attack_lost",
                Combat::Both => "both_died",
            },
            Effect::Reveal { piece } if piece.role == Role::Flag => "flag_revealed",
            Effect::Reveal { .. } => "own_reveal",
            Effect::Pickup => "pickup",
            Effect::Drop => "drop",
        }
    }
}

impl Truth for Luzhanqi {
    fn start(rules: &Ruleset, layout: Option<&Layout>) -> Result<Position, NoStart> {
        match (rules.mode, layout) {
            (Mode::Flip, _) => Ok(Position::flip_start()),
            (_, Some(layout)) => layout.start().ok_or_else(|| {
                NoStart(format!(
                    "a game in {} mode starts from both setups ({{\"red\": …, \"black\": …}}); this layout is a flip game's",
                    rules.mode.code()
                ))
            }),
            (mode, None) => Err(NoStart(format!(
                "a game in {} mode starts from both sides' setups: give them as the layout (or give a start position)",
                mode.code()
            ))),
        }
    }

    type Hidden = Layout;

    type View = SeatView;

    fn parse_hidden(value: &Value) -> Result<Layout, InvalidHidden> {
        Layout::from_value(value).map_err(|e| InvalidHidden(e.to_string()))
    }

    fn hidden_value(layout: &Layout) -> Value {
        layout.to_value()
    }

    fn hidden_fits(layout: &Layout, pos: &Position) -> Result<(), Misfit> {
        layout.fits(pos)
    }

    fn reveal(
        action: Action,
        pos: &Position,
        layout: Option<&Layout>,
    ) -> Result<Action, IllegalAction> {
        match layout {
            Some(layout) => layout.fill(action, pos),
            None => Ok(action),
        }
    }

    fn deal<R: rand::RngExt + ?Sized>(rules: &Ruleset, rng: &mut R) -> Layout {
        match rules.mode {
            Mode::Flip => Layout::shuffled(rng),
            Mode::Open | Mode::Dark => Layout::random_setups(rng),
        }
    }

    fn disguise<R: rand::RngExt + ?Sized>(
        layout: &Layout,
        m: &Match,
        seat: Seat,
        rng: &mut R,
    ) -> Layout {
        match (m.rules.mode, layout) {
            // Both sides see the same: face-up pieces, and the face-down ones as a multiset.
            (Mode::Flip, _) => layout.shuffle_covered(&m.pos, rng),
            (Mode::Dark, Layout::Setups { .. }) => {
                super::view::disguise_setups(layout, m, seat, rng)
            }
            // Open games hide nothing.
            _ => layout.clone(),
        }
    }

    fn view(m: &Match, seat: Seat) -> SeatView {
        seat_view(m, seat)
    }

    /// A dark game's position is the referee's: a seat is told its masked one.
    fn visibility(rules: &Ruleset) -> Visibility {
        if rules.mode == Mode::Dark {
            Visibility::Secret
        } else {
            Visibility::Covered
        }
    }

    type Masked = MaskedPosition;

    /// A seat of a dark game is told its masked position.
    fn told(m: &Match, seat: Seat) -> Told<Self> {
        super::view::told(m, seat)
    }

    /// A dark game's public position: every piece's place and side, a flag once shown.
    fn public(rules: &Ruleset, pos: &Position) -> Told<Self> {
        if rules.mode == Mode::Dark {
            Told::Masked(super::view::masked_position(rules, pos, None))
        } else {
            Told::Position(pos.clone())
        }
    }

    /// A dark game's action as every seat saw it: a move's points, and for an attack the
    /// announcement (`win`, `loss`, `both_die`) and each flag shown (`:flag@b1`).
    fn check_public_action(rules: &Ruleset, text: &str) -> Result<(), String> {
        let parse = |move_text: &str| {
            move_text
                .parse::<Action>()
                .map(drop)
                .map_err(|e| e.to_string())
        };
        if rules.mode != Mode::Dark {
            return parse(text);
        }
        let mut parts = text.split(':');
        parse(parts.next().unwrap_or_default())?;
        if let Some(combat) = parts.next()
            && !["win", "loss", "both_die"].contains(&combat)
        {
            return Err(format!(
                "an attack is announced as win, loss or both_die, not {combat:?}"
            ));
        }
        for shown in parts {
            match shown.strip_prefix("flag@").map(str::parse::<Point>) {
                Some(Ok(_)) => {}
                _ => {
                    return Err(format!(
                        "a shown flag is written flag@<point>, not {shown:?}"
                    ));
                }
            }
        }
        Ok(())
    }

    /// A dark game's move as every seat saw it: the points, and for an attack what the
    /// referee announced (`c6-c7:win`, `:loss`, `:both_die`), and for each 司令 that died, when
    /// its side's flag is then shown, `:flag@` and the point it is shown on (`:flag@b1`): the
    /// next public position shows it there, so the action says where (issue 59: `:flag` alone
    /// led to positions that differ).
    fn public_action(
        rules: &Ruleset,
        action: &Action,
        effect: &Effect,
        after: &Position,
    ) -> String {
        let (Mode::Dark, Action::Move { from, to, .. }) = (rules.mode, action) else {
            return action.to_string();
        };
        let Effect::Attack {
            attacker,
            defender,
            combat,
            ..
        } = *effect
        else {
            return format!("{from}-{to}");
        };
        let mut said = format!("{from}-{to}:{}", combat.code());
        if !rules.flag_reveal {
            return said;
        }
        let died = match combat {
            Combat::Win => [None, Some(defender)],
            Combat::Loss => [Some(attacker), None],
            Combat::Both => [Some(attacker), Some(defender)],
        };
        for marshal in died
            .into_iter()
            .flatten()
            .filter(|p| p.role == Role::Marshal)
        {
            let flag = Piece::new(marshal.side, Role::Flag);
            said.push_str(":flag");
            if let Some(point) = Point::all().find(|&p| after.cell(p) == Cell::Piece(flag)) {
                let _ = write!(said, "@{point}");
            }
        }
        said
    }
}

impl Pictures for Luzhanqi {
    fn svg(pos: &Position, last: Option<&Action>) -> String {
        svg(pos, last)
    }
    fn points() -> Vec<(String, u32, u32, u32)> {
        super::render::points()
    }
}
