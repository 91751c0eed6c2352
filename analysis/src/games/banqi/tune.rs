//! `anqi tune`: Banqi's evaluation weights tuned by self-play.
//!
//! A coordinate search from a documented start: for each weight in turn, a candidate one step
//! up and one step down plays the current weights over the same deals, each deal twice with
//! the colours swapped, every move searched to the same node budget (so the run is the same
//! on every machine). A candidate that scores at least [`ACCEPT`] replaces the current
//! weights. Every match is printed; the last line is the weights to paste into
//! `Weights::TUNED`.

use std::sync::atomic::{AtomicU64, Ordering};

use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use rayon::prelude::*;
use records::core::play::play_out;
use records::core::{Engine as _, Seat, Truth as _, Turn as _};
use records::games::banqi::engine::{self, Limits, Weights};
use records::games::banqi::{Banqi, Match, Ruleset};

use crate::games::TuneOptions;
use crate::simulate::game_seed;

/// What a candidate must score against the current weights to replace them.
pub const ACCEPT: f64 = 0.53;

/// One weight of [`Weights`] and its steps.
struct Knob {
    name: &'static str,
    get: fn(&Weights) -> f64,
    set: fn(&mut Weights, f64),
    /// The step: added and subtracted, or (for a factor) multiplied and divided.
    step: f64,
    factor: bool,
}

macro_rules! knob {
    ($name:literal, ($($field:tt)+), $step:expr, $factor:expr) => {
        Knob {
            name: $name,
            get: |w| w.$($field)+,
            set: |w, v| w.$($field)+ = v,
            step: $step,
            factor: $factor,
        }
    };
}

const KNOBS: &[Knob] = &[
    knob!("victims", (victims), 0.2, false),
    knob!("untouchable", (untouchable), 0.25, false),
    knob!("pursuit", (pursuit), 2.0, true),
    knob!("contempt", (contempt), 0.2, false),
    knob!("draw_cost", (draw_cost), 5.0, false),
    knob!("general", (base[0]), 1.25, true),
    knob!("advisor", (base[1]), 1.25, true),
    knob!("elephant", (base[2]), 1.25, true),
    knob!("chariot", (base[3]), 1.25, true),
    knob!("horse", (base[4]), 1.25, true),
    knob!("cannon", (base[5]), 1.25, true),
    knob!("soldier", (base[6]), 1.25, true),
];

/// The score (1 a win, ½ a draw) of `candidate` against `current` over `options.deals`
/// deals, each played twice with the colours swapped.
pub fn score(
    candidate: &Weights,
    current: &Weights,
    options: &TuneOptions,
    bar: &ProgressBar,
) -> f64 {
    let rules = Ruleset::TCGA;
    let points = AtomicU64::new(0);
    (0..options.deals * 2).into_par_iter().for_each(|i| {
        let deal = i / 2;
        let candidate_first = i % 2 == 0;
        let mut rng = SmallRng::seed_from_u64(game_seed(options.seed, deal));
        let hidden = Banqi::deal(&rules, &mut rng);
        let start = Banqi::start(&rules, Some(&hidden)).expect("a dealt truth sets up a start");
        let weights = |m: &Match| {
            let first = m.position().to_move() == Seat::FIRST;
            if first == candidate_first {
                candidate
            } else {
                current
            }
        };
        // None when the side to move has no action: the game ends.
        let choose = |m: &Match| {
            let limits = Limits {
                nodes: Some(options.nodes),
                ..Limits::default()
            };
            engine::play_match(m, weights(m), &limits).best
        };
        let (_, end) = play_out::<Banqi>(
            Match::from_position(rules, start),
            Some(&hidden),
            options.max_plies,
            choose,
            |_, _| {},
        );
        let candidate_seat = if candidate_first {
            Seat::FIRST
        } else {
            Seat::FIRST.other()
        };
        // Half points, to count in integers.
        let halves = end.map_or(1, |e| {
            (e.outcome.score(candidate_seat) * 2.0).round() as u64
        });
        points.fetch_add(halves, Ordering::Relaxed);
        bar.inc(1);
    });
    points.load(Ordering::Relaxed) as f64 / 2.0 / (options.deals * 2) as f64
}

/// Runs the coordinate search from `start`, printing each match; gives the weights found.
pub fn tune(start: Weights, options: &TuneOptions) -> Weights {
    let matches = options.rounds as u64 * KNOBS.len() as u64 * 2;
    let bar = ProgressBar::new(matches * options.deals * 2);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} ({eta} left)")
            .expect("a fixed template"),
    );
    let mut current = start;
    println!("start: {}", show(&current));
    for round in 1..=options.rounds {
        for knob in KNOBS {
            let now = (knob.get)(&current);
            let steps = if knob.factor {
                [now * knob.step, now / knob.step]
            } else {
                [now + knob.step, (now - knob.step).max(0.0)]
            };
            for value in steps {
                if value == now {
                    continue;
                }
                let mut candidate = current;
                (knob.set)(&mut candidate, value);
                let s = score(&candidate, &current, options, &bar);
                let kept = s >= ACCEPT;
                bar.suspend(|| {
                    println!(
                        "round {round} {:<11} {now:>7.3} -> {value:>7.3}: {:5.1}%{}",
                        knob.name,
                        s * 100.0,
                        if kept { "  kept" } else { "" }
                    )
                });
                if kept {
                    current = candidate;
                    break;
                }
            }
        }
    }
    bar.finish_and_clear();
    println!("tuned: {}", show(&current));
    current
}

/// The weights as Rust, to paste into `Weights::TUNED` (to six decimals: the steps add up
/// binary fractions).
fn show(w: &Weights) -> String {
    let r = |v: f64| (v * 1e6).round() / 1e6;
    format!(
        "Weights {{ base: {:?}, victims: {:?}, untouchable: {:?}, pursuit: {:?}, contempt: {:?}, draw_cost: {:?} }}",
        w.base.map(r),
        r(w.victims),
        r(w.untouchable),
        r(w.pursuit),
        r(w.contempt),
        r(w.draw_cost)
    )
}
