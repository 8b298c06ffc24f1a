//! What a run counted, and the numbers the table prints from it.

use crate::conn::Transport;
use crate::watch::Frames;

/// The server's tick rate (`village-server`'s default): snapshots per second.
pub const TICK_HZ: f64 = 20.0;

/// What one client counted while measuring.
#[derive(Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct ClientCounts {
    /// Envelope bytes received (the frames' own bytes, no transport framing).
    pub bytes: u64,
    /// Of those, the ones that came as datagrams.
    pub datagram_bytes: u64,
    /// Of those, `world:snapshot`'s.
    pub snapshot_bytes: u64,
    /// Frames received.
    pub frames: u64,
    /// Snapshots applied to the mirror, over the whole run.
    pub snapshots_applied: u64,
    /// Mirror errors, over the whole run: a payload the mirror could not read (any error
    /// but a refusal, below), or an applied snapshot whose tick is not after the last
    /// applied one's.
    pub mirror_errors: u64,
    /// Payloads the acknowledged mirror refused as late, duplicated, or against a baseline
    /// it no longer holds (`no_baseline`: nothing changed, nothing wrong drawn), over the
    /// whole run. Always 0 over a WebSocket, whose mirror is in the reliable mode.
    #[serde(default)]
    pub snapshots_refused: u64,
    /// `world:ack` envelope bytes sent (WebTransport only), while measuring.
    #[serde(default)]
    pub ack_bytes: u64,
    /// Moves this bot sent.
    pub moves_sent: u64,
    /// Relayed moves the watcher received.
    pub relays: u64,
    /// Each relayed move's age on arrival at the watcher: the bot's stamp to the watcher's
    /// clock, through the server, ms.
    pub move_delays_ms: Vec<f64>,
    /// Each ping's delay to the server: its stamp to the server's answer time, ms.
    pub ping_up_ms: Vec<f64>,
    /// The watcher's judged frames.
    pub watched: Option<Frames>,
}

/// One run: one transport over one link and seed.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct RunReport {
    /// The transport.
    pub transport: Transport,
    /// Seconds measured.
    pub secs: f64,
    /// Walking bots.
    pub bots: usize,
    /// The interpolation delay when fixed.
    pub fixed_delay_ms: Option<f64>,
    /// The watcher first, then the bots.
    pub clients: Vec<ClientCounts>,
}

/// The `q` quantile of `v` (sorted here), NaN when empty.
pub fn quantile(v: &[f64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s[((s.len() - 1) as f64 * q).round() as usize]
}

impl RunReport {
    /// The watcher's frames.
    pub fn frames(&self) -> Frames {
        self.clients
            .first()
            .and_then(|c| c.watched.clone())
            .unwrap_or_default()
    }

    /// Envelope bytes received per player per server tick.
    pub fn bytes_per_player_tick(&self) -> f64 {
        let bytes: u64 = self.clients.iter().map(|c| c.bytes).sum();
        bytes as f64 / (self.clients.len() as f64 * self.secs * TICK_HZ)
    }

    /// The share of received bytes that came as datagrams.
    pub fn datagram_share(&self) -> f64 {
        let all: u64 = self.clients.iter().map(|c| c.bytes).sum();
        let dg: u64 = self.clients.iter().map(|c| c.datagram_bytes).sum();
        dg as f64 / all.max(1) as f64
    }

    /// Mirror errors over every client.
    pub fn mirror_errors(&self) -> u64 {
        self.clients.iter().map(|c| c.mirror_errors).sum()
    }

    /// Snapshots refused by the acknowledged mirrors (late, duplicated, baseline gone).
    pub fn snapshots_refused(&self) -> u64 {
        self.clients.iter().map(|c| c.snapshots_refused).sum()
    }

    /// `world:ack` bytes sent per player per server tick.
    pub fn ack_bytes_per_player_tick(&self) -> f64 {
        let bytes: u64 = self.clients.iter().map(|c| c.ack_bytes).sum();
        bytes as f64 / (self.clients.len() as f64 * self.secs * TICK_HZ)
    }

    /// Snapshots applied over every client.
    pub fn snapshots_applied(&self) -> u64 {
        self.clients.iter().map(|c| c.snapshots_applied).sum()
    }

    /// Every relayed move's age at the watcher.
    pub fn move_delays(&self) -> Vec<f64> {
        self.clients
            .iter()
            .flat_map(|c| c.move_delays_ms.iter().copied())
            .collect()
    }

    /// Every ping's delay to the server.
    pub fn ping_up(&self) -> Vec<f64> {
        self.clients
            .iter()
            .flat_map(|c| c.ping_up_ms.iter().copied())
            .collect()
    }
}
