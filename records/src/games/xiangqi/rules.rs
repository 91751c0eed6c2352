//! Third-generation xiangqi's [`Rules`]: how the game-generic core reaches the engine, and
//! the match (the history the repetition rule needs).

use crate::core::repetition::Repetitions;
use serde_json::Value;

use crate::core::rules::{Engine, Game, Pictures, Told, Truth, Unmasked, Visibility};
use crate::core::{
    End, IllegalAction, InvalidHidden, Misfit, NoStart, Outcome, Reason, Seat, Violation,
};

use super::action::Action;
use super::layout::{Backs, unknown_start};
use super::pieces::{Back, Kind, Side};
use super::play::Effect;
use super::position::Position;
use super::ruleset::{PRESETS, Ruleset};
use super::view::{SeatView, seat_view};

/// Third-generation xiangqi (番兵象棋), RULES.md §9.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Xiangqi3g;

/// One position of the history: its key, who moved into it and whether that move gave check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Entry {
    key: u64,
    mover: Side,
    check: bool,
    capture: bool,
}

/// A position, its ruleset and its history (for repetition and perpetual check), and which
/// groups of backs each side has shown (what a disguise must keep).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    pub rules: Ruleset,
    /// Read it freely; change it only by playing (the match remembers facts of it, such as
    /// whether the side to move is in check).
    pub pos: Position,
    history: Vec<Entry>,
    /// How often each key occurred since the last capture (indices into `history`).
    repetitions: Repetitions,
    /// Per side, a bit per group of backs shown by a flip (see `group`).
    pub shown: [u8; 2],
}

/// A 64-bit key of what makes a position the same for the repetition rule: every piece with
/// its back and marks (the position keeps their part up to date move by move), the side to
/// move, the move a 骉 would borrow. As engines' keys, collisions are negligible.
fn key(pos: &Position) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mix = |h: u64, v: u64| (h.rotate_left(5) ^ v).wrapping_mul(K);
    debug_assert_eq!(pos.pieces_key, pos.pieces_key_from_scratch());
    let mut h = mix(pos.pieces_key, pos.turn as u64);
    // The rule a 骉 borrows counts only when the side to move has a 骉 (RULES.md §9).
    // (A copy of the set: iterating it in place would consume the position's own.)
    let mut exotic = pos.exotic[pos.turn.index()];
    let biao = exotic.any(|s| pos.board[s.index()].kind() == Kind::Biao);
    if biao && let Some((s, k)) = pos.last_move() {
        h = mix(h, 1 << 32 | (s.index() as u64) << 8 | k as u64);
    }
    h
}

/// The group of backs a kind belongs to (a bit of `Match::shown`).
fn group(kind: Kind) -> u8 {
    match kind {
        Kind::Advisor | Kind::General | Kind::Minister => 1,
        Kind::Elephant | Kind::Camel | Kind::Mule => 2,
        Kind::Chariot | Kind::Zhu | Kind::Fu => 4,
        Kind::Horse | Kind::Fei | Kind::Biao => 8,
        Kind::Cannon | Kind::Pao | Kind::Shi => 16,
        Kind::Soldier => 32,
    }
}

impl Match {
    /// Whether the side to move is in check: remembered from the last ply (its entry's
    /// check), which every rule of the next ply asks (its legal actions, its play, the end).
    fn to_move_in_check(&self) -> bool {
        match self.history.last() {
            Some(last) if self.history.len() > 1 => {
                debug_assert_eq!(last.check, self.pos.in_check(self.pos.turn()));
                last.check
            }
            _ => self.pos.in_check(self.pos.turn()),
        }
    }
}

impl Match {
    /// The position's endings (`has_action` says whether the side to move has a legal
    /// action), then repetition, then the ply cap.
    fn end_with(&self, has_action: impl FnOnce() -> bool) -> Option<End> {
        if let Some(end) = self.pos.end_with(self.rules.no_capture, has_action) {
            return Some(end);
        }
        self.repetition().or_else(|| {
            self.rules
                .max_plies
                .is_some_and(|n| self.pos.ply >= n as u32)
                .then(|| End::new(Outcome::draw(2), Reason::PLY_LIMIT))
        })
    }

    /// The repetition rule's ending, if the position has come back a third time.
    fn repetition(&self) -> Option<End> {
        if !self.rules.repetition {
            return None;
        }
        let now = self
            .history
            .last()
            .expect("the start is in the history")
            .key;
        if self.repetitions.count(now) < 3 {
            return None;
        }
        // Two pieces alike but for backs nobody here knows (a replay without the backs) may
        // have changed places: the position may not be the same, and the repetition cannot be
        // told. Only a match that knows the backs judges it (docs/rules.md).
        if self.pos.has_indistinguishable_unknown_backs() {
            return None;
        }
        let first = self.repetitions.first(now).expect("counted") as usize;
        // Perpetual check: a side all of whose moves since the first occurrence gave check
        // (scanned once: the game ends here).
        let moves = &self.history[first + 1..];
        let checker = |side: Side| {
            let mine: Vec<&Entry> = moves.iter().filter(|e| e.mover == side).collect();
            !mine.is_empty() && mine.iter().all(|e| e.check)
        };
        let (red, black) = (checker(Side::Red), checker(Side::Black));
        Some(match (red, black) {
            (true, false) => End::new(
                Outcome::win(Position::seat_of(Side::Black), 2),
                Reason::PERPETUAL_CHECK,
            ),
            (false, true) => End::new(
                Outcome::win(Position::seat_of(Side::Red), 2),
                Reason::PERPETUAL_CHECK,
            ),
            _ => End::new(Outcome::draw(2), Reason::REPETITION),
        })
    }
}

impl Engine<Xiangqi3g> for Match {
    fn from_position(rules: Ruleset, pos: Position) -> Match {
        let first = Entry {
            key: key(&pos),
            mover: pos.turn.other(),
            check: false,
            capture: false,
        };
        let mut repetitions =
            Repetitions::with_capacity(rules.no_capture.map_or(64, |n| n as usize + 1));
        repetitions.push(first.key, 0);
        Match {
            rules,
            pos,
            history: vec![first],
            repetitions,
            shown: [0; 2],
        }
    }

    fn position(&self) -> &Position {
        &self.pos
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        self.pos.legal_actions_given(self.to_move_in_check(), out)
    }

    fn play(&mut self, action: &Action) -> Result<Effect, IllegalAction> {
        let mover = self.pos.turn();
        let effect = self
            .pos
            .play_given(&self.rules, action, self.to_move_in_check())?;
        match effect {
            Effect::SoldierFlip { .. } => self.shown[mover.index()] |= group(Kind::Soldier),
            Effect::Transform { from, .. } => self.shown[mover.index()] |= group(from),
            Effect::DoubleFlip { .. } => self.shown[mover.index()] |= group(Kind::Advisor),
            _ => {}
        }
        let entry = Entry {
            key: key(&self.pos),
            mover,
            check: self.pos.in_check(mover.other()),
            capture: matches!(effect, Effect::Move { captured: Some(_) }),
        };
        // Positions before a capture cannot come back.
        if entry.capture {
            self.repetitions.clear();
        }
        self.repetitions.push(entry.key, self.history.len() as u32);
        self.history.push(entry);
        Ok(effect)
    }

    /// How the game has ended, if it has: the position's endings, then repetition.
    fn end(&self) -> Option<End> {
        self.end_with(|| self.pos.has_action_given(self.to_move_in_check()))
    }

    /// A refused action leaves the match as it was (`Position::play` checks before it changes
    /// anything, or takes back the move it tried).
    fn end_when_movable(&self) -> Option<Option<End>> {
        Some(self.end_with(|| true))
    }
}

impl Game for Xiangqi3g {
    const NAME: &'static str = "xiangqi-3g";

    const TITLE: &'static str = "Third-generation xiangqi (番兵象棋)";

    crate::game_items!();

    /// The no-capture limit counts captures only: each removes one of 32 pieces.
    fn longest(rules: &Ruleset) -> Option<u32> {
        crate::core::rules::longest(32, rules.no_capture, rules.max_plies)
    }

    fn position_fits(rules: &Ruleset, pos: &Position) -> Result<(), Misfit> {
        let has_backs = pos
            .pieces()
            .any(|p| p.back != Back::None || !p.kind.is_plain() || p.soldier_born);
        if !rules.backs && has_backs {
            return Err(Misfit(
                "the position has second identities; the ruleset plays plain xiangqi".into(),
            ));
        }
        Ok(())
    }

    fn effect_code(effect: &Effect) -> &'static str {
        match effect {
            Effect::Move { captured: None } => "move",
            Effect::Move { captured: Some(_) } => "capture",
            Effect::SoldierFlip {
                effective: true, ..
            } => "soldier_flip",
            Effect::SoldierFlip {
                effective: false, ..
            } => "wrong_soldier_flip",
            Effect::FlipBack => "flip_back",
            Effect::Transform { .. } => "transform",
            Effect::DoubleFlip { correct: true } => "double_flip",
            Effect::DoubleFlip { correct: false } => "wrong_double_flip",
        }
    }

    /// Only a capture: a flip can be flipped back (and the repetition count goes on across
    /// flips, as the match keeps it).
    fn irreversible(effect: &Effect) -> bool {
        matches!(effect, Effect::Move { captured: Some(_) })
    }
}

impl Truth for Xiangqi3g {
    fn start(rules: &Ruleset, backs: Option<&Backs>) -> Result<Position, NoStart> {
        match (rules.backs, backs) {
            // Plain xiangqi has no backs: a layout is not used.
            (false, _) => Ok(Position::start()),
            (true, Some(b)) => Ok(b.start()),
            (true, None) => Ok(unknown_start()),
        }
    }

    type Hidden = Backs;

    type View = SeatView;

    fn parse_hidden(value: &Value) -> Result<Backs, InvalidHidden> {
        Backs::from_value(value)
    }

    fn hidden_value(backs: &Backs) -> Value {
        backs.to_value()
    }

    fn hidden_fits(backs: &Backs, pos: &Position) -> Result<(), Misfit> {
        if pos.pieces().all(|p| p.back == Back::None) {
            // A plain xiangqi position: the backs have nothing to fit.
            return Ok(());
        }
        if *pos != backs.start() {
            return Err(Misfit(
                "the backs go with the start position; a later position writes its backs in its own backs field"
                    .into(),
            ));
        }
        Ok(())
    }

    /// The position started from the backs knows them: flips are filled from it (and checked
    /// against what they say).
    fn reveal(action: Action, pos: &Position, _: Option<&Backs>) -> Result<Action, IllegalAction> {
        pos.fill(action)
    }

    fn deal<R: rand::RngExt + ?Sized>(rules: &Ruleset, rng: &mut R) -> Backs {
        let _ = rules;
        Backs::random(rng)
    }

    /// Plain xiangqi hides nothing; with backs, a position string holds them all, so a seat
    /// is told its masked one.
    fn visibility(rules: &Ruleset) -> Visibility {
        if rules.backs {
            Visibility::Secret
        } else {
            Visibility::Open
        }
    }

    fn disguise<R: rand::RngExt + ?Sized>(
        backs: &Backs,
        m: &Match,
        seat: Seat,
        rng: &mut R,
    ) -> Backs {
        super::view::disguise(backs, m, seat, rng)
    }

    fn view(m: &Match, seat: Seat) -> SeatView {
        seat_view(m, seat)
    }

    type Masked = Unmasked;

    /// With backs, a seat is told the position with the backs it has not seen unknown.
    fn told(m: &Match, seat: Seat) -> Told<Self> {
        Told::Position(if m.rules.backs {
            super::view::masked(&m.pos, seat)
        } else {
            m.pos.clone()
        })
    }

    /// With backs, every seat sees the faces and the backs a flip showed.
    fn public(rules: &Ruleset, pos: &Position) -> Told<Self> {
        Told::Position(if rules.backs {
            pos.masked(Side::Red).masked(Side::Black)
        } else {
            pos.clone()
        })
    }
}

impl Pictures for Xiangqi3g {
    fn svg(pos: &Position, last: Option<&Action>) -> String {
        super::render::svg(pos, last)
    }
    fn points() -> Vec<(String, u32, u32, u32)> {
        super::render::points()
    }
}

impl Position {
    /// `action` with what it reveals filled in from this position's backs, where known (a
    /// given identity that contradicts them is refused).
    pub fn fill(&self, action: Action) -> Result<Action, IllegalAction> {
        let (at, given) = match action {
            Action::Move(_) => return Ok(action),
            Action::Flip { at, reveal } => (at, reveal),
            Action::DoubleFlip {
                advisor, reveal, ..
            } => (advisor, reveal),
        };
        let Some(piece) = self.piece(at) else {
            return Ok(action);
        };
        let truth = if piece.pending {
            Some(Kind::Soldier)
        } else {
            match piece.back {
                Back::Known(k) => Some(k),
                _ => None,
            }
        };
        let Some(truth) = truth else {
            return Ok(action);
        };
        if piece.side != self.turn() {
            return Ok(action);
        }
        if given.is_some_and(|g| g != truth) {
            return Err(IllegalAction::new(
                Violation::REVEAL_CONTRADICTS_LAYOUT,
                format!(
                    "{action} says {} but the backs have {} on {at}",
                    given.map(|g| g.letter()).unwrap_or('?'),
                    truth.letter()
                ),
            ));
        }
        Ok(match action {
            Action::Flip { at, .. } => Action::Flip {
                at,
                reveal: Some(truth),
            },
            Action::DoubleFlip {
                general, advisor, ..
            } => Action::DoubleFlip {
                general,
                advisor,
                reveal: Some(truth),
            },
            Action::Move(m) => Action::Move(m),
        })
    }
}
