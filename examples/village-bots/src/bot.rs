//! One scripted player, and what it counted.

use std::collections::BTreeMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use tokio::time::MissedTickBehavior;
use tuplet::{Dispatch, Message};
use village::chat::{Channel, ChatSay};
use village::diag::{DiagBytesRequest, DiagPing, ServerStats};
use village::dispatch::ServerMessage;
use village::emote::{Emote, EmotePlay};
use village::player::{PlayerHeartbeat, PlayerMove};
use village::watergun::WatergunSpray;
use village_server::client::{Client, Identity};

/// The run's phases, shared by every bot.
#[derive(Debug, Clone)]
pub struct Clock {
    start: Instant,
    warmup: Duration,
    secs: Duration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Warmup,
    Measure,
    Stop,
}

impl Clock {
    pub fn new(warmup: Duration, secs: Duration) -> Clock {
        Clock {
            start: Instant::now(),
            warmup,
            secs,
        }
    }

    fn phase(&self) -> Phase {
        let t = self.start.elapsed();
        if t < self.warmup {
            Phase::Warmup
        } else if t < self.warmup + self.secs {
            Phase::Measure
        } else {
            Phase::Stop
        }
    }
}

/// Who a bot is and what it does.
#[derive(Debug, Clone)]
pub struct BotPlan {
    index: usize,
    url: String,
    room: usize,
    /// Resets the room's percentiles after the warm-up and reads its numbers.
    leader: bool,
    who: Identity,
    /// Signed in with no token.
    guest: bool,
    birds: bool,
    garbage: bool,
    /// Offer permessage-deflate.
    pub deflate: bool,
}

impl BotPlan {
    /// Bot `index` of room `room`; signed in with a token minted with `key` (the leader
    /// with the admin claim: it reads and resets the room's numbers) unless it is one of
    /// the guests or there is no key.
    pub fn new(
        index: usize,
        url: String,
        leader: bool,
        room: usize,
        key: Option<&[u8]>,
    ) -> BotPlan {
        let guest = index % 10 == 3 || key.is_none();
        let name = format!("bot{index}");
        let mut who = match key.filter(|_| !guest) {
            Some(key) => {
                let account = 1 + (room * 1000 + index) as u64;
                let mut claims = village_server::token::Claims::player(account, &name, 24 * 3600);
                claims.admin = leader;
                Identity::signed(key, &claims)
            }
            None => Identity::guest(&name),
        };
        who.old_shape = index % 10 == 7;
        BotPlan {
            index,
            url,
            room,
            leader,
            who,
            guest,
            // Guests subscribe too: the server must not stream to them.
            birds: guest || index % 4 == 1,
            garbage: index % 20 == 19,
            deflate: true,
        }
    }
}

/// What one bot counted during the measured window (and its valid sends overall).
#[derive(Debug, Default)]
pub struct BotResult {
    pub room: usize,
    /// Every valid message sent since connecting (the room must have accepted each).
    pub valid_sent: u64,
    pub garbage_sent: u64,
    pub moves_sent: u64,
    pub corrections: u64,
    pub rtts: Vec<Duration>,
    /// Bytes and frames received per message type in the window.
    pub bytes_in: BTreeMap<&'static str, (u64, u64)>,
    /// The leader's reads of the room's numbers.
    pub window: Option<Window>,
}

/// The room's numbers at the window's start, at its stop, and after draining.
#[derive(Debug)]
pub struct Window {
    pub start: ServerStats,
    pub stop: ServerStats,
    pub end: ServerStats,
    pub secs: f64,
}

/// Everything, per room.
#[derive(Debug, Default)]
pub struct Totals {
    pub bots: Vec<BotResult>,
}

impl Totals {
    pub fn add(&mut self, r: BotResult) {
        self.bots.push(r);
    }
}

const PONG: u32 = village::diag::DiagPong::ID;
const CORRECTION: u32 = village::player::PlayerCorrection::ID;

/// Bytes and frames received per envelope id: a short list (a bot gets a handful of
/// message types), searched linearly, named once at the end.
#[derive(Debug, Default)]
struct ById(Vec<(u32, u64, u64)>);

impl ById {
    fn count(&mut self, id: u32, len: usize) {
        match self.0.iter_mut().find(|e| e.0 == id) {
            Some(e) => {
                e.1 += len as u64;
                e.2 += 1;
            }
            None => self.0.push((id, len as u64, 1)),
        }
    }

    fn by_name(&self) -> BTreeMap<&'static str, (u64, u64)> {
        let mut out: BTreeMap<&'static str, (u64, u64)> = BTreeMap::new();
        for &(id, bytes, n) in &self.0 {
            let name = ServerMessage::MESSAGES
                .iter()
                .find(|m| m.1 == id)
                .map_or("(unknown)", |m| m.0);
            let e = out.entry(name).or_default();
            e.0 += bytes;
            e.1 += n;
        }
        out
    }
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// The pose at step `n`: out from the square along the spawn's bearing and back at 3 m/s,
/// standing still for 2 s of every 12.
struct Walk {
    dir: [f32; 2],
    r: f32,
    r_min: f32,
    r_max: f32,
    out: bool,
}

impl Walk {
    fn new(spawn: [f32; 3], index: usize) -> Walk {
        let r = (spawn[0] * spawn[0] + spawn[2] * spawn[2]).sqrt().max(1.0);
        Walk {
            dir: [spawn[0] / r, spawn[2] / r],
            r,
            r_min: r,
            r_max: r + 30.0 + (index % 4) as f32 * 60.0,
            out: true,
        }
    }

    fn step(&mut self, n: u64) -> ([f32; 3], f32) {
        let standing = n % 120 >= 100;
        if !standing {
            self.r += if self.out { 0.3 } else { -0.3 };
            if self.r >= self.r_max {
                self.out = false;
            } else if self.r <= self.r_min {
                self.out = true;
            }
        }
        let heading = self.dir[1].atan2(self.dir[0]) + if self.out { 0.0 } else { 3.0 };
        let heading = (heading + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
            - std::f32::consts::PI;
        ([self.dir[0] * self.r, 0.0, self.dir[1] * self.r], heading)
    }
}

/// Garbage of a few kinds: not msgpack, an unknown id, an out-of-range move.
fn garbage(n: u64) -> Vec<u8> {
    match n % 3 {
        0 => vec![0xc1, 0x00],
        1 => vec![0xcd, 0x27, 0x0f, 0xc0],
        _ => vec![
            0x01, 0x93, 0x93, 0xce, 0x00, 0x0d, 0xbb, 0xa0, 0x00, 0x00, 0x00, 0x00,
        ],
    }
}

pub async fn run(plan: BotPlan, clock: Clock) -> Result<BotResult, String> {
    let err = |e: village_server::client::ClientError| format!("bot {}: {e}", plan.index);
    let mut c = Client::join_with(&plan.url, &plan.who, plan.deflate)
        .await
        .map_err(err)?;
    let mut res = BotResult {
        room: plan.room,
        valid_sent: 2, // hello, join
        ..BotResult::default()
    };
    let mut walk = Walk::new(c.spawn, plan.index);
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let off = (plan.index * 7) as u64;
    let mut pings: Vec<(u32, Instant)> = Vec::new();
    let mut n = 0u64;
    let mut window_start: Option<(ServerStats, Instant)> = None;
    // Whether received frames count: the phase as of this bot's last step (10 Hz).
    let mut measuring = false;
    let mut by_id = ById::default();
    loop {
        tokio::select! {
            _ = tick.tick() => {
                let phase = clock.phase();
                if phase == Phase::Stop {
                    break;
                }
                measuring = phase == Phase::Measure;
                if plan.leader && phase == Phase::Measure && window_start.is_none() {
                    c.send(DiagBytesRequest { reset: true }).await.map_err(err)?;
                    let stats = c.stats().await.map_err(err)?;
                    res.valid_sent += 2;
                    window_start = Some((stats, Instant::now()));
                }
                n += 1;
                let (p, r) = walk.step(n);
                let seq = n as u32;
                c.feed(PlayerMove { p, r, t: now_ms(), seq: Some(seq), flags: None })
                    .await
                    .map_err(err)?;
                res.valid_sent += 1;
                res.moves_sent += u64::from(measuring);
                if n.is_multiple_of(5) {
                    c.feed(PlayerHeartbeat { t: now_ms(), visible: true, fps: Some(60) })
                        .await
                        .map_err(err)?;
                    res.valid_sent += 1;
                }
                if (n + off).is_multiple_of(20) {
                    let nonce = n as u32;
                    c.feed(DiagPing { nonce, sent: now_ms(), want_stats: false })
                        .await
                        .map_err(err)?;
                    res.valid_sent += 1;
                    if measuring {
                        pings.push((nonce, Instant::now()));
                    }
                }
                if (n + off).is_multiple_of(50) {
                    let text = format!("hello from bot {} ({n})", plan.index);
                    c.feed(ChatSay { text, channel: Channel::Local, reply_to: None })
                        .await
                        .map_err(err)?;
                    res.valid_sent += 1;
                }
                if (n + off).is_multiple_of(70) {
                    c.feed(EmotePlay { emote: Emote::Wave, looping: false }).await.map_err(err)?;
                    res.valid_sent += 1;
                }
                if (n + off).is_multiple_of(90) {
                    c.feed(WatergunSpray { from: p, yaw: r, pitch: 0.1, pressure: 0.7 })
                        .await
                        .map_err(err)?;
                    res.valid_sent += 1;
                }
                if n == 3 && plan.birds {
                    c.feed(village::birds::BirdSubscribe { on: true }).await.map_err(err)?;
                    // A guest's is refused (`birds:subscribe guest_birds`): not valid traffic.
                    if !plan.guest {
                        res.valid_sent += 1;
                    }
                }
                if plan.garbage && n.is_multiple_of(10) {
                    c.feed_raw(garbage(n / 10)).await.map_err(err)?;
                    res.garbage_sent += 1;
                }
                // One socket write for the step's messages.
                c.flush().await.map_err(err)?;
            }
            frame = c.next() => {
                let Some(f) = frame else {
                    return Err(format!("bot {}: the server closed the connection", plan.index));
                };
                // Per frame only what the report needs: the envelope id (already read) for
                // the byte counts; pongs alone are decoded.
                let id = f.id.unwrap_or(u32::MAX);
                if measuring {
                    by_id.count(id, f.bytes.len());
                }
                if id == CORRECTION {
                    res.corrections += 1;
                } else if id == PONG {
                    if let Ok(village::dispatch::ServerMessage::DiagPong(p)) = f.decode() {
                        if let Some(i) = pings.iter().position(|x| x.0 == p.nonce) {
                            res.rtts.push(pings.swap_remove(i).1.elapsed());
                        }
                    }
                }
            }
        }
    }
    res.bytes_in = by_id.by_name();
    // Stop sending. The leader reads the window's percentiles now; then everyone lets the
    // room handle what is in flight, and the leader reads the room's counts (its own stats
    // ping is the room's last valid message).
    let stopped = Instant::now();
    let mut at_stop = None;
    if plan.leader {
        at_stop = Some(c.stats().await.map_err(err)?);
        res.valid_sent += 1;
    }
    let drain_until = Instant::now() + Duration::from_millis(1500);
    while let Some(left) = drain_until.checked_duration_since(Instant::now()) {
        if c.next_within(left).await.is_none() {
            break;
        }
    }
    if plan.leader {
        // Not counted: a stats answer covers the messages handled before its own ping.
        let end = c.stats().await.map_err(err)?;
        if let (Some((start, at)), Some(stop)) = (window_start, at_stop) {
            res.window = Some(Window {
                start,
                stop,
                end,
                secs: stopped.duration_since(at).as_secs_f64(),
            });
        }
    }
    c.close().await;
    Ok(res)
}
