//! Netcode, behind the `netcode` feature. Snapshot interpolation for remote entities
//! (docs/netcode.md): draw each remote entity a little in the past, on the sender's own
//! clock, with a delay each entity measures for itself, and only where it was. The twin of
//! the TypeScript runtime's `interp.ts`, `interp_ring.ts`, `interp_draw.ts`, `settings.ts`,
//! `timing.ts`, `pool.ts`, `curves.ts` and `render_clock.ts`, file for file and decision for
//! decision, with the same constants ([`NetcodeSettings::DEFAULT`]); `tests/fixtures/netcode/`
//! holds the traces both are checked against.
//!
//! ```
//! use tuplet::netcode::{ChannelLayout, InterpState, Interpolator};
//! let mut it = Interpolator::new(ChannelLayout { linear: 2, angle: 1, hold: 0 });
//! it.push_sent(0.0, 40.0, &[0.0, 0.0, 0.0]);
//! it.push_sent(100.0, 140.0, &[1.0, 0.0, 0.1]);
//! it.push_sent(200.0, 240.0, &[2.0, 0.0, 0.2]);
//! let state = it.sample(290.0); // 170 ms behind the sender, on our clock
//! assert_eq!(state, InterpState::Interpolating);
//! assert!(it.out()[0] > 0.0 && it.out()[0] < 2.0);
//! ```
//!
//! Input playout on the server ([`playout`]) and prediction with reconciliation on the
//! client ([`reconcile`]), generic over the game's own input and step function.
//!
//! Nothing here allocates after construction: pushes and frames reuse the ring.

// `!(a > b)` is meant: false for NaN, exactly as the TypeScript twin compares.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

mod adapter;
mod curves;
mod interp;
mod interp_draw;
mod interp_ring;
mod offset;
pub mod playout;
mod pool;
pub mod predict;
pub mod reconcile;
mod render_clock;
pub mod rewind;
mod settings;
mod timing;

pub use adapter::{Clock, EntityFeed, Hold, Interpolate, SampleClock};
pub use curves::{
    angle_delta, end_tangent, exp_ease, monotone_hermite, monotone_tangent, ramp_share,
    spaced_tangent, wrap_angle,
};
pub use interp::Interpolator;
pub use interp_draw::{resync_by, InterpState, Resync};
pub use interp_ring::{still_across, still_lead, ChannelLayout};
pub use pool::InterpolatedSet;
pub use render_clock::RenderClock;
pub use settings::NetcodeSettings;
pub use timing::{follow_time, hold_target, StreamTiming};

#[cfg(test)]
mod interp_tests;
#[cfg(test)]
mod tests;
