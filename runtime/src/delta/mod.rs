//! Delta snapshots: send each client only what changed since what it last received
//! (WIRE.md, "Delta snapshots").
//!
//! Declare a message `#[tuplet(delta)]` and the records its lists hold
//! `#[tuplet(entity(key = "id"))]`; the derives implement [`Delta`] and [`Entity`]. A server
//! keeps one [`Tracker`] per client and per delta message, a client one [`Mirror`]:
//!
//! ```ignore
//! // server, every tick, for each client:
//! let mut out = Vec::new();
//! match client.snapshots.encode(&snapshot_for(client), &mut out)? {
//!     tuplet::delta::Sent::Nothing => {}
//!     _ => client.send(WorldSnapshot::ID, &out),
//! }
//! // on `world:keyframe` from that client:
//! client.snapshots.request_keyframe();
//!
//! // client, on each `world:snapshot` payload:
//! match mirror.apply(payload) {
//!     Ok(snapshot) => render(snapshot),          // the full value, server-quantized
//!     Err(_) => send(WorldKeyframeRequest { .. }), // mirror dropped; wait for a keyframe
//! }
//! ```
//!
//! The baseline is what was last *sent*, which is what the client holds on an ordered,
//! reliable transport (a WebSocket). A client that cannot apply a delta (a gap, a decode
//! error, a tab that slept through messages) drops its mirror, asks for a keyframe, and
//! ignores deltas until one arrives: the cost is one keyframe (about one full compact
//! snapshot) plus the ticks between the request and the keyframe's arrival, about one round
//! trip, during which the client shows its last good state.
//!
//! Over unreliable datagrams, [`Tracker::acked`] and [`Mirror::acked`] number each snapshot:
//! the client acknowledges the newest one it applied in its inputs ([`Mirror::ack`] to
//! [`Tracker::ack`]), and each payload is a delta against the newest acknowledged snapshot
//! still in the server's ring (WIRE.md, "Deltas against acknowledged baselines"). Loss,
//! reordering and duplication cost bytes, never a wrong value.

mod entity;
pub(crate) mod list;
mod message;
mod mirror;
mod ring;
mod tracker;

use std::any::{Any, TypeId};
use std::marker::PhantomData;

use crate::codec::Wire;
use crate::error::{Code, Error};
use crate::wire::Reader;

pub use entity::{no_baseline, probe_difference, probe_mask, Entity, SAFE};
pub use list::{apply_entities, encode_entities, probe_entities, sort_entities, EntityProbe};
pub use message::{clone_delta, mask_count, Delta, DeltaClone, Sent};
pub use mirror::Mirror;
pub use ring::{MAX_RING, RING};
pub use tracker::Tracker;

/// The mirrors of one connection: one [`Mirror`] per delta message, made on its first
/// payload. Typed dispatch reads a delta message through it
/// ([`Dispatch::from_envelope_with`](crate::Dispatch::from_envelope_with)) and yields the
/// full value.
#[derive(Default)]
pub struct Mirrors {
    slots: Vec<(TypeId, Box<dyn Any + Send>)>,
}

impl std::fmt::Debug for Mirrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mirrors({} messages)", self.slots.len())
    }
}

impl Mirrors {
    /// No mirror yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The mirror of delta message `M` (an empty one on first use): its last value, or
    /// `clear` it.
    pub fn get<M: Delta + Send + 'static>(&mut self) -> &mut Mirror<M> {
        let id = TypeId::of::<M>();
        let at = match self.slots.iter().position(|(t, _)| *t == id) {
            Some(at) => at,
            None => {
                self.slots.push((id, Box::new(Mirror::<M>::new())));
                self.slots.len() - 1
            }
        };
        match self.slots[at].1.downcast_mut::<Mirror<M>>() {
            Some(m) => m,
            None => unreachable!("a slot holds the mirror of its TypeId"),
        }
    }

    /// Makes `mirror` the mirror of delta message `M` (a [`Mirror::acked`] for a message
    /// sent in the acknowledged mode), replacing any it had.
    pub fn insert<M: Delta + Send + 'static>(&mut self, mirror: Mirror<M>) {
        let id = TypeId::of::<M>();
        self.slots.retain(|(t, _)| *t != id);
        self.slots.push((id, Box::new(mirror)));
    }

    /// Drops every mirror (after a reconnect): each delta message waits for a keyframe.
    pub fn clear(&mut self) {
        self.slots.clear();
    }
}

/// `delta_payload`: a tracker's payload (`what`: `a keyframe`, `a delta`) decoded as a plain
/// message, without a mirror.
#[cold]
pub fn delta_payload(what: &str) -> Error {
    Error::new(
        Code::DeltaPayload,
        format!("this is a delta message; apply it with a Mirror ({what} from a Tracker)"),
    )
}

/// The `delta_payload` error when `bytes` is a tracker's payload of `M`, else `None`: a
/// keyframe (`[seq, nil, ...]`) that a fresh mirror applies, or a delta (`[seq, mask,
/// ...]`, mask nonzero) whose every announced value reads as its field's change against no
/// baseline (WIRE.md, "Delta snapshots"). Dispatch without mirrors reports it instead of the
/// plain decode error; TypeScript's codec `decode` follows the same rule.
pub fn probe<M: Delta>(bytes: &[u8]) -> Option<Error> {
    let mut r = Reader::new(bytes);
    let n = r.read_array_len().ok()?;
    if n < 2 {
        return None;
    }
    r.read_u64(0, 127).ok()?;
    if r.try_nil().ok()? {
        Mirror::<M>::new().apply(bytes).ok()?;
        return Some(delta_payload("a keyframe"));
    }
    let mask = r.read_u64(1, SAFE).ok()?;
    if mask.count_ones() + 2 != n {
        return None;
    }
    M::probe_changes(mask, &mut r).ok()?;
    r.leave();
    r.finish().ok()?;
    Some(delta_payload("a delta"))
}

/// How typed dispatch reads a message `M` (the derive calls the method on
/// `&DispatchProbe::<M>::new()`): a delta message through its mirror ([`DeltaDispatch`]),
/// any other with its decoder ([`PlainDispatch`]).
#[doc(hidden)]
pub struct DispatchProbe<M>(PhantomData<M>);

impl<M> DispatchProbe<M> {
    /// The probe for `M`.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Self {
        DispatchProbe(PhantomData)
    }
}

/// Dispatch of a delta message: with `mirrors`, the rest of the payload is applied to `M`'s
/// mirror and the full value cloned out; without, a plain decode whose failure on a tracker's
/// payload is `delta_payload`.
#[doc(hidden)]
pub trait DeltaDispatch<M> {
    /// Reads one payload of `M`.
    fn dispatch_read(&self, r: &mut Reader<'_>, mirrors: Option<&mut Mirrors>) -> Result<M, Error>;
}

impl<M: Delta + Send + 'static> DeltaDispatch<M> for DispatchProbe<M> {
    fn dispatch_read(&self, r: &mut Reader<'_>, mirrors: Option<&mut Mirrors>) -> Result<M, Error> {
        match mirrors {
            Some(mirrors) => {
                let payload = r.take_rest();
                mirrors
                    .get::<M>()
                    .apply(payload)
                    .map(DeltaClone::delta_clone)
            }
            None => {
                let payload = r.rest();
                M::decode(r).map_err(|e| probe::<M>(payload).unwrap_or(e))
            }
        }
    }
}

/// Dispatch of any other message: its decoder.
#[doc(hidden)]
pub trait PlainDispatch<M> {
    /// Reads one payload of `M`.
    fn dispatch_read(&self, r: &mut Reader<'_>, mirrors: Option<&mut Mirrors>) -> Result<M, Error>;
}

impl<M: Wire> PlainDispatch<M> for &DispatchProbe<M> {
    #[inline]
    fn dispatch_read(&self, r: &mut Reader<'_>, _: Option<&mut Mirrors>) -> Result<M, Error> {
        M::decode(r)
    }
}

/// The wire int of a quantized field after a difference: the baseline's wire int (of the
/// value held, re-quantized) plus `d`, checked against `qmin..=qmax` (the message in natural
/// units, as on decode).
#[inline]
pub fn add_q(held: f64, d: i64, scale: f64, qmin: i64, qmax: i64) -> Result<i64, Error> {
    let q = crate::support::q_of(held, scale)
        .unwrap_or(0)
        .saturating_add(d);
    if q < qmin || q > qmax {
        return crate::quant::quantize(q as f64 / scale, scale, qmin, qmax);
    }
    Ok(q)
}

/// An int field after a difference: `held + d`, checked against `min..=max`.
#[inline]
pub fn add_int(held: i128, d: i64, min: i128, max: i128) -> Result<i128, Error> {
    let v = held + d as i128;
    crate::support::check_int(v, min, max)?;
    Ok(v)
}
