//! `delta-lab loss`: bytes per client per tick of the reliable deltas (a WebSocket: every
//! payload arrives, so loss costs time, not bytes) against deltas on acknowledged baselines
//! over a lossy datagram link, where a lost payload or acknowledgement makes later deltas
//! larger (their baseline is older) and a long gap brings a keyframe. Every snapshot a
//! client's mirror applies is checked against the server's value at its number.

use std::collections::HashMap;

use tuplet::delta::{Mirror, Sent, Tracker, RING};
use tuplet::SampleRng;
use village::world::WorldSnapshot;

use crate::snapshots::{quantized, snapshot};
use crate::world::{Tick, RATE};

/// One direction of a link: each packet is lost with probability `loss` and arrives `delay`
/// ticks after it was sent.
struct Link<T> {
    rng: SampleRng,
    loss: f64,
    delay: u64,
    queue: Vec<(u64, T)>,
}

impl<T> Link<T> {
    fn send(&mut self, now: u64, packet: T) {
        if self.rng.float_in(0.0, 1.0) >= self.loss {
            self.queue.push((now + self.delay, packet));
        }
    }

    fn deliver(&mut self, now: u64) -> Vec<T> {
        let (due, rest): (Vec<_>, Vec<_>) = self.queue.drain(..).partition(|(at, _)| *at <= now);
        self.queue = rest;
        due.into_iter().map(|(_, p)| p).collect()
    }
}

/// One client's acknowledged-mode session.
struct Session {
    tracker: Tracker<WorldSnapshot>,
    mirror: Mirror<WorldSnapshot>,
    down: Link<Vec<u8>>,
    up: Link<u64>,
    sent: HashMap<u64, WorldSnapshot>,
}

/// What one loss level measured, summed over clients and ticks.
#[derive(Default)]
pub struct Row {
    pub loss: f64,
    pub messages: u64,
    pub reliable_bytes: u64,
    pub acked_bytes: u64,
    pub acked_keyframes: u64,
    pub applied: u64,
    pub refused: u64,
    pub mirror_errors: u64,
}

/// Runs every loss level over the recorded ticks (`ticks`: per tick, every client's value),
/// with a round trip of `rtt_ticks` (half each way).
pub fn measure(
    ticks: &[(u32, Vec<WorldSnapshot>)],
    losses: &[f64],
    rtt_ticks: u64,
    seed: u64,
) -> Vec<Row> {
    losses
        .iter()
        .map(|&loss| run(ticks, loss, rtt_ticks, seed))
        .collect()
}

fn run(ticks: &[(u32, Vec<WorldSnapshot>)], loss: f64, rtt_ticks: u64, seed: u64) -> Row {
    let clients = ticks.first().map_or(0, |(_, v)| v.len());
    let mut reliable: Vec<Tracker<WorldSnapshot>> =
        (0..clients).map(|_| Tracker::at_rate(RATE)).collect();
    let mut sessions: Vec<Session> = (0..clients as u64)
        .map(|c| Session {
            tracker: Tracker::acked(0, RING),
            mirror: Mirror::acked(RING),
            down: Link {
                rng: SampleRng::new(seed ^ (c << 20)),
                loss,
                delay: rtt_ticks / 2,
                queue: Vec::new(),
            },
            up: Link {
                rng: SampleRng::new(seed ^ (c << 20) ^ 1),
                loss,
                delay: rtt_ticks - rtt_ticks / 2,
                queue: Vec::new(),
            },
            sent: HashMap::new(),
        })
        .collect();
    let mut row = Row {
        loss,
        ..Row::default()
    };
    let mut buf = Vec::new();
    for (t, (_, values)) in ticks.iter().enumerate() {
        let t = t as u64;
        for (c, v) in values.iter().enumerate() {
            row.messages += 1;
            buf.clear();
            reliable[c].encode(v, &mut buf).expect("a valid snapshot");
            row.reliable_bytes += buf.len() as u64;

            let s = &mut sessions[c];
            for ack in s.up.deliver(t) {
                s.tracker.ack(ack);
            }
            buf.clear();
            let sent = s.tracker.encode(v, &mut buf).expect("a valid snapshot");
            if sent != Sent::Nothing {
                row.acked_bytes += buf.len() as u64;
                row.acked_keyframes += u64::from(sent == Sent::Keyframe);
                let mut q = quantized(v);
                q.entities.sort_by_key(|e| e.id);
                s.sent.insert(s.tracker.number(), q);
                s.sent
                    .retain(|n, _| n + 2 * RING as u64 > s.tracker.number());
                s.down.send(t, buf.clone());
            }
            for payload in s.down.deliver(t) {
                match s.mirror.apply(&payload) {
                    Ok(m) => {
                        let m = m.entities.clone();
                        row.applied += 1;
                        let want = s.sent.get(&s.mirror.ack()).map(|w| &w.entities);
                        if want != Some(&m) {
                            row.mirror_errors += 1;
                        }
                    }
                    Err(_) => row.refused += 1,
                }
            }
            s.up.send(t, s.mirror.ack());
        }
    }
    row
}

/// The table the docs quote.
pub fn print(rows: &[Row], rtt_ticks: u64) {
    println!(
        "| loss | reliable B/client/tick | acked B/client/tick | acked / reliable | acked keyframes per client per min | refused | mirror errors |"
    );
    println!("|---|---|---|---|---|---|---|");
    for r in rows {
        let m = r.messages.max(1) as f64;
        let minutes = m / f64::from(RATE) / 60.0;
        println!(
            "| {:.0}% | {:.1} | {:.1} | {:.3} | {:.2} | {} | {} |",
            r.loss * 100.0,
            r.reliable_bytes as f64 / m,
            r.acked_bytes as f64 / m,
            r.acked_bytes as f64 / r.reliable_bytes.max(1) as f64,
            r.acked_keyframes as f64 / minutes,
            r.refused,
            r.mirror_errors,
        );
    }
    println!(
        "\n{} client-ticks; round trip {} ticks ({} ms at {} Hz); ring {}",
        rows.first().map_or(0, |r| r.messages),
        rtt_ticks,
        rtt_ticks * 1000 / u64::from(RATE),
        RATE,
        RING
    );
}

/// Every client's value per tick of a recording.
pub fn values(t: &Tick) -> (u32, Vec<WorldSnapshot>) {
    (
        t.tick,
        (0..t.views.len()).map(|c| snapshot(t, c, false)).collect(),
    )
}
