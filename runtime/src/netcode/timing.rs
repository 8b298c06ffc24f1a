//! Per-stream timing: the sender's clock against ours (offset and rate), the interval and its
//! jitter, what recent samples needed of the delay, and the delay they ask for.

use super::settings::NetcodeSettings;

/// The render time one frame later: `time` moves on by `dt_ms` of our clock at the sender's
/// rate (`1 / (1 + rate)`), then toward `want` by what lies beyond `band_ms` of it (within the
/// band it runs on at the rate alone), at most `back_slew` (ms per ms, drawing further in the
/// past) or `ahead_slew` (closer to the present). TypeScript's `followTime`.
pub fn follow_time(
    time: f64,
    want: f64,
    dt_ms: f64,
    rate: f64,
    back_slew: f64,
    ahead_slew: f64,
    band_ms: f64,
) -> f64 {
    let dt = if dt_ms > 0.0 { dt_ms } else { 0.0 };
    let moved = time + dt / (1.0 + rate);
    let d = want - moved;
    let beyond = if d > band_ms {
        d - band_ms
    } else if d < -band_ms {
        d + band_ms
    } else {
        0.0
    };
    moved + beyond.max(-back_slew * dt).min(ahead_slew * dt)
}

/// The target delay after new statistics ask for `wanted` (ms): it holds at `held` unless
/// `wanted` is more, or more than `band_ms` less. TypeScript's `holdTarget`.
pub fn hold_target(held: f64, wanted: f64, band_ms: f64) -> f64 {
    if wanted > held || wanted < held - band_ms {
        wanted
    } else {
        held
    }
}

/// One step of the loop that follows the least arrival − sent of each block with an offset and
/// a rate (a critically damped second-order loop, as clock-sync loops are): from the loop's
/// `offset`, `rate` and mean error `loop_error` (ms), the block's `error` (ms) against the
/// loop's line and `dt_ms` (the sender's ms) since the block before, the new offset (at the
/// block), rate and mean error. An error past 3 times the mean error (a block the link held up)
/// counts only that far, so a stall moves the loop little while a lasting change of rate, whose
/// errors repeat, widens the bound in a few blocks. The offset moves `2k` and the rate `k²` of
/// the error per `dt_ms`, `k = dt_ms / follow_ms` (at most 1); the rate stays within `max_rate`.
/// TypeScript's `rateLoop`.
pub(crate) fn rate_loop(
    offset: f64,
    rate: f64,
    loop_error: f64,
    error: f64,
    dt_ms: f64,
    follow_ms: f64,
    max_rate: f64,
) -> (f64, f64, f64) {
    let bound = 3.0 * loop_error + 1.0;
    let e = error.max(-bound).min(bound);
    let loop_error = loop_error + 0.25 * (e.abs() - loop_error);
    let k = (dt_ms / follow_ms).min(1.0);
    let offset = offset + rate * dt_ms + (2.0 * k).min(1.0) * e;
    let rate = (rate + k * k * e / dt_ms).max(-max_rate).min(max_rate);
    (offset, rate, loop_error)
}

/// The weight of each block's error in the steady loop's recent mean error ([`fast_share`]).
const STEADY_BIAS_WEIGHT: f64 = 0.35;
/// The steady loop counts as departed when its recent mean error passes this many of the fast
/// loop's mean errors (plus `STEADY_FLOOR_MS`).
const STEADY_DEPARTED: f64 = 1.2;
/// Below this share of that bound the steady loop counts as on track.
const STEADY_ON_TRACK: f64 = 0.4;
/// The fast loop's share falls by at most this much per block.
const STEADY_RETURN: f64 = 0.1;
/// A floor under that bound (ms), for a link without jitter.
const STEADY_FLOOR_MS: f64 = 0.5;

/// The innovation test between the two loops of a [`StreamTiming`] with `rate_steady_ms`: the
/// fast loop's share of the line, from its share one block before (`prev`), the steady loop's
/// recent mean error `bias` (ms, signed) and `noise`, the fast loop's mean error. A jittery link
/// leaves the steady loop's errors around zero (share 0, the steady line), a tick whose rate
/// changes sends them one way block after block (share 1 past `STEADY_DEPARTED` of the noise,
/// in between from `STEADY_ON_TRACK` of it). The share falls by at most `STEADY_RETURN` a block,
/// so a swing that eases for a block or two is still followed. TypeScript's `fastShare`.
pub(crate) fn fast_share(prev: f64, bias: f64, noise: f64) -> f64 {
    let bound = STEADY_DEPARTED * noise + STEADY_FLOOR_MS;
    let g = ((bias.abs() - STEADY_ON_TRACK * bound) / ((1.0 - STEADY_ON_TRACK) * bound))
        .clamp(0.0, 1.0);
    g.max(prev - STEADY_RETURN)
}

/// The timing of one stream. The offset and the rate follow the least arrival − sent of each
/// block of `rate_block_ms` with a loop (`rate_loop`; a block held up whole by a stall is
/// skipped; with `rate_steady_ms`, a second, steadier loop gives the line while the fast loop
/// only departs from it as noise does: [`fast_share`]), the offset carried along at the rate
/// between blocks; the delay covers what `late_percentile` of recent samples
/// needed (the interval before each plus its lateness), and a margin. One per interpolator;
/// [`super::RenderClock`] has one too. The twin of TypeScript's `StreamTiming`.
#[derive(Debug, Clone)]
pub struct StreamTiming {
    offset: f64,
    rate: f64,
    interval: f64,
    interval_jitter: f64,
    need: f64,
    due: f64,
    target: f64,
    last_sent: f64,
    block_start: f64,
    block_min: f64,
    block_at: f64,
    loop_at: f64,
    loop_offset: f64,
    loop_error: f64,
    loop_rate: f64,
    steady_offset: f64,
    steady_rate: f64,
    steady_error: f64,
    steady_bias: f64,
    fast_share: f64,
    line_offset: f64,
    s: NetcodeSettings,
    needs: Vec<f64>,
    sorted: Vec<f64>,
    need_count: usize,
    need_head: usize,
}

impl StreamTiming {
    /// Timing under settings `s`.
    pub fn new(s: NetcodeSettings) -> Self {
        let w = s.late_window.max(1);
        StreamTiming {
            offset: f64::NAN,
            rate: 0.0,
            interval: f64::NAN,
            interval_jitter: 0.0,
            need: 0.0,
            due: 0.0,
            target: s.min_delay_ms,
            last_sent: f64::NAN,
            block_start: f64::NAN,
            block_min: f64::NAN,
            block_at: f64::NAN,
            loop_at: f64::NAN,
            loop_offset: f64::NAN,
            loop_error: f64::NAN,
            loop_rate: 0.0,
            steady_offset: f64::NAN,
            steady_rate: 0.0,
            steady_error: f64::NAN,
            steady_bias: 0.0,
            fast_share: 1.0,
            line_offset: f64::NAN,
            s,
            needs: vec![0.0; w],
            sorted: vec![0.0; w],
            need_count: 0,
            need_head: 0,
        }
    }

    /// Our clock minus the sender's at its newest sample (ms, the lower envelope); NaN before
    /// the first.
    pub fn offset(&self) -> f64 {
        self.offset
    }

    /// How much slower the sender's clock runs than ours (0.1: 10% slow; negative: fast).
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// Average interval between samples on the sender's clock (ms); NaN before two samples.
    pub fn interval(&self) -> f64 {
        self.interval
    }

    /// Mean deviation of the interval (ms).
    pub fn interval_jitter(&self) -> f64 {
        self.interval_jitter
    }

    /// The delay (ms) that `late_percentile` of recent samples needed to arrive before the
    /// drawn time reached them: the interval since the sample before plus its lateness.
    pub fn need(&self) -> f64 {
        self.need
    }

    /// The delay `overdue_percentile` of recent samples needed: a next sample not there by
    /// then (on the sender's clock, past the newest) is overdue.
    pub fn due(&self) -> f64 {
        self.due
    }

    /// The delay the statistics ask for (ms), within its bounds, held within `target_band_ms`.
    pub fn target(&self) -> f64 {
        self.target
    }

    /// The newest sample's time on the sender's clock (ms); NaN before the first.
    pub fn last_sent(&self) -> f64 {
        self.last_sent
    }

    /// Forgets everything (keeps its buffers).
    pub fn reset(&mut self) {
        self.offset = f64::NAN;
        self.rate = 0.0;
        self.interval = f64::NAN;
        self.interval_jitter = 0.0;
        self.need = 0.0;
        self.due = 0.0;
        self.target = self.s.min_delay_ms;
        self.last_sent = f64::NAN;
        self.block_start = f64::NAN;
        self.block_min = f64::NAN;
        self.block_at = f64::NAN;
        self.loop_at = f64::NAN;
        self.loop_offset = f64::NAN;
        self.loop_error = f64::NAN;
        self.loop_rate = 0.0;
        self.steady_offset = f64::NAN;
        self.steady_rate = 0.0;
        self.steady_error = f64::NAN;
        self.steady_bias = 0.0;
        self.fast_share = 1.0;
        self.line_offset = f64::NAN;
        self.need_count = 0;
        self.need_head = 0;
    }

    /// True once an interval was measured.
    pub fn warm(&self) -> bool {
        !self.interval.is_nan()
    }

    /// One sample sent at `sent_ms` (sender's clock) arrived at `arrived_ms` (ours).
    /// `count_interval` false skips the interval statistics (after a silence).
    pub fn observe(&mut self, sent_ms: f64, arrived_ms: f64, count_interval: bool) {
        let s = self.s;
        let raw = arrived_ms - sent_ms;
        self.block(sent_ms, raw);
        // Until the first block closes, the offset is the least arrival − sent so far (rate 0).
        self.offset = if self.loop_at.is_nan() {
            self.block_min
        } else {
            self.line_offset + self.rate * (sent_ms - self.loop_at)
        };
        let late = (raw - self.offset).min(s.max_delay_ms);
        let had = !self.last_sent.is_nan();
        if had && count_interval {
            self.interval_sample(sent_ms - self.last_sent);
        }
        let iv = if had && count_interval {
            sent_ms - self.last_sent
        } else {
            self.interval
        };
        self.need_sample(late + if iv.is_nan() { 0.0 } else { iv });
        self.last_sent = sent_ms;
        self.write_target();
    }

    /// Records a sample's time on a clock that needs no offset (a server tick); intervals only.
    pub fn observe_time(&mut self, time_ms: f64, count_interval: bool) {
        if !self.last_sent.is_nan() && count_interval {
            self.interval_sample(time_ms - self.last_sent);
        }
        self.last_sent = time_ms;
        self.write_target();
    }

    /// The sender's clock at our `now_ms`, from the newest sample, the offset and the rate
    /// (NaN before a sample).
    pub fn sender_now(&self, now_ms: f64) -> f64 {
        self.last_sent + (now_ms - self.last_sent - self.offset) / (1.0 + self.rate)
    }

    fn interval_sample(&mut self, iv: f64) {
        if !(iv > 0.0) {
            return;
        }
        if self.interval.is_nan() {
            self.interval = iv;
            return;
        }
        let w = (1.0 - (-iv / self.s.stats_ms).exp()).min(self.s.stats_max_weight);
        self.interval_jitter += w * ((iv - self.interval).abs() - self.interval_jitter);
        self.interval += w * (iv - self.interval);
    }

    /// Keeps what a sample needed in the window (and a sorted copy), writes its percentile.
    fn need_sample(&mut self, need: f64) {
        let w = self.needs.len();
        let mut n = self.need_count;
        if n == w {
            // the oldest leaves the sorted copy
            let old = self.needs[self.need_head];
            let mut i = 0;
            while i < n - 1 && self.sorted[i] != old {
                i += 1;
            }
            self.sorted.copy_within(i + 1..n, i);
            n -= 1;
        }
        let mut j = n;
        while j > 0 && self.sorted[j - 1] > need {
            self.sorted[j] = self.sorted[j - 1];
            j -= 1;
        }
        self.sorted[j] = need;
        n += 1;
        self.needs[self.need_head] = need;
        self.need_head = (self.need_head + 1) % w;
        self.need_count = n;
        let k = ((self.s.late_percentile * n as f64).ceil() - 1.0).max(0.0) as usize;
        self.need = self.sorted[k.min(n - 1)];
        let d = ((self.s.overdue_percentile * n as f64).ceil() - 1.0).max(0.0) as usize;
        self.due = self.sorted[d.min(n - 1)];
    }

    fn block(&mut self, sent_ms: f64, raw: f64) {
        let start = self.block_start;
        if !start.is_nan() && sent_ms - start < self.s.rate_block_ms {
            if raw < self.block_min {
                self.block_min = raw;
                self.block_at = sent_ms;
            }
            return;
        }
        // A block whose least delay this sample undercuts by more than 3/4 of the time between
        // them was held up whole (a stall: what was sent in it arrived in a burst): it says nothing.
        if !start.is_nan() && !(raw - self.block_min < -0.75 * (sent_ms - self.block_at)) {
            self.close_block(self.block_at, self.block_min);
        }
        self.block_start = sent_ms;
        self.block_min = raw;
        self.block_at = sent_ms;
    }

    /// The block's least arrival − sent `min` (at the sender's `at`) steps the loop
    /// ([`rate_loop`]) that follows the blocks with an offset and a rate.
    fn close_block(&mut self, at: f64, min: f64) {
        if self.loop_at.is_nan() {
            // the first block starts the loop at its least arrival − sent
            self.loop_at = at;
            self.loop_offset = min;
            self.loop_error = self.s.max_rate * self.s.rate_block_ms;
            self.steady_offset = min;
            self.steady_error = self.loop_error;
            self.line_offset = min;
            return;
        }
        let dt = at - self.loop_at;
        if !(dt > 0.0) {
            return;
        }
        let s = self.s;
        let error = min - (self.loop_offset + self.loop_rate * dt);
        (self.loop_offset, self.loop_rate, self.loop_error) = rate_loop(
            self.loop_offset,
            self.loop_rate,
            self.loop_error,
            error,
            dt,
            s.rate_follow_ms,
            s.max_rate,
        );
        if s.rate_steady_ms > 0.0 {
            let e = min - (self.steady_offset + self.steady_rate * dt);
            (self.steady_offset, self.steady_rate, self.steady_error) = rate_loop(
                self.steady_offset,
                self.steady_rate,
                self.steady_error,
                e,
                dt,
                s.rate_steady_ms,
                s.max_rate,
            );
            self.steady_bias += STEADY_BIAS_WEIGHT * (e - self.steady_bias);
            self.fast_share = fast_share(self.fast_share, self.steady_bias, self.loop_error);
            // The line: the steady loop's, moved toward the fast loop's by the fast loop's share.
            let w = self.fast_share;
            self.line_offset = self.steady_offset + w * (self.loop_offset - self.steady_offset);
            self.rate = self.steady_rate + w * (self.loop_rate - self.steady_rate);
        } else {
            self.line_offset = self.loop_offset;
            self.rate = self.loop_rate;
        }
        self.loop_at = at;
    }

    fn write_target(&mut self) {
        let s = self.s;
        if self.interval.is_nan() {
            self.target = s.min_delay_ms;
            return;
        }
        let want = self.need + s.delay_margin_ms;
        let hi = s.max_delay_ms.max(s.long_interval_cap * self.interval);
        self.target = hold_target(
            self.target,
            want.max(s.min_delay_ms).min(hi),
            s.target_band_ms,
        );
    }
}
