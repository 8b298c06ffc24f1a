//! Byte meters: count and bytes per message type, in and out. "You can't guess which
//! message is expensive: count bytes per message type." Cheap enough to leave on: one
//! relaxed atomic add per counter, indexed by the dispatch enum's variant index.

use std::fmt;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::dispatch::Dispatch;

/// Counters for one message type.
#[derive(Debug, Default)]
struct Counters {
    count_in: AtomicU64,
    bytes_in: AtomicU64,
    count_out: AtomicU64,
    bytes_out: AtomicU64,
}

/// Per-message-type byte meter for one dispatch enum `D` (so a `ClientMessage` can never be
/// counted in a `ServerMessage` meter's rows). Shareable across threads.
///
/// A server typically keeps a `Meter<ClientMessage>` for what it receives (plus the inputs
/// it dropped) and a `Meter<ServerMessage>` for what it sends.
#[derive(Debug)]
pub struct Meter<D> {
    counters: Box<[Counters]>,
    dropped: Counters,
    _messages: PhantomData<fn() -> D>,
}

/// One row of a meter report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MeterRow {
    /// The message name.
    pub name: &'static str,
    /// The envelope id.
    pub id: u32,
    /// Messages received.
    pub count_in: u64,
    /// Bytes received.
    pub bytes_in: u64,
    /// Messages sent.
    pub count_out: u64,
    /// Bytes sent.
    pub bytes_out: u64,
}

impl MeterRow {
    /// Bytes in both directions.
    pub fn bytes(&self) -> u64 {
        self.bytes_in + self.bytes_out
    }
}

impl<D: Dispatch> Default for Meter<D> {
    fn default() -> Self {
        Self::new()
    }
}

impl<D: Dispatch> Meter<D> {
    /// A meter for every message of `D`.
    pub fn new() -> Meter<D> {
        Meter {
            counters: D::MESSAGES.iter().map(|_| Counters::default()).collect(),
            dropped: Counters::default(),
            _messages: PhantomData,
        }
    }

    /// Counts one received input of `bytes` bytes that failed to decode or validate (so an
    /// attack or a broken client shows up in the report, not only what decoded).
    #[inline]
    pub fn record_dropped(&self, bytes: usize) {
        self.dropped.count_in.fetch_add(1, Ordering::Relaxed);
        self.dropped
            .bytes_in
            .fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// Counts one received message of `bytes` bytes.
    #[inline]
    pub fn record_in(&self, msg: &D, bytes: usize) {
        if let Some(c) = self.counters.get(msg.index()) {
            c.count_in.fetch_add(1, Ordering::Relaxed);
            c.bytes_in.fetch_add(bytes as u64, Ordering::Relaxed);
        }
    }

    /// Counts one sent message of `bytes` bytes (sent `fanout` times: a broadcast to 39
    /// players costs 39 sends).
    #[inline]
    pub fn record_out(&self, msg: &D, bytes: usize, fanout: u64) {
        if let Some(c) = self.counters.get(msg.index()) {
            c.count_out.fetch_add(fanout, Ordering::Relaxed);
            c.bytes_out
                .fetch_add(bytes as u64 * fanout, Ordering::Relaxed);
        }
    }

    /// Every message type seen, sorted by total bytes, largest first (then by name); inputs
    /// that were dropped appear as a row named `(dropped)` with id `u32::MAX`.
    pub fn report(&self) -> Vec<MeterRow> {
        let mut rows: Vec<MeterRow> = D::MESSAGES
            .iter()
            .chain([&("(dropped)", u32::MAX)])
            .zip(self.counters.iter().chain([&self.dropped]))
            .map(|(&(name, id), c)| MeterRow {
                name,
                id,
                count_in: c.count_in.load(Ordering::Relaxed),
                bytes_in: c.bytes_in.load(Ordering::Relaxed),
                count_out: c.count_out.load(Ordering::Relaxed),
                bytes_out: c.bytes_out.load(Ordering::Relaxed),
            })
            .filter(|r| r.count_in + r.count_out > 0)
            .collect();
        rows.sort_by(|a, b| b.bytes().cmp(&a.bytes()).then(a.name.cmp(b.name)));
        rows
    }

    /// Sets every counter back to zero.
    pub fn reset(&self) {
        for c in self.counters.iter().chain([&self.dropped]) {
            for a in [&c.count_in, &c.bytes_in, &c.count_out, &c.bytes_out] {
                a.store(0, Ordering::Relaxed);
            }
        }
    }
}

impl<D: Dispatch> fmt::Display for Meter<D> {
    /// The report as a text table.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<28} {:>5} {:>10} {:>12} {:>10} {:>12}",
            "message", "id", "in", "bytes in", "out", "bytes out"
        )?;
        for r in self.report() {
            writeln!(
                f,
                "{:<28} {:>5} {:>10} {:>12} {:>10} {:>12}",
                r.name, r.id, r.count_in, r.bytes_in, r.count_out, r.bytes_out
            )?;
        }
        Ok(())
    }
}
