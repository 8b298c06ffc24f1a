//! Diagnostics: the 2 s ping, the on-demand server numbers (`?diag=1`), client frame
//! reports and per-type byte counters. Ids 70–89.

use std::collections::BTreeMap;

/// Sent by every client every two seconds; measures round trip and, with `?diag=1`, asks
/// for the server's numbers on the pong.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "diag:ping", id = 70, dir = "c2s", budget = 20)]
pub struct DiagPing {
    /// Echoed back.
    pub nonce: u32,
    /// Client time when sent, ms.
    pub sent: u64,
    /// Ask for `ServerStats` on the pong.
    pub want_stats: bool,
}

/// The server's numbers, measured without broadcasting anything.
#[derive(Debug, Clone, Default, PartialEq, tuplet::Record)]
pub struct ServerStats {
    /// Event-loop lag: how late the unref'd 500 ms timer fired, ms.
    pub loop_lag_ms: f64,
    /// Smoothed cost of one `player:move` handler, ms.
    pub move_cost_ms: f32,
    /// All-time peak of that cost, ms.
    pub move_cost_peak_ms: f32,
    /// Resident set size, bytes.
    pub rss: u64,
    /// JS heap in use, bytes.
    pub heap_used: u64,
    /// Moves handled in the last second.
    pub moves_per_s: u16,
    /// Process uptime, seconds.
    pub uptime_s: u32,
    /// Tick lateness since the last reset (`diag:bytes` with `reset`), 95th percentile, ms.
    pub tick_late_p95_ms: Option<f32>,
    /// Tick lateness since the last reset, worst, ms.
    pub tick_late_max_ms: Option<f32>,
    /// Cost of one `player:move` (decode, validate, fan-out encode, enqueue) since the last
    /// reset, median, ms.
    pub move_cost_p50_ms: Option<f32>,
    /// The same cost, 95th percentile, ms.
    pub move_cost_p95_ms: Option<f32>,
    /// Moves handled since the room opened.
    pub moves: Option<u64>,
    /// Valid messages handled since the room opened.
    pub accepted: Option<u64>,
    /// Inputs dropped since the room opened, by message type and code
    /// (`"player:move out_of_range"`, `"(frame) too_large"`).
    #[tuplet(len(max = 64))]
    pub dropped: Option<BTreeMap<String, u32>>,
    /// Frames the server could not queue because a client's queue was full, since the room
    /// opened.
    pub unsent: Option<u64>,
}

/// The answer to `diag:ping`, sent to that client only.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "diag:pong", id = 70, dir = "s2c")]
pub struct DiagPong {
    /// The ping's nonce.
    pub nonce: u32,
    /// The ping's `sent`, echoed.
    pub sent: u64,
    /// Server clock when answered, ms.
    pub server_time: u64,
    /// The server's numbers, when asked for.
    pub stats: Option<ServerStats>,
}

/// Sent by a client with `?diag=1` every 10 s: how its renderer copes.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "diag:frames", id = 71, dir = "c2s")]
pub struct DiagFrames {
    /// Median frame time, ms.
    #[tuplet(range(0.0, 1000.0))]
    pub frame_ms: f32,
    /// 99th percentile frame time, ms.
    #[tuplet(range(0.0, 1000.0))]
    pub frame_p99_ms: f32,
    /// Draw calls in the last frame.
    pub draw_calls: u16,
    /// Scene nodes alive.
    pub nodes: u32,
    /// JS heap, MiB.
    pub heap_mib: u16,
    /// WebGL renderer string.
    #[tuplet(len(max = 96))]
    pub gpu: String,
}

/// Sent by an admin client asking for the byte meters of this room.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "diag:bytes", id = 72, dir = "c2s")]
pub struct DiagBytesRequest {
    /// Reset the meters after reading.
    pub reset: bool,
}

/// Bytes sent per message type since the last reset: the table that showed birds, not
/// players, dominated the downstream.
#[derive(Debug, Clone, PartialEq, tuplet::Message)]
#[tuplet(name = "diag:bytes", id = 72, dir = "s2c")]
pub struct DiagBytes {
    /// Since when, ms.
    pub since: u64,
    /// Message name to bytes out.
    #[tuplet(len(max = 320))]
    pub out: BTreeMap<String, u64>,
    /// Message name to bytes in.
    #[tuplet(len(max = 320))]
    pub inbound: BTreeMap<String, u64>,
}
