//! Netcode, behind the `netcode` feature. Snapshot interpolation for remote entities
//! (docs/netcode.md): draw each remote entity a little in the past, on the sender's own
//! clock, with a delay each entity measures for itself. The twin of the TypeScript runtime's `interp.ts`,
//! `render_clock.ts` and `easing.ts`, decision for decision, with the same constants
//! ([`Settings::DEFAULT`]); `tests/fixtures/netcode/` holds the traces both are checked against.
//!
//! ```
//! use tuplet::netcode::{Interpolator, Layout, State};
//! let mut it = Interpolator::new(Layout { linear: 2, angle: 1, hold: 0 });
//! it.push_sent(0.0, 40.0, &[0.0, 0.0, 0.0]);
//! it.push_sent(100.0, 140.0, &[1.0, 0.0, 0.1]);
//! it.push_sent(200.0, 240.0, &[2.0, 0.0, 0.2]);
//! let state = it.sample(290.0); // 150 ms behind the sender, on our clock
//! assert_eq!(state, State::Interpolating);
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
mod easing;
mod interp;
mod offset;
pub mod playout;
mod pool;
pub mod predict;
pub mod reconcile;
mod render_clock;
pub mod rewind;
mod settings;
mod timing;

pub use adapter::{Clock, Feed, Hold, Interpolate, SampleClock};
pub use easing::{exp_ease, Easer};
pub use interp::{wrap_angle, Interpolator, Layout, State};
pub use pool::InterpPool;
pub use render_clock::RenderClock;
pub use settings::Settings;
pub use timing::StreamTiming;
