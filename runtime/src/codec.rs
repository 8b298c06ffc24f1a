//! The traits the derives implement, and the entry points users call.

use crate::error::{Error, Issue, Seg};
#[cfg(feature = "sample")]
use crate::sample::{SampleMode, SampleRng};
use crate::wire::{put, Limits, Reader};

/// Which way a message travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// Client to server.
    C2s,
    /// Server to client.
    S2c,
    /// Either way.
    Both,
}

impl Dir {
    /// The spelling used in attributes (`c2s`, `s2c`, `both`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Dir::C2s => "c2s",
            Dir::S2c => "s2c",
            Dir::Both => "both",
        }
    }
}

/// A type with a tuplet wire form: a message, record, enum or flag set.
///
/// Implemented by the derives; every method is straight-line code generated per type.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no tuplet wire form",
    label = "used in a tuplet type here",
    note = "derive `tuplet::Record`, `tuplet::Enum` or `tuplet::Flags` on `{Self}` (or use a supported type: see ATTRIBUTES.md)"
)]
pub trait Wire: Sized {
    /// This type's per-item IR as JSON, for the test that the derive and the loader agree
    /// (only under the `testkit` feature).
    #[cfg(feature = "testkit")]
    const IR: &'static str;
    /// The largest compact encoding in bytes, or `None` when unbounded.
    const MAX_SIZE: Option<usize>;
    /// The fewest bytes any encoding takes, in either shape (a lower bound): what a list
    /// decoder divides the remaining input by to cap the room it reserves.
    const MIN_SIZE: usize = 1;

    /// Appends the compact (positional array) encoding; fails on an invalid value.
    fn encode_compact(&self, out: &mut Vec<u8>) -> Result<(), Error>;
    /// Not public API: writes the compact encoding at `p` in `buf` through the slice writer
    /// ([`put`](crate::wire::put)) and returns the position after it. Called only for a type
    /// with a `MAX_SIZE`, on a slice with that many bytes plus [`put::SLACK`] from `p`. The
    /// derives implement it for bounded records, unit enums and flag sets; this default
    /// encodes into a new `Vec` and copies it.
    #[doc(hidden)]
    fn encode_compact_at(&self, buf: &mut [u8], p: usize) -> Result<usize, Error> {
        let mut v = Vec::new();
        self.encode_compact(&mut v)?;
        Ok(put::bytes(buf, p, &v))
    }
    /// Appends the named (legacy map) encoding; fails on an invalid value.
    fn encode_named(&self, out: &mut Vec<u8>) -> Result<(), Error>;
    /// Reads one value of either shape, validating as it reads.
    fn decode(r: &mut Reader<'_>) -> Result<Self, Error>;
    /// Pushes every constraint this value breaks, with its path below `path`.
    fn validate_at(&self, path: &mut Vec<Seg>, issues: &mut Vec<Issue>);
    /// Whether the two values have identical compact encodings (after quantization),
    /// computed without encoding either.
    fn wire_eq(&self, other: &Self) -> bool;
    /// A valid value drawn from `rng`, aiming at `mode`'s corner of the value space (only
    /// under the `sample` feature).
    #[cfg(feature = "sample")]
    fn sample(rng: &mut SampleRng, mode: SampleMode) -> Self;
}

/// What a field table entry says about one field, for tools and meters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldInfo {
    /// The canonical name.
    pub name: &'static str,
    /// The named-shape key (the first legacy alias, or the name).
    pub key: &'static str,
    /// The type as written in Rust.
    pub ty: &'static str,
}

/// A top-level message: a record with a wire name, an id and a direction.
pub trait Message: Wire {
    /// The wire name (`player:move`), unique per direction.
    const NAME: &'static str;
    /// The envelope id, unique per direction.
    const ID: u32;
    /// Which way it travels.
    const DIR: Dir;
    /// Whether it may travel unreliably (`#[tuplet(unreliable)]`): a transport with datagrams
    /// sends it as one when it fits; everything else goes on the reliable ordered stream.
    const UNRELIABLE: bool = false;
    /// The fields in wire order (reserved slots excluded).
    const FIELDS: &'static [FieldInfo];
    /// Set only by the stub a failed derive leaves behind, so a dispatch enum holding the
    /// message skips its checks instead of reporting the stub's id 0 and empty name.
    #[doc(hidden)]
    const DERIVE_FAILED: bool = false;
}

/// The compact encoding of `value`; an invalid value is an error with its path.
pub fn to_vec<T: Wire>(value: &T) -> Result<Vec<u8>, Error> {
    // 8 bytes of slack: the writer appends ints as one fixed 9-byte copy and cuts it back.
    let mut out = Vec::with_capacity(T::MAX_SIZE.unwrap_or(64).min(1024) + 8);
    value
        .encode_compact(&mut out)
        .map_err(|e| with_path(value, e))?;
    Ok(out)
}

/// Not public API: `value`'s compact encoding appended through the slice writer: `out` grows
/// once by `T::MAX_SIZE` (plus slack) and is cut back to the bytes written. What a bounded
/// type's derived `encode_compact` calls; `T::MAX_SIZE` must be `Some`.
#[doc(hidden)]
#[inline]
pub fn encode_via_slice<T: Wire>(value: &T, out: &mut Vec<u8>) -> Result<(), Error> {
    let max = T::MAX_SIZE.expect("encode_via_slice on a type without a MAX_SIZE");
    // `put::bounded`'s steps, without its closure: this function is instantiated once per
    // bounded type, so its body is kept to three calls (the two others are not generic).
    let start = slice_open(out, max);
    let end = value.encode_compact_at(out, start);
    slice_close(out, start, end)
}

/// Grows `out` by `max` plus the slice writer's slack; returns where the value starts.
#[inline]
fn slice_open(out: &mut Vec<u8>, max: usize) -> usize {
    let start = out.len();
    out.resize(start + max + put::SLACK, 0);
    start
}

/// Cuts `out` back to the bytes written (`end`), or on an error to its old length `start`.
#[inline]
fn slice_close(out: &mut Vec<u8>, start: usize, end: Result<usize, Error>) -> Result<(), Error> {
    match end {
        Ok(end) => {
            out.truncate(end);
            Ok(())
        }
        Err(e) => {
            out.truncate(start);
            Err(e)
        }
    }
}

/// The named (legacy) encoding of `value`; an invalid value is an error with its path.
pub fn to_vec_named<T: Wire>(value: &T) -> Result<Vec<u8>, Error> {
    let mut out = Vec::with_capacity(128);
    value
        .encode_named(&mut out)
        .map_err(|e| with_path(value, e))?;
    Ok(out)
}

/// Encoders stop at the first failed check without tracking where they are (the fast path
/// stays free of path bookkeeping); on that rare failure, `validate` finds the same issue
/// again with its path.
#[cold]
pub(crate) fn with_path<T: Wire>(value: &T, err: Error) -> Error {
    same_issue(validate(value), err)
}

/// The issue among `issues` that `err` is (same code and message), which has its path;
/// `err` itself when none is.
#[cold]
pub(crate) fn same_issue(issues: Vec<Issue>, err: Error) -> Error {
    issues
        .into_iter()
        .find(|i| i.code == err.code() && i.message == err.issue().message)
        .map_or(err, Error::from)
}

/// Decodes one whole value of either shape; bytes left over are an error.
pub fn from_slice<T: Wire>(bytes: &[u8]) -> Result<T, Error> {
    from_slice_with(bytes, Limits::default())
}

/// Decodes one whole value with explicit decoder caps.
pub fn from_slice_with<T: Wire>(bytes: &[u8], limits: Limits) -> Result<T, Error> {
    let mut r = Reader::with_limits(bytes, limits);
    let value = T::decode(&mut r)?;
    r.finish()?;
    Ok(value)
}

/// Every constraint `value` breaks; empty when it is valid.
pub fn validate<T: Wire>(value: &T) -> Vec<Issue> {
    let mut issues = Vec::new();
    value.validate_at(&mut Vec::new(), &mut issues);
    issues
}

/// A sample value for a seed and mode (only under the `sample` feature).
#[cfg(feature = "sample")]
pub fn sample<T: Wire>(seed: u64, mode: SampleMode) -> T {
    T::sample(&mut SampleRng::new(seed), mode)
}

/// A removed field's placeholder: keeps the slot's position, is nil on the wire, and skips
/// whatever an old peer still sends there.
///
/// ```ignore
/// #[tuplet(reserved = "colour: sent once in player:join since 1.4")]
/// pub _colour: tuplet::Reserved,
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reserved;
