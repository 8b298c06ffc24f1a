//! The render clock for server-stamped snapshots.

use super::settings::Settings;
use super::timing::StreamTiming;

/// Server time for drawing tick-stamped snapshots (`tick * 1000 / rate`): our estimate of the
/// server's clock minus an adaptive delay; follows its target at most `clock_slew` (5%) fast or
/// slow and snaps only past `clock_snap_ms` (or after a frame gap longer than `resync_gap_ms`).
/// The twin of TypeScript's `RenderClock`.
#[derive(Debug, Clone)]
pub struct RenderClock {
    /// The snapshots' timing.
    pub timing: StreamTiming,
    /// Our clock minus the render time (ms).
    pub lag: f64,
    /// True when the last [`RenderClock::now`] snapped instead of slewing.
    pub snapped: bool,
    /// How many times the clock snapped.
    pub snaps: u64,
    last_now: f64,
    s: Settings,
}

impl Default for RenderClock {
    fn default() -> Self {
        RenderClock::new(Settings::DEFAULT)
    }
}

impl RenderClock {
    /// A render clock with settings `s`.
    pub fn new(s: Settings) -> Self {
        RenderClock {
            timing: StreamTiming::new(s),
            lag: f64::NAN,
            snapped: false,
            snaps: 0,
            last_now: f64::NAN,
            s,
        }
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
        if self.timing.offset.is_nan() {
            return f64::NAN;
        }
        let want = self.timing.offset + self.timing.target;
        if self.lag.is_nan() || (want - self.lag).abs() > s.clock_snap_ms || dt > s.resync_gap_ms {
            if !self.lag.is_nan() {
                self.snaps += 1;
                self.snapped = true;
            }
            self.lag = want;
        } else {
            let step = s.clock_slew * dt.max(0.0);
            self.lag = if want > self.lag {
                want.min(self.lag + step)
            } else {
                want.max(self.lag - step)
            };
        }
        now_ms - self.lag
    }

    /// Forgets everything (a new connection).
    pub fn reset(&mut self) {
        *self = RenderClock::new(self.s);
    }
}
