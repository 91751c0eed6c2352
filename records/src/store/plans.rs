//! SQLite's query plans kept whatever values are bound (`SQLITE_DBCONFIG_ENABLE_QPSG`, the
//! query planner stability guarantee), on every connection the process opens.
//!
//! Why: SQLite (3.47 and later) plans `LIMIT ?` for the limit's value, so binding a value to it
//! expires the statement, and its next step parses and plans it again. diesel writes `LIMIT ?`
//! for every `.first()` and `.limit(n)`, and binds every value at every use: its cached
//! statements were re-prepared each time (the explorer under load spent a fifth of its time
//! in SQLite's parser; docs/performance.md). The store's queries do not need plans made for
//! their values (no `LIKE ?`, no `ANALYZE` statistics), so the plans are kept.

use std::os::raw::{c_char, c_int};
use std::sync::Once;

use libsqlite3_sys as ffi;

/// Makes every SQLite connection opened from now on keep its plans (once per process).
pub(crate) fn keep_plans() {
    static REGISTERED: Once = Once::new();
    REGISTERED.call_once(|| {
        // SAFETY: `on_open` has the entry point's signature, and SQLite calls it with a
        // connection it has just opened.
        let rc = unsafe { ffi::sqlite3_auto_extension(Some(on_open)) };
        assert_eq!(rc, ffi::SQLITE_OK, "SQLite registers an auto extension");
    });
}

/// Called by SQLite for each connection it opens.
unsafe extern "C" fn on_open(
    db: *mut ffi::sqlite3,
    _error: *mut *mut c_char,
    _api: *const ffi::sqlite3_api_routines,
) -> c_int {
    // SAFETY: `db` is an open connection; the option takes an int and an optional int pointer.
    unsafe {
        ffi::sqlite3_db_config(
            db,
            ffi::SQLITE_DBCONFIG_ENABLE_QPSG,
            1 as c_int,
            std::ptr::null_mut::<c_int>(),
        )
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::CString;
    use std::os::raw::c_int;

    use libsqlite3_sys as ffi;

    /// A statement with `LIMIT ?`, run again with a new value bound, is not prepared again
    /// (diesel hides the handles: the connection is opened here through the FFI).
    #[test]
    fn a_limit_bound_again_keeps_its_statement() {
        super::keep_plans();
        let sql = |text: &str| CString::new(text).unwrap();
        // SAFETY: one connection and one statement, each checked and closed here.
        unsafe {
            let mut db: *mut ffi::sqlite3 = std::ptr::null_mut();
            assert_eq!(
                ffi::sqlite3_open(sql(":memory:").as_ptr(), &mut db),
                ffi::SQLITE_OK
            );
            let mut on: c_int = 0;
            ffi::sqlite3_db_config(db, ffi::SQLITE_DBCONFIG_ENABLE_QPSG, -1 as c_int, &mut on);
            assert_eq!(on, 1, "the connection keeps its plans");
            let create = sql("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3);");
            let rc = ffi::sqlite3_exec(
                db,
                create.as_ptr(),
                None,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            );
            assert_eq!(rc, ffi::SQLITE_OK);
            let mut statement: *mut ffi::sqlite3_stmt = std::ptr::null_mut();
            let query = sql("SELECT x FROM t ORDER BY x LIMIT ?");
            let rc = ffi::sqlite3_prepare_v3(
                db,
                query.as_ptr(),
                -1,
                ffi::SQLITE_PREPARE_PERSISTENT,
                &mut statement,
                std::ptr::null_mut(),
            );
            assert_eq!(rc, ffi::SQLITE_OK);
            for limit in [1, 2, 3] {
                ffi::sqlite3_bind_int64(statement, 1, limit);
                let mut rows = 0;
                while ffi::sqlite3_step(statement) == ffi::SQLITE_ROW {
                    rows += 1;
                }
                assert_eq!(rows, limit);
                ffi::sqlite3_reset(statement);
            }
            let prepared_again =
                ffi::sqlite3_stmt_status(statement, ffi::SQLITE_STMTSTATUS_REPREPARE, 0);
            ffi::sqlite3_finalize(statement);
            ffi::sqlite3_close(db);
            assert_eq!(prepared_again, 0);
        }
    }
}
