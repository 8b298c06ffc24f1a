//! Command logic beyond `gen`, as plain functions the thin `cli` calls.

pub mod compat;
