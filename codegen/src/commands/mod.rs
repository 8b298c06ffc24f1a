//! Command logic beyond `gen`, as plain functions the thin `cli` calls.

pub mod compat;
pub mod decode;
pub mod encode;
pub mod sizes;
