use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::*;

fn meeting(players: &[&str], outcome: &str, games: u64) -> Meeting {
    let mut outcome: Outcome = outcome.parse().unwrap();
    if players.len() == 3 && outcome.is_draw() {
        outcome = Outcome::draw(3);
    }
    Meeting {
        players: players.iter().map(|s| s.to_string()).collect(),
        outcome,
        games,
    }
}

/// A flat prior: the maximum likelihood itself (the common shift pinned down, nothing else).
const FLAT: Model = Model {
    seats: true,
    draws: true,
    prior: 1e-9,
    max_players: 1000,
    provisional_games: 0,
};

fn rating(r: &Ratings, name: &str) -> Estimate {
    r.players.iter().find(|p| p.name == name).unwrap().rating
}

/// A moving first beats B 30 times in 40; B moving first wins 20 of 40. The logits are
/// closed: rA − rB + h = ln 3 and rB − rA + h = 0, so h = rA − rB = ln 3 / 2.
#[test]
fn two_players_both_ways_round_are_solved_in_closed_form() {
    let meetings = [
        meeting(&["A", "B"], "player1", 30),
        meeting(&["A", "B"], "player2", 10),
        meeting(&["B", "A"], "player1", 20),
        meeting(&["B", "A"], "player2", 20),
    ];
    let r = fit(&meetings, &FLAT).unwrap();
    let half_ln3 = 3f64.ln() / 2.0;
    assert!(
        (r.seat_terms[0].value - half_ln3 * ELO).abs() < 1e-4,
        "{r:?}"
    );
    let (a, b) = (rating(&r, "A").value, rating(&r, "B").value);
    assert!((a - b - half_ln3 * ELO).abs() < 1e-4, "{a} {b}");
    assert!((a + b).abs() < 0.01, "about the mean: {a} {b}");
    assert_eq!(
        (r.games, r.self_play, r.players[0].name.as_str()),
        (80, 0, "A")
    );
    assert_eq!(r.players[0].games, 80);
    assert_eq!(r.players[0].score, 50.0);
    // Between equal players the first mover scores e^h / (1 + e^h) = √3 / (1 + √3).
    let s = r.first_seat.unwrap();
    assert!((s.value - 3f64.sqrt() / (1.0 + 3f64.sqrt())).abs() < 1e-6);
    assert!(s.low < s.value && s.value < s.high);
}

/// Draws: with draws as their own outcome, a pair that only draws is equal and the draw term
/// is the only one that moves.
#[test]
fn draws_are_an_outcome_of_their_own() {
    let meetings = [
        meeting(&["A", "B"], "draw", 50),
        meeting(&["B", "A"], "draw", 50),
        meeting(&["A", "B"], "player1", 5),
        meeting(&["B", "A"], "player1", 5),
    ];
    let r = fit(&meetings, &FLAT).unwrap();
    assert!((rating(&r, "A").value - rating(&r, "B").value).abs() < 1e-6);
    // The first mover wins all 10 decided games: h is large, yet 50/110 of games are draws.
    assert!(r.seat_terms[0].value > 300.0, "{r:?}");
}

/// A rating's interval is the rating's about the players' mean: A beats B 60 times in 100,
/// so rA − r̄ = (rA − rB) / 2 = ln(60/40) / 2 with variance 1 / (4 N p q), whatever the prior
/// (which alone bounds a shift of both) and whoever else only played itself.
#[test]
fn an_interval_is_about_the_players_mean() {
    let model = Model {
        seats: false,
        draws: false,
        ..FLAT
    };
    let mut meetings = vec![
        meeting(&["A", "B"], "player1", 60),
        meeting(&["A", "B"], "player2", 40),
    ];
    let half = 1.959_963_984_540_054 * (1.0f64 / (4.0 * 100.0 * 0.6 * 0.4)).sqrt() * ELO;
    for _ in 0..2 {
        let r = fit(&meetings, &model).unwrap();
        let a = rating(&r, "A");
        assert!((a.value - (1.5f64).ln() / 2.0 * ELO).abs() < 1e-3, "{a:?}");
        assert!((a.high - a.value - half).abs() < 1e-3, "{a:?}: ±{half}");
        assert_eq!(r.players.len(), 2);
        meetings.push(meeting(&["bot", "bot"], "player1", 10));
    }
}

/// Greedy always moved first against random: its wins are its own or the first move's, and no
/// game can say which. The fit says so and has no seat term (it gave +37,891 Elo, ±400
/// million, before it looked); once the pair also met the other way round, or a bot played
/// itself, the term is fitted. Three seats: the same players always in the same seats.
#[test]
fn seats_the_games_cannot_tell_from_players_are_said_to_be_confounded() {
    let one_way = [
        meeting(&["greedy", "random"], "player1", 290),
        meeting(&["greedy", "random"], "player2", 10),
    ];
    let r = fit(&one_way, &Model::default()).unwrap();
    assert!(r.seats_confounded, "{r:?}");
    assert!(r.seat_terms.is_empty() && r.first_seat.is_none());
    let (g, x) = (rating(&r, "greedy"), rating(&r, "random"));
    assert!(g.value > x.value && g.high - g.low < 400.0, "{g:?} {x:?}");
    for told in [
        meeting(&["random", "greedy"], "player2", 5),
        meeting(&["bot", "bot"], "player1", 5),
    ] {
        let mut both = one_way.to_vec();
        both.push(told);
        let r = fit(&both, &Model::default()).unwrap();
        assert!(!r.seats_confounded && r.seat_terms.len() == 1, "{r:?}");
    }
    let same_seats = [
        meeting(&["wei", "shu", "wu"], "player1>player2>player3", 20),
        meeting(&["wei", "shu", "wu"], "player2>player3>player1", 10),
    ];
    assert!(
        fit(&same_seats, &Model::default())
            .unwrap()
            .seats_confounded
    );
    let rotated = [
        same_seats[0].clone(),
        same_seats[1].clone(),
        meeting(&["shu", "wu", "wei"], "player1>player2>player3", 10),
        meeting(&["wu", "wei", "shu"], "player3>player1>player2", 10),
    ];
    let r = fit(&rotated, &Model::default()).unwrap();
    assert!(!r.seats_confounded && r.seat_terms.len() == 2, "{r:?}");
}

/// Self-play tells nothing of a player's strength: only of the seats.
#[test]
fn self_play_counts_for_the_seats_only() {
    let meetings = [
        meeting(&["bot", "bot"], "player1", 60),
        meeting(&["bot", "bot"], "player2", 40),
    ];
    let r = fit(&meetings, &Model::default()).unwrap();
    assert_eq!((r.games, r.self_play), (100, 100));
    assert!(r.players.is_empty(), "nobody rated: {r:?}");
    assert!((r.seat_terms[0].value - (60.0f64 / 40.0).ln() * ELO).abs() < 1e-3);
    assert!((r.first_seat.unwrap().value - 0.6).abs() < 1e-6);
}

/// Strengths and a first-move term drawn at random, games simulated from the model: the fit
/// finds them within its intervals.
#[test]
fn simulated_two_seat_games_are_recovered() {
    let mut rng = StdRng::seed_from_u64(7);
    let truth = [-300.0, -120.0, 0.0, 80.0, 150.0, 320.0].map(|elo: f64| elo / ELO);
    let (h, delta) = (70.0 / ELO, -0.8);
    let names = ["a", "b", "c", "d", "e", "f"];
    let mut counts: BTreeMap<(usize, usize, &str), u64> = BTreeMap::new();
    for _ in 0..30_000 {
        let (i, j) = (rng.random_range(0..6), rng.random_range(0..6));
        if i == j {
            continue;
        }
        let a = (truth[i] + h).exp();
        let b = truth[j].exp();
        let d = (delta + (truth[i] + h + truth[j]) / 2.0).exp();
        let u = rng.random::<f64>() * (a + b + d);
        let outcome = if u < a {
            "player1"
        } else if u < a + b {
            "player2"
        } else {
            "draw"
        };
        *counts.entry((i, j, outcome)).or_default() += 1;
    }
    let meetings: Vec<Meeting> = counts
        .iter()
        .map(|(&(i, j, o), &n)| meeting(&[names[i], names[j]], o, n))
        .collect();
    let r = fit(&meetings, &FLAT).unwrap();
    let mean = truth.iter().sum::<f64>() / 6.0;
    let mut inside = 0;
    for (i, name) in names.iter().enumerate() {
        let e = rating(&r, name);
        let t = (truth[i] - mean) * ELO;
        inside += usize::from(e.low <= t && t <= e.high);
        assert!((e.value - t).abs() < 40.0, "{name}: {e:?} against {t}");
        assert!(
            e.high - e.low < 60.0,
            "{name}: {e:?}: 10,000 games say more"
        );
    }
    assert!(inside >= 5, "{inside} of 6 intervals hold the truth");
    let term = r.seat_terms[0];
    assert!(term.low < 70.0 && 70.0 < term.high, "{term:?}");
    assert_eq!(
        r.players
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>(),
        ["f", "e", "d", "c", "b", "a"]
    );
}

/// Three seats: Plackett–Luce with seat terms, recovered from simulated places.
#[test]
fn simulated_three_seat_games_are_recovered() {
    let mut rng = StdRng::seed_from_u64(11);
    let truth: [f64; 4] = [-1.0, -0.3, 0.2, 1.1];
    let seat: [f64; 3] = [0.0, -0.4, -0.7];
    let names = ["w", "x", "y", "z"];
    let mut counts: BTreeMap<(Vec<usize>, String), u64> = BTreeMap::new();
    for _ in 0..20_000 {
        let mut ids = vec![0, 1, 2, 3];
        let drop = rng.random_range(0..4);
        ids.remove(drop);
        // Seat order at random.
        for k in (1..3).rev() {
            let j = rng.random_range(0..=k);
            ids.swap(k, j);
        }
        let mut left: Vec<usize> = vec![0, 1, 2];
        let mut order = Vec::new();
        while left.len() > 1 {
            let w: Vec<f64> = left
                .iter()
                .map(|&s| (truth[ids[s]] + seat[s]).exp())
                .collect();
            let mut u = rng.random::<f64>() * w.iter().sum::<f64>();
            let mut pick = 0;
            while u > w[pick] {
                u -= w[pick];
                pick += 1;
            }
            order.push(left.remove(pick));
        }
        order.push(left[0]);
        let code = order
            .iter()
            .map(|s| format!("player{}", s + 1))
            .collect::<Vec<_>>()
            .join(">");
        *counts.entry((ids, code)).or_default() += 1;
    }
    let meetings: Vec<Meeting> = counts
        .iter()
        .map(|((ids, code), &n)| {
            let players: Vec<&str> = ids.iter().map(|&i| names[i]).collect();
            meeting(&players, code, n)
        })
        .collect();
    let r = fit(&meetings, &FLAT).unwrap();
    let mean = truth.iter().sum::<f64>() / 4.0;
    for (i, name) in names.iter().enumerate() {
        let e = rating(&r, name);
        let t = (truth[i] - mean) * ELO;
        assert!((e.value - t).abs() < 30.0, "{name}: {e:?} against {t}");
    }
    for (k, term) in r.seat_terms.iter().enumerate() {
        let t = seat[k + 1] * ELO;
        assert!(
            term.low - 10.0 < t && t < term.high + 10.0,
            "{term:?} against {t}"
        );
    }
    // Between equal players seat 1 is first with 1 / (1 + e^−0.4 + e^−0.7).
    let s = r.first_seat.unwrap();
    let t = 1.0 / (1.0 + (-0.4f64).exp() + (-0.7f64).exp());
    assert!((s.value - t).abs() < 0.02, "{s:?} against {t}");
}

/// Ties in three seats are read as every order they allow: a game tied for second counts half
/// as each order of the two, and an all-three tie says nothing of who is better.
#[test]
fn ties_are_every_order_they_allow() {
    let tied = [meeting(&["p", "q", "r"], "player1>player2=player3", 10)];
    let halves = [
        meeting(&["p", "q", "r"], "player1>player2>player3", 5),
        meeting(&["p", "q", "r"], "player1>player3>player2", 5),
    ];
    let a = fit(&tied, &Model::default()).unwrap();
    let b = fit(&halves, &Model::default()).unwrap();
    for (x, y) in a.players.iter().zip(&b.players) {
        assert_eq!(x.name, y.name);
        assert!((x.rating.value - y.rating.value).abs() < 1e-6);
    }
    let draw = [meeting(&["p", "q", "r"], "draw", 30)];
    let c = fit(&draw, &Model::default()).unwrap();
    assert!(
        c.players.iter().all(|p| p.rating.value.abs() < 1e-6),
        "{c:?}"
    );
}

/// With more players than the fit takes, the most active are fitted and the rest said.
#[test]
fn the_most_active_players_are_fitted() {
    let meetings = [
        meeting(&["a", "b"], "player1", 10),
        meeting(&["b", "c"], "player1", 5),
        meeting(&["c", "d"], "player1", 1),
    ];
    let model = Model {
        max_players: 2,
        ..Model::default()
    };
    let r = fit(&meetings, &model).unwrap();
    assert_eq!(r.players.len(), 2);
    assert_eq!((r.left_out, r.players_left_out), (6, 2));
}

/// Elo as people read it: 40 wins, 24 losses and 36 draws against one opponent, a 58% score,
/// is a difference of 400 log₁₀(58 / 42) = +56.1 Elo, and its interval is that of the mean
/// score's own variance (the delta method: var(s̄) / (p q)² for the logit, s̄'s variance from
/// the scores as they fell). Davidson's model, draws set aside, reads +88.
#[test]
fn fifty_eight_percent_is_fifty_six_elo() {
    let meetings = [
        meeting(&["A", "B"], "player1", 20),
        meeting(&["A", "B"], "player2", 12),
        meeting(&["A", "B"], "draw", 18),
        meeting(&["B", "A"], "player2", 20),
        meeting(&["B", "A"], "player1", 12),
        meeting(&["B", "A"], "draw", 18),
    ];
    let elo = Model {
        draws: false,
        ..FLAT
    };
    let r = fit(&meetings, &elo).unwrap();
    let d = rating(&r, "A").value - rating(&r, "B").value;
    let expected = 400.0 * (58.0f64 / 42.0).log10();
    assert!(
        (expected - 56.07).abs() < 0.01 && (d - expected).abs() < 0.01,
        "{d}"
    );
    // The expected score a difference predicts is the score.
    assert!((1.0 / (1.0 + 10f64.powf(-d / 400.0)) - 0.58).abs() < 1e-6);
    let (p, q) = (0.58, 0.42);
    let variance = (0.40 * q * q + 0.24 * p * p + 0.36 * (0.5f64 - p).powi(2)) / 100.0;
    let half = 1.959_963_984_540_054 * variance.sqrt() / (p * q) / 2.0 * ELO;
    let a = rating(&r, "A");
    assert!((a.high - a.value - half).abs() < 0.05, "{a:?}: ±{half}");
    assert!((half - 27.4).abs() < 0.1, "{half}");
    let davidson = fit(&meetings, &FLAT).unwrap();
    let d = rating(&davidson, "A").value - rating(&davidson, "B").value;
    assert!((d - 400.0 * (40.0f64 / 24.0).log10()).abs() < 0.01, "{d}");
}

/// Two groups that never met: each is rated about its own mean with the intervals its own
/// games give, as if fitted alone, and the groups are said.
#[test]
fn groups_that_never_met_are_rated_as_if_alone() {
    let mut rng = StdRng::seed_from_u64(3);
    let mut simulate = |names: [&'static str; 4], truth: [f64; 4], games: usize| {
        let mut counts: BTreeMap<(usize, usize, &str), u64> = BTreeMap::new();
        for _ in 0..games {
            let (i, j) = (rng.random_range(0..4), rng.random_range(0..4));
            if i == j {
                continue;
            }
            let p = 1.0 / (1.0 + (truth[j] - truth[i] - 0.1).exp());
            let u = rng.random::<f64>();
            let outcome = if u < p * 0.8 {
                "player1"
            } else if u < 0.8 {
                "player2"
            } else {
                "draw"
            };
            *counts.entry((i, j, outcome)).or_default() += 1;
        }
        counts
            .iter()
            .map(|(&(i, j, o), &n)| meeting(&[names[i], names[j]], o, n))
            .collect::<Vec<Meeting>>()
    };
    let big = simulate(["a", "b", "c", "d"], [-1.0, 0.0, 0.5, 1.0], 4000);
    let small = simulate(["w", "x", "y", "z"], [-0.5, 0.0, 0.2, 0.9], 1500);
    let both: Vec<Meeting> = big.iter().chain(&small).cloned().collect();
    let joint = fit(&both, &Model::default()).unwrap();
    assert_eq!(joint.groups.len(), 2, "{joint:?}");
    assert_eq!(joint.groups[0].players, 4);
    assert!(joint.groups[0].games > joint.groups[1].games);
    for (alone, group) in [(&big, 0), (&small, 1)] {
        let alone = fit(alone, &Model::default()).unwrap();
        assert_eq!(alone.groups.len(), 1);
        for p in &alone.players {
            let j = joint.players.iter().find(|q| q.name == p.name).unwrap();
            assert_eq!((j.group, j.rank), (group, p.rank), "{}", p.name);
            let (w, v) = (j.rating.high - j.rating.low, p.rating.high - p.rating.low);
            assert!(
                (w / v - 1.0).abs() < 0.1,
                "{}: {w} against {v} alone",
                p.name
            );
            assert!((j.rating.value - p.rating.value).abs() < 10.0, "{}", p.name);
        }
    }
    // About each group's own mean.
    for g in 0..2 {
        let sum: f64 = joint
            .players
            .iter()
            .filter(|p| p.group == g)
            .map(|p| p.rating.value)
            .sum();
        assert!(sum.abs() < 1e-6, "group {g}: {sum}");
    }
}

/// A player with fewer games than the threshold is rated but provisional: listed after the
/// ranked players of its group, without a rank, even when it won them all.
#[test]
fn a_player_with_few_games_is_provisional() {
    let mut meetings = vec![
        meeting(&["a", "b"], "player1", 20),
        meeting(&["a", "b"], "player2", 10),
        meeting(&["b", "a"], "player1", 12),
        meeting(&["b", "a"], "player2", 18),
        meeting(&["b", "c"], "player1", 20),
        meeting(&["b", "c"], "player2", 10),
        meeting(&["c", "b"], "player1", 12),
        meeting(&["c", "b"], "player2", 18),
    ];
    meetings.push(meeting(&["lucky", "a"], "player1", 1));
    meetings.push(meeting(&["a", "lucky"], "player2", 1));
    let r = fit(&meetings, &Model::default()).unwrap();
    let names: Vec<(&str, Option<usize>, bool)> = r
        .players
        .iter()
        .map(|p| (p.name.as_str(), p.rank, p.provisional))
        .collect();
    assert_eq!(names.len(), 4);
    assert_eq!(names[3], ("lucky", None, true), "{names:?}");
    assert_eq!(
        names[..3].iter().map(|n| n.1).collect::<Vec<_>>(),
        [Some(1), Some(2), Some(3)]
    );
    assert!(
        rating(&r, "lucky").value > r.players[0].rating.value,
        "{r:?}"
    );
    assert_eq!(r.provisional_games, PROVISIONAL_GAMES);
}
