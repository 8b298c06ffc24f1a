//! Where players are kept between sessions: the last saved position and heading of each
//! signed-in account, in SQLite (`rusqlite`, SQLite compiled in) or, without a file, in
//! memory for the process's life.
//!
//! A room never blocks on the disk. [`Store::save`] puts the state in a map of pending
//! writes under a short lock (a newer state for the same account replaces an older one
//! not yet written: only the latest matters) and wakes the store's own writer thread,
//! which writes everything pending in one transaction. A failed write is counted
//! (`store_retried`) and retried with backoff until it succeeds; nothing pending is
//! dropped while the store is open. [`Store::load`] reads the pending map first, then
//! the file: callers run it on tokio's blocking pool, never on a room's task.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use rusqlite::{params, Connection, OptionalExtension};

use crate::counters::{Counter, Counters};

/// What is kept of a player between sessions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Saved {
    /// Where it was.
    pub pos: [f32; 3],
    /// Which way it faced, radians.
    pub heading: f32,
}

/// The pending writes: the latest state per account not yet written, and the batch the
/// writer is writing now.
#[derive(Default)]
struct Pending {
    dirty: HashMap<u64, Saved>,
    writing: HashMap<u64, Saved>,
    /// The latest state of every account saved since the process started (about 40 bytes
    /// each): what a session opening now must start from, whatever the file holds yet.
    latest: HashMap<u64, Saved>,
    closing: bool,
}

struct Inner {
    pending: Mutex<Pending>,
    /// Wakes the writer (something to write, or closing) and flushers (a batch written).
    wake: Condvar,
    done: Condvar,
    counters: Arc<Counters>,
    /// The reading connection (the writer has its own); `None`: memory only.
    reader: Option<Mutex<Connection>>,
}

/// The player store; cheap to clone (one writer thread behind every clone).
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
    path: Option<PathBuf>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// How long a write waits on a lock another process holds before it counts as failed.
const BUSY: Duration = Duration::from_millis(200);

fn open(path: &Path) -> rusqlite::Result<Connection> {
    let c = Connection::open(path)?;
    c.busy_timeout(BUSY)?;
    // WAL: the reader never waits for the writer; NORMAL: a commit survives a crash of the
    // process (the operating system still has it), not necessarily a power cut.
    c.pragma_update(None, "journal_mode", "WAL")?;
    c.pragma_update(None, "synchronous", "NORMAL")?;
    c.execute_batch(
        "CREATE TABLE IF NOT EXISTS players (
            account INTEGER PRIMARY KEY,
            x REAL NOT NULL, y REAL NOT NULL, z REAL NOT NULL,
            heading REAL NOT NULL,
            saved_ms INTEGER NOT NULL
        )",
    )?;
    Ok(c)
}

impl Store {
    /// A store in the SQLite file at `path` (created if absent), or in memory when `None`.
    pub fn open(path: Option<&Path>, counters: Arc<Counters>) -> rusqlite::Result<Store> {
        let (reader, writer) = match path {
            Some(p) => (Some(Mutex::new(open(p)?)), Some(open(p)?)),
            None => (None, None),
        };
        let inner = Arc::new(Inner {
            pending: Mutex::default(),
            wake: Condvar::new(),
            done: Condvar::new(),
            counters,
            reader,
        });
        if let Some(conn) = writer {
            let inner = inner.clone();
            std::thread::Builder::new()
                .name("village-store".into())
                .spawn(move || write_loop(&inner, conn))
                .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
        }
        Ok(Store {
            inner,
            path: path.map(Path::to_path_buf),
        })
    }

    /// The file, if any.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Keeps `state` as `account`'s latest (written by the writer thread soon after).
    pub fn save(&self, account: u64, state: Saved) {
        let mut p = lock(&self.inner.pending);
        p.latest.insert(account, state);
        if self.inner.reader.is_none() {
            self.inner.counters.add(Counter::StoreWritten);
            return;
        }
        p.dirty.insert(account, state);
        drop(p);
        self.inner.wake.notify_all();
    }

    /// `account`'s latest state: pending or written. Blocks on the file: call it on the
    /// blocking pool.
    pub fn load(&self, account: u64) -> Option<Saved> {
        {
            if let Some(s) = self.cached(account) {
                return Some(s);
            }
        }
        let reader = lock(self.inner.reader.as_ref()?);
        reader
            .query_row(
                "SELECT x, y, z, heading FROM players WHERE account = ?1",
                params![account as i64],
                |r| {
                    Ok(Saved {
                        pos: [r.get(0)?, r.get(1)?, r.get(2)?],
                        heading: r.get(3)?,
                    })
                },
            )
            .optional()
            .unwrap_or_else(|e| {
                eprintln!("village-server: store read for account {account} failed: {e}");
                None
            })
    }

    /// `account`'s latest state if it was saved since the process started: a lookup under
    /// a short lock, never the file, so a room may ask. A session opening after another
    /// of the same account ended (saved) starts from this, even when its connection
    /// loaded from the file before that save.
    pub fn cached(&self, account: u64) -> Option<Saved> {
        lock(&self.inner.pending).latest.get(&account).copied()
    }

    /// Player states not yet written.
    pub fn pending(&self) -> usize {
        let p = lock(&self.inner.pending);
        p.dirty.len() + p.writing.len()
    }

    /// Waits until everything saved so far is written, or `within` passed; true when all
    /// is written.
    pub fn flush(&self, within: Duration) -> bool {
        let until = Instant::now() + within;
        let mut p = lock(&self.inner.pending);
        while !(p.dirty.is_empty() && p.writing.is_empty()) {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            p = self
                .inner
                .done
                .wait_timeout(p, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }

    /// Writes what is pending (waiting up to `within`) and stops the writer; what could
    /// not be written is counted `store_lost` and said on stderr.
    pub fn close(&self, within: Duration) {
        let written = self.flush(within);
        let mut p = lock(&self.inner.pending);
        p.closing = true;
        if !written {
            let lost = p.dirty.len() + p.writing.len();
            for _ in 0..lost {
                self.inner.counters.add(Counter::StoreLost);
            }
            eprintln!("village-server: the store closed with {lost} player states unwritten");
        }
        drop(p);
        self.inner.wake.notify_all();
    }
}

/// The writer thread: takes everything pending, writes it in one transaction, and on a
/// failure puts it back (under anything newer) and retries after a backoff.
fn write_loop(inner: &Inner, mut conn: Connection) {
    let mut backoff = Duration::from_millis(20);
    loop {
        let batch: Vec<(u64, Saved)> = {
            let mut p = lock(&inner.pending);
            while p.dirty.is_empty() && !p.closing {
                p = inner.wake.wait(p).unwrap_or_else(|e| e.into_inner());
            }
            if p.closing {
                return;
            }
            let dirty = std::mem::take(&mut p.dirty);
            p.writing = dirty;
            p.writing.iter().map(|(a, s)| (*a, *s)).collect()
        };
        match write(&mut conn, &batch) {
            Ok(()) => {
                backoff = Duration::from_millis(20);
                for _ in &batch {
                    inner.counters.add(Counter::StoreWritten);
                }
                lock(&inner.pending).writing.clear();
                inner.done.notify_all();
            }
            Err(e) => {
                inner.counters.add(Counter::StoreRetried);
                eprintln!(
                    "village-server: store write of {} player states failed ({e}); retrying",
                    batch.len()
                );
                let mut p = lock(&inner.pending);
                let writing = std::mem::take(&mut p.writing);
                for (account, state) in writing {
                    // A newer save made meanwhile wins.
                    p.dirty.entry(account).or_insert(state);
                }
                drop(p);
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(2));
            }
        }
    }
}

fn write(conn: &mut Connection, batch: &[(u64, Saved)]) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    {
        let mut put = tx.prepare_cached(
            "INSERT INTO players (account, x, y, z, heading, saved_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT(account) DO UPDATE SET
               x = excluded.x, y = excluded.y, z = excluded.z,
               heading = excluded.heading, saved_ms = excluded.saved_ms",
        )?;
        let now = crate::token::now_s() as i64 * 1000;
        for (account, s) in batch {
            put.execute(params![
                *account as i64,
                s.pos[0],
                s.pos[1],
                s.pos[2],
                s.heading,
                now
            ])?;
        }
    }
    tx.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("village-store-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("players.db")
    }

    #[test]
    fn a_saved_state_survives_reopening_the_file() {
        let path = temp("reopen");
        let counters = Arc::new(Counters::default());
        let s = Store::open(Some(&path), counters.clone()).unwrap();
        s.save(
            7,
            Saved {
                pos: [1.0, 2.0, 3.0],
                heading: 0.5,
            },
        );
        s.save(
            7,
            Saved {
                pos: [4.0, 5.0, 6.0],
                heading: 1.5,
            },
        );
        s.save(
            8,
            Saved {
                pos: [9.0, 0.0, 9.0],
                heading: 0.0,
            },
        );
        assert!(s.flush(Duration::from_secs(5)));
        s.close(Duration::from_secs(1));
        let again = Store::open(Some(&path), Arc::new(Counters::default())).unwrap();
        assert_eq!(
            again.load(7),
            Some(Saved {
                pos: [4.0, 5.0, 6.0],
                heading: 1.5
            })
        );
        assert_eq!(again.load(8).unwrap().pos, [9.0, 0.0, 9.0]);
        assert_eq!(again.load(9), None);
        assert_eq!(counters.get(Counter::StoreLost), 0);
    }

    /// Another process holds the file's write lock: the writes fail, are counted and
    /// retried, and land once the lock is gone. Nothing is dropped.
    #[test]
    fn a_failed_write_is_retried_until_it_lands() {
        let path = temp("locked");
        let counters = Arc::new(Counters::default());
        let s = Store::open(Some(&path), counters.clone()).unwrap();
        let blocker = Connection::open(&path).unwrap();
        blocker.execute_batch("BEGIN EXCLUSIVE").unwrap();
        s.save(
            1,
            Saved {
                pos: [1.0; 3],
                heading: 0.0,
            },
        );
        // The writer tries, waits BUSY, fails, backs off: at least two failures in a second.
        let t0 = Instant::now();
        while counters.get(Counter::StoreRetried) < 2 && t0.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(counters.get(Counter::StoreRetried) >= 2);
        assert_eq!(counters.get(Counter::StoreWritten), 0);
        // A newer save while failing replaces the older one; the load sees it meanwhile.
        s.save(
            1,
            Saved {
                pos: [2.0; 3],
                heading: 0.0,
            },
        );
        assert_eq!(s.load(1).unwrap().pos, [2.0; 3]);
        blocker.execute_batch("COMMIT").unwrap();
        drop(blocker);
        assert!(
            s.flush(Duration::from_secs(10)),
            "written once the lock is gone"
        );
        assert_eq!(s.pending(), 0);
        let again = Store::open(Some(&path), Arc::new(Counters::default())).unwrap();
        assert_eq!(again.load(1).unwrap().pos, [2.0; 3]);
    }
}
