//! The per-connection message-rate cap: a token bucket.

use std::time::Instant;

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
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn burst_then_rate() {
        let t0 = Instant::now();
        let mut cap = RateCap::new(10.0, 5.0);
        let first: usize = (0..8).filter(|_| cap.take(t0)).count();
        assert_eq!(first, 5);
        assert!(cap.take(t0 + Duration::from_millis(100)));
        assert!(!cap.take(t0 + Duration::from_millis(100)));
    }
}
