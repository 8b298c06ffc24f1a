//! The bench's table (one row per link, transport and delay setting, over its seeds) and
//! the checks the issue asks for.

use crate::bench::Run;
use crate::conn::Transport;
use crate::report::quantile;
use crate::watch::Frames;

/// The runs of one row.
pub struct Row {
    /// The link's name.
    pub link: String,
    /// The transport.
    pub transport: Transport,
    /// The fixed interpolation delay, if any.
    pub fixed_delay: Option<f64>,
    /// One run per seed.
    pub runs: Vec<Run>,
}

/// A row's numbers, over its seeds.
pub struct Sums {
    /// The watcher's frames, summed.
    pub frames: Frames,
    /// Bytes per player per tick, the mean over the seeds.
    pub bytes: f64,
    /// The share of bytes that came as datagrams.
    pub datagrams: f64,
    /// Mirror errors, summed.
    pub mirror_errors: u64,
    /// Snapshots applied, summed.
    pub applied: u64,
    /// Snapshots the acknowledged mirrors refused (late, duplicated, baseline gone), summed.
    pub refused: u64,
    /// `world:ack` bytes sent per player per tick, the mean over the seeds.
    pub ack_bytes: f64,
    /// Every relayed move's age at the watcher.
    pub move_delays: Vec<f64>,
    /// Every ping's delay to the server.
    pub ping_up: Vec<f64>,
    /// Packets lost on the link (both ways) over packets sent.
    pub lost: (u64, u64),
}

impl Sums {
    /// Off-speed or frozen frames, per cent.
    pub fn bad_pct(&self) -> f64 {
        pct(
            self.frames.off_speed + self.frames.frozen,
            self.frames.frames,
        )
    }

    /// The interpolator's mean delay, ms.
    pub fn delay(&self) -> f64 {
        self.frames.delay_sum_ms / self.frames.frames.max(1) as f64
    }
}

fn pct(a: u64, b: u64) -> f64 {
    100.0 * a as f64 / b.max(1) as f64
}

impl Row {
    /// The row's numbers.
    pub fn sums(&self) -> Sums {
        let mut s = Sums {
            frames: Frames::default(),
            bytes: 0.0,
            datagrams: 0.0,
            mirror_errors: 0,
            applied: 0,
            refused: 0,
            ack_bytes: 0.0,
            move_delays: Vec::new(),
            ping_up: Vec::new(),
            lost: (0, 0),
        };
        for r in &self.runs {
            let f = r.report.frames();
            s.frames.frames += f.frames;
            s.frames.frozen += f.frozen;
            s.frames.off_speed += f.off_speed;
            s.frames.delay_sum_ms += f.delay_sum_ms;
            s.frames.behind_sum_ms += f.behind_sum_ms;
            s.bytes += r.report.bytes_per_player_tick() / self.runs.len() as f64;
            s.datagrams += r.report.datagram_share() / self.runs.len() as f64;
            s.mirror_errors += r.report.mirror_errors();
            s.applied += r.report.snapshots_applied();
            s.refused += r.report.snapshots_refused();
            s.ack_bytes += r.report.ack_bytes_per_player_tick() / self.runs.len() as f64;
            s.move_delays.extend(r.report.move_delays());
            s.ping_up.extend(r.report.ping_up());
            s.lost.0 += r.link.up.lost + r.link.down.lost;
            s.lost.1 += r.link.up.packets + r.link.down.packets;
        }
        s
    }
}

/// The table's header.
pub const HEADER: &str = "\
| link | transport | interp delay | seeds | link loss | frames | off-speed | frozen | interpolator delay | drawn behind | bytes/player/tick | as datagrams | move age p50 / p95 | ping to server p50 / p95 | mirror errors (applied, refused) |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|";

/// One line of the table.
pub fn line(row: &Row) -> String {
    let s = row.sums();
    let f = &s.frames;
    format!(
        "| `{}` | {} | {} | {} | {:.2}% | {} | {:.2}% | {:.2}% | {:.0} ms | {:.0} ms | {:.1} | {:.0}% | {:.0} / {:.0} ms | {:.0} / {:.0} ms | {} ({}, {}) |",
        row.link,
        match row.transport {
            Transport::WebSocket => "WebSocket",
            Transport::WebTransport => "WebTransport",
        },
        row.fixed_delay
            .map_or("adaptive".to_string(), |d| format!("fixed {d:.0} ms")),
        row.runs.len(),
        pct(s.lost.0, s.lost.1),
        f.frames,
        pct(f.off_speed, f.frames),
        pct(f.frozen, f.frames),
        s.delay(),
        f.behind_sum_ms / f.frames.max(1) as f64,
        s.bytes,
        100.0 * s.datagrams,
        quantile(&s.move_delays, 0.5),
        quantile(&s.move_delays, 0.95),
        quantile(&s.ping_up, 0.5),
        quantile(&s.ping_up, 0.95),
        s.mirror_errors,
        s.applied,
        s.refused,
    )
}

/// The checks over every row: each says what it compared and whether it held.
pub fn checks(rows: &[Row], key_link: &str) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    for r in rows {
        let s = r.sums();
        out.push((
            s.mirror_errors == 0 && s.applied > 0,
            format!(
                "{} {} {}: {} mirror errors, {} snapshots applied, {} refused",
                r.link,
                r.transport.name(),
                r.fixed_delay
                    .map_or("adaptive".into(), |d| format!("fixed {d}")),
                s.mirror_errors,
                s.applied,
                s.refused
            ),
        ));
    }
    let at = |t: Transport, fixed: Option<f64>| {
        rows.iter()
            .find(|r| r.link == key_link && r.transport == t && r.fixed_delay == fixed)
            .map(Row::sums)
    };
    if let (Some(ws), Some(wt)) = (
        at(Transport::WebSocket, None),
        at(Transport::WebTransport, None),
    ) {
        let ratio = wt.bytes / ws.bytes;
        out.push((
            (0.85..=1.15).contains(&ratio),
            format!(
                "{key_link}: {:.1} bytes per player per tick over WebTransport, {:.1} over WebSocket ({:+.1}%); WebTransport's acknowledgements up: {:.1}",
                wt.bytes,
                ws.bytes,
                100.0 * (ratio - 1.0),
                wt.ack_bytes
            ),
        ));
    }
    // Smoothness: at one delay setting a third of WebSocket's bad frames, or as few with
    // at least 80 ms less interpolation delay (any pair of settings).
    let mut delays: Vec<Option<f64>> = rows.iter().map(|r| r.fixed_delay).collect();
    delays.sort_by(|a, b| a.unwrap_or(-1.0).total_cmp(&b.unwrap_or(-1.0)));
    delays.dedup();
    let mut lines = Vec::new();
    let mut held = false;
    for &d in &delays {
        for &e in &delays {
            let (Some(wt), Some(ws)) =
                (at(Transport::WebTransport, d), at(Transport::WebSocket, e))
            else {
                continue;
            };
            let label =
                |d: Option<f64>| d.map_or("adaptive".to_string(), |d| format!("fixed {d:.0} ms"));
            // A third of none is no evidence: WebSocket must have had bad frames.
            let third = d == e && ws.bad_pct() > 0.0 && wt.bad_pct() <= ws.bad_pct() / 3.0;
            let less = wt.bad_pct() <= ws.bad_pct() && wt.delay() <= ws.delay() - 80.0;
            held |= third || less;
            if d == e || less {
                lines.push(format!(
                    "WebTransport ({}) {:.2}% off-speed or frozen at {:.0} ms, WebSocket ({}) {:.2}% at {:.0} ms{}",
                    label(d),
                    wt.bad_pct(),
                    wt.delay(),
                    label(e),
                    ws.bad_pct(),
                    ws.delay(),
                    if third { ": a third or less" } else if less { ": as smooth, 80 ms or more less delay" } else { "" }
                ));
            }
        }
    }
    if !lines.is_empty() {
        out.push((
            held,
            format!("{key_link} smoothness:\n    {}", lines.join("\n    ")),
        ));
    }
    out
}
