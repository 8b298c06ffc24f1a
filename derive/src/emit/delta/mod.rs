//! Delta code (WIRE.md, "Delta snapshots"): `Entity` for records declared
//! `entity(key = "...")` (`entity.rs`) and `Delta` for messages declared `delta`
//! (`message.rs`). `mask.rs` holds what both emit per field of a change mask: the
//! differences and whole values written and applied. Which fields travel as differences and
//! which whole is `tuplet_schema::delta::change_of`, shared with the TypeScript emitter.

mod entity;
mod mask;
mod message;

pub use entity::entity_impl;
pub use message::delta_impl;
