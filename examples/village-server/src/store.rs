//! Where players are kept between sessions: the last saved position and heading of each
//! signed-in account, in SQLite (`rusqlite`, SQLite compiled in) or, without a file, in
//! memory for the process's life.
//!
//! A room never blocks on the disk. [`Store::save`] puts the state in a map of pending
//! writes under a short lock (a newer state for the same account replaces an older one
//! not yet written: only the latest matters) and wakes the store's own writer thread,
//! which writes everything pending in one transaction. A failed write is counted
//! (`store_retried`) and retried with backoff until it succeeds; nothing pending is
//! dropped while the store is open. A failed write first frees the disk space held back
//! beside the file (`reserve.rs`) and tries again at once, so a disk that fills loses no
//! state held in memory; while writes fail the store says so ([`Store::failing`]: rooms
//! tell their players, the health check stops). [`Store::load`] reads the pending map first, then
//! the file: callers run it on tokio's blocking pool, never on a room's task.
//!
//! The store also keeps which account each signed-in player's name belongs to (by its
//! look-alike key, `names.rs`), written the same way: a name stays reserved for its
//! account across restarts, whoever connects first after one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Names' keys to their accounts, not yet written.
    names: HashMap<String, u64>,
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
    /// The last write failed (cleared when one succeeds).
    failing: AtomicBool,
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
        );
        CREATE TABLE IF NOT EXISTS names (
            key TEXT PRIMARY KEY,
            account INTEGER NOT NULL
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
            failing: AtomicBool::new(false),
        });
        if let Some(conn) = writer {
            let inner = inner.clone();
            let reserve = crate::reserve::Reserve::beside(path.expect("a writer has a file"));
            std::thread::Builder::new()
                .name("village-store".into())
                .spawn(move || write_loop(&inner, conn, reserve))
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

    /// Keeps name key `key` as `account`'s (written by the writer thread soon after).
    pub fn reserve_name(&self, key: &str, account: u64) {
        if self.inner.reader.is_none() {
            return;
        }
        lock(&self.inner.pending)
            .names
            .insert(key.to_string(), account);
        self.inner.wake.notify_all();
    }

    /// Every name key written, with its account. Blocks on the file (read once, at start).
    pub fn names(&self) -> Vec<(String, u64)> {
        let Some(reader) = self.inner.reader.as_ref() else {
            return Vec::new();
        };
        let reader = lock(reader);
        let read = || -> rusqlite::Result<Vec<(String, u64)>> {
            let mut q = reader.prepare("SELECT key, account FROM names")?;
            let rows = q.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?;
            rows.collect()
        };
        read().unwrap_or_else(|e| {
            eprintln!("village-server: reading the reserved names failed: {e}");
            Vec::new()
        })
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

    /// Whether the last write failed: states are held in memory and retried until a
    /// write succeeds.
    pub fn failing(&self) -> bool {
        self.inner.failing.load(Ordering::Relaxed)
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
        while !(p.dirty.is_empty() && p.writing.is_empty() && p.names.is_empty()) {
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
    /// not be written is counted `store_lost` and said on stderr, each state whole.
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
            // Said whole, one a line, so an operator can put them back by hand.
            for (account, st) in p.dirty.iter().chain(p.writing.iter()) {
                eprintln!(
                    "village-server: unwritten account={account} x={} y={} z={} heading={}",
                    st.pos[0], st.pos[1], st.pos[2], st.heading
                );
            }
        }
        drop(p);
        self.inner.wake.notify_all();
    }
}

/// A name's key and the account it is reserved for.
type Reserved = (String, u64);

/// The writer thread: takes everything pending, writes it in one transaction, and on a
/// failure puts it back (under anything newer) and retries: at once after freeing the
/// reserved disk space, else after a backoff.
fn write_loop(inner: &Inner, mut conn: Connection, mut reserve: crate::reserve::Reserve) {
    let mut backoff = Duration::from_millis(20);
    loop {
        let (batch, names): (Vec<(u64, Saved)>, Vec<Reserved>) = {
            let mut p = lock(&inner.pending);
            while p.dirty.is_empty() && p.names.is_empty() && !p.closing {
                p = inner.wake.wait(p).unwrap_or_else(|e| e.into_inner());
            }
            if p.closing {
                return;
            }
            let dirty = std::mem::take(&mut p.dirty);
            p.writing = dirty;
            // Names wait in `names` until written, so a flush waits for them too.
            let names = p.names.iter().map(|(k, a)| (k.clone(), *a)).collect();
            (p.writing.iter().map(|(a, s)| (*a, *s)).collect(), names)
        };
        match write(&mut conn, &batch, &names) {
            Ok(()) => {
                backoff = Duration::from_millis(20);
                if inner.failing.swap(false, Ordering::Relaxed) {
                    eprintln!("village-server: store writes succeed again");
                }
                reserve.restore();
                for _ in &batch {
                    inner.counters.add(Counter::StoreWritten);
                }
                let mut p = lock(&inner.pending);
                p.writing.clear();
                for (key, account) in names {
                    // A newer reservation made meanwhile stays pending.
                    if p.names.get(&key) == Some(&account) {
                        p.names.remove(&key);
                    }
                }
                drop(p);
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
                inner.failing.store(true, Ordering::Relaxed);
                if reserve.release() {
                    eprintln!(
                        "village-server: freed the store's {} reserved bytes; retrying at once",
                        crate::reserve::RESERVE
                    );
                    continue;
                }
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(Duration::from_secs(2));
            }
        }
    }
}

fn write(
    conn: &mut Connection,
    batch: &[(u64, Saved)],
    names: &[(String, u64)],
) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    {
        let mut name = tx.prepare_cached(
            "INSERT INTO names (key, account) VALUES (?1, ?2)
             ON CONFLICT(key) DO UPDATE SET account = excluded.account",
        )?;
        for (key, account) in names {
            name.execute(params![key, *account as i64])?;
        }
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
        // A reserved name survives too.
        again.reserve_name("fay", 7);
        assert!(again.flush(Duration::from_secs(5)));
        again.close(Duration::from_secs(1));
        let third = Store::open(Some(&path), Arc::new(Counters::default())).unwrap();
        assert_eq!(third.names(), [("fay".to_string(), 7)]);
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
