//! The render clock for server-stamped snapshots. The twin of TypeScript's `render_clock.ts`.

use super::settings::NetcodeSettings;
use super::timing::{follow_time, StreamTiming};

/// Server time for drawing tick-stamped snapshots (`tick * 1000 / rate`): our estimate of the
/// server's clock minus an adaptive delay. It runs at the server's measured rate (a loaded
/// server's tick runs slow and drifts: its timing follows with `clock_rate_block_ms` and
/// `clock_rate_follow_ms`, and on a jittery link holds to a steadier line,
/// `clock_rate_steady_ms`, until the tick's rate departs from it), follows its target faster or
/// slower than that by its distance over `clock_follow_ms`, at most `clock_slew` (5%), snaps
/// only past `clock_snap_ms` (or after a frame gap longer than `resync_gap_ms`), and never runs
/// past the newest snapshot (plus `extrapolate_ms`).
#[derive(Debug, Clone)]
pub struct RenderClock {
    /// The snapshots' timing.
    pub timing: StreamTiming,
    /// True when the last [`RenderClock::now`] snapped instead of slewing.
    pub snapped: bool,
    /// How many times the clock snapped.
    pub snaps: u64,
    time: f64,
    last_now: f64,
    s: NetcodeSettings,
}

impl Default for RenderClock {
    fn default() -> Self {
        RenderClock::new(NetcodeSettings::DEFAULT)
    }
}

impl RenderClock {
    /// A render clock with settings `s`.
    pub fn new(s: NetcodeSettings) -> Self {
        RenderClock {
            timing: StreamTiming::new(NetcodeSettings {
                rate_block_ms: s.clock_rate_block_ms,
                rate_follow_ms: s.clock_rate_follow_ms,
                rate_steady_ms: s.clock_rate_steady_ms,
                ..s
            }),
            snapped: false,
            snaps: 0,
            time: f64::NAN,
            last_now: f64::NAN,
            s,
        }
    }

    /// Our clock minus the render time (ms) at the last [`RenderClock::now`].
    pub fn lag(&self) -> f64 {
        self.last_now - self.time
    }

    /// A snapshot stamped `server_time_ms` arrived at our `arrived_ms`.
    pub fn observe(&mut self, server_time_ms: f64, arrived_ms: f64) {
        self.timing.observe(server_time_ms, arrived_ms, true);
    }

    /// The server-clock time to draw at our `now_ms` (NaN before the first snapshot).
    pub fn now(&mut self, now_ms: f64) -> f64 {
        let s = self.s;
        let dt = if self.last_now.is_nan() {
            0.0
        } else {
            now_ms - self.last_now
        };
        self.last_now = now_ms;
        self.snapped = false;
        let tm = &self.timing;
        if tm.offset().is_nan() {
            return f64::NAN;
        }
        let want = tm.sender_now(now_ms) - tm.target();
        let time = self.time;
        let off = (want - time - dt.max(0.0) / (1.0 + tm.rate())).abs();
        if time.is_nan() || off > s.clock_snap_ms || dt > s.resync_gap_ms {
            if !time.is_nan() {
                self.snaps += 1;
                self.snapped = true;
            }
            self.time = want;
        } else {
            // Toward the target in proportion to how far it is (`clock_follow_ms`), at most
            // `clock_slew`: a jittery target moves the clock's pace little, a far one at the most.
            let slew = s.clock_slew.min(off / s.clock_follow_ms);
            self.time = follow_time(time, want, dt, tm.rate(), slew, slew, s.follow_band_ms);
        }
        // Never past the newest snapshot (and what extrapolation may add): there every entity
        // holds anyway, and the next snapshot then starts from where the drawing stands.
        let newest = self.timing.last_sent() + s.extrapolate_ms.max(0.0);
        if self.time > newest {
            self.time = newest;
        }
        self.time
    }

    /// Forgets everything (a new connection).
    pub fn reset(&mut self) {
        self.timing.reset();
        self.time = f64::NAN;
        self.last_now = f64::NAN;
        self.snapped = false;
    }
}
