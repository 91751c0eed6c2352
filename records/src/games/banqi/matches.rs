//! A match: a position plus the history the draw and long-chase rules need, and the
//! end-of-game judgement of RULES.md §1.

use crate::core::repetition::Repetitions;
use crate::core::{End, Engine, IllegalAction, Outcome, Reason, Seat, Turn as _};

use super::Banqi;

use super::action::Action;
use super::chase::LongChase;
use super::cycle::QuietPlies;
use super::movegen;
use super::play::{Effect, Trust};
use super::position::Position;
use super::ruleset::{Repetition, Ruleset};
use super::types::{Color, Square};

/// A match: the current position, the ruleset, and the history its rules need (a game
/// being played or replayed; a bare [`Position`] has no history).
#[derive(Clone, Debug)]
pub struct Match {
    rules: Ruleset,
    position: Position,
    /// Codes of the plies since the last flip or capture (cycle repetition).
    quiet: QuietPlies,
    /// How often each position occurred since the last flip or capture (position
    /// repetition), and the current position's key.
    repetitions: Repetitions,
    key: u64,
    chases: LongChase,
    /// The ply of the position the game started from.
    start_ply: u32,
}

impl Engine<Banqi> for Match {
    /// A game from a bare position: its history is unknown, so repetition looks only at
    /// plies played from here and long-chase counts start at zero.
    fn from_position(rules: Ruleset, position: Position) -> Match {
        let mut m = Match {
            rules,
            position,
            quiet: match rules.repetition {
                Repetition::Cycle { .. } => {
                    QuietPlies::with_capacity(rules.no_progress.map_or(64, |n| n as usize + 1))
                }
                _ => QuietPlies::default(),
            },
            repetitions: Repetitions::default(),
            key: 0,
            chases: Default::default(),
            start_ply: position.ply(),
        };
        if matches!(rules.repetition, Repetition::Position { .. }) {
            m.repetitions =
                Repetitions::with_capacity(rules.no_progress.map_or(64, |n| n as usize + 1));
            m.key = position.repetition_key();
            m.repetitions.push(m.key, 0);
        }
        m
    }

    #[inline]
    fn position(&self) -> &Position {
        &self.position
    }

    /// Every legal action, long chase included, written to `out` (cleared first).
    fn legal_actions(&self, out: &mut Vec<Action>) {
        movegen::legal_actions(&self.position, &self.rules, out);
        if self.long_chase_may_bite() {
            out.retain(|a| !self.is_long_chase(a));
        }
    }

    /// How the game has ended, if it has, checked in the order of RULES.md §1: elimination,
    /// no legal action, no progress, repetition.
    fn end(&self) -> Option<End> {
        self.elimination()
            .or_else(|| self.end_by_moves(self.has_legal_action()))
    }

    /// A refused action leaves the match as it was ([`Engine::play`] works on a copy).
    fn end_when_movable(&self) -> Option<Option<End>> {
        Some(self.end_given(true))
    }

    /// Plays a legal action (flips and dark captures must name the revealed piece).
    /// It does not check whether the game has ended: ask [`Match::end`] first.
    fn play(&mut self, action: &Action) -> Result<Effect, IllegalAction> {
        let mut next = self.position;
        let effect = next.apply(&self.rules, action, Trust::Check)?;
        if self.long_chase_may_bite()
            && let Action::Move(path) = action
            && let Some(e) = self.chases.forbids(&self.rules, &self.position, path)
        {
            return Err(e);
        }
        let mover = self.position.to_move();
        self.position = next;
        self.record(action, mover, effect);
        Ok(effect)
    }
}

impl Match {
    pub fn new(rules: Ruleset) -> Match {
        Match::from_position(rules, Position::start())
    }

    #[inline]
    pub fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The legal actions other than flips (any covered square may be flipped), long chase
    /// included, written to `out` (cleared first).
    pub fn legal_moves(&self, out: &mut Vec<Action>) {
        movegen::legal_moves(&self.position, &self.rules, out);
        if self.long_chase_may_bite() {
            out.retain(|a| !self.is_long_chase(a));
        }
    }

    /// Whether the player to move has any legal action.
    pub fn has_legal_action(&self) -> bool {
        if !self.long_chase_may_bite() {
            return movegen::has_legal_action(&self.position, &self.rules, self.position.turn());
        }
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        !actions.is_empty()
    }

    /// [`Engine::end`] when the caller already knows whether a legal action exists.
    #[inline]
    pub fn end_given(&self, has_legal_action: bool) -> Option<End> {
        self.elimination()
            .or_else(|| self.end_by_moves(has_legal_action))
    }

    /// The endings after elimination: no legal action, no progress, repetition.
    #[inline]
    fn end_by_moves(&self, has_legal_action: bool) -> Option<End> {
        let pos = &self.position;
        if !has_legal_action {
            let loser = pos.to_move();
            return Some(End::new(Outcome::win(loser.other(), 2), Reason::NO_MOVE));
        }
        let draw = |reason, period| {
            Some(End {
                outcome: Outcome::draw(2),
                reason,
                period,
            })
        };
        if self
            .rules
            .no_progress
            .is_some_and(|n| pos.no_progress() >= n as u32)
        {
            return draw(Reason::NO_PROGRESS, None);
        }
        let cap = || {
            self.rules
                .max_plies
                .is_some_and(|n| pos.ply() >= n as u32)
                .then(|| End::new(Outcome::draw(2), Reason::PLY_LIMIT))
        };
        let repeated = match self.rules.repetition {
            Repetition::Off => None,
            Repetition::Cycle { times } => self
                .quiet
                .cycle_period(times as usize)
                .and_then(|p| draw(Reason::REPETITION, Some(p as u32))),
            Repetition::Position { occurrences } => {
                if self.repetitions.count(self.key) >= occurrences as u32 {
                    draw(Reason::REPETITION, None)
                } else {
                    None
                }
            }
        };
        repeated.or_else(cap)
    }

    #[inline]
    fn elimination(&self) -> Option<End> {
        let pos = &self.position;
        // Pieces leave the game only on progress plies (captures, dark captures).
        if pos.no_progress() > 0 && pos.ply() > self.start_ply {
            return None;
        }
        let player1 = pos.color_of(Seat::FIRST)?;
        // A failed dark capture can eliminate the mover, so look at both colours.
        for color in [player1, player1.other()] {
            if pos.alive(color) == 0 {
                let loser = pos.player_of(color).expect("colours assigned");
                return Some(End::new(
                    Outcome::win(loser.other(), 2),
                    Reason::ELIMINATION,
                ));
            }
        }
        None
    }

    /// Plays an action taken from [`Engine::legal_actions`] (or a playout's pick) with its
    /// revealed pieces filled in, skipping the geometry checks: the fast path of playouts.
    /// Anything else must go through [`Engine::play`].
    #[inline]
    pub fn play_generated(&mut self, action: &Action) -> Result<Effect, IllegalAction> {
        let mover = self.position.to_move();
        // The common actions apply in place and cannot fail; the others on a copy.
        let effect = match self.position.apply_generated_fast(action) {
            Some(effect) => effect,
            None => {
                let mut next = self.position;
                let effect = next.apply(&self.rules, action, Trust::Generated)?;
                self.position = next;
                effect
            }
        };
        self.record(action, mover, effect);
        Ok(effect)
    }

    /// Keeps the history after `mover`'s action, which made the current position.
    #[inline]
    fn record(&mut self, action: &Action, mover: Seat, effect: Effect) {
        self.chases
            .record(&self.rules, &self.position, mover, &effect);
        if effect.is_progress() {
            self.quiet.clear();
            self.repetitions.clear();
        }
        match self.rules.repetition {
            Repetition::Off => {}
            Repetition::Cycle { .. } => {
                if !effect.is_progress() {
                    self.quiet.push(action.code());
                }
            }
            Repetition::Position { .. } => {
                self.key = self.position.repetition_key();
                self.repetitions.push(self.key, 0);
            }
        }
    }

    #[inline]
    pub(crate) fn long_chase_may_bite(&self) -> bool {
        self.chases.may_bite(&self.rules, &self.position)
    }

    /// Whether `action` (from the generator) is forbidden by the long-chase rule.
    fn is_long_chase(&self, action: &Action) -> bool {
        self.chases
            .forbids_action(&self.rules, &self.position, action)
    }

    /// Both players' consecutive chases so far (what the engine's search starts from).
    pub fn long_chase_counts(&self) -> LongChase {
        self.chases
    }

    /// The repetition keys of the positions since the last flip or capture, the current one
    /// excluded (what the repetition rule in force may compare the coming positions with;
    /// none when repetition is off). The engine values a return to one of them as a draw.
    pub fn earlier_positions(&self) -> Vec<u64> {
        match self.rules.repetition {
            Repetition::Off => Vec::new(),
            Repetition::Position { .. } => {
                self.repetitions.keys().filter(|k| *k != self.key).collect()
            }
            Repetition::Cycle { .. } => self
                .quiet_positions()
                .iter()
                .map(Position::repetition_key)
                .collect(),
        }
    }

    /// The positions since the last flip or capture, the current one excluded, oldest first,
    /// when the cycle rule is in force (it keeps those plies: they are undone one by one);
    /// empty under the other repetition rules.
    pub fn quiet_positions(&self) -> Vec<Position> {
        let mut at = self.position;
        let mut positions = Vec::with_capacity(self.quiet.codes().len());
        for &code in self.quiet.codes().iter().rev() {
            // Quiet plies are plain moves.
            let from = Square::new((code >> 5) as u8).expect("a quiet ply's square");
            let to = Square::new((code & 31) as u8).expect("a quiet ply's square");
            let Some(piece) = at.piece_at(to) else { break };
            at.remove(to);
            at.put_piece(from, piece);
            at.turn = at.turn.map(Color::other);
            at.ply -= 1;
            at.no_progress -= 1;
            positions.push(at);
        }
        positions.reverse();
        positions
    }

    /// Which colour a player has, once assigned.
    pub fn color_of(&self, player: Seat) -> Option<Color> {
        self.position.color_of(player)
    }
}
