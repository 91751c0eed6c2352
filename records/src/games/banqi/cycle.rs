//! The plies since the last flip or capture, for the cycle repetition rule (RULES.md §1): is
//! the tail of the game one sequence of p plies played `times` times in a row?

/// Quiet plies are plain moves: a code is `from << 5 | to`, below 1024.
const CODES: usize = 1024;
const NONE: u32 = u32::MAX;

/// The quiet plies since the last progress, each linked to the previous ply with the same
/// code, so that only the periods at which the last ply recurs are tried.
#[derive(Clone, Debug)]
pub(crate) struct QuietPlies {
    codes: Vec<u16>,
    /// For each ply, the index of the previous ply with the same code, or NONE.
    previous: Vec<u32>,
    /// For each code, the index where it was last pushed. May be stale after a clear: it is
    /// trusted only when it is below the length and the code stored there matches.
    last_at: [u32; CODES],
}

impl Default for QuietPlies {
    fn default() -> QuietPlies {
        QuietPlies {
            codes: Vec::new(),
            previous: Vec::new(),
            last_at: [NONE; CODES],
        }
    }
}

impl QuietPlies {
    /// Room for `capacity` plies up front (the no-progress limit bounds them), so that a
    /// game grows nothing while it runs.
    pub(crate) fn with_capacity(capacity: usize) -> QuietPlies {
        QuietPlies {
            codes: Vec::with_capacity(capacity),
            previous: Vec::with_capacity(capacity),
            last_at: [NONE; CODES],
        }
    }

    /// The codes of the quiet plies, oldest first.
    pub(crate) fn codes(&self) -> &[u16] {
        &self.codes
    }

    #[inline]
    pub(crate) fn clear(&mut self) {
        self.codes.clear();
        self.previous.clear();
    }

    #[inline]
    pub(crate) fn push(&mut self, code: u16) {
        debug_assert!((code as usize) < CODES, "a quiet ply is a plain move");
        let index = self.codes.len();
        let slot = &mut self.last_at[code as usize % CODES];
        let seen = *slot as usize;
        let previous = if seen < index && self.codes[seen] == code {
            *slot
        } else {
            NONE
        };
        *slot = index as u32;
        self.codes.push(code);
        self.previous.push(previous);
    }

    /// The smallest p such that the last `times`·p plies are one sequence of p plies
    /// repeated `times` times.
    pub(crate) fn cycle_period(&self, times: usize) -> Option<usize> {
        let q = &self.codes;
        let n = q.len();
        let last = n.checked_sub(1)?;
        let mut earlier = self.previous[last];
        while earlier != NONE {
            let p = last - earlier as usize;
            if p * times > n {
                return None;
            }
            if (0..(times - 1) * p).all(|i| q[last - i] == q[last - i - p]) {
                return Some(p);
            }
            earlier = self.previous[earlier as usize];
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain definition, to check the linked search against.
    fn naive(q: &[u16], times: usize) -> Option<usize> {
        let n = q.len();
        (1..=n / times).find(|&p| (0..(times - 1) * p).all(|i| q[n - 1 - i] == q[n - 1 - i - p]))
    }

    #[test]
    fn agrees_with_the_definition() {
        // Short sequences over a tiny alphabet hit many cycles; clears in between exercise
        // the stale `last_at` entries.
        let mut state = 12345u64;
        let mut quiet = QuietPlies::default();
        let mut plain = Vec::new();
        for step in 0..20_000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if step % 97 == 0 {
                quiet.clear();
                plain.clear();
            }
            let code = ((state >> 33) % 3) as u16 * 37;
            quiet.push(code);
            plain.push(code);
            for times in [2, 3] {
                assert_eq!(quiet.cycle_period(times), naive(&plain, times), "{plain:?}");
            }
        }
    }

    #[test]
    fn three_times_four() {
        let mut quiet = QuietPlies::default();
        let cycle = [1, 2, 3, 4];
        for (i, &c) in cycle.iter().cycle().take(11).enumerate() {
            quiet.push(c);
            assert_eq!(quiet.cycle_period(3), None, "after {} plies", i + 1);
        }
        quiet.push(4);
        assert_eq!(quiet.cycle_period(3), Some(4));
    }
}
