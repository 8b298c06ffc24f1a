//! What the watcher sees: every walking bot drawn through tuplet's interpolator at 60
//! frames a second, each frame judged against the speed the bot really walks.

use tuplet::netcode::{EntityFeed, InterpState, NetcodeSettings};
use village::player::PlayerMoveRelayed;

/// Every bot walks its circle at this speed, m/s, without stopping.
pub const SPEED: f64 = 3.0;
/// A frame whose drawn speed is further than this share from [`SPEED`] is off-speed.
pub const OFF_SPEED: f64 = 0.25;
/// A frame whose drawn speed is below this share of [`SPEED`] is frozen.
pub const FROZEN: f64 = 0.1;

/// The judged frames so far.
#[derive(Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct Frames {
    /// Frames drawn, one per bot per frame.
    pub frames: u64,
    /// Of those, frozen ones (the bot drawn standing still or nearly).
    pub frozen: u64,
    /// Of those, off-speed ones that were not frozen.
    pub off_speed: u64,
    /// Sum over the frames of the interpolator's delay (its lag less the clock offset), ms.
    pub delay_sum_ms: f64,
    /// Sum over the frames of how far behind the bot's own clock it is drawn, ms.
    pub behind_sum_ms: f64,
}

/// The interpolators and what each bot was last drawn at.
pub struct Watch {
    feed: EntityFeed<PlayerMoveRelayed>,
    last: Vec<(String, [f64; 3])>,
    last_now: Option<f64>,
    /// The frames judged while measuring.
    pub frames: Frames,
}

impl Watch {
    /// A watcher drawing with `settings`.
    pub fn new(settings: NetcodeSettings) -> Watch {
        Watch {
            feed: EntityFeed::new(settings),
            last: Vec::new(),
            last_now: None,
            frames: Frames::default(),
        }
    }

    /// One relayed move, arrived at `now_ms`.
    pub fn push(&mut self, m: &PlayerMoveRelayed, now_ms: f64) {
        self.feed.push(m, now_ms);
    }

    /// Draws a frame at `now_ms`; judges it when `measuring`.
    pub fn frame(&mut self, now_ms: f64, measuring: bool) {
        let dt = self.last_now.map_or(0.0, |t| now_ms - t);
        self.last_now = Some(now_ms);
        let pool = self.feed.set_mut();
        for i in 0..pool.len() {
            let it = pool.at_mut(i);
            if it.sample(now_ms) == InterpState::Empty {
                continue;
            }
            let out = it.out();
            let p = [out[0], out[1], out[2]];
            let delay = it.lag() - it.timing.offset();
            let behind = it.lag();
            let key = pool.key_at(i).clone();
            let prev = match self.last.iter_mut().find(|e| e.0 == key) {
                Some(e) => Some(std::mem::replace(&mut e.1, p)),
                None => {
                    self.last.push((key, p));
                    None
                }
            };
            let (Some(prev), true) = (prev, measuring && dt > 0.0) else {
                continue;
            };
            let d = ((p[0] - prev[0]).powi(2) + (p[2] - prev[2]).powi(2)).sqrt();
            let speed = d / (dt / 1000.0);
            let f = &mut self.frames;
            f.frames += 1;
            if speed < FROZEN * SPEED {
                f.frozen += 1;
            } else if (speed - SPEED).abs() > OFF_SPEED * SPEED {
                f.off_speed += 1;
            }
            f.delay_sum_ms += delay;
            f.behind_sum_ms += behind;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn relayed(t: u64, x: f32) -> PlayerMoveRelayed {
        PlayerMoveRelayed {
            s: "bot".into(),
            p: [x, 0.0, 0.0],
            r: 0.0,
            t,
            seq: None,
            flags: None,
        }
    }

    /// Samples every 100 ms at `SPEED`, arriving `late(n)` ms after they were sent;
    /// frames every 16 ms, judged after the first second.
    fn run(late: impl Fn(u64) -> Option<f64>) -> Frames {
        let mut w = Watch::new(NetcodeSettings::DEFAULT);
        let mut arrivals: Vec<(f64, PlayerMoveRelayed)> = (0..60u64)
            .filter_map(|n| {
                let sent = n * 100;
                late(n).map(|l| {
                    (
                        sent as f64 + l,
                        relayed(sent, (SPEED * sent as f64 / 1000.0) as f32),
                    )
                })
            })
            .collect();
        arrivals.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut next = 0;
        let mut now = 0.0;
        while now < 5800.0 {
            while next < arrivals.len() && arrivals[next].0 <= now {
                w.push(&arrivals[next].1, arrivals[next].0);
                next += 1;
            }
            w.frame(now, now > 1000.0);
            now += 16.0;
        }
        w.frames
    }

    #[test]
    fn a_steady_stream_draws_at_speed() {
        let f = run(|_| Some(40.0));
        assert!(f.frames > 250, "{f:?}");
        assert_eq!(f.frozen, 0, "{f:?}");
        assert!(f.off_speed * 20 < f.frames, "{f:?}");
    }

    #[test]
    fn a_stall_longer_than_the_delay_freezes_frames() {
        // A TCP-style stall: everything sent from 2.0 s to 2.6 s arrives at 2.9 s.
        let f = run(|n| {
            Some(if (20..26).contains(&n) {
                2900.0 - n as f64 * 100.0
            } else {
                40.0
            })
        });
        let steady = run(|_| Some(40.0));
        assert!(
            f.frozen + f.off_speed > steady.frozen + steady.off_speed + 10,
            "{f:?}"
        );
    }
}
