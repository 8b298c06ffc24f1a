//! The client side of one run (`transport-lab clients`): a handful of bots walking
//! circles and one watcher drawing them, all over one transport. Prints what they counted
//! as one JSON line.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use tokio::time::MissedTickBehavior;
use tuplet::delta::{Mirror, RING};
use tuplet::netcode::NetcodeSettings;
use tuplet::{Code, Dispatch, Message};
use village::diag::{DiagPing, DiagPong};
use village::dispatch::ServerMessage;
use village::player::{PlayerHeartbeat, PlayerMove, PlayerMoveRelayed};
use village::world::{WorldAck, WorldKeyframeRequest, WorldSnapshot};
use village_server::client::ClientError;

use crate::conn::{Conn, Joined, Transport};
use crate::report::{ClientCounts, RunReport};
use crate::watch::{Watch, SPEED};

/// What `transport-lab clients` is told.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The transport measured.
    pub transport: Transport,
    /// The server, `HOST:PORT`.
    pub addr: String,
    /// The room.
    pub room: String,
    /// Walking bots.
    pub bots: usize,
    /// Seconds before measuring (joins, the interpolators' warm-up).
    pub warmup: f64,
    /// Seconds measured.
    pub secs: f64,
    /// A fixed interpolation delay, ms (the adaptive one when `None`).
    pub fixed_delay: Option<f64>,
}

/// The radius of each bot's circle, m.
const RADIUS: f64 = 4.0;

/// Wall-clock ms: the namespaces share the kernel's clock, so a bot's stamp and the
/// server's and the watcher's read one clock.
pub fn now_ms() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

#[derive(Clone, Copy)]
struct Window {
    start: Instant,
    warmup: Duration,
    stop: Duration,
}

impl Window {
    fn measuring(&self) -> bool {
        let t = self.start.elapsed();
        t >= self.warmup && t < self.stop
    }
    fn over(&self) -> bool {
        self.start.elapsed() >= self.stop
    }
}

/// Joins the watcher, then the bots (in that order: the server's `--spawn` points go by
/// join order), runs them and returns what they counted.
pub async fn run(plan: Plan) -> Result<RunReport, ClientError> {
    let watcher = Conn::open(plan.transport, &plan.addr, &plan.room)
        .await?
        .join("watcher")
        .await?;
    let mut bots = Vec::new();
    for i in 0..plan.bots {
        let c = Conn::open(plan.transport, &plan.addr, &plan.room).await?;
        bots.push(c.join(&format!("bot{i}")).await?);
    }
    let window = Window {
        start: Instant::now(),
        warmup: Duration::from_secs_f64(plan.warmup),
        stop: Duration::from_secs_f64(plan.warmup + plan.secs),
    };
    let settings = match plan.fixed_delay {
        // Fixed: the floor and the cap at `d`, and no raised cap for a long interval
        // (the bots' 100 ms would lift it to 150 ms).
        Some(d) => NetcodeSettings {
            min_delay_ms: d,
            max_delay_ms: d,
            long_interval_cap: 0.0,
            ..NetcodeSettings::DEFAULT
        },
        None => NetcodeSettings::DEFAULT,
    };
    let mut tasks = Vec::new();
    for (i, b) in bots.into_iter().enumerate() {
        tasks.push(tokio::spawn(client(b, Some(i), None, window)));
    }
    let watched = client(watcher, None, Some(Watch::new(settings)), window).await?;
    let mut report = RunReport {
        transport: plan.transport,
        secs: plan.secs,
        bots: plan.bots,
        fixed_delay_ms: plan.fixed_delay,
        clients: vec![watched],
    };
    for t in tasks {
        report.clients.push(t.await??);
    }
    Ok(report)
}

/// One client: a bot (`bot` is its index) walks and pings; the watcher (`watch`) draws
/// the others at 60 frames a second. Both heartbeat, apply snapshots and count bytes.
async fn client(
    joined: Joined,
    bot: Option<usize>,
    mut watch: Option<Watch>,
    window: Window,
) -> Result<ClientCounts, ClientError> {
    let Joined {
        mut conn, spawn, ..
    } = joined;
    let mut counts = ClientCounts::default();
    // Over WebTransport snapshots may come as datagrams: the acknowledged mode, with a
    // `world:ack` for each one applied.
    let acked = conn.datagrams();
    let mut mirror: Mirror<WorldSnapshot> = if acked {
        Mirror::acked(RING)
    } else {
        Mirror::new()
    };
    let mut last_tick: Option<u32> = None;
    let mut steps = tokio::time::interval(Duration::from_millis(100));
    steps.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut frames = tokio::time::interval(Duration::from_micros(16_667));
    frames.set_missed_tick_behavior(MissedTickBehavior::Skip);
    let centre = [f64::from(spawn[0]) - RADIUS, f64::from(spawn[2])];
    let started = now_ms();
    let mut n = 0u64;
    let mut pings: Vec<(u32, f64)> = Vec::new();
    loop {
        tokio::select! {
            _ = steps.tick() => {
                if window.over() {
                    break;
                }
                n += 1;
                let now = now_ms();
                if bot.is_some() {
                    // Round the circle at SPEED; the pose of this instant.
                    let a = SPEED * (now - started) / 1000.0 / RADIUS;
                    let p = [centre[0] + RADIUS * a.cos(), 0.0, centre[1] + RADIUS * a.sin()];
                    let r = (a + std::f64::consts::FRAC_PI_2).sin().atan2((a + std::f64::consts::FRAC_PI_2).cos());
                    conn.send(PlayerMove {
                        p: [p[0] as f32, 0.0, p[2] as f32],
                        r: r as f32,
                        t: now as u64,
                        seq: Some(n as u32),
                        flags: None,
                    }).await?;
                    counts.moves_sent += u64::from(window.measuring());
                    if n.is_multiple_of(10) {
                        let nonce = n as u32;
                        conn.send(DiagPing { nonce, sent: now as u64, want_stats: false }).await?;
                        pings.push((nonce, now));
                    }
                }
                if n.is_multiple_of(5) {
                    conn.send(PlayerHeartbeat { t: now as u64, visible: true, fps: Some(60) }).await?;
                }
            }
            _ = frames.tick(), if watch.is_some() => {
                if let Some(w) = watch.as_mut() {
                    w.frame(now_ms(), window.measuring());
                }
            }
            frame = conn.next() => {
                let Some(f) = frame else {
                    return Err("the server closed the connection".into());
                };
                let now = now_ms();
                let measuring = window.measuring();
                let id = f.frame.id.unwrap_or(u32::MAX);
                if measuring {
                    counts.bytes += f.frame.bytes.len() as u64;
                    counts.frames += 1;
                    if f.datagram {
                        counts.datagram_bytes += f.frame.bytes.len() as u64;
                    }
                }
                if id == WorldSnapshot::ID {
                    if measuring {
                        counts.snapshot_bytes += f.frame.bytes.len() as u64;
                    }
                    match mirror.apply(f.frame.payload()) {
                        Ok(v) => {
                            counts.snapshots_applied += 1;
                            // Applied out of order would be a wrong value drawn.
                            if last_tick.is_some_and(|t| v.tick <= t) {
                                counts.mirror_errors += 1;
                            }
                            last_tick = Some(v.tick);
                            if acked {
                                let n = mirror.ack().min(u64::from(u32::MAX)) as u32;
                                let sent = conn.send(WorldAck { n }).await?;
                                if measuring {
                                    counts.ack_bytes += sent as u64;
                                }
                            }
                        }
                        // Late, duplicated, or its baseline gone: nothing changed.
                        Err(e) if acked && e.code() == Code::NoBaseline => {
                            counts.snapshots_refused += 1;
                        }
                        Err(_) => {
                            counts.mirror_errors += 1;
                            conn.send(WorldKeyframeRequest { last_tick: 0 }).await?;
                        }
                    }
                } else if id == PlayerMoveRelayed::ID {
                    if let Some(w) = watch.as_mut() {
                        if let Ok(ServerMessage::PlayerMoveRelayed(m)) = ServerMessage::from_envelope(&f.frame.bytes) {
                            w.push(&m, now);
                            if measuring {
                                counts.relays += 1;
                                counts.move_delays_ms.push(now - m.t as f64);
                            }
                        }
                    }
                } else if id == DiagPong::ID {
                    if let Ok(ServerMessage::DiagPong(p)) = ServerMessage::from_envelope(&f.frame.bytes) {
                        if let Some(i) = pings.iter().position(|x| x.0 == p.nonce) {
                            let (_, sent) = pings.swap_remove(i);
                            if measuring {
                                counts.ping_up_ms.push(p.server_time as f64 - sent);
                            }
                        }
                    }
                }
            }
        }
    }
    if let Some(w) = watch {
        counts.watched = Some(w.frames);
    }
    conn.close().await;
    Ok(counts)
}
