//! Every constant of interpolation and the render clock, named, with its default (the same
//! as TypeScript's `NETCODE_DEFAULTS`, `settings.ts`).

/// The constants of interpolation and the render clock; [`NetcodeSettings::DEFAULT`] fits
/// metres and 10–20 Hz senders. Field docs say what each tunes (docs/netcode.md, "Constants").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NetcodeSettings {
    /// Samples kept per entity (a fixed ring): 16 spans 750 ms at 20 Hz, `max_delay_ms` plus the
    /// wait of a 450 ms stall. While a stall holds the drawing at the newest sample the delay
    /// grows by the wait, so a render time may stand further back than `max_delay_ms`. A full
    /// ring whose oldest sample the drawing still needs (a faster sender, a longer stall) thins
    /// out its densest stretch instead of dropping it.
    pub ring_size: usize,
    /// The least delay drawn behind the sender's clock (ms): the floor of the adaptive delay.
    pub min_delay_ms: f64,
    /// The most delay for an entity sending at the usual rate (ms).
    pub max_delay_ms: f64,
    /// For an entity whose own interval is long (relayed every 3rd or 10th move), the cap is
    /// raised to this many of its intervals, so its delay still covers one interval.
    pub long_interval_cap: f64,
    /// The share of recent samples the delay covers: each needed the interval before it plus
    /// its lateness (0.98: all but the latest 2% arrive before the drawn time reaches them; 1:
    /// every one of the window, so a single late burst in it is covered, at 10-20 ms more delay).
    pub late_percentile: f64,
    /// How many recent samples that percentile is taken over (256: 25.6 s at 10 Hz, so a
    /// message the link holds up now and then keeps the delay where it is instead of stepping
    /// it up for one window and down after it).
    pub late_window: usize,
    /// Added to that percentile (ms): slack for a frame's timing.
    pub delay_margin_ms: f64,
    /// Time constant (ms of the sender's clock) of the average interval and its jitter.
    pub stats_ms: f64,
    /// The most weight one sample gets in those averages.
    pub stats_max_weight: f64,
    /// How fast the delay grows toward a higher target (ms of delay per ms).
    pub grow_slew: f64,
    /// How fast the delay relaxes toward a lower target (ms per ms).
    pub relax_slew: f64,
    /// The sender's clock is measured from the least arrival − sent of blocks this long (ms).
    pub rate_block_ms: f64,
    /// The time constant (ms) of the loop that follows those blocks' least arrival − sent with
    /// an offset and a rate: shorter follows a changing rate sooner, longer smooths jitter more.
    pub rate_follow_ms: f64,
    /// When more than 0, a second loop over the same blocks follows in this time (ms) and gives
    /// the offset and the rate while the fast loop (`rate_follow_ms`) departs from it only as
    /// noise does: steadier on a jittery link, as fast as the fast loop when the rate changes.
    /// 0: the fast loop alone.
    pub rate_steady_ms: f64,
    /// The most the sender's clock may run slow or fast against ours (0.2: 20%).
    pub max_rate: f64,
    /// Past the newest sample an entity holds there. When `extrapolate_ms` > 0, once this many
    /// of its intervals are missed its position (never its angles) moves on at its velocity ...
    pub extrapolate_after: f64,
    /// ... for at most this long (ms; 0: never), then it eases back to the last real sample.
    pub extrapolate_ms: f64,
    /// Time dilation: when the render time comes closer than this (ms) to the newest sample of
    /// a moving entity, it slows, linearly down to `dilate_min` of its pace at the newest
    /// sample (0: never; it runs on and holds there).
    pub dilate_below_ms: f64,
    /// The slowest pace of that dilation (0.8: 20% slow, under the 30% a player sees as a hitch).
    pub dilate_min: f64,
    /// Dilation starts only once the next sample is overdue: later than this share of recent
    /// samples needed (the interval before each plus its lateness), not on every interval.
    pub overdue_percentile: f64,
    /// The target delay holds: it moves up as soon as the statistics ask for more, down only
    /// when they ask for more than this (ms) less, so a sample entering or leaving the window
    /// moves it little.
    pub target_band_ms: f64,
    /// Within this (ms) of its target the render time (and [`crate::netcode::RenderClock`]'s)
    /// runs at the sender's rate; only what lies beyond is followed, so noise in the offset and
    /// the target does not move it.
    pub follow_band_ms: f64,
    /// A difference between what was drawn and what new samples say eases out in this time (ms, 95%).
    pub recover_ms: f64,
    /// A move longer than this (units of the first `teleport_channels` linear channels) ...
    pub teleport_distance: f64,
    /// ... and faster than this (units per second) between two samples is a teleport: a snap.
    pub teleport_speed: f64,
    /// How many leading linear channels form the position the teleport test measures.
    pub teleport_channels: usize,
    /// A frame gap longer than this (ms; a hidden tab) resyncs: no blending, no catching up.
    pub resync_gap_ms: f64,
    /// [`crate::netcode::RenderClock`]: the most its time runs fast or slow beyond the sender's
    /// rate (0.05: 5%).
    pub clock_slew: f64,
    /// Within that, it runs fast or slow by its distance from its target over this time (ms):
    /// 40 ms off at 2000 ms runs 2% fast or slow.
    pub clock_follow_ms: f64,
    /// [`crate::netcode::RenderClock`]: its `rate_block_ms` and `rate_follow_ms`. One snapshot
    /// stream at the server's tick fills shorter blocks, and a server's tick drifts with its
    /// load: it follows sooner.
    pub clock_rate_block_ms: f64,
    /// [`crate::netcode::RenderClock`]: its `rate_follow_ms` (with `clock_rate_block_ms`).
    pub clock_rate_follow_ms: f64,
    /// [`crate::netcode::RenderClock`]: its `rate_steady_ms`: a steadier line on a jittery
    /// link, as fast when the tick's rate changes.
    pub clock_rate_steady_ms: f64,
    /// A render time more than this behind its target (ms) snaps instead of slewing.
    pub clock_snap_ms: f64,
}

impl NetcodeSettings {
    /// The defaults (docs/netcode.md, "Constants").
    pub const DEFAULT: NetcodeSettings = NetcodeSettings {
        ring_size: 16,
        min_delay_ms: 120.0,
        max_delay_ms: 300.0,
        long_interval_cap: 1.5,
        late_percentile: 0.98,
        late_window: 256,
        delay_margin_ms: 0.0,
        stats_ms: 400.0,
        stats_max_weight: 0.5,
        grow_slew: 0.2,
        relax_slew: 0.05,
        rate_block_ms: 500.0,
        rate_follow_ms: 8000.0,
        rate_steady_ms: 0.0,
        max_rate: 0.2,
        extrapolate_after: 1.0,
        extrapolate_ms: 0.0,
        dilate_below_ms: 250.0,
        dilate_min: 0.8,
        overdue_percentile: 0.5,
        target_band_ms: 40.0,
        follow_band_ms: 10.0,
        recover_ms: 100.0,
        teleport_distance: 8.0,
        teleport_speed: 60.0,
        teleport_channels: 3,
        resync_gap_ms: 500.0,
        clock_slew: 0.05,
        clock_follow_ms: 2000.0,
        clock_rate_block_ms: 250.0,
        clock_rate_follow_ms: 450.0,
        clock_rate_steady_ms: 1800.0,
        clock_snap_ms: 500.0,
    };
}

impl Default for NetcodeSettings {
    fn default() -> Self {
        NetcodeSettings::DEFAULT
    }
}
