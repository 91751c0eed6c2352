//! Work too slow for the HTTP workers (an engine's search, a picture drawn in pixels) runs on
//! its own threads, a few at a time, at the lowest scheduling priority: the workers keep the
//! cores, so the rest of the service keeps its pace. One request more than there are slots is
//! refused at once (503 with `Retry-After`), never queued behind the others; and a request
//! whose client went away can see it and stop.
//!
//! actix-web keeps a handler running when its client disconnects (it notices only when it
//! writes the answer: actix/actix-web#3462), so a job asks the connection itself: the
//! binary remembers each connection's socket ([`remember_peer`]), and [`Waiting::gone`]
//! peeks at it. A client that closed its side (or reset the connection) is gone.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::problem::{Problem, ProblemKind};

/// A number of slots and the threads they run on.
#[derive(Clone)]
pub struct Slots {
    /// Jobs running at once; one more is refused.
    pub slots: usize,
    /// What a refusal is (`analysis-busy`, `pictures-busy`) and which flag sets the slots.
    busy: (ProblemKind, &'static str),
    running: Arc<AtomicUsize>,
    threads: Arc<rayon::ThreadPool>,
}

impl std::fmt::Debug for Slots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Slots").field("slots", &self.slots).finish()
    }
}

/// Whether the request's client is still waiting for the answer: a long job asks now and
/// then, and stops when it is not.
pub struct Waiting<'a> {
    dropped: &'a dyn Fn() -> bool,
    peer: Option<Peer>,
}

impl Waiting<'_> {
    /// The request was dropped, or its client closed or reset the connection.
    pub fn gone(&self) -> bool {
        (self.dropped)() || self.peer.is_some_and(Peer::gone)
    }
}

/// A request's connection, as the binary remembered it when the client connected.
#[derive(Clone, Copy, Debug)]
pub struct Peer(#[cfg(unix)] std::os::fd::RawFd);

impl Peer {
    /// The connection of `req`, when the server remembered it.
    pub fn of(req: &actix_web::HttpRequest) -> Option<Peer> {
        req.conn_data::<Peer>().copied()
    }

    /// Whether the client has closed its side or reset the connection: a peek that reads
    /// nothing (end of stream) or fails for another reason than "no data yet". The socket is
    /// the request's connection, open until its answer is written.
    #[cfg(unix)]
    pub fn gone(self) -> bool {
        let mut byte = 0u8;
        // SAFETY: a one-byte buffer of ours; MSG_PEEK leaves the data where it is, and
        // MSG_DONTWAIT never blocks.
        let n = unsafe {
            libc::recv(
                self.0,
                (&mut byte as *mut u8).cast(),
                1,
                libc::MSG_PEEK | libc::MSG_DONTWAIT,
            )
        };
        match n {
            0 => true,
            n if n > 0 => false,
            _ => !matches!(
                std::io::Error::last_os_error().kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted
            ),
        }
    }

    #[cfg(not(unix))]
    pub fn gone(self) -> bool {
        false
    }
}

/// The HTTP service's `on_connect_ext`: remembers each connection's socket for its requests.
pub fn remember_peer(
    connection: &crate::connection::Connection,
    data: &mut actix_web::dev::Extensions,
) {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd;
        data.insert(Peer(connection.stream().as_raw_fd()));
    }
}

impl Slots {
    /// `slots` threads named `name-N`; a refusal is a `busy` problem naming `flag`.
    pub fn new(name: &'static str, slots: usize, busy: ProblemKind, flag: &'static str) -> Slots {
        let slots = slots.max(1);
        let threads = rayon::ThreadPoolBuilder::new()
            .num_threads(slots)
            .thread_name(move |i| format!("{name}-{i}"))
            .start_handler(|_| lower_priority())
            .build()
            .expect("the slots' threads start");
        Slots {
            slots,
            busy: (busy, flag),
            running: Arc::new(AtomicUsize::new(0)),
            threads: Arc::new(threads),
        }
    }

    /// One slot per core but one (one at least).
    pub fn per_core(name: &'static str, busy: ProblemKind, flag: &'static str) -> Slots {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Slots::new(name, cores.saturating_sub(1), busy, flag)
    }

    /// Runs `work` on a slot's thread when one is free (503 with `Retry-After` at once when
    /// none is: a request is never queued behind a job). `work` is told whether its client is
    /// still waiting ([`Waiting::gone`]: the request's future dropped, or `peer`, its
    /// connection, closed).
    pub async fn run<T: Send + 'static>(
        &self,
        peer: Option<Peer>,
        work: impl FnOnce(&Waiting) -> Result<T, Problem> + Send + 'static,
    ) -> Result<T, Problem> {
        let slot = self.take().ok_or_else(|| {
            let (kind, flag) = self.busy;
            Problem::new(
                kind,
                format!(
                    "all {} slots are in use ({flag}); try again in a moment",
                    self.slots
                ),
            )
            .retry_after(1)
        })?;
        let (send, answer) = futures_channel::oneshot::channel();
        self.threads.spawn(move || {
            // The answer's receiver is dropped with the request's future when the client
            // goes away.
            let dropped = || send.is_canceled();
            let answer = work(&Waiting {
                dropped: &dropped,
                peer,
            });
            // The slot is free before the answer leaves: the client's next request finds it.
            drop(slot);
            let _ = send.send(answer);
        });
        answer
            .await
            .map_err(|_| Problem::new(ProblemKind::Internal, "a job's thread stopped"))?
    }

    /// Runs `work` on a slot's thread once one is free, waiting for it (the service's own
    /// jobs, such as the engine's moves in its seats: they must be done, but no sooner than
    /// the slots allow).
    pub async fn run_when_free<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, Problem> {
        let slot = loop {
            match self.take() {
                Some(slot) => break slot,
                None => tokio::time::sleep(std::time::Duration::from_millis(20)).await,
            }
        };
        let (send, answer) = futures_channel::oneshot::channel();
        self.threads.spawn(move || {
            let answer = work();
            drop(slot);
            let _ = send.send(answer);
        });
        answer
            .await
            .map_err(|_| Problem::new(ProblemKind::Internal, "a job's thread stopped"))
    }

    /// A slot, or None when all are taken.
    fn take(&self) -> Option<Slot> {
        let running = Arc::clone(&self.running);
        let mut now = running.load(Ordering::Acquire);
        loop {
            if now >= self.slots {
                return None;
            }
            match running.compare_exchange(now, now + 1, Ordering::AcqRel, Ordering::Acquire) {
                Ok(_) => return Some(Slot(running)),
                Err(seen) => now = seen,
            }
        }
    }
}

/// Threads that run quick store reads (the explorer's unfiltered lookups) one after another,
/// first come first served, one per core: sixteen lookups at once on two cores only switch
/// between each other, and a thread that ends a lookup starts the next at once (handed from
/// an HTTP worker to a thread of its own, each lookup waited for a thread to wake: a third of
/// the cores idle under load).
#[derive(Clone)]
pub struct Queue(Arc<rayon::ThreadPool>);

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Queue")
            .field(&self.0.current_num_threads())
            .finish()
    }
}

impl Queue {
    /// One thread per core, named `name-N`.
    pub fn per_core(name: &'static str) -> Queue {
        Queue::new(
            name,
            std::thread::available_parallelism().map_or(1, |n| n.get()),
        )
    }

    /// `threads` threads (one at least), named `name-N`.
    pub fn new(name: &'static str, threads: usize) -> Queue {
        let threads = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .thread_name(move |i| format!("{name}-{i}"))
            .build()
            .expect("the queue's threads start");
        Queue(Arc::new(threads))
    }

    /// Queues `work` at once, to run on the queue's threads after the work queued before it:
    /// its answer.
    pub fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> impl std::future::Future<Output = T> {
        let (send, answer) = futures_channel::oneshot::channel();
        self.0.spawn_fifo(move || {
            // A client gone meanwhile: its answer is not wanted.
            if !send.is_canceled() {
                let _ = send.send(work());
            }
        });
        // A job that panicked never answers: that panic is the service's bug, as in a handler.
        async move { answer.await.expect("a queued read panicked") }
    }
}

/// A taken slot, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The calling thread at the lowest scheduling priority (nice 19): under load, the HTTP
/// workers get the cores first. (Linux keeps a nice value per thread.)
#[cfg(target_os = "linux")]
fn lower_priority() {
    // SAFETY: setpriority and gettid take plain integers and touch no memory of ours.
    let tid = unsafe { libc::gettid() };
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 19);
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

#[cfg(test)]
mod tests {
    use super::Queue;
    use std::sync::{Arc, Mutex};

    /// Work queued on one thread runs in the order it came, each job to its end before the
    /// next, and every caller gets its own answer.
    #[actix_web::test]
    async fn a_queue_runs_its_work_first_come_first_served() {
        let queue = Queue::new("test", 1);
        let ran = Arc::new(Mutex::new(Vec::new()));
        // A first job holds the thread until every other job is queued.
        let (release, gate) = std::sync::mpsc::channel::<()>();
        let held = queue.run(move || gate.recv().unwrap());
        let jobs: Vec<_> = (0..50)
            .map(|i| {
                let ran = Arc::clone(&ran);
                queue.run(move || {
                    ran.lock().unwrap().push(i);
                    i * 2
                })
            })
            .collect();
        release.send(()).unwrap();
        held.await;
        let mut answers = Vec::new();
        for job in jobs {
            answers.push(job.await);
        }
        assert_eq!(answers, (0..50).map(|i| i * 2).collect::<Vec<_>>());
        assert_eq!(*ran.lock().unwrap(), (0..50).collect::<Vec<_>>());
    }
}
