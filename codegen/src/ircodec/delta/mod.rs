//! Delta payloads over the IR: a [`Tracker`] (natural JSON → keyframes and deltas) and a
//! [`Mirror`] (payloads → the full natural value) for any message declared
//! `#[tuplet(delta)]` of a loaded schema, without compiling it. They write and accept
//! exactly the bytes of the derive's `tuplet::delta::{Tracker, Mirror}` (WIRE.md, "Delta
//! snapshots"; `tests/tests/ircodec_delta_agrees.rs` proves it on the village).
//!
//! A tracker and a mirror each hold their own schema, so one schema's tracker can feed
//! another schema's mirror (an old server and a new client):
//!
//! ```ignore
//! let mut tracker = Tracker::new(&old, "crate::world::WorldSnapshot", 100)?;
//! let mut mirror = Mirror::new(&new, "crate::world::WorldSnapshot")?;
//! let mut out = Vec::new();
//! if tracker.encode(&value, &mut out)? != Sent::Nothing {
//!     let rebuilt = mirror.apply(&out)?; // compare with `value` as `new` decodes it
//! }
//! ```
//!
//! Which form each field takes is `tuplet_schema::delta::change_of`, its bit
//! `tuplet_schema::delta::mask_slots` (`plan.rs`); `encode.rs` writes payloads, `read.rs`
//! reads and applies them, `payload.rs` says what one carries.

mod encode;
mod mirror;
mod payload;
mod plan;
mod read;
mod tracker;

pub use mirror::Mirror;
pub use payload::{Change, Entry, FieldChange, Payload, PayloadForm};
pub use plan::NotDelta;
pub use tracker::Tracker;
pub use tuplet::delta::Sent;
