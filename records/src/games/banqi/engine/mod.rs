//! A search that evaluates Banqi positions and suggests actions (issue 26, first step).
//!
//! Expectimax: the side to move picks the action that maximises its value (negamax with
//! alpha-beta between deterministic actions), and a flip or a dark capture is a chance node
//! whose value is the average over the pieces still covered, each weighted by how many of it
//! the pool holds. Such a node's children are searched with Star1 bounds (Ballard 1983): the
//! values already known and the evaluation's bounds say when the average can no longer reach
//! the window, and the node is cut. Iterative deepening with a transposition table keyed by the
//! position's Zobrist hash (board, covered pool, side to move), captures first, the previous
//! iteration's best action first; repetition of a position on the search path and the
//! ruleset's no-progress limit are draws.
//!
//! The search reads only the position: in Banqi a covered piece is a pool entry, never an
//! identity, so no hidden truth can reach it.
//!
//! Past the horizon a quiescence search follows captures of revealed pieces (standing pat on
//! the evaluation) until the position is quiet.
//!
//! The value at the horizon is [`evaluation`]'s: material by the capture relation and the
//! pursuit of what can be taken. A draw costs the side ahead a share of its advantage
//! (contempt), and the positions of the game since its last flip or capture count as
//! repetitions, so that the side ahead plays for progress.
//!
//! Once nothing is covered and at most four pieces are left, [`endgame`]'s tables give the
//! exact result (solved on demand, cached for the process).
//!
//! Long chase (長捉禁手, a ruleset's `long_chase`) is kept along every line the search reads:
//! each node knows both players' consecutive chases ([`LongChase`], the game's own at the
//! root), and where a count is one short of the limit the forbidden moves are not searched.
//! Such a node is neither stored in nor read from the transposition table, whose key (the
//! position) does not hold the counts.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use super::{Action, Color, Effect, LongChase, Piece, Position, Ruleset, legal_actions};
use crate::core::Turn as _;
use endgame::Solved;
pub use ordering::captures;
use ordering::{History, Open, is_quiet, open_identity, order_in_place, ordered};

mod answer;
pub mod endgame;
pub mod evaluation;
mod ordering;
pub use answer::{CALIBRATION, analyze_match, play_match, score};
pub use evaluation::{Weights, evaluate, evaluate_with};

/// The value of a won game for the side to move (less the plies it takes).
pub const WIN: f64 = 10_000.0;
/// The deepest search (in plies) when no limit stops it sooner.
pub const MAX_DEPTH: u32 = 64;
/// How many captures in a row the quiescence search follows past the horizon.
pub const QUIESCENCE_DEPTH: u32 = 8;
/// Late move reductions: from this depth, after this many actions.
const LMR_DEPTH: u32 = 3;
const LMR_AFTER: usize = 3;
/// The width of a null window: whether an action beats a value, not by how much.
const NULL_WINDOW: f64 = 1e-6;

/// What stops a search: the first limit reached (at least one iteration of depth 1 runs to
/// its end unless `nodes` or `millis` stop it first).
pub use crate::core::analysis::Limits;

/// A search's answer, in the game's types ([`crate::core::analysis::Analysis`] is what the
/// service and the batch tool show).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// The action to play (a flip or dark capture without its identity); None when the game
    /// is over at the position.
    pub best: Option<Action>,
    /// The value for the side to move: material points ahead (positive: ahead), or ±(WIN −
    /// plies) for a result the search sees forced.
    pub score: f64,
    /// The expected line from the best action, as far as no chance node interrupts it.
    pub line: Vec<Action>,
    /// Every root action with its value at the deepest completed depth, best first. In
    /// [`Mode::Play`] only the first is a value: the others are bounds it beats.
    pub actions: Vec<(Action, f64)>,
    /// The deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
    /// Whether a limit stopped an iteration midway (its partial result used only when no
    /// iteration completed).
    pub stopped: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone, Debug)]
struct Entry {
    depth: u32,
    value: f64,
    bound: Bound,
    best: Option<Action>,
}

/// What to search: a position, its ruleset, the game's positions before it and the
/// evaluation's weights.
#[derive(Copy, Clone, Debug)]
pub struct Root<'a> {
    pub position: &'a Position,
    pub rules: &'a Ruleset,
    /// The repetition keys ([`Position::repetition_key`]) of the game's positions since its
    /// last flip or capture, the current one excluded ([`super::Match::earlier_positions`]):
    /// returning to one of them is valued as a draw. Empty for a bare position.
    pub earlier: &'a [u64],
    /// Both players' consecutive chases at the position ([`super::Match::long_chase_counts`]),
    /// for a ruleset with the long-chase rule. All zero for a bare position.
    pub chases: LongChase,
    pub weights: &'a Weights,
    /// What the search is for: an analysis, or a move under a clock.
    pub mode: Mode,
}

/// What a search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// An analysis (the service, a review): every root action is valued, and the solved
    /// endgames the game is near are readied on a thread of their own for the requests that
    /// follow.
    Analysis,
    /// A player's move under a clock (the bots): all of the move's work is done on the
    /// caller's thread within its limits, so that a time per move is the time the move
    /// took, whatever the machine runs beside it. No thread is started: a table the search
    /// needs is solved in the move's own time or not used.
    Play,
}

impl<'a> Root<'a> {
    /// A bare position (no history) with the engine's weights, analysed.
    pub fn new(position: &'a Position, rules: &'a Ruleset) -> Root<'a> {
        Root {
            position,
            rules,
            earlier: &[],
            chases: LongChase::default(),
            weights: &Weights::TUNED,
            mode: Mode::Analysis,
        }
    }
}

struct Search<'a> {
    rules: &'a Ruleset,
    evaluator: evaluation::Evaluator<'a>,
    /// The evaluation's bound (Star1 needs the values' range).
    bound: f64,
    /// A player's search ([`Mode::Play`]).
    play: bool,
    /// The quiet actions that cut the search off (a player's search orders by them; an
    /// analysis keeps the generator's order, so that its every action's value comes the same
    /// way whatever was searched before).
    history: Box<History>,
    /// The side to move at the root and what a draw is worth to it (minus the contempt).
    root: Option<Color>,
    draw: f64,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    /// The positions on the path from the root (repetition).
    path: Vec<u64>,
    /// The long-chase counts at each ply of the path (kept only under a ruleset with it).
    chases: Vec<LongChase>,
    table: HashMap<u64, Entry>,
    /// One action buffer per ply: the search allocates only while it goes deeper than before.
    buffers: Vec<Vec<Action>>,
    /// The solved endgames met so far.
    endgames: endgame::Probe,
}

/// Searches `pos` under `rules` within `limits` (none given: depth 4), as a bare position
/// with the engine's weights.
pub fn analyze(pos: &Position, rules: &Ruleset, limits: &Limits) -> Answer {
    analyze_root(&Root::new(pos, rules), limits)
}

/// Searches `root` within `limits` (none given: depth 4).
pub fn analyze_root(root_at: &Root, limits: &Limits) -> Answer {
    let (pos, rules) = (root_at.position, root_at.rules);
    let weights = root_at.weights;
    let bound = weights.bound();
    let root_value = evaluate_with(pos, rules, weights);
    let no_limit = limits.depth.is_none() && limits.nodes.is_none() && limits.millis.is_none();
    let max_depth = if no_limit {
        4
    } else {
        limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
    };
    let mut search = Search {
        rules,
        evaluator: evaluation::Evaluator::new(rules, weights),
        bound,
        play: root_at.mode == Mode::Play,
        history: Box::new(History::new()),
        root: pos.turn(),
        draw: -(weights.contempt * root_value + weights.draw_cost).clamp(-bound, bound),
        nodes: 0,
        max_nodes: limits.nodes.unwrap_or(u64::MAX),
        deadline: limits
            .millis
            .map(|ms| Instant::now() + Duration::from_millis(ms)),
        stopped: false,
        path: Vec::with_capacity(MAX_DEPTH as usize + 2),
        chases: vec![root_at.chases],
        table: HashMap::new(),
        buffers: Vec::new(),
        endgames: endgame::Probe::new(pos, rules, limits.millis.is_some()),
    };
    // The solved endgames this game is near (endgame::prepare; before the search's view of
    // them, which takes its root's own table when readied).
    endgame::prepare(
        pos,
        rules,
        limits.millis.is_none_or(|ms| ms >= endgame::WAIT_MILLIS),
        root_at.mode == Mode::Analysis,
    );
    let play = root_at.mode == Mode::Play;
    let mut root = Vec::new();
    legal_actions(pos, rules, &mut root);
    search.allowed(pos, 0, &mut root);
    let mut answer = Answer {
        best: None,
        score: 0.0,
        line: Vec::new(),
        actions: Vec::new(),
        depth: 0,
        nodes: 0,
        stopped: false,
    };
    // The game is over here: its value, no action.
    if let Some(v) = search.terminal(pos, 0) {
        answer.score = v;
        return answer;
    }
    if root.is_empty() {
        answer.score = -WIN;
        return answer;
    }
    for depth in 1..=max_depth {
        // The previous iteration's order: its best first.
        let order: Vec<Action> = if answer.actions.is_empty() {
            ordered(pos, &root)
        } else {
            answer.actions.iter().map(|(a, _)| *a).collect()
        };
        let mut scored = Vec::with_capacity(order.len());
        search.path.clear();
        search.path.extend_from_slice(root_at.earlier);
        search.path.push(pos.repetition_key());
        // An analysis values every root action; a player needs only the best, so after the
        // first each action is asked only whether it beats the best so far (a null window
        // around it), and searched in full only if it does.
        let mut alpha = -WIN - 1.0;
        for (i, action) in order.into_iter().enumerate() {
            let value = if play && i > 0 {
                let v = search.action_value(pos, &action, depth, alpha, alpha + NULL_WINDOW, 0);
                if v > alpha && !search.stopped {
                    search.action_value(pos, &action, depth, alpha, WIN + 1.0, 0)
                } else {
                    v
                }
            } else {
                search.action_value(pos, &action, depth, -WIN - 1.0, WIN + 1.0, 0)
            };
            if search.stopped {
                break;
            }
            scored.push((action, value));
            alpha = alpha.max(value);
        }
        if search.stopped {
            answer.stopped = true;
            // A player takes the best of the actions this iteration completed, the previous
            // best (searched first) among them: deeper, so better informed.
            if play && answer.depth > 0 && !scored.is_empty() {
                sort(&mut scored);
                answer.best = Some(scored[0].0);
                answer.score = scored[0].1;
            }
            // No completed iteration: the actions searched so far are the best answer, and
            // with none searched, the first in the search's order at the static value.
            if answer.depth == 0 {
                if scored.is_empty() {
                    let first = ordered(pos, &root)[0];
                    scored.push((first, root_value));
                }
                sort(&mut scored);
                answer.best = Some(scored[0].0);
                answer.score = scored[0].1;
                answer.actions = scored;
            }
            break;
        }
        sort(&mut scored);
        answer.best = Some(scored[0].0);
        answer.score = scored[0].1;
        answer.actions = scored;
        answer.depth = depth;
        // A forced result is final: deeper cannot change it.
        if answer.score.abs() > WIN - 1_000.0 {
            break;
        }
    }
    answer.nodes = search.nodes;
    if let Some(best) = answer.best {
        answer.line = search.line(pos, best);
    }
    answer
}

/// Best first; ties keep the order given (deterministic).
fn sort(scored: &mut [(Action, f64)]) {
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
}

impl Search<'_> {
    /// Whether the long-chase rule may forbid a move at `pos`, `ply` plies from the root.
    #[inline]
    fn chase_bites(&self, pos: &Position, ply: u32) -> bool {
        self.rules.long_chase.is_some() && self.chases[ply as usize].may_bite(self.rules, pos)
    }

    /// Drops from `actions` the moves the long-chase rule forbids at `pos`, `ply` plies from
    /// the root.
    fn allowed(&self, pos: &Position, ply: u32, actions: &mut Vec<Action>) {
        if self.chase_bites(pos, ply) {
            let counts = self.chases[ply as usize];
            actions.retain(|a| !counts.forbids_action(self.rules, pos, a));
        }
    }

    /// Keeps the long-chase counts for the child `next` of `pos` (`ply` plies from the root),
    /// which an action with `effect` made.
    #[inline]
    fn chased(&mut self, pos: &Position, next: &Position, effect: &Effect, ply: u32) {
        if self.rules.long_chase.is_none() {
            return;
        }
        let child = ply as usize + 1;
        let mut counts = self.chases[child - 1];
        counts.record(self.rules, next, pos.to_move(), effect);
        if self.chases.len() <= child {
            self.chases.resize(child + 1, LongChase::default());
        }
        self.chases[child] = counts;
    }

    /// What a draw is worth to the side to move at `pos`.
    fn draw_value(&self, pos: &Position) -> f64 {
        match (pos.turn(), self.root) {
            (Some(me), Some(root)) if me != root => -self.draw,
            _ => self.draw,
        }
    }

    /// Whether to stop: the node budget spent or the time up (looked at every 1,024 nodes).
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.max_nodes {
            self.stopped = true;
        } else if self.nodes & 1023 == 0
            && let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// The exact value of a solved endgame (for the side to move), `ply` plies from the root.
    fn solved(&mut self, pos: &Position, ply: u32) -> Option<f64> {
        if !pos.covered().is_empty() {
            return None;
        }
        // A table's line is a few hundred plies at most; kept below the forced results'
        // threshold (WIN − 1,000) all the same.
        let plies = |p: u32| (ply + p).min(900) as f64;
        Some(match self.endgames.probe(pos, self.rules)? {
            Solved::Won { plies: p } => WIN - plies(p),
            Solved::Lost { plies: p } => -(WIN - plies(p)),
            Solved::Drawn => self.draw_value(pos),
        })
    }

    /// The value of a position where the game is over (for the side to move), `ply` plies
    /// from the root; None while it goes on.
    fn terminal(&self, pos: &Position, ply: u32) -> Option<f64> {
        if let Some(me) = pos.turn() {
            if pos.alive(me) == 0 {
                return Some(-(WIN - ply as f64));
            }
            if pos.alive(me.other()) == 0 {
                return Some(WIN - ply as f64);
            }
        }
        if self
            .rules
            .no_progress
            .is_some_and(|n| pos.no_progress() >= n as u32)
        {
            return Some(self.draw_value(pos));
        }
        None
    }

    /// The value of playing `action` at `pos` for the side to move there.
    fn action_value(
        &mut self,
        pos: &Position,
        action: &Action,
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: u32,
    ) -> f64 {
        if let Some(open) = open_identity(pos, action) {
            return self.chance(pos, action, open, depth, alpha, beta, ply);
        }
        match pos.play(self.rules, action) {
            Ok((next, effect)) => {
                self.chased(pos, &next, &effect, ply);
                -self.negamax(&next, depth - 1, -beta, -alpha, ply + 1)
            }
            // A listed action always plays; were one refused, it is never chosen.
            Err(_) => -WIN - 1.0,
        }
    }

    /// A flip or dark capture: the average over the covered pieces, with Star1's cuts.
    #[allow(clippy::too_many_arguments)]
    fn chance(
        &mut self,
        pos: &Position,
        action: &Action,
        open: Open,
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: u32,
    ) -> f64 {
        let total = pos.pool().total() as f64;
        // Star1 cuts by the values' range. An analysis keeps forced results exact through
        // chance nodes (the range is ±WIN, where Star1 seldom cuts); a player counts an
        // outcome's forced result as the best or worst evaluation, a range six times
        // narrower, and cuts far more often (Ballard's Star1 is only as good as its bounds).
        let (lo, hi) = if self.play {
            (-self.bound, self.bound)
        } else {
            (-WIN, WIN)
        };
        let mut known = 0.0; // Σ p·v of the outcomes searched
        let mut left = 1.0; // the probability not yet searched
        for piece in Piece::all() {
            let n = pos.pool().count(piece);
            if n == 0 {
                continue;
            }
            let p = n as f64 / total;
            left -= p;
            // The window this outcome's value must fall in for the average to matter.
            let child_alpha = ((alpha - known - left * hi) / p).max(lo);
            let child_beta = ((beta - known - left * lo) / p).min(hi);
            let filled = open.fill(*action, piece);
            let v = match pos.play(self.rules, &filled) {
                Ok((next, effect)) => {
                    self.chased(pos, &next, &effect, ply);
                    -self.negamax(&next, depth - 1, -child_beta, -child_alpha, ply + 1)
                }
                Err(_) => 0.0,
            }
            .clamp(lo, hi);
            known += p * v;
            if self.stopped {
                return known;
            }
            // Star1: the average is now known to be out of the window.
            if known + left * lo >= beta {
                return known + left * lo;
            }
            if known + left * hi <= alpha {
                return known + left * hi;
            }
        }
        known
    }

    fn negamax(&mut self, pos: &Position, depth: u32, mut alpha: f64, beta: f64, ply: u32) -> f64 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0.0;
        }
        if let Some(v) = self.solved(pos, ply) {
            return v;
        }
        if let Some(v) = self.terminal(pos, ply) {
            return v;
        }
        let key = pos.repetition_key();
        if self.path.contains(&key) {
            return self.draw_value(pos);
        }
        if depth == 0 {
            return self.quiesce(pos, alpha, beta, ply, QUIESCENCE_DEPTH);
        }
        let original_alpha = alpha;
        let mut first = None;
        // Where the long-chase rule forbids moves, the node's value depends on the counts,
        // which the table's key does not hold.
        let chase_bites = self.chase_bites(pos, ply);
        if let Some(e) = self.table.get(&key).filter(|_| !chase_bites) {
            if e.depth >= depth {
                match e.bound {
                    Bound::Exact => return e.value,
                    Bound::Lower if e.value >= beta => return e.value,
                    Bound::Upper if e.value <= alpha => return e.value,
                    _ => {}
                }
            }
            first = e.best;
        }
        let ply_index = ply as usize;
        if self.buffers.len() <= ply_index {
            self.buffers.resize_with(ply_index + 1, Vec::new);
        }
        let mut actions = std::mem::take(&mut self.buffers[ply_index]);
        legal_actions(pos, self.rules, &mut actions);
        if chase_bites {
            self.allowed(pos, ply, &mut actions);
        }
        if actions.is_empty() {
            self.buffers[ply_index] = actions;
            return -(WIN - ply as f64);
        }
        let history = self.play.then_some(&*self.history);
        order_in_place(pos, &mut actions, first, history);
        self.path.push(key);
        let mut best = f64::NEG_INFINITY;
        let mut best_action = None;
        for (i, action) in actions.iter().enumerate() {
            // Late move reductions (a player's search): a quiet move the ordering put late is
            // first searched a ply shallower, asked only whether it beats the best so far, and
            // searched in full only if it does. Flips and captures never are.
            let reduced = self.play
                && depth >= LMR_DEPTH
                && i >= LMR_AFTER
                && Some(*action) != first
                && matches!(action, Action::Move(_))
                && is_quiet(pos, action);
            let v = if reduced {
                let v = self.action_value(pos, action, depth - 1, alpha, alpha + NULL_WINDOW, ply);
                if v > alpha && !self.stopped {
                    self.action_value(pos, action, depth, alpha, beta, ply)
                } else {
                    v
                }
            } else {
                self.action_value(pos, action, depth, alpha, beta, ply)
            };
            if self.stopped {
                break;
            }
            if v > best {
                best = v;
                best_action = Some(*action);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                if self.play && is_quiet(pos, action) {
                    self.history.cut(action, depth);
                }
                break;
            }
        }
        self.path.pop();
        self.buffers[ply_index] = actions;
        if self.stopped {
            return best.max(-WIN);
        }
        if chase_bites {
            return best;
        }
        let bound = if best <= original_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.insert(
            key,
            Entry {
                depth,
                value: best,
                bound,
                best: best_action,
            },
        );
        best
    }

    /// Past the horizon, captures of revealed pieces only (no flip, no dark capture: no
    /// chance), until the position is quiet; the side to move may also stand on the
    /// evaluation ("stand pat"), so a capture is searched only where it could do better.
    fn quiesce(&mut self, pos: &Position, mut alpha: f64, beta: f64, ply: u32, left: u32) -> f64 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0.0;
        }
        if let Some(v) = self.solved(pos, ply) {
            return v;
        }
        if let Some(v) = self.terminal(pos, ply) {
            return v;
        }
        let stand = self.evaluator.evaluate(pos).clamp(-self.bound, self.bound);
        if stand >= beta || left == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let ply_index = ply as usize;
        if self.buffers.len() <= ply_index {
            self.buffers.resize_with(ply_index + 1, Vec::new);
        }
        let mut actions = std::mem::take(&mut self.buffers[ply_index]);
        captures(pos, self.rules, &mut actions);
        self.allowed(pos, ply, &mut actions);
        let mut best = stand;
        for action in actions.iter() {
            let Ok((next, effect)) = pos.play(self.rules, action) else {
                continue;
            };
            self.chased(pos, &next, &effect, ply);
            let v = -self.quiesce(&next, -beta, -alpha, ply + 1, left - 1);
            if self.stopped {
                break;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.buffers[ply_index] = actions;
        best
    }

    /// The expected line from `best`: the table's best actions (a solved endgame's where the
    /// search stored none) while no chance node comes.
    fn line(&mut self, pos: &Position, best: Action) -> Vec<Action> {
        let mut line = vec![best];
        if open_identity(pos, &best).is_some() {
            return line;
        }
        let Ok((mut at, effect)) = pos.play(self.rules, &best) else {
            return line;
        };
        let mut counts = self.chases[0];
        counts.record(self.rules, &at, pos.to_move(), &effect);
        let mut seen = vec![pos.repetition_key()];
        while line.len() < MAX_DEPTH as usize {
            let key = at.repetition_key();
            if seen.contains(&key) {
                break;
            }
            seen.push(key);
            let stored = self.table.get(&key).and_then(|e| e.best);
            let Some(next) = stored.or_else(|| self.endgames.best(&at, self.rules)) else {
                break;
            };
            // A stored action the counts of this line forbid ends it (the table was filled
            // along other lines).
            if counts.may_bite(self.rules, &at) && counts.forbids_action(self.rules, &at, &next) {
                break;
            }
            line.push(next);
            if open_identity(&at, &next).is_some() {
                break;
            }
            match at.play(self.rules, &next) {
                Ok((after, effect)) => {
                    counts.record(self.rules, &after, at.to_move(), &effect);
                    at = after;
                }
                Err(_) => break,
            }
        }
        line
    }
}
