//! tuplet: compact, validating msgpack codecs for realtime game protocols.
//!
//! Declare messages once with `#[derive(tuplet::Message)]`; get a compact positional
//! encoding, a legacy named encoding, a decoder that accepts both and validates as it reads,
//! and errors with a stable code and a canonical path. WIRE.md is the wire contract;
//! ATTRIBUTES.md the attribute grammar.

#![warn(missing_docs)]

// Lets the derives' `::tuplet::...` paths resolve inside this crate's own tests.
extern crate self as tuplet;

mod codec;
pub mod delta;
mod dispatch;
mod dispatch_checks;
pub mod error;
pub mod meter;
mod named;
#[cfg(feature = "netcode")]
pub mod netcode;
pub mod quant;
pub mod relay;
mod sample;
pub mod silence;
mod support;
pub mod wire;

#[cfg(feature = "sample")]
pub use codec::sample;
pub use codec::{
    from_slice, from_slice_with, to_vec, to_vec_named, validate, Dir, FieldInfo, Message, Reserved,
    Wire,
};
pub use dispatch::{Dispatch, Encoding};
pub use error::{Code, Error, Issue, Path, Seg};
pub use meter::{Meter, MeterRow};
pub use sample::{SampleMode, SampleRng};

#[cfg(feature = "derive")]
pub use tuplet_derive::{Dispatch, Enum, Flags, Message, Record};

/// Not public API: what derived code calls. Versioned by name (`0_1`) and by the `=` pin
/// of the derive, so derived code from another release fails to compile instead of calling
/// the wrong thing; anything here may change in any release.
#[doc(hidden)]
pub mod __private_0_1 {
    pub use crate::codec::{encode_via_slice, validate, Dir, FieldInfo, Message, Reserved, Wire};
    pub use crate::delta::list::{EntityProbe, KeyedList, WholeList};
    pub use crate::delta::{
        add_int, add_q, clone_delta, mask_count, no_baseline, probe_difference, probe_entities,
        probe_mask, Delta, DeltaDispatch, DispatchProbe, Entity, Mirrors, PlainDispatch,
    };
    pub use crate::dispatch::*;
    pub use crate::dispatch_checks::{dispatch_problem, ConstText, DispatchRules};
    pub use crate::error::{Code, Error, Issue, Seg};
    pub use crate::named::{read_named, NamedRead, NamedShape, NamedTarget};
    pub use crate::quant;
    pub use crate::sample::{SampleMode, SampleRng};
    pub use crate::support::*;
    pub use crate::wire::{put, write, Kind, Reader, Shape};
    pub use std::collections::BTreeMap;
    pub use std::vec::Vec;
}

/// The README's quick start, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
