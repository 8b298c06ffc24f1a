//! The per-connection message-rate cap: a token bucket.

use std::time::{Duration, Instant};

/// `rate` messages a second sustained, `burst` at once.
#[derive(Debug)]
pub(crate) struct RateCap {
    rate: f64,
    burst: f64,
    tokens: f64,
    at: Instant,
}

impl RateCap {
    pub(crate) fn new(rate: f64, burst: f64) -> RateCap {
        RateCap {
            rate,
            burst,
            tokens: burst,
            at: Instant::now(),
        }
    }

    /// Takes one token; false when the client is over its rate.
    pub(crate) fn take(&mut self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Takes `n` tokens at once, into debt if need be: [`RateCap::ready_in`] then waits
    /// the debt off.
    pub(crate) fn spend(&mut self, now: Instant, n: f64) {
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst) - n;
    }

    /// Tokens there at `now` (negative while in debt).
    pub(crate) fn available(&self, now: Instant) -> f64 {
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        (self.tokens + dt * self.rate).min(self.burst)
    }

    /// How long from `now` until a token is there (zero: there is one).
    pub(crate) fn ready_in(&self, now: Instant) -> Duration {
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        let tokens = (self.tokens + dt * self.rate).min(self.burst);
        Duration::from_secs_f64((1.0 - tokens).max(0.0) / self.rate.max(1e-9))
    }
}

/// Whether a client stays over its rate cap: whole seconds with drops in a row.
#[derive(Debug, Default)]
pub(crate) struct Flood {
    /// The start of the current one-second window with drops.
    window: Option<Instant>,
    /// Windows with drops in a row, the current one included.
    streak: u32,
}

impl Flood {
    /// Counts a dropped frame at `now`; true once `close_after` one-second windows in a
    /// row each had a drop.
    pub(crate) fn on_drop(&mut self, now: Instant, close_after: u32) -> bool {
        const SECOND: Duration = Duration::from_secs(1);
        match self.window {
            Some(w) if now < w + SECOND => {}
            Some(w) if now < w + 2 * SECOND => {
                self.window = Some(w + SECOND);
                self.streak += 1;
            }
            _ => {
                self.window = Some(now);
                self.streak = 1;
            }
        }
        self.streak >= close_after.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_is_seconds_of_drops_in_a_row() {
        let t0 = Instant::now();
        let ms = |n| t0 + Duration::from_millis(n);
        let mut f = Flood::default();
        // One burst, then quiet, then another: never a flood.
        assert!(!f.on_drop(ms(0), 3));
        assert!(!f.on_drop(ms(500), 3));
        assert!(!f.on_drop(ms(5000), 3));
        // Drops in each of three seconds in a row: a flood.
        let mut f = Flood::default();
        assert!(!f.on_drop(ms(0), 3));
        assert!(!f.on_drop(ms(1100), 3));
        assert!(f.on_drop(ms(2050), 3));
    }

    #[test]
    fn burst_then_rate() {
        let t0 = Instant::now();
        let mut cap = RateCap::new(10.0, 5.0);
        let first: usize = (0..8).filter(|_| cap.take(t0)).count();
        assert_eq!(first, 5);
        assert!(cap.take(t0 + Duration::from_millis(100)));
        assert!(!cap.take(t0 + Duration::from_millis(100)));
        // Empty: the next token a tenth of a second later (at 10 a second).
        let at = t0 + Duration::from_millis(100);
        let wait = cap.ready_in(at).as_secs_f64();
        assert!((wait - 0.1).abs() < 1e-6, "{wait}");
        assert!(cap.ready_in(at + Duration::from_millis(100)).is_zero());
    }
}
