//! Typed dispatch: one enum per direction routes every message without a hand-written
//! match, through the binary envelope (id, then payload) or a framework that frames the
//! message name itself (Colyseus).

use crate::codec::Dir;
use crate::delta::Mirrors;
use crate::error::{Code, Error, Issue};
#[cfg(feature = "sample")]
use crate::sample::SampleMode;
use crate::wire::{write, Reader};

/// Which of the two record shapes an encoder writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// Positional arrays: the default, smallest.
    #[default]
    Compact,
    /// Maps keyed by legacy alias or name, for peers that still expect the old shape.
    Named,
}

/// The messages of one direction, as derived by `#[derive(tuplet::Dispatch)]`.
///
/// The derive asserts at compile time that ids and names are unique in the enum, that no
/// reserved id or name is used, and that every message travels in the enum's direction.
pub trait Dispatch: Sized {
    /// The direction every message of this enum travels in.
    const DIR: Dir;
    /// `(name, id)` of every message, in variant order (the index meters count by).
    const MESSAGES: &'static [(&'static str, u32)];
    /// The largest compact payload of every message (`None`: unbounded), in variant order.
    const MAX_SIZES: &'static [Option<usize>];
    /// Whether each message may travel unreliably (`#[tuplet(unreliable)]`), in variant
    /// order: a transport with datagrams sends these as datagrams when they fit.
    const UNRELIABLE: &'static [bool] = &[];

    /// Whether the message with envelope id `id` may travel unreliably (false for an id
    /// the enum does not have).
    fn unreliable_id(id: u32) -> bool {
        Self::MESSAGES
            .iter()
            .position(|&(_, i)| i == id)
            .and_then(|at| Self::UNRELIABLE.get(at).copied())
            .unwrap_or(false)
    }

    /// The variant index of this value, in `MESSAGES` order.
    fn index(&self) -> usize;
    /// Reads the payload of the message with envelope id `id`: a delta message's (declared
    /// `#[tuplet(delta)]`) with `mirrors`, applied to its mirror there and yielding the full
    /// value; without, as a plain message, a tracker's payload failing with `delta_payload`.
    fn decode_by_id_with(
        id: u32,
        r: &mut Reader<'_>,
        mirrors: Option<&mut Mirrors>,
    ) -> Result<Self, Error>;
    /// Reads the payload of the message with envelope id `id`, without mirrors.
    fn decode_by_id(id: u32, r: &mut Reader<'_>) -> Result<Self, Error> {
        Self::decode_by_id_with(id, r, None)
    }
    /// Reads the payload of the message named `name` (with `mirrors`, as `decode_by_id_with`).
    fn decode_by_name_with(
        name: &str,
        r: &mut Reader<'_>,
        mirrors: Option<&mut Mirrors>,
    ) -> Result<Self, Error> {
        // Names and ids are unique in the enum (the derive asserts it): the message named
        // `name` is the one with its id.
        match id_of_name(Self::MESSAGES, name) {
            Some(id) => Self::decode_by_id_with(id, r, mirrors),
            None => Err(unknown_message_name(name)),
        }
    }
    /// Reads the payload of the message named `name`, without mirrors.
    fn decode_by_name(name: &str, r: &mut Reader<'_>) -> Result<Self, Error> {
        Self::decode_by_name_with(name, r, None)
    }
    /// Appends the payload (without envelope) in `encoding`.
    fn encode_payload(&self, out: &mut Vec<u8>, encoding: Encoding) -> Result<(), Error>;
    /// Every constraint the message breaks; empty when valid.
    fn validate(&self) -> Vec<Issue>;
    /// A sample of the message at variant `index` (`None` past the last), for tests,
    /// fuzzers and benchmarks (only under the `sample` feature).
    #[cfg(feature = "sample")]
    fn sample_variant(index: usize, seed: u64, mode: SampleMode) -> Option<Self>;

    /// The wire name of this value's message.
    fn name(&self) -> &'static str {
        Self::MESSAGES[self.index()].0
    }

    /// The envelope id of this value's message.
    fn id(&self) -> u32 {
        Self::MESSAGES[self.index()].1
    }

    /// Decodes a binary envelope: the id as a msgpack uint, then the payload. A delta
    /// message's payload (a tracker's keyframe or delta) fails with `delta_payload`: read
    /// those with [`from_envelope_with`](Self::from_envelope_with).
    fn from_envelope(bytes: &[u8]) -> Result<Self, Error> {
        envelope_with(bytes, None)
    }

    /// Decodes a binary envelope, applying a delta message's payload to its mirror in
    /// `mirrors` (one set per connection) and yielding the full value (a clone of the
    /// mirror's). On an error of a delta message (`no_baseline`: a payload was missed) its
    /// mirror is dropped: ask the sender for a keyframe.
    fn from_envelope_with(bytes: &[u8], mirrors: &mut Mirrors) -> Result<Self, Error> {
        envelope_with(bytes, Some(mirrors))
    }

    /// Decodes a payload whose message name the transport framed (as Colyseus does); a
    /// delta message's payload fails with `delta_payload`, as in `from_envelope`.
    fn from_payload(name: &str, bytes: &[u8]) -> Result<Self, Error> {
        payload_with(name, bytes, None)
    }

    /// Decodes a payload whose message name the transport framed, with `mirrors` as
    /// [`from_envelope_with`](Self::from_envelope_with).
    fn from_payload_with(name: &str, bytes: &[u8], mirrors: &mut Mirrors) -> Result<Self, Error> {
        payload_with(name, bytes, Some(mirrors))
    }

    /// Encodes a binary envelope in `encoding`.
    fn to_envelope(&self, encoding: Encoding) -> Result<Vec<u8>, Error> {
        let mut out = Vec::with_capacity(64);
        write::uint(&mut out, self.id() as u64);
        self.encode_payload(&mut out, encoding)
            .map_err(|e| self.with_path(e))?;
        Ok(out)
    }

    /// Encodes the payload alone (the transport frames the name).
    fn to_payload(&self, encoding: Encoding) -> Result<Vec<u8>, Error> {
        let mut out = Vec::with_capacity(64);
        self.encode_payload(&mut out, encoding)
            .map_err(|e| self.with_path(e))?;
        Ok(out)
    }

    /// The encode error `err` with its path, found again by `validate` (see `to_vec`).
    #[doc(hidden)]
    fn with_path(&self, err: Error) -> Error {
        crate::codec::same_issue(self.validate(), err)
    }
}

/// `from_envelope` and `from_envelope_with`.
fn envelope_with<D: Dispatch>(bytes: &[u8], mirrors: Option<&mut Mirrors>) -> Result<D, Error> {
    let mut r = Reader::new(bytes);
    let id = r.read_u64(0, u32::MAX as u64)? as u32;
    let value = D::decode_by_id_with(id, &mut r, mirrors)?;
    r.finish()?;
    Ok(value)
}

/// `from_payload` and `from_payload_with`.
fn payload_with<D: Dispatch>(
    name: &str,
    bytes: &[u8],
    mirrors: Option<&mut Mirrors>,
) -> Result<D, Error> {
    let mut r = Reader::new(bytes);
    let value = D::decode_by_name_with(name, &mut r, mirrors)?;
    r.finish()?;
    Ok(value)
}

/// The error for an id no message of the direction has.
#[cold]
pub fn unknown_id(id: u32) -> Error {
    Error::new(Code::UnknownMessage, format!("no message has id {id}"))
}

/// The error for a name no message of the direction has.
#[cold]
pub fn unknown_message_name(name: &str) -> Error {
    Error::new(
        Code::UnknownMessage,
        format!("no message is named {name:?}"),
    )
}

/// The id of the message named `name` in a dispatch enum's `MESSAGES`, if any.
pub fn id_of_name(messages: &[(&'static str, u32)], name: &str) -> Option<u32> {
    messages.iter().find(|(n, _)| *n == name).map(|&(_, id)| id)
}
