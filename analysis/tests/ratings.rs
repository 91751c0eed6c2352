//! The rating fit (`records::rating`) against an independent implementation on the same
//! games: Python's choix (analysis/ratings/choix_fit.py), its maximum a posteriori estimate
//! under the same Gaussian prior, for Bradley–Terry on two-seat games and Plackett–Luce on
//! three-seat places (choix has neither seat terms nor draws: the fit is run without seat
//! terms here; they are checked against closed forms and simulations in `records`). Elo's
//! scale, where a draw is half a win each way, is checked too: every game counted twice for
//! choix (a win as two wins, a draw as a win each way) under twice the prior is the same
//! objective.
//!
//! Needs a Python with choix (analysis/ratings/requirements.txt; `ANQI_PYTHON`, else
//! `python3`). Skipped without it, unless `ANQI_REQUIRE_CHOIX` is set (CI), where it fails.

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use records::core::Outcome;
use records::rating::{ELO, Meeting, Model, PRIOR, fit};
use serde_json::{Value, json};

mod tool;
use tool::python;

fn choix_present() -> bool {
    tool::python_has(
        "choix",
        "ANQI_REQUIRE_CHOIX",
        "analysis/ratings/requirements.txt",
    )
}

/// choix's strengths for `order`.
fn choix(order: &Value) -> Vec<f64> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/ratings/choix_fit.py");
    let mut child = Command::new(python())
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(order.to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

/// Players of spread strengths, some meeting often and some rarely.
const NAMES: [&str; 7] = ["ann", "bo", "cy", "di", "ed", "fu", "gil"];
const STRENGTH: [f64; 7] = [-1.2, -0.6, -0.1, 0.0, 0.4, 0.9, 1.5];

fn compare(ours: &records::rating::Ratings, theirs: &[f64]) {
    for (i, name) in NAMES.iter().enumerate() {
        let Some(rated) = ours.players.iter().find(|p| p.name == *name) else {
            continue;
        };
        let expected = theirs[i] * ELO;
        assert!(
            (rated.rating.value - expected).abs() < 0.01,
            "{name}: {} Elo, choix {expected}",
            rated.rating.value
        );
    }
}

#[test]
fn bradley_terry_matches_choix() {
    if !choix_present() {
        return;
    }
    let mut rng = StdRng::seed_from_u64(41);
    let mut counts: BTreeMap<(usize, usize, bool), u64> = BTreeMap::new();
    let mut data = Vec::new();
    for _ in 0..3_000 {
        // The first players meet far more often than the last.
        let i = rng.random_range(0..7usize).min(rng.random_range(0..7));
        let j = rng.random_range(0..7usize);
        if i == j {
            continue;
        }
        let p = 1.0 / (1.0 + (STRENGTH[j] - STRENGTH[i]).exp());
        let first_won = rng.random::<f64>() < p;
        *counts.entry((i, j, first_won)).or_default() += 1;
        data.push(if first_won { [i, j] } else { [j, i] });
    }
    let meetings: Vec<Meeting> = counts
        .iter()
        .map(|(&(i, j, first), &games)| Meeting {
            players: vec![NAMES[i].into(), NAMES[j].into()],
            outcome: if first { "player1" } else { "player2" }.parse().unwrap(),
            games,
        })
        .collect();
    let model = Model {
        seats: false,
        draws: false,
        ..Model::default()
    };
    let ours = fit(&meetings, &model).unwrap();
    let theirs = choix(&json!({"model": "pairwise", "players": 7, "alpha": PRIOR, "data": data}));
    compare(&ours, &theirs);
}

#[test]
fn plackett_luce_matches_choix() {
    if !choix_present() {
        return;
    }
    let mut rng = StdRng::seed_from_u64(42);
    let mut counts: BTreeMap<(Vec<usize>, String), u64> = BTreeMap::new();
    let mut data = Vec::new();
    for _ in 0..2_000 {
        let mut ids: Vec<usize> = (0..7).collect();
        for k in (1..7).rev() {
            let j = rng.random_range(0..=k);
            ids.swap(k, j);
        }
        ids.truncate(3);
        // Places drawn by Plackett–Luce from the strengths.
        let mut left = vec![0usize, 1, 2];
        let mut order = Vec::new();
        while !left.is_empty() {
            let w: Vec<f64> = left.iter().map(|&s| STRENGTH[ids[s]].exp()).collect();
            let mut u = rng.random::<f64>() * w.iter().sum::<f64>();
            let mut pick = 0;
            while pick + 1 < w.len() && u > w[pick] {
                u -= w[pick];
                pick += 1;
            }
            order.push(left.remove(pick));
        }
        let code = order
            .iter()
            .map(|s| format!("player{}", s + 1))
            .collect::<Vec<_>>()
            .join(">");
        data.push(order.iter().map(|&s| ids[s]).collect::<Vec<_>>());
        *counts.entry((ids, code)).or_default() += 1;
    }
    let meetings: Vec<Meeting> = counts
        .iter()
        .map(|((ids, code), &games)| Meeting {
            players: ids.iter().map(|&i| NAMES[i].to_string()).collect(),
            outcome: code.parse::<Outcome>().unwrap(),
            games,
        })
        .collect();
    let model = Model {
        seats: false,
        ..Model::default()
    };
    let ours = fit(&meetings, &model).unwrap();
    let theirs = choix(&json!({"model": "rankings", "players": 7, "alpha": PRIOR, "data": data}));
    compare(&ours, &theirs);
}

/// Elo's scale with draws: a draw is half a win each way. choix reads whole wins, so every
/// game is given to it twice (a win as two, a draw as one each way) with twice the prior:
/// the same objective, so the same maximum.
#[test]
fn elo_scale_with_draws_matches_choix() {
    if !choix_present() {
        return;
    }
    let mut rng = StdRng::seed_from_u64(43);
    let mut counts: BTreeMap<(usize, usize, &str), u64> = BTreeMap::new();
    let mut data = Vec::new();
    for _ in 0..3_000 {
        let i = rng.random_range(0..7usize).min(rng.random_range(0..7));
        let j = rng.random_range(0..7usize);
        if i == j {
            continue;
        }
        let p = 1.0 / (1.0 + (STRENGTH[j] - STRENGTH[i]).exp());
        let u = rng.random::<f64>();
        // A third of the games drawn, the rest decided by the strengths.
        let outcome = if u < 0.33 {
            data.extend([[i, j], [j, i]]);
            "draw"
        } else if rng.random::<f64>() < p {
            data.extend([[i, j], [i, j]]);
            "player1"
        } else {
            data.extend([[j, i], [j, i]]);
            "player2"
        };
        *counts.entry((i, j, outcome)).or_default() += 1;
    }
    let meetings: Vec<Meeting> = counts
        .iter()
        .map(|(&(i, j, outcome), &games)| Meeting {
            players: vec![NAMES[i].into(), NAMES[j].into()],
            outcome: outcome.parse().unwrap(),
            games,
        })
        .collect();
    let model = Model {
        seats: false,
        ..Model::default()
    };
    assert!(!model.draws, "Elo's scale is the default");
    let ours = fit(&meetings, &model).unwrap();
    let theirs =
        choix(&json!({"model": "pairwise", "players": 7, "alpha": 2.0 * PRIOR, "data": data}));
    compare(&ours, &theirs);
}
