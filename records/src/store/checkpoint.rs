//! An import's SQLite checkpoints on a thread of their own. SQLite copies its write-ahead log
//! into the database file after a commit (a checkpoint), on the thread that committed: for an
//! import, the writer, whose one core is what an import waits for. A million games spent ~7 s
//! of the writer's CPU copying (docs/performance.md). Here the import's connection leaves the
//! log alone (`wal_autocheckpoint = 0`), and after each commit another connection copies what
//! was committed (`PRAGMA wal_checkpoint(PASSIVE)`: it never blocks the writer, and copies only
//! what every reader is done with) while the writer goes on with the next batch.
//!
//! The log only starts again from its beginning when a transaction begins with all of it
//! copied: so, once the log holds [`LOG_BOUND`] bytes (as the last copy found it), the writer
//! waits for the copy before its next transaction. The log's file so grows to about three of
//! an import's batches (a million games at 50,000 a batch: 0.66-0.82 GB, against 0.23-0.31
//! GB with SQLite's own copy after each commit). What is durable is unchanged: a commit is
//! durable in the log, as before.

use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use diesel::prelude::*;
use diesel::r2d2::{ConnectionManager, PooledConnection};
use diesel::sql_types::BigInt;

use super::StoreError;

/// The log's size past which the writer waits for the checkpoint before its next transaction.
const LOG_BOUND: i64 = 256 << 20;

/// What the writer and the checkpointing thread share.
#[derive(Default)]
struct State {
    /// Commits asked to be copied, and copied (the copy of a later commit covers the earlier).
    asked: u64,
    copied: u64,
    /// The log's size in pages, and whether its checkpoint copied all of it, at the last.
    log_pages: i64,
    whole: bool,
    /// The writer is done: copy what is asked, then stop.
    stop: bool,
    /// Why the last checkpoint failed, if it did (told to the writer before its next
    /// transaction).
    failed: Option<String>,
}

/// The checkpoints of one import's SQLite connection (see the module's documentation).
pub(crate) struct Checkpointer {
    shared: Arc<(Mutex<State>, Condvar)>,
    thread: Option<JoinHandle<()>>,
    page_size: i64,
}

#[derive(QueryableByName)]
struct CheckpointResult {
    #[diesel(sql_type = BigInt)]
    busy: i64,
    #[diesel(sql_type = BigInt)]
    log: i64,
    #[diesel(sql_type = BigInt)]
    checkpointed: i64,
}

#[derive(QueryableByName)]
struct PageSize {
    #[diesel(sql_type = BigInt)]
    page_size: i64,
}

type Pooled = PooledConnection<ConnectionManager<SqliteConnection>>;

impl Checkpointer {
    /// Starts the checkpointing thread on `conn` (a connection of its own).
    pub(crate) fn start(mut conn: Pooled) -> Result<Checkpointer, StoreError> {
        let page_size = diesel::sql_query("PRAGMA page_size")
            .get_result::<PageSize>(&mut conn)?
            .page_size;
        let shared: Arc<(Mutex<State>, Condvar)> = Arc::default();
        let theirs = shared.clone();
        let thread = std::thread::Builder::new()
            .name("anqi-checkpoint".into())
            .spawn(move || copy_when_asked(&mut conn, &theirs))
            .map_err(|e| StoreError::Checkpoint(format!("no thread to copy it: {e}")))?;
        Ok(Checkpointer {
            shared,
            thread: Some(thread),
            page_size,
        })
    }

    /// Before a transaction begins: when the log has grown past [`LOG_BOUND`], waits until
    /// what was committed is copied (the transaction then starts the log again). A checkpoint
    /// that failed is told here, before anything more is written (what was committed stays).
    pub(crate) fn before_begin(&self) -> Result<(), StoreError> {
        let (state, changed) = &*self.shared;
        let mut state = state.lock().expect("the checkpointer's state");
        if state.log_pages * self.page_size >= LOG_BOUND {
            while state.copied < state.asked && state.failed.is_none() {
                state = changed.wait(state).expect("the checkpointer's state");
            }
            if state.whole {
                // This transaction starts the log again.
                state.log_pages = 0;
            }
        }
        match state.failed.take() {
            Some(message) => Err(StoreError::Checkpoint(message)),
            None => Ok(()),
        }
    }

    /// After a commit: asks for what it committed to be copied.
    pub(crate) fn committed(&self) {
        let (state, changed) = &*self.shared;
        state.lock().expect("the checkpointer's state").asked += 1;
        changed.notify_all();
    }
}

impl Drop for Checkpointer {
    /// Copies what is asked, then stops the thread.
    fn drop(&mut self) {
        {
            let (state, changed) = &*self.shared;
            state.lock().expect("the checkpointer's state").stop = true;
            changed.notify_all();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The checkpointing thread: waits to be asked, copies, says so; stops when told.
fn copy_when_asked(conn: &mut SqliteConnection, shared: &(Mutex<State>, Condvar)) {
    let (state, changed) = shared;
    loop {
        let asked = {
            let mut state = state.lock().expect("the checkpointer's state");
            while state.copied == state.asked && !state.stop {
                state = changed.wait(state).expect("the checkpointer's state");
            }
            if state.copied == state.asked {
                return;
            }
            state.asked
        };
        let result = diesel::sql_query("PRAGMA wal_checkpoint(PASSIVE)")
            .get_result::<CheckpointResult>(conn);
        let mut state = state.lock().expect("the checkpointer's state");
        state.copied = asked;
        match result {
            Ok(done) => {
                state.log_pages = done.log;
                state.whole = done.busy == 0 && done.log == done.checkpointed;
            }
            Err(e) => state.failed = Some(e.to_string()),
        }
        changed.notify_all();
    }
}
