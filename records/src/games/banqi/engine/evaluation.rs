//! The search's static value of a Banqi position: material by the capture relation, and the
//! pursuit that turns an advantage into captures.
//!
//! Scoring points (RULES.md §6) say what a piece is worth at the end of a game; during one a
//! piece is worth what it can still do. A piece's worth here is its base value scaled by the
//! share of its possible victims still in the game, plus a bonus while no enemy piece left
//! can take it (a general once the enemy soldiers and cannons are gone can no longer be
//! captured). Both sides' covered pieces count, at their worth, as what they will be: a flip
//! changes no material (the pool is public).
//!
//! Material alone cannot tell a quiet shuffle from a plan, and Banqi games between such
//! searches end drawn by the no-progress rule. So each revealed piece also earns a small
//! share of the best enemy piece it could take, by how near it stands: the side ahead then
//! closes in, and the search's horizon finds the capture. The weights are [`Weights`], tuned
//! by self-play (docs/engine.md says how to repeat the run).

use super::super::movegen::beats_by_rank;
use super::super::{CannonRule, Color, Position, Role, Ruleset};

/// The evaluation's parameters (one set, [`Weights::TUNED`], is the engine's).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Weights {
    /// Each role's worth with all its victims alive, in the engine's units (General, Advisor,
    /// Elephant, Chariot, Horse, Cannon, Soldier).
    pub base: [f64; 7],
    /// The share of a piece's base worth that depends on its victims still being alive
    /// (0: fixed values; 1: a piece with nothing left to take is worth nothing).
    pub victims: f64,
    /// The bonus, as a share of the base worth, of a piece no enemy piece left can take.
    pub untouchable: f64,
    /// The share of a victim's worth a revealed piece earns standing next to it (halved with
    /// each step further away).
    pub pursuit: f64,
    /// The share of the material ahead (at the root) that a draw costs the side ahead: it
    /// then avoids repeating and the no-progress clock, and the side behind seeks them.
    pub contempt: f64,
    /// What a draw costs the side to move at the root besides: it then takes a fair chance
    /// (a flip) rather than a sure draw.
    pub draw_cost: f64,
}

impl Weights {
    /// The engine's weights (docs/engine.md: the self-play run that chose them).
    pub const TUNED: Weights = Weights {
        victims: 0.4,
        ..Weights::START
    };

    /// The tuned weights without the draw's contempt, for analyses: a draw is 0 for both
    /// sides, so a position's score does not depend on which side would rather have it (the
    /// bots play with contempt, an evaluation bar shows this).
    pub const ANALYSIS: Weights = Weights {
        contempt: 0.0,
        draw_cost: 0.0,
        ..Weights::TUNED
    };

    /// Where `anqi tune` starts: chosen by hand (docs/engine.md).
    pub const START: Weights = Weights {
        base: [60.0, 40.0, 20.0, 12.0, 8.0, 30.0, 8.0],
        victims: 0.6,
        untouchable: 0.5,
        pursuit: 0.1,
        contempt: 0.3,
        draw_cost: 5.0,
    };

    /// Material at scoring points, nothing else: the first step's evaluation.
    pub const MATERIAL: Weights = Weights {
        base: [9.0, 8.0, 3.0, 2.0, 1.0, 4.0, 1.0],
        victims: 0.0,
        untouchable: 0.0,
        pursuit: 0.0,
        contempt: 0.0,
        draw_cost: 0.0,
    };

    /// The largest value an evaluation can take (for the search's bounds): one side's every
    /// piece at its base worth with the untouchable bonus, and each of its sixteen pursuing
    /// the most valuable piece next to it (the other side with nothing).
    pub fn bound(&self) -> f64 {
        const COUNTS: [f64; 7] = [1.0, 2.0, 2.0, 2.0, 2.0, 2.0, 5.0];
        let most = self.base.iter().copied().fold(0.0, f64::max);
        let material: f64 = self.base.iter().zip(COUNTS).map(|(b, n)| b * n).sum();
        (1.0 + self.untouchable) * (material + 16.0 * self.pursuit * most)
    }
}

/// Whether a `attacker` can ever capture a revealed `target` under `rules` (rank, or a
/// Taiwan cannon's jump, which takes anything).
fn beats(rules: &Ruleset, attacker: Role, target: Role) -> bool {
    (attacker == Role::Cannon && rules.cannon == CannonRule::Taiwan)
        || beats_by_rank(attacker, target)
}

/// Manhattan distance between squares by index (4 files, 8 ranks).
const DISTANCE: [[u8; 32]; 32] = {
    let mut t = [[0u8; 32]; 32];
    let mut a = 0;
    while a < 32 {
        let mut b = 0;
        while b < 32 {
            let df = (a % 4) as i32 - (b % 4) as i32;
            let dr = (a / 4) as i32 - (b / 4) as i32;
            t[a][b] = (df.abs() + dr.abs()) as u8;
            b += 1;
        }
        a += 1;
    }
    t
};

/// What one evaluation knows of the material: each role's worth for each colour now.
struct Worths {
    worth: [[f64; 7]; 2],
}

impl Worths {
    fn new(pos: &Position, rules: &Ruleset, w: &Weights) -> Worths {
        Worths::from_census(&pos.census(), rules, w)
    }

    /// The worths given the pieces alive per colour and role (revealed or covered).
    fn from_census(census: &[u8; 14], rules: &Ruleset, w: &Weights) -> Worths {
        let alive = |c: usize, r: usize| census[c * 7 + r] as f64;
        let mut worth = [[0.0; 7]; 2];
        for (c, row) in worth.iter_mut().enumerate() {
            let enemy = 1 - c;
            for (r, cell) in row.iter_mut().enumerate() {
                let role = Role::ALL[r];
                let (mut victims, mut all_victims, mut hunters) = (0.0, 0.0, 0.0);
                for (t, &target) in Role::ALL.iter().enumerate() {
                    if beats(rules, role, target) {
                        victims += alive(enemy, t) * w.base[t];
                        all_victims += target.count() as f64 * w.base[t];
                    }
                    if beats(rules, target, role) {
                        hunters += alive(enemy, t);
                    }
                }
                let share = if all_victims > 0.0 {
                    victims / all_victims
                } else {
                    0.0
                };
                let base = w.base[r];
                *cell = base * (1.0 - w.victims + w.victims * share)
                    + if hunters == 0.0 {
                        base * w.untouchable
                    } else {
                        0.0
                    };
            }
        }
        Worths { worth }
    }

    fn material(&self, pos: &Position, color: Color) -> f64 {
        let c = color.index();
        let mut sum = 0.0;
        for s in pos.revealed(color) {
            sum += self.worth[c][pos.piece_at(s).expect("revealed").role.index()];
        }
        for (r, &v) in self.worth[c].iter().enumerate() {
            sum += v * pos
                .pool()
                .count(super::super::Piece::new(color, Role::ALL[r])) as f64;
        }
        sum
    }

    /// The pursuit term of `color`: for each revealed piece, a share of the best enemy piece
    /// it could take, halved per step of distance beyond the first.
    fn pursuit(&self, pos: &Position, rules: &Ruleset, color: Color, w: &Weights) -> f64 {
        let enemy = color.other();
        let mut sum = 0.0;
        for s in pos.revealed(color) {
            let role = pos.piece_at(s).expect("revealed").role;
            let mut best: f64 = 0.0;
            for t in pos.revealed(enemy) {
                let target = pos.piece_at(t).expect("revealed").role;
                if !beats(rules, role, target) {
                    continue;
                }
                let d = DISTANCE[s.index()][t.index()].max(1) as i32;
                let v = self.worth[enemy.index()][target.index()] / f64::from(1u32 << (d - 1));
                best = best.max(v);
            }
            sum += best;
        }
        sum * w.pursuit
    }
}

/// The value of `pos` for the side to move under `weights` (0 before colours are known).
pub fn evaluate_with(pos: &Position, rules: &Ruleset, weights: &Weights) -> f64 {
    let Some(me) = pos.turn() else { return 0.0 };
    let worths = Worths::new(pos, rules, weights);
    let mut v = worths.material(pos, me) - worths.material(pos, me.other());
    if weights.pursuit != 0.0 {
        v += worths.pursuit(pos, rules, me, weights)
            - worths.pursuit(pos, rules, me.other(), weights);
    }
    v
}

/// `1 / 2^(d − 1)` for a distance `d` (1 for 0: a piece is never on its victim's square).
const HALVES: [f64; 16] = {
    let mut t = [1.0; 16];
    let mut d = 2;
    while d < 16 {
        t[d] = t[d - 1] / 2.0;
        d += 1;
    }
    t
};

/// Worths cached per census (a census changes only with a capture, so a search meets few).
const CACHE: usize = 256;

/// The evaluation as the search runs it: the value of [`evaluate_with`], the board read once
/// per position into a bitboard per colour and role, each census's worths computed once.
pub(super) struct Evaluator<'a> {
    weights: &'a Weights,
    rules: &'a Ruleset,
    /// For each attacking role, the roles it can capture (bit = role index).
    victims: [u8; 7],
    /// (packed census, worths), direct-mapped; `u64::MAX` is empty.
    cache: Box<[(u64, [[f64; 7]; 2]); CACHE]>,
}

impl<'a> Evaluator<'a> {
    pub(super) fn new(rules: &'a Ruleset, weights: &'a Weights) -> Evaluator<'a> {
        let mut victims = [0u8; 7];
        for (a, mask) in victims.iter_mut().enumerate() {
            for (t, &target) in Role::ALL.iter().enumerate() {
                if beats(rules, Role::ALL[a], target) {
                    *mask |= 1 << t;
                }
            }
        }
        Evaluator {
            weights,
            rules,
            victims,
            cache: Box::new([(u64::MAX, [[0.0; 7]; 2]); CACHE]),
        }
    }

    /// [`evaluate_with`] of `pos` under the evaluator's ruleset and weights.
    pub(super) fn evaluate(&mut self, pos: &Position) -> f64 {
        let Some(me) = pos.turn() else { return 0.0 };
        let mut census = *pos.pool().counts();
        let mut boards = [[0u32; 7]; 2];
        // A revealed square's cell is 2 + the piece's index (side · 7 + role).
        for s in pos.revealed_all() {
            let piece = pos.cells[s.index()] as usize - 2;
            census[piece] += 1;
            boards[piece / 7][piece % 7] |= 1 << s.index();
        }
        let worth = self.worths(&census);
        let (m, o) = (me.index(), me.other().index());
        let material =
            |c: usize| -> f64 { (0..7).map(|r| census[c * 7 + r] as f64 * worth[c][r]).sum() };
        let mut v = material(m) - material(o);
        if self.weights.pursuit != 0.0 {
            v += self.weights.pursuit
                * (self.pursuit(&boards, &worth, m) - self.pursuit(&boards, &worth, o));
        }
        v
    }

    fn worths(&mut self, census: &[u8; 14]) -> [[f64; 7]; 2] {
        let key = census.iter().fold(0u64, |k, &n| k << 3 | n as u64);
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize % CACHE;
        if self.cache[slot].0 == key {
            return self.cache[slot].1;
        }
        let worth = Worths::from_census(census, self.rules, self.weights).worth;
        self.cache[slot] = (key, worth);
        worth
    }

    /// For each revealed piece of colour `c`, the best enemy piece it could take, by its
    /// worth halved per step beyond the first (unweighted).
    fn pursuit(&self, boards: &[[u32; 7]; 2], worth: &[[f64; 7]; 2], c: usize) -> f64 {
        let enemy = 1 - c;
        let mut sum = 0.0;
        for (r, &mine) in boards[c].iter().enumerate() {
            let mut pieces = mine;
            while pieces != 0 {
                let s = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let mut best: f64 = 0.0;
                let mut roles = self.victims[r];
                while roles != 0 {
                    let t = roles.trailing_zeros() as usize;
                    roles &= roles - 1;
                    let mut targets = boards[enemy][t];
                    while targets != 0 {
                        let u = targets.trailing_zeros() as usize;
                        targets &= targets - 1;
                        best = best.max(worth[enemy][t] * HALVES[DISTANCE[s][u] as usize]);
                    }
                }
                sum += best;
            }
        }
        sum
    }
}

/// The engine's value of `pos` for the side to move ([`Weights::TUNED`]).
pub fn evaluate(pos: &Position, rules: &Ruleset) -> f64 {
    evaluate_with(pos, rules, &Weights::TUNED)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::banqi::{Banqi, PRESETS};

    #[test]
    fn the_search_evaluates_as_the_definition_does() {
        // Positions of random games under every preset (cannon rules, dark captures), with
        // the tuned weights and with others, read through one evaluator each (its cache too).
        for weights in [Weights::TUNED, Weights::START, Weights::MATERIAL] {
            for preset in PRESETS {
                let mut evaluator = Evaluator::new(&preset.ruleset, &weights);
                for seed in 0..4 {
                    let record = crate::core::play::random_record::<Banqi>(preset, seed, 120);
                    let (positions, _) = crate::core::replay::replay::<Banqi>(&record);
                    for pos in positions {
                        let want = evaluate_with(&pos, &preset.ruleset, &weights);
                        let got = evaluator.evaluate(&pos);
                        assert!((got - want).abs() < 1e-9, "{pos}: {got} vs {want}");
                    }
                }
            }
        }
    }
}
