//! The differential compat oracle: for a schema edit, what the codecs do with sampled
//! values against what `tuplet compat` says, per deploy order (see `compat_oracle.rs`).

pub mod edits;
pub mod judge;
