//! Intervals for rates, as the explorer and the report give them: Wilson's score interval,
//! at 95% corrected for how many were tried (Bonferroni).

/// The normal quantile of a 95% interval corrected for `tries` intervals read together
/// (Bonferroni: each at 1 − 0.05 / tries).
pub fn corrected_z(tries: usize) -> f64 {
    use statrs::distribution::{ContinuousCDF, Normal};
    let alpha = 0.05 / tries.max(1) as f64;
    Normal::standard().inverse_cdf(1.0 - alpha / 2.0)
}

/// The Wilson interval of `k` successes in `n` trials at `z` ((0, 1) when `n` is 0).
pub fn wilson(k: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = k / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_and_bonferroni_by_hand() {
        assert!((corrected_z(1) - 1.959_964).abs() < 1e-5);
        assert!((corrected_z(32) - 3.1628).abs() < 1e-3);
        // 7 of 10 at 95%: 0.3968 to 0.8922 (hand-computed).
        let (a, b) = wilson(7.0, 10.0, corrected_z(1));
        assert!(
            (a - 0.3968).abs() < 1e-4 && (b - 0.8922).abs() < 1e-4,
            "{a} {b}"
        );
        assert_eq!(wilson(0.0, 0.0, 1.96), (0.0, 1.0));
    }
}
