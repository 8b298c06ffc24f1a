//! Every constant of the algorithm, named, with its default (the same as TypeScript's
//! `NETCODE_DEFAULTS`).

/// The constants of interpolation and the render clock; [`Settings::DEFAULT`] fits metres and
/// 10–20 Hz senders. Field docs say what each tunes (docs/netcode.md, "Constants").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Samples kept per entity (a fixed ring): enough for `max_delay_ms` at 20 Hz plus one.
    pub ring_size: usize,
    /// The least delay drawn behind the sender's clock (ms): the floor of the adaptive delay.
    pub min_delay_ms: f64,
    /// The most delay for an entity sending at the usual rate (ms).
    pub max_delay_ms: f64,
    /// For an entity whose own interval is long (relayed every 3rd or 10th move), the cap is
    /// raised to this many of its intervals, so its delay still covers one interval.
    pub long_interval_cap: f64,
    /// How many jitters (mean deviations of the interval and of the lateness) the delay adds.
    pub jitter_factor: f64,
    /// What the delay leaves to extrapolation (ms): a sample up to this late costs that much
    /// extrapolation at the carried velocity, so the delay asks for this much less.
    pub dry_grace_ms: f64,
    /// Time constant (ms of the sender's clock) of the averages of interval, lateness, jitter.
    pub stats_ms: f64,
    /// The most weight one sample gets in those averages.
    pub stats_max_weight: f64,
    /// How fast the delay grows toward a higher target (ms of delay per ms).
    pub grow_slew: f64,
    /// How fast the delay relaxes toward a lower target (ms per ms).
    pub relax_slew: f64,
    /// The clock offset's upward creep (ms per ms of arrival time).
    pub offset_creep: f64,
    /// The least time (ms) an entity is extrapolated when its samples run dry, then it holds.
    pub extrapolate_ms: f64,
    /// ... or this many of its own intervals, when that is longer.
    pub extrapolate_intervals: f64,
    /// A jump when fresh samples replace an extrapolation is eased out within this time (95%).
    pub recover_ms: f64,
    /// A move longer than this (units of the first `teleport_channels` linear channels) ...
    pub teleport_distance: f64,
    /// ... and faster than this (units per second) between two samples is a teleport: a snap.
    pub teleport_speed: f64,
    /// How many leading linear channels form the position the teleport test measures.
    pub teleport_channels: usize,
    /// A frame gap longer than this (ms; a hidden tab) resyncs: no blending, no catching up.
    pub resync_gap_ms: f64,
    /// [`crate::netcode::RenderClock`]: the most its time runs fast or slow (0.05: 5%).
    pub clock_slew: f64,
    /// [`crate::netcode::RenderClock`]: a distance from its target past which it snaps (ms).
    pub clock_snap_ms: f64,
}

impl Settings {
    /// The defaults (docs/netcode.md, "Constants").
    pub const DEFAULT: Settings = Settings {
        ring_size: 8,
        min_delay_ms: 120.0,
        max_delay_ms: 300.0,
        long_interval_cap: 1.5,
        jitter_factor: 2.5,
        dry_grace_ms: 25.0,
        stats_ms: 400.0,
        stats_max_weight: 0.5,
        grow_slew: 0.2,
        relax_slew: 0.05,
        offset_creep: 0.005,
        extrapolate_ms: 200.0,
        extrapolate_intervals: 0.5,
        recover_ms: 300.0,
        teleport_distance: 8.0,
        teleport_speed: 60.0,
        teleport_channels: 3,
        resync_gap_ms: 500.0,
        clock_slew: 0.05,
        clock_snap_ms: 500.0,
    };
}

impl Default for Settings {
    fn default() -> Self {
        Settings::DEFAULT
    }
}
