//! Per-stream timing: the sender's clock offset, interval, lateness, jitters, target delay.

use super::settings::Settings;

/// The timing of one stream: a lower envelope of arrival − sent with a slow upward creep, the
/// averages of interval and lateness with their mean deviations, and the delay they ask for.
/// One per interpolator (each entity's delay fits its own interval); [`super::RenderClock`] has
/// one too. The twin of TypeScript's `StreamTiming`.
#[derive(Debug, Clone)]
pub struct StreamTiming {
    /// The lower envelope of arrival − sent (ms); NaN before the first sample.
    pub offset: f64,
    /// Average interval on the sender's clock (ms); NaN before two samples.
    pub interval: f64,
    /// Mean deviation of the interval (ms).
    pub interval_jitter: f64,
    /// Average lateness: arrival − (sent + offset) (ms).
    pub late: f64,
    /// Mean deviation of the lateness (ms).
    pub late_jitter: f64,
    /// The delay the statistics ask for (ms), within its bounds.
    pub target: f64,
    last_sent: f64,
    last_arrived: f64,
    s: Settings,
}

impl StreamTiming {
    /// Timing under settings `s`.
    pub fn new(s: Settings) -> Self {
        StreamTiming {
            offset: f64::NAN,
            interval: f64::NAN,
            interval_jitter: 0.0,
            late: 0.0,
            late_jitter: 0.0,
            target: s.min_delay_ms,
            last_sent: f64::NAN,
            last_arrived: f64::NAN,
            s,
        }
    }

    /// Forgets everything.
    pub fn reset(&mut self) {
        *self = StreamTiming::new(self.s);
    }

    /// True once an interval was measured.
    pub fn warm(&self) -> bool {
        !self.interval.is_nan()
    }

    fn weight(&self, iv: f64) -> f64 {
        (1.0 - (-iv / self.s.stats_ms).exp()).min(self.s.stats_max_weight)
    }

    fn interval_sample(&mut self, iv: f64) {
        if self.interval.is_nan() {
            self.interval = iv;
        } else {
            let w = self.weight(iv);
            self.interval_jitter += w * ((iv - self.interval).abs() - self.interval_jitter);
            self.interval += w * (iv - self.interval);
        }
    }

    /// One sample sent at `sent_ms` (sender's clock) arrived at `arrived_ms` (ours).
    /// `count_interval` false skips the interval statistics (after a silence).
    pub fn observe(&mut self, sent_ms: f64, arrived_ms: f64, count_interval: bool) {
        let s = self.s;
        let raw = arrived_ms - sent_ms;
        if self.offset.is_nan() {
            self.offset = raw;
        } else {
            let creep = (arrived_ms - self.last_arrived).max(0.0) * s.offset_creep;
            self.offset = (self.offset + creep).min(raw);
        }
        let late = (arrived_ms - sent_ms - self.offset).min(s.max_delay_ms);
        if self.last_sent.is_nan() {
            self.late = late;
        } else {
            let iv = sent_ms - self.last_sent;
            let w = self.weight(iv);
            if count_interval && iv > 0.0 {
                if self.interval.is_nan() {
                    self.interval = iv;
                } else {
                    self.interval_jitter += w * ((iv - self.interval).abs() - self.interval_jitter);
                    self.interval += w * (iv - self.interval);
                }
            }
            self.late_jitter += w * ((late - self.late).abs() - self.late_jitter);
            self.late += w * (late - self.late);
        }
        self.last_sent = sent_ms;
        self.last_arrived = arrived_ms;
        self.target = self.target_delay();
    }

    /// Records a sample's time on a clock that needs no offset (a server tick).
    pub fn observe_time(&mut self, time_ms: f64, count_interval: bool) {
        if !self.last_sent.is_nan() {
            let iv = time_ms - self.last_sent;
            if count_interval && iv > 0.0 {
                self.interval_sample(iv);
            }
        }
        self.last_sent = time_ms;
    }

    /// One interval + lateness + `jitter_factor` × both jitters − `dry_grace_ms`, clamped.
    pub fn target_delay(&self) -> f64 {
        let s = self.s;
        if self.interval.is_nan() {
            return s.min_delay_ms;
        }
        let want =
            self.interval + self.late + s.jitter_factor * (self.interval_jitter + self.late_jitter)
                - s.dry_grace_ms;
        let hi = s.max_delay_ms.max(s.long_interval_cap * self.interval);
        want.max(s.min_delay_ms).min(hi)
    }

    /// How long the entity may be extrapolated past its newest sample (ms).
    pub fn extrapolate_limit(&self) -> f64 {
        let iv = if self.interval.is_nan() {
            0.0
        } else {
            self.interval
        };
        self.s.extrapolate_ms.max(self.s.extrapolate_intervals * iv)
    }
}
