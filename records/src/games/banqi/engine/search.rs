//! The search's nodes: a decision (negamax with alpha-beta), a chance node (Star1), the
//! quiescence past the horizon, and the expected line. `analyze_root` (the module above)
//! iterates them from the root.

// The module above's types, constants and imports (this is its search, split off).
use super::*;

impl Search<'_> {
    /// Whether the long-chase rule may forbid a move at `pos`, `ply` plies from the root.
    #[inline]
    pub(super) fn chase_bites(&self, pos: &Position, ply: u32) -> bool {
        self.rules.long_chase.is_some() && self.chases[ply as usize].may_bite(self.rules, pos)
    }

    /// Drops from `actions` the moves the long-chase rule forbids at `pos`, `ply` plies from
    /// the root.
    pub(super) fn allowed(&self, pos: &Position, ply: u32, actions: &mut Vec<Action>) {
        if self.chase_bites(pos, ply) {
            let counts = self.chases[ply as usize];
            actions.retain(|a| !counts.forbids_action(self.rules, pos, a));
        }
    }

    /// Keeps the long-chase counts for the child `next` of `pos` (`ply` plies from the root),
    /// which an action with `effect` made.
    #[inline]
    pub(super) fn chased(&mut self, pos: &Position, next: &Position, effect: &Effect, ply: u32) {
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
    pub(super) fn draw_value(&self, pos: &Position) -> f64 {
        match (pos.turn(), self.root) {
            (Some(me), Some(root)) if me != root => -self.draw,
            _ => self.draw,
        }
    }

    /// Whether to stop: the node budget spent or the time up (looked at every 1,024 nodes).
    pub(super) fn out_of_budget(&mut self) -> bool {
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
    pub(super) fn solved(&mut self, pos: &Position, ply: u32) -> Option<f64> {
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

    /// Counts a node entered at `pos`, `ply` plies from the root, and gives its value when no
    /// search is needed: the budget spent (0, discarded), a solved endgame, the game over.
    pub(super) fn enter(&mut self, pos: &Position, ply: u32) -> Option<f64> {
        self.nodes += 1;
        if self.out_of_budget() {
            return Some(0.0);
        }
        self.solved(pos, ply).or_else(|| self.terminal(pos, ply))
    }

    /// The value of a position where the game is over (for the side to move), `ply` plies
    /// from the root; None while it goes on.
    pub(super) fn terminal(&self, pos: &Position, ply: u32) -> Option<f64> {
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

    /// The evaluation of `pos` for its side to move, within the bound chance nodes assume: a
    /// quiescence node's stand-pat and a flip valued at the horizon.
    fn as_it_stands(&mut self, pos: &Position) -> f64 {
        self.evaluator.evaluate(pos).clamp(-self.bound, self.bound)
    }

    /// The value of playing `action` at `pos` for the side to move there.
    pub(super) fn action_value(
        &mut self,
        pos: &Position,
        action: &Action,
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: u32,
    ) -> f64 {
        if let Some(open) = open_identity(pos, action) {
            // A flip with a ply left, valued as it stands (HorizonFlips::Evaluated).
            if self.flips_evaluated && depth == 1 && matches!(action, Action::Flip { .. }) {
                self.nodes += 1;
                return self.as_it_stands(pos);
            }
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
    pub(super) fn chance(
        &mut self,
        pos: &Position,
        action: &Action,
        open: Open,
        depth: u32,
        alpha: f64,
        beta: f64,
        ply: u32,
    ) -> f64 {
        // Star1 cuts by the values' range. An analysis keeps forced results exact through
        // chance nodes (the range is ±WIN, where Star1 seldom cuts); a player counts an
        // outcome's forced result as the best or worst evaluation, a range six times
        // narrower, and cuts far more often (Ballard's Star1 is only as good as its bounds).
        let (lo, hi) = if self.play {
            (-self.bound, self.bound)
        } else {
            (-WIN, WIN)
        };
        // Star2: each outcome's value is at most what the opponent's first reply leaves
        // (a probe of that reply alone); where those bounds already average below alpha,
        // the flip is refuted without a full search of any outcome.
        let mut upper = [hi; 14];
        if self.star2 && depth >= 2 && alpha > lo {
            let (mut bound, mut rest) = (0.0, 1.0);
            for (piece, p) in outcomes(pos) {
                rest -= p;
                let filled = open.fill(*action, piece);
                let Ok((next, effect)) = pos.play(self.rules, &filled) else {
                    continue;
                };
                self.chased(pos, &next, &effect, ply);
                let u = (-self.probe(&next, depth - 1, -hi, -lo, ply + 1)).clamp(lo, hi);
                upper[piece.index()] = u;
                bound += p * u;
                if self.stopped {
                    return bound;
                }
                if bound + rest * hi <= alpha {
                    return bound + rest * hi;
                }
            }
        }
        let mut known = 0.0; // Σ p·v of the outcomes searched
        let mut left = 1.0; // the probability not yet searched
        // Σ p·(upper bound) of the outcomes not yet searched.
        let mut left_hi: f64 = outcomes(pos)
            .map(|(piece, p)| p * upper[piece.index()])
            .sum();
        for (piece, p) in outcomes(pos) {
            left -= p;
            left_hi -= p * upper[piece.index()];
            // The window this outcome's value must fall in for the average to matter.
            let child_alpha = ((alpha - known - left_hi) / p).max(lo);
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
            if known + left_hi <= alpha {
                return known + left_hi;
            }
        }
        known
    }

    /// The action buffer of `ply_index` plies from the root, taken for a node's use (put
    /// back when it is done): no allocation once every depth has had one.
    fn take_buffer(&mut self, ply_index: usize) -> Vec<Action> {
        if self.buffers.len() <= ply_index {
            self.buffers.resize_with(ply_index + 1, Vec::new);
        }
        std::mem::take(&mut self.buffers[ply_index])
    }

    /// Star2's probe: the value at `pos` of its first action by the ordering alone (the
    /// table's best first), searched `depth` plies in the window `alpha..beta` (for the side
    /// to move at `pos`): a lower bound on the position's value.
    fn probe(&mut self, pos: &Position, depth: u32, alpha: f64, beta: f64, ply: u32) -> f64 {
        if let Some(v) = self.enter(pos, ply) {
            return v;
        }
        let key = pos.repetition_key();
        if self.path.contains(&key) {
            return self.draw_value(pos);
        }
        let ply_index = ply as usize;
        let mut actions = self.take_buffer(ply_index);
        legal_actions(pos, self.rules, &mut actions);
        self.allowed(pos, ply, &mut actions);
        let stored = self.table.get(&key).and_then(|e| e.best);
        order_in_place(pos, &mut actions, stored, Some(&*self.history));
        let first = actions.first().copied();
        self.buffers[ply_index] = actions;
        let Some(first) = first else {
            return -(WIN - ply as f64);
        };
        self.path.push(key);
        let v = self.action_value(pos, &first, depth, alpha, beta, ply);
        self.path.pop();
        v
    }

    pub(super) fn negamax(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: f64,
        beta: f64,
        ply: u32,
    ) -> f64 {
        if let Some(v) = self.enter(pos, ply) {
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
        let mut actions = self.take_buffer(ply_index);
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
    pub(super) fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: f64,
        beta: f64,
        ply: u32,
        left: u32,
    ) -> f64 {
        if let Some(v) = self.enter(pos, ply) {
            return v;
        }
        let stand = self.as_it_stands(pos);
        if stand >= beta || left == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let ply_index = ply as usize;
        let mut actions = self.take_buffer(ply_index);
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
    pub(super) fn line(&mut self, pos: &Position, best: Action) -> Vec<Action> {
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

/// The outcomes of a flip or dark capture at `pos`: each kind the covered pool holds, with
/// its probability.
fn outcomes(pos: &Position) -> impl Iterator<Item = (Piece, f64)> + '_ {
    let total = pos.pool().total() as f64;
    Piece::all().filter_map(move |piece| {
        let n = pos.pool().count(piece);
        (n > 0).then(|| (piece, n as f64 / total))
    })
}
