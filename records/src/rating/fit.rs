//! The fit behind every rating model here: choices among alternatives whose log-odds are sums
//! of parameters (a multinomial logit), maximised with a Gaussian prior on some of them by
//! Newton's method. A two-seat game is one choice among three outcomes (first seat wins, a
//! draw, second seat wins: Davidson's Bradley–Terry with ties); a three-seat game a sequence of
//! choices of who places next (Plackett–Luce).

use nalgebra::{DMatrix, DVector};

/// One alternative's log-odds: a sum of coefficients times parameters.
pub(super) type Terms = Vec<(usize, f64)>;

/// How often each alternative of one choice was taken (counts, or weights: a tie broken both
/// ways counts half each way).
pub(super) struct Choice {
    pub alternatives: Vec<Terms>,
    pub taken: Vec<f64>,
}

/// The maximum of the penalised log-likelihood: the parameters and their covariance (the
/// inverse of the negative Hessian there: a Gaussian approximation of the posterior).
pub(super) struct Maximum {
    pub theta: DVector<f64>,
    pub covariance: DMatrix<f64>,
}

/// Maximises Σ log-likelihood − `prior` Σ θ_k² over the parameters `with_prior` (the others
/// flat), for `n` parameters. None when the problem is degenerate (no choice at all).
pub(super) fn maximise(
    n: usize,
    with_prior: &[bool],
    prior: f64,
    choices: &[Choice],
) -> Option<Maximum> {
    if choices.is_empty() || n == 0 {
        return None;
    }
    let mut theta = DVector::<f64>::zeros(n);
    let mut at = evaluate(&theta, with_prior, prior, choices, true);
    for _ in 0..200 {
        let step = newton_step(&at.hessian, &at.gradient)?;
        // Halve the step until the objective does not fall (it is concave: a Newton step
        // from close enough is taken whole).
        let mut t = 1.0;
        let mut next = None;
        for _ in 0..40 {
            let candidate = &theta + &step * t;
            let value = evaluate(&candidate, with_prior, prior, choices, false).value;
            if value >= at.value - 1e-12 {
                next = Some(candidate);
                break;
            }
            t /= 2.0;
        }
        let Some(candidate) = next else { break };
        let moved = (&candidate - &theta).amax();
        theta = candidate;
        at = evaluate(&theta, with_prior, prior, choices, true);
        if moved < 1e-10 {
            break;
        }
    }
    let information = -&at.hessian;
    let covariance = information
        .clone()
        .cholesky()
        .map(|c| c.inverse())
        .or_else(|| information.try_inverse())?;
    Some(Maximum { theta, covariance })
}

/// The objective, and (when asked) its gradient and Hessian.
struct Evaluation {
    value: f64,
    gradient: DVector<f64>,
    hessian: DMatrix<f64>,
}

fn evaluate(
    theta: &DVector<f64>,
    with_prior: &[bool],
    prior: f64,
    choices: &[Choice],
    derivatives: bool,
) -> Evaluation {
    let n = theta.len();
    let mut value = 0.0;
    let (mut gradient, mut hessian) = if derivatives {
        (DVector::zeros(n), DMatrix::zeros(n, n))
    } else {
        (DVector::zeros(0), DMatrix::zeros(0, 0))
    };
    let mut eta = Vec::new();
    let mut p = Vec::new();
    let mut mean: Vec<(usize, f64)> = Vec::new();
    for choice in choices {
        let total: f64 = choice.taken.iter().sum();
        if total == 0.0 {
            continue;
        }
        eta.clear();
        eta.extend(
            choice
                .alternatives
                .iter()
                .map(|terms| terms.iter().map(|&(k, c)| c * theta[k]).sum::<f64>()),
        );
        let top = eta.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = eta.iter().map(|e| (e - top).exp()).sum();
        let log_sum = top + sum.ln();
        for (e, y) in eta.iter().zip(&choice.taken) {
            value += y * (e - log_sum);
        }
        if !derivatives {
            continue;
        }
        p.clear();
        p.extend(eta.iter().map(|e| (e - log_sum).exp()));
        // Gradient: Σ_c (y_c − N p_c) x_c. Hessian: −N (Σ_c p_c x_c x_cᵀ − μ μᵀ), μ = Σ p_c x_c.
        mean.clear();
        for ((terms, &y), &pc) in choice.alternatives.iter().zip(&choice.taken).zip(&p) {
            for &(k, c) in terms {
                gradient[k] += (y - total * pc) * c;
                mean.push((k, pc * c));
            }
            for &(k, ck) in terms {
                for &(l, cl) in terms {
                    hessian[(k, l)] -= total * pc * ck * cl;
                }
            }
        }
        for &(k, mk) in &mean {
            for &(l, ml) in &mean {
                hessian[(k, l)] += total * mk * ml;
            }
        }
    }
    for k in (0..n).filter(|&k| with_prior[k]) {
        value -= prior * theta[k] * theta[k];
        if derivatives {
            gradient[k] -= 2.0 * prior * theta[k];
            hessian[(k, k)] -= 2.0 * prior;
        }
    }
    Evaluation {
        value,
        gradient,
        hessian,
    }
}

/// The Newton step −H⁻¹ g (H negative definite at a concave objective; a little more
/// curvature is added where it is not, as far from the maximum it may not be).
fn newton_step(hessian: &DMatrix<f64>, gradient: &DVector<f64>) -> Option<DVector<f64>> {
    let information = -hessian;
    let mut ridge = 0.0;
    for _ in 0..30 {
        let mut m = information.clone();
        for i in 0..m.nrows() {
            m[(i, i)] += ridge;
        }
        if let Some(c) = m.cholesky() {
            return Some(c.solve(gradient));
        }
        ridge = if ridge == 0.0 { 1e-9 } else { ridge * 10.0 };
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A coin tossed 70 times heads of 100: the log-odds ln(70/30), its variance 1/(N p q).
    #[test]
    fn a_single_log_odds_is_its_closed_form() {
        let choices = [Choice {
            alternatives: vec![vec![(0, 1.0)], vec![]],
            taken: vec![70.0, 30.0],
        }];
        let m = maximise(1, &[false], 0.0, &choices).unwrap();
        assert!((m.theta[0] - (70.0f64 / 30.0).ln()).abs() < 1e-9);
        assert!((m.covariance[(0, 0)] - 1.0 / (100.0 * 0.7 * 0.3)).abs() < 1e-9);
        // A prior pulls it to 0: the maximum of 70 θ − 100 ln(1 + e^θ) − θ² is smaller.
        let m = maximise(1, &[true], 1.0, &choices).unwrap();
        assert!(m.theta[0] > 0.0 && m.theta[0] < (70.0f64 / 30.0).ln());
    }

    #[test]
    fn all_wins_stay_finite_under_a_prior() {
        let choices = [Choice {
            alternatives: vec![vec![(0, 1.0)], vec![]],
            taken: vec![10.0, 0.0],
        }];
        let m = maximise(1, &[true], 0.1, &choices).unwrap();
        assert!(m.theta[0].is_finite() && m.theta[0] > 2.0, "{}", m.theta[0]);
    }
}
