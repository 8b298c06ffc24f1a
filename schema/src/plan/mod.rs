//! The wire plan: the IR lowered to the decisions every back end shares. The derive, the
//! TypeScript emitter, the IR codec, `sizes`, JSON Schema and the compat lock read these
//! instead of re-deriving them from the IR; each keeps only what is specific to its
//! language.
//!
//! - [`RecordPlan`]: a record's slots in wire order, the required compact prefix (which
//!   trailing slots may be trimmed) and the named shape's key arms, each field's legacy keys
//!   as an explicit [`Legacy`].
//! - [`EnumPlan`]: an enum's form (unit or with data) and its variant table.
//! - Per field, its wire kind's bounds as methods on the IR types: [`Len::bounds`],
//!   [`IntType::bounds`], [`FloatType::quantized`], [`FloatType::value_bounds`].
//! - [`Leaf`] and [`Node`]: a type split into its leaf kinds and containers
//!   ([`TypeRef::node`](crate::ir::TypeRef::node)); each leaf's Rust spelling, encoded size
//!   bounds and layout, so that a back end's per-kind code sits in one place.
//! - [`encoded`]: msgpack header and int sizes.
//! - [`Form`]: the shape a value is being read or written in.
//! - The numeric limits, re-exported from [`crate::limits`].
//!
//! [`Len::bounds`]: crate::ir::Len::bounds
//! [`IntType::bounds`]: crate::ir::IntType::bounds
//! [`FloatType::quantized`]: crate::ir::FloatType::quantized
//! [`FloatType::value_bounds`]: crate::ir::FloatType::value_bounds

pub mod encoded;
mod enums;
mod leaf;
mod record;
mod scalar;

pub use crate::limits::*;
pub use enums::{EnumForm, EnumPlan};
pub use leaf::{Layout, Leaf, Node};
pub use record::{KeyArm, Legacy, RecordPlan, SlotPlan};
pub use scalar::{Form, Quantized};
