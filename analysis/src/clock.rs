//! What each bot's moves took, for `anqi simulate`: the wall time and the CPU time of the
//! thread that chose the move, per bot, and the CPU time of the whole process beside them.
//!
//! A time per move is fair only if all the work for a move is done within it. A bot that
//! started threads (Banqi's engine solving endgames in the background, in an analysis) would
//! use CPU that no move's thread counts: the process's CPU time would then exceed the sum of
//! the moves'. `anqi simulate` prints both, so a ladder shows that its clocks held.

use std::time::{Duration, Instant};

fn cpu(clock: libc::clockid_t) -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write into; both clocks exist on Linux.
    let ok = unsafe { libc::clock_gettime(clock, &mut t) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The CPU time the calling thread has used.
pub fn thread_cpu() -> Duration {
    cpu(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// The CPU time every thread of the process has used.
pub fn process_cpu() -> Duration {
    cpu(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// One bot's moves: how many, and the time they took.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moves {
    pub count: u64,
    pub wall: Duration,
    pub cpu: Duration,
    /// The longest move, wall time.
    pub longest: Duration,
}

impl Moves {
    /// Times `choose`, run on this thread, as one more move.
    pub fn time<T>(&mut self, choose: impl FnOnce() -> T) -> T {
        let (wall, cpu) = (Instant::now(), thread_cpu());
        let chosen = choose();
        let (wall, cpu) = (wall.elapsed(), thread_cpu().saturating_sub(cpu));
        self.count += 1;
        self.wall += wall;
        self.cpu += cpu;
        self.longest = self.longest.max(wall);
        chosen
    }

    pub fn merge(&mut self, other: &Moves) {
        self.count += other.count;
        self.wall += other.wall;
        self.cpu += other.cpu;
        self.longest = self.longest.max(other.longest);
    }

    /// "12,345 moves, 10.1 ms a move (CPU 10.0 ms), the longest 14 ms".
    pub fn said(&self) -> String {
        let per = |d: Duration| d.as_secs_f64() * 1e3 / self.count.max(1) as f64;
        format!(
            "{} moves, {:.1} ms a move (its thread's CPU {:.1} ms), the longest {:.0} ms",
            self.count,
            per(self.wall),
            per(self.cpu),
            self.longest.as_secs_f64() * 1e3
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thread_started_inside_a_move_is_work_no_move_counts() {
        let process = process_cpu();
        let mut moves = Moves::default();
        moves
            .time(|| {
                // Work of a given CPU time on the calling thread, however loaded the machine.
                let spin = |d| {
                    let t = thread_cpu();
                    while thread_cpu() - t < d {
                        std::hint::black_box(0);
                    }
                };
                // The move's own work, and a helper's that outlives it.
                let helper = std::thread::spawn(move || spin(Duration::from_millis(60)));
                spin(Duration::from_millis(20));
                helper
            })
            .join()
            .unwrap();
        let process = process_cpu() - process;
        assert_eq!(moves.count, 1);
        assert!(moves.cpu >= Duration::from_millis(20), "{moves:?}");
        assert!(moves.cpu < Duration::from_millis(50), "{moves:?}");
        // The process counts the helper's 60 ms too.
        assert!(
            process >= moves.cpu + Duration::from_millis(50),
            "{process:?} {moves:?}"
        );
    }
}
